"""The spec language: Pydantic models for a whole card game kept as data.

A game lives in ``specs/<game-id>/game.yaml`` (plus optional card sheets). The
models are strict (no silent coercion: ``"5"`` is not ``5``) and forbid unknown
keys, so a typo is a finding, not a silently ignored setting. Enumerations are
``Literal`` strings, which strict validation accepts straight from YAML.

Every field carries a description: they become the JSON Schema that editors use
to autocomplete and underline mistakes, and the reference in ``docs/spec.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from cardgen.links import link_problem
from cardgen.spec.local_text import GENDER_DESCRIPTION, LOCAL_TEXT, Gender, LocalText
from cardgen.spec.rules_field import RulesOnDemand

if TYPE_CHECKING:
    from cardgen.spec.rules_data import RulesData

from cardgen.limits import MAX_CARDS_PER_DECK, MAX_COPIES, MAX_PLAYERS, MAX_PLAYOUTS, MAX_PRINTED_PIECES

# Domain words, named once.
Identifier = Annotated[
    str,
    Field(pattern=r"^[a-z0-9][a-z0-9_\-]*$", max_length=64, description="A lower-case id: letters, digits, '-' and '_'."),
]
LocaleCode = Annotated[str, Field(pattern=r"^[a-z]{2}(_[A-Z]{2})?$", description="A locale such as en or pt_BR.")]


def in_locale(text: str | dict[str, str] | None, locale: str, fallback: str = "en") -> str:
    """A name kept as it is in every language (a plain string), or a LocalText in ``locale`` (else the fallback, else any)."""
    if text is None or isinstance(text, str):
        return text or ""
    return text.get(locale) or text.get(fallback) or next(iter(text.values()), "")


Colour = Annotated[str, Field(pattern=r"^#[0-9a-fA-F]{6}$", description="A colour as #rrggbb.")]


def _checked_link(url: str) -> str:
    problem = link_problem(url)
    if problem is not None:
        raise ValueError(problem)
    return url


Link = Annotated[str, AfterValidator(_checked_link)]
"""A URL printed as a link in rulebooks and on sheets: http, https or mailto only (see cardgen.links)."""
Mm = Annotated[float, Field(gt=0, le=1000, description="A length in millimetres.")]

MAX_GRID_SIDE = 20


class SpecModel(BaseModel):
    """Base of every spec model: strict, closed to unknown keys, immutable."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


# --- metadata -----------------------------------------------------------------


class Licence(SpecModel):
    """The licence the original authors published the game under, and how to credit them."""

    name: str | LocalText = Field(
        description="The licence as the authors state it. A plain string is the licence's own name ('CC BY 4.0'), printed "
        "as it is in every language; a statement in words ('All rights reserved', 'None stated') is given per locale."
    )
    url: Link | None = Field(default=None, description="Where the licence text can be read: an http, https or mailto URL.")
    redistribution: Literal["allowed", "non-commercial", "not-allowed", "unknown"] = Field(
        description="Whether the licence lets others redistribute printed copies: 'allowed', 'non-commercial' "
        "(allowed but not for sale), 'not-allowed' or 'unknown' (no licence stated). Anything but 'allowed' "
        "and 'non-commercial' makes validation warn before release."
    )
    attribution: LocalText = Field(description="The credit line printed on every sheet and in every rulebook.")
    note: LocalText | None = Field(default=None, description="Any further remark on the licence, e.g. a mismatch in the source.")


class Credits(SpecModel):
    """Who made the original game and where its facts were taken from."""

    designers: list[str] = Field(
        description="The original designers, as credited by the source (names, printed as they are). Empty when the source "
        "names none: the rulebook says so in each language."
    )
    publisher: str | None = Field(default=None, description="The original publisher or studio.")
    source: str | LocalText = Field(
        description="The document the facts were taken from, with its version. A plain string is the document's title, "
        "printed as it is in every language; a description in words is given per locale (titles inside it stay as they are)."
    )
    source_url: Link | None = Field(default=None, description="Where the original can be found: an http, https or mailto URL.")
    adaptation: LocalText | None = Field(default=None, description="What this spec adds or designs beyond the source.")


