"""Draw the app's icons (PNG, for the web app manifest) from ``icons/icon.svg`` with
Debian's Chromium; run it after changing the SVG:

    .venv/bin/python tools/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

FOLDER = Path(__file__).resolve().parents[1] / "src" / "scoundrel" / "web" / "static" / "icons"
#: name, size in pixels, and the margin a maskable icon keeps for the phone's mask
ICONS = (("icon-192.png", 192, 0), ("icon-512.png", 512, 0), ("icon-maskable-512.png", 512, 64))


def main() -> None:
    svg = (FOLDER / "icon.svg").read_text("utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox"]
        )
        for name, size, margin in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            inner = size - 2 * margin * size // 512
            drawn = svg.replace("<svg ", f'<svg width="{inner}" height="{inner}" ', 1)
            page.set_content(
                '<body style="margin:0;background:#1b1d22;display:grid;'
                f'place-items:center;height:{size}px">{drawn}</body>'
            )
            page.screenshot(path=str(FOLDER / name))
        browser.close()


if __name__ == "__main__":
    main()
