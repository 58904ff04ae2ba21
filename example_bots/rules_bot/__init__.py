"""A rule-based bot for every game family (one strategy module per family)."""
