"""Rules-data expressions worked out before play, from the spec alone (a static fold, no engine).

An expression that reads only numbers, setup entries, rule options and ``players`` has one value per player
count; :func:`fold` gives it, or None when the expression reads anything a position holds (a zone, a counter, a
variable, a card, a seat, the turn). The validator uses it to see what an effect does at the spec's numbers
(:mod:`cardgen.spec.rules_inert`) without importing the engine's compiler.
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from cardgen.spec.models import Setup, Spec
from cardgen.spec.rules_data import RulesData
from cardgen.spec.rules_expr import ExpressionError, read_tree

_BINARY: Mapping[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE: Mapping[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


class NotConstant(Exception):
    """The expression reads something only a position has."""


@dataclass(frozen=True)
class Constants:
    """The values an expression may read before play, at one player count."""

    players: int
    values: Mapping[str, Any]
    """``numbers.X``, ``setup.deal.X`` (and display, pieces) and ``options.X`` -> value."""


def constants_at(spec: Spec, rules: RulesData, setup: Setup) -> Constants:
    """What a folded expression may read in ``spec`` at ``setup``'s player count."""
    values: dict[str, Any] = {f"numbers.{k}": v for k, v in spec.numbers.items()}
    for part in ("deal", "display", "pieces"):
        values.update({f"setup.{part}.{k}": v for k, v in getattr(setup, part).items()})
    values.update({f"options.{name}": spec.options.get(name, option.default) for name, option in rules.options.items()})
    return Constants(players=setup.players, values=values)


def fold(source: int | str, constants: Constants) -> Any:
    """The value of ``source`` at these constants, or None when it reads a position (or is not an expression)."""
    if isinstance(source, int):
        return source
    try:
        return _value(read_tree(source), constants)
    except (NotConstant, ExpressionError, ArithmeticError, TypeError, ValueError, RecursionError, MemoryError):
        return None


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    raise NotConstant


def _number(node: ast.expr, constants: Constants) -> int:
    """The value of ``node`` where arithmetic needs a whole number (as in play: a text is never repeated or formatted)."""
    value = _value(node, constants)
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotConstant
    return value


def _value(node: ast.expr, constants: Constants) -> Any:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, str)):
        return node.value
    if isinstance(node, ast.Name):
        if node.id == "players":
            return constants.players
        raise NotConstant
    if isinstance(node, ast.Attribute):
        name = _dotted(node)
        if name in constants.values:
            return constants.values[name]
        raise NotConstant
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_number(node.operand, constants)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _value(node.operand, constants)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_number(node.left, constants), _number(node.right, constants))
    if isinstance(node, ast.IfExp):
        return _value(node.body if _value(node.test, constants) else node.orelse, constants)
    if isinstance(node, ast.BoolOp):
        values = [_value(value, constants) for value in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.Compare) and all(type(op) in _COMPARE for op in node.ops):
        left = _value(node.left, constants)
        for op, right_node in zip(node.ops, node.comparators):
            right = _value(right_node, constants)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max") and node.args:
        values = [_value(arg, constants) for arg in node.args]
        return min(values) if node.func.id == "min" else max(values)
    raise NotConstant


def never_holds(source: str | None, constants: Constants) -> bool:
    """Whether the condition ``source`` is false at these constants whatever the position: it folds to a false
    value, or it is an ``and`` with a part that never holds, or an ``or`` whose every part never holds. A condition
    reading the position is not known to be false (False), nor is no condition."""
    if source is None:
        return False
    try:
        return _never(read_tree(source), constants)
    except (ExpressionError, RecursionError, MemoryError):
        return False


def _never(node: ast.expr, constants: Constants) -> bool:
    if isinstance(node, ast.BoolOp):
        parts = [_never(value, constants) for value in node.values]
        return any(parts) if isinstance(node.op, ast.And) else all(parts)
    try:
        value = _value(node, constants)
    except (NotConstant, ArithmeticError, TypeError, ValueError):
        return False
    return not value
