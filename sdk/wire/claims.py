"""What a bot claims to play (its Hello's ``variants``), and which formats a claim covers.

A claim is written like a variant spec (:func:`sdk.game.parse_variant`):

* a variant name, ``6nimmt``: every format of that variant (any options);
* a variant with options, ``6nimmt:rounds=1``: only that format (the variant with exactly
  these options resolved against its defaults, so ``6nimmt:rounds=1,end=over66`` is the
  same claim).

No claim at all claims every variant in every format. The referee refuses an invalid claim
(an unknown variant, an unknown option or value) with one line naming it: see
:func:`claim_problems`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sdk.game import PRESETS, RulesError, parse_variant
from sdk.game.variants import VariantSpec

__all__ = [
    "Claim",
    "claim_problems",
    "claimed_formats",
    "claims_cover",
    "parse_claim",
    "parse_claims",
]


@dataclass(frozen=True)
class Claim:
    """One parsed claim: its variant, and its one format when it names options."""

    text: str
    preset: str
    only: VariantSpec | None  # None: every format of the variant

    def covers(self, variant: VariantSpec) -> bool:
        """Whether this claim includes `variant` (a resolved variant spec)."""
        if variant.preset.name != self.preset:
            return False
        return self.only is None or dict(self.only.options) == dict(variant.options)

    @property
    def format(self) -> str:
        """What ``bot check`` plays for this claim: the format, or the bare variant."""
        return self.only.id if self.only is not None else self.preset


def parse_claim(text: str) -> Claim:
    """Parse one claim (``6nimmt`` or ``6nimmt:rounds=1``); RulesError if invalid."""
    name, _, tail = text.strip().partition(":")
    if name not in PRESETS:
        raise RulesError(f"unknown variant {name!r}; known variants: {', '.join(PRESETS)}")
    if not tail.strip():
        return Claim(text, name, None)
    return Claim(text, name, parse_variant(text))


def _parsed(text: str) -> Claim | str:
    """The claim `text` parsed, or the line that says why it is invalid."""
    try:
        return parse_claim(text)
    except RulesError as error:
        return f"invalid claim {text!r}: {error}"


def parse_claims(texts: Iterable[str]) -> list[Claim]:
    """Every claim of `texts`, parsed; RulesError naming the first invalid one."""
    claims: list[Claim] = []
    for text in texts:
        claim = _parsed(text)
        if isinstance(claim, str):
            raise RulesError(claim)
        claims.append(claim)
    return claims


def claim_problems(texts: Iterable[str]) -> list[str]:
    """One line per invalid claim of `texts` (empty: all are valid)."""
    return [found for found in map(_parsed, texts) if isinstance(found, str)]


def claims_cover(texts: Sequence[str], variant: str | VariantSpec) -> bool:
    """Whether the claims `texts` (a Hello's ``variants``; empty: everything) include
    `variant` (a variant id with its options, or a resolved spec). Invalid claims cover
    nothing; RulesError if `variant` itself is invalid."""
    if not texts:
        return True
    spec = parse_variant(variant) if isinstance(variant, str) else variant
    claims = map(_parsed, texts)
    return any(isinstance(claim, Claim) and claim.covers(spec) for claim in claims)


def claimed_formats(texts: Sequence[str]) -> list[str]:
    """The formats ``bot check`` plays for the claims `texts`, in order: every claim that
    names one format first, then every claim of a whole variant (no claims: every
    variant); each once. RulesError for an invalid claim."""
    claims = parse_claims(texts)
    exact = [c.format for c in claims if c.only is not None]
    whole = [c.format for c in claims if c.only is None] if claims else list(PRESETS)
    return list(dict.fromkeys([*exact, *whole]))
