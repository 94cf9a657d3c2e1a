"""Effects and scoring rules of rules data that do nothing at the spec's numbers (CG182).

"Every card does something" is a verdict about the designer's numbers as much as their words: an effect adding
``numbers.bonus`` points does nothing when the bonus is 0, a move of ``numbers.draw`` cards moves none at 0,
arranging one card cannot change an order, a swap with the seat deciding's own same zone exchanges nothing, a move back onto the zone it takes from puts
every card where it was, and sets multiplied by 1 score what they scored. Each is worked out
before play (:mod:`cardgen.spec.rules_fold`) at every player count the setup table lists, and reported at the
effect's line with the counts where it does nothing. An expression that reads a rule option is reported as a
warning, since a variant may switch a rule off on purpose; otherwise the spec is refused. A player count where
the effect's step or option has a ``when`` that never holds (``players > 2`` with two players) is left out: the
effect never runs there (:func:`cardgen.spec.rules_fold.never_holds`).
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Iterator

from cardgen.spec.models import Spec
from cardgen.spec.rules_check import all_effects
from cardgen.spec.rules_data import AddEffect, ArrangeEffect, MajorityScore, MoveEffect, OneOfEachScore, RepeatStep, RulesData, SetEffect, SetStep, SwapEffect
from cardgen.spec.rules_expr import ExpressionError, read_tree
from cardgen.spec.rules_fold import Constants, constants_at, fold, never_holds
from cardgen.spec.source import PathKey

Inert = tuple[PathKey, str, bool]
"""(path, problem, whether a rule option decides it)."""


def inert_problems(spec: Spec, rules: RulesData) -> Iterator[Inert]:
    """Every effect or scoring rule that does nothing at some player count, with the counts."""
    every_count = [(setup.players, constants_at(spec, rules, setup)) for setup in spec.setups]
    for path, effect, _, _ in all_effects(rules):
        guards = _guards(rules, path)
        at_counts = [(players, constants) for players, constants in every_count if not any(never_holds(guard, constants) for guard in guards)]
        if isinstance(effect, AddEffect):
            yield from _when(at_counts, path + ("add", "amount"), effect.add.amount, lambda v: v == 0,
                             f"adds 0 to counter {effect.add.counter!r}", len(every_count))
        elif isinstance(effect, MoveEffect) and _moves_in_place(effect):
            yield path + ("move", "to"), (f"moves cards from {effect.move.from_!r} back onto the same seat's {effect.move.to!r}, one by one "
                                          "from the top, so every card lands where it was: the rule does nothing"), False
        elif isinstance(effect, MoveEffect) and effect.move.count != "all":
            yield from _when(at_counts, path + ("move", "count"), effect.move.count, lambda v: v == 0,
                             f"moves no card from {effect.move.from_!r}", len(every_count))
        elif isinstance(effect, SwapEffect) and _swaps_with_itself(rules, path, effect):
            yield path + ("swap", "with"), (f"swaps zone {effect.swap.zone!r} with the same zone of the seat deciding (`with: active` in a step "
                                            "the active seat decides): the rule does nothing"), False
        elif isinstance(effect, ArrangeEffect) and effect.arrange.count != "all":
            yield from _when(at_counts, path + ("arrange", "count"), effect.arrange.count, lambda v: v <= 1,
                             f"arranges at most one card of {effect.arrange.zone!r}, so no order can change", len(every_count))
    yield from _unread_setup_sets(rules)
    at_counts = every_count
    for k, item in enumerate(rules.scoring):
        if isinstance(item, MajorityScore):
            yield from _every_place_nothing(at_counts, ("rules", "scoring", k, "majority", "points"), item)
        if not isinstance(item, OneOfEachScore):
            continue
        sets = item.one_of_each
        written = sets.model_fields_set
        here: PathKey = ("rules", "scoring", k, "one_of_each")
        if "times" in written or "multiplied" in written:
            yield from _when(at_counts, here + ("times",), sets.times, lambda v: v == 1,
                             "multiplies sets by 1, so a multiplied set scores what it scored")
        if "bonus" in written:
            yield from _when(at_counts, here + ("bonus",), sets.bonus, lambda v: v == 0, "gives a bonus of 0 points")


def _unread_setup_sets(rules: RulesData) -> Iterator[Inert]:
    """A setup step setting a variable that nothing after it reads (no later setup step, nothing of play): it does nothing;
    so does a set in a setup loop that nothing after the loop, nor the loop's condition or other effects, reads.

    Every text of the rules data after the step that parses as an expression counts as reading the names in it, so the
    check errs towards silence (a later ``set`` of the same variable counts too). Rules with named mechanics are left
    alone: a mechanic's Python may read any variable.
    """
    if rules.mechanics:
        return
    data = rules.model_dump(by_alias=True)
    read_later: set[str] = set()  # every name a text after the step reads (each text parsed once)
    for key, value in data.items():
        if key != "setup":
            read_later |= _names_read(_texts(value))
    for i in range(len(rules.setup) - 1, -1, -1):
        step = rules.setup[i]
        if isinstance(step, SetStep) and step.set.var not in read_later:
            yield ("rules", "setup", i, "set", "var"), f"sets variable {step.set.var!r}, which nothing after this step reads: the rule does nothing", False
        if isinstance(step, RepeatStep):  # a loop's set is read by what follows the loop, its `until`, or its other effects
            loop = data["setup"][i]["repeat"]
            for k, effect in enumerate(step.repeat.do):
                if not isinstance(effect, SetEffect):
                    continue
                others = [loop["until"], loop["do"][k]["set"]["value"], *(item for j, item in enumerate(loop["do"]) if j != k)]
                if effect.set.var not in read_later | _names_read(_texts(others)):
                    yield (("rules", "setup", i, "repeat", "do", k, "set", "var"),
                           f"sets variable {effect.set.var!r} in a setup loop, and nothing in the loop or after it reads it: the rule does nothing", False)
        read_later |= _names_read(_texts(data["setup"][i]))


PROSE_KEYS = frozenset({"name", "meaning", "flag", "gender"})
"""Keys of the rules data whose texts are words for the rulebook in each locale, never expressions: a variable's own
``name: {en: bonus}`` would otherwise read as the variable ``bonus`` and hide every unread set of it."""


def _texts(value: Any) -> Iterator[str]:
    """Every string inside a dumped model (keys, and the prose under :data:`PROSE_KEYS`, left out)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in PROSE_KEYS:
                yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _texts(item)


