// Online co-op: "Scoundrel for two" on two devices. table.js draws the table; this module
// opens and joins online tables, follows the one shown over its WebSocket (every change as
// this viewer's own view, the partner's presence, what they select or point at), and draws
// what only an online table has: whose seat is whose, the invite, the monster given to the
// partner. The server decides whose turn it is and what is legal: nothing is decided here.
import { t, bootData } from "./i18n.js";
import { api, Asker, errorText, toast } from "./api.js";
import { symbol } from "./cards.js";
import { refusalText } from "./board.js";
import { el } from "./dom.js";

const TABLE_KEY = "scoundrel_table";
const FIRST_DELAY = 500; // ms before the first reconnection; doubles up to MAX_DELAY
const MAX_DELAY = 5000;

let hooks = null; // from table.js: show, render, play, actionLabel, current, selectedCard, deselect, root
let socket = null; // the live connection to the table shown
let following = null; // the id of that table
let delay = FIRST_DELAY;
let retryTimer = null;
let reconnecting = false; // the connection dropped: trying again
let presence = {}; // hero -> whether their player is connected, as the server last said
let thinking = null; // {hero, card}: the card the player to act has selected
let pointer = null; // {hero, card}: the card the partner points at for the leader
let sent = { kind: null, card: null }; // what this page last told the table it selects
let shownVersion = null; // the position shown: pointing and thinking end when it changes
const tableAsker = new Asker(); // actions sent on the table's socket, waiting for answers
let fresh = false; // a new connection: its first view is followed by what this page selects
let busy = false;
let again = null; // {from, table, invite}: the partner opened the next table after this one

const heroName = (n) => t("hero.name", { n });
const partnerOf = (n) => (n === 1 ? 2 : 1); // the other seat
// The hero the monster given waits for: the server says whom each move plays on (C5).
const receiver = (game) => game.legal.find((move) => move.card === game.pending)?.hero;
const version = (view) => `${view.id} ${view.moves.join(" ")} ${view.pending ?? ""} ${view.status}`;

// "Hero 2 (Ben)", or "Hero 2" while the seat's player has no nickname
function seatName(game, n) {
  const nickname = game.seats?.find((seat) => seat.hero === n)?.nickname;
  return nickname ? t("online.hero_named", { hero: heroName(n), nickname }) : heroName(n);
}

export function init(tableHooks) {
  hooks = tableHooks;
}

// The next table the partner opened after ``game`` (its invite), if they did.
export const againAfter = (game) => (again && again.from === game?.id ? again : null);
export function joinAgain(game) {
  const next = againAfter(game);
  if (next) join(next.invite);
}

// Whether this page may act now: always at one table; online, when it is this seat's turn.
export function mayAct(game) {
  return !game?.online || (game.you !== null && game.you === game.to_act);
}

// The partner of the room's leader may point at a card for them (not in silent_leader, C11).
export function canPoint(game) {
  return (
    !!game?.online &&
    game.you !== null &&
    !game.silent_leader &&
    !game.pending &&
    game.status === "playing" &&
    game.to_act !== null &&
    game.you !== game.to_act
  );
}

// Two views of the same table that are the same in every respect.
export const same = (a, b) => !!a && !!b && JSON.stringify(a) === JSON.stringify(b);

// ---------------------------------------------------------------- opening, joining, finding

// The table page asks first: /join/INVITE, /?table=ID or a remembered table in play. True
// when this module has shown something (a table, or why it could not).
export async function start() {
  const url = new URL(location.href);
  if (bootData.invite) {
    await join(bootData.invite);
    return true;
  }
  const asked = url.searchParams.get("table");
  if (asked) {
    await openExisting(asked);
    return true;
  }
  if (url.searchParams.get("game")) return false;
  let remembered = null;
  try {
    remembered = localStorage.getItem(TABLE_KEY);
  } catch {
    /* private mode */
  }
  if (!remembered) return false;
  try {
    const view = await api(`/api/tables/${encodeURIComponent(remembered)}`);
    if (view.you !== null && view.status === "playing") {
      hooks.show(view);
      return true;
    }
  } catch (error) {
    if (error.status !== 404) throw error;
  }
  forget();
  return false;
}