class Range(SpecModel):
    """An inclusive range of whole numbers."""

    min: int = Field(ge=0, description="The smallest value.")
    max: int = Field(ge=0, description="The largest value.")


class PaletteEntry(SpecModel):
    """One member of a palette: a style, a colour, a seat. Told apart by colour and by symbol."""

    id: Identifier
    name: LocalText = Field(description="The name shown to players.")
    colour: Colour = Field(description="The printed colour.")
    symbol: str = Field(min_length=1, max_length=3, description="A letter or glyph printed beside the colour, so the entry can be told apart without colour.")
    symbols: dict[LocaleCode, Annotated[str, Field(min_length=1, max_length=3)]] = Field(
        default_factory=dict,
        description="The symbol in other card languages where it differs from `symbol` (the colour's initial in that language), e.g. {pt_BR: Vm}; cards follow the card language.",
    )
    motif: str | None = Field(default=None, description="The name of a drawn motif widget that also marks this entry (optional).")

    def symbol_in(self, locale: str) -> str:
        """The symbol printed on cards in ``locale``."""
        return self.symbols.get(locale, self.symbol)


class Palette(SpecModel):
    """A named set of distinguishable entries (tile styles, player colours, skull colours)."""

    id: Identifier
    name: LocalText = Field(description="What the palette is, e.g. 'Tile styles'.")
    entries: list[PaletteEntry] = Field(min_length=1, max_length=32, description="The members, in printing order.")


# --- card data -------------------------------------------------------------------

FieldType = Literal[
    "int",
    "text",
    "localised",
    "bool",
    "palette",
    "palette_list",
    "palette_grid",
    "polyomino",
    "pattern",
    "int_list",
    "id",
]


class FieldDef(SpecModel):
    """The declaration of one per-card data field: its type and meaning."""

    type: FieldType = Field(
        description="int; text (a plain string); localised (text in every locale); bool; palette (one entry id of "
        "`palette`); palette_list (a list of entry ids); palette_grid (rows of entry ids); polyomino (a list of "
        "[column, row] cells, edge-connected); pattern (rows of equal length, a letter per cell, '.' = any); "
        "int_list; id (an id of a card in `ref_deck`)."
    )
    description: str = Field(description="What the field means, for the designer and the docs.")
    palette: Identifier | None = Field(default=None, description="For palette fields: the palette the values come from.")
    ref_deck: Identifier | None = Field(default=None, description="For id fields: the deck whose card ids are allowed.")
    min: int | None = Field(default=None, description="For int fields: the smallest allowed value.")
    max: int | None = Field(default=None, description="For int fields: the largest allowed value.")
    required: bool = Field(default=True, description="Whether every card of the deck must give this field.")
    shown: bool = Field(default=True, description="Whether the field is printed on the card (localised fields then need every locale).")
    name: LocalText | None = Field(
        default=None, description="The field's name in every locale ('suit', 'naipe'), for the generated rulebook text of rules data (defaults to the id)."
    )
    gender: dict[str, Gender] = Field(default_factory=dict, description=GENDER_DESCRIPTION)


DataValue = Union[int, float, bool, str, list[int], list[str], list[list[int]], list[list[str]], dict[str, str]]


class CardFace(SpecModel):
    """One face of a two-sided card whose both faces are fronts."""

    name: LocalText | None = Field(default=None, description="The face's name, if it differs from the card's.")
    data: dict[str, DataValue] = Field(default_factory=dict, description="The face's data fields, as the deck declares them.")


class Card(SpecModel):
    """One distinct card design; ``copies`` says how many are printed."""

    id: Identifier
    name: LocalText = Field(description="The card's title in every locale.")
    type: Identifier | None = Field(default=None, description="The card type (one of the deck's card_types).")
    copies: int = Field(
        default=1,
        ge=1,
        le=MAX_COPIES,
        description=f"How many copies of this card the deck holds (at most {MAX_COPIES}; a spec prints at most {MAX_PRINTED_PIECES:,} cards and pieces in all).",
    )
    text: LocalText | None = Field(default=None, description="The effect or flavour text printed on the card.")
    effect: Identifier | None = Field(default=None, description="The effect id the rules engine carries out for this card.")
    data: dict[str, DataValue] = Field(default_factory=dict, description="The card's data fields, as the deck declares them.")
    faces: list[CardFace] | None = Field(default=None, description="For decks whose cards have two front faces: exactly two faces.")


