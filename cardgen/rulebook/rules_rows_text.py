"""The rulebook's sentences for rows of piles, setup loops and zones shuffled back (:mod:`cardgen.spec.rules_rows`).

Kept apart from :mod:`cardgen.rulebook.rules_summary` and :mod:`cardgen.rulebook.rules_words`, which call
:func:`pile_term`, :func:`pile_clause`, :func:`pile_move` and the setup phrases here.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Callable

from cardgen.rulebook.i18n import NC_, N_
from cardgen.rulebook.rules_phrases import _gendered
from cardgen.spec.rules_data import AddSpec, ArrangeSpec, MoveSpec, Option, RepeatStep
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
PILES_SOME = N_("there is a pile of %(row)s for which %(condition)s")
PILES_NONE = N_("there is no pile of %(row)s for which %(condition)s")
REPEAT = N_("Repeat until %(condition)s: %(effects)s")
SHUFFLE_BACK = N_("Put the cards of %(source)s onto %(target)s and shuffle %(target)s.")
MOVE_BENEATH_PILE = N_("Move %(cards)s of %(source)s, one at a time, beneath %(pile)s; a card no pile takes stays where it is, and the move stops.")
MOVE_ONTO_PILE = N_("Move %(cards)s of %(source)s, one at a time, onto %(pile)s; a card no pile takes stays where it is, and the move stops.")
MOVE_ONE_BENEATH_PILE = N_("Move %(cards)s of %(source)s beneath %(pile)s; if no pile takes it, it stays where it is.")
MOVE_ONE_ONTO_PILE = N_("Move %(cards)s of %(source)s onto %(pile)s; if no pile takes it, it stays where it is.")
"""A move of one card into a row: nothing to say about an order or a move that stops."""
MOVE_BENEATH = N_("Move %(cards)s of %(source)s beneath the cards of %(target)s.")
PILE_FEWEST = N_("the pile of %(row)s holding the fewest cards (the leftmost on a tie)")
PILE_FEWEST_WHERE = N_("the pile of %(row)s holding the fewest cards (the leftmost on a tie) among those for which %(condition)s")
PILE_FIRST = N_("the leftmost pile of %(row)s")
PILE_FIRST_WHERE = N_("the leftmost pile of %(row)s for which %(condition)s")
PILE_OF = N_("the pile of %(row)s")
PILE_OF_EMPTY = N_("the pile of %(row)s is empty")
PILE_OF_NOT_EMPTY = N_("the pile of %(row)s is not empty")
PILES_EVERY = N_("every pile of %(row)s")
PILE_SAME_PLACE = N_("the pile of %(row)s in the same place")
PILE_OPTION = N_("Choose a pile of %(row)s; %(variable)s becomes the card it lies under.")
PILE_OPTION_WHERE = N_("Choose a pile of %(row)s for which %(condition)s; %(variable)s becomes the card it lies under.")
ROW_CARD = N_("The card is taken from the leftmost pile that holds one, the copy nearest its top.")
PILE_COUNTER_RAISE = N_("Raise %(counter)s of %(pile)s by %(amount)s.")
PILE_COUNTER_CLEAR = N_("Set %(counter)s of every pile of %(row)s back to 0.")
COMPONENT_COUNT = N_("the number of %(component)s pieces each player owns")
COMPONENT_COUNT_SHARED = N_("the number of %(component)s pieces")


def row_name(summary_or_book: object, row: str) -> str:
    """A row of piles by its own name (not "the pile of ..."), e.g. "the stacks"."""
    b = getattr(summary_or_book, "book", summary_or_book)
    return str(b.owned(b.zone(row), "table"))  # type: ignore[attr-defined]


def in_pile(book: object, zone_id: str) -> str | None:
    """Inside a pile condition, a row of piles read as the pile in question's: "the pile of the stacks" (else None)."""
    if getattr(book, "pile_context", False) and zone_id in book.names.rows:  # type: ignore[attr-defined]
        return str(book.say(PILE_OF, row=row_name(book, zone_id)))  # type: ignore[attr-defined]
    return None


def _with_pile(book: object, render: "Callable[[], str]") -> str:
    """``render()`` with the rows of piles read as the pile in question's."""
    before = getattr(book, "pile_context", False)
    setattr(book, "pile_context", True)
    try:
        return render()
    finally:
        setattr(book, "pile_context", before)


