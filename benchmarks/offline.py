"""Offline play (issue 39): what turning it on downloads, and how soon a new game's table
is playable offline, cold and warm, beside the same new game played on the server.

    .venv/bin/python benchmarks/offline.py [--runs 3]

Starts ``scoundrel serve`` on a free loopback port with a fresh SQLite database and drives
Debian's Chromium through Playwright. Each run uses a fresh browser profile:

- **download**: the bytes of offline play's files as the server sends them to a browser
  (gzip where it compresses), once per server; then, in each run, offline play is turned
  on in the settings: the time until they say it is ready (the files kept, and the worker
  started once);
- **server**: the reference, a new random dungeon asked of the server, click to table;
- **cold**: the network cut and the page reloaded, a new random dungeon: click to table,
  which includes starting Pyodide in a new worker from the kept files;
- **warm**: the next new game on the same page, its worker running.

Prints each run and the median of each figure (milliseconds; never asserted).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from web import free_port, start_server

#: Run in the page: submit the new-game form and resolve with the milliseconds until a
#: new game's table (another game in the address) is shown with its room's cards.
NEW_GAME = """async () => {
  const shownGame = () => new URL(location.href).searchParams.get("game");
  const before = shownGame();
  const start = performance.now();
  const shown = new Promise((done) => {
    const check = () => {
      const table = document.querySelector(".table[data-moves='0'] .room-cards .card");
      if (table && shownGame() !== before) {
        watch.disconnect();
        done();
      }
    };
    const watch = new MutationObserver(check);
    const all = { subtree: true, childList: true, attributes: true };
    watch.observe(document.getElementById("main"), all);
  });
  document.querySelector("details.new-game").open = true;
  document.querySelector("input[name=mode][value=random]").checked = true;
  document.querySelector("form.setup button[type=submit]").click();
  await shown;
  return performance.now() - start;
}"""


def download(base: str) -> tuple[float, float]:
    """Megabytes of offline play's files as sent (gzip accepted) and as kept."""
    page = urllib.request.urlopen(base + "/", timeout=30).read().decode()
    found = re.search(r'"offline": (\{[^}]*\})', page)
    if found is None:
        raise SystemExit("this server does not offer offline play")
    boot = json.loads(found.group(1))
    sent = kept = 0
    for url in [boot["pyodide"] + name for name in boot["files"]] + [boot["code"]]:
        asked = urllib.request.Request(base + url, headers={"accept-encoding": "gzip"})
        with urllib.request.urlopen(asked, timeout=60) as answer:
            body = answer.read()
            sent += len(body)
            gzipped = answer.headers.get("content-encoding") == "gzip"
            kept += len(gzip.decompress(body)) if gzipped else len(body)
    return sent / 1e6, kept / 1e6


def one_run(browser: Any, base: str) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    server_ms = page.evaluate(NEW_GAME)
    page.click("button.settings-button")
    started = time.perf_counter()
    page.check("input[name=offline_play]")
    page.wait_for_function(
        "() => !document.querySelector('input[name=offline_play]').disabled", timeout=300_000
    )
    ready_ms = (time.perf_counter() - started) * 1000
    assert "Ready" in page.locator(".offline-status").inner_text()
    page.keyboard.press("Escape")
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    cold_ms = page.evaluate(NEW_GAME)
    warm_ms = page.evaluate(NEW_GAME)
    context.close()
    return {
        "ready_ms": ready_ms,
        "server_ms": server_ms,
        "cold_ms": cold_ms,
        "warm_ms": warm_ms,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    from scoundrel.pyodide import find_pyodide

    folder = find_pyodide(None, None)
    if folder is None:
        raise SystemExit("no Pyodide (npm ci, or scoundrel pyodide): nothing to measure")
    print(f"Pyodide from {folder}")
    port = free_port()
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        server = start_server(port, Path(tmp) / "bench.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
                )
                sent, kept = download(f"http://127.0.0.1:{port}")
                print(f"offline play downloads {sent:.1f} MB ({kept:.1f} MB once unpacked)")
                for number in range(args.runs):
                    run = one_run(browser, f"http://127.0.0.1:{port}")
                    runs.append(run)
                    print(
                        f"run {number + 1}: ready in {run['ready_ms']:.0f} ms; new game on the "
                        f"server {run['server_ms']:.0f} ms; offline cold {run['cold_ms']:.0f} ms, "
                        f"warm {run['warm_ms']:.0f} ms"
                    )
                browser.close()
        finally:
            server.terminate()
            server.wait(10)
    print("median:", ", ".join(f"{k} {statistics.median(r[k] for r in runs):.1f}" for k in runs[0]))


if __name__ == "__main__":
    main()
