// The dungeon of the day and its leaderboard.
import { t } from "./i18n.js";
import { api, toast } from "./api.js";

const el = (tag, text, cls) => { const n = document.createElement(tag); if (text !== undefined) n.textContent = text; if (cls) n.className = cls; return n; };

export async function start(main) {
  const params = new URL(location.href).searchParams;
  const ruleset = params.get("ruleset") === "coop" ? "coop" : "solo";
  const date = params.get("date");
  let data;
  try { data = await api(`/api/daily?ruleset=${ruleset}${date ? `&date=${encodeURIComponent(date)}` : ""}`); }
  catch (error) { toast(error.message, "error"); return; }
  main.append(el("h1", t("daily.title", { date: data.date })));
  const tabs = el("p", undefined, "tabs");
  for (const r of ["solo", "coop"]) {
    const a = el("a", t(`ruleset.${r}`)); a.href = `/daily?ruleset=${r}${date ? `&date=${date}` : ""}`;
    if (r === ruleset) a.setAttribute("aria-current", "page");
    tabs.append(a);
  }
  main.append(tabs);
  if (data.yours && data.yours.status !== "playing") {
    main.append(el("p", t("daily.played", { score: data.yours.score, result: t(`status.${data.yours.status}`) }), "lead"));
  } else if (data.date === data.today) {
    const play = el("button", t(data.yours ? "daily.continue" : "daily.play"), "primary");
    play.addEventListener("click", async () => {
      try {
        const game = await api("/api/games", { method: "POST", body: { mode: "daily", ruleset } });
        location.href = `/?game=${game.id}`;
      } catch (error) { toast(error.message, "error"); }
    });
    main.append(el("p", t("daily.explain"), "lead"), play);
  }
  main.append(el("h2", t("daily.leaderboard")));
  if (!data.leaderboard.length) { main.append(el("p", t("daily.empty"))); return; }
  const table = el("table", undefined, "leaderboard");
  const head = el("tr");
  for (const k of ["daily.rank", "daily.player", "daily.score", "daily.result"]) head.append(el("th", t(k)));
  table.append(head);
  for (const entry of data.leaderboard) {
    const row = el("tr", undefined, entry.you ? "you" : "");
    row.append(el("td", String(entry.rank)), el("td", (entry.nickname ?? t("daily.anonymous")) + (entry.you ? ` (${t("daily.you")})` : "")),
      scoreCell(entry), el("td", t(entry.won ? "status.won" : "status.lost")));
    table.append(row);
  }
  main.append(table);
}

// A score made with hints is marked as such (the fair bot's advice was asked for).
function scoreCell(entry) {
  const cell = el("td", String(entry.score));
  if (entry.hints) {
    const mark = el("span", t("daily.with_hints"), "hint-mark");
    mark.title = t("game.hints_used", { n: entry.hints });
    cell.append(" ", mark);
  }
  return cell;
}
