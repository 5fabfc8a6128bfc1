// Talking to the server: every call answers JSON or throws an Error whose message is the
// server's refusal in the player's language (from its code, reason and parameters).
import { t, has } from "./i18n.js";
import { refusalText } from "./board.js";
import { el } from "./dom.js";

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
const retryable = (method, body) => method === "GET" || (body && typeof body === "object" && "after" in body);

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
    } catch (failure) { // no answer at all: the connection (or the server) is down
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
  if (!response.ok) {
    const error = new Error(errorText(data.error ?? { code: response.status >= 500 ? "internal" : undefined }));
    error.status = response.status;
    error.code = data.error?.code;
    error.reason = data.error?.reason;
    throw error;
  }
  return data;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

// The banner at the top of the page while the server cannot be reached; when it comes
// back, a short "Connected again".
let banner = null;
function offline(on) {
  if (on && !banner) {
    banner = el("div", { class: "offline-banner", role: "alert", text: t("error.offline") });
    document.body.prepend(banner);
  } else if (!on && banner) {
    banner.remove();
    banner = null;
    toast(t("error.back_online"));
  }
}

let waiting = null;
function waitForServer() {
  waiting ??= (async () => {
    for (let attempt = 0; ; attempt++) {
      await sleep(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      try {
        await fetch("/api/health", { credentials: "same-origin" });
        break;
      } catch (failure) { /* still down */ }
    }
    offline(false);
    waiting = null;
  })();
}

export function toast(message, kind = "info") {
  const node = document.getElementById("toast");
  node.textContent = message;
  node.className = `show ${kind}`;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { node.className = ""; }, 4000);
}
