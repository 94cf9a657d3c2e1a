"""Card values named in rules-data expressions that no card in play has, and yes-or-no variables compared with a value
other than 1 and 0 (CG183).

``card.suit == 'heart'`` when the suits are ``hearts``, ``top(discard).effect == 'earthquake'`` in a deck without
an Earthquake, ``has(row, effect, 'guard')`` when no card carries ``guard``: each condition can never hold (or
``!=`` always holds), so the rule it guards never happens, whether the cause is a typo or a card left out of the
deck. The values are the spec's own (the cards of the decks the setup shuffles into play, and for a variable also
every constant a ``set`` may give it), so the check needs no play; it reads the expressions the other rules-data
checks read (:func:`cardgen.spec.rules_check.all_expressions` and every option's ``target.where``).
"""

from __future__ import annotations

import ast
from typing import Iterator

from cardgen.spec.models import Spec
from cardgen.spec.rules_chance import target_expressions
from cardgen.spec.rules_check import all_effects, all_expressions, decks_in_play
from cardgen.spec.rules_data import RulesData, SetEffect, SetSpec, SetStep
from cardgen.spec.rules_expr import ExpressionError, read_tree
from cardgen.spec.source import PathKey

FIELD_VALUE_FUNCTIONS = frozenset({"has", "matching", "sets"})
"""Functions called as ``f(ZONE, FIELD, VALUE)``: the value is one of the field's."""

_ATTRIBUTES = ("id", "type", "effect")


def card_values(spec: Spec, rules: RulesData) -> dict[str, set[object]]:
    """Every value each card field (and ``id``, ``type``, ``effect``) takes on the cards in play."""
    in_play = set(decks_in_play(rules))
    values: dict[str, set[object]] = {}
    for deck in spec.decks:
        if deck.id not in in_play:
            continue
        for card in deck.cards:
            for name in _ATTRIBUTES:
                value = getattr(card, name)
                if value is not None:
                    values.setdefault(name, set()).add(value)
            for name, value in card.data.items():
                if isinstance(value, (str, int)) and not isinstance(value, bool):
                    values.setdefault(name, set()).add(value)
    return values


def literal_problems(spec: Spec, rules: RulesData) -> Iterator[tuple[PathKey, str]]:
    """(path, problem) of every comparison with a card value no card in play has."""
    values = card_values(spec, rules)
    variable_fields = {name: variable.values for name, variable in rules.variables.items() if variable.values is not None}
    assigned = assigned_literals(rules)
    flags = frozenset(name for name, variable in rules.variables.items() if variable.flag is not None)
    for path, source, _ in [*all_expressions(rules), *target_expressions(rules)]:
        if not isinstance(source, str):
            continue
        try:
            tree = read_tree(source)
        except ExpressionError:
            continue  # CG175 reports it
        reported: set[tuple[str, object]] = set()
        for flag, literal in _flag_compared(tree, flags):
            yield path, f"variable {flag!r} is a flag, holding only 1 or 0, so {source.strip()!r} compares it with {literal!r}, a value it never holds"
        for field, literal, variable in _compared(tree, variable_fields):
            if field not in values or literal in values[field] or (field, literal) in reported:
                continue
            if variable is not None and literal in assigned.get(variable, ()):
                continue
            reported.add((field, literal))
            known = sorted(values[field], key=str)
            shown = ", ".join(repr(v) for v in known[:8]) + (", ..." if len(known) > 8 else "")
            yield path, f"no card in play has {field} {literal!r} ({field}: {shown}), so {source.strip()!r} compares with a value that never occurs"


def assigned_literals(rules: RulesData) -> dict[str, set[object]]:
    """Per variable, the constant values a ``set`` (an effect or a setup step) may give it besides a card's: every
    text or number written in the value's expression (``'none' if ... else card.suit`` may give ``'none'``)."""
    out: dict[str, set[object]] = {}
    sets: list[SetSpec] = [step.set for step in rules.setup if isinstance(step, SetStep)]
    sets += [effect.set for _, effect, _, _ in all_effects(rules) if isinstance(effect, SetEffect)]
    for spec in sets:
        if not isinstance(spec.value, str):
            out.setdefault(spec.var, set()).add(spec.value)
            continue
        try:
            tree = read_tree(spec.value)
        except ExpressionError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, (str, int)):
                out.setdefault(spec.var, set()).add(node.value)
    return out


def _compared(tree: ast.AST, variable_fields: dict[str, str]) -> Iterator[tuple[str, object, str | None]]:
    """(field, literal, the variable compared or None) of every comparison of a card's field, or a variable holding
    a field's values, with a constant."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            left, right = node.left, node.comparators[0]
            for side, other in ((left, right), (right, left)):
                field = _field_of(side, variable_fields)
                if field is not None and isinstance(other, ast.Constant) and isinstance(other.value, (str, int)):
                    yield field, other.value, side.id if isinstance(side, ast.Name) else None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FIELD_VALUE_FUNCTIONS and len(node.args) == 3:
            field_node, value_node = node.args[1], node.args[2]
            if isinstance(field_node, ast.Name) and isinstance(value_node, ast.Constant) and isinstance(value_node.value, (str, int)):
                yield field_node.id, value_node.value, None


def _flag_compared(tree: ast.AST, flags: frozenset[str]) -> Iterator[tuple[str, object]]:
    """(flag, constant) of every comparison of a yes-or-no variable with a constant other than 1 and 0 (``==``, ``!=``, ``in``)."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            continue
        left, right = node.left, node.comparators[0]
        for side, other in ((left, right), (right, left)):
            if not (isinstance(side, ast.Name) and side.id in flags):
                continue
            constants = other.elts if isinstance(other, (ast.List, ast.Tuple)) and isinstance(node.ops[0], (ast.In, ast.NotIn)) else [other]
            if isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                for constant in constants:
                    if isinstance(constant, ast.Constant) and (type(constant.value) is not int or constant.value not in (0, 1)):
                        yield side.id, constant.value


def _field_of(node: ast.expr, variable_fields: dict[str, str]) -> str | None:
    """The card field ``node`` reads (``card.F``, ``top(Z).F``), or the field whose values a variable holds."""
    if isinstance(node, ast.Attribute):
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id == "card":
            return node.attr
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "top":
            return node.attr
        return None
    if isinstance(node, ast.Name):
        return variable_fields.get(node.id)
    return None
