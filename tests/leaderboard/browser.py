"""One headless Chromium per test module, and pages that record every error."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.leaderboard.conftest import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser


@dataclass
class Problems:
    """Console errors, page errors, failed requests and HTTP error responses."""

    items: list[str] = field(default_factory=list)

    def watch(self, page: Any) -> None:
        page.on(
            "console",
            lambda m: (
                self.items.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "warning")
                else None
            ),
        )
        page.on("pageerror", lambda e: self.items.append(f"page error: {e}"))
        page.on("requestfailed", lambda r: self.items.append(f"failed: {r.url} {r.failure}"))
        page.on(
            "response",
            lambda r: self.items.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None,
        )


def launch() -> Iterator[Any]:
    """A Chromium browser for one module (skipped only when chromium is not installed)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (CI installs it: apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
