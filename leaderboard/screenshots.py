"""Screenshots of a built site in headless Chromium, at desktop and phone widths: the
index, a standings page, a bot page and one replay of every game family (at a decision
half way through the match).

    .venv/bin/python -m leaderboard.screenshots SITE_DIR OUT_DIR [--chromium PATH]

Needs Playwright (a dev dependency) and a Chromium (Debian's by default).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from leaderboard import paths

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
CHROMIUM = Path("/usr/bin/chromium")
_FAMILY = re.compile(rb'data-family="([^"]+)"')
_DECISIONS = re.compile(rb"(\d+) decisions")


def pages_to_shoot(site: Path) -> list[tuple[str, str]]:
    """(name, site-relative address) of every page to shoot."""
    league = json.loads((site / "league.json").read_text(encoding="utf-8"))
    shots = [("index", "index.html")]
    if league["variants"]:
        shots.append(("standings", league["variants"][0]["page"]))
    bots = sorted((site / paths.BOTS_DIR).glob("*.html"))
    if bots:
        shots.append(("bot", f"{paths.BOTS_DIR}/{bots[0].name}"))
    seen: set[str] = set()
    for page in sorted((site / paths.MATCHES_DIR).glob("*.html")):
        head = page.read_bytes()[:4000]
        found = _FAMILY.search(head)
        if not found or found.group(1).decode() in seen:
            continue
        family = found.group(1).decode()
        seen.add(family)
        decisions = _DECISIONS.search(head)
        middle = int(decisions.group(1)) // 2 if decisions else 0
        shots.append((f"replay-{family}", f"{paths.MATCHES_DIR}/{page.name}#d={middle}"))
    return shots


def shoot(site: Path, out: Path, chromium: Path = CHROMIUM) -> list[Path]:
    """Write the screenshots into `out`; their paths."""
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    made: list[Path] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(chromium), args=["--headless", "--no-sandbox", "--disable-gpu"]
        )
        try:
            for width_name, (width, height) in WIDTHS.items():
                context: Any = browser.new_context(
                    viewport={"width": width, "height": height},
                    device_scale_factor=1,
                    is_mobile=width_name == "phone",
                    has_touch=width_name == "phone",
                )
                page = context.new_page()
                for name, address in pages_to_shoot(site):
                    page.goto((site / address.split("#")[0]).as_uri() + _fragment(address))
                    if page.locator("#replay").count():
                        page.wait_for_selector("#replay[data-perspective]")
                    target = out / f"{name}-{width_name}.png"
                    page.screenshot(path=str(target), full_page=True)
                    made.append(target)
                context.close()
        finally:
            browser.close()
    return made


def _fragment(address: str) -> str:
    _, hash_mark, fragment = address.partition("#")
    return f"#{fragment}" if hash_mark else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a built site (bullring leaderboard build)")
    parser.add_argument("out", type=Path, help="folder for the PNG files")
    parser.add_argument("--chromium", type=Path, default=CHROMIUM)
    args = parser.parse_args(argv)
    if not (args.site / "league.json").is_file():
        print(f"{args.site}: not a built site (no league.json)", file=sys.stderr)
        return 2
    if not args.chromium.exists():
        print(f"{args.chromium}: no Chromium there (--chromium PATH)", file=sys.stderr)
        return 2
    for path in shoot(args.site.resolve(), args.out.resolve(), args.chromium):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
