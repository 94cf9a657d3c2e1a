"""The compiled form of a rules-data option, and what the interpreter's game and state share.

Where a turn goes after an option (:data:`END`, :data:`AGAIN`, :data:`NEXT`, or a step's index), who decides
a step (:data:`BY_TURN`, :data:`BY_TARGET`, :data:`BY_OTHERS`), and the option's flat record
(:class:`CompiledOption`), with the two ways a condition is worked out before play.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from cardgen.engine.interpreter.compile import ExprFunction, fixed_per_design
from cardgen.engine.interpreter.effects import EffectFunction
from cardgen.engine.mechanics import ActFunction, ActionsFunction, Mechanic

END, AGAIN, NEXT = -1, -2, -3
BY_TURN, BY_TARGET, BY_OTHERS = 0, 1, 2
"""Who decides a step: the seat whose turn it is, the seat aimed at this turn, or each other seat in turn."""
DEFAULT_LENGTH_BOUND = 10_000
"""Actions a game without a turn limit may take before the checks call it endless (CG504)."""



@dataclass(frozen=True, slots=True)
class CompiledOption:
    index: int
    key: str
    """``step.option``, for usage counts and action names."""
    name: str
    card_from: int
    card_from_seat: bool
    card_to: int
    card_to_seat: bool
    where: ExprFunction | None
    card_effects: bool
    when: ExprFunction | None
    otherwise: bool
    do: tuple[EffectFunction, ...]
    then: int
    passes: bool | ExprFunction | None
    """Whether taking the option counts as a pass: a constant, an expression read as it is taken, or None
    (``passes: keep``: the run of passes stays as it is)."""
    chooses_card: bool
    trick: bool = False
    """Whether the card chosen is played to the trick (its zone is ``tricks.zone``)."""
    target: ExprFunction | None = None
    """An option aimed at a seat: which seats (``target`` bound to each in turn) it may aim at."""
    mechanic: tuple[Mechanic, str, ActionsFunction, ActFunction] | None = None
    """An option whose choices are a named mechanic's action: the mechanic, the action's name, its offer and its act."""
    from_target: bool = False
    """Whether the card is chosen from the aimed-at seat's zone (``card.whose: target``), not the deciding seat's."""
    to_target: bool = False
    """The chosen card goes to the aimed seat's zone (``to_whose: target``), not the deciding seat's."""
    fixed: tuple[bool | None, ...] = ()
    """Per design, the card condition worked out once where it reads nothing of the position (None: read it in play)."""
    all_fixed: bool = False
    """Whether the card condition is known for every design before play (``fixed`` holds no None)."""
    aimed_seats: Callable[[Any, int], list[int]] | None = None
    """An option aimed at a seat: ``target``'s condition tried for every seat in one call, the seats it holds for."""
    when_terms: tuple[str, ...] = ()
    """The code of ``when`` (over ``s``, ``S``, ``c``) read for its truth, as terms joined by ``and``, for a step's
    listing written as one function (options in a row whose conditions begin alike read that term once)."""
    where_code: str | None = None
    """The code of the card condition (over ``s``, ``S``, ``c``, ``target`` bound), likewise."""
    pile_codes: tuple[str, ...] | None = None
    """An option choosing a pile of a row (its choices carried as a mechanic's are): per pile, the code of its
    condition with the pile's place known, likewise."""


def _never(when: ExprFunction | None) -> bool:
    """Whether a condition is false whatever the position: it reads nothing of a state (rule options, numbers and
    the player count are folded in when the game is made) and gives false for every seat tried."""
    if when is None:
        return False
    try:
        return not any(when(None, seat, 0) for seat in (0, 1))
    except (AttributeError, TypeError):  # it reads the position
        return False


_fixed_per_design = fixed_per_design
"""Per design, a card condition worked out before play where it reads nothing of the position (kept here under its old name)."""
