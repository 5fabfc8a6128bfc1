// The table: one game, solo or co-op, drawn from what the server says is legal.
// No rule is decided here: the legal moves, their previews and the reasons a move is
// refused all come from the server, which asks the rules core; offline, from the same
// core running in the page (offline.js), which answers as the server would.
import { t, lang, modeName, has, bootData, dayName } from "./i18n.js";
import { api, request, connectPlay, toast } from "./api.js";
import { cardElement, backElement, kind, parse, symbol, valueName } from "./cards.js";
import { refusalText, moveText, moveWords, labelText, limitText, saidText } from "./board.js";
import { el } from "./dom.js";
import * as online from "./online.js";
import * as offline from "./offline.js";
import { snapshot, animate, deal, celebrate, reduced } from "./motion.js";
import { shiftDay, parPanel, fillPar, parShare, signed } from "./daily.js";
import { resultSvg, svgAddress, shareResult, saveCard } from "./share.js";
import { setting, showSettings, confirmDeadly } from "./settings.js";

const STORE_KEY = "scoundrel_game";
const POLL_MS = 300;
let game = null;
let selected = null; // index in the room
let giving = false; // co-op: the next action gives the card to the partner
let busy = false;
let advice = null; // the hint for the position shown: {position, move, plan, reason, health, kept, chances}
let thinking = false; // a hint is being asked for (the searching bot takes a second or more)
let analysis = null; // the post-game analysis of the game shown: {id, data}
let day = null; // the day's par and standing, for the daily attempt shown: {id, data}
let pollTimer = null;
let drawn = { id: null, room: [] }; // the room cards on screen: only new ones are dealt
let fresh = []; // the room's cards drawn for the first time by the last render
let root;

export async function start(main) {
  root = main;
  document.addEventListener("keydown", onKey);
  online.init({
    root: () => root,
    current: () => game,
    show: (view) => show(view, view && game?.id === view.id ? game : null),
    render: () => render(),
    play,
    actionLabel,
    selectedCard: () => (game && selected !== null ? (game.room[selected] ?? null) : null),
    deselect: () => {
      selected = null;
      giving = false;
    },
  });
  const asked = new URL(location.href).searchParams.get("game");
  const remembered = asked || localStorage.getItem(STORE_KEY);
  offline.onSent(sentOffline);
  offline.send(); // games played offline that the server has not had yet
  const here = await offline.find(remembered ?? "").catch(() => null);
  if (here) return show(here); // a game played on this device, as it was left
  // no network, and offline play on: the game in play on this device (or a new one)
  if (!navigator.onLine && offline.enabled()) return show(await offline.current());
  try {
    if (await online.start()) return; // /join/INVITE, /?table=ID, or a table in play
    if (remembered) {
      try {
        const found = await api(`/api/games/${encodeURIComponent(remembered)}`);
        // a game in play is shown to its owner; a finished one to whoever asks for its
        // address (its result, breakdown, replay and analysis stay there)
        if (found.status === "playing" ? found.owner : asked)
          return show(await online.adopt(found));
      } catch (error) {
        if (error.status !== 404) throw error;
      }
    }
    const current = await api("/api/games/current");
    connectPlay(); // the socket, ready for a new game (the page brought the cookie)
    if (current.game) return show(await online.adopt(current.game));
    show(null);
  } catch (error) {
    // no server: the game in play on this device, if offline play is on
    const here = error.code === "offline" ? await offline.current().catch(() => null) : null;
    if (!here) toast(error.message, "error");
    show(here);
  }
}

async function newGame(settings) {
  if (busy) return;
  busy = true;
  try {
    if (offline.enabled() && !navigator.onLine) show(await offline.deal(settings));
    else {
      try {
        show(await request("new", settings, "/api/games", settings));
      } catch (error) {
        if (error.code !== "offline" || !offline.enabled()) throw error;
        show(await offline.deal(settings)); // the server is out of reach: play here
      }
    }
    toast(
      t(
        offline.local(game)
          ? "offline.started"
          : settings.mode === "daily"
            ? "toast.daily_started"
            : "toast.new_game",
      ),
    );
  } catch (error) {
    toast(error.message, "error");
  } finally {
    busy = false;
  }
}

// A game played on this device reached the server (``kept``: its view there) or was
// refused (``reason``): the table shows it as the server keeps it, or says why not.
function sentOffline(played, kept, reason) {
  if (!kept) return toast(t("offline.refused", { reason }), "error");
  toast(t("offline.sent"));
  if (game?.id === played.id) show(kept);
}

async function play(token) {
  if (busy || !game || !online.mayAct(game)) return;
  const move = game.legal.find((m) => m.move === token);
  if (move && setting("confirm_deadly") && (move.health ?? []).some((h) => h <= 0)) {
    const asked = game;
    if (
      !(await confirmDeadly(t("settings.deadly_text", { move: actionLabel(move) }))) ||
      game !== asked
    )
      return;
  }
  busy = true;
  const before = game;
  const path = `/api/${game.online ? "tables" : "games"}/${game.id}`;
  if (offline.local(game)) {
    try {
      const after = await offline.move(game, token);
      selected = null;
      giving = false;
      show(after, before);
    } catch (error) {
      toast(error.message, "error");
    } finally {
      busy = false;
    }
    return;
  }
  try {
    const body = { move: token, ...seen(game) };
    // a move whose answer the socket lost may have been played: the game says whether
    const gives = game.online && !!move?.give; // a monster given waits for the partner
    const played = async (http) => {
      const now = await api(path);
      const done = gives
        ? now.pending === move.card && now.moves.length === body.after
        : now.moves.length === body.after + 1 &&
          now.moves[body.after] === token &&
          (game.online || now.undo_count === body.undos);
      return done ? now : http();
    };
    const after = game.online
      ? await online.act("move", body, `${path}/moves`, body, played)
      : await request("move", { game: game.id, ...body }, `${path}/moves`, body, played);
    selected = null;
    giving = false;
    if (online.same(after, game))
      render(); // online: the table pushed it already
    else show(after, before);
  } catch (error) {
    toast(error.message, "error");
    if (error.status === 409 && error.code === "conflict") await catchUp(path); // another tab (or the partner) moved
  } finally {
    busy = false;
  }
}

// The position a request is made on: the moves and undos the page shows. The server
// refuses a move, an undo or a hint asked for on a position the game has left.
const seen = (view) => ({ after: view.moves.length, undos: view.undo_count ?? 0 });

// After a refusal because the game moved on: the game as it stands now.
async function catchUp(path = `/api/games/${game.id}`) {
  const asked = game;
  const now = await api(path).catch(() => null);
  if (now && game === asked) show(now, asked);
}

async function undo() {
  if (
    busy ||
    !game ||
    game.online ||
    game.mode === "daily" ||
    !game.moves.length ||
    game.status !== "playing"
  )
    return;
  busy = true;
  if (offline.local(game)) {
    try {
      show(await offline.undo(game));
      toast(t("toast.undone"));
    } catch (error) {
      toast(error.message, "error");
    } finally {
      busy = false;
    }
    return;
  }
  const path = `/api/games/${game.id}`;
  try {
    const body = seen(game);
    // an undo whose answer the socket lost may have been done: the game says whether
    const undone = async (http) => {
      const now = await api(path);
      return now.moves.length === body.after - 1 && now.undo_count === body.undos + 1
        ? now
        : http();
    };
    const view = await request("undo", { game: game.id, ...body }, `${path}/undo`, body, undone);
    show(view);
    if (tabs) tabs.postMessage({ id: view.id, ...seen(view) }); // show() tells only with a before
    toast(t("toast.undone"));
  } catch (error) {
    toast(error.message, "error");
    if (error.status === 409 && error.code === "conflict") await catchUp(path);
  } finally {
    busy = false;
  }
}

// Another tab of this browser played or undid in one of its games: a page showing that
// game shows it as it stands (each tab says so after every change; a tab coming back into
// view asks the server). Online tables follow their partner live already.
const tabs =
  typeof BroadcastChannel === "undefined" ? null : new BroadcastChannel("scoundrel-games");
if (tabs)
  tabs.onmessage = (event) => {
    if (event.data?.id === game?.id) refresh(event.data);
  };
if (typeof document !== "undefined") {
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && game) refresh(null);
  });
}