class CardType(SpecModel):
    """A kind of card within a deck (e.g. construction, character)."""

    id: Identifier
    name: LocalText = Field(description="The type's name in every locale.")
    description: LocalText | None = Field(default=None, description="What cards of this type do.")
    colour: Colour | None = Field(default=None, description="The accent colour of this type's cards.")


class CardSize(SpecModel):
    """A card's trim size, bleed and safe margin, in millimetres."""

    width: Mm = Field(description="Trim width in mm.")
    height: Mm = Field(description="Trim height in mm.")
    bleed: float = Field(default=3.0, ge=0, le=10, description="Art extends this far beyond the trim, in mm.")
    safe: float = Field(default=3.0, ge=0, le=20, description="Text and key art stay this far inside the trim, in mm.")
    corner_radius: float = Field(default=3.0, ge=0, le=20, description="The rounded-corner radius drawn on screen previews, in mm.")


SizeName = Literal["poker", "bridge", "mini", "tarot", "square", "tile"]

SIZE_PRESETS: dict[str, tuple[float, float]] = {
    "poker": (63.0, 88.0),
    "bridge": (57.0, 89.0),
    "mini": (44.0, 63.0),
    "tarot": (70.0, 120.0),
    "square": (70.0, 70.0),
    "tile": (25.0, 25.0),
}


class DicePartition(SpecModel):
    """Every total the named dice can roll appears in exactly one card's ``field``."""

    kind: Literal["dice_partition"] = Field(description="The constraint's kind: dice_partition.")
    dice: Identifier = Field(description="The dice whose totals are distributed over the deck.")
    field: str = Field(description="The int_list field holding each card's totals.")


class FacePairing(SpecModel):
    """On two-sided cards, the two faces' ``field`` values must be disjoint sets (complementary)."""

    kind: Literal["face_disjoint"] = Field(description="The constraint's kind: face_disjoint.")
    field: str = Field(description="A palette_list field compared between the two faces.")


class FaceMirror(SpecModel):
    """On two-sided cards, face 2's ``field`` must be the mirror of face 1's, by the table ``pairs``."""

    kind: Literal["face_mirror"] = Field(description="The constraint's kind: face_mirror.")
    field: str = Field(description="The field compared between the two faces.")
    pairs: dict[str, str] = Field(description="Each value and its mirror; a value mapped to itself is its own mirror.")


class AllDistinct(SpecModel):
    """The list in ``field`` holds no repeated value on any card (e.g. four different Originals)."""

    kind: Literal["all_distinct"] = Field(description="The constraint's kind: all_distinct.")
    field: str = Field(description="A palette_list or palette_grid field.")


class SetSizes(SpecModel):
    """Cards sharing a ``set_field`` value number exactly their ``size_field`` value (copies counted)."""

    kind: Literal["set_sizes"] = Field(description="The constraint's kind: set_sizes.")
    set_field: str = Field(description="The field naming each card's set.")
    size_field: str = Field(description="The field stating how many cards complete the set.")


class UniqueValues(SpecModel):
    """No two cards share the same value of ``field``."""

    kind: Literal["unique_values"] = Field(description="The constraint's kind: unique_values.")
    field: str = Field(description="The field whose values must differ between cards.")


class DrawnFrom(SpecModel):
    """On every card (and every face), the values of each of ``fields`` are among the values of ``source``.

    For example a face's markers are drawn from the face's own colours: ``{kind: drawn_from, fields: [top, left],
    source: colours}``. A field left empty on a card is allowed.
    """

    kind: Literal["drawn_from"] = Field(description="The constraint's kind: drawn_from.")
    fields: list[str] = Field(min_length=1, description="The fields whose values must come from `source`.")
    source: str = Field(description="The field (on the same card or face) that lists the allowed values.")