def _pile_condition(summary: "RulesSummary", source: str, row: str, *, card: bool) -> str:
    from cardgen.rulebook.rules_words import ExpressionText

    b = summary.book
    tree = ExpressionText(b).tree(source, card, pile=row)  # the chosen rule options folded in, as everywhere
    if tree is None:
        return source
    return _with_pile(b, lambda: ExpressionText(b).clause(tree))


def pile_term(text: "ExpressionText", node: ast.expr) -> str | None:
    """``pile.FIELD``, ``count(ROW)`` (the pile in question's), ``piles(ROW, CONDITION)`` and ``component.ID.count`` as a noun phrase, else None."""
    b = text.book
    rows = b.names.rows
    if (
        isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and isinstance(node.value.value, ast.Name)
        and node.value.value.id == "component"
    ):
        component = next((c for c in b.spec.components if c.id == node.value.attr), None)
        if component is not None:
            name = b.local(component.name, component.id)
            return b.say(COMPONENT_COUNT if component.per_player else COMPONENT_COUNT_SHARED, component=name)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "pile":
        named = b.field(node.attr)
        return b.say_gendered(named.gender, PILE_FIELD, name=named.name)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args and isinstance(node.args[0], ast.Name) and node.args[0].id in rows:
        if node.func.id == "count" and node.args[0].id != getattr(b, "pile_row", None):
            return None  # another row under the same deck: "the number of cards in the pile of the marked cards"
        if node.func.id == "count":
            return b.say(PILE_COUNT)
        if node.func.id == "piles" and len(node.args) == 2:
            return b.say(PILES_WHERE, row=row_name(b, node.args[0].id), condition=_piles_condition(text, node))
    return None


def _piles_condition(text: "ExpressionText", node: ast.Call) -> str:
    """The condition of ``piles(ROW, CONDITION)`` in words, the row read as the pile in question's."""
    b = text.book
    condition = node.args[1]
    assert isinstance(node.args[0], ast.Name)
    before = getattr(b, "pile_row", None)
    setattr(b, "pile_row", node.args[0].id)
    try:
        return _with_pile(b, lambda: text.clause(condition))
    finally:
        setattr(b, "pile_row", before)


def piles_exist(text: "ExpressionText", node: ast.expr, some: bool) -> str | None:
    """``piles(ROW, CONDITION)`` compared with 0 as a clause: "there is (no) pile of ROW for which ...", else None."""
    b = text.book
    if not (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "piles" and len(node.args) == 2
        and isinstance(node.args[0], ast.Name) and node.args[0].id in b.names.rows
    ):
        return None
    return str(b.say(PILES_SOME if some else PILES_NONE, row=row_name(b, node.args[0].id), condition=_piles_condition(text, node)))


def pile_clause(text: "ExpressionText", zone_id: str, empty: bool, negated: bool) -> str | None:
    """``count(ROW) == 0`` (or its opposite) of the pile in question as a clause, else None (another row under the same deck is
    said as "the pile of ROW is empty")."""
    b = text.book
    if zone_id not in b.names.rows:
        return None
    if zone_id == getattr(b, "pile_row", None):
        return b.say(PILE_NOT_EMPTY if empty == negated else PILE_EMPTY)
    return b.say(PILE_OF_NOT_EMPTY if empty == negated else PILE_OF_EMPTY, row=row_name(b, zone_id))


def pile_move(summary: "RulesSummary", move: MoveSpec, cards: str) -> str | None:
    """A move into a row of piles, or beneath a zone's cards, as a sentence (None: a plain move)."""
    b = summary.book
    if move.from_ in b.names.rows:
        return _out_of_pile(summary, move, cards)
    if move.to in b.names.rows:
        choice = move.pile
        where = choice.where if choice is not None else None
        condition = _pile_condition(summary, where, move.to, card=True) if where is not None else None
        row = row_name(b, move.to)
        first = choice is not None and choice.pick == "first"
        if condition is None:
            pile = b.say(PILE_FIRST if first else PILE_FEWEST, row=row)
        else:
            pile = b.say(PILE_FIRST_WHERE if first else PILE_FEWEST_WHERE, row=row, condition=condition)
        if move.count in (1, "1"):
            message = MOVE_ONE_BENEATH_PILE if move.place == "bottom" else MOVE_ONE_ONTO_PILE
        else:
            message = MOVE_BENEATH_PILE if move.place == "bottom" else MOVE_ONTO_PILE
        return b.say(message, cards=cards, source=b.zone_phrase(move.from_, move.who), pile=pile)
    if move.place == "bottom":
        return b.say(MOVE_BENEATH, cards=cards, source=b.zone_phrase(move.from_, move.who), target=b.zone_phrase(move.to, move.who))
    return None


