"""Mausoleum Guardians: the card widgets, layouts and rulebook figures of a game written as rules data.

The game is played by the generic interpreter from the ``rules:`` mapping of
``specs/mausoleum-guardians/game.yaml``; the engine it shipped with is kept as the
reference in ``tests/reference/mausoleum_guardians.py``, and the two agree move for
move (``tests/engine/test_lockstep_mausoleum_guardians.py``). The widgets and
layouts register themselves from ``widgets.py``, the figures from ``figures.py``,
when the generic layers import the game packages' parts.
"""