// A co-op game of this player found through /api/games: if it is an online table, its table
// view (hero 1 made it, so it is "their" game too), else the view as it is.
export async function adopt(view) {
  if (!view || view.online || view.ruleset !== "coop") return view;
  try {
    const me = await api("/api/me");
    if (me.history.some((game) => game.id === view.id && game.online)) {
      return await api(`/api/tables/${encodeURIComponent(view.id)}`);
    }
  } catch {
    /* shown as a game at one table */
  }
  return view;
}

// A new table; ``after``: the finished table it follows ("Play again"), whose partner the
// server tells, so that both play the next one together.
export async function openTable(options, after = null) {
  if (busy) return;
  busy = true;
  try {
    const body = { ruleset: "coop", options, ...(after ? { after } : {}) };
    const view = await api("/api/tables", { method: "POST", body });
    hooks.show(view);
    toast(t("online.opened"));
    document.querySelector(".invite .copy-invite")?.focus();
  } catch (error) {
    toast(error.message, "error");
  } finally {
    busy = false;
  }
}

async function openExisting(id) {
  try {
    hooks.show(await api(`/api/tables/${encodeURIComponent(id)}`));
  } catch (error) {
    hooks.show(null);
    history.replaceState(null, "", "/");
    notice(error.status === 404 ? t("online.no_table") : error.message);
  }
}

async function join(invite) {
  let response;
  let data = {};
  try {
    response = await fetch("/api/tables/join", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ invite }),
      credentials: "same-origin",
    });
    data = await response.json().catch(() => ({}));
  } catch {
    hooks.show(null);
    notice(t("online.offline"));
    return;
  }
  if (response.ok) {
    hooks.show(data); // the address becomes /?table=ID
    toast(t("online.joined", { hero: heroName(data.you) }));
    return;
  }
  hooks.show(null);
  history.replaceState(null, "", "/");
  const error = data.error ?? {};
  if (error.code === "table_full" && error.table) {
    notice(
      t("online.table_full"),
      el("a", {
        class: "button primary watch-table",
        href: `/?table=${encodeURIComponent(error.table)}`,
        text: t("online.watch_it"),
      }),
    );
  } else if (error.code === "table_over" && error.table) {
    notice(
      t("online.table_over"),
      el("a", {
        class: "button",
        href: `/replay/${encodeURIComponent(error.table)}`,
        text: t("over.watch"),
      }),
    );
  } else if (response.status === 404 || response.status === 422) {
    notice(t("online.invite_invalid"));
  } else {
    notice(errorText(response.status >= 500 && !data.error ? { code: "internal" } : error));
  }
}

// Why a table could not be shown, above the new-game form.
function notice(message, ...actions) {
  const box = el("section", { class: "online-notice", role: "alert" }, el("p", { text: message }));
  if (actions.length) box.append(el("div", { class: "notice-actions" }, ...actions));
  hooks.root().prepend(box);
}

async function takeBack() {
  const game = hooks.current();
  if (busy || !game) return;
  busy = true;
  try {
    hooks.show(await act("take_back", {}, `/api/tables/${encodeURIComponent(game.id)}/take-back`));
  } catch (error) {
    toast(error.message, "error");
  } finally {
    busy = false;
  }
}

// ---------------------------------------------------------------- following the table shown

// table.js shows every view through here, online or not: remember the table, follow it.
export function follow(view) {
  if (!view?.online) {
    if (view) forget();
    disconnect();
    return;
  }
  remember(view);
  const changed = version(view);
  if (changed !== shownVersion) {
    shownVersion = changed;
    thinking = null;
    pointer = null; // a pointer is for one position: the leader drops it, and so does its page
    if (sent.kind === "point" && sent.card !== null) {
      sent = { kind: "point", card: null };
      hooks.deselect();
    }
  }
  if (following !== view.id) {
    disconnect();
    following = view.id;
    presence = {};
    sent = { kind: null, card: null };
    connect();
  }
}

function remember(view) {
  try {
    if (view.you !== null && view.status === "playing") localStorage.setItem(TABLE_KEY, view.id);
    else if (view.status !== "playing" && localStorage.getItem(TABLE_KEY) === view.id)
      localStorage.removeItem(TABLE_KEY);
  } catch {
    /* private mode */
  }
  const url = new URL(location.href);
  if (
    url.pathname !== "/" ||
    url.searchParams.get("table") !== view.id ||
    url.searchParams.has("game")
  ) {
    url.pathname = "/";
    url.searchParams.delete("game");
    url.searchParams.set("table", view.id);
    history.replaceState(null, "", url);
  }
}

