// The message catalog in the browser: the same JSON files the terminal game reads.
const boot = JSON.parse(document.getElementById("boot").textContent);
export const lang = boot.lang;
// "29 November 2026", in the player's language (the day is the server's, in UTC): every
// page names a day of the dungeon of the day so.
export const dayName = (iso) =>
  new Intl.DateTimeFormat(lang, { dateStyle: "long", timeZone: "UTC" }).format(
    new Date(`${iso}T00:00:00Z`),
  );
export const languages = boot.languages;
export const page = boot.page;
export const bootData = boot;
const messages = boot.messages;
const plurals = new Intl.PluralRules(lang);

// t("count.cards", {n: 3}) -> "3 cards"; plural forms are chosen by CLDR category, from
// `count` when {n} is given already formatted (t("review.points", {n: "12,5", count: 12.5})).
export function t(key, params = {}) {
  let message = messages[key];
  if (message === undefined) return key;
  if (typeof message === "object") {
    const n = params.count ?? params.n ?? 0;
    message = message[plurals.select(Math.abs(n))] ?? message.other;
  }
  return message.replace(/\{(\w+)\}/g, (whole, name) =>
    params[name] === undefined ? whole : String(params[name]),
  );
}

// Which dungeon a game is in: "Random dungeon", "Dungeon of the day, 29 November 2026", or
// the archive's day; the table's header and the replay's title say it so.
export function modeName(game) {
  if (game.mode === "daily") return t("mode.daily_on", { date: dayName(game.daily_date) });
  if (game.mode === "archive") return t("mode.archive_on", { date: dayName(game.daily_date) });
  return t("mode.random");
}

export function has(key) {
  return messages[key] !== undefined;
}

export function applyStatic(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
}

export function setupSwitcher() {
  const select = document.getElementById("lang-switch");
  if (!select) return;
  select.setAttribute("aria-label", t("nav.language"));
  for (const [code, name] of Object.entries(languages)) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = name;
    option.selected = code === lang;
    select.append(option);
  }
  select.addEventListener("change", () => {
    const chosen = select.value;
    document.cookie = `scoundrel_lang=${chosen}; path=/; max-age=${10 * 365 * 24 * 3600}; samesite=lax`;
    try {
      localStorage.setItem("scoundrel_lang", chosen);
    } catch {
      /* private mode */
    }
    const url = new URL(location.href);
    url.searchParams.set("lang", chosen);
    location.replace(url);
  });
}
