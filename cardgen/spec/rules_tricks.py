"""Trick taking in rules data, checked: what the interpreter needs to play a trick as the rules say.

A game with ``rules.tricks`` is played one card per seat per trick: every turn
plays exactly one card from the seat's own hand to the shared trick zone, and
only trick play moves cards into or out of it (the winner takes the trick into a
per-seat zone). :func:`trick_problems` finds, with the path of each, everything
that would break this: a per-seat trick zone, a shared zone for tricks won, a
turn that can play no card or two, an effect that changes the turn order (a seat
would play twice to one trick, or not at all), a move into or out of the trick
zone, a rank that is not a whole number.
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterator, Mapping, Sequence

from cardgen.spec.models import Card, Spec
from cardgen.spec.rules_data import (
    ChooseEffect,
    DealStep,
    Effect,
    MoveEffect,
    MoveStep,
    RulesData,
    SetAsideStep,
    ShuffleStep,
    SkipEffect,
    StealEffect,
    Tricks,
)
from cardgen.spec.rules_expr import ExpressionError, Names, parse_expression
from cardgen.spec.source import PathKey

TRICK_CODE = "CG178"
"""The finding code of trick rules that cannot be played as written."""

_CAP = 2
"""Counts of trick plays in a turn are kept up to this (two or more is already too many)."""


def _effect_lists(rules: RulesData, tricks: Tricks) -> Iterator[tuple[PathKey, Sequence[Effect]]]:
    for i, step in enumerate(rules.turn):
        for j, option in enumerate(step.options):
            yield ("rules", "turn", i, "options", j, "do"), option.do
    for effect_id, effects in rules.effects.items():
        yield ("rules", "effects", effect_id), effects
    yield ("rules", "tricks", "after"), tricks.after


def _other_moves(rules: RulesData, zone: str) -> Iterator[PathKey]:
    """Places other than a play to the trick that move cards into or out of ``zone``."""
    for i, step in enumerate(rules.setup):
        here: PathKey = ("rules", "setup", i)
        if isinstance(step, ShuffleStep) and step.shuffle.to == zone:
            yield here + ("shuffle", "to")
        elif isinstance(step, DealStep) and zone in (step.deal.from_, step.deal.to):
            yield here + ("deal",)
        elif isinstance(step, MoveStep) and zone in (step.move.from_, step.move.to):
            yield here + ("move",)
        elif isinstance(step, SetAsideStep) and zone in (step.set_aside.from_, step.set_aside.to):
            yield here + ("set_aside",)
    for i, turn_step in enumerate(rules.turn):
        for j, option in enumerate(turn_step.options):
            if option.card is not None and option.card.from_ == zone:
                yield ("rules", "turn", i, "options", j, "card", "from")


def plays_to_trick(rules: RulesData, tricks: Tricks) -> list[tuple[int, int]]:
    """(step index, option index) of every option that plays a card to the trick."""
    return [
        (i, j)
        for i, step in enumerate(rules.turn)
        for j, option in enumerate(step.options)
        if option.card is not None and option.card.to == tricks.zone
    ]


def trick_plays_per_turn(rules: RulesData, tricks: Tricks) -> dict[str, set[int]]:
    """Step id -> the numbers of cards a turn may play to the trick from that step until it ends (2 means two or more)."""
    steps = {step.id: step for step in rules.turn}
    counts: dict[str, set[int]] = {step.id: set() for step in rules.turn}
    changed = True
    while changed:
        changed = False
        for step in rules.turn:
            found: set[int] = set()
            for option in step.options:
                here = 1 if option.card is not None and option.card.to == tricks.zone else 0
                if option.then == "end":
                    later = {0}
                elif option.then == "again":
                    later = counts[step.id]
                elif option.then in steps:
                    later = counts[option.then]
                else:
                    continue  # an unknown step is CG175
                found.update(min(here + n, _CAP) for n in later)
            if not found <= counts[step.id]:
                counts[step.id] |= found
                changed = True
    return counts


def trick_problems(spec: Spec, rules: RulesData, tricks: Tricks, names: Names) -> Iterator[tuple[PathKey, str, str]]:
    """(path, problem, code) of everything in the trick rules the interpreter could not play as written."""
    base: PathKey = ("rules", "tricks")
    zones = rules.zones
    fields = names.fields
    if tricks.zone in zones and zones[tricks.zone].per_seat:
        yield base + ("zone",), f"the trick zone {tricks.zone!r} is per seat; a trick lies in one shared zone", TRICK_CODE
    if tricks.won in zones and not zones[tricks.won].per_seat:
        yield base + ("won",), f"zone {tricks.won!r} is shared; the tricks a seat wins go to a per-seat zone", TRICK_CODE
    for key in ("follow", "rank"):
        name = getattr(tricks, key)
        if name not in fields:
            yield base + (key,), f"no card field {name!r} in the decks in play", "CG175"
    in_play = {step.shuffle.deck for step in rules.setup if isinstance(step, ShuffleStep)}
    for deck in spec.decks:
        definition = deck.fields.get(tricks.rank)
        if deck.id in in_play and definition is not None and definition.type != "int":
            yield base + ("rank",), f"field {tricks.rank!r} of deck {deck.id!r} is {definition.type}; the cards of a trick are compared by a whole number", TRICK_CODE
    plays = plays_to_trick(rules, tricks)
    if not plays:
        yield base + ("zone",), f"no option plays a card to the trick zone {tricks.zone!r} (a card choice with `to: {tricks.zone}`)", TRICK_CODE
    for i, j in plays:
        choice = rules.turn[i].options[j].card
        assert choice is not None
        if choice.from_ in zones and not zones[choice.from_].per_seat:
            yield ("rules", "turn", i, "options", j, "card", "from"), f"zone {choice.from_!r} is shared; a seat plays to the trick from its own zone (a hand)", TRICK_CODE
    for path in _other_moves(rules, tricks.zone):
        yield path, f"only trick play moves cards into or out of the trick zone {tricks.zone!r}", TRICK_CODE
    for path, effects in _effect_lists(rules, tricks):
        for k, effect in enumerate(effects):
            if effect in ("reverse", "extra_turn") or isinstance(effect, SkipEffect):
                name = effect if isinstance(effect, str) else "skip"
                yield path + (k,), f"`{name}` changes the turn order, and in a trick every seat plays once, in turn, the winner leading next", TRICK_CODE
            elif isinstance(effect, MoveEffect) and tricks.zone in (effect.move.from_, effect.move.to):
                yield path + (k,), f"only trick play moves cards into or out of the trick zone {tricks.zone!r}", TRICK_CODE
            elif isinstance(effect, StealEffect) and tricks.zone == effect.steal.to:
                yield path + (k,), f"only trick play moves cards into or out of the trick zone {tricks.zone!r}", TRICK_CODE
            elif isinstance(effect, ChooseEffect) and path == base + ("after",):
                yield path + (k,), "a choice after a trick would be the winner's decision out of turn; set the variable with `set` instead", TRICK_CODE
    for i, step in enumerate(rules.turn):
        if step.by != "turn":
            yield ("rules", "turn", i, "by"), "a reaction is a decision out of turn, and in a trick every seat plays once, in turn", TRICK_CODE
    if plays and rules.turn:
        first = rules.turn[0].id
        counts = trick_plays_per_turn(rules, tricks)[first]
        if counts and counts != {1}:
            shown = ", ".join("two or more" if n >= _CAP else str(n) for n in sorted(counts))
            yield ("rules", "turn", 0), f"in a trick game every turn plays exactly one card to the trick; a turn here may play {shown}", TRICK_CODE
    if plays:
        yield from uneven_deals(spec, rules, tricks, names)


DEAL_CODE = "CG179"
"""The finding code of a setup that deals the hands of a trick game unevenly."""


def _setup_env(spec: Spec, players: int) -> dict[str, Any]:
    """The names an expression may read before play at ``players``: numbers, the setup table's entries, ``players``."""
    env: dict[str, Any] = {"players": players, "true": True, "false": False, "True": True, "False": False}
    env.update({f"numbers.{k}": v for k, v in spec.numbers.items()})
    setup = next((entry for entry in spec.setups if entry.players == players), None)
    if setup is not None:
        env.update({f"setup.deal.{k}": v for k, v in setup.deal.items()})
        env.update({f"setup.display.{k}": v for k, v in setup.display.items()})
    return env


