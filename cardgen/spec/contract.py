"""What a rules module reads from a spec: its contract with the designer's data.

Every rules module declares one :class:`RulesContract`. The validator checks a
spec against the contract of the module it names, statically and with places
(``cardgen validate --no-sim`` included), so that:

* everything the engine reads is present, of the right type and in the range
  the rules can play (a missing number is a finding, never a ``KeyError`` in a
  playout);
* everything in the spec that describes play is read by the engine: a number,
  a setup entry, a deck, a component or a card field that no rule reads is a
  finding, since editing it would change the rulebook but not the game;
* what the engine cannot vary is refused, not silently played another way (a
  deck the rules always lay out whole, copies of a card the rules play once,
  a player count the rules cannot seat).

The contract lives in the spec layer because it describes the spec; a rules
module attaches it to its Game class (``Game.contract``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Literal, Mapping, Union

from cardgen.spec.models import FieldType, Spec
from cardgen.spec.source import PathKey

WHOLE_DECK: Literal["whole-deck"] = "whole-deck"
Layout = Union[tuple[int, int], Literal["whole-deck"]]
"""How the rules use a setup count: a range (they deal or lay out exactly that many, any count in the
range) or ``whole-deck`` (they always lay out every card of the deck, so the count must say so)."""

SpecCheck = Callable[[Spec], Iterable[tuple[PathKey, str]]]
"""A cross-check a rules module states about the values it reads: (path, problem) for each violation."""


@dataclass(frozen=True)
class NumberRule:
    """A number the rules read, with the range they can play."""

    min: int
    max: int
    meaning: str
    effect: str | None = None
    """When set, the rules read this number only for cards carrying that effect: without such a card the
    number is unread (a finding), and with one it is required."""


@dataclass(frozen=True)
class OptionRule:
    """A rule option the rules read (``options.NAME`` in the spec): its choices and the one it takes when left out."""

    choices: tuple[str, ...]
    default: str
    meaning: str


@dataclass(frozen=True)
class DeckRule:
    """A deck the rules read: the fields, effects and card types they act on."""

    fields: Mapping[str, FieldType | tuple[FieldType, ...]] = field(default_factory=dict)
    """Card fields the rules read, with the type(s) they accept."""
    art_fields: frozenset[str] = frozenset()
    """Fields the rules know are drawing only (they carry no play): declared so they are not reported as unread."""
    effects: frozenset[str] = frozenset()
    """The effect ids the rules carry out; a card with another effect is refused."""
    card_types: frozenset[str] | None = None
    """The card types the rules tell apart (None: the rules do not read card types)."""
    open_types: bool = False
    """Whether cards of other types are played too (by their effect); if not, another type is refused."""
    copies: Literal["read", "one"] = "read"
    """``read``: the rules build the deck with every copy; ``one``: they play each card once, so copies must be 1."""
    min_cards: int = 1
    """The fewest distinct cards the rules can play with."""


@dataclass(frozen=True)
class SetupRule:
    """The parts of ``setups`` the rules read, by deck, grid or component id."""

    deal: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Decks dealt to each player (``setups[].deal``): the rules deal exactly that many, within the range."""
    display: Mapping[str, Layout] = field(default_factory=dict)
    """Decks laid out in the middle (``setups[].display``)."""
    grids: Mapping[str, tuple[str, Layout]] = field(default_factory=dict)
    """Grids by name: (deck, how the rules use the grid's size)."""
    pieces: frozenset[str] = frozenset()
    """Shared-supply components handed to each player (``setups[].pieces``)."""


@dataclass(frozen=True)
class ComponentRule:
    """A component the rules read: its count is how many each player gets when ``per_player``."""

    per_player: bool
    min_count: int = 1
    max_count: int = 500


@dataclass(frozen=True)
class DiceRule:
    """Dice the rules roll."""

    count: tuple[int, int]
    sides: tuple[int, int]


@dataclass(frozen=True)
class RulesContract:
    """Everything a rules module reads from a spec, and the values it can play."""

    players: tuple[int, int]
    """The player counts the rules can seat (inclusive)."""
    numbers: Mapping[str, NumberRule] = field(default_factory=dict)
    options: Mapping[str, OptionRule] = field(default_factory=dict)
    """Rule options the rules read; each has a default, so a spec may leave any of them out."""
    decks: Mapping[str, DeckRule] = field(default_factory=dict)
    setup: SetupRule = field(default_factory=SetupRule)
    components: Mapping[str, ComponentRule] = field(default_factory=dict)
    palettes: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """Palettes the rules read, with the range of entries they can play."""
    dice: Mapping[str, DiceRule] = field(default_factory=dict)
    checks: tuple[SpecCheck, ...] = ()
    """Cross-checks between the values the rules read (e.g. enough cards for the drafts), run statically."""
    inert: tuple[SpecCheck, ...] = ()
    """Checks for cards whose effect can never change the game in this spec (a guard against a card that is not
    in the deck, a mirror of shapes that are all symmetric); each problem is reported at the card."""


def read_option(contract: RulesContract, spec: Spec, name: str) -> str:
    """The value of rule option ``name`` in ``spec``: the spec's choice, or the contract's default."""
    return spec.options.get(name, contract.options[name].default)
