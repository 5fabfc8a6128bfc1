import { page, applyStatic, setupSwitcher, t } from "./i18n.js";
import { apply as applySettings } from "./settings.js";
import { showConnection } from "./api.js";

applyStatic();
applySettings(); // four-colour suits, where chosen
setupSwitcher();
document.title = t(`page.${page}`);
for (const link of document.querySelectorAll("nav a")) {
  if (new URL(link.href).pathname === location.pathname) link.setAttribute("aria-current", "page");
}
// Installable: the service worker keeps the pages and this version's files (never a
// game's position), so the game opens without a network and tells the player so.
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
showConnection(); // the line that says the page is offline, if it is
const main = document.getElementById("main");
main.replaceChildren();
const modules = {
  table: "./table.js",
  rules: "./rules.js",
  records: "./records.js",
  daily: "./daily.js",
  replay: "./replay.js",
};
const module = await import(modules[page] ?? "./table.js");
await module.start(main);
document.body.dataset.ready = "true"; // the page has what it first asked the server for (tests wait for it)