function forget() {
  try {
    localStorage.removeItem(TABLE_KEY);
  } catch {
    /* private mode */
  }
}

function connect() {
  clearTimeout(retryTimer);
  if (!following) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(
    `${scheme}://${location.host}/api/tables/${encodeURIComponent(following)}/live`,
  );
  socket = ws;
  fresh = true;
  ws.addEventListener("message", (event) => {
    if (socket !== ws) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    receive(message);
  });
  ws.addEventListener("close", (event) => {
    tableAsker.lost(ws); // actions sent on it and not answered: looked up, or sent over HTTP
    if (socket !== ws) return;
    socket = null;
    if (event.code === 4404 || !following) return; // no such table: nothing to follow
    // cut off, this page cannot hear the partner: what it last heard is no longer known
    presence = {};
    thinking = null;
    if (pointer) {
      pointer = null;
      refreshMarks();
    }
    setReconnecting(true);
    retryTimer = setTimeout(connect, delay);
    delay = Math.min(MAX_DELAY, delay * 2);
  });
}

function disconnect() {
  clearTimeout(retryTimer);
  following = null;
  shownVersion = null;
  thinking = null;
  pointer = null;
  setReconnecting(false);
  if (socket) {
    const ws = socket;
    socket = null;
    ws.close();
  }
}

// back on the page (a phone woken up): try at once rather than at the end of the backoff
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && following && !socket) {
    delay = FIRST_DELAY;
    connect();
  }
});
window.addEventListener("online", () => {
  if (following && !socket) {
    delay = FIRST_DELAY;
    connect();
  }
});

function receive(message) {
  const game = hooks.current();
  if (message.type === "answer") {
    tableAsker.answered(message);
  } else if (message.type === "view") {
    const view = message.game;
    if (!view || view.id !== following) return;
    delay = FIRST_DELAY;
    setReconnecting(false);
    if (!same(game, view)) hooks.show(view); // table.js keeps the cards already dealt
    if (fresh) {
      fresh = false;
      sent = { kind: null, card: null };
      sync();
    } // say it again
  } else if (message.type === "presence") {
    presence[message.hero] = message.online;
    if (!message.online) {
      if (thinking?.hero === message.hero) thinking = null;
      if (pointer?.hero === message.hero) {
        pointer = null;
        refreshMarks();
      }
    }
    refreshStatus();
  } else if (message.type === "select") {
    thinking = message.card ? { hero: message.hero, card: message.card } : null;
    refreshStatus();
  } else if (message.type === "again") {
    again = { from: following, table: message.table, invite: message.invite };
    toast(t("online.partner_again"));
    hooks.render();
  } else if (message.type === "point") {
    pointer =
      message.card && !game?.silent_leader ? { hero: message.hero, card: message.card } : null;
    refreshMarks();
  }
}

function setReconnecting(on) {
  if (reconnecting === on) return;
  reconnecting = on;
  refreshStatus();
}

// What this page has selected, told to the table: the player to act "is thinking"; the
// leader's partner points at a card (unless the leader is silent). table.js calls this
// after every drawing of the table.
export function sync() {
  const game = hooks?.current();
  if (!game?.online || game.you === null || game.status !== "playing") return;
  const card = hooks.selectedCard();
  const kind = game.you === game.to_act ? "select" : canPoint(game) ? "point" : null;
  if (!kind || (sent.kind === kind && sent.card === card)) return;
  if (card === null && sent.card === null) {
    sent.kind = kind;
    return;
  }
  if (sent.kind && sent.kind !== kind && sent.card !== null) send({ type: sent.kind, card: null });
  if (send({ type: kind, card })) sent = { kind, card };
}

// An action at the table shown (a move, a give, a take-back), over its socket, answered
// there as the HTTP route answers it; over HTTP when the socket is not open (see Asker).
export function act(type, fields, path, body, recover = null) {
  return tableAsker.ask(socket, { type, ...fields }, path, body, recover);
}

function send(message) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(message));
  return true;
}

// ---------------------------------------------------------------- drawing

