"""docs/sdk.md lists every view field of every family, generated from the dataclasses;
the helpers a bot needs are exported from sdk."""

from __future__ import annotations

import dataclasses

import sdk
from sdk import view_docs


def test_docs_list_exactly_the_view_fields() -> None:
    text = view_docs.DOC.read_text(encoding="utf-8")
    assert view_docs.section(text) == view_docs.markdown(), (
        "docs/sdk.md's view fields are stale: run python -m sdk.view_docs --write"
    )
    for cls in view_docs.CLASSES:
        for field in dataclasses.fields(cls):
            assert f"| `{field.name}` |" in text


def test_sdk_exports_card_helpers() -> None:
    assert sdk.nimmt_heads(55) == 7 and sdk.nimmt_heads(1) == 1
    assert "nimmt_heads" in sdk.__all__ and "hornochsen_points" in sdk.__all__
