// The player's records: stats per mode and ruleset, a histogram, history, nickname.
import { t, lang } from "./i18n.js";
import { api, toast } from "./api.js";

const el = (tag, text, cls) => {
  const n = document.createElement(tag);
  if (text !== undefined) n.textContent = text;
  if (cls) n.className = cls;
  return n;
};

export async function start(main) {
  main.append(el("h1", t("records.title")));
  let me;
  try {
    me = await api("/api/me");
  } catch (error) {
    toast(error.message, "error");
    return;
  }
  main.append(nicknameForm(me.nickname));
  if (!me.stats.length) main.append(el("p", t("records.none"), "lead"));
  main.append(achievementsSection(me.achievements));
  for (const s of me.stats) {
    const section = el("section", undefined, "stats");
    section.append(el("h2", `${t(`mode.${s.mode}`)} · ${t(`ruleset.${s.ruleset}`)}`));
    const dl = el("dl", undefined, "figures");
    const add = (k, v) => {
      const pair = el("div", undefined, "figure");
      pair.append(el("dt", t(k)), el("dd", String(v)));
      dl.append(pair);
    };
    add("records.played", s.played);
    add("records.won", s.won);
    add("records.win_rate", `${Math.round(s.win_rate * 1000) / 10}%`);
    add("records.best", s.best);
    if (s.best_without_help !== null && s.best_without_help !== s.best)
      add("records.best_without_help", s.best_without_help);
    add("records.streak", s.streak);
    add("records.longest_streak", s.longest_streak);
    section.append(dl);
    const most = Math.max(...s.histogram.map((b) => b.games));
    const chart = el("div", undefined, "histogram");
    chart.setAttribute("role", "img");
    chart.setAttribute("aria-label", t("records.histogram"));
    for (const b of s.histogram) {
      const row = el("div", undefined, "bar");
      row.append(el("span", `${b.from}…${b.to}`, "range"));
      const fill = el("span", undefined, "fill");
      fill.style.width = `${(b.games / most) * 100}%`;
      row.append(fill, el("span", t("count.games", { n: b.games }), "n"));
      chart.append(row);
    }
    section.append(el("h3", t("records.histogram")), chart);
    main.append(section);
  }
  if (me.history.length) {
    main.append(el("h2", t("records.history")));
    const table = el("table", undefined, "history");
    const columns = ["records.when", "records.mode", "records.result", "records.score", ""];
    const head = el("tr");
    for (const k of columns) head.append(el("th", k ? t(k) : ""));
    table.append(head);
    // on a phone each game is a small block, its cells named by their column (data-label)
    const labelled = (row) =>
      row.querySelectorAll("td").forEach((cell, i) => {
        if (columns[i]) cell.dataset.label = t(columns[i]);
      });
    const when = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" });
    for (const g of me.history) {
      const row = el("tr");
      row.append(el("td", when.format(new Date(g.created_at))));
      const what = el(
        "td",
        `${g.mode === "random" ? t("mode.random") : t(`mode.${g.mode}_on`, { date: g.daily_date })} · ${t(`ruleset.${g.ruleset}`)}${g.undo_count ? ` · ${t("game.undo_used", { n: g.undo_count })}` : ""}${g.hint_count ? ` · ${t("game.hints_used", { n: g.hint_count })}` : ""}${g.offline ? ` · ${t("offline.badge")}` : ""}`,
      );
      if (g.online)
        what.append(
          " · ",
          el(
            "span",
            g.partner ? t("records.with", { nickname: g.partner }) : t("records.with_friend"),
            "partner",
          ),
        ); // online co-op
      row.append(what);
      row.append(el("td", t(`status.${g.status}`)));
      row.append(el("td", g.score === null ? "—" : String(g.score)));
      const cell = el("td");
      const link = el("a", g.status === "playing" ? t("records.continue") : t("records.replay"));
      link.href =
        g.status === "playing"
          ? g.online
            ? `/?table=${g.id}`
            : `/?game=${g.id}`
          : `/replay/${g.id}`;
      cell.append(link);
      row.append(cell);
      labelled(row);
      table.append(row);
    }
    main.append(table);
  }
  main.append(transferSection());
}

