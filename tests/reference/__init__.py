"""Reference implementations: hand-written engines of games that cardgen plays from rules data.

Each is written from the game's rulebook and clarifications alone, independently of the
interpreter, and a lockstep test plays both side by side (tests/engine/test_lockstep_*.py).
"""
