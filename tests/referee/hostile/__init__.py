"""Hostile bots, each a real process started from its manifest by the real referee in the
sandbox, and the tests that show each one contained (test_containment.py)."""
