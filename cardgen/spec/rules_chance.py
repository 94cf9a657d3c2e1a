"""Rules data's chance steps and chosen seats, checked against the spec: rolls, steals and targets.

A ``roll`` names dice of the spec's ``dice`` list and a variable that holds a
number (declared without ``values``); a ``steal`` takes from a per-seat zone; a
seat chosen by an option (``target``) is known only in that option's
``target.where`` and effects, and in the card effects when every option that
chooses a card with its effects aims at a seat. Rolls and steals wait for chance,
so, like ``choose``, each ends its effect list. :mod:`cardgen.spec.rules_check`
calls these with the rest of its checks (CG175: a name or use the interpreter
could not play).
"""

from __future__ import annotations

from typing import Iterator, Sequence

from cardgen.spec.models import Spec
from cardgen.spec.rules_data import (
    AddEffect,
    ChooseEffect,
    Effect,
    MoveEffect,
    RollEffect,
    RulesData,
    StealEffect,
    TransferEffect,
)
from cardgen.spec.source import PathKey

CODE = "CG175"


def passed_over_to(rules: RulesData, step_id: str) -> str:
    """Where the turn goes when the step ``step_id`` (one with a ``when``) is passed over: the next step, or the end."""
    ids = [step.id for step in rules.turn]
    index = ids.index(step_id)
    return ids[index + 1] if index + 1 < len(ids) else "end"


def aimed_steps(rules: RulesData) -> frozenset[str]:
    """The turn steps reached only after an option of the turn aimed at a seat, so ``target`` is known in them.

    The aim lasts until the turn ends. A step is aimed when it is not the first and every way into it (an
    option's ``then``, a ``by: others`` step's ``after``, a step with a ``when`` passed over) comes from an option with a ``target`` or from a
    step that is aimed itself; worked out as the largest such set.
    """
    if not rules.turn:
        return frozenset()
    first = rules.turn[0].id
    ways: list[tuple[str, str | None, bool]] = []
    """(from step, into step, whether the way aims at a seat itself)."""
    for step in rules.turn:
        if step.by == "others":  # nobody left to decide
            ways.append((step.id, step.after, False))
        if step.when is not None:  # passed over when its condition fails
            ways.append((step.id, passed_over_to(rules, step.id), False))
        for option in step.options:
            ways.append((step.id, step.after if option.then == "next" else option.then, option.target is not None))
    aimed = {step.id for step in rules.turn if step.id != first}
    changed = True
    while changed:
        changed = False
        for source, into, aims in ways:
            if into in aimed and not aims and source not in aimed:
                aimed.discard(into)
                changed = True
    return frozenset(aimed)


def card_effects_aimed(rules: RulesData) -> bool:
    """Whether every option choosing a card with its effects aims at a seat, or stands in an aimed step (so card
    effects may read ``target``)."""
    aimed = aimed_steps(rules)
    choosers = [(step, o) for step in rules.turn for o in step.options if o.card is not None and o.card.effects]
    return bool(choosers) and all(o.target is not None or step.id in aimed for step, o in choosers)


def binds_target(rules: RulesData, path: PathKey) -> bool:
    """Whether ``target`` is known in the expression or effect at ``path``."""
    if len(path) >= 5 and path[:2] == ("rules", "turn") and path[3] == "options":
        step, option = path[2], path[4]
        assert isinstance(step, int) and isinstance(option, int)
        if rules.turn[step].id in aimed_steps(rules):
            return True
        chosen = rules.turn[step].options[option]
        if len(path) >= 6 and path[5] == "card":  # a card chosen from the aimed seat's zone is read with `target` bound
            return chosen.target is not None and chosen.card is not None and chosen.card.whose == "target"
        return len(path) >= 6 and path[5] in ("target", "do") and chosen.target is not None
    if len(path) >= 2 and path[:2] == ("rules", "effects"):
        return card_effects_aimed(rules)
    return False


def target_expressions(rules: RulesData) -> Iterator[tuple[PathKey, str, bool]]:
    """(path, expression, whether `card` is bound) of every option's ``target.where``."""
    for i, step in enumerate(rules.turn):
        for j, option in enumerate(step.options):
            if option.target is not None:
                yield ("rules", "turn", i, "options", j, "target", "where"), option.target.where, False


def steal_zone_uses(effects: Iterator[tuple[PathKey, Effect, int, int]]) -> Iterator[tuple[PathKey, str]]:
    """(path, zone) of every zone a steal names."""
    for path, effect, _, _ in effects:
        if isinstance(effect, StealEffect):
            yield path + ("steal", "from"), effect.steal.from_
            yield path + ("steal", "to"), effect.steal.to


