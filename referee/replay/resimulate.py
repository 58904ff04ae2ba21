"""Re-simulating a replay: every recorded choice through a fresh engine, checked step by
step against what the replay records (pending seats, views, histories, option lists,
table snapshots, the result). Also the decisions grouped as the referee asked them
(:func:`steps`) and the snapshots of a replay recorded before they were stored
(:func:`snapshot_deltas`). The replay is a :class:`referee.replay.model.Replay`, read
and checked once by :meth:`Replay.from_json` (or :func:`referee.replay.files.load`).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.replay.model import EVENTS_VERSION, JsonObject, Replay, ReplayDecision, ReplayError
from referee.replay.record import view_history
from referee.replay.snapshots import Snapshot, SnapshotRecorder, expand, snapshot
from referee.replay.values import (
    history_to_json,
    option_from_json,
    option_to_json,
    option_to_replay,
    view_to_json,
)
from sdk.game import Event, GameState, Option, RulesError, driver, forfeits_ranked_last, new_game


def new_state(replay: Replay) -> GameState:
    """The fresh engine state the replay's match began with (dealt from ``deal_seed``, or
    from ``seed`` in a replay recorded before deal seeds were derived from a key)."""
    return new_game(replay.variant, replay.players, replay.dealt_from, replay.options)


def histories_of(replay: Replay) -> list[list[JsonObject]]:
    """Every seat's final history, with shared entries (see shared_histories) resolved."""
    stored = replay.histories
    out: list[list[JsonObject]] = []
    for h in stored:
        resolved = stored[h] if isinstance(h, int) else h
        if isinstance(resolved, int):
            raise ReplayError("histories: a seat names a seat that names another")
        out.append(resolved)
    return out


def steps(replay: Replay) -> list[list[ReplayDecision]]:
    """The decisions grouped as the referee asked them: one group per engine step.

    A group is the decisions collected together (a simultaneous pick of several seats, or
    one seat's decision); they are applied in seat order once the group is complete.
    """
    return list(driver.recorded_steps(new_state(replay), replay.decisions, recorded_move))


def recorded_move(record: ReplayDecision) -> tuple[int, Option]:
    """The seat and the option a recorded decision applied."""
    return record.seat, option_from_json(record.options[record.choice])


def resimulate(replay: Replay) -> list[int]:
    """Replay every recorded choice through a fresh engine and return the final scores.

    Checks, exactly, that each decision's seat was pending, that its recorded view and
    options are what the engine shows, and that the final scores and ranks match the
    recorded result (forfeited seats ranked last; a replay recorded before that rule may
    rank them by score alone); ReplayError says where it first differs.
    """
    state = new_state(replay)
    histories = histories_of(replay)
    version = replay.version
    decisions = replay.decisions
    seen: list[tuple[Event, ...]] = [() for _ in range(state.players)]
    tables = _stored_snapshots(replay, len(decisions))
    _check_snapshot(tables, 0, state)
    i = 0

    def check_table(record: ReplayDecision) -> None:
        _check_snapshot(tables, record.n + 1, state)

    for group in driver.recorded_steps(state, decisions, recorded_move, check_table):
        pending = state.pending()
        if [d.seat for d in group] != list(pending):
            raise ReplayError(f"decision {i}: pending seats are {list(pending)}")
        for record in group:
            _check_decision(state, record, seen, histories, version)
        i += len(group)
    if not state.is_terminal():
        waiting = list(state.pending())
        raise ReplayError(f"decision {i}: pending seats are {waiting}, the replay has no more")
    if i != len(decisions):
        raise ReplayError(f"the game ended after {i} decisions, the replay has {len(decisions)}")
    for seat in range(state.players):
        if (
            version >= EVENTS_VERSION
            and history_to_json(view_history(state.view(seat)), version) != histories[seat]
        ):
            raise ReplayError(f"the final history of seat {seat} differs")
    scores = state.scores()
    result = replay.final_result()
    if scores != result.scores:
        raise ReplayError(f"re-simulated scores {scores} differ from {result.scores}")
    ranks = forfeits_ranked_last(state.ranks(), result.forfeited)
    # A replay recorded before forfeited seats were ranked last holds the ranks of the
    # scores alone (state.ranks()); it is read as it was recorded.
    if result.ranks not in (ranks, state.ranks()):
        raise ReplayError(f"re-simulated ranks {ranks} differ from {result.ranks}")
    return scores


def _check_decision(
    state: GameState,
    record: ReplayDecision,
    seen: list[tuple[Event, ...]],
    histories: Sequence[Sequence[JsonObject]],
    version: int,
) -> None:
    """ReplayError unless the engine shows the recorded decision's seat what it records."""
    seat = record.seat
    view = state.view(seat)
    history = view_history(view)
    if record.view is not None and view_to_json(view)[0] != record.view:
        raise ReplayError(f"decision {record.n}: the view of seat {seat} differs")
    before = len(seen[seat])
    if not _extends(seen[seat], history) or (
        version >= EVENTS_VERSION
        and (
            len(history) != record.history_len
            or history_to_json(history[before:], version)
            != histories[seat][before : record.history_len]
        )
    ):
        raise ReplayError(f"decision {record.n}: the history of seat {seat} differs")
    seen[seat] = history
    encode = option_to_json if version == 1 else option_to_replay
    if [encode(o) for o in state.legal_options(seat)] != record.options:
        raise ReplayError(f"decision {record.n}: the legal options differ")


def _extends(before: tuple[Event, ...], after: tuple[Event, ...]) -> bool:
    """Whether `after` starts with `before` (histories only grow)."""
    return len(after) >= len(before) and all(
        a is b or a == b for a, b in zip(before, after, strict=False)
    )


def verify(replay: Replay, where: str = "replay") -> list[int]:
    """:func:`resimulate` a replay read from a file: whatever its content (a table
    snapshot of the wrong type, an option number no kind has), a replay that does not
    re-simulate is a ReplayError naming `where`, never another exception."""
    try:
        return resimulate(replay)
    except ReplayError as exc:
        raise ReplayError(f"{where}: {exc}") from None
    except RulesError as exc:
        raise ReplayError(f"{where}: the rules refuse the replay: {exc}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, RecursionError) as exc:
        detail = f"{type(exc).__name__}: {exc}"
        raise ReplayError(
            f"{where}: malformed replay, it does not re-simulate ({detail})"
        ) from None


def _stored_snapshots(replay: Replay, decisions: int) -> list[Snapshot] | None:
    """The replay's full snapshots (None for a replay recorded without them)."""
    deltas = replay.snapshots
    if deltas is None:
        return None
    if len(deltas) != decisions + 1:
        raise ReplayError(f"snapshots: {decisions + 1} expected (the deal and every decision)")
    return expand(deltas)


def _check_snapshot(tables: list[Snapshot] | None, step: int, state: GameState) -> None:
    if tables is not None and tables[step] != snapshot(state):
        where = "the deal" if step == 0 else f"decision {step - 1}"
        raise ReplayError(f"{where}: the recorded table snapshot differs from the engine's")


def snapshot_deltas(replay: Replay) -> list[Snapshot]:
    """The replay's snapshots as stored (see referee/replay/snapshots.py); a replay recorded
    before snapshots existed is re-simulated to make them (slow, but exact)."""
    if replay.snapshots is not None:
        return list(replay.snapshots)
    recorder = SnapshotRecorder()
    state = new_state(replay)
    recorder.record(state)
    recorded = driver.recorded_steps(
        state, replay.decisions, recorded_move, lambda _: recorder.record(state)
    )
    for _ in recorded:  # a step's records are applied when the next step is asked for
        pass
    return recorder.deltas
