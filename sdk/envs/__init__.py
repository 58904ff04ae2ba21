"""Reinforcement-learning adapters over the Bullring rules (docs/rl.md).

``sdk.envs.encoding`` (numpy only) turns views and options into fixed-size arrays;
``sdk.envs.pettingzoo``, ``sdk.envs.gymnasium`` and ``sdk.envs.openspiel`` need the
optional extra: ``pip install -e '.[rl]'``.
"""
