// The share-link viewer: a finished game, move by move (?step=N opens it at a position).
import { t, bootData, modeName } from "./i18n.js";
import { api, toast } from "./api.js";
import { positionElement, moveText } from "./board.js";

const el = (tag, text, cls) => {
  const n = document.createElement(tag);
  if (text !== undefined) n.textContent = text;
  if (cls) n.className = cls;
  return n;
};

export async function start(main) {
  let data;
  try {
    data = await api(`/api/games/${encodeURIComponent(bootData.game)}/replay`);
  } catch (error) {
    main.append(el("h1", t("replay.title")), el("p", error.message, "lead"));
    return;
  }
  const heading = modeName(data);
  main.append(
    el(
      "h1",
      t("app.labelled", {
        label: t("replay.title"),
        value: `${heading} · ${t(`ruleset.${data.ruleset}`)}`,
      }),
    ),
  );
  const stage = el("div", undefined, "replay-stage");
  const caption = el("p", undefined, "replay-caption");
  caption.setAttribute("aria-live", "polite");
  const slider = document.createElement("input");
  slider.type = "range";
  slider.min = 0;
  slider.max = data.steps.length - 1;
  slider.value = 0;
  slider.setAttribute("aria-label", t("replay.step"));
  const prev = el("button", `◀ ${t("replay.previous")}`);
  const next = el("button", `${t("replay.next")} ▶`, "primary");
  // ?step=N opens the viewer at position N (0: the first room; N: after move N), as the
  // post-game analysis links to the position where a game slipped
  const asked = Number.parseInt(new URL(location.href).searchParams.get("step") ?? "", 10);
  let step = Number.isInteger(asked) ? Math.min(Math.max(asked, 0), data.steps.length - 1) : 0;
  const draw = () => {
    const position = data.steps[step];
    stage.replaceChildren(positionElement(position));
    caption.textContent =
      step === 0
        ? t("replay.start")
        : t("replay.after", {
            n: step,
            total: data.moves.length,
            move: moveText(data.moves[step - 1]),
          });
    if (position.status !== "playing")
      caption.textContent += ` — ${t(`status.${position.status}`)} (${position.score})`;
    slider.value = step;
    prev.disabled = step === 0;
    next.disabled = step === data.steps.length - 1;
  };
  prev.addEventListener("click", () => {
    step = Math.max(0, step - 1);
    draw();
  });
  next.addEventListener("click", () => {
    step = Math.min(data.steps.length - 1, step + 1);
    draw();
  });
  slider.addEventListener("input", () => {
    step = Number(slider.value);
    draw();
  });
  // the arrows step through the game, except on the slider, which steps by itself
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    if (e.key === "ArrowLeft") prev.click();
    if (e.key === "ArrowRight") next.click();
  });
  const copy = el("button", t("over.copy_record"));
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(data.record));
      toast(t("toast.record_copied"));
    } catch {
      window.prompt(t("toast.copy_manually"), JSON.stringify(data.record));
    }
  });
  main.append(stage, caption, el("div", undefined, "replay-controls"));
  main.lastChild.append(prev, slider, next, copy);
  draw();
}