async function refresh(told) {
  if (!game || game.online || offline.local(game) || !game.owner) return;
  if (game.status !== "playing" || busy) return;
  const shown = seen(game);
  if (told && told.after === shown.after && told.undos === shown.undos) return;
  const asked = game;
  const now = await api(`/api/games/${game.id}`).catch(() => null);
  if (!now || game !== asked || busy) return;
  if (
    now.moves.length === shown.after &&
    (now.undo_count ?? 0) === shown.undos &&
    now.status === asked.status
  )
    return;
  show(now, asked);
  toast(t("error.changed_meanwhile"));
}

// ---------------------------------------------------------------- hints

const position = (view) => `${view.id} ${view.moves.join(" ")}`;
const adviceHere = () => (advice && game && advice.position === position(game) ? advice : null);

async function askHint() {
  if (busy || !game || game.status !== "playing" || !online.mayAct(game) || game.pending) return;
  if (offline.local(game)) return toast(t("offline.no_hints"), "error");
  if (!adviceHere()) {
    busy = true;
    setThinking(true);
    try {
      const asked = game;
      const where = asked.online
        ? ""
        : `?after=${asked.moves.length}&undos=${asked.undo_count ?? 0}`;
      const answer = await api(
        `/api/${asked.online ? "tables" : "games"}/${asked.id}/hint${where}`,
      );
      if (!game || position(game) !== position(asked)) return; // the game moved on meanwhile
      advice = { ...answer, position: position(asked) };
      game.hint_count = answer.hint_count;
    } catch (error) {
      toast(error.message, "error");
      if (error.status === 409 && error.reason === "stale_position") {
        busy = false;
        await catchUp();
      }
      return;
    } finally {
      busy = false;
      setThinking(false);
    }
  }
  const index = game.room.indexOf(moveWords(advice.move).card); // a flee has no card: -1
  if (index >= 0) {
    selected = index;
    giving = false;
  }
  render();
  document.querySelector(".advice")?.focus();
}

// While the searching bot weighs the moves, the hint button says so (without redrawing
// the table: the player may be reading it).
function setThinking(on) {
  thinking = on;
  const button = document.querySelector("button.hint-button");
  if (button) hintButtonState(button);
  document.querySelector(".actions .thinking-line")?.remove();
  if (on) document.querySelector(".actions")?.prepend(thinkingLine());
}

const thinkingLine = () =>
  el("p", { class: "hint thinking-line", role: "status", text: t("hint.thinking") });

function hintButtonState(button) {
  button.classList.toggle("thinking", thinking);
  button.setAttribute("aria-busy", thinking ? "true" : "false");
  button.replaceChildren(
    el("kbd", { text: "H" }),
    document.createTextNode(` ${t(thinking ? "hint.thinking" : "act.hint")}`),
  );
}

// "20 → 17" alone; "Hero 1 (20 → 11), Hero 2 (20 → 20)" in co-op
function healthChanges(pairs) {
  if (pairs.length === 1) return `${pairs[0][0]} → ${pairs[0][1]}`;
  return pairs
    .map(([before, after], i) => t("hint.change", { hero: heroName(i + 1), before, after }))
    .join(", ");
}

// Why a flee is advised comes with the hint (its flee_reason): it wins more often, it wins
// as often and scores more, nothing wins and it scores most, nothing wins and the fast
// judgement prefers it, or no way wins clearly more and the judgement prefers it.
const FLEE_KEYS = {
  wins: "hint.flee",
  tie: "hint.flee_tie",
  score: "hint.flee_score",
  judged: "hint.flee_judged",
  close: "hint.flee_close",
};
function fleeKey(hint) {
  return FLEE_KEYS[hint.flee_reason] || "hint.flee";
}

function adviceText(hint) {
  const plan = hint.plan.map(moveText).join(" → ");
  if (hint.reason === "flee") return [t(fleeKey(hint))];
  if (hint.reason === "doomed") return [t("hint.doomed", { plan })];
  const lines = [
    t(hint.reason === "final" ? "hint.final" : "hint.face", { move: moveText(hint.move), plan }),
  ];
  lines.push(
    t(hint.reason === "final" ? "hint.health_end" : "hint.health_room", {
      changes: healthChanges(hint.health),
    }),
  );
  if (hint.kept && hint.reason === "face") lines.push(t("hint.kept", { card: symbol(hint.kept) }));
  return lines;
}

const percentFormat = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });
const percent = (chance) => percentFormat.format(chance);

// A move in a few words, with a verb where the card alone would not say it: "Drink 9♥",
// "Equip 5♦", "K♠ with the weapon", "Flee the room".
const NAME_KEYS = { drink: "move.drink", equip: "act.equip" };
function moveName(token) {
  const move = moveWords(token);
  const key = !move.help && NAME_KEYS[move.code];
  return key ? t(key, { card: symbol(move.card) }) : moveText(token);
}

// A legal move's chance to win in the hint, if the hint weighed it. An online give (the
// monster given without saying how it is fought) is worth the better of the partner's two
// ways to fight it: the help card's moves with that card.
function chanceOf(hint, move) {
  const chances = hint?.chances ?? [];
  const found = chances.find((entry) => entry.move === move.move);
  if (found || !move.give) return found ?? null;
  const fights = chances.filter((entry) => {
    const fight = moveWords(entry.move);
    return fight.help && fight.card === move.card;
  });
  return fights.length ? fights.reduce((a, b) => (b.chance > a.chance ? b : a)) : null;
}

// "±8": half the width of the 95% interval, in points; or "exact" when every order of the
// unseen cards was played out.
function margin(entry) {
  if (entry.exact) return t("hint.exact");
  const [low, high] = entry.ci95;
  return `±${number(Math.round((high - low) * 50))}`;
}

function chancesList(hint) {
  const list = el("ol", { class: "chances", "aria-labelledby": "chances-title" });
  for (const entry of hint.chances) {
    const hinted = entry.move === hint.move;
    const [low, high] = entry.ci95;
    const label = el("span", { class: "what", text: moveName(entry.move) });
    if (hinted)
      label.append(" ", el("span", { class: "suggested-mark", text: t("hint.suggested") }));
    const value = el(
      "span",
      { class: "value" },
      el("b", { text: percent(entry.chance) }),
      document.createTextNode(" "),
      el("small", { text: margin(entry) }),
    );
    if (!entry.exact) value.title = t("hint.interval", { low: percent(low), high: percent(high) });
    const bar = el(
      "span",
      { class: "bar", "aria-hidden": "true" },
      el("span", { class: "range" }),
      el("span", { class: "fill" }),
    );
    bar.firstChild.style.setProperty("left", `${low * 100}%`); // CSSOM: the page's CSP forbids style attributes
    bar.firstChild.style.setProperty("width", `${(high - low) * 100}%`);
    bar.lastChild.style.setProperty("width", `${entry.chance * 100}%`);
    list.append(
      el(
        "li",
        {
          class: hinted ? "suggested" : undefined,
          "data-move": entry.move,
          "data-chance": entry.chance,
        },
        label,
        value,
        bar,
      ),
    );
  }
  return list;
}

function advicePanel(hint) {
  const box = el("aside", {
    class: `advice ${hint.reason}`,
    tabindex: "-1",
    "aria-labelledby": "advice-title",
    "data-move": hint.move,
    "data-reason": hint.reason,
  });
  box.append(el("h2", { id: "advice-title", text: t("hint.title") }));
  for (const line of adviceText(hint)) box.append(el("p", { text: line }));
  if (hint.chances?.length) {
    box.append(el("h3", { id: "chances-title", text: t("hint.chances") }), chancesList(hint));
    // when nothing won, the hint went by the average scores or by the fast judgement, and
    // when nothing won clearly more, by the judgement; a flee's own sentence says so already
    const none = hint.chances.every((entry) => entry.chance === 0);
    const said = hint.reason === "flee" && ["score", "judged", "close"].includes(hint.flee_reason);
    let why = null;
    if (none) why = hint.judged ? "hint.chances_judged" : "hint.chances_none";
    else if (hint.judged) why = "hint.chances_close";
    if (why && !said) box.append(el("p", { class: "note", text: t(why) }));
    box.append(el("p", { class: "note", text: t("hint.chances_note") }));
  }
  box.append(el("p", { class: "note", text: t("hint.counted") }));
  return box;
}