// Above the table: whose seat this is, the partner's presence, the invite while seat 2 is
// free. An empty fragment for a game at one table.
export function banner(game) {
  if (!game?.online) return document.createDocumentFragment();
  const box = el("div", {
    class: "online-banner",
    "data-you": game.you ?? "",
    "data-to-act": game.to_act ?? "",
    "data-pending": game.pending ?? "",
  });
  box.append(statusLine(game));
  if (game.invite && game.status === "playing") box.append(invitePanel(game));
  return box;
}

function statusLine(game) {
  const line = el("p", { class: "online-status" });
  const acting = game.to_act;
  if (game.you === null) {
    line.append(
      el("span", { class: "badge watching", text: t("online.watching") }),
      el("span", {
        class: "seats",
        text: t("online.watching_note", { one: seatName(game, 1), two: seatName(game, 2) }),
      }),
    );
    if (thinking && thinking.hero === acting) {
      line.append(
        el("span", {
          class: "presence thinking",
          "data-presence": "thinking",
          text: t("online.partner_thinking", { hero: seatName(game, acting) }),
        }),
      );
    }
  } else {
    line.append(
      el("b", { class: "you-play", text: t("online.you_play", { hero: heroName(game.you) }) }),
    );
  }
  if (reconnecting) {
    // nothing is known of the partner until the table answers again
    line.append(
      el("span", { class: "connection", role: "status", text: t("online.reconnecting") }),
    );
  } else if (game.you !== null) {
    const partner = partnerOf(game.you);
    const seat = game.seats?.find((s) => s.hero === partner);
    let state = "away";
    if (!seat?.taken) state = "absent";
    else if (thinking && thinking.hero === partner && acting === partner) state = "thinking";
    else if (presence[partner]) state = "online";
    line.append(
      el("span", {
        class: `presence ${state}`,
        "data-presence": state,
        text: t(`online.partner_${state}`, { hero: seatName(game, partner) }),
      }),
    );
  }
  return line;
}

function refreshStatus() {
  const game = hooks?.current();
  const line = document.querySelector(".online-status");
  if (game?.online && line) line.replaceWith(statusLine(game));
}

function invitePanel(game) {
  const link = `${location.origin}/join/${game.invite}`;
  const watch = `${location.origin}/?table=${game.id}`;
  const field = (cls, value, label) =>
    el("input", {
      class: cls,
      id: cls,
      type: "text",
      readonly: true,
      value,
      "aria-label": label,
      spellcheck: "false",
      onfocus: (event) => event.target.select(),
    });
  const invite = field("invite-link", link, t("online.invite_link"));
  const watching = field("watch-link", watch, t("online.watch_link"));
  return el(
    "section",
    { class: "invite", "aria-labelledby": "invite-title" },
    el("h2", { id: "invite-title", text: t("online.waiting_title") }),
    el("p", {}, el("label", { for: "invite-link", text: t("online.send_link") })),
    el(
      "div",
      { class: "copy-row" },
      invite,
      el("button", {
        type: "button",
        class: "primary copy-invite",
        text: t("online.copy"),
        onclick: () => copyField(invite, t("online.link_copied")),
      }),
    ),
    el("p", { class: "note" }, el("label", { for: "watch-link", text: t("online.watch_note") })),
    el(
      "div",
      { class: "copy-row" },
      watching,
      el("button", {
        type: "button",
        class: "copy-watch",
        text: t("online.copy"),
        onclick: () => copyField(watching, t("online.watch_copied")),
      }),
    ),
  );
}

// The clipboard needs a secure page (https or this computer); a friend's phone on the same
// network reaches the server over plain http, where the field is selected for copying.
async function copyField(input, done) {
  try {
    await navigator.clipboard.writeText(input.value);
    toast(done);
    return;
  } catch {
    /* not a secure page: select it */
  }
  input.focus();
  input.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    /* unsupported */
  }
  toast(copied ? done : t("online.copy_manually"));
}

