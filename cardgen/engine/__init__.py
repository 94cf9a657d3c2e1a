"""The rules engine: the Game/State API, playouts, agents, checks and solvers.

Modules:

* :mod:`cardgen.engine.core`: the Game/State API, the rules and solver registries;
* :mod:`cardgen.engine.playout`: ``play_game`` plays one game into a ``PlayoutResult``;
* :mod:`cardgen.engine.agents`: random, greedy and UCT agents and their registry;
* :mod:`cardgen.engine.replay`: JSON-lines replay logs, written, read and played back;
* :mod:`cardgen.engine.balance`: Wilson intervals and Ludii-style balance metrics;
* :mod:`cardgen.engine.parallel`: running playouts inline or in spawn worker processes;
* :mod:`cardgen.engine.checks`: ``run_checks`` / ``quick_checks`` and the CG5xx codes;
* :mod:`cardgen.engine.quick`: registers the quick simulation with ``cardgen validate``;
* :mod:`cardgen.engine.harness`: the conformance harness for rules modules.
"""
