"""The spec checked against the contract of the rules module it names (see :mod:`cardgen.spec.contract`).

Static, with places: a missing number is reported at ``numbers`` before any
playout, a number the rules cannot play at its own line, and every value that
describes play but that the rules never read is reported where it is written,
since editing it would change the rulebook and not the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Protocol

from cardgen.findings import Finding, Severity
from cardgen.spec.load import LoadedSpec
from cardgen.spec.models import Spec
from cardgen.spec.source import PathKey
from cardgen.validate.registry import check, register_codes
from cardgen.validate.static import card_data_well_typed

if TYPE_CHECKING:  # (a spec without rules has no contract: its run need not load the contract's classes)
    from cardgen.spec.contract import Layout, RulesContract

ERROR = Severity.ERROR


class _Make(Protocol):
    """Makes an error finding at a spec path (each part check is handed one)."""

    def __call__(self, code: str, path: PathKey, message: str, hint: str = "") -> Finding: ...


register_codes(
    {
        "CG170": "The spec lacks something its rules module reads (a number, deck, card field, palette, component, dice or setup entry).",
        "CG171": "A value lies outside what the rules module can play (a number's range, an effect or card type it does not know, copies of a card it plays once, a deck it always lays out whole).",
        "CG172": "A value describes play but the rules module never reads it, so changing it would change the rulebook and not the game.",
        "CG173": "A player count the rules module cannot seat.",
        "CG174": "A card's effect can never change the game in this spec (what it acts on is not in the game, or acting changes nothing).",
    }
)


def _contract(spec: Spec) -> RulesContract | None:
    if spec.rules is None:
        return None
    from cardgen.engine.core import spec_contract  # the registry of rules modules; games register themselves

    return spec_contract(spec)


@check("rules-contract", "static")
def rules_contract(loaded: LoadedSpec) -> Iterator[Finding]:
    """Everything the named rules module reads is present and playable, and everything that describes play is read."""
    assert loaded.spec is not None
    spec = loaded.spec
    contract = _contract(spec)
    if contract is None:
        return
    rules = spec.rules_module or "spec's own"

    def finding(code: str, path: PathKey, message: str, hint: str = "") -> Finding:
        return loaded.place_finding(code, ERROR, path, message, hint)

    yield from _players(spec, contract, rules, finding)
    yield from _numbers(spec, contract, rules, finding)
    yield from _options(spec, contract, rules, finding)
    yield from _decks(spec, contract, rules, finding)
    yield from _setups(spec, contract, rules, finding)
    yield from _components(spec, contract, rules, finding)
    yield from _palettes_and_dice(spec, contract, rules, finding)
    if not card_data_well_typed(spec):
        return  # the cross-checks compute over card values; CG103/CG104 name the ill-typed ones first
    for cross_check in contract.checks:
        for path, problem in cross_check(spec):
            yield finding("CG171", path, f"{problem} (the {rules} rules)")
    for inert_check in contract.inert:
        for path, problem in inert_check(spec):
            yield finding("CG174", path, problem, "remove the card, or add what its effect acts on")


def _players(spec: Spec, contract: RulesContract, rules: object, finding: _Make) -> Iterator[Finding]:
    lo, hi = contract.players
    seats = f"{lo}" if lo == hi else f"{lo} to {hi}"
    if spec.players.min < lo:
        yield finding("CG173", ("players", "min"), f"the {rules} rules seat {seats} players, not {spec.players.min}", f"set players.min to {lo} or more")
    if spec.players.max > hi:
        yield finding("CG173", ("players", "max"), f"the {rules} rules seat {seats} players, not {spec.players.max}", f"set players.max to {hi} or less")
    for index, setup in enumerate(spec.setups):
        if not lo <= setup.players <= hi:
            yield finding("CG173", ("setups", index, "players"), f"a setup for {setup.players} players, but the {rules} rules seat {seats}", "remove this setup")


def _numbers(spec: Spec, contract: RulesContract, rules: object, finding: _Make) -> Iterator[Finding]:
    effects = {card.effect for deck in spec.decks for card in deck.cards if card.effect}
    read = {name: rule for name, rule in contract.numbers.items() if rule.effect is None or rule.effect in effects}
    for name, rule in read.items():
        if name not in spec.numbers:
            yield finding("CG170", ("numbers",), f"the {rules} rules read numbers.{name} ({rule.meaning}), which the spec does not define", f"add `{name}:` with a value from {rule.min} to {rule.max}")
    for name, value in spec.numbers.items():
        read_rule = read.get(name)
        if read_rule is None:
            unused = contract.numbers.get(name)
            if unused is not None and unused.effect is not None:
                why = f"no card carries effect {unused.effect!r}, so the {rules} rules never read it"
            else:
                why = f"the {rules} rules do not read it; they read: {', '.join(sorted(contract.numbers)) or 'no number'}"
            yield finding("CG172", ("numbers", name), f"numbers.{name} describes nothing that is played: {why}", "delete it, or state it where the rules read it")
        elif not read_rule.min <= value <= read_rule.max:
            yield finding(
                "CG171", ("numbers", name), f"numbers.{name} is {value}, but the {rules} rules play {read_rule.min} to {read_rule.max} ({read_rule.meaning})"
            )


def _options(spec: Spec, contract: RulesContract, rules: object, finding: _Make) -> Iterator[Finding]:
    for name, value in spec.options.items():
        rule = contract.options.get(name)
        if rule is None:
            known = ", ".join(sorted(contract.options)) or "none"
            yield finding("CG172", ("options", name), f"options.{name} is not an option of the {rules} rules", f"the options they read: {known}")
        elif value not in rule.choices:
            yield finding("CG171", ("options", name), f"options.{name} is {value!r}, but the {rules} rules offer {', '.join(rule.choices)} ({rule.meaning})")


def _decks(spec: Spec, contract: RulesContract, rules: object, finding: _Make) -> Iterator[Finding]:
    present = {deck.id for deck in spec.decks}
    for deck_id in contract.decks:
        if deck_id not in present:
            yield finding("CG170", ("decks",), f"the {rules} rules play a deck {deck_id!r}, which the spec does not define", f"add a deck with id {deck_id!r}")
    for d_index, deck in enumerate(spec.decks):
        base: PathKey = ("decks", d_index)
        rule = contract.decks.get(deck.id)
        if rule is None:
            yield finding("CG172", base + ("id",), f"deck {deck.id!r} is not played by the {rules} rules", f"they play: {', '.join(sorted(contract.decks)) or 'no deck'}")
            continue
        if len(deck.cards) < rule.min_cards:
            yield finding("CG171", base + ("cards",), f"deck {deck.id!r} has {len(deck.cards)} distinct card(s); the {rules} rules need at least {rule.min_cards}")
        for name, wanted in rule.fields.items():
            types = wanted if isinstance(wanted, tuple) else (wanted,)
            declared = deck.fields.get(name)
            if declared is None:
                yield finding("CG170", base + ("fields",), f"the {rules} rules read field {name!r} of deck {deck.id!r}, which it does not declare", f"declare `{name}:` of type {' or '.join(types)}")
            elif declared.type not in types:
                yield finding("CG171", base + ("fields", name, "type"), f"field {name!r} is {declared.type}, but the {rules} rules read it as {' or '.join(types)}")
        for name in deck.fields:
            if name not in rule.fields and name not in rule.art_fields:
                yield finding("CG172", base + ("fields", name), f"field {name!r} of deck {deck.id!r} is not read by the {rules} rules", "delete it, or mark what it means in a field the rules read")
        types_known = {t.id for t in deck.card_types}
        if rule.card_types is not None:
            for type_id in sorted(rule.card_types - types_known):
                yield finding("CG170", base + ("card_types",), f"the {rules} rules tell cards of type {type_id!r} apart, which deck {deck.id!r} does not declare")
        for c_index, card in enumerate(deck.cards):
            cbase = base + ("cards", c_index)
            if card.effect is not None and card.effect not in rule.effects:
                known = ", ".join(sorted(rule.effects)) or "none"
                yield finding("CG171", cbase + ("effect",), f"card {card.id!r} has effect {card.effect!r}, which the {rules} rules do not carry out", f"effects they know: {known}")
            if rule.card_types is not None and not rule.open_types and card.type is not None and card.type not in rule.card_types:
                yield finding("CG171", cbase + ("type",), f"card {card.id!r} is of type {card.type!r}, which the {rules} rules do not know", f"types they know: {', '.join(sorted(rule.card_types))}")
            if rule.copies == "one" and card.copies != 1:
                yield finding("CG171", cbase + ("copies",), f"card {card.id!r} has {card.copies} copies, but the {rules} rules play each card of deck {deck.id!r} once", "make it two distinct cards, or keep copies: 1")


def _layout_problem(spec: Spec, deck_id: str, layout: Layout, count: int) -> str:
    if isinstance(layout, tuple):
        lo, hi = layout
        return "" if lo <= count <= hi else f"the rules play {lo} to {hi} here"
    deck = next((d for d in spec.decks if d.id == deck_id), None)
    total = sum(c.copies for c in deck.cards) if deck else 0
    return "" if count == total else f"the rules lay out every card of deck {deck_id!r} ({total}), so this count must be {total}"


def _setups(spec: Spec, contract: RulesContract, rules: object, finding: _Make) -> Iterator[Finding]:
    wanted = contract.setup
    for s_index, setup in enumerate(spec.setups):
        base: PathKey = ("setups", s_index)
        for part, read in (("deal", set(wanted.deal)), ("display", set(wanted.display)), ("grids", set(wanted.grids)), ("pieces", set(wanted.pieces))):
            given: dict[str, object] = getattr(setup, part)
            for key in sorted(read - set(given)):
                yield finding("CG170", base + (part,), f"the {rules} rules read setups[].{part}.{key}, which the setup for {setup.players} players does not give", f"add `{key}:` under `{part}`")
            for key in given:
                if key not in read:
                    yield finding("CG172", base + (part, key), f"setups[].{part}.{key} is not read by the {rules} rules", f"they read under `{part}`: {', '.join(sorted(read)) or 'nothing'}")
        for deck_id, (lo, hi) in wanted.deal.items():
            dealt = setup.deal.get(deck_id)
            if dealt is not None and not lo <= dealt <= hi:
                yield finding("CG171", base + ("deal", deck_id), f"{dealt} card(s) of {deck_id!r} dealt to each player, but the {rules} rules deal {lo} to {hi}")
        for deck_id, layout in wanted.display.items():
            count = setup.display.get(deck_id)
            problem = _layout_problem(spec, deck_id, layout, count) if count is not None else ""
            if problem:
                yield finding("CG171", base + ("display", deck_id), f"{count} card(s) of {deck_id!r} on display: {problem}")
        for name, (deck_id, layout) in wanted.grids.items():
            grid = setup.grids.get(name)
            if grid is None:
                continue
            if grid.deck != deck_id:
                yield finding("CG171", base + ("grids", name, "deck"), f"the {rules} rules lay grid {name!r} from deck {deck_id!r}, not {grid.deck!r}")
            problem = _layout_problem(spec, deck_id, layout, grid.columns * grid.rows)
            if problem:
                yield finding("CG171", base + ("grids", name), f"grid {name!r} of {grid.columns}x{grid.rows}: {problem}")


def _components(spec: Spec, contract: RulesContract, rules: object, finding: _Make) -> Iterator[Finding]:
    present = {c.id for c in spec.components}
    for comp_id in contract.components:
        if comp_id not in present:
            yield finding("CG170", ("components",), f"the {rules} rules use component {comp_id!r}, which the spec does not define", f"add a component with id {comp_id!r}")
    for c_index, component in enumerate(spec.components):
        base: PathKey = ("components", c_index)
        rule = contract.components.get(component.id)
        if rule is None:
            if component.id not in contract.setup.pieces:
                yield finding("CG172", base + ("id",), f"component {component.id!r} is not used by the {rules} rules", "delete it, or use it in a setup the rules read")
            continue
        if component.per_player != rule.per_player:
            how = "given to each player" if rule.per_player else "a shared supply"
            yield finding("CG171", base + ("per_player",), f"the {rules} rules read {component.id!r} as {how}", f"set per_player: {str(rule.per_player).lower()}")
        if not rule.min_count <= component.count <= rule.max_count:
            yield finding("CG171", base + ("count",), f"{component.id!r} count is {component.count}, but the {rules} rules play {rule.min_count} to {rule.max_count}")


def _palettes_and_dice(spec: Spec, contract: RulesContract, rules: object, finding: _Make) -> Iterator[Finding]:
    palettes = {p.id: (index, p) for index, p in enumerate(spec.palettes)}
    for palette_id, (lo, hi) in contract.palettes.items():
        if palette_id not in palettes:
            yield finding("CG170", ("palettes",), f"the {rules} rules read palette {palette_id!r}, which the spec does not define")
            continue
        index, palette = palettes[palette_id]
        if not lo <= len(palette.entries) <= hi:
            yield finding("CG171", ("palettes", index, "entries"), f"palette {palette_id!r} has {len(palette.entries)} entries; the {rules} rules play {lo} to {hi}")
    dice = {d.id: (index, d) for index, d in enumerate(spec.dice)}
    for dice_id, rule in contract.dice.items():
        if dice_id not in dice:
            yield finding("CG170", ("dice",), f"the {rules} rules roll dice {dice_id!r}, which the spec does not define")
            continue
        index, die = dice[dice_id]
        if not rule.count[0] <= die.count <= rule.count[1]:
            yield finding("CG171", ("dice", index, "count"), f"{die.count} dice {dice_id!r}, but the {rules} rules roll {rule.count[0]} to {rule.count[1]}")
        if not rule.sides[0] <= die.sides <= rule.sides[1]:
            yield finding("CG171", ("dice", index, "sides"), f"dice {dice_id!r} have {die.sides} sides, but the {rules} rules play {rule.sides[0]} to {rule.sides[1]}")
    for index, die in enumerate(spec.dice):
        if die.id not in contract.dice:
            yield finding("CG172", ("dice", index, "id"), f"dice {die.id!r} are not rolled by the {rules} rules")
