"""A Keramikos position as the planner and the figures read it, taken from the data game's state.

Keramikos is played by the interpreter from its rules data: the dig sites are a row of piles (``stacks``, the
cards still buried, and ``marked``, the cards marked this turn, one pile of each under every site), the markers
on empty sites a counter kept per pile (``site_mark``), the markers the active seat has left this turn a counter
(``markers``, from ``component.marker.count`` down),
the dice a variable (``rolled``, ``double``). :func:`position` reads them off a
:class:`~cardgen.engine.interpreter.DataState` as plain facts (:class:`Dig`); :func:`facts` gives the fixed facts of
the game (the cards, the sites, the set scorer of the rules' ``sets`` item, the options by their keys), and
:func:`key_of` / :func:`action_of` turn an action into its option's key and back, so a reader chooses options by
what they are called in the spec, never by a number.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.engine.core import Action, Game, State
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.engine.interpreter.sets import SetsScorer

ROWS = ("stacks", "marked")
"""The two rows of piles under the dig sites: the cards buried, the cards marked this turn."""


@dataclass(frozen=True)
class Facts:
    """The fixed facts of a Keramikos data game at one player count."""

    game: DataGame
    card_ids: list[str]
    """Design -> card id (what zones hold and card choices name)."""
    sites: list[int]
    """Pile -> the design of the dig site it lies under, left to right."""
    scorer: SetsScorer
    """The rules' ``sets`` scoring item: set of each design, sizes, points, wild cards."""
    pottery: list[bool]
    """Design -> whether it is a card of a set (pottery)."""
    markers: int
    """The markers each player owns (``component.marker.count``)."""
    step_ids: list[str]
    options: dict[str, int]
    """Option key (``step.option``) -> its index."""

    def action(self, key: str, parameter: int = 0) -> Action:
        """The action of the option ``key`` with ``parameter`` (a design, a pile, or a seat and a design)."""
        return self.options[key] * self.game.width + parameter


@dataclass
class Dig:
    """One position's facts; lists are per pile (left to right) or per seat, cards are designs."""

    active: int
    """The seat whose turn it is."""
    step: str
    """The id of the step the turn is at."""
    stacks: list[list[int]]
    """Per pile, the cards still buried, from the top down."""
    marked: list[list[int]]
    """Per pile, the cards the active seat marked this turn, in the order marked."""
    site_mark: list[int]
    """Per pile, the active seat's markers on the empty site."""
    placed: int
    """Markers the active seat placed this turn (its markers less the counter ``markers`` left)."""
    rolled: int
    double: bool
    deck: int
    """Cards left in the deck."""
    discard: list[int]
    collections: list[list[int]]
    hands: list[list[int]]


_FACTS: dict[int, Facts] = {}


def facts(game: Game) -> Facts:
    """The facts of Keramikos' data game (made once per Game); TypeError for a game without its rows and scoring."""
    known = _FACTS.get(id(game))
    if known is not None and known.game is game:
        return known
    if not isinstance(game, DataGame) or any(row not in game.tables.rows for row in ROWS):
        raise TypeError("a Keramikos position needs a data game with the rows 'stacks' and 'marked' under the dig sites")
    scorer = next((s for s in game.scorers if isinstance(s, SetsScorer)), None)
    if scorer is None:
        raise TypeError("a Keramikos position needs a data game scored by a sets item")
    first, piles = game.tables.rows["stacks"]
    rules = game.spec.rules_data
    assert rules is not None
    known = _FACTS[id(game)] = Facts(
        game=game,
        card_ids=list(game.card_ids),
        sites=list(range(first, first + piles)),
        scorer=scorer,
        pottery=[k >= 0 for k in scorer.set_index],
        markers=int(game.tables.constants.get("component.marker.count", 0)),
        step_ids=[step.id for step in rules.turn],
        options={option.key: option.index for option in game.options},
    )
    return known


def key_of(game: Game, action: Action) -> tuple[str, int]:
    """The key of the option an action takes (``step.option``; ``arrange`` for a card put next by an arrangement,
    ``chance`` for a chance outcome) and its parameter."""
    assert isinstance(game, DataGame)
    index, parameter = divmod(action, game.width)
    if index < len(game.options):
        return game.options[index].key, parameter
    return ("arrange" if index >= game.arrange_base else "chance" if index >= game.chance_base else "choice"), parameter


def position(state: State) -> Dig:
    """The facts of a Keramikos data game's position (a copy: changing it changes nothing in ``state``)."""
    assert isinstance(state, DataState)
    g = state.g
    f = facts(g)
    t = g.tables
    stacks_at, marked_at = t.zone_index["stacks"], t.zone_index["marked"]
    piles = len(f.sites)
    site_mark, left = t.counter_index["site_mark"], t.counter_index["markers"]
    return Dig(
        active=state.seat,
        step=f.step_ids[state.step] if 0 <= state.step < len(f.step_ids) else "",
        stacks=[list(reversed(state.z[stacks_at + p])) for p in range(piles)],
        marked=[list(state.z[marked_at + p]) for p in range(piles)],
        site_mark=[state.c[site_mark + p] for p in range(piles)],
        placed=f.markers - state.c[left],
        rolled=state.v[t.variable_index["rolled"]],
        double=bool(state.v[t.variable_index["double"]]),
        deck=len(state.z[g.slot("deck")]),
        discard=list(state.z[g.slot("discard")]),
        collections=[list(state.z[g.slot("collection", seat)]) for seat in range(g.num_players)],
        hands=[list(state.z[g.slot("hand", seat)]) for seat in range(g.num_players)],
    )
