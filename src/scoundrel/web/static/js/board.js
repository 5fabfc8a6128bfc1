// A read-only drawing of one position: for the replay viewer and the rules' examples.
import { t, bootData } from "./i18n.js";
import { cardElement, backElement, symbol, spoken } from "./cards.js";

const el = (tag, text, cls) => {
  const n = document.createElement(tag);
  if (text !== undefined) n.textContent = text;
  if (cls) n.className = cls;
  return n;
};

export function positionElement(position, { showDungeon = true } = {}) {
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
    }
    h.append(el("span", limitText(hero.limit), "marker"));
    heroes.append(h);
  });
  box.append(heroes);
  return box;
}

// How far a hero's weapon reaches, as the core states it (S9, C7): "Usable below 9".
export function limitText(limit) {
  return t(`weapon.${limit.code}`, { n: limit.n });
}

// What the core calls a move without its position (the page's boot data has every move):
// {code: flee | equip | drink | fight_weapon | fight_bare, card, help}.
export function moveWords(token) {
  return bootData.moves[token];
}

// The words of a move alone, by the code the core gives it.
const MOVE_KEYS = { fight_weapon: "replay.with_weapon", fight_bare: "replay.bare" };

// A move in words: "K♠ with the weapon", "7♦, given to the partner", "Flee the room".
export function moveText(token) {
  const move = moveWords(token);
  if (move.code === "flee") return t("act.flee");
  const card = symbol(move.card);
  const what = MOVE_KEYS[move.code] ? t(MOVE_KEYS[move.code], { card }) : card;
  return move.help ? t("replay.given", { what }) : what;
}

// What a legal move does, from the label the server sends with it (the rules core's:
// code and params, as a refusal): "Fight K♠ with 5♦: −8, health 12 (deadly)".
export function labelText(label) {
  const params = { ...label };
  if (label.card) params.card = symbol(label.card);
  params.weapon = label.weapon ? symbol(label.weapon) : "";
  if (label.hero !== undefined) params.hero = t("hero.name", { n: label.hero });
  const text = t(`act.${label.code}`, params);
  return label.deadly ? `${text} ${t("act.deadly")}` : text;
}

// What a move did, in words for the ear (the polite live region of the table): the label
// it had in the position it was played from, in the past tense, cards named in full.
// "You slay the 7 of spades with the 9 of diamonds: no damage, health 20." In co-op each
// sentence names the hero it played on.
export function saidText(label, coop) {
  const params = { ...label, card: label.card ? spoken(label.card) : "" };
  params.weapon = label.weapon ? spoken(label.weapon) : "";
  params.hero = t("hero.name", { n: label.hero });
  if (label.damage !== undefined)
    params.damage = label.damage ? t("said.damage", { n: label.damage }) : t("said.no_damage");
  if (label.code === "give_monster") return t("said.give_monster", params);
  const base = GIVEN[label.code] ?? label.code;
  return t(`said.${coop ? "hero_" : ""}${base}`, params);
}

// A help card says what the partner did with it, as their own move would.
const GIVEN = {
  give_weapon: "equip",
  give_potion: "drink",
  give_potion_wasted: "drink_wasted",
  give_potion_full: "drink_full",
  give_fight_weapon: "fight_weapon",
  give_fight_bare: "fight_bare",
};

// Why a move is refused, translated from the core's refusal code.
export function refusalText(refusal) {
  if (!refusal) return "";
  const params = { ...refusal };
  if (params.card) params.card = symbol(params.card);
  if (params.weapon) params.weapon = symbol(params.weapon);
  return t(`refusal.${refusal.code}`, params);
}
