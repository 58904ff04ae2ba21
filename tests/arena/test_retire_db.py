"""The arena file's side of retiring (issue 29): a retired upload is never taken for its
check, a check that ends after its retirement records nothing, and retiring again or
retiring a rejected upload changes nothing."""

from __future__ import annotations

from pathlib import Path

from arena.db import RETIRED_BY_AUTHOR, ArenaDb


def test_a_retired_upload_is_never_checked_nor_activated(tmp_path: Path) -> None:
    with ArenaDb(tmp_path / "a.arena") as db:
        db.add_author("alice")
        first = db.add_upload("alice", "bot", "1", "h1", str(tmp_path / "u1" / "bot"))
        second = db.add_upload("alice", "bot", "2", "h2", str(tmp_path / "u2" / "bot"))
        third = db.add_upload("alice", "other", "1", "h3", str(tmp_path / "u3" / "other"))
        taken = db.take_next()
        assert taken is not None and taken.id == first and taken.state == "checking"
        # Retired while it is checked, and the next one while it waits.
        assert db.retire(first).state == "retired"
        retired = db.retire(second)
        assert (retired.state, retired.reason) == ("retired", RETIRED_BY_AUTHOR)
        assert retired.retired_at is not None
        assert db.waiting() == 1  # only `third`
        # The check of the first ends: it records nothing, so it never turns active.
        assert db.finish(taken, "active", None, None) is False
        assert db.uploads_by_id(first).state == "retired"
        # The queue takes the third, never the retired second.
        taken = db.take_next()
        assert taken is not None and taken.id == third
        assert db.take_next() is None
        assert db.requeue_unfinished() == 1  # a restart queues `third` again, not them
        assert [u.state for u in db.uploads()] == ["retired", "retired", "queued"]
        # Idempotent: the same state, reason and time.
        again = db.retire(second)
        assert (again.state, again.reason, again.retired_at) == (
            retired.state,
            retired.reason,
            retired.retired_at,
        )


def test_a_superseded_version_says_by_which_and_a_rejected_one_stays_rejected(
    tmp_path: Path,
) -> None:
    with ArenaDb(tmp_path / "a.arena") as db:
        db.add_author("alice")
        ids = [db.add_upload("alice", "bot", v, v, str(tmp_path / v)) for v in ("1", "2", "3")]
        outcomes = ["active", "active", "rejected"]
        for outcome in outcomes:
            taken = db.take_next()
            assert taken is not None
            assert db.finish(taken, outcome, "broken" if outcome == "rejected" else None, None)
        old, new, bad = (db.uploads_by_id(i) for i in ids)
        assert (old.state, old.reason) == ("retired", "superseded by bot@2")
        assert old.retired_at is not None and new.state == "active"
        assert db.retire(bad.id).state == "rejected"
        assert db.retire(old.id).reason == "superseded by bot@2"  # left as it was