class Monotone(SpecModel):
    """Across the cards that give both, ``field`` never falls as ``by`` rises (or never rises, with ``decreasing``).

    For example points that grow with a card's level: ``{kind: monotone, field: points, by: level}``.
    """

    kind: Literal["monotone"] = Field(description="The constraint's kind: monotone.")
    field: str = Field(description="The int field that must follow `by`.")
    by: str = Field(description="The int field it follows (a level, a cost).")
    direction: Literal["increasing", "decreasing"] = Field(default="increasing", description="Whether `field` grows (increasing) or shrinks as `by` grows.")
    strict: bool = Field(default=False, description="Whether cards with a larger `by` must have a strictly larger (or smaller) `field`.")


DeckConstraint = Annotated[
    Union[DicePartition, FacePairing, FaceMirror, AllDistinct, SetSizes, UniqueValues, DrawnFrom, Monotone],
    Field(discriminator="kind"),
]


class Deck(SpecModel):
    """A deck of cards: their size, faces, data fields and the cards themselves."""

    id: Identifier
    name: LocalText = Field(description="The deck's name in every locale, as the component list shows it.")
    description: LocalText | None = Field(default=None, description="What the deck is for.")
    size: SizeName | CardSize = Field(default="poker", description="A named size (poker 63x88, bridge, mini, tarot, square, tile) or an explicit size.")
    double_sided: bool = Field(default=False, description="True when both faces are fronts (each card lists two faces).")
    layout: str | None = Field(default=None, description="The face layout to draw cards with: a file in the spec folder (or its layouts/), or one bundled with the rules module.")
    back: LocalText | None = Field(default=None, description="The title printed on the card back (single-sided decks).")
    card_types: list[CardType] = Field(default_factory=list, description="The kinds of card in the deck.")
    fields: dict[str, FieldDef] = Field(default_factory=dict, description="The per-card data fields and their types.")
    constraints: list[DeckConstraint] = Field(default_factory=list, description="Cross-card rules the validator proves.")
    cards: list[Card] = Field(
        default_factory=list,
        max_length=MAX_CARDS_PER_DECK,
        description=f"The cards, written in the YAML (with the card sheet's rows, at most {MAX_CARDS_PER_DECK:,} per deck).",
    )
    cards_file: str | None = Field(default=None, description="A CSV card sheet beside game.yaml; its rows are added to `cards`.")


class Component(SpecModel):
    """Tiles, markers and tokens: pieces that are not cards."""

    id: Identifier
    name: LocalText = Field(description="The component's name in every locale.")
    kind: Literal["tile", "marker", "token"] = Field(description="What the piece is.")
    shape: Literal["square", "circle"] = Field(default="square", description="The printed outline.")
    size: SizeName | CardSize = Field(default="tile", description="The printed size.")
    palette: Identifier | None = Field(default=None, description="When set, the count is per palette entry (e.g. per style).")
    count: int = Field(ge=1, le=MAX_COPIES, description="How many: per palette entry when `palette` is set, and per player when `per_player`.")
    per_player: bool = Field(default=False, description="Whether each player gets `count` of them.")
    player_mark: bool = Field(default=False, description="Whether each piece carries its owner's seat mark.")


class Dice(SpecModel):
    """A set of identical dice rolled together."""

    id: Identifier
    name: LocalText = Field(description="The dice's name in every locale.")
    count: int = Field(ge=1, le=10, description="How many dice are rolled together.")
    sides: int = Field(ge=2, le=100, description="Sides per die, numbered 1 to sides.")


# --- setup and rules -----------------------------------------------------------


class Grid(SpecModel):
    """Cards from a deck laid face up in a grid at setup."""

    deck: Identifier = Field(description="The deck the grid's cards come from.")
    columns: int = Field(ge=1, le=MAX_GRID_SIDE, description="Cards across.")
    rows: int = Field(ge=1, le=MAX_GRID_SIDE, description="Cards down.")


