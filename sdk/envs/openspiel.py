"""Every Bullring preset as an OpenSpiel Python game (docs/rl.md).

    import pyspiel
    import sdk.envs.openspiel  # registers the games

    game = pyspiel.load_game("bullring_6nimmt_pro", {"players": 4})

One game per preset: ``bullring_6nimmt``, ``bullring_6nimmt_tactics``,
``bullring_6nimmt_logic``, ``bullring_6nimmt_pro`` (parameter ``rounds``, default 1; 0:
the preset's own end rule), ``bullring_xnimmt``, ``bullring_11nimmt`` and
``bullring_hornochsen``; parameters ``players``, ``deals``, ``options`` (more variant
options, ``;``-separated: ``"end=reach66;rounds=0"``... as ``name=value``) and ``seed``
(of the resampling generator).

* The deal is the first move, a chance node with ``deals`` equally likely outcomes: outcome
  k deals ``sdk.game.new_game(variant, players, seed=k)``.
* Sequential, imperfect information. A simultaneous pick is played as in the PettingZoo
  environment: the pending seats choose one after the other, each on the table as it stood
  when the step began, and the picks are applied when the last has chosen
  (:class:`sdk.envs.stepper.Stepper`), so no seat learns another's face-down pick early.
* Actions are the family's fixed action space (:mod:`sdk.envs.encoding`); returns at the
  end are the negated scores (penalties), or the points in Hornochsen!.
* The observation tensor is the seat's encoded view; the information-state tensor adds the
  seat's own face-down choice of the open step (one-hot over the actions). The strings are
  the view itself (its public history included) and that choice.
* ``resample_from_infostate`` samples the hidden cards consistently with the seat's view
  (``sdk.game.from_view``) and makes the earlier face-down picks of the open step at
  random, which OpenSpiel's information-set MCTS needs.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as missing:  # the rl extra
    raise ImportError(
        "sdk.envs.openspiel needs open_spiel: pip install 'bullring[rl]'"
    ) from missing

from sdk.envs.encoding import FamilyCodec, codec_for
from sdk.envs.stepper import Stepper
from sdk.game.variants import FAMILIES, PRESETS, from_view, new_game, parse_variant
from sdk.game.views import View

__all__ = [
    "DEFAULT_DEALS",
    "GAMES",
    "MAX_GAME_LENGTH",
    "UTILITY_BOUND",
    "BullringGame",
    "BullringObserver",
    "BullringState",
    "PlayoutEvaluator",
    "root_state",
    "short_name",
    "view_string",
]

DEFAULT_DEALS = 1000
MAX_GAME_LENGTH = 10_000
UTILITY_BOUND = 1000.0


def short_name(preset: str) -> str:
    """The OpenSpiel name of a preset: ``6nimmt-pro`` -> ``bullring_6nimmt_pro``."""
    return "bullring_" + preset.replace("-", "_")


def _game_type(preset: str) -> Any:
    info = PRESETS[preset]
    parameters: dict[str, Any] = {
        "players": info.min_players + 1,
        "deals": DEFAULT_DEALS,
        "options": "",
        "seed": 0,
    }
    if info.family == "6nimmt":
        parameters["rounds"] = 1
    return pyspiel.GameType(
        short_name=short_name(preset),
        long_name=f"Bullring {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class BullringGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """One preset as an OpenSpiel game (see the module docstring)."""

    preset = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_type = _game_type(self.preset)
        defaults = game_type.parameter_specification
        self.players = int(params.get("players", defaults["players"]))
        self.deals = int(params.get("deals", defaults["deals"]))
        given = dict(
            item.split("=", 1) for item in str(params.get("options", "")).split(";") if item
        )
        if "rounds" in defaults and "rounds" not in given:
            rounds = int(params.get("rounds", defaults["rounds"]))
            if rounds:
                given["rounds"] = str(rounds)
        self.variant = parse_variant(self.preset, given).id
        self.codec: FamilyCodec = codec_for(self.variant)
        self.resampling = random.Random(int(params.get("seed", 0)))
        sign = self.codec.sign()
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.action_size,
            max_chance_outcomes=self.deals,
            num_players=self.players,
            min_utility=-UTILITY_BOUND,
            max_utility=0.0 if sign < 0 else UTILITY_BOUND,
            utility_sum=None,
            max_game_length=MAX_GAME_LENGTH,
        )
        full = {k: params.get(k, v) for k, v in defaults.items()}
        super().__init__(game_type, game_info, full)

    def new_initial_state(self) -> BullringState:
        return BullringState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BullringObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return BullringObserver(self.codec, perfect_recall)


class _Shared:
    """Holds the game for its states: OpenSpiel deep-copies a Python state's attributes to
    clone it, and the game is shared, not copied."""

    def __init__(self, game: BullringGame) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Game:
    """Holds a state's Stepper: a deep copy is the engine's own clone (fast)."""

    def __init__(self, stepper: Stepper | None) -> None:
        self.stepper = stepper

    def __deepcopy__(self, memo: dict[int, Any]) -> _Game:
        return _Game(None if self.stepper is None else self.stepper.clone())


class BullringState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """A game in progress: None before the deal, then a Stepper over the engine."""

    def __init__(self, game: BullringGame, stepper: Stepper | None = None) -> None:
        super().__init__(game)
        self._shared = _Shared(game)
        self._game_box = _Game(stepper)

    @property
    def bullring(self) -> BullringGame:
        return self._shared.game

    @property
    def stepper(self) -> Stepper | None:
        return self._game_box.stepper

    @stepper.setter
    def stepper(self, stepper: Stepper | None) -> None:
        self._game_box.stepper = stepper

    def clone(self) -> BullringState:
        return BullringState(self.bullring, None if self.stepper is None else self.stepper.clone())

    def current_player(self) -> int:
        if self.stepper is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.stepper.done:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.stepper.seat

    def _legal_actions(self, player: int) -> list[int]:
        if self.stepper is None or self.stepper.done or player != self.stepper.seat:
            return []
        return sorted(self.bullring.codec.actions(self.stepper.options()))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.bullring.deals
        return [(k, p) for k in range(self.bullring.deals)]

    def _apply_action(self, action: int) -> None:
        if self.stepper is None:
            game = self.bullring
            self.stepper = Stepper(new_game(game.variant, game.players, int(action)))
            return
        index = self.bullring.codec.index_of(int(action), self.stepper.options())
        if index is None:
            raise pyspiel.SpielError(f"action {action} is not legal here")
        self.stepper.choose(index)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return self.bullring.codec.decode(int(action)).describe()

    def is_terminal(self) -> bool:
        return self.stepper is not None and self.stepper.done

    def returns(self) -> list[float]:
        if self.stepper is None or not self.stepper.done:
            return [0.0] * self.bullring.players
        sign = self.bullring.codec.sign()
        return [float(sign * s) for s in self.stepper.state.scores()]

    def own_choice(self, player: int) -> int | None:
        """`player`'s face-down choice in the open step (an action), if it made one."""
        if self.stepper is None:
            return None
        for seat, option in zip(self.stepper.step, self.stepper.choices, strict=False):
            if seat == player:
                return self.bullring.codec.action(option)
        return None

    def seat_view(self, player: int) -> View | None:
        return None if self.stepper is None else self.stepper.view(player)

    def resample_from_infostate(self, player: int, sampler: Any = None) -> BullringState:
        """A state `player` cannot tell from this one: the hidden cards sampled from its
        view (at the open step's start), earlier face-down picks of the step at random."""
        if self.stepper is None or self.stepper.done:
            return BullringState(
                self.bullring, None if self.stepper is None else self.stepper.clone()
            )
        rng = self.bullring.resampling
        view = self.stepper.view(player)
        stepper = Stepper(from_view(view, rng))
        while (
            not stepper.done
            and stepper.seat != player
            and len(stepper.choices) < len(self.stepper.choices)
        ):
            stepper.choose(rng.randrange(len(stepper.options())))
        return BullringState(self.bullring, stepper)

    def __str__(self) -> str:
        if self.stepper is None:
            return "(not dealt)"
        return repr(self.stepper.state.view(-1))