// In the actions area while a given monster waits (C5): the partner's prompt with the two
// ways to fight it, the leader's wait with "Take back", a watcher's line.
export function pendingPanel(panel, game) {
  const code = game.pending;
  const card = symbol(code);
  const leader = game.leader;
  const partner = receiver(game);
  const box = el("div", { class: "pending", "data-card": code });
  if (game.you === partner) {
    box.classList.add("prompt");
    box.setAttribute("role", "group");
    box.setAttribute("aria-labelledby", "pending-title");
    box.append(
      el("h2", {
        id: "pending-title",
        text: t("online.gave_you", { hero: seatName(game, leader), card }),
      }),
    );
    const list = el("div", { class: "choices" });
    for (const move of game.legal) {
      const deadly = (move.health ?? []).some((h) => h <= 0);
      const button = el("button", {
        class: `choice answer${deadly ? " deadly" : ""}`,
        "data-move": move.move,
        "aria-keyshortcuts": move.weapon ? "W" : "B",
        onclick: () => hooks.play(move.move),
      });
      button.append(
        el("kbd", { text: move.weapon ? "W" : "B" }),
        document.createTextNode(` ${hooks.actionLabel(move)}`),
      );
      list.append(button);
    }
    const refusal = game.blocked[`>${code}/w`];
    if (refusal && refusal.code !== "no_weapon") {
      list.append(
        el("button", {
          class: "choice blocked",
          disabled: true,
          "data-move": `>${code}/w`,
          text: `${t("act.fight_weapon_blocked", { card })} — ${refusalText(refusal)}`,
        }),
      );
    }
    box.append(list);
  } else if (game.you === leader) {
    box.append(
      el("h2", { text: t("online.waiting_fight", { hero: seatName(game, partner), card }) }),
      el("p", { class: "note", text: t("online.take_back_note") }),
      el("button", {
        type: "button",
        class: "take-back",
        text: t("online.take_back"),
        onclick: takeBack,
      }),
    );
  } else {
    box.append(
      el("h2", {
        text: t("online.given", {
          leader: seatName(game, leader),
          partner: seatName(game, partner),
          card,
        }),
      }),
    );
  }
  panel.append(box);
  return panel;
}

// Instead of "choose a card" for a page that may not act: who leads, and how to point.
export function waitingLine(game) {
  const lines = el(
    "div",
    { class: "waiting-turn" },
    el("p", { class: "hint", text: t("online.leads", { hero: seatName(game, game.to_act) }) }),
  );
  if (canPoint(game)) {
    const card = hooks.selectedCard();
    lines.append(
      el("p", {
        class: "note point-control",
        text: card
          ? t("online.pointing", { hero: heroName(game.to_act), card: symbol(card) })
          : t("online.point_how", { hero: heroName(game.to_act) }),
      }),
    );
  } else if (game.you !== null && game.silent_leader && game.you !== game.to_act) {
    lines.append(el("p", { class: "note", text: t("online.silent") }));
  }
  return lines;
}

// A room card as this page should see it: the monster given and waiting, the card the
// partner points at. table.js calls this for every room card it draws.
export function decorate(node, code, game) {
  if (!game?.online) return;
  if (!node.dataset.label) node.dataset.label = node.getAttribute("aria-label") ?? "";
  node.querySelector(".point-mark")?.remove();
  let label = node.dataset.label;
  if (game.pending) node.querySelector(".give-mark")?.remove(); // the help card is given
  if (game.pending === code) {
    node.classList.add("given");
    label += `, ${t("online.given_mark", { hero: heroName(receiver(game)) })}`;
  }
  if (pointer && pointer.card === code && game.status === "playing") {
    const text = t("online.points_here", { hero: heroName(pointer.hero) });
    node.classList.add("pointed");
    node.append(el("span", { class: "point-mark", "aria-hidden": "true", text: `☝ ${text}` }));
    label += `, ${text}`;
  } else {
    node.classList.remove("pointed");
  }
  node.setAttribute("aria-label", label);
}

function refreshMarks() {
  const game = hooks?.current();
  if (!game?.online) return;
  for (const node of document.querySelectorAll(".room-cards .card[data-card]"))
    decorate(node, node.dataset.card, game);
}

// Keys for an online table, after the room's 1–4: nothing but choosing for a page that may
// not act; W or B to answer a given monster. True when the key is dealt with here.
export function onKey(event, game) {
  const key = event.key;
  if (key === "Escape" || key === "?") return false;
  if (!mayAct(game)) return true;
  if (!game.pending) return false;
  const lower = key.toLowerCase();
  if (lower !== "w" && lower !== "b") return true;
  event.preventDefault();
  const move = game.legal.find((m) => !!m.weapon === (lower === "w"));
  if (move) hooks.play(move.move);
  else {
    const refusal = game.blocked[`>${game.pending}/w`];
    toast(refusal ? refusalText(refusal) : t("toast.no_such_move"), "error");
  }
  return true;
}
