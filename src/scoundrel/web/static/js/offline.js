// Offline play: the game without the server. The same rules core runs in the page, in
// Pyodide in a web worker (offline-worker.js), and answers as the server would: a game's
// view with its legal moves, or a refusal. Each game is kept in IndexedDB as it is played;
// back online, each finished one is sent as its record, which the server replays and
// checks before it joins the player's records, marked as played offline, never ranked.
//
// Pyodide and the core are downloaded and kept (Cache Storage, served by the service
// worker) only once the player turns offline play on, or installs the game.
import { bootData, t } from "./i18n.js";
import { api, refused } from "./api.js";
import { setting, set } from "./settings.js";

const boot = bootData.offline; // null: this server does not offer offline play
const PREFIX = "offline-"; // a game kept on this device, and the caches of offline play
const caches_ = () => (typeof caches === "undefined" ? null : caches);
const pyodideCache = () => `${PREFIX}pyodide-${boot.version}`;
const codeCache = () => `${PREFIX}code-${boot.code}`;

export const offered = () => !!boot;
export const enabled = () => offered() && setting("offline_play");
export const local = (game) => typeof game?.id === "string" && game.id.startsWith(PREFIX);
export const size = () => boot?.size ?? 0;

// ---------------------------------------------------------------- the worker

let worker = null;
let asked = 0;
const waiting = new Map();

function failAll(message) {
  for (const entry of waiting.values()) entry.reject(failure(message));
  waiting.clear();
  worker?.terminate();
  worker = null;
}

const failure = (message) =>
  Object.assign(new Error(t("offline.failed", { reason: message })), { code: "offline_failed" });

function ask(request) {
  if (!boot) return Promise.reject(failure(t("offline.not_offered")));
  if (!worker) {
    worker = new Worker(new URL("./offline-worker.js", import.meta.url), { type: "module" });
    worker.onmessage = (event) => {
      const { id, answer, failed } = event.data;
      const entry = waiting.get(id);
      if (!entry) return;
      waiting.delete(id);
      if (failed) return entry.reject(failure(failed));
      const data = JSON.parse(answer);
      if (data.game || request.op === "ready") entry.resolve(data.game);
      else entry.reject(refused(data.status ?? 500, data));
    };
    worker.onerror = (event) => failAll(event.message || "the worker stopped");
  }
  const id = ++asked;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, boot, request });
  });
}

// What the worker needs of a game: its deal, rules and moves (never a view's guesses).
const GAME_FIELDS = [
  "id",
  "key",
  "mode",
  "seed",
  "daily_date",
  "ruleset",
  "options",
  "moves",
  "undo_count",
  "started_at",
  "finished_at",
];
const bare = (game) => Object.fromEntries(GAME_FIELDS.map((name) => [name, game[name]]));

// ---------------------------------------------------------------- kept on this device

let opened = null;
function database() {
  opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open("scoundrel-offline", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("games", { keyPath: "key" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return opened;
}

async function run(mode, work) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const transaction = db.transaction("games", mode);
    const request = work(transaction.objectStore("games"));
    transaction.oncomplete = () => resolve(request?.result);
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
  });
}

async function keep(view) {
  try {
    await run("readwrite", (games) => games.put(view));
  } catch (error) {
    throw Object.assign(new Error(t("offline.not_kept", { reason: String(error) })), {
      code: "offline_failed",
    });
  }
  return view;
}

const allKept = () => run("readonly", (games) => games.getAll());

// A game kept on this device, by its id (offline-<key>), or null.
export async function find(id) {
  if (!local({ id }) || typeof indexedDB === "undefined") return null;
  return (await run("readonly", (games) => games.get(id.slice(PREFIX.length)))) ?? null;
}

// The game in play on this device that started last, or null.
export async function current() {
  if (!offered() || typeof indexedDB === "undefined") return null;
  const playing = (await allKept()).filter((game) => game.status === "playing");
  playing.sort((a, b) => (a.started_at < b.started_at ? 1 : -1));
  return playing[0] ?? null;
}

// ---------------------------------------------------------------- playing

