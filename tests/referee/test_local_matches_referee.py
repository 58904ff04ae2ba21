"""play_local and the referee play a game the same way (both through sdk.game.driver):
with the same seed and the same deterministic bots, choice for choice.

(Bots that draw on MatchInfo.seed_hint are left out here: the referee and play_local do
not derive it the same way yet.)"""

from __future__ import annotations

import pytest

from example_bots.rules_bot.bot import RulesBot
from referee.manifest import load_manifest
from referee.match import run_match
from referee.spec import MatchSpec
from sdk import play_local
from sdk.game import PRESETS
from tests.referee.helpers import REPO, ROOMY_CLOCK, descendants

SHORT = {"6nimmt": {"rounds": "1"}}


@pytest.mark.parametrize("variant", ["6nimmt", "xnimmt", "11nimmt", "hornochsen"])
def test_play_local_reproduces_a_refereed_match(variant: str) -> None:
    options = dict(SHORT.get(PRESETS[variant].family, {}))
    players = max(3, PRESETS[variant].min_players)
    bot = load_manifest(REPO / "example_bots" / "rules_bot")
    spec = MatchSpec("same", variant, options, 5, (bot,) * players, ROOMY_CLOCK)
    refereed = run_match(spec)
    assert refereed.faults == ()
    local = play_local(variant, [RulesBot] * players, 5, options)
    assert [d.index for d in local.decisions] == [d["choice"] for d in refereed.replay["decisions"]]
    assert [d.seat for d in local.decisions] == [d["seat"] for d in refereed.replay["decisions"]]
    assert local.scores == refereed.scores and local.ranks == refereed.ranks
    assert descendants() == []
