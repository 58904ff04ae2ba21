"""What the family engines share and bots never need: seeded shuffles
(:mod:`~sdk.game.engine.dealing`), the compact event log a state keeps its history in
(:mod:`~sdk.game.engine.eventlog`) and the helpers for views, positions and hands
(:mod:`~sdk.game.engine.support`)."""
