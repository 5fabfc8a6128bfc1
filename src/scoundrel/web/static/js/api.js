// Talking to the server: every call answers JSON or throws an Error whose message is the
// server's refusal in the player's language (from its code, reason and parameters).
import { t, has } from "./i18n.js";
import { refusalText } from "./board.js";
import { el } from "./dom.js";
import { setting } from "./settings.js";

const RETRY_MS = [500, 1000, 2000, 4000, 8000]; // then every 8 s

// The refusal in the player's language: the catalog's "error.<reason>", else
// "error.<code>"; a move the rules refuse is told by its rule, as the table tells it.
export function errorText(error) {
  if (!error || typeof error !== "object") return t("error.internal");
  if (error.code === "illegal_move" && error.refusal) return refusalText(error.refusal);
  for (const name of [error.reason, error.code]) {
    if (name && has(`error.${name}`)) return t(`error.${name}`, error.params ?? {});
  }
  return error.message ? t("error.unknown", { message: error.message }) : t("error.internal");
}

// A request that may be sent again when no answer came: reads, and moves (a move names
// the position it was chosen on, so a second copy of one already played is refused).
const retryable = (method, body) =>
  method === "GET" || (body && typeof body === "object" && "after" in body);

export async function api(path, { method = "GET", body } = {}) {
  let response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "same-origin",
      });
      break;
    } catch {
      // no answer at all: the connection (or the server) is down
      offline(true);
      if (!retryable(method, body)) {
        waitForServer();
        throw Object.assign(new Error(t("error.offline_gave_up")), { status: 0, code: "offline" });
      }
      await sleep(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
    }
  }
  offline(false);
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw refused(response.status, data);
  return data;
}

// The Error for a refusal: its text in the player's language, with the status, code and
// reason the callers look at.
export function refused(status, data) {
  const error = new Error(
    errorText(data.error ?? { code: status >= 500 ? "internal" : undefined }),
  );
  error.status = status;
  error.code = data.error?.code;
  error.reason = data.error?.reason;
  return error;
}

// ---------------------------------------------------------------- requests over a socket

const ANSWER_MS = 10000; // an open socket that answers nothing for this long is dropped

// Requests sent over a WebSocket, each answered by a message with the same id. Whenever
// the socket is not open the same request goes over HTTP instead, so play never waits
// for it; a request whose answer the socket lost is answered by ``recover`` (say, by
// looking whether the move was played), else sent again over HTTP when a second copy is
// harmless (a move names the position it was chosen on), else it fails as offline.
export class Asker {
  constructor() {
    this.pending = new Map();
    this.asked = 0;
  }

  // ``message`` over ``ws``, or the same as a POST of ``body`` to ``path``.
  ask(ws, message, path, body, recover = null) {
    const http = () => api(path, { method: "POST", body });
    if (!ws || ws.readyState !== WebSocket.OPEN) return http();
    const id = ++this.asked;
    return new Promise((resolve, reject) => {
      const lost = () => {
        if (recover) recover(http).then(resolve, reject);
        else if (retryable("POST", body)) http().then(resolve, reject);
        else
          reject(
            Object.assign(new Error(t("error.offline_gave_up")), { status: 0, code: "offline" }),
          );
      };
      const timer = setTimeout(() => ws.close(), ANSWER_MS); // its close reports the loss
      this.pending.set(id, { ws, resolve, reject, lost, timer });
      ws.send(JSON.stringify({ ...message, id }));
    });
  }

  // An answer from the socket: true if it was one of ours.
  answered(data) {
    const entry = this.pending.get(data?.id);
    if (!entry) return false;
    this.pending.delete(data.id);
    clearTimeout(entry.timer);
    if (data.game) entry.resolve(data.game);
    else entry.reject(refused(data.status ?? 500, data));
    return true;
  }

  // The socket ``ws`` closed: every request still waiting for it is recovered.
  lost(ws) {
    for (const [id, entry] of this.pending) {
      if (entry.ws !== ws) continue;
      this.pending.delete(id);
      clearTimeout(entry.timer);
      entry.lost();
    }
  }
}

