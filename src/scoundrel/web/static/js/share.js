// The result card of the dungeon of the day, and sharing it: an image (SVG drawn here, a PNG
// made from it for the phone's share sheet) with the date, the score, the heroes' health,
// the par and one square per room. Like the share text, it never shows a card.

const WIDTH = 600;
const HEIGHT = 315;
// One colour per kind of room (the share text's signs).
const ROOM_COLOURS = {
  clean: "#3fae5a",
  healed: "#8be0a0",
  light: "#e6c229",
  heavy: "#ec8a2f",
  worst: "#d9463b",
  fled: "#6c7482",
  died: "#15161a",
};

const xml = (text) =>
  String(text).replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&#39;" })[c],
  );

// The card as SVG text. ``card``: {title, lines: [text…], rooms: [kind…], won, address}:
// the game's name, then the title (the day and the ruleset), the lines (the first one
// large), the rooms and the address.
export function resultSvg(card) {
  const size = Math.max(12, Math.min(34, Math.floor(520 / Math.max(1, card.rooms.length)) - 4));
  const step = size + 4;
  const left = (WIDTH - step * card.rooms.length + 4) / 2;
  const squares = card.rooms
    .map((kind, i) => {
      const x = left + i * step;
      const square = `<rect class="room ${kind}" x="${x}" y="222" width="${size}" height="${size}" rx="4" fill="${ROOM_COLOURS[kind]}" stroke="#ffffff40"/>`;
      if (kind !== "died") return square;
      const a = x + size * 0.25;
      const b = x + size * 0.75;
      const top = 222 + size * 0.25;
      const bottom = 222 + size * 0.75;
      const cross = `M${a} ${top}L${b} ${bottom}M${b} ${top}L${a} ${bottom}`;
      return `${square}<path d="${cross}" stroke="#d9463b" stroke-width="3"/>`;
    })
    .join("");
  const lines = card.lines
    .map(
      (line, i) =>
        `<text x="300" y="${i ? 146 + i * 28 : 136}" font-size="${i ? 20 : 34}" font-weight="${i ? 400 : 700}" text-anchor="middle" fill="${i ? "#c9ccd3" : "#ffffff"}">${xml(line)}</text>`,
    )
    .join("");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="system-ui, sans-serif">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" rx="18" fill="#1d1f24"/>`,
    `<rect x="6" y="6" width="${WIDTH - 12}" height="${HEIGHT - 12}" rx="14" fill="none" stroke="${card.won ? "#e6c229" : "#3a3d45"}" stroke-width="3"/>`,
    `<text x="300" y="50" font-size="24" font-weight="700" text-anchor="middle" fill="#e6c229">♠ Scoundrel</text>`,
    `<text x="300" y="82" font-size="18" text-anchor="middle" fill="#c9ccd3" textLength="${Math.min(540, card.title.length * 9)}" lengthAdjust="spacingAndGlyphs">${xml(card.title)}</text>`,
    lines,
    squares,
    `<text x="300" y="${HEIGHT - 22}" font-size="16" text-anchor="middle" fill="#8b909b">${xml(card.address)}</text>`,
    "</svg>",
  ].join("");
}

export const svgAddress = (svg) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

// The card as a PNG file (twice the size, for sharp phone screens).
export async function resultPng(svg, name) {
  const image = new Image();
  image.src = svgAddress(svg);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = WIDTH * 2;
  canvas.height = HEIGHT * 2;
  canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise((done) => canvas.toBlob(done, "image/png"));
  return new File([blob], name, { type: "image/png" });
}

// Share the result: through the phone's share sheet where the browser has one (with the
// card as an image where it takes files), else by copying the text. Returns how:
// "shared", "cancelled" (the player closed the sheet) or "copied" (``copy`` was called).
export async function shareResult({ text, svg, name }, copy) {
  if (typeof navigator.share === "function") {
    let data = { text };
    try {
      const file = await resultPng(svg, name);
      if (navigator.canShare?.({ files: [file] })) data = { text, files: [file] };
    } catch {
      /* no image: the text alone */
    }
    try {
      await navigator.share(data);
      return "shared";
    } catch (error) {
      if (error?.name === "AbortError") return "cancelled";
    }
  }
  await copy();
  return "copied";
}

// Save the card as a PNG file.
export async function saveCard(svg, name) {
  const file = await resultPng(svg, name);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(file);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
