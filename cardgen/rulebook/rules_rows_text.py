"""The rulebook's sentences for rows of piles, setup loops and zones shuffled back (:mod:`cardgen.spec.rules_rows`).

Kept apart from :mod:`cardgen.rulebook.rules_summary` and :mod:`cardgen.rulebook.rules_words`, which call
:func:`pile_term`, :func:`pile_clause`, :func:`pile_move` and the setup phrases here.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from cardgen.rulebook.i18n import NC_, N_
from cardgen.rulebook.rules_phrases import _gendered
from cardgen.spec.rules_data import MoveSpec
from cardgen.spec.rules_expr import ExpressionError, parse_expression
from cardgen.spec.rules_data import RepeatStep
from cardgen.spec.rules_rows import ShuffleBackStep

if TYPE_CHECKING:
    from cardgen.rulebook.rules_summary import RulesSummary
    from cardgen.rulebook.rules_words import ExpressionText

PILE_FIELD = _gendered(
    N_("the %(name)s of the pile's card"),
    NC_("masculine", "the %(name)s of the pile's card"),
    NC_("feminine", "the %(name)s of the pile's card"),
    NC_("masculine plural", "the %(name)s of the pile's card"),
    NC_("feminine plural", "the %(name)s of the pile's card"),
)
PILE_COUNT = N_("the number of cards in the pile")
PILE_EMPTY = N_("the pile is empty")
PILE_NOT_EMPTY = N_("the pile is not empty")
PILES_WHERE = N_("the number of piles of %(row)s for which %(condition)s")
REPEAT = N_("Repeat until %(condition)s: %(effects)s")
SHUFFLE_BACK = N_("Put the cards of %(source)s onto %(target)s and shuffle %(target)s.")
MOVE_BENEATH_PILE = N_("Move %(cards)s of %(source)s, one at a time, beneath %(pile)s; a card no pile takes stays where it is, and the move stops.")
MOVE_ONTO_PILE = N_("Move %(cards)s of %(source)s, one at a time, onto %(pile)s; a card no pile takes stays where it is, and the move stops.")
MOVE_BENEATH = N_("Move %(cards)s of %(source)s beneath the cards of %(target)s.")
PILE_FEWEST = N_("the pile of %(row)s holding the fewest cards (the leftmost on a tie)")
PILE_FEWEST_WHERE = N_("the pile of %(row)s holding the fewest cards (the leftmost on a tie) among those for which %(condition)s")
PILE_FIRST = N_("the leftmost pile of %(row)s")
PILE_FIRST_WHERE = N_("the leftmost pile of %(row)s for which %(condition)s")


def pile_term(text: "ExpressionText", node: ast.expr) -> str | None:
    """``pile.FIELD``, ``count(ROW)`` (the pile in question's) and ``piles(ROW, CONDITION)`` as a noun phrase, else None."""
    b = text.book
    rows = b.names.rows
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "pile":
        named = b.field(node.attr)
        return b.say_gendered(named.gender, PILE_FIELD, name=named.name)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in rows:
        if node.func.id == "count":
            return b.say(PILE_COUNT)
        if node.func.id == "piles" and len(node.args) == 2:
            return b.say(PILES_WHERE, row=b.zone_phrase(node.args[0].id, "table"), condition=text.clause(node.args[1]))
    return None


def pile_clause(text: "ExpressionText", zone_id: str, empty: bool, negated: bool) -> str | None:
    """``count(ROW) == 0`` (or its opposite) of the pile in question as a clause, else None."""
    if zone_id not in text.book.names.rows:
        return None
    return text.book.say(PILE_NOT_EMPTY if empty == negated else PILE_EMPTY)


def pile_move(summary: "RulesSummary", move: MoveSpec, cards: str) -> str | None:
    """A move into a row of piles, or beneath a zone's cards, as a sentence (None: a plain move)."""
    b = summary.book
    if move.to in b.names.rows:
        choice = move.pile
        where = choice.where if choice is not None else None
        condition = None
        if where is not None:
            from cardgen.rulebook.rules_words import ExpressionText

            try:
                tree = parse_expression(where, b.names, card=True, target=True, pile=move.to)[0]
                condition = ExpressionText(b).clause(tree)
            except ExpressionError:
                condition = where
        row = b.zone_phrase(move.to, "table")
        first = choice is not None and choice.pick == "first"
        if condition is None:
            pile = b.say(PILE_FIRST if first else PILE_FEWEST, row=row)
        else:
            pile = b.say(PILE_FIRST_WHERE if first else PILE_FEWEST_WHERE, row=row, condition=condition)
        message = MOVE_BENEATH_PILE if move.place == "bottom" else MOVE_ONTO_PILE
        return b.say(message, cards=cards, source=b.zone_phrase(move.from_, move.who), pile=pile)
    if move.place == "bottom":
        return b.say(MOVE_BENEATH, cards=cards, source=b.zone_phrase(move.from_, move.who), target=b.zone_phrase(move.to, move.who))
    return None


def setup_repeat(summary: "RulesSummary", step: RepeatStep) -> str:
    """A setup loop: its condition, then each effect of a round."""
    from cardgen.rulebook.rules_words import ExpressionText

    b = summary.book
    effects = " ".join(summary.effect(effect, card=False) for effect in step.repeat.do)
    return b.say(REPEAT, condition=ExpressionText(b).condition(step.repeat.until), effects=effects)


def setup_shuffle_back(summary: "RulesSummary", step: ShuffleBackStep) -> str:
    """A zone's cards put onto another, which is then shuffled."""
    b = summary.book
    return b.say(SHUFFLE_BACK, source=b.zone_phrase(step.shuffle_back.from_, "table"), target=b.zone_phrase(step.shuffle_back.to, "table"))