// Carry this player to another device: a one-time code made here, entered there.
function transferSection() {
  const section = el("section", undefined, "transfer");
  section.setAttribute("aria-labelledby", "transfer-title");
  const title = el("h2", t("records.transfer_title"));
  title.id = "transfer-title";
  section.append(title, el("p", t("records.transfer_intro", { minutes: 15 }), "note"));

  const make = el("button", t("records.transfer_make"));
  make.type = "button";
  make.className = "make-code";
  const shown = el("div", undefined, "code-shown");
  shown.setAttribute("aria-live", "polite");
  make.addEventListener("click", async () => {
    make.disabled = true;
    try {
      const made = await api("/api/me/transfer", { method: "POST" });
      const until = new Date(made.expires_at).toLocaleTimeString([], {
        hour: "2-digit",
        minute: "2-digit",
      });
      const code = el("output", made.code, "code");
      const line = el("p", `${t("records.transfer_code")} `);
      line.append(code);
      shown.replaceChildren(line, el("p", t("records.transfer_valid", { time: until }), "note"));
    } catch (error) {
      toast(error.message, "error");
    } finally {
      make.disabled = false;
    }
  });
  section.append(make, shown);

  const form = el("form", undefined, "claim");
  const label = el("label", `${t("records.transfer_enter")} `);
  const input = document.createElement("input");
  input.name = "code";
  input.required = true;
  input.maxLength = 20;
  input.autocomplete = "off";
  input.spellcheck = false;
  input.autocapitalize = "characters";
  input.placeholder = "XXXXX-XXXXX";
  label.append(input);
  const use = el("button", t("records.transfer_use"));
  form.append(label, el("p", t("records.transfer_confirm"), "note"), use);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    use.disabled = true;
    try {
      await api("/api/me/transfer/claim", { method: "POST", body: { code: input.value } });
      toast(t("toast.transfer_done"));
      setTimeout(() => location.reload(), 900);
    } catch (error) {
      toast(error.message, "error");
      use.disabled = false;
    }
  });
  section.append(form);
  return section;
}

function nicknameForm(current) {
  const form = el("form", undefined, "nickname");
  const label = el("label", `${t("records.nickname")} `);
  const input = document.createElement("input");
  input.name = "nickname";
  input.maxLength = 24;
  input.value = current ?? "";
  input.required = true;
  label.append(input);
  const button = el("button", t("records.save_nickname"));
  form.append(label, button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const r = await api("/api/me/nickname", { method: "PUT", body: { nickname: input.value } });
      input.value = r.nickname;
      toast(t("toast.nickname_saved"));
    } catch (error) {
      toast(error.message, "error");
    }
  });
  return form;
}

// Every achievement: those earned with the day, the others still to earn, each saying how.
function achievementsSection({ all, earned }) {
  const got = new Map(earned.map((a) => [a.code, a]));
  const section = el("section", undefined, "stats achievements");
  section.append(
    el("h2", t("ach.title")),
    el("p", t("ach.count", { n: got.size, total: all.length }), "note"),
  );
  const list = el("ul", undefined, "achievement-list");
  const day = new Intl.DateTimeFormat(lang, { dateStyle: "medium" });
  for (const a of all) {
    const mine = got.get(a.code);
    const item = el("li", undefined, mine ? "earned" : "locked");
    item.append(el("b", t(`ach.${a.code}`)), el("span", t(`ach.${a.code}.how`), "how"));
    if (a.fair) item.append(el("span", t("ach.fair"), "fair"));
    item.append(
      el(
        "span",
        mine ? t("ach.earned_on", { date: day.format(new Date(mine.earned_at)) }) : t("ach.locked"),
        "when",
      ),
    );
    list.append(item);
  }
  section.append(list);
  return section;
}
