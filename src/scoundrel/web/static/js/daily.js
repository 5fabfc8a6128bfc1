// The dungeon of the day: today's attempt, the player's streak, the time to the next
// dungeon, the leaderboard of any day, and the archive of past days (played unranked).
import { t, dayName } from "./i18n.js";
import { api, toast } from "./api.js";
import { el } from "./dom.js";

const DAY_MS = 24 * 3600 * 1000;
// The day ``days`` after ``iso`` (YYYY-MM-DD, UTC days, as the server counts them).
export const shiftDay = (iso, days) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

export async function start(main) {
  const params = new URL(location.href).searchParams;
  const ruleset = params.get("ruleset") === "coop" ? "coop" : "solo";
  const date = params.get("date");
  let data;
  try {
    data = await api(
      `/api/daily?ruleset=${ruleset}${date ? `&date=${encodeURIComponent(date)}` : ""}`,
    );
  } catch (error) {
    toast(error.message, "error");
    return;
  }
  const today = data.date === data.today;
  const address = (day, r = ruleset) =>
    `/daily?ruleset=${r}${day && day !== data.today ? `&date=${day}` : ""}`;
  main.append(el("h1", { text: t("daily.title", { date: dayName(data.date) }) }));
  const tabs = el("p", { class: "tabs" });
  for (const r of ["solo", "coop"])
    tabs.append(
      el("a", {
        href: address(data.date, r),
        "aria-current": r === ruleset ? "page" : undefined,
        text: t(`ruleset.${r}`),
      }),
    );
  main.append(tabs);
  if (today) main.append(...todayPanel(data, ruleset));
  else main.append(archivePanel(data, ruleset));
  if (data.par || data.yours?.players) main.append(parPanel(data, ruleset));
  main.append(streakPanel(data));
  const days = el(
    "nav",
    { class: "days", "aria-label": t("daily.days") },
    el("a", { href: address(shiftDay(data.date, -1)), text: t("daily.previous_day") }),
  );
  if (!today)
    days.append(
      el("a", { href: address(shiftDay(data.date, 1)), text: t("daily.next_day") }),
      el("a", { href: address(null), text: t("daily.back_to_today") }),
    );
  main.append(el("h2", { text: t("daily.leaderboard") }), days);
  if (!data.leaderboard.length) {
    main.append(el("p", { text: t("daily.empty") }));
    return;
  }
  const table = el("table", { class: "leaderboard" });
  table.append(
    el(
      "tr",
      {},
      ...["daily.rank", "daily.player", "daily.score", "daily.result"].map((k) =>
        el("th", { text: t(k) }),
      ),
    ),
  );
  for (const entry of data.leaderboard) {
    table.append(
      el(
        "tr",
        { class: entry.you ? "you" : undefined },
        el("td", { text: String(entry.rank) }),
        el("td", {
          text:
            (entry.nickname ?? t("daily.anonymous")) + (entry.you ? ` (${t("daily.you")})` : ""),
        }),
        scoreCell(entry),
        el("td", { text: t(entry.won ? "status.won" : "status.lost") }),
      ),
    );
  }
  main.append(table);
}

function todayPanel(data, ruleset) {
  const parts = [];
  if (data.yours && data.yours.status !== "playing") {
    parts.push(
      el("p", {
        class: "lead",
        text: t("daily.played", {
          score: data.yours.score,
          result: t(`status.${data.yours.status}`),
        }),
      }),
      el(
        "p",
        {},
        el("a", { class: "button", href: `/?game=${data.yours.id}`, text: t("daily.see_result") }),
      ),
    );
  } else {
    parts.push(
      el("p", { class: "lead", text: t("daily.explain") }),
      el("button", {
        class: "primary",
        text: t(data.yours ? "daily.continue" : "daily.play"),
        onclick: () => begin({ mode: "daily", ruleset }),
      }),
    );
  }
  parts.push(countdown(data.next_in));
  return parts;
}

// A past day: its leaderboard, and its dungeon to play again, unranked.
function archivePanel(data, ruleset) {
  const box = el(
    "section",
    { class: "archive", "aria-labelledby": "archive-title" },
    el("h2", { id: "archive-title", text: t("daily.archive_title") }),
    el("p", { class: "note", text: t("daily.archive_explain") }),
  );
  if (data.date < data.today)
    box.append(
      el("button", {
        class: "primary",
        text: t("daily.archive_play", { date: dayName(data.date) }),
        onclick: () => begin({ mode: "archive", ruleset, date: data.date }),
      }),
    );
  else box.append(el("p", { text: t("daily.not_yet") }));
  return box;
}

