"""The generic rules interpreter: games whose spec describes their play as data (``rules: {...}``).

See :mod:`cardgen.spec.rules_data` for the vocabulary and
:mod:`cardgen.engine.interpreter.game` (the compiled game) and :mod:`cardgen.engine.interpreter.state` (a position and its turn flow) for how it is played.
"""

from cardgen.engine.interpreter.game import DataGame, DataState

__all__ = ["DataGame", "DataState"]