class Setup(SpecModel):
    """What is dealt and laid out for one player count."""

    players: int = Field(ge=1, le=MAX_PLAYERS, description="The player count this setup is for.")
    deal: dict[str, int] = Field(default_factory=dict, description="Cards dealt to each player, by deck id.")
    grids: dict[str, Grid] = Field(default_factory=dict, description="Named grids of cards laid out, e.g. the mural.")
    display: dict[str, int] = Field(default_factory=dict, description="Cards laid face up in the middle, by deck id.")
    pieces: dict[str, int] = Field(default_factory=dict, description="Components given to each player, by component id (per palette entry when it has one).")
    notes: LocalText | None = Field(default=None, description="Anything else about this setup.")


class Clarification(SpecModel):
    """A numbered reading of the rules where the source is silent or ambiguous; printed in the rulebook."""

    number: int = Field(ge=1, description="The clarification's number, unique in the spec.")
    topic: str = Field(description="A short English label for the docs.")
    text: LocalText = Field(description="The reading, in every locale.")


class StatedCount(SpecModel):
    """A count the source rulebook states, to be checked against the spec's components."""

    of: str = Field(pattern=r"^[a-z0-9][a-z0-9_\-]*(/[a-z0-9][a-z0-9_\-]*)?$", description="A deck id, a card type or a card as deck/type or deck/card-id, or a component id.")
    count: int = Field(ge=0, description="The count the source states.")
    where: str = Field(description="Where the source says so.")


class TextSection(SpecModel):
    """A titled piece of rules prose."""

    id: Identifier
    title: LocalText = Field(description="The heading.")
    example: bool = Field(
        default=False,
        description="A worked example: its numbers illustrate one game, so they must agree between locales but need not be references.",
    )
    text: LocalText = Field(description="The prose; it names the spec's facts instead of repeating them: {numbers.NAME}, {deck.ID}, {component.ID}, {setup.deal.DECK}, {effect:ID} and the others under References in text.")


class RulesText(SpecModel):
    """The game's own rules prose, written for this project in every locale."""

    overview: LocalText = Field(description="What the game is about, in a paragraph.")
    goal: LocalText = Field(description="How to win.")
    setup: list[TextSection] = Field(default_factory=list, description="Setup steps in prose (the setup table itself is made from `setups`).")
    turn: list[TextSection] = Field(default_factory=list, description="The steps of a turn, in order.")
    scoring: list[TextSection] = Field(default_factory=list, description="How points are scored.")
    end: LocalText = Field(description="When and how the game ends.")
    tiebreakers: list[TextSection] = Field(default_factory=list, description="Tiebreakers, in the order they apply.")
    solo: LocalText | None = Field(default=None, description="Rules for a single player, where the game has them.")
    extra: list[TextSection] = Field(default_factory=list, description="Any other sections (special cases, variants).")


class BalanceThresholds(SpecModel):
    """Thresholds the balance check reads; defaults suit most games."""

    max_seat_gap: float = Field(default=0.15, ge=0, le=1, description="Warn when two seats' win rates differ by more than this.")
    min_skill_edge: float = Field(default=0.55, ge=0, le=1, description="Warn when the planning agent beats random less often than this.")
    interval_half_width: float = Field(default=0.05, gt=0, le=0.5, description="How tight the 95% interval on a seat's win rate should be.")
    quick_playouts: int = Field(default=200, ge=1, le=100_000, description="Playouts per player count in the quick check inside validate.")
    max_playouts: int = Field(default=20_000, ge=1, le=MAX_PLAYOUTS, description="Upper limit on playouts per player count.")


if TYPE_CHECKING:
    Rules = Union[Identifier, RulesData]
else:
    Rules = Annotated[object, RulesOnDemand(Identifier)]
"""A rules module's id, or the rules as data: a mapping is rules data, anything else a module id (so a mistake in
rules data is reported against the rules data alone, not also as "not a string"). The rules-data models load only
for a spec that holds rules data (:mod:`cardgen.spec.rules_field`)."""


