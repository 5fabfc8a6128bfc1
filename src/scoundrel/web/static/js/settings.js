// The player's settings for this browser (kept in localStorage): sound effects, a question
// before a move that would kill a hero, four-colour suits, and offline play. All off by
// default.
import { bootData, t } from "./i18n.js";
import { el } from "./dom.js";

const KEY = "scoundrel_settings";
const NAMES = ["sound", "confirm_deadly", "four_colour"];

function read() {
  try {
    return { ...JSON.parse(localStorage.getItem(KEY) ?? "{}") };
  } catch {
    return {};
  }
}

const chosen = read();

export const setting = (name) => chosen[name] === true;

export function set(name, on) {
  chosen[name] = on;
  try {
    localStorage.setItem(KEY, JSON.stringify(chosen));
  } catch {
    /* private mode */
  }
  apply();
}

// What the settings change on the page itself (the suits' colours).
export function apply() {
  document.body.classList.toggle("four-colour", setting("four_colour"));
}

export function showSettings() {
  let dialog = document.getElementById("settings");
  if (!dialog) {
    dialog = el("dialog", { id: "settings", "aria-labelledby": "settings-title" });
    const list = el("div", { class: "settings-list" });
    for (const name of NAMES) {
      const box = el("input", {
        type: "checkbox",
        name,
        checked: setting(name),
        onchange: (event) => set(name, event.target.checked),
      });
      list.append(el("label", {}, box, document.createTextNode(` ${t(`settings.${name}`)}`)));
    }
    dialog.append(
      el("h2", { id: "settings-title", text: t("settings.title") }),
      list,
      offlineSection(),
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

// Offline play (offline.js): a box that downloads what it needs when ticked, and a line
// that says where it stands. Without Pyodide on the server, the box is off and says why.
function offlineSection() {
  const status = el("p", { class: "note offline-status", role: "status" });
  const box = el("input", { type: "checkbox", name: "offline_play" });
  const megabytes = new Intl.NumberFormat(document.documentElement.lang, {
    maximumFractionDigits: 1,
  }).format((bootData.offline?.size ?? 0) / 1e6);
  const section = el(
    "fieldset",
    { class: "offline-play" },
    el("legend", { text: t("settings.offline_legend") }),
    // The label is whole before the dialog opens: read aloud (and checked by axe) at once,
    // not once offline.js has loaded.
    el(
      "label",
      {},
      box,
      document.createTextNode(` ${t("settings.offline_play", { size: megabytes })}`),
    ),
    status,
  );
  import("./offline.js").then(async (offline) => {
    box.checked = offline.enabled();
    box.disabled = !offline.offered();
    const say = async () => {
      if (!offline.offered()) status.textContent = t("offline.not_offered");
      else if (!offline.enabled()) status.textContent = t("settings.offline_off");
      else
        status.textContent = t(
          (await offline.ready()) ? "settings.offline_ready" : "settings.offline_missing",
        );
    };
    box.onchange = async () => {
      box.disabled = true;
      status.textContent = t(box.checked ? "settings.offline_loading" : "settings.offline_off");
      try {
        await offline.turn(box.checked);
        await say();
      } catch (error) {
        box.checked = false;
        set("offline_play", false);
        status.textContent = error.message;
      } finally {
        box.disabled = false;
      }
    };
    await say();
  });
  return section;
}

// Ask before a move that would kill a hero: resolves true to play it.
export function confirmDeadly(text) {
  return new Promise((resolve) => {
    const dialog = el("dialog", {
      class: "confirm-deadly",
      role: "alertdialog",
      "aria-labelledby": "deadly-title",
      "aria-describedby": "deadly-text",
    });
    const done = (answer) => {
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    dialog.append(
      el("h2", { id: "deadly-title", text: t("settings.deadly_title") }),
      el("p", { id: "deadly-text", text }),
      el(
        "div",
        { class: "notice-actions" },
        el("button", {
          class: "cancel",
          text: t("settings.deadly_cancel"),
          onclick: () => done(false),
        }),
        el("button", {
          class: "primary play-anyway",
          text: t("settings.deadly_play"),
          onclick: () => done(true),
        }),
      ),
    );
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      done(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    dialog.querySelector("button.cancel").focus(); // the safe answer first
  });
}
