// The service worker of the installed game (served as /sw.js, its version and files filled
// in by the server). It keeps the pages and this version's files, so that the game opens
// at once and opens at all without a network; it never keeps a game's position, nor any
// answer of the API but the rules' worked examples: a position always comes from the
// server, never from a copy. Offline play's files (Pyodide and the core, under /offline/,
// each address naming its version) are kept by the page once the player turns offline
// play on (offline.js); this worker serves them from that copy.
const VERSION = "__VERSION__";
const PREFIX = "__PREFIX__"; // this version's files: /static/<hash>, never changed
const FILES = __FILES__;
const PAGES = ["/", "/rules", "/daily", "/records"];
// The one answer of the API kept too: the rules' worked examples, the same for every
// player of a version (the rules page shows them without a network).
const KEPT_ANSWERS = ["/api/examples"];
const CACHE = `scoundrel-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        cache.addAll([...PAGES, ...KEPT_ANSWERS, ...FILES.map((file) => `${PREFIX}/${file}`)]),
      )
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  // an older version's copies go: its files are not this version's
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith("scoundrel-") && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(`${PREFIX}/`) || url.pathname.startsWith("/offline/")) {
    // this version's files never change: the copy, else the network
    event.respondWith(caches.match(request).then((kept) => kept ?? fetch(request)));
    return;
  }
  if (
    (request.mode === "navigate" && PAGES.includes(url.pathname)) ||
    KEPT_ANSWERS.includes(url.pathname)
  ) {
    // a page: the network first (the newest version, the player's language), a copy when
    // there is no network
    event.respondWith(
      fetch(request)
        .then((answer) => {
          if (answer.ok) {
            const copy = answer.clone();
            caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
          }
          return answer;
        })
        .catch(() => caches.match(url.pathname).then((kept) => kept ?? caches.match("/"))),
    );
  }
  // everything else (the API, the socket, other pages): the network alone
});