// The small "34%" on a choice button, when a hint weighed that move.
function chanceMark(hint, move) {
  const entry = chanceOf(hint, move);
  return entry
    ? el("span", { class: "chance", title: t("hint.chances"), text: percent(entry.chance) })
    : null;
}

// ---------------------------------------------------------------- post-game analysis

function setAnalysis(id, data) {
  analysis = { id, data };
  const box = document.getElementById("analysis");
  if (box && game?.id === id) {
    const hadFocus = box.contains(document.activeElement);
    fillAnalysis(box);
    if (hadFocus) (box.querySelector("button") ?? box).focus();
  }
}

function poll(id) {
  clearTimeout(pollTimer);
  pollTimer = setTimeout(async () => {
    if (game?.id !== id) return;
    try {
      const data = await api(`/api/games/${id}/analysis`);
      setAnalysis(id, data);
      if (data.state === "running") poll(id);
    } catch (error) {
      toast(error.message, "error");
    }
  }, POLL_MS);
}

async function loadAnalysis(id) {
  try {
    const data = await api(`/api/games/${id}/analysis`);
    setAnalysis(id, data);
    if (data.state === "running") poll(id);
  } catch {
    /* the analysis is offered again by its button */
  }
}

async function startAnalysis() {
  const id = game.id;
  try {
    const data = await api(`/api/games/${id}/analysis`, { method: "POST" });
    setAnalysis(id, data);
    document.querySelector("#analysis button")?.focus();
    if (data.state === "running") poll(id);
  } catch (error) {
    toast(error.message, "error");
  }
}

async function cancelAnalysis() {
  const id = game.id;
  clearTimeout(pollTimer);
  try {
    setAnalysis(id, await api(`/api/games/${id}/analysis`, { method: "DELETE" }));
  } catch (error) {
    toast(error.message, "error");
  }
}

const number = (n) => new Intl.NumberFormat(document.documentElement.lang).format(n);

// A move the analysis points at (the first slip, or where the chance to win was lost):
// what was played, what was better, and a link to the position before it in the replay.
function slipBlock(cls, slip, title, played, better) {
  const n = slip.move;
  return el(
    "div",
    { class: cls, "data-move": n },
    el("h4", { text: title }),
    el("p", { text: played }),
    el("p", { class: "better", text: better }),
    el(
      "p",
      {},
      el("a", {
        class: "replay-link",
        href: `/replay/${game.id}?step=${n - 1}`,
        text: t("analysis.show_move", { n }),
      }),
    ),
  );
}

function analysisResult(result) {
  const best =
    result.best_score !== null
      ? t("analysis.best", { best: result.best_score, score: result.score })
      : result.line_score !== null
        ? t("analysis.best_found", { best: result.line_score, score: result.score })
        : t("analysis.score_only", { score: result.score });
  const parts = [
    el("p", {
      class: `verdict ${result.winnable ? "winnable" : "unwinnable"}`,
      text: t(result.winnable ? "analysis.winnable" : "analysis.unwinnable"),
    }),
    el("p", { class: "best", text: best }),
  ];
  const slip = result.slip;
  if (result.stopped_after !== null && result.stopped_after !== undefined) {
    const stopped = result.best_score !== null ? "analysis.slip_stopped" : "analysis.stopped";
    parts.push(
      el("p", {
        class: "note stopped",
        text: t(stopped, { seconds: number(Math.round(result.stopped_after)) }),
      }),
    );
  } else if (slip) {
    parts.push(
      slipBlock(
        "slip",
        slip,
        t("analysis.slip_title", { n: slip.move }),
        t("analysis.slip_played", {
          played: moveText(slip.played),
          before: slip.best_before,
          after: slip.best_after,
        }),
        t("analysis.slip_better", { better: moveText(slip.better), before: slip.best_before }),
      ),
    );
  } else {
    parts.push(el("p", { class: "no-slip", text: t("analysis.no_slip") }));
  }
  const lost = result.win_slip; // never before the first slip: a lost win lowers the best
  if (lost) {
    parts.push(
      slipBlock(
        "win-slip",
        lost,
        t("analysis.win_slip_title", { n: lost.move }),
        t("analysis.win_slip_played", { played: moveText(lost.played) }),
        t("analysis.win_slip_better", { better: moveText(lost.better) }),
      ),
    );
  }
  parts.push(
    el("p", {
      class: "note",
      text: t("analysis.stats", {
        nodes: number(result.nodes),
        seconds: number(Math.round(result.seconds * 10) / 10),
      }),
    }),
  );
  if (result.review?.moves?.length) parts.push(reviewSection(result.review));
  return parts;
}

// ---------------------------------------------------------------- the fair review

const GRADES = ["best", "good", "inaccuracy", "mistake", "blunder"];
const LISTED = new Set(["inaccuracy", "mistake", "blunder"]); // named one by one
const MARKED = new Set(["mistake", "blunder"]); // marked on the chart
const LIST_AT_MOST = 8;

// The fair review under the analysis: what a player could have known, move by move. A chart
// of the chance to win, the grades counted, and the moves that gave most away, worst first.
function reviewSection(review) {
  const section = el("section", { class: "review", "aria-labelledby": "review-title" });
  section.append(
    el("h4", { id: "review-title", text: t("review.title") }),
    el("p", { class: "note", text: t("review.explain") }),
    reviewChart(review),
  );
  const counts = el("ul", { class: "grade-counts", "aria-label": t("review.counts") });
  for (const grade of GRADES) {
    const n = review.counts?.[grade] ?? review.moves.filter((m) => m.grade === grade).length;
    counts.append(
      el("li", {
        class: `grade-${grade}`,
        "data-grade": grade,
        "data-count": n,
        text: t(`review.count.${grade}`, { n }),
      }),
    );
  }
  section.append(counts);
  const listed = review.moves
    .filter((m) => LISTED.has(m.grade))
    .sort((a, b) => b.loss - a.loss || a.move - b.move);
  if (!listed.length) {
    const none = review.chances.slice(0, review.moves.length).every((chance) => chance === 0);
    section.append(
      el("p", {
        class: "review-clean",
        text: none ? t("review.none") : t("review.clean", { n: review.thresholds?.[0] ?? 5 }),
      }),
    );
    return section;
  }
  const list = el("ol", { class: "graded", "aria-label": t("review.list_title") });
  for (const judged of listed.slice(0, LIST_AT_MOST)) {
    list.append(
      el("li", {
        class: `grade-${judged.grade}`,
        "data-move": judged.move,
        "data-grade": judged.grade,
        text: judgedLine(judged),
      }),
    );
  }
  section.append(el("h5", { text: t("review.list_title") }), list);
  if (listed.length > LIST_AT_MOST)
    section.append(
      el("p", { class: "note more", text: t("review.more", { n: listed.length - LIST_AT_MOST }) }),
    );
  return section;
}

// The review's figures, as precise as they come (at most one decimal): 12.5%, 0%, 25%.
const fineFormat = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 1 });
const tenth = (points) => Math.round(points * 10) / 10;

// "Move 12, K♠ bare-handed: blunder — gave up 34 points (52% → 18%); better: K♠ with the
// weapon". The points given up are the difference of the two figures shown.
function judgedLine(judged) {
  const before = tenth(judged.chance * 100);
  const after = tenth(judged.played_chance * 100);
  const points = tenth(before - after);
  return t("review.line", {
    n: judged.move,
    played: moveText(judged.played),
    grade: t(`review.grade.${judged.grade}`),
    points: t("review.points", { n: number(points), count: points }),
    before: fineFormat.format(before / 100),
    after: fineFormat.format(after / 100),
    better: moveText(judged.better),
  });
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs))
    if (value !== undefined && value !== null) node.setAttribute(key, value);
  for (const child of children) if (child) node.append(child);
  return node;
}

// The chart, drawn with the DOM's SVG interfaces (the page's CSP allows no inline script or
// style) at the width it is given (so that its text keeps its size on a phone and on a
// desktop), and drawn again when that width changes.
function reviewChart(review) {
  const figure = el("figure", { class: "review-chart" });
  let width = 0;
  const draw = (room) => {
    const next = Math.max(220, Math.min(640, Math.round(room)));
    if (Math.abs(next - width) < 2) return;
    width = next;
    figure.replaceChildren(chartSvg(review, width));
  };
  draw(Math.min(540, (document.documentElement.clientWidth || 390) - 80));
  if (typeof ResizeObserver === "function") {
    const watch = new ResizeObserver((entries) => {
      if (!figure.isConnected) {
        watch.disconnect();
        return;
      }
      if (entries[0].contentRect.width > 0) draw(entries[0].contentRect.width);
    });
    watch.observe(figure);
  }
  return figure;
}

