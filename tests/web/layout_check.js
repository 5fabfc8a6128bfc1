// Run in a page by tests/web/test_browser_layout.py: what runs off the screen, out of its
// panel, or over a neighbour in a menu or a table of contents (a list of sentences).
() => {
  const found = [];
  const name = (n) =>
    `${n.tagName.toLowerCase()}${n.className && typeof n.className === "string" ? `.${n.className.trim().split(/\s+/).join(".")}` : ""}`;
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth)
    found.push(`the page is ${page.scrollWidth} px wide in ${page.clientWidth}`);
  const shown = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== "hidden";
  // a panel whose content is wider than the panel (it runs out, or scrolls sideways)
  const panels =
    "header.top, main section, main figure, main nav, main table, main form, main aside, main details, main dl, dialog[open]";
  for (const n of document.querySelectorAll(panels)) {
    if (shown(n) && n.scrollWidth > n.clientWidth + 1)
      found.push(`${name(n)}: content ${n.scrollWidth} px wide in ${n.clientWidth}`);
  }
  // anything past the edges of the screen
  for (const n of document.querySelectorAll("header *, main *, dialog[open] *")) {
    if (!shown(n) || n.closest(".sr-only")) continue;
    const r = n.getBoundingClientRect();
    if (r.width && (r.right > page.clientWidth + 1 || r.left < -1))
      found.push(
        `${name(n)} runs off the screen (${Math.round(r.left)}–${Math.round(r.right)} px)`,
      );
  }
  // the boxes of the text of a menu or a table of contents, pairwise
  const boxes = (selector) =>
    [...document.querySelectorAll(selector)].flatMap((n) =>
      [...n.getClientRects()].map((r) => [n, r]),
    );
  for (const group of [
    boxes("header.top .brand, header.top nav a, header.top select"),
    boxes(".toc .number, .toc a"),
  ]) {
    for (let i = 0; i < group.length; i++)
      for (let j = i + 1; j < group.length; j++) {
        const [[m, a], [n, b]] = [group[i], group[j]];
        if (m === n || m.contains(n) || n.contains(m)) continue;
        if (
          a.left < b.right - 1 &&
          b.left < a.right - 1 &&
          a.top < b.bottom - 1 &&
          b.top < a.bottom - 1
        )
          found.push(`"${m.textContent.trim()}" overlaps "${n.textContent.trim()}"`);
      }
  }
  return found;
};