def dice_rolled(rules: RulesData, effects: Sequence[tuple[PathKey, Effect, int, int]]) -> list[str]:
    """The dice ids the rules roll, in the order met."""
    rolled: list[str] = []
    for _, effect, _, _ in effects:
        if isinstance(effect, RollEffect) and effect.roll.dice not in rolled:
            rolled.append(effect.roll.dice)
    return rolled


def _who(effect: Effect) -> tuple[str, str | None]:
    """The effect's key and its ``who`` (None: an effect without one)."""
    if isinstance(effect, MoveEffect):
        return "move", effect.move.who
    if isinstance(effect, AddEffect):
        return "add", effect.add.who
    if isinstance(effect, TransferEffect):
        return "transfer", effect.transfer.who
    if isinstance(effect, StealEffect):
        return "steal", effect.steal.who
    return "", None


def chance_problems(spec: Spec, rules: RulesData, effects: Sequence[tuple[PathKey, Effect, int, int]]) -> Iterator[tuple[PathKey, str, str]]:
    """(path, problem, code) of every roll, steal and ``who: target`` the interpreter could not play as written."""
    dice = {die.id for die in spec.dice}
    for path, effect, index, length in effects:
        key, who = _who(effect)
        if who == "target" and not binds_target(rules, path):
            yield path + (key, "who"), "`who: target` names the seat an option of this turn aimed at, and no `target` is chosen before here (give the option a `target`)", CODE
        if isinstance(effect, RollEffect):
            roll = effect.roll
            if roll.dice not in dice:
                yield path + ("roll", "dice"), f"no dice {roll.dice!r} in the spec's `dice` (dice: {', '.join(sorted(dice)) or 'none'})", CODE
            for key, name in (("var", roll.var), ("doubles", roll.doubles)):
                if name is None:
                    continue
                variable = rules.variables.get(name)
                held = "a total" if key == "var" else "1 or 0 (whether the dice show the same face)"
                if variable is None:
                    yield path + ("roll", key), f"no variable {name!r}", CODE
                elif variable.values is not None:
                    yield path + ("roll", key), f"variable {name!r} takes the values of card field {variable.values!r}; a roll's {key} variable holds {held} (declare it without `values`)", CODE
                elif key == "var" and variable.flag is not None:
                    yield path + ("roll", key), f"variable {name!r} is a `flag` (1 or 0); a roll's var holds the total rolled", CODE
            if roll.doubles is not None and roll.doubles == roll.var:
                yield path + ("roll", "doubles"), f"variable {roll.var!r} cannot hold both the total and whether the dice show the same face", CODE
        if isinstance(effect, StealEffect):
            zone = rules.zones.get(effect.steal.from_)
            if zone is not None and not zone.per_seat:
                yield path + ("steal", "from"), f"zone {effect.steal.from_!r} is shared; a card is taken at random from a seat's own zone", CODE
        if isinstance(effect, (RollEffect, StealEffect)) and index != length - 1:
            kind = "roll" if isinstance(effect, RollEffect) else "steal"
            yield path, f"a {kind} must be the last effect of its list (what follows it waits for chance)", CODE
    for name, variable in rules.variables.items():
        if variable.values is None:
            for path, effect, _, _ in effects:
                if isinstance(effect, ChooseEffect) and effect.choose == name:
                    yield path, f"variable {name!r} has no `values`, so there is nothing to choose from (give it `values: FIELD`)", CODE


def chosen_from_target(rules: RulesData) -> Iterator[tuple[PathKey, str, str]]:
    """A card chosen from (``whose: target``) or given to (``to_whose: target``) the aimed seat's zone where no seat is
    aimed at (an option without a `target` in a step some way into which aims at none), or in a shared zone."""
    aimed = aimed_steps(rules)
    for i, step in enumerate(rules.turn):
        for j, option in enumerate(step.options):
            choice = option.card
            if choice is None:
                continue
            for key, zone, does, held in (
                ("whose", choice.from_, "chooses a card from the aimed seat's zone", "chosen from"),
                ("to_whose", choice.to, "gives the card to the aimed seat", "given into"),
            ):
                if getattr(choice, key) != "target":
                    continue
                here: PathKey = ("rules", "turn", i, "options", j, "card", key)
                if option.target is None and step.id not in aimed:
                    yield here, f"option {option.id!r} {does}, and neither it nor every way into its step aims at a seat (give it a `target`)", "CG175"
                elif zone in rules.zones and not rules.zones[zone].per_seat:
                    yield here, f"zone {zone!r} is shared; a card is {held} the aimed seat's own zone (a per-seat zone)", "CG175"