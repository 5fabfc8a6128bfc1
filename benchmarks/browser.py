"""Browser benchmark: how soon a click shows the new state, with the animations on, and
what a first visit weighs.

    .venv/bin/python benchmarks/browser.py [--moves 120] [--seed 1] [--reference GIT_REF]

Starts ``scoundrel serve`` on a free loopback port with a fresh SQLite database and drives
Debian's Chromium (``/usr/bin/chromium``) through Playwright at a desktop size. It plays
random solo games on the page as a player does: a click on a card, then a click on one of
its actions (a random one, from a generator seeded with ``--seed``), or on Flee. Each move
is timed inside the page, from the action's click to the moment the table shows the new
position (its ``data-moves`` grows), not to the end of the cards' movement, which goes on
after it. Prints the median, p90 and max over ``--moves`` moves, and the bytes a first
visit transfers (gzip, the page with its styles and modules: ``benchmarks/web.py``).

``--reference GIT_REF`` measures another commit in the same run (checked out into a
temporary git worktree, served from it), reference first.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

from web import free_port, page_weight, start_server, worktree

#: Run in the page: click ``selector``, and resolve with the milliseconds until the table
#: shows ``moves`` moves.
CLICK_TO_UPDATE = """async ([selector, moves]) => {
  const table = () => document.querySelector(".table");
  const start = performance.now();
  const shown = new Promise((done) => {
    const check = () => {
      const now = table();
      if (Number(now?.dataset.moves) >= moves || now?.dataset.status !== "playing") {
        watch.disconnect();
        done();
      }
    };
    const watch = new MutationObserver(check);
    const all = { subtree: true, childList: true, attributes: true };
    watch.observe(document.getElementById("main"), all);
  });
  document.querySelector(selector).click();
  await shown;
  return performance.now() - start;
}"""


def measure(src: Path | None, moves: int, seed: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    rng = random.Random(seed)
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(port, Path(folder) / "bench.sqlite3", src)
        base = f"http://127.0.0.1:{port}"
        times: list[float] = []
        try:
            weight, files = page_weight(base)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
                )
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.goto(base + "/")
                while len(times) < moves:
                    if not page.locator(".table[data-status='playing']").count():
                        page.locator("details.new-game").evaluate("d => d.open = true")
                        page.click("form.setup button[type=submit]")
                        page.wait_for_selector(".table[data-status='playing']")
                    done = int(page.locator(".table").get_attribute("data-moves") or 0)
                    flee = page.locator("button.flee:enabled")
                    cards = page.locator(".room-cards .card:enabled")
                    if flee.count() and rng.random() < 0.2:
                        selector = "button.flee"
                    else:
                        cards.nth(rng.randrange(cards.count())).click()
                        choices = page.locator(".choice:enabled")
                        if not choices.count():
                            continue
                        pick = rng.randrange(choices.count())
                        token = choices.nth(pick).get_attribute("data-move")
                        selector = f'.choice[data-move="{token}"]'
                    times.append(page.evaluate(CLICK_TO_UPDATE, [selector, done + 1]))
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    ordered = sorted(times)
    return {
        "moves": len(times),
        "click_to_update_ms_median": round(statistics.median(ordered), 1),
        "click_to_update_ms_p90": round(ordered[int(0.9 * (len(ordered) - 1))], 1),
        "click_to_update_ms_max": round(ordered[-1], 1),
        "first_page_bytes": weight,
        "first_page_files": len(files),
    }


def line(name: str, result: dict[str, Any]) -> str:
    return (
        f"{name}: click to new state over {result['moves']} moves: median "
        f"{result['click_to_update_ms_median']} ms, p90 {result['click_to_update_ms_p90']} ms, "
        f"max {result['click_to_update_ms_max']} ms; first visit "
        f"{result['first_page_bytes'] / 1024:.1f} KB over {result['first_page_files']} files (gzip)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", metavar="GIT_REF")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    if args.reference:
        with worktree(args.reference) as tree:
            results["reference"] = measure(tree / "src", args.moves, args.seed)
    results["this tree"] = measure(
        Path(__file__).resolve().parent.parent / "src", args.moves, args.seed
    )
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        for name, result in results.items():
            print(line(f"{name} ({args.reference})" if name == "reference" else name, result))


if __name__ == "__main__":
    main()
