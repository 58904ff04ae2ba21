"""Every error Bullring raises on purpose derives from one root, BullringError, and still
from the builtin it derived from before (so `except ValueError` code keeps working)."""

from __future__ import annotations

import pytest

from human_seat.bot import SeatClosed
from leaderboard.build import BuildError
from referee.bots.manifest import ManifestError
from referee.bots.process import BotStartError
from referee.cli.human import HumanSeatError
from referee.decompress import DecompressError
from referee.league.config import LeagueFileError
from referee.league.keyfile import LeagueKeyError
from referee.league.local_pool import PoolError
from referee.league.runner import LeagueError
from referee.league.store import StoreError
from referee.limits import LimitError
from referee.replay.model import ReplayError
from referee.replay.shape import ShapeError
from sdk import BullringError, InvalidChoice, RulesError, new_game
from sdk.runtime import ListenError
from sdk.testing import EngineCheckError
from sdk.wire.codec import CodecError

ERRORS: dict[type[Exception], type[Exception]] = {
    RulesError: ValueError,
    CodecError: ValueError,
    InvalidChoice: ValueError,
    ListenError: RuntimeError,
    EngineCheckError: AssertionError,
    ReplayError: ValueError,
    BotStartError: Exception,
    HumanSeatError: Exception,
    SeatClosed: Exception,
    LeagueFileError: ValueError,
    LeagueKeyError: RuntimeError,
    LeagueError: RuntimeError,
    StoreError: RuntimeError,
    ManifestError: ValueError,
    BuildError: ValueError,
    LimitError: ValueError,
    ShapeError: ValueError,
    DecompressError: ValueError,
    PoolError: RuntimeError,
}


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: e.__name__)
def test_the_error_derives_from_the_root_and_its_old_builtin(error: type[Exception]) -> None:
    assert issubclass(error, BullringError)
    assert issubclass(error, ERRORS[error])


def test_a_rules_error_is_caught_as_a_bullring_error() -> None:
    with pytest.raises(BullringError, match="is for 2 to 4 players, not 9"):
        new_game("xnimmt", 9, 0)