// Point i is the position before move i + 1, where that move was chosen (its y is the
// "before" of the list), and the last point is the result: x is the move about to be played.
function chartSvg(review, width) {
  const chances = review.chances;
  const last = chances.length - 1;
  const moves = review.moves.length;
  const ended = last === moves; // the graph ends with the result
  const won = ended && chances[last] >= 1;
  const judgedAt = new Map(review.moves.map((m) => [m.move - 1, m]));
  const height = Math.round(Math.max(170, Math.min(230, width * 0.4)));
  const pad = { left: 40, right: 16, top: 10, bottom: 38 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const x = (i) => pad.left + (last ? (i / last) * plotW : plotW / 2);
  const y = (c) => pad.top + (1 - c) * plotH;
  const r = (v) => Math.round(v * 10) / 10;
  const label = t(won ? "review.chart_won" : "review.chart_lost", {
    start: fineFormat.format(chances[0]),
  });
  const chart = svg(
    "svg",
    {
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: "img",
      "aria-labelledby": "review-chart-title",
      class: "chart",
    },
    svg("title", { id: "review-chart-title" }, label),
  );
  const grid = svg("g", { class: "grid" });
  for (const c of [0, 0.25, 0.5, 0.75, 1]) {
    grid.append(
      svg("line", {
        x1: pad.left,
        x2: width - pad.right,
        y1: r(y(c)),
        y2: r(y(c)),
        class: c === 0.5 ? "half" : undefined,
      }),
      svg("text", { x: pad.left - 6, y: r(y(c)) + 4, "text-anchor": "end" }, percent(c)),
    );
  }
  const tick = (i, text, anchor = "middle") =>
    grid.append(
      svg("line", {
        x1: r(x(i)),
        x2: r(x(i)),
        y1: pad.top + plotH,
        y2: pad.top + plotH + 4,
        class: "tick",
      }),
      svg(
        "text",
        { x: r(x(i)) + (anchor === "end" ? 4 : 0), y: pad.top + plotH + 16, "text-anchor": anchor },
        text,
      ),
    );
  // move 1, then every 1, 2, 5, 10… moves (44 px apart at least), clear of the "end" label
  const spacing = plotW / Math.max(1, last);
  const step = [1, 2, 5, 10, 20, 50, 100].find((s) => spacing * s >= 44) ?? 100;
  const numbered = [1];
  for (let n = step; n <= moves; n += step) if ((n - 1) * spacing >= 32) numbered.push(n);
  for (const n of numbered) if (!ended || (last - (n - 1)) * spacing >= 52) tick(n - 1, number(n));
  if (ended) tick(last, t("review.axis_end"), "end"); // inside the chart, however long the word
  grid.append(
    svg(
      "text",
      { x: pad.left + plotW / 2, y: height - 4, "text-anchor": "middle", class: "axis-title" },
      t("review.axis_move"),
    ),
  );
  chart.append(grid);
  const points = chances.map((c, i) => `${r(x(i))},${r(y(c))}`).join(" ");
  chart.append(
    svg("polygon", {
      class: "area",
      points: `${r(x(0))},${r(y(0))} ${points} ${r(x(last))},${r(y(0))}`,
    }),
    svg("polyline", { class: "line", points }),
  );
  const dots = svg("g", { class: "points" });
  chances.forEach((c, i) => {
    const judged = judgedAt.get(i);
    const marked = judged && MARKED.has(judged.grade);
    let title;
    if (ended && i === last) title = t(won ? "review.point_won" : "review.point_lost");
    else if (marked) title = judgedLine(judged);
    else title = t("review.point", { n: i + 1, chance: fineFormat.format(c) });
    dots.append(
      svg(
        "circle",
        {
          cx: r(x(i)),
          cy: r(y(c)),
          r: marked ? 5 : 2.5,
          class: `pt${marked ? ` ${judged.grade}` : ""}`,
          "data-index": i,
        },
        svg("title", {}, title),
      ),
    );
  });
  chart.append(dots);
  return chart;
}

// The analysis's stages that count positions examined (the review counts moves).
const SEARCH_STAGES = new Set(["win", "slip", "best"]);

function fillAnalysis(box) {
  const data = analysis?.id === game.id ? analysis.data : { state: "none" };
  box.dataset.state = data.state;
  box.replaceChildren(el("h3", { id: "analysis-title", text: t("analysis.title") }));
  if (data.state === "running") {
    const key =
      data.stage === "queued"
        ? "analysis.queued"
        : SEARCH_STAGES.has(data.stage)
          ? `analysis.${data.stage}_stage`
          : "analysis.starting";
    const total = game.moves.length;
    const reviewing = data.stage === "review" && total > 0; // nodes: the moves judged so far
    const text = reviewing
      ? t("analysis.review_stage", {
          n: number(Math.min(data.nodes + 1, total)),
          total: number(total),
        })
      : t(key, { nodes: number(data.nodes) });
    box.append(
      el("p", { class: "progress-line", text }),
      el("progress", {
        "aria-label": t("analysis.title"),
        max: reviewing ? total : undefined,
        value: reviewing ? Math.min(data.nodes, total) : undefined,
      }),
      el(
        "div",
        {},
        el("button", {
          class: "cancel-analysis",
          text: t("analysis.cancel"),
          onclick: cancelAnalysis,
        }),
      ),
    );
  } else if (data.state === "done") {
    box.append(...analysisResult(data.result));
  } else {
    if (data.state === "cancelled")
      box.append(el("p", { class: "note", text: t("analysis.cancelled") }));
    else if (data.state === "failed")
      box.append(
        el("p", {
          class: "note",
          text: t(
            data.reason === "timeout"
              ? "analysis.timeout"
              : data.reason === "memory"
                ? "analysis.too_big"
                : "analysis.failed",
          ),
        }),
      );
    else box.append(el("p", { class: "note", text: t("analysis.explain") }));
    box.append(
      el("button", {
        class: "analyse",
        text: t(data.state === "none" ? "analysis.start" : "analysis.again"),
        onclick: startAnalysis,
      }),
    );
  }
}

function analysisPanel() {
  const box = el("section", {
    class: "analysis",
    id: "analysis",
    tabindex: "-1",
    "aria-live": "polite",
    "aria-labelledby": "analysis-title",
  });
  fillAnalysis(box);
  return box;
}

function settingsForm() {
  const form = el("form", { class: "setup", "aria-label": t("setup.title") });
  const radio = (name, value, label, checked) =>
    el(
      "label",
      {},
      el("input", { type: "radio", name, value, checked }),
      document.createTextNode(` ${label}`),
    );
  const checkbox = (name, checked, label) =>
    el(
      "label",
      {},
      el("input", { type: "checkbox", name, checked }),
      document.createTextNode(` ${label}`),
    );
  const last = game
    ? { mode: game.mode, ruleset: game.ruleset, options: game.options }
    : { mode: "random", ruleset: "solo", options: {} };
  const o = last.options || {};
  const dailyNext = last.mode === "daily" && game?.status === "playing"; // once played, a random one next
  form.append(
    el(
      "fieldset",
      {},
      el("legend", { text: t("setup.mode") }),
      radio("mode", "random", t("mode.random"), !dailyNext),
      radio("mode", "daily", t("mode.daily"), dailyNext),
    ),
    el(
      "fieldset",
      {},
      el("legend", { text: t("setup.ruleset") }),
      radio("ruleset", "solo", t("ruleset.solo"), last.ruleset !== "coop"),
      radio("ruleset", "coop", t("ruleset.coop"), last.ruleset === "coop" && !game?.online),
      radio("ruleset", "online", t("online.setup_choice"), !!game?.online),
    ),
  );
  const solo = el(
    "fieldset",
    { class: "options solo" },
    el("legend", { text: t("setup.options") }),
    checkbox(
      "solo_lenient",
      last.ruleset === "solo" && o.weapon === "lenient",
      t("option.lenient"),
    ),
    checkbox("dungeon_only", o.death_score === "dungeon-only", t("option.dungeon_only")),
  );
  const coop = el(
    "fieldset",
    { class: "options coop" },
    el("legend", { text: t("setup.options") }),
    checkbox("coop_strict", last.ruleset === "coop" && o.weapon === "strict", t("option.strict")),
    checkbox("easier", o.easier, t("option.easier")),
    checkbox("harder", o.harder, t("option.harder")),
    checkbox("silent_leader", o.silent_leader, t("option.silent_leader")),
    el(
      "label",
      {},
      document.createTextNode(`${t("option.first_leader")} `),
      (() => {
        const s = el("select", { name: "first_leader" });
        for (const n of [1, 2])
          s.append(
            el("option", {
              value: n,
              text: t("hero.name", { n }),
              selected: (o.first_leader ?? 1) === n,
            }),
          );
        return s;
      })(),
    ),
  );
  // The variants (V1, V2) for either ruleset, each offered with every value the core lists.
  const variants = el(
    "fieldset",
    { class: "options variants" },
    el("legend", { text: t("setup.variants") }),
    el("p", { class: "note", text: t("setup.variants_note") }),
  );
  for (const [name, values] of Object.entries(bootData.variants)) {
    const s = el("select", { name: `variant_${name}` });
    for (const value of values)
      s.append(
        el("option", {
          value: String(value),
          text: variantValue(name, value),
          selected: (o[name] ?? values[0]) === value,
        }),
      );
    variants.append(el("label", {}, document.createTextNode(`${t(`option.${name}`)} `), s));
  }
  const note = el("p", { class: "note daily-note", text: t("setup.daily_note") });
  const onlineNote = el("p", { class: "note online-note", text: t("online.setup_note") });
  form.append(
    solo,
    coop,
    variants,
    note,
    onlineNote,
    el("button", { type: "submit", class: "primary", text: t("setup.start") }),
  );
  const sync = () => {
    const data = new FormData(form);
    const ruleset = data.get("ruleset");
    const daily = data.get("mode") === "daily";
    solo.hidden = ruleset !== "solo" || daily;
    coop.hidden = (ruleset !== "coop" && ruleset !== "online") || daily;
    variants.hidden = daily; // the dungeon of the day is played by the standard rules
    note.hidden = !daily;
    onlineNote.hidden = ruleset !== "online";
    form.querySelector("input[name=ruleset][value=online]").disabled = daily; // a random dungeon only
    form.querySelector("input[name=mode][value=daily]").disabled = ruleset === "online";
  };
  form.addEventListener("change", sync);
  sync();
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const mode = data.get("mode");
    const ruleset = data.get("ruleset");
    let options = {};
    if (mode !== "daily") {
      options =
        ruleset === "solo"
          ? {
              weapon: data.get("solo_lenient") ? "lenient" : "strict",
              death_score: data.get("dungeon_only") ? "dungeon-only" : "standard",
            }
          : {
              weapon: data.get("coop_strict") ? "strict" : "lenient",
              easier: !!data.get("easier"),
              harder: !!data.get("harder"),
              silent_leader: !!data.get("silent_leader"),
              first_leader: Number(data.get("first_leader")),
            };
      for (const [name, values] of Object.entries(bootData.variants)) {
        const chosen = values.find((value) => String(value) === data.get(`variant_${name}`));
        if (chosen !== undefined && chosen !== values[0]) options[name] = chosen;
      }
    }
    if (ruleset === "online")
      online.openTable(options); // a table for a friend on another device
    else newGame({ mode, ruleset, options });
  });
  return form;
}

