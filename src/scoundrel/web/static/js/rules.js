// How to play, with the worked examples played out on small tables, step by step.
import { t, has } from "./i18n.js";
import { api } from "./api.js";
import { positionElement, moveText, moveWords, refusalText } from "./board.js";

const el = (tag, text, cls) => {
  const n = document.createElement(tag);
  if (text !== undefined) n.textContent = text;
  if (cls) n.className = cls;
  return n;
};

const SECTIONS = [
  ["goal", []],
  ["deck", []],
  ["room", ["room", "bare"]],
  ["flee", ["flee"]],
  ["weapons", []],
  ["wear", ["wear"]],
  ["potions", ["potions"]],
  ["order", ["order_good", "order_bad"]],
  ["end", []],
  ["score", []],
  ["coop", []],
  ["help", ["help"]],
  ["variants", []],
  ["notation", []],
];

function paragraphs(key) {
  return t(key)
    .split("\n\n")
    .map((text) => el("p", text));
}

function exampleElement(name, example) {
  const box = el("figure", undefined, "example");
  box.id = `example-${name}`;
  box.append(el("figcaption", t(`rules.example.${name}.title`)));
  box.append(...paragraphs(`rules.example.${name}.text`));
  const stage = el("div", undefined, "example-stage");
  const caption = el("p", undefined, "example-caption");
  caption.setAttribute("aria-live", "polite");
  const prev = el("button", `◀ ${t("replay.previous")}`);
  const next = el("button", `${t("rules.next_step")} ▶`, "primary");
  let step = 0;
  const last = example.steps.length;
  const draw = () => {
    const position = example.positions[step];
    stage.replaceChildren(positionElement(position, { showDungeon: false }));
    if (step === 0) caption.textContent = t("rules.example_start");
    else {
      const hero = example.positions[step].heroes
        .map((h, i) =>
          example.ruleset === "coop"
            ? t("app.labelled", { label: t("hero.name", { n: i + 1 }), value: h.health })
            : t("hero.health_value", { health: h.health, max: h.max_health }),
        )
        .join(", ");
      const token = example.steps[step - 1];
      const mark = moveWords(token).code === "fight_weapon" ? " ✓" : "";
      caption.textContent = t("app.labelled", {
        label: t("rules.step", { n: step, total: last }),
        value: `${moveText(token)}${mark} → ${hero}`,
      });
    }
    if (step === last && example.refused) {
      caption.textContent +=
        ". ✕ " +
        t("rules.refused", { move: moveText(example.refused.move) }) +
        " " +
        refusalText(example.refused);
    }
    prev.disabled = step === 0;
    next.disabled = step === last;
  };
  prev.addEventListener("click", () => {
    step = Math.max(0, step - 1);
    draw();
  });
  next.addEventListener("click", () => {
    step = Math.min(last, step + 1);
    draw();
  });
  const controls = el("div", undefined, "example-controls");
  controls.append(prev, next);
  box.append(stage, caption, controls);
  draw();
  return box;
}

export async function start(main) {
  main.append(el("h1", t("rules.title")));
  main.append(...paragraphs("rules.intro"));
  const toc = el("nav", undefined, "toc");
  toc.setAttribute("aria-label", t("rules.contents"));
  const list = el("ol");
  // the numbers are text of their own (not list markers, which sit outside the item and
  // ran into the column before them), so that a long title wraps inside its own column
  SECTIONS.forEach(([section], i) => {
    const link = el("a", t(`rules.s.${section}.h`));
    link.href = `#${section}`;
    const number = el("span", `${i + 1}.`, "number");
    number.setAttribute("aria-hidden", "true");
    const item = el("li");
    item.append(number, link);
    list.append(item);
  });
  toc.append(list);
  main.append(toc);
  let examples = {};
  try {
    examples = await api("/api/examples");
  } catch {
    /* the text stands alone */
  }
  for (const [section, names] of SECTIONS) {
    const part = el("section", undefined, "rules-section");
    part.id = section;
    part.append(el("h2", t(`rules.s.${section}.h`)), ...paragraphs(`rules.s.${section}.p`));
    for (const name of names)
      if (examples[name] && has(`rules.example.${name}.title`))
        part.append(exampleElement(name, examples[name]));
    main.append(part);
  }
}
