"""What a named mechanic declares, where rules data uses one, the contract merged with its own, and the checks of its uses.

See :mod:`cardgen.spec.rules_mechanics` for the rules-data models and
:mod:`cardgen.engine.mechanics` for the registry. Spec-layer code, so the
validator and the rulebook read a declaration without playing anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Iterable, Iterator, Mapping

from cardgen.spec.contract import DeckRule, RulesContract, SetupRule
from cardgen.spec.rules_data import RulesData
from cardgen.spec.rules_mechanics import MechanicEffect, MechanicScore, MechanicStep, UseKind
from cardgen.spec.source import PathKey


@dataclass(frozen=True)
class MechanicZone:
    """A zone of the rules data a mechanic reads or fills, by the name the rules data must give it."""

    per_seat: bool
    meaning: str
    fills: bool = False
    """Whether the mechanic puts cards into the zone (so a card choice from it may be offered: no CG180)."""


@dataclass(frozen=True)
class CountedPhrase:
    """A mechanic's phrase with plural forms (marked with ``NP_``), chosen by one of the spec's numbers.

    ``count`` is the placeholder whose value picks the form (``numbers.add_tile_count``), so "up to 1 tile"
    and "up to 2 tiles" are both said right, in every locale's own plural rule.
    """

    forms: tuple[str, str]
    count: str

    def __post_init__(self) -> None:
        if not self.count.startswith("numbers."):
            raise ValueError(f"a counted phrase is chosen by one of the spec's numbers ('numbers.NAME'), not {self.count!r}")


Phrase = str | CountedPhrase
"""A mechanic's phrase for one use: a gettext message, or one with plural forms."""


@dataclass(frozen=True)
class MechanicDeclaration:
    """What a named mechanic offers and reads: checked against the rules data before anything is played.

    Every name in ``actions``, ``effects``, ``setups`` and ``scores`` maps to its phrase: an English
    gettext message (marked with ``N_`` in the package's ``phrases.py``, so the rulebook catalog carries
    its translations) that the generated rulebook says for that use; it may name the spec's numbers
    and setup entries as ``%(numbers.NAME)s`` / ``%(setup.display.DECK)s``, filled from the spec. A phrase
    naming a count of things is a :class:`CountedPhrase`, so its noun agrees with the number.
    """

    name: str
    package: str
    """The game package registering it: its layouts, figures and solver serve a spec using the mechanic."""
    contract: RulesContract
    """What the mechanic reads from the spec (merged into the rules data's derived contract)."""
    zones: Mapping[str, MechanicZone] = field(default_factory=dict)
    actions: Mapping[str, Phrase] = field(default_factory=dict)
    effects: Mapping[str, Phrase] = field(default_factory=dict)
    setups: Mapping[str, Phrase] = field(default_factory=dict)
    scores: Mapping[str, Phrase] = field(default_factory=dict)
    conditions: Mapping[str, str] = field(default_factory=dict)
    """Questions about the position (``mechanic(NAME, CONDITION)``); each phrase completes "The game ends as soon as ..."."""
    negations: Mapping[str, str] = field(default_factory=dict)
    """For a condition, the phrase saying it does not hold ("no bonus of yours is waiting"), where the
    generic "it is not so that ..." would read badly; a condition without one is said with that."""

    def __post_init__(self) -> None:
        unknown = sorted(set(self.negations) - set(self.conditions))
        if unknown:
            raise ValueError(f"mechanic {self.name!r}: negations of undeclared conditions {unknown}")

    def offers(self, kind: UseKind) -> Mapping[str, Phrase]:
        """The names (with their phrases) the mechanic declares for one kind of use."""
        return {"action": self.actions, "effect": self.effects, "setup": self.setups, "score": self.scores, "condition": self.conditions}[kind]


def mechanic_fills(rules: RulesData, declarations: Mapping[str, MechanicDeclaration | None]) -> frozenset[str]:
    """The zones of ``rules`` that a listed mechanic declares it puts cards into."""
    return frozenset(
        zone for name in rules.mechanics for zone, need in getattr(declarations.get(name), "zones", {}).items() if need.fills and zone in rules.zones
    )


def mechanic_uses(rules: RulesData) -> Iterator[tuple[PathKey, str, UseKind, str]]:
    """(path of the item, mechanic name, kind of use, name used) of every mechanic use in ``rules``."""
    for i, step in enumerate(rules.setup):
        if isinstance(step, MechanicStep):
            yield ("rules", "setup", i, "mechanic"), step.mechanic.name, "setup", step.mechanic.setup
    for i, turn_step in enumerate(rules.turn):
        for j, option in enumerate(turn_step.options):
            if option.mechanic is not None:
                yield ("rules", "turn", i, "options", j, "mechanic"), option.mechanic.name, "action", option.mechanic.action
            for k, effect in enumerate(option.do):
                if isinstance(effect, MechanicEffect):
                    yield ("rules", "turn", i, "options", j, "do", k, "mechanic"), effect.mechanic.name, "effect", effect.mechanic.effect
    for effect_id, effects in rules.effects.items():
        for k, effect in enumerate(effects):
            if isinstance(effect, MechanicEffect):
                yield ("rules", "effects", effect_id, k, "mechanic"), effect.mechanic.name, "effect", effect.mechanic.effect
    for i, item in enumerate(rules.scoring):
        if isinstance(item, MechanicScore):
            yield ("rules", "scoring", i, "mechanic"), item.mechanic.name, "score", item.mechanic.score
    if rules.end.mechanic is not None:
        yield ("rules", "end", "mechanic"), rules.end.mechanic.name, "condition", rules.end.mechanic.condition