// A variant's value in words: the catalog's option.<name>_<value> where it has one
// ("never (Relentless)", "14 (Frail)"), else the value itself (a number).
function variantValue(name, value) {
  return has(`option.${name}_${value}`) ? t(`option.${name}_${value}`) : String(value);
}

// A phone or tablet: no keyboard to speak of, so the keys are not named.
const touch = () => matchMedia("(hover: none) and (pointer: coarse)").matches;

function heroName(n) {
  return game.heroes.length === 1 ? t("hero.you") : t("hero.name", { n });
}

function heroPanel(hero, n, before) {
  const leader = game.heroes.length > 1 && game.leader === n;
  const panel = el("section", {
    class: `hero${leader ? " leader" : ""}`,
    "aria-label": heroName(n),
    "data-hero": n,
  });
  const title = el("h2", {}, document.createTextNode(heroName(n)));
  if (leader) title.append(el("span", { class: "badge", text: t("hero.leader") }));
  panel.append(title);
  const pct = (Math.max(0, hero.health) / hero.max_health) * 100;
  const left = Math.max(0, hero.health); // a fallen hero has none left (the score counts the rest)
  const bar = el("div", {
    class: `health${hero.health <= 5 ? " low" : ""}`,
    role: "meter",
    "aria-valuemin": 0,
    "aria-valuemax": hero.max_health,
    "aria-valuenow": left,
    "aria-label": t("hero.health"),
  });
  const fill = el("span", { class: "fill" });
  fill.style.width = `${pct}%`; // CSSOM: a style attribute would break the page's CSP
  bar.append(
    fill,
    el("span", {
      class: "value",
      text: t("hero.health_value", { health: left, max: hero.max_health }),
    }),
  );
  if (before && before.health !== hero.health) {
    const change = hero.health - before.health;
    bar.classList.add(change < 0 ? "hurt" : "healed");
    bar.append(
      el("span", {
        class: `float ${change < 0 ? "hurt" : "healed"}`,
        "aria-hidden": "true",
        text: (change < 0 ? "−" : "+") + Math.abs(change),
      }),
    );
  }
  panel.append(bar);
  if (hero.health <= 0) {
    // this hero fell
    panel.classList.add("fallen");
    title.append(el("span", { class: "badge fallen-mark", text: `☠ ${t("hero.fallen")}` }));
  }
  const weapon = el("div", { class: "weapon" });
  if (hero.weapon) {
    const pile = el("div", { class: "weapon-pile" }, cardElement(hero.weapon));
    hero.stack.forEach((code, i) => {
      const c = cardElement(code, { size: "small" });
      c.style.setProperty("--i", i);
      c.classList.add("slain");
      pile.append(c);
    });
    weapon.append(pile);
  }
  // how far the weapon reaches, as the core states it (S9, C7)
  weapon.append(
    el("p", { class: `marker${hero.weapon ? "" : " none"}`, text: limitText(hero.limit) }),
  );
  panel.append(weapon);
  panel.append(
    el("p", {
      class: `potion${hero.potion_used ? " used" : ""}`,
      text: hero.potion_used ? t("hero.potion_used") : t("hero.potion_ready"),
    }),
  );
  return panel;
}

function dungeonPanel() {
  const panel = el("section", { class: "dungeon", "aria-label": t("table.dungeon") });
  panel.append(backElement(game.dungeon_count));
  const left = el("div", { class: "left" }, el("h2", { text: t("table.left") }));
  const list = el("ul", {});
  for (const k of ["monster", "weapon", "potion"]) {
    const counts = game.unseen[k];
    const n = Object.values(counts).reduce((a, b) => a + b, 0);
    const values = Object.entries(counts)
      .flatMap(([v, c]) => Array(c).fill(valueName(Number(v))))
      .join(" ");
    list.append(
      el(
        "li",
        { class: `kind-${k}` },
        el("b", { text: t(`count.${k}`, { n }) }),
        el("span", { class: "values", text: values }),
      ),
    );
  }
  left.append(list);
  if (game.known_bottom.length) {
    left.append(
      el("p", {
        class: "bottom",
        text: t("table.bottom", { cards: game.known_bottom.map(symbol).join(" ") }),
      }),
    );
  }
  panel.append(left);
  return panel;
}

function movesFor(index) {
  const code = game.room[index];
  return game.legal.filter((m) => m.card === code);
}

// What a legal move does, in words: the server sends the rules core's label with it.
function actionLabel(move) {
  return labelText(move.label);
}