// ---------------------------------------------------------------- the game socket
// The table page starts games, moves and undoes over one WebSocket (/api/play), each
// message answered as the HTTP API would answer it, for a fraction of a request's cost.

const REOPEN_MS = 3000;
const asker = new Asker();
let socket = null;
let opened = 0;

// When the browser says the network is gone, the socket is let go at once: requests then
// go over HTTP, which tells the player (the banner) and sends a move again when it can.
if (typeof window !== "undefined") window.addEventListener("offline", () => socket?.close());

export function connectPlay() {
  if (
    socket ||
    typeof WebSocket === "undefined" ||
    !navigator.onLine ||
    Date.now() - opened < REOPEN_MS
  )
    return;
  opened = Date.now();
  const ws = new WebSocket(
    `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/play`,
  );
  socket = ws;
  // the page says whether its requests go over the socket (tests wait for it)
  ws.onopen = () => {
    if (socket === ws) document.documentElement.dataset.socket = "open";
  };
  ws.onmessage = (event) => {
    try {
      asker.answered(JSON.parse(event.data));
    } catch {
      /* not an answer */
    }
  };
  ws.onclose = () => {
    if (socket === ws) {
      socket = null;
      delete document.documentElement.dataset.socket;
    }
    asker.lost(ws);
  };
}

// A request of the table page for one of its own games: ``op`` and its ``fields`` over
// the game socket, or the same as a POST of ``body`` to ``path`` (see Asker).
export function request(op, fields, path, body, recover = null) {
  if (!socket || socket.readyState !== WebSocket.OPEN) connectPlay();
  return asker.ask(socket, { op, ...fields }, path, body, recover);
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// One line under the header while the page has no connection: the browser's word that
// the network is gone, or a request the server did not answer (then it tries again, and
// says "Connected again" when it is back). With offline play on it says that the games go
// on on this device.
let banner = null;
let retrying = false;
function offline(on) {
  const was = retrying;
  retrying = on;
  showConnection();
  if (was && !on) toast(t("error.back_online"));
}

export function showConnection() {
  const down = retrying || (typeof navigator !== "undefined" && navigator.onLine === false);
  if (!down) {
    banner?.remove();
    banner = null;
    return;
  }
  if (!banner) {
    banner = el("p", { role: "status" });
    const header = document.querySelector("header.top");
    if (header) header.after(banner);
    else document.body.prepend(banner);
  }
  banner.className = `offline-banner${retrying ? " retrying" : ""}`;
  // the browser knows the network is gone: say what that means here; else the server
  // alone is out of reach
  banner.textContent =
    navigator.onLine === false
      ? t(setting("offline_play") ? "offline.playing_here" : "offline.notice")
      : t("error.offline");
}

if (typeof window !== "undefined") {
  window.addEventListener("offline", showConnection);
  window.addEventListener("online", showConnection);
}

// biome-ignore lint/correctness/noUnusedVariables: read by ??= below: one wait in flight at a time
let waiting = null;
function waitForServer() {
  waiting ??= (async () => {
    for (let attempt = 0; ; attempt++) {
      await sleep(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      try {
        await fetch("/api/health", { credentials: "same-origin" });
        break;
      } catch {
        /* still down */
      }
    }
    offline(false);
    waiting = null;
  })();
}

export function toast(message, kind = "info") {
  const node = document.getElementById("toast");
  node.textContent = message;
  // on a phone it shows at the top: below the navigation, which stays in reach
  const header = document.querySelector("header.top");
  const phone = window.matchMedia?.("(max-width: 640px)").matches;
  node.style.top =
    phone && header ? `${Math.max(8, header.getBoundingClientRect().bottom + 8)}px` : "";
  node.className = `show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    node.className = "";
  }, 4000);
  // a tap (or click) puts it away at once: on a phone it lies over the navigation
  node.onclick = () => {
    clearTimeout(toast.timer);
    node.className = "";
  };
}