def _names_read(texts: Iterator[str]) -> set[str]:
    """The bare names the texts read, each text that parses as an expression (the others read nothing)."""
    names: set[str] = set()
    for text in texts:
        try:
            tree = read_tree(text)
        except (ExpressionError, ValueError):
            continue
        names.update(node.id for node in ast.walk(tree) if isinstance(node, ast.Name))
    return names


def _moves_in_place(effect: MoveEffect) -> bool:
    """A move (without ``where``) into the zone it takes from, of the same seat: each card taken from the top goes back on top."""
    move = effect.move
    same_seat = move.to_who is None or (move.to_who == move.who and move.who in ("me", "target", "active"))
    return move.from_ == move.to and move.where is None and same_seat


def _swaps_with_itself(rules: RulesData, path: PathKey, effect: SwapEffect) -> bool:
    """A swap of a zone with the same zone of the same seat: ``with: active`` in a turn step the active seat decides."""
    swap = effect.swap
    if swap.with_ != "active" or (swap.other is not None and swap.other != swap.zone):
        return False
    if path[:2] != ("rules", "turn") or not isinstance(path[2], int):
        return False  # a card's effect may be played in a step another seat decides
    return rules.turn[path[2]].by == "turn"


def _guards(rules: RulesData, path: PathKey) -> list[str | None]:
    """The conditions under which the effect at ``path`` can happen at all: its step's and its option's ``when``
    (a count where one of them never holds is a count where the effect never runs, so it does nothing there by design)."""
    if path[:2] != ("rules", "turn") or len(path) < 5 or not isinstance(path[2], int) or not isinstance(path[4], int):
        return []
    step = rules.turn[path[2]]
    return [step.when, step.options[path[4]].when]


def _when(at_counts: list[tuple[int, Constants]], path: PathKey, source: int | str, inert: Callable[[Any], bool], what: str,
          total: int | None = None) -> Iterator[Inert]:
    """``total``: how many player counts the spec has (the counts are named unless the rule does nothing at all of them)."""
    counts = [players for players, constants in at_counts if isinstance(value := fold(source, constants), int) and inert(value)]
    if not counts:
        return
    every = len(counts) == (len(at_counts) if total is None else total)
    where = "" if every else f" with {_players(counts)}"
    yield path, f"{source!r} {what}{where}: the rule does nothing there", isinstance(source, str) and "options." in source


def _every_place_nothing(at_counts: list[tuple[int, Constants]], path: PathKey, item: MajorityScore) -> Iterator[Inert]:
    """A majority whose every place scores 0."""
    points = item.majority.points
    counts = [players for players, constants in at_counts if all(fold(source, constants) == 0 for source in points)]
    if not counts:
        return
    where = "" if len(counts) == len(at_counts) else f" with {_players(counts)}"
    optional = any(isinstance(source, str) and "options." in source for source in points)
    yield path, f"every place of the majority scores 0{where}: the rule does nothing there", optional


def _players(counts: list[int]) -> str:
    words = [str(count) for count in counts]
    joined = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    return f"{joined} player{'s' if counts[-1] != 1 or len(counts) > 1 else ''}"