function actionsPanel() {
  const panel = el("section", {
    class: "actions",
    "aria-live": "polite",
    "aria-label": t("table.actions"),
  });
  if (game.status !== "playing") return panel;
  if (game.pending) return online.pendingPanel(panel, game);
  const hint = adviceHere();
  if (thinking && !hint) panel.append(thinkingLine());
  if (hint) panel.append(advicePanel(hint));
  const acting = online.mayAct(game);
  if (!acting) panel.append(online.waitingLine(game));
  if (selected === null || selected >= game.room.length) {
    // the keys of the cards there are, and fleeing only where the server lists it
    const keys = game.room.length === 1 ? "1" : `1–${game.room.length}`;
    const flee = game.legal.some((m) => m.move === "F") ? "_flee" : "";
    const key =
      (touch()
        ? game.heroes.length > 1
          ? "table.choose_coop_touch"
          : "table.choose_touch" // no keys to name on a touch screen
        : game.heroes.length > 1
          ? "table.choose_room_coop"
          : "table.choose_room") + flee;
    if (acting) panel.append(el("p", { class: "hint", text: t(key, { n: game.leader, keys }) }));
    return panel;
  }
  const code = game.room[selected];
  panel.append(el("h2", { text: symbol(code) }));
  const list = el("div", { class: "choices" });
  const moves = movesFor(selected);
  const keyOf = (m) => (m.card && kind(parse(m.card)) === "monster" ? (m.weapon ? "W" : "B") : "⏎");
  for (const move of moves) {
    const suggested = hint?.move === move.move;
    const button = el("button", {
      class: `choice${move.help ? " give" : ""}${(move.health ?? []).some((h) => h <= 0) ? " deadly" : ""}${suggested ? " suggested" : ""}`,
      "data-move": move.move,
      disabled: !acting,
      onclick: () => play(move.move),
    });
    button.append(
      el("kbd", { text: move.give ? "G" : (move.help ? "G " : "") + keyOf(move) }),
      document.createTextNode(` ${actionLabel(move)}`),
    );
    if (suggested)
      button.append(el("span", { class: "suggested-mark", text: t("hint.suggested") }));
    const chance = chanceMark(hint, move);
    if (chance) {
      button.append(chance);
      button.classList.add("with-chance");
    }
    list.append(button);
  }
  for (const [token, refusal] of Object.entries(game.blocked)) {
    // a weapon fight with this card that the rules refuse (not for want of a weapon)
    const blocked = moveWords(token);
    if (blocked.code !== "fight_weapon" || blocked.card !== code || refusal.code === "no_weapon")
      continue;
    const help = blocked.help;
    if (game.online && help) continue; // online, the partner chooses how to fight
    const text =
      t(help ? "act.give_fight_weapon_blocked" : "act.fight_weapon_blocked", {
        card: symbol(code),
      }) +
      " — " +
      refusalText(refusal);
    list.append(
      el("button", { class: "choice blocked", disabled: true, "data-move": token, text }),
    );
  }
  panel.append(list);
  return panel;
}

function roomPanel(before) {
  const panel = el("section", {
    class: "room",
    "aria-label": t(game.final_room ? "table.final_room" : "table.room"),
  });
  panel.append(
    el("h2", { class: "sr-only", text: t(game.final_room ? "table.final_room" : "table.room") }),
  );
  const row = el("div", { class: "room-cards" });
  const old = new Set(before ? before.room : drawn.id === game.id ? drawn.room : []);
  fresh = [];
  drawn = { id: game.id, room: [...game.room] };
  const advised = adviceHere();
  const hinted = advised ? moveWords(advised.move).card : undefined;
  game.room.forEach((code, i) => {
    const card = cardElement(code, { tag: "button" });
    card.classList.toggle("selected", selected === i);
    if (code === hinted) card.classList.add("suggested");
    if (!old.has(code)) fresh.push(code); // dealt from the dungeon once drawn (motion.js)
    card.setAttribute("aria-pressed", selected === i ? "true" : "false");
    card.setAttribute("aria-keyshortcuts", String(i + 1));
    card.dataset.key = String(i + 1); // drawn in its corner (aria-keyshortcuts names it)
    // the help card is marked for whoever may give it now: not on the partner's screen
    if (
      online.mayAct(game) &&
      game.legal.some((m) => m.card === code && m.help) &&
      !(game.online && game.pending)
    ) {
      card.append(el("span", { class: "give-mark", text: t("table.can_give") }));
      card.setAttribute("aria-label", `${card.getAttribute("aria-label")}, ${t("table.can_give")}`);
    }
    online.decorate(card, code, game);
    card.disabled = game.status !== "playing";
    card.addEventListener("click", () => {
      selected = selected === i ? null : i;
      giving = false;
      render();
    });
    row.append(card);
  });
  panel.append(row);
  if (game.status !== "playing") return panel; // the result says it all
  if (game.final_room) panel.append(el("p", { class: "note", text: t("table.final_note") }));
  else
    panel.append(el("p", { class: "note", text: t("table.taken", { n: game.resolved_in_room }) }));
  return panel;
}

// The settings (settings.js): on a phone the gear alone (its name stays the button's name).
const settingsButton = () =>
  el(
    "button",
    {
      class: "settings-button",
      onclick: showSettings,
      "aria-label": t("settings.title"),
      title: t("settings.title"),
    },
    "⚙",
    el("span", { class: "label", text: ` ${t("settings.title")}` }),
  );

function controls() {
  const bar = el("section", { class: "controls", "aria-label": t("table.controls") });
  const help = el("button", { class: "keys-button", "aria-keyshortcuts": "?", onclick: showKeys });
  help.append(el("kbd", { text: "?" }), document.createTextNode(` ${t("act.keys")}`));
  const options = settingsButton();
  if (game.status !== "playing") {
    bar.append(help, options);
    return bar;
  } // nothing left to play
  const fleeMove = game.legal.find((m) => m.move === "F");
  const reason = game.blocked.F ? refusalText(game.blocked.F) : "";
  const flee = el("button", {
    class: `flee${adviceHere()?.move === "F" ? " suggested" : ""}`,
    "data-move": "F",
    disabled: !fleeMove || !online.mayAct(game),
    title: reason,
    "aria-describedby": !fleeMove && reason ? "flee-reason" : undefined,
    "aria-keyshortcuts": "F",
    onclick: () => play("F"),
  });
  // a phone shows the short name: the bar that stays on screen keeps to one row
  flee.append(
    el("kbd", { text: "F" }),
    el("span", { class: "long", text: ` ${t("act.flee")}` }),
    el("span", { class: "short", text: ` ${t("act.flee_short")}` }),
  );
  const fleeChance = fleeMove && chanceMark(adviceHere(), fleeMove);
  if (fleeChance) flee.append(fleeChance);
  bar.append(flee);
  if (!fleeMove && reason)
    bar.append(el("span", { class: "reason", id: "flee-reason", text: reason }));
  if (game.mode !== "daily" && !game.online) {
    // no undo in the daily (its deck is the day's), nor online
    const u = el("button", {
      class: "undo",
      disabled: !game.moves.length,
      "aria-keyshortcuts": "U",
      onclick: undo,
    });
    u.append(el("kbd", { text: "U" }), document.createTextNode(` ${t("act.undo")}`));
    bar.append(u);
  }
  if (online.mayAct(game) && !game.pending && !offline.local(game)) {
    const h = el("button", { class: "hint-button", "aria-keyshortcuts": "H", onclick: askHint });
    hintButtonState(h);
    bar.append(h);
  }
  bar.append(help, options);
  return bar;
}

function header() {
  const mode = modeName(game);
  const rules = [t(`ruleset.${game.ruleset}`), t(`option.weapon_${game.options.weapon}`)];
  if (game.options.death_score === "dungeon-only") rules.push(t("option.dungeon_only"));
  for (const name of ["easier", "harder", "silent_leader"])
    if (game.options[name]) rules.push(t(`option.${name}`));
  for (const [name, values] of Object.entries(bootData.variants))
    if (name in game.options && game.options[name] !== values[0])
      rules.push(
        t("app.labelled", {
          label: t(`option.${name}`),
          value: variantValue(name, game.options[name]),
        }),
      );
  const head = el(
    "div",
    { class: "game-head" },
    el("h1", { text: mode }),
    el("p", { class: "rules-line", text: rules.join(" · ") }),
  );
  if (game.undo_count)
    head.append(
      el("p", { class: "badge undo-badge", text: t("game.undo_used", { n: game.undo_count }) }),
    );
  if (game.hint_count)
    head.append(
      el("p", { class: "badge hint-badge", text: t("game.hints_used", { n: game.hint_count }) }),
    );
  if (game.offline)
    head.append(el("p", { class: "badge offline-badge", text: t("offline.badge") }));
  return head;
}

