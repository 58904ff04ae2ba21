"""The sandbox every bot process runs in: bubblewrap, a uid and a cgroup of its own.

Layers, top first: :mod:`~referee.sandbox.probe` (does the sandbox work here?) >
:mod:`~referee.sandbox.box` (one bot's sandbox: its bubblewrap command line) >
:mod:`~referee.sandbox.bubblewrap` > :mod:`~referee.sandbox.folders` >
:mod:`~referee.sandbox.config` > :mod:`~referee.sandbox.cgroups`.
:mod:`~referee.sandbox.launch` is a script of its own, run inside the sandbox.
"""
