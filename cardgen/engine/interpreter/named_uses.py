"""Card effects used by the rules that name them: an option that asks for the card, a scoring that counts it.

A card effect is counted as used (``effect:ID`` in a game's usage) when a card chosen with its effects carries
it out. Some cards are never carried out that way and are used all the same: the rules play them by an option
whose condition asks for the card (``when: "holds(hand, 'trash')"`` offers "play Trash"; its ``do`` discards the
card), or a scoring rule counts them (a ``sets`` item's wild cards, ``where: "card.effect == 'complete'"``).
For these, taking such an option is using the effect, and so is a wild card that raised its holder's final
score. Without this, the coverage check (CG505) would call such a card never used in games that used it at
every turn.

What an option's condition names is read from its top-level ``and`` terms only: ``holds(ZONE, 'CARD-ID')`` (the
card's effect) and ``card.effect == 'ID'`` / ``card.effect in ['A', 'B']`` (``top(ZONE).effect`` too). A term
under ``not``, ``or`` or a comparison of a count is not a request for the card and is not read.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from cardgen.spec.rules_expr import ExpressionError, read_tree

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataGame
    from cardgen.engine.interpreter.state import DataState

__all__ = ["add_named_uses", "named_effects"]


def _terms(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [term for value in node.values for term in _terms(value)]
    return [node]


def named_effects(source: str | None, card_effect: dict[str, str]) -> set[str]:
    """The effects a condition asks for in its top-level ``and`` terms (``card_effect``: card id -> its effect)."""
    if not isinstance(source, str):
        return set()
    try:
        tree = read_tree(source)
    except ExpressionError:
        return set()
    found: set[str] = set()
    for term in _terms(tree):
        if isinstance(term, ast.Call) and isinstance(term.func, ast.Name) and term.func.id == "holds" and len(term.args) == 2:
            card = term.args[1]
            if isinstance(card, ast.Constant) and isinstance(card.value, str) and card.value in card_effect:
                found.add(card_effect[card.value])
        elif isinstance(term, ast.Compare) and len(term.ops) == 1 and isinstance(term.left, ast.Attribute) and term.left.attr == "effect":
            right = term.comparators[0]
            if isinstance(term.ops[0], ast.Eq) and isinstance(right, ast.Constant) and isinstance(right.value, str):
                found.add(right.value)
            elif isinstance(term.ops[0], ast.In) and isinstance(right, (ast.List, ast.Tuple)):
                found.update(item.value for item in right.elts if isinstance(item, ast.Constant) and isinstance(item.value, str))
    return found


class _Named:
    """Per game: (option index, effect indices) for options asking for cards, and (scorer, effect indices) for wilds."""

    def __init__(self, game: "DataGame") -> None:
        from cardgen.engine.interpreter.sets import SetsScorer

        rules = game.spec.rules_data
        assert rules is not None
        card_effect = {card.id: card.effect for deck in game.spec.decks for card in deck.cards if card.effect}
        index = {effect: i for i, effect in enumerate(game.effect_ids)}
        written = {f"{step.id}.{option.id}": option.when for step in rules.turn for option in step.options}
        self.options: list[tuple[int, tuple[int, ...]]] = []
        for option in game.options:
            effects = tuple(sorted(index[e] for e in named_effects(written.get(option.key), card_effect) if e in index))
            if effects:
                self.options.append((option.index, effects))
        self.wilds: list[tuple[SetsScorer, tuple[int, ...]]] = []
        for item, scorer in zip(rules.scoring, game.scorers):
            wild = getattr(getattr(item, "sets", None), "wild", None)
            if wild is not None and isinstance(scorer, SetsScorer):
                effects = tuple(sorted(index[e] for e in named_effects(wild.where, card_effect) if e in index))
                if effects:
                    self.wilds.append((scorer, effects))


_NAMED: "WeakKeyDictionary[DataGame, _Named]" = WeakKeyDictionary()


def add_named_uses(state: "DataState", uses: dict[str, int]) -> None:
    """Add to ``uses`` the effects used by the options taken that ask for their cards and, once the game is over,
    by the wild cards that raised a seat's score."""
    game = state.g
    named = _NAMED.get(game)
    if named is None:
        named = _NAMED[game] = _Named(game)
    ids = game.effect_ids
    for option, effects in named.options:
        taken = state.option_uses[option]
        if taken:
            for effect in effects:
                uses[f"effect:{ids[effect]}"] += taken
    if state.over is None:
        return
    for scorer, effects in named.wilds:
        for seat in range(game.num_players):
            wilds = scorer.wilds(state, seat)
            if wilds:
                counts = scorer.counts(state, seat)
                if scorer.best(counts, wilds)[0] > scorer.best(counts, 0)[0]:
                    for effect in effects:
                        uses[f"effect:{ids[effect]}"] += 1
