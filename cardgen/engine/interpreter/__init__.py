"""The generic rules interpreter: games whose spec describes their play as data (``rules: {...}``).

See :mod:`cardgen.spec.rules_data` for the vocabulary and
:mod:`cardgen.engine.interpreter.game` for how it is played.
"""

from cardgen.engine.interpreter.game import DataGame, DataState

__all__ = ["DataGame", "DataState"]