// A new game on this device: a random dungeon, or the public dungeon of the day (the
// server's day is UTC's).
export async function deal(settings) {
  const today = new Date().toISOString().slice(0, 10);
  return keep(await ask({ op: "deal", settings: { ...settings, today } }));
}

export async function move(game, token) {
  const view = await ask({ op: "move", game: bare(game), move: token, after: game.moves.length });
  await keep(view);
  if (view.status !== "playing") send();
  return view;
}

export async function undo(game) {
  return keep(await ask({ op: "undo", game: bare(game) }));
}

// ---------------------------------------------------------------- sending

let sending = null;
const listeners = [];
export const onSent = (listener) => listeners.push(listener);

// What the server is sent of a finished game: its deal, record and result.
const sent = (game) => ({
  key: game.key,
  mode: game.mode,
  seed: game.seed,
  daily_date: game.daily_date,
  record: game.record,
  status: game.status,
  score: game.score,
  undo_count: game.undo_count,
  started_at: game.started_at,
  finished_at: game.finished_at,
});

// Send every finished game kept here (each once: the server knows a game sent again by
// its key). A game the server refuses stays here, marked with the reason.
export function send() {
  if (!offered() || typeof indexedDB === "undefined") return Promise.resolve();
  sending ??= (async () => {
    try {
      for (const game of await allKept()) {
        if (game.status === "playing" || game.refused) continue;
        try {
          const kept = await api("/api/games/offline", { method: "POST", body: sent(game) });
          await run("readwrite", (games) => games.delete(game.key));
          for (const listener of listeners) listener(game, kept);
        } catch (error) {
          if (!error.status || error.status === 429 || error.status >= 500) break; // later
          await keep({ ...game, refused: error.message });
          for (const listener of listeners) listener(game, null, error.message);
        }
      }
    } finally {
      sending = null;
    }
  })();
  return sending;
}

if (typeof window !== "undefined") window.addEventListener("online", () => send());

// ---------------------------------------------------------------- turning it on

// Download Pyodide and the core into the caches the service worker serves them from,
// then (``warm``) start the worker once, so that a first offline game does not wait for it.
export async function prepare(warm = true) {
  const store = caches_();
  if (!boot || !store) throw failure(t("offline.not_offered"));
  const wanted = [pyodideCache(), codeCache()];
  for (const name of await store.keys())
    if (name.startsWith(PREFIX) && !wanted.includes(name)) await store.delete(name);
  const pyodide = await store.open(pyodideCache());
  const files = boot.files.map((name) => `${boot.pyodide}${name}`);
  const missing = [];
  for (const file of files) if (!(await pyodide.match(file))) missing.push(file);
  if (missing.length) await pyodide.addAll(missing);
  const code = await store.open(codeCache());
  if (!(await code.match(boot.code))) await code.add(boot.code);
  if (warm) await ask({ op: "ready" });
}

// Whether every file of offline play is kept on this device.
export async function ready() {
  const store = caches_();
  if (!boot || !store) return false;
  const files = [...boot.files.map((name) => `${boot.pyodide}${name}`), boot.code];
  for (const file of files) if (!(await store.match(file))) return false;
  return true;
}

// Turn offline play on (download what it needs) or off (its files go; games kept here
// that are not sent yet stay until they are).
export async function turn(on) {
  set("offline_play", on);
  if (on) return prepare();
  const store = caches_();
  if (store)
    for (const name of await store.keys()) if (name.startsWith(PREFIX)) await store.delete(name);
}

// Online, a page keeps the files up to date (a new version of the game brings new code).
if (typeof window !== "undefined" && enabled() && navigator.onLine) prepare(false).catch(() => {});

// Installing the game turns offline play on: an installed game is opened without a network.
if (typeof window !== "undefined" && boot) {
  window.addEventListener("appinstalled", () => {
    if (!setting("offline_play")) turn(true).catch(() => {});
  });
  if (window.matchMedia?.("(display-mode: standalone)").matches && !setting("offline_play"))
    turn(true).catch(() => {});
}