def card_condition_before_play(source: str, names: Names, spec: Spec, players: int, card: Card) -> bool | None:
    """Whether an expression over ``card`` holds for ``card`` at ``players``, known before play (a ``set_aside`` condition);
    None when it reads the position (a zone, a counter) or cannot be read."""
    try:
        tree, _ = parse_expression(source, names, card=True)
        return bool(_static_value(tree, _setup_env(spec, players), {"id": card.id, "type": card.type, "effect": card.effect, **card.data}))
    except (_NotStatic, ExpressionError, TypeError):
        return None


class _NotStatic(Exception):
    """An expression that reads the position (a zone, a counter), so its value is not known before play."""


def _static_value(node: ast.expr, env: Mapping[str, Any], card: Mapping[str, Any] | None) -> Any:
    """The value of a checked expression that reads only constants, ``players`` and ``card``; raises :class:`_NotStatic` otherwise."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.BoolOp):
        values = [_static_value(v, env, card) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp):
        value = _static_value(node.operand, env, card)
        return (not value) if isinstance(node.op, ast.Not) else -value
    if isinstance(node, ast.BinOp):
        a, b = _static_value(node.left, env, card), _static_value(node.right, env, card)
        if a is None or b is None:
            raise _NotStatic
        return _BIN[type(node.op)](a, b)
    if isinstance(node, ast.Compare):
        left = _static_value(node.left, env, card)
        for op, right_node in zip(node.ops, node.comparators):
            if isinstance(right_node, (ast.List, ast.Tuple)):
                right: Any = [e.value for e in right_node.elts if isinstance(e, ast.Constant)]
            else:
                right = _static_value(right_node, env, card)
            if not _compare(op, left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise _NotStatic
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "card" and card is not None:
        return card.get(node.attr)
    if isinstance(node, ast.Attribute):
        key = ast.unparse(node)
        if key in env:
            return env[key]
    raise _NotStatic


_BIN: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b if b else 0,
    ast.Mod: lambda a, b: a % b if b else 0,
}


def _compare(op: ast.cmpop, left: Any, right: Any) -> bool:
    if isinstance(op, ast.In):
        return bool(left in right)
    if isinstance(op, ast.NotIn):
        return bool(left not in right)
    if isinstance(op, ast.Eq):
        return bool(left == right)
    if isinstance(op, ast.NotEq):
        return bool(left != right)
    if left is None or right is None:
        return False  # as the interpreter: an empty zone's value is ordered before nothing
    if isinstance(op, ast.Lt):
        return bool(left < right)
    if isinstance(op, ast.LtE):
        return bool(left <= right)
    if isinstance(op, ast.Gt):
        return bool(left > right)
    return bool(left >= right)


def uneven_deals(spec: Spec, rules: RulesData, tricks: Tricks, names: Names) -> Iterator[tuple[PathKey, str, str]]:
    """A deal, at some player count, into a zone seats play to the trick from, asking for more cards than are left.

    The setup is followed card by card where it can be known before play (shuffles, cards set
    aside, deals and moves whose counts and conditions read only numbers, setup entries,
    ``players`` and the card); a setup that reads the position is not judged.
    """
    hands: set[str] = set()
    for i, j in plays_to_trick(rules, tricks):
        choice = rules.turn[i].options[j].card
        assert choice is not None
        hands.add(choice.from_)
    decks = {deck.id: deck for deck in spec.decks}
    for setup in spec.setups:
        env = _setup_env(spec, setup.players)
        pools: dict[str, list[dict[str, Any]]] = {}
        try:
            for i, step in enumerate(rules.setup):
                if isinstance(step, ShuffleStep):
                    deck = decks.get(step.shuffle.deck)
                    if deck is None:
                        return
                    cards = [{"id": c.id, "type": c.type, "effect": c.effect, **c.data} for c in deck.cards for _ in range(c.copies)]
                    pools.setdefault(step.shuffle.to, []).extend(cards)
                elif isinstance(step, SetAsideStep):
                    tree, _ = parse_expression(step.set_aside.where, names, card=True)
                    source = pools.get(step.set_aside.from_, [])
                    moved = [c for c in source if _static_value(tree, env, c)]
                    pools[step.set_aside.from_] = [c for c in source if not _static_value(tree, env, c)]
                    pools.setdefault(step.set_aside.to, []).extend(moved)
                elif isinstance(step, DealStep):
                    count = _static_value(parse_expression(step.deal.count, names)[0], env, None)
                    source = pools.get(step.deal.from_, [])
                    if not isinstance(count, int) or not names.zones.get(step.deal.to):
                        break  # a deal to a shared zone is not judged here
                    wanted, have = count * setup.players, len(source)
                    if step.deal.to in hands and wanted > have:
                        yield (
                            ("rules", "setup", i, "deal", "count"),
                            f"with {setup.players} players the deal asks for {count} cards each, {wanted} in all, and {have} are left: "
                            "the last seats get fewer, so the last trick cannot have a card from every seat",
                            DEAL_CODE,
                        )
                    pools[step.deal.from_] = source[: max(have - wanted, 0)]
                elif isinstance(step, MoveStep):
                    if step.move.count == "all" or names.zones.get(step.move.from_) or names.zones.get(step.move.to):
                        break  # moves of whole zones or between seats' zones are not followed
                    count = _static_value(parse_expression(step.move.count, names)[0], env, None)
                    source = pools.get(step.move.from_, [])
                    taken = min(max(count, 0), len(source))
                    pools[step.move.from_] = source[: len(source) - taken]
                    pools.setdefault(step.move.to, []).extend(source[len(source) - taken:])
        except (_NotStatic, ExpressionError, TypeError):
            continue
