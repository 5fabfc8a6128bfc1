// Movement on the table, drawn after the new state is on screen (so nothing waits for it):
// cards that leave the room fly to where they went (the weapon, its stack, a hero, or under
// the dungeon when the room is fled), new cards are dealt from the dungeon, and optional
// sounds. With prefers-reduced-motion every movement becomes a fade.
import { cardElement } from "./cards.js";
import { setting } from "./settings.js";

export const reduced = () => matchMedia("(prefers-reduced-motion: reduce)").matches;
const DEAL_MS = 380;
const FLY_MS = 480;

// Where the room's cards and the dungeon are on screen now (before the next state is drawn).
export function snapshot(root) {
  const cards = new Map();
  for (const node of root.querySelectorAll(".room-cards .card[data-card]"))
    cards.set(node.dataset.card, node.getBoundingClientRect());
  const pile = root.querySelector(".dungeon .card.back")?.getBoundingClientRect() ?? null;
  return { cards, pile };
}

// After the state ``after`` replaced ``before`` on screen (``shot`` taken before it).
export function animate(root, before, after, shot) {
  const gone = before.room.filter((code) => !after.room.includes(code));
  const fled =
    after.moves.length === before.moves.length + 1 && after.moves[after.moves.length - 1] === "F";
  for (const code of gone) {
    const from = shot.cards.get(code);
    if (!from) continue;
    fly(code, from, destination(root, code, before, after, fled));
  }
  sound(gone.length ? soundOf(before, after, fled) : null);
}

// Where a card that left the room went: its new place if it is still on the table (a
// weapon, a slain monster on a stack), else the hero who took it, else the dungeon.
function destination(root, code, before, after, fled) {
  const placed = root.querySelector(`.heroes .card[data-card="${code}"]`);
  if (placed) return { node: placed, keep: true };
  if (fled) return { node: root.querySelector(".dungeon .card.back"), keep: false };
  const hero = after.heroes.findIndex((h, i) => h.health !== before.heroes[i].health);
  const n = hero >= 0 ? hero + 1 : before.leader;
  return {
    node: root.querySelector(`.hero[data-hero="${n}"] .health`) ?? root.querySelector(".heroes"),
    keep: false,
  };
}

function fly(code, from, { node, keep }) {
  if (!node) return;
  const to = node.getBoundingClientRect();
  const ghost = cardElement(code);
  ghost.classList.add("flying");
  ghost.setAttribute("aria-hidden", "true");
  ghost.removeAttribute("role");
  const style = ghost.style; // CSSOM: the page's policy allows no style attributes
  style.setProperty("--card-w", `${from.width}px`);
  style.left = `${from.left}px`;
  style.top = `${from.top}px`;
  document.body.append(ghost);
  if (keep) node.style.opacity = "0"; // the real card appears where the ghost lands
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const scale = Math.max(0.3, Math.min(1, to.width / from.width));
  const frames = reduced()
    ? [{ opacity: 1 }, { opacity: 0 }]
    : [
        { transform: "none", opacity: 1 },
        { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: keep ? 1 : 0.15 },
      ];
  const flight = ghost.animate(frames, {
    duration: reduced() ? 200 : FLY_MS,
    easing: "cubic-bezier(.3,.7,.3,1)",
  });
  const land = () => {
    ghost.remove();
    if (keep) node.style.removeProperty("opacity");
  };
  flight.addEventListener("finish", land);
  flight.addEventListener("cancel", land);
}

// New cards come from the dungeon's pile, one after the other.
export function deal(root, codes, pile) {
  const from = pile ?? root.querySelector(".dungeon .card.back")?.getBoundingClientRect();
  codes.forEach((code, i) => {
    const node = root.querySelector(`.room-cards .card[data-card="${code}"]`);
    if (!node) return;
    const to = node.getBoundingClientRect();
    let frames;
    if (reduced() || !from) frames = [{ opacity: 0 }, { opacity: 1 }];
    else {
      const dx = from.left + from.width / 2 - (to.left + to.width / 2);
      const dy = from.top + from.height / 2 - (to.top + to.height / 2);
      frames = [
        { transform: `translate(${dx}px, ${dy}px) scale(.6) rotate(-8deg)`, opacity: 0.3 },
        { transform: "none", opacity: 1 },
      ];
    }
    node.animate(frames, {
      duration: reduced() ? 200 : DEAL_MS,
      delay: i * 70,
      easing: "ease-out",
      fill: "backwards",
    });
  });
  if (codes.length) sound("deal");
}

function soundOf(before, after, fled) {
  if (after.status === "won") return "win";
  if (after.status === "lost") return "lose";
  if (fled) return "flee";
  const change = after.heroes.reduce((sum, h, i) => sum + h.health - before.heroes[i].health, 0);
  if (change > 0) return "heal";
  if (change < 0) return "hit";
  return "weapon";
}

// Sounds are made, not loaded: a few notes of a small synthesiser (Web Audio).
const NOTES = {
  deal: [[660, 0.04]],
  weapon: [
    [880, 0.06],
    [1320, 0.08],
  ],
  hit: [[150, 0.16]],
  heal: [
    [523, 0.08],
    [784, 0.12],
  ],
  flee: [
    [440, 0.06],
    [330, 0.1],
  ],
  win: [
    [523, 0.12],
    [659, 0.12],
    [784, 0.12],
    [1047, 0.3],
  ],
  lose: [
    [392, 0.2],
    [311, 0.2],
    [233, 0.4],
  ],
};
let audio = null;
export function sound(name) {
  if (!name || !setting("sound")) return;
  document.body.dataset.lastSound = name; // what was played last (the tests read it)
  try {
    audio ??= new AudioContext();
    let at = audio.currentTime;
    for (const [frequency, length] of NOTES[name]) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = name === "hit" ? "triangle" : "sine";
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.12, at);
      volume.gain.exponentialRampToValueAtTime(0.001, at + length);
      tone.connect(volume).connect(audio.destination);
      tone.start(at);
      tone.stop(at + length);
      at += length * 0.8;
    }
  } catch {
    /* no sound on this browser */
  }
}

// A won game: suits rain over the result for a moment.
export function celebrate(box) {
  if (reduced()) return;
  const rain = document.createElement("div");
  rain.className = "celebration";
  rain.setAttribute("aria-hidden", "true");
  for (let i = 0; i < 24; i++) {
    const suit = document.createElement("span");
    suit.textContent = "♠♥♦♣"[i % 4];
    suit.className = i % 4 === 1 || i % 4 === 2 ? "red" : "";
    suit.style.left = `${(i * 37) % 100}%`;
    suit.style.animationDelay = `${(i % 8) * 90}ms`;
    rain.append(suit);
  }
  box.append(rain);
  setTimeout(() => rain.remove(), 2600);
}