class Spec(SpecModel):
    """A whole game: metadata, components, setup, the numbers the rules read, and its prose."""

    spec_version: Literal[1] = Field(description="The version of the spec language; currently 1.")
    id: Identifier = Field(description="The game's id, also its folder name under specs/.")
    title: LocalText = Field(description="The game's title in every locale.")
    tagline: LocalText | None = Field(default=None, description="A one-line description.")
    version: str = Field(description="The version of this spec (and of the source rules it follows).")
    locales: list[LocaleCode] = Field(min_length=1, description="The locales every text must be given in; the first is the source language.")
    credits: Credits = Field(description="The original designers, publisher and the source the facts come from.")
    licence: Licence = Field(description="The original licence and the credit line printed everywhere.")
    players: Range = Field(description="Supported player counts.")
    play_time_minutes: Range = Field(description="Typical play time.")
    min_age: int = Field(ge=0, le=99, description="The youngest age the game suits.")
    rules: Rules | None = Field(
        default=None,
        description="How the game is played, for simulation: the id of a registered rules module (Python, for named mechanics), "
        "or the rules as data (zones, setup, turn, effects, end, scoring) played by the generic interpreter; none: no simulation.",
    )
    package: Identifier | None = Field(
        default=None,
        description="The game package whose layouts, widgets and rulebook figures a spec written as rules data (or without rules) uses; "
        "by default the one registered under the spec's own id. A variant of a shipped game, copied under a new id, names the "
        "original's (`package: keramikos`) to keep its card faces. A spec naming a rules module, or using a named mechanic, takes that "
        "module's or mechanic's package (CG215).",
    )
    palettes: list[Palette] = Field(default_factory=list, description="Styles, colours and seats, each told apart by colour and symbol.")
    seats: Identifier | None = Field(default=None, description="The palette whose entries mark the players' pieces, in seat order.")
    decks: list[Deck] = Field(default_factory=list, description="The card decks.")
    components: list[Component] = Field(default_factory=list, description="Tiles, markers and tokens.")
    dice: list[Dice] = Field(default_factory=list, description="Dice.")
    setups: list[Setup] = Field(min_length=1, description="What is dealt for each supported player count.")
    numbers: dict[str, int] = Field(default_factory=dict, description="The numbers the rules read (hand limits, points, bonuses, thresholds), by name.")
    options: dict[str, Identifier] = Field(
        default_factory=dict,
        description="Rule options the rules module offers (a reading of the source, a variant), by name: each value is one of the choices the module declares; an option left out takes its default.",
    )
    stated_counts: list[StatedCount] = Field(default_factory=list, description="Counts the source rulebook states, checked against the components.")
    strings: dict[str, LocalText] = Field(default_factory=dict, description="Other localised labels printed on cards (e.g. 'Level').")
    rules_text: RulesText = Field(description="The rules prose of the rulebook, written for this project in every locale.")
    clarifications: list[Clarification] = Field(default_factory=list, description="Numbered readings where the source is silent or ambiguous.")
    glossary: list[LocalText] = Field(
        default_factory=list,
        description="Terms translated one way only, each given in every locale (after the game's own translated rulebook where one exists): "
        "wherever a text uses a term in the first locale, its other locales must use that term's translation.",
    )
    balance: BalanceThresholds = Field(
        # (made, not validated: the defaults are the model's own; validating them built its schema apart from the spec's)
        default_factory=BalanceThresholds.model_construct,
        description="Thresholds for the balance report.",
    )

    @property
    def rules_module(self) -> str | None:
        """The id of the registered rules module the spec names (None: no rules, or rules as data)."""
        return self.rules if isinstance(self.rules, str) else None

    @property
    def package_id(self) -> str | None:
        """The id a game package registers its layouts and figures under for this spec: the rules module it names,
        else the package it names (``package:``), else for a game written as rules data the spec's own id (its package
        keeps widgets, layouts and figures)."""
        if self.rules_module is not None:
            return self.rules_module
        if self.package is not None:
            return self.package
        return self.id if self.rules_data is not None else None

    @property
    def rules_data(self) -> RulesData | None:
        """The rules as data, when the spec describes its play itself."""
        return None if self.rules is None or isinstance(self.rules, str) else self.rules