def with_mechanics(base: RulesContract, declarations: list[MechanicDeclaration]) -> RulesContract:
    """The contract of rules data (``base``, derived from what its expressions read) with what its mechanics read.

    A number, option, setup entry, component, palette or dice a mechanic declares is added (the
    mechanic's range wins over the data's wide one); a deck's fields are the union of both, and a
    field a mechanic reads is no longer counted as drawing only; the player counts are those both allow.
    """
    merged = base
    for declaration in declarations:
        extra = declaration.contract
        decks = dict(merged.decks)
        for deck_id, rule in extra.decks.items():
            known = decks.get(deck_id)
            if known is None:
                decks[deck_id] = rule
                continue
            fields = {**known.fields, **rule.fields}
            decks[deck_id] = DeckRule(
                fields=fields,
                art_fields=frozenset((known.art_fields | rule.art_fields) - set(fields)),
                effects=known.effects | rule.effects,
                card_types=known.card_types if rule.card_types is None else rule.card_types,
                open_types=known.open_types,
                copies="one" if "one" in (known.copies, rule.copies) else "read",
                min_cards=max(known.min_cards, rule.min_cards),
            )
        setup = SetupRule(
            deal={**merged.setup.deal, **extra.setup.deal},
            display={**merged.setup.display, **extra.setup.display},
            grids={**merged.setup.grids, **extra.setup.grids},
            pieces=merged.setup.pieces | extra.setup.pieces,
        )
        merged = replace(
            merged,
            players=(max(merged.players[0], extra.players[0]), min(merged.players[1], extra.players[1])),
            numbers={**merged.numbers, **extra.numbers},
            options={**merged.options, **extra.options},
            decks=decks,
            setup=setup,
            components={**merged.components, **extra.components},
            palettes={**merged.palettes, **extra.palettes},
            dice={**merged.dice, **extra.dice},
            checks=merged.checks + extra.checks,
            inert=merged.inert + extra.inert,
        )
    return merged


def mechanic_problems(
    rules: RulesData,
    declarations: Mapping[str, MechanicDeclaration | None],
    known: list[str],
    conditions: Iterable[tuple[PathKey, str, str]] = (),
) -> Iterator[tuple[PathKey, str]]:
    """(path, problem) of every mechanic use the interpreter could not play (CG175).

    ``declarations`` gives the registered declaration of each name in ``rules.mechanics`` (None:
    nothing registered it); ``known`` every registered mechanic's name, for the message; ``conditions``
    the (path, mechanic, condition) of every ``mechanic(NAME, CONDITION)`` the expressions ask.
    """
    listed: set[str] = set()
    for i, name in enumerate(rules.mechanics):
        path: PathKey = ("rules", "mechanics", i)
        if name in listed:
            yield path, f"mechanic {name!r} is listed twice"
            continue
        listed.add(name)
        declaration = declarations.get(name)
        if declaration is None:
            yield path, f"no mechanic {name!r} is registered (known: {', '.join(known) or 'none'}); a game package or an installed distribution registers it"
            continue
        for zone, need in declaration.zones.items():
            have = rules.zones.get(zone)
            if have is None:
                yield path, f"mechanic {name!r} needs a zone {zone!r} ({need.meaning})"
            elif have.per_seat != need.per_seat:
                yield path, f"mechanic {name!r} needs zone {zone!r} {'per seat' if need.per_seat else 'shared'} ({need.meaning})"
    for path, name, kind, item in mechanic_uses(rules):
        if name not in listed:
            yield path, f"mechanic {name!r} is not listed under rules.mechanics ({', '.join(rules.mechanics) or 'none'})"
            continue
        declaration = declarations.get(name)
        if declaration is not None and item not in declaration.offers(kind):
            offered = ", ".join(declaration.offers(kind)) or "none"
            yield path, f"mechanic {name!r} has no {kind} {item!r} (its {kind}s: {offered})"
    for path, name, condition in conditions:
        declaration = declarations.get(name)
        if declaration is not None and condition not in declaration.conditions:
            offered = ", ".join(declaration.conditions) or "none"
            yield path, f"mechanic {name!r} has no condition {condition!r} (its conditions: {offered})"
    for i, turn_step in enumerate(rules.turn):
        for j, option in enumerate(turn_step.options):
            if option.mechanic is not None and (option.card is not None or option.target is not None):
                yield ("rules", "turn", i, "options", j, "mechanic"), f"option {option.id!r} chooses a mechanic's action and also a card or a seat; it may choose one thing"