def _chosen_pile(summary: "RulesSummary", row: str, choice: object, *, card: bool) -> str:
    """The pile a choice picks, in words: the leftmost (or fewest-cards) pile of the row for which its condition holds."""
    b = summary.book
    where = getattr(choice, "where", None)
    first = getattr(choice, "pick", "first") == "first"
    if where is None:
        return str(b.say(PILE_FIRST if first else PILE_FEWEST, row=row_name(b, row)))
    condition = _pile_condition(summary, where, row, card=card)
    return str(b.say(PILE_FIRST_WHERE if first else PILE_FEWEST_WHERE, row=row_name(b, row), condition=condition))


def _out_of_pile(summary: "RulesSummary", move: MoveSpec, cards: str) -> str:
    """A move out of a row of piles: from the pile its choice picks (or every pile), to a zone or the pile in the same place."""
    from cardgen.rulebook.rules_phrases import MOVE, MOVE_WHERE
    from cardgen.rulebook.rules_words import ExpressionText

    b = summary.book
    source = _chosen_pile(summary, move.from_, move.pile, card=True) if move.pile is not None else b.say(PILES_EVERY, row=row_name(b, move.from_))
    target = b.say(PILE_SAME_PLACE, row=row_name(b, move.to)) if move.to in b.names.rows else b.zone_phrase(move.to, move.who)
    if move.where is not None:
        return str(b.say(MOVE_WHERE, cards=cards, source=source, target=target, condition=ExpressionText(b).condition(move.where, card=True)))
    return str(b.say(MOVE, cards=cards, source=source, target=target))


def pile_option(summary: "RulesSummary", option: Option) -> list[str]:
    """What an option choosing a pile, or a card across a row, adds to the option's sentences."""
    b = summary.book
    out: list[str] = []
    if option.pile is not None:
        aim = option.pile
        variable = b.owned(b.variable(aim.var), "table")
        if aim.where is None:
            out.append(b.say(PILE_OPTION, row=row_name(b, aim.row), variable=variable))
        else:
            out.append(b.say(PILE_OPTION_WHERE, row=row_name(b, aim.row), variable=variable, condition=_pile_condition(summary, aim.where, aim.row, card=False)))
    return out


def row_card_note(summary: "RulesSummary", option: Option) -> str | None:
    """After a card choice across a row of piles: which copy is taken."""
    if option.card is not None and option.card.from_ in summary.book.names.rows:
        return str(summary.book.say(ROW_CARD))
    return None


def pile_add(summary: "RulesSummary", add: AddSpec, card: bool) -> str | None:
    """A change of a counter kept per pile (None: not one)."""
    from cardgen.rulebook.rules_words import ExpressionText, sentence

    b = summary.book
    counter = b.rules.counters.get(add.counter)
    if counter is None or counter.per_pile is None:
        return None
    row = counter.per_pile
    named = b.owned(b.counter(add.counter), "table")
    tree = ExpressionText(b).tree(add.amount, card, pile=row)
    if isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.USub) and isinstance(tree.operand, ast.Name) and tree.operand.id == add.counter and add.pile is None:
        return sentence(str(b.say(PILE_COUNTER_CLEAR, counter=named, row=row_name(b, row))))
    pile = _chosen_pile(summary, row, add.pile, card=card) if add.pile is not None else b.say(PILES_EVERY, row=row_name(b, row))
    amount = _with_pile(b, lambda: ExpressionText(b).term(tree)) if tree is not None else str(add.amount)
    return str(b.say(PILE_COUNTER_RAISE, counter=named, pile=pile, amount=amount))


def arranged_pile(summary: "RulesSummary", arrange: ArrangeSpec) -> str | None:
    """The pile an arrangement of a row of piles puts back in order, in words (None: not a row)."""
    if arrange.zone not in summary.book.names.rows:
        return None
    if arrange.pile is None:
        return str(summary.book.say(PILES_EVERY, row=row_name(summary.book, arrange.zone)))
    return _chosen_pile(summary, arrange.zone, arrange.pile, card=False)


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