async function begin(body) {
  try {
    const game = await api("/api/games", { method: "POST", body });
    location.href = `/?game=${game.id}`;
  } catch (error) {
    toast(error.message, "error");
  }
}

function streakPanel(data) {
  const s = data.streak;
  const figures = el("dl", { class: "figures streak" });
  const add = (key, value) =>
    figures.append(
      el("div", { class: "figure" }, el("dt", { text: t(key) }), el("dd", { text: value })),
    );
  add("daily.streak", String(s.streak));
  add("daily.best_streak", String(s.best_streak));
  add("daily.days_played", String(s.played));
  add("daily.best", s.best === null ? "—" : String(s.best));
  return el("section", { class: "stats", "aria-label": t("daily.your_days") }, figures);
}

// "Next dungeon in 5:04:33", counting down each second; at zero, the page offers the new day.
function countdown(seconds) {
  const line = el("p", { class: "countdown", role: "timer", "aria-live": "off" });
  const end = Date.now() + seconds * 1000;
  const two = (n) => String(n).padStart(2, "0");
  const tick = () => {
    if (!line.isConnected && line.dataset.started) return;
    line.dataset.started = "1";
    const ms = Math.max(0, end - Date.now());
    const left = Math.ceil(ms / 1000);
    if (left === 0) {
      line.replaceChildren(el("a", { href: "/daily", text: t("daily.new_day") }));
      return;
    }
    const time = `${Math.floor(left / 3600)}:${two(Math.floor(left / 60) % 60)}:${two(left % 60)}`;
    line.textContent = t("daily.next", { time });
    setTimeout(tick, (ms % 1000) + 5); // just after the shown second runs out
  };
  tick();
  return line;
}

// A score made with hints is marked as such (the fair bot's advice was asked for).
function scoreCell(entry) {
  const cell = el("td", { text: String(entry.score) });
  if (entry.hints)
    cell.append(
      " ",
      el("span", {
        class: "hint-mark",
        title: t("game.hints_used", { n: entry.hints }),
        text: t("daily.with_hints"),
      }),
    );
  return cell;
}

// A score for people: the minus sign of print, not a hyphen ("par −12").
export const signed = (n) => (n < 0 ? `\u2212${-n}` : String(n));

// The day's par, whether its deal can be won, and where the player's score stands among
// the day's: shown for a past day, or once the player's own attempt is over. While the
// par is being worked out, the panel asks again every few seconds and fills itself in.
// ``show(box, data)`` fills the panel (default :func:`fillPar`).
export function parPanel(data, ruleset, show = fillPar) {
  const box = el("section", { class: "stats par", "aria-label": t("par.title") });
  show(box, data);
  if (data.par?.state === "working") followPar(box, ruleset, data.date, show);
  return box;
}

// Ask for the day again while its par is being worked out (at most a few minutes), and
// give each answer to ``show``.
export function followPar(node, ruleset, date, show, tries = 60) {
  const again = async () => {
    if (!node.isConnected || tries-- <= 0) return;
    try {
      const data = await api(`/api/daily?ruleset=${ruleset}&date=${date}`);
      show(node, data);
      if (data.par?.state === "working") setTimeout(again, PAR_POLL_MS);
    } catch {
      setTimeout(again, PAR_POLL_MS * 2);
    }
  };
  setTimeout(again, PAR_POLL_MS);
}

const PAR_POLL_MS = 4000;

export function fillPar(box, data) {
  const par = data.par;
  const figures = el("dl", { class: "figures" });
  const add = (key, value, note) =>
    figures.append(
      el(
        "div",
        { class: "figure" },
        el("dt", { text: t(key) }),
        el("dd", { text: value }),
        ...(note ? [el("dd", { class: "note", text: note })] : []),
      ),
    );
  if (par?.state === "done") {
    add("par.title", signed(par.score), t(par.won ? "par.bot_won" : "par.bot_lost"));
    add(
      "par.winnable",
      t(par.winnable === null ? "par.undecided" : par.winnable ? "par.yes" : "par.no"),
      t("par.winnable_note"),
    );
  } else if (par) add("par.title", "…", t("par.working"));
  const yours = data.yours;
  if (yours && yours.score !== null && yours.players)
    add(
      "par.standing",
      yours.percentile === null ? "—" : t("par.percent", { n: yours.percentile }),
      t(yours.percentile === null ? "par.alone" : "par.standing_note", {
        players: t("count.players", { n: yours.players }),
      }),
    );
  box.replaceChildren(el("h2", { text: t("par.heading") }), figures);
}

// The par in the share text ("par −12"), once it is known.
export const parShare = (data) =>
  data?.par?.state === "done" ? t("share.par", { score: signed(data.par.score) }) : null;
