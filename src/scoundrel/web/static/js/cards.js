// Cards drawn by the game itself: rank, suit symbol, colour and a text label.
import { t, bootData } from "./i18n.js";

export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

// A card's code read for drawing: its rank and suit as written, and its value as the rules
// core gives it (the server sends every card's value, as it sends every card's kind).
export function parse(code) {
  const value = bootData.values[code];
  if (code === "RJ" || code === "BJ")
    return { code, rank: "★", suit: code[0] === "R" ? "R" : "B", value, joker: true };
  return { code, rank: code.slice(0, -1), suit: code.slice(-1), value, joker: false };
}

// monster, weapon or potion: the server sends every card's kind from the rules core
export function kind(card) {
  return bootData.kinds[card.code];
}

export function symbol(code) {
  const card = parse(code);
  return card.joker
    ? card.suit === "R"
      ? t("card.red_joker_short")
      : t("card.black_joker_short")
    : card.rank + SUITS[card.suit];
}

// How a value is written (J for 11 … A for 14), as the server says (a joker's 15 as is).
export function valueName(value) {
  return bootData.ranks[value] ?? String(value);
}

// A card's name as it is said: "king of spades", "red joker".
export function spoken(code) {
  const card = parse(code);
  return card.joker
    ? t(card.suit === "R" ? "card.red_joker" : "card.black_joker")
    : t("card.name", { rank: t(`rank.${card.rank}`), suit: t(`suit.${card.suit}`) });
}

// "king of spades, monster 13"
export function label(code) {
  return t(`card.described.${kind(parse(code))}`, { card: spoken(code), value: parse(code).value });
}

export function cardElement(code, { size = "", tag = "div" } = {}) {
  const card = parse(code);
  const k = kind(card);
  const node = document.createElement(tag);
  const red = card.suit === "D" || card.suit === "H" || card.suit === "R";
  node.className = `card ${red ? "red" : "black"} suit-${card.suit} kind-${k} ${size}`.trim();
  node.dataset.card = code;
  node.setAttribute("aria-label", label(code));
  if (tag === "div") node.setAttribute("role", "img");
  const pip = card.joker ? "★" : SUITS[card.suit];
  // The rank and suit are drawn by the style sheet (from data-rank and data-pip): the words
  // of the kind line are the only text on the card, and its name says them too, so that a
  // player who speaks to the browser can name a card by what it shows.
  const corner = document.createElement("span");
  corner.className = "corner";
  corner.dataset.rank = card.rank === "★" ? "J" : card.rank;
  corner.dataset.pip = pip;
  const big = document.createElement("span");
  big.className = "pip";
  big.dataset.pip = pip;
  const line = document.createElement("span");
  line.className = "kind";
  line.textContent = `${t(`kind.${k}`)} ${card.value}`;
  for (const part of [corner, big, line]) part.setAttribute("aria-hidden", "true");
  node.append(corner, big, line);
  return node;
}

export function backElement(count) {
  const node = document.createElement("div");
  node.className = "card back";
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", t("table.dungeon_pile", { n: count }));
  node.innerHTML = `<span class="count" aria-hidden="true">${count}</span>`;
  return node;
}