function scoreLines() {
  const list = el("dl", { class: "breakdown" });
  for (const [name, points] of game.score_breakdown) {
    list.append(
      el("dt", { text: t(`score.${name}`) }),
      el("dd", { text: (points > 0 ? "+" : "") + points }),
    );
  }
  list.append(
    el("dt", { class: "total", text: t("score.total") }),
    el("dd", { class: "total", text: String(game.score) }),
  );
  return list;
}

function gameOver() {
  const won = game.status === "won";
  const box = el("section", {
    class: `over ${game.status}`,
    tabindex: "-1",
    "aria-labelledby": "over-title",
  });
  if (game.status === "closed") {
    // its day ended before it did: no score, never ranked
    box.append(
      el("h2", { id: "over-title", text: t("over.closed") }),
      el("p", { class: "note", text: t("over.closed_note") }),
    );
  } else
    box.append(
      el("h2", { id: "over-title", text: t(won ? "over.won" : "over.lost") }),
      scoreLines(),
    );
  const share = `${location.origin}/replay/${game.id}`;
  const buttons = el(
    "div",
    { class: "over-buttons" },
    game.online
      ? game.you !== null &&
          (online.againAfter(game) // the partner opened the next table: join it
            ? el("button", {
                class: "primary join-again",
                text: t("online.join_again"),
                onclick: () => online.joinAgain(game),
              })
            : el("button", {
                class: "primary",
                text: t("over.again"),
                onclick: () => online.openTable(game.options, game.id),
              }))
      : el("button", {
          class: game.run && game.mode === "daily" ? "again" : "primary",
          text: t(game.mode === "random" ? "over.again" : "over.random"),
          onclick: () =>
            newGame({
              mode: "random",
              ruleset: game.ruleset,
              options: game.mode === "random" ? game.options : {},
            }),
        }),
  );
  if (game.mode !== "random" && game.daily_date) {
    // the dungeon of the day, or a past day's: the archive is next to it
    buttons.append(
      el("a", {
        class: "button archive-link",
        href: `/daily?ruleset=${game.ruleset}&date=${shiftDay(game.daily_date, -1)}`,
        text: t("over.archive"),
      }),
    );
  }
  const here = offline.local(game); // played on this device: not on the server yet
  if (game.run && game.mode === "daily" && !here) {
    buttons.prepend(
      el("button", {
        class: "primary share",
        text: t("over.share"),
        onclick: () =>
          shareResult({ text: shareText(), svg: resultSvg(resultCard()), name: cardName() }, () =>
            copy(shareText(), t("toast.share_copied")),
          ),
      }),
      el("button", {
        class: "save-card",
        text: t("over.save_card"),
        onclick: () => saveCard(resultSvg(resultCard()), cardName()),
      }),
    );
    // the preview's signs are read aloud badly ("large green square"): a screen reader
    // reads its spoken form instead
    box.append(
      el(
        "figure",
        { class: "share-figure", "aria-label": t("over.share_preview") },
        el("img", {
          class: "share-card",
          alt: "",
          width: 600,
          height: 315,
          src: svgAddress(resultSvg(resultCard())),
        }),
        el("pre", { class: "share-preview", "aria-hidden": "true", text: shareText() }),
        el("figcaption", { class: "sr-only share-spoken", text: shareSpoken() }),
      ),
      dayPanel(),
    );
  }
  if (game.record && here) {
    buttons.append(
      el("button", {
        class: "copy-record",
        text: t("over.copy_record"),
        onclick: () => copy(JSON.stringify(game.record), t("toast.record_copied")),
      }),
    );
    box.append(
      el("p", {
        class: "note offline-waiting",
        text: game.refused ? t("offline.refused", { reason: game.refused }) : t("offline.waiting"),
      }),
    );
  } else if (game.record) {
    buttons.append(
      el("button", {
        class: "copy-record",
        text: t("over.copy_record"),
        onclick: () => copy(JSON.stringify(game.record), t("toast.record_copied")),
      }),
      el("button", {
        class: "copy-link",
        text: t("over.copy_link"),
        onclick: () => copy(share, t("toast.link_copied")),
      }),
      el("a", { class: "button", href: `/replay/${game.id}`, text: t("over.watch") }),
    );
  } else {
    box.append(el("p", { class: "note", text: t("over.daily_hidden") }));
  }
  box.append(buttons);
  if (game.record && game.status !== "closed" && !here) box.append(analysisPanel()); // a closed attempt never ended
  if (game.mode === "daily" && !here)
    box.append(el("p", {}, el("a", { href: "/daily", text: t("over.leaderboard") })));
  return box;
}

// The day's par and the player's standing among the day's players, under a finished
// attempt at the dungeon of the day; the share text takes the par once it is known.
function dayPanel() {
  const id = game.id;
  const show = (node, data) => {
    day = { id, data };
    fillPar(node, data);
    const preview = document.querySelector(".share-preview");
    if (preview && game?.id === id) {
      preview.textContent = shareText();
      document.querySelector(".share-spoken").textContent = shareSpoken();
      document.querySelector(".share-card").src = svgAddress(resultSvg(resultCard()));
    }
  };
  if (day?.id === id) return parPanel(day.data, game.ruleset, show);
  const holder = el("div", { class: "par-holder" });
  api(`/api/daily?ruleset=${game.ruleset}&date=${game.daily_date}`)
    .then((data) => {
      if (holder.isConnected) holder.replaceWith(parPanel(data, game.ruleset, show));
      else day = { id, data };
    })
    .catch(() => {}); // the par is a bonus: the result stands without it
  return holder;
}

// The day's result to share: the score, the heroes' health, one sign per room (never a
// card, so that nobody learns the day's dungeon from it), the date and the address.
function shareText() {
  const sign = (room) => ROOM_SIGNS[roomKind(room)];
  const health = healthLine();
  return [
    t("share.title", { date: game.daily_date, ruleset: t(`ruleset.${game.ruleset}`) }),
    [
      t("share.line", {
        score: game.score,
        health,
        rooms: t("count.rooms", { n: game.run.length }),
      }),
      dayPar(),
    ]
      .filter(Boolean)
      .join(" · "),
    game.run.map(sign).join("") + (game.status === "won" ? "🏆" : ""),
    `${location.origin}/daily`,
  ].join("\n");
}

// Each hero's health out of its maximum, for the share text and the card: "8/20 · 0/20".
const healthLine = () =>
  game.heroes.map((hero) => `${Math.max(0, hero.health)}/${hero.max_health}`).join(" · ");

// How a room of the day went, for the share text: its sign, and its words when spoken.
function roomKind(room) {
  if (room.fled) return "fled";
  if (room.died) return "died";
  const lost = room.lost.reduce((a, b) => a + b, 0);
  return lost < 0
    ? "healed"
    : lost === 0
      ? "clean"
      : lost <= 5
        ? "light"
        : lost <= 10
          ? "heavy"
          : "worst";
}

const ROOM_SIGNS = {
  fled: "🏃",
  died: "💀",
  healed: "💚",
  clean: "🟩",
  light: "🟨",
  heavy: "🟧",
  worst: "🟥",
};

const dayPar = () => (day?.id === game.id ? parShare(day.data) : null);

// The result card's facts: what the share text says, drawn (see share.js).
function resultCard() {
  const health = healthLine();
  return {
    title: [t("mode.daily"), dayName(game.daily_date), t(`ruleset.${game.ruleset}`)].join(" · "),
    lines: [
      t("share.card_score", { score: signed(game.score) }),
      [t("share.card_health", { health }), dayPar()].filter(Boolean).join(" · "),
      t("count.rooms", { n: game.run.length }),
    ],
    rooms: game.run.map(roomKind),
    won: game.status === "won",
    address: `${location.host}/daily`,
  };
}

const cardName = () => `scoundrel-${game.daily_date}-${game.ruleset}.png`;

// The share text as it is said: the same facts, in sentences, with no signs.
function shareSpoken() {
  const health = game.heroes
    .map((hero) =>
      t("share.spoken_health", { health: Math.max(0, hero.health), max: hero.max_health }),
    )
    .join(", ");
  const rooms = game.run.map((room) => t(`share.room.${roomKind(room)}`)).join(", ");
  return [
    t("share.spoken", {
      date: dayName(game.daily_date),
      ruleset: t(`ruleset.${game.ruleset}`),
      score: game.score,
      health,
      rooms: t("count.rooms", { n: game.run.length }),
    }),
    dayPar(),
    t("share.spoken_rooms", { rooms }),
    game.status === "won" ? t("share.spoken_won") : null,
  ]
    .filter(Boolean)
    .join(" ");
}

