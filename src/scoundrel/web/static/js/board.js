// A read-only drawing of one position: for the replay viewer and the rules' examples.
import { t } from "./i18n.js";
import { cardElement, backElement, symbol } from "./cards.js";

const el = (tag, text, cls) => {
  const n = document.createElement(tag);
  if (text !== undefined) n.textContent = text;
  if (cls) n.className = cls;
  return n;
};

export function positionElement(position, { weapon = "strict", showDungeon = true } = {}) {
  const box = el("div", undefined, "board");
  if (showDungeon) box.append(backElement(position.dungeon_count));
  const room = el("div", undefined, "room-cards small-room");
  room.setAttribute("aria-label", t("table.room"));
  for (const code of position.room) room.append(cardElement(code));
  box.append(room);
  const heroes = el("div", undefined, "mini-heroes");
  position.heroes.forEach((hero, i) => {
    const h = el(
      "div",
      undefined,
      `mini-hero${position.heroes.length > 1 && position.leader === i + 1 ? " leader" : ""}`,
    );
    const name = position.heroes.length > 1 ? t("hero.name", { n: i + 1 }) : t("hero.you");
    h.append(
      el("b", name),
      el("span", t("hero.health_value", { health: hero.health, max: hero.max_health }), "hp"),
    );
    if (hero.weapon) {
      const pile = el("span", undefined, "weapon-pile");
      pile.append(cardElement(hero.weapon, { size: "small" }));
      hero.stack.forEach((code, j) => {
        const c = cardElement(code, { size: "tiny" });
        c.classList.add("slain");
        c.style.setProperty("--i", j);
        pile.append(c);
      });
      h.append(pile);
      const marker = !hero.stack.length
        ? t("weapon.fresh")
        : weapon === "strict"
          ? t("weapon.below", { n: hero.reach })
          : t("weapon.up_to", { n: hero.reach - 1 });
      h.append(el("span", marker, "marker"));
    } else h.append(el("span", t("weapon.none"), "marker"));
    heroes.append(h);
  });
  box.append(heroes);
  return box;
}

// A move in words: "K♠ with the weapon", "7♦, given to the partner", "Flee the room".
export function moveText(token) {
  if (token === "F") return t("act.flee");
  const help = token.startsWith(">");
  const [code, how] = token.replace(">", "").split("/");
  const card = symbol(code);
  const what =
    how === "w"
      ? t("replay.with_weapon", { card })
      : how === "b"
        ? t("replay.bare", { card })
        : card;
  return help ? t("replay.given", { what }) : what;
}

// Why a move is refused, translated from the core's refusal code.
export function refusalText(refusal) {
  if (!refusal) return "";
  const params = { ...refusal };
  if (params.card) params.card = symbol(params.card);
  if (params.weapon) params.weapon = symbol(params.weapon);
  const key =
    refusal.code === "weapon_worn" && !refusal.strict
      ? "refusal.weapon_worn_lenient"
      : `refusal.${refusal.code}`;
  return t(key, params);
}