def root_state(game: BullringGame, view: View, rng: random.Random) -> BullringState:
    """A state of `game` where the view's seat is to move and sees `view`: the hidden cards
    sampled (``from_view``), earlier face-down picks of the step made at random. The root
    of a search by a bot that is sent `view`."""
    stepper = Stepper(from_view(view, rng))
    seat = view.header.seat
    while not stepper.done and stepper.seat != seat:
        stepper.choose(rng.randrange(len(stepper.options())))
    return BullringState(game, stepper)


class PlayoutEvaluator:
    """An evaluator for OpenSpiel's MCTS and IS-MCTS: the engine's own fast random playout
    (``GameState.playout``) to the end of the game; uniform priors."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def evaluate(self, state: BullringState) -> Any:
        stepper = state.stepper
        if stepper is None or stepper.done:
            return np.array(state.returns())
        game = stepper.clone()
        while game.choices:  # finish the open step at random
            game.choose(self.rng.randrange(len(game.options())))
        scores = game.state.playout(self.rng)
        return state.bullring.codec.sign() * np.array(scores, np.float64)

    def prior(self, state: BullringState) -> list[tuple[int, float]]:
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]


def view_string(view: View | None) -> str:
    """A view as a string that depends on its contents only."""
    if view is None:
        return "(not dealt)"
    header = dataclasses.replace(
        view.header,
        options=dict(sorted(view.header.options.items())),
        history=tuple(view.header.history),
    )
    return repr(dataclasses.replace(view, header=header))


class BullringObserver:
    """OpenSpiel's Python observer: the encoded view (plus, for the information state, the
    seat's own face-down choice of the open step)."""

    def __init__(self, codec: FamilyCodec, perfect_recall: bool) -> None:
        self.codec = codec
        self.perfect_recall = perfect_recall
        size = codec.size + (codec.action_size if perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[: codec.size]}
        if perfect_recall:
            self.dict["own_choice"] = self.tensor[codec.size :]

    def set_from(self, state: BullringState, player: int) -> None:
        self.tensor.fill(0)
        view = state.seat_view(player)
        if view is None:
            return
        self.tensor[: self.codec.size] = self.codec.encode(view)
        choice = state.own_choice(player)
        if self.perfect_recall and choice is not None:
            self.tensor[self.codec.size + choice] = 1

    def string_from(self, state: BullringState, player: int) -> str:
        text = f"seat {player}: {view_string(state.seat_view(player))}"
        choice = state.own_choice(player)
        if self.perfect_recall and choice is not None:
            text += f"; chose {self.codec.decode(choice).describe()}"
        return text


def _register() -> dict[str, type[BullringGame]]:
    games: dict[str, type[BullringGame]] = {}
    registered = set(pyspiel.registered_names())
    for family in FAMILIES.values():
        for preset in family.presets:
            cls = type(f"BullringGame_{preset.name}", (BullringGame,), {"preset": preset.name})
            name = short_name(preset.name)
            if name not in registered:
                pyspiel.register_game(_game_type(preset.name), cls)
            games[name] = cls
    return games


GAMES = _register()
"""The game class of each registered short name."""