async function copy(text, done) {
  try {
    await navigator.clipboard.writeText(text);
    toast(done);
  } catch {
    window.prompt(t("toast.copy_manually"), text);
  }
}

function showKeys() {
  let dialog = document.getElementById("keys");
  if (!dialog) {
    dialog = el("dialog", { id: "keys", "aria-labelledby": "keys-title" });
    const rows = [
      ["1–4", "keys.select"],
      ["W", "keys.weapon"],
      ["B", "keys.bare"],
      ["Enter", "keys.take"],
      ["G", "keys.give"],
      ["H", "keys.hint"],
      ["F", "keys.flee"],
      ["U", "keys.undo"],
      ["?", "keys.help"],
      ["Esc", "keys.close"],
    ];
    const table = el(
      "table",
      {},
      ...rows.map(([k, key]) =>
        el("tr", {}, el("th", {}, el("kbd", { text: k })), el("td", { text: t(key) })),
      ),
    );
    dialog.append(
      el("h2", { id: "keys-title", text: t("keys.title") }),
      table,
      el("p", {}, el("a", { href: "/rules", text: t("keys.rules_link") })),
      el(
        "form",
        { method: "dialog" },
        el("button", { class: "primary", text: t("keys.close_button") }),
      ),
    );
    document.body.append(dialog);
  }
  if (!dialog.open) dialog.showModal();
}

function onKey(event) {
  if (
    event.target.closest("input, select, textarea") ||
    event.ctrlKey ||
    event.metaKey ||
    event.altKey
  )
    return;
  if (document.getElementById("keys")?.open) return;
  const key = event.key;
  if (key === "?") {
    showKeys();
    event.preventDefault();
    return;
  }
  if (!game) return;
  if (key.toLowerCase() === "u") {
    undo();
    return;
  }
  if (game.status !== "playing") return;
  if (/^[1-9]$/.test(key)) {
    const i = Number(key) - 1;
    if (i < game.room.length) {
      selected = selected === i ? null : i;
      giving = false;
      render();
      document.querySelector(`.room-cards .card:nth-child(${i + 1})`)?.focus();
    }
    return;
  }
  if (game.online && online.onKey(event, game)) return;
  const lower = key.toLowerCase();
  if (lower === "f") {
    if (game.legal.some((m) => m.move === "F")) play("F");
    else toast(refusalText(game.blocked.F), "error");
    return;
  }
  if (lower === "h") {
    askHint();
    event.preventDefault();
    return;
  }
  if (key === "Escape") {
    selected = null;
    giving = false;
    render();
    return;
  }
  if (selected === null) return;
  const moves = movesFor(selected);
  if (lower === "g") {
    if (game.heroes.length < 2) return;
    giving = !giving;
    toast(giving ? t("toast.giving") : t("toast.not_giving"));
    const only = moves.filter((m) => m.help);
    if (giving && only.length === 1 && (only[0].give || kind(parse(only[0].card)) !== "monster")) {
      play(only[0].move);
    }
    return;
  }
  const pick = (pred) => moves.find((m) => m.help === giving && pred(m));
  let move;
  if (lower === "w") move = pick((m) => m.weapon);
  else if (lower === "b") move = pick((m) => kind(parse(m.card)) === "monster" && !m.weapon);
  else if (key === "Enter") move = pick((m) => kind(parse(m.card)) !== "monster");
  else return;
  event.preventDefault();
  if (move) play(move.move);
  else if (lower === "w") {
    const token = `${(giving ? ">" : "") + game.room[selected]}/w`;
    toast(
      game.blocked[token] ? refusalText(game.blocked[token]) : t("toast.no_such_move"),
      "error",
    );
  }
}

function show(view, before = null) {
  if (selected !== null && before && before.room[selected] !== view?.room[selected]) {
    selected = null;
    giving = false;
  } // online: the partner moved
  game = view;
  if (view && !view.online) {
    if (view.owner && !offline.local(view)) connectPlay(); // its next moves go over the game socket
    if (view.owner && before?.id === view.id && tabs)
      tabs.postMessage({ id: view.id, ...seen(view) });
    try {
      localStorage.setItem(STORE_KEY, view.id);
    } catch {
      /* private mode */
    }
    const url = new URL(location.href);
    if (url.searchParams.get("game") !== view.id || url.searchParams.has("table")) {
      url.searchParams.delete("table");
      url.searchParams.set("game", view.id);
      history.replaceState(null, "", url);
    }
  }
  online.follow(view); // an online table: remember it, follow it live
  if (selected !== null && (!game || selected >= game.room.length)) selected = null;
  if (!adviceHere()) advice = null;
  if (analysis && analysis.id !== game?.id) {
    analysis = null;
    clearTimeout(pollTimer);
  }
  const shot = before && root ? snapshot(root) : null;
  if (game && before?.id === game.id) say(before, game);
  render(before);
  if (game && before && shot && before.id === game.id) animate(root, before, game, shot);
  if (game) deal(root, fresh, shot?.pile);
  if (before?.status === "playing" && game && game.status !== "playing") {
    // the game just ended
    const over = document.querySelector(".over");
    if (game.status === "won" && over) celebrate(over);
    over?.scrollIntoView({ block: "start", behavior: reduced() ? "auto" : "smooth" });
    over?.focus({ preventScroll: true });
    if (!offline.local(game)) announceAchievements(game.id);
  }
  if (game?.record && !analysis && !offline.local(game)) loadAnalysis(game.id);
}

// Tell a screen reader what the last move did, in the polite live region: the move's label
// in the position it was played from (the core's words, in the past tense), then the end
// of the game if it ended. A position seen again (a reload) says nothing; an undo is said
// by its toast, and a help card waiting for the partner by the actions panel.
function say(before, after) {
  const region = document.getElementById("said");
  if (!region) return;
  const lines = [];
  if (after.moves.length === before.moves.length + 1) {
    const token = after.moves.at(-1);
    const move = before.legal.find((m) => m.move === token);
    lines.push(move ? saidText(move.label, before.heroes.length > 1) : moveText(token));
  }
  if (after.status !== "playing" && before.status === "playing")
    lines.push(
      after.status === "closed"
        ? t("over.closed")
        : `${t(after.status === "won" ? "over.won" : "over.lost")} ${t("app.labelled", { label: t("score.total"), value: after.score })}.`,
    );
  if (lines.length) region.textContent = lines.join(" ");
}

// The achievements the game just over earned (the server decided them from its record):
// a toast for each.
async function announceAchievements(id) {
  try {
    const me = await api("/api/me");
    const codes = me.achievements.earned.filter((a) => a.game_id === id).map((a) => a.code);
    codes.forEach((code, i) => {
      setTimeout(() => toast(t("ach.toast", { name: t(`ach.${code}`) })), 1200 * i);
    });
  } catch {
    /* the result stands without them: the records list them */
  }
}

function render(before = null) {
  root.replaceChildren();
  const setup = el(
    "details",
    { class: "new-game", open: game?.status !== "playing" ? true : undefined },
    el("summary", { text: t("setup.title") }),
    settingsForm(),
  );
  if (!game) {
    root.append(
      el("h1", { text: t("app.welcome") }),
      el("p", { class: "lead", text: t("app.tagline") }),
      setup,
      el("p", { class: "welcome-settings" }, settingsButton()),
    );
    return;
  }
  const table = el("div", {
    class: `table ${game.ruleset}${game.heroes.length > 1 ? " two" : ""}`,
    "data-moves": game.moves.length,
    "data-status": game.status,
  });
  table.append(dungeonPanel(), roomPanel(before), actionsPanel());
  const heroes = el("div", { class: "heroes" });
  game.heroes.forEach((hero, i) => {
    heroes.append(heroPanel(hero, i + 1, before?.heroes?.[i]));
  });
  table.append(heroes, controls());
  root.append(header(), online.banner(game));
  if (game.status !== "playing") root.append(gameOver());
  root.append(table, setup);
  online.sync(); // online: tell the table what is selected
}
