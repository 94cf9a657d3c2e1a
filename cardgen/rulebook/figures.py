"""Figures drawn from the game's own engine: setup diagrams, a worked turn and scored positions.

Every number in these figures is read off an engine state, so it is right by
construction: each setup diagram is ``game.new_initial_state(seed)`` for a
player count the spec sets up; the worked turn is the engine playing the first
turn of a game (a greedy player, chance drawn from the same seed), its steps
said by the game's figure module (or ``action_to_string``) and its scores read
from the state; the scored positions are drawn by the game itself. Seeds are
fixed, so a rulebook is the same on every build.

This module knows no game. A game package offers its figures in
``cardgen/games/<pkg>/figures.py`` (registered with
:func:`cardgen.render.figures.register_figures` when imported);
:func:`load_figure_modules` imports every such module. The rulebook labels the
views in its language (generic words from the catalogs, names from the spec)
and :func:`cardgen.render.table_figure.draw_table` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable

from babel.numbers import format_decimal

from cardgen.engine.core import Game, State, make_game
from cardgen.render.colour import mix
from cardgen.render.figures import GameFigures, Mark, TableView, Words, Zone, registered_figures
from cardgen.render.scene import Scene
from cardgen.render.table_figure import draw_table
from cardgen.rulebook.i18n import translations
from cardgen.rulebook.turn_moves import MAX_TURN_ACTIONS as MAX_TURN_ACTIONS, TURN_BUDGET as TURN_BUDGET
from cardgen.rulebook.turn_moves import chosen_turn, first_turn_moves, replay_turn
from cardgen.spec.models import Spec

if TYPE_CHECKING:
    from cardgen.spec.parse_cache import ResultCache

FIGURE_SEED = 1
"""The deal every figure of every rulebook is drawn from (a fixed seed keeps the rulebook the same on every build)."""

_loaded = False


def load_figure_modules() -> None:
    """Import ``cardgen.games.<pkg>.figures`` for every game package that has one (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from cardgen.games import import_game_parts

    import_game_parts("figures")


def figures_for(spec: Spec) -> GameFigures | None:
    """The figures the game package of ``spec``'s rules offers (None: no rules, or none offered); a game written
    as rules data gets those its game package registered (see :func:`cardgen.render.layouts.spec_package`), or the
    interpreter's generic ones."""
    from cardgen.render.layouts import spec_package

    package = spec_package(spec)  # a data game's package (its mechanic's, or its spec id's): its figures, when it has some
    if package is not None:
        from cardgen.games import load_game_package

        load_game_package(package, "figures")  # that package's own first, every game's only when it has none
        if registered_figures(package) is None:
            load_figure_modules()
        found = registered_figures(package)
        if found is not None or spec.rules_data is None:
            return found
    if spec.rules_data is not None:
        from cardgen.render.data_figures import DATA_FIGURES

        return DATA_FIGURES
    return None


@dataclass(frozen=True)
class RulebookFigure:
    """One figure: where it goes (``section``), its caption and text lines (the Markdown shows those), its drawing."""

    id: str
    section: str
    caption: str
    lines: tuple[str, ...]
    scene: Scene
    scores: tuple[str, ...] = ()
    """Each seat's score in the position shown, read off its state (scored positions only)."""


@dataclass(frozen=True)
class WorkedTurn:
    """The first turn of a game as the engine played it: who, each step in words, the scores after, its figure."""

    players: int
    seat: str
    steps: tuple[str, ...]
    scores: tuple[str, ...]
    figure: RulebookFigure


@dataclass(frozen=True)
class GameFigureSet:
    """Every figure of one rulebook in one language."""

    setup: tuple[RulebookFigure, ...] = ()
    turn: WorkedTurn | None = None
    positions: tuple[RulebookFigure, ...] = ()

    def scenes(self) -> dict[str, Scene]:
        """Each figure's drawing under the name the document's ``<figure>`` uses."""
        every = list(self.setup) + list(self.positions) + ([self.turn.figure] if self.turn else [])
        return {picture_key(f.id): f.scene for f in every}

    def context(self) -> dict[str, Any]:
        """The plain data the rulebook template reads."""

        def plain(figure: RulebookFigure) -> dict[str, Any]:
            return {"id": figure.id, "caption": figure.caption, "lines": list(figure.lines), "scores": list(figure.scores)}

        turn = self.turn
        return {
            "setup": [plain(f) for f in self.setup],
            "turn": (
                {"players": turn.players, "seat": turn.seat, "steps": list(turn.steps), "scores": list(turn.scores), "figure": plain(turn.figure)}
                if turn
                else None
            ),
            "positions": [plain(f) for f in self.positions],
        }


@dataclass(frozen=True)
class FigurePlay:
    """The engine's part of a rulebook's figures, the same in every language: the state after setup for each
    player count, and the first turn (the player count, each state before its action, and the state after)."""

    setups: tuple[tuple[int, State], ...]
    turn_players: int
    turn_steps: tuple[tuple[State, int], ...]
    turn_end: State


def play_figures(spec: Spec, cache: ResultCache | None = None) -> FigurePlay | None:
    """Run the engine for ``spec``'s figures (None when its rules offer none); label it with :func:`rulebook_figures`.

    The worked turn's moves are searched on a copy of the spec without its texts and replayed on ``spec``'s game
    (:mod:`cardgen.rulebook.turn_moves`), so ``cache`` (a build's) keeps them across an edit of names or prose.
    """
    if figures_for(spec) is None:
        return None
    games: dict[int, Game] = {}  # (one game per player count: the turn's is a setup's, compiled once)

    def game_of(players: int) -> Game:
        if players not in games:
            games[players] = make_game(spec, players)
        return games[players]

    setups = tuple((s.players, game_of(s.players).new_initial_state(FIGURE_SEED)) for s in sorted(spec.setups, key=lambda s: s.players))
    players = _turn_players(spec)
    game = game_of(players)
    played = replay_turn(game, FIGURE_SEED, chosen_turn(spec, players, FIGURE_SEED, cache, game))
    if played is None:  # the game's play depends on its texts: search the turn on the spec itself
        played = play_first_turn(game, FIGURE_SEED)
    end, steps = played
    return FigurePlay(setups, players, tuple(steps), end)


FIGURE_PREFIX = "figure:"
"""Figures' scenes are kept among a rulebook's pictures under this prefix (deck ids cannot hold ':')."""


def picture_key(figure_id: str) -> str:
    """The key of a figure's scene among a rulebook's pictures (deck ids cannot hold ':', so no card picture clashes)."""
    return f"{FIGURE_PREFIX}{figure_id}"


class Labels:
    """The words of one rulebook language: catalogs for the generic ones, the spec for names."""

    def __init__(self, spec: Spec, locale: str) -> None:
        self.spec = spec
        self.locale = locale
        self.fallback = spec.locales[0]
        translation = translations(locale)
        self.gettext: Callable[[str], str] = translation.gettext
        self.ngettext: Callable[[str, str, int], str] = translation.ngettext
        self.decks = {deck.id: deck for deck in spec.decks}
        self.components = {c.id: c for c in spec.components}
        self.palettes = {p.id: p for p in spec.palettes}

    def local(self, text: dict[str, str] | None, default: str) -> str:
        """``text`` in this language (the spec's first language when it lacks this one), ``default`` when empty."""
        if not text:
            return default
        return text.get(self.locale) or text.get(self.fallback) or default

    def number(self, value: int) -> str:
        """A number formatted for this language."""
        return format_decimal(value, locale=self.locale)

    def seat(self, seat: int) -> str:
        """A seat as players are named in the figures ("Player 1")."""
        gettext = self.gettext
        return gettext("Player %(number)s") % {"number": self.number(seat + 1)}

    def score(self, seat: int, value: int) -> str:
        """A seat's score ("Player 1: -8 points"; the plural follows the size of the number)."""
        ngettext = self.ngettext
        return ngettext("%(player)s: %(num)s point", "%(player)s: %(num)s points", abs(value)) % {"player": self.seat(seat), "num": self.number(value)}

    def source(self, source: str) -> str:
        """The name of a deck or component id."""
        deck = self.decks.get(source)
        if deck is not None:
            return self.local(deck.name, source)
        component = self.components.get(source)
        return self.local(component.name, source) if component is not None else source

    def card(self, deck_id: str, card_id: str, face: int) -> str:
        """A card's name (``face``: the name of that face of a two-sided card, -1 for the card's own)."""
        deck = self.decks.get(deck_id)
        card = next((c for c in deck.cards if c.id == card_id), None) if deck else None
        if card is None:
            return card_id
        if face >= 0 and card.faces and face < len(card.faces) and card.faces[face].name:
            return self.local(card.faces[face].name, card_id)
        return self.local(card.name, card_id)

    def card_fill(self, deck_id: str, card_id: str) -> str | None:
        """A light tint of the card type's colour, to tell card types apart in a picture (None: no type colour)."""
        deck = self.decks.get(deck_id)
        card = next((c for c in deck.cards if c.id == card_id), None) if deck else None
        if deck is None or card is None or card.type is None:
            return None
        colour = next((t.colour for t in deck.card_types if t.id == card.type), None)
        return mix(colour, "#ffffff", 0.65) if colour else None

    def entry(self, palette_id: str, entry_id: str) -> str:
        """A palette entry's name."""
        palette = self.palettes.get(palette_id)
        entry = next((e for e in palette.entries if e.id == entry_id), None) if palette else None
        return self.local(entry.name, entry_id) if entry else entry_id

    def words(self) -> Words:
        """These names as the :class:`Words` a game's figure module speaks with."""
        return Words(self.locale, self.seat, self.card, self.entry, self.number)

    def zone_palette(self, zone: Zone) -> str:
        """The palette of a zone's entries: its own, else its component's."""
        if zone.palette:
            return zone.palette
        component = self.components.get(zone.source)
        return component.palette or "" if component is not None else ""

    def mark(self, zone: Zone, mark: Mark) -> Mark:
        """``mark`` with its text and fill: a card's name and type tint, an entry's symbol and colour."""
        if mark.card:
            return replace(mark, text=mark.text or self.card(zone.source, mark.card, mark.face), fill=mark.fill or self.card_fill(zone.source, mark.card))
        if mark.entry:
            palette = self.palettes.get(self.zone_palette(zone))
            entry = next((e for e in palette.entries if e.id == mark.entry), None) if palette else None
            if entry is not None:
                return replace(mark, text=mark.text or entry.symbol_in(self.locale), fill=mark.fill or entry.colour)
        return mark

    def title(self, zone: Zone) -> str:
        """What the zone is and how many it holds, in this language."""
        ngettext = self.ngettext
        name, num = self.source(zone.source), self.number(zone.count)
        values = {"name": name, "num": num}
        if zone.kind == "pile":
            return ngettext("%(name)s: draw pile, %(num)s card", "%(name)s: draw pile, %(num)s cards", zone.count) % values
        if zone.kind == "discard":
            return ngettext("%(name)s: discard pile, %(num)s card", "%(name)s: discard pile, %(num)s cards", zone.count) % values
        if zone.kind == "hand":
            return ngettext("%(name)s: %(num)s card in hand", "%(name)s: %(num)s cards in hand", zone.count) % values
        if zone.kind in ("grid", "cells"):
            columns = max(1, zone.columns or len(zone.marks))
            rows = -(-len(zone.marks) // columns) if zone.marks else 0
            values.update(columns=self.number(columns), rows=self.number(rows))
            if zone.kind == "grid":
                return ngettext(
                    "%(name)s: %(num)s card in %(columns)s × %(rows)s places", "%(name)s: %(num)s cards in %(columns)s × %(rows)s places", zone.count
                ) % values
            return ngettext(
                "%(name)s: %(num)s card, %(columns)s × %(rows)s spaces", "%(name)s: %(num)s cards, %(columns)s × %(rows)s spaces", zone.count
            ) % values
        if zone.kind == "pieces":
            if zone.entry:
                values["name"] = f"{name} ({self.entry(self.zone_palette(zone), zone.entry)})"
            gettext = self.gettext
            return gettext("%(name)s: %(num)s") % values
        return ngettext("%(name)s: %(num)s card face up", "%(name)s: %(num)s cards face up", zone.count) % values

    def label(self, view: TableView) -> TableView:
        """``view`` with every zone titled and every mark named and coloured."""
        zones = []
        for zone in view.zones:
            marks = tuple(self.mark(zone, mark) for mark in zone.marks)
            if zone.kind == "pieces" and zone.entry and not marks:
                marks = (self.mark(zone, Mark(entry=zone.entry)),)
            zones.append(replace(zone, marks=marks, title=self.title(replace(zone, marks=marks)), heading=self.source(zone.source)))
        return replace(view, zones=tuple(zones))

    def lines(self, view: TableView) -> tuple[str, ...]:
        """The labelled view as lines of text: the shared zones, then one line per seat."""
        out = [zone.title for zone in view.shared()]
        for seat in range(view.seats):
            titles = [zone.title for zone in view.of_seat(seat)]
            if titles:
                out.append(f"{self.seat(seat)}: " + "; ".join(titles))
        return tuple(out)


def _figure(labels: Labels, figure_id: str, section: str, caption: str, view: TableView) -> RulebookFigure:
    labelled = labels.label(view)
    seats = [labels.seat(seat) for seat in range(view.seats)]
    return RulebookFigure(figure_id, section, caption, labels.lines(labelled), draw_table(labelled, seats))


def setup_figures(play: FigurePlay, figures: GameFigures, labels: Labels) -> list[RulebookFigure]:
    """One diagram per player count the spec sets up, read off ``new_initial_state(FIGURE_SEED)``."""
    ngettext = labels.ngettext
    out = []
    for players, state in play.setups:
        caption = ngettext("The table after setup, for %(num)s player", "The table after setup, for %(num)s players", players) % {
            "num": labels.number(players)
        }
        out.append(_figure(labels, f"setup-{players}", "setup", caption, figures.table(state)))
    return out


def _turn_players(spec: Spec) -> int:
    counts = sorted(s.players for s in spec.setups) or [spec.players.min]
    return next((n for n in counts if n >= 2), counts[0])


def play_first_turn(game: Game, seed: int) -> tuple[State, list[tuple[State, int]]]:
    """The engine plays the first turn of the deal of ``seed``: the state before each action with the action.

    The seat to move first plays with a small Monte Carlo tree search (:func:`cardgen.rulebook.turn_moves.first_turn_moves`)
    until another seat is to move or the game ends; chance steps inside the turn are part of it. Returns the
    final state and the steps.
    """
    played = replay_turn(game, seed, first_turn_moves(game, seed))
    if played is None:
        raise RuntimeError("the engine played the same moves differently from the same deal")
    return played


def worked_turn(play: FigurePlay, figures: GameFigures, labels: Labels) -> WorkedTurn | None:
    """The first turn of a game at the smallest player count with company, played by the engine (None: a game
    over before anyone moves)."""
    players, state, steps = play.turn_players, play.turn_end, play.turn_steps
    if not steps:
        return None
    words = labels.words()
    said = []
    for before, action in steps:
        text = figures.describe(before, action, words) if figures.describe else before.action_to_string(action)
        said.append(text[:1].upper() + text[1:])
    seat = max(0, steps[0][0].current_player())
    scores = tuple(labels.score(index, value) for index, value in enumerate(state.scores()))
    gettext = labels.gettext
    caption = gettext("The table after the turn of %(player)s") % {"player": labels.seat(seat)}
    figure = _figure(labels, "turn", "turn", caption, figures.table(state))
    return WorkedTurn(players, labels.seat(seat), tuple(said), scores, figure)


def position_figures(spec: Spec, figures: GameFigures, labels: Labels) -> list[RulebookFigure]:
    """The positions the game draws itself, each with the scores read off its state."""
    if figures.positions is None:
        return []
    game = make_game(spec, _turn_players(spec))
    out = []
    for index, position in enumerate(figures.positions(game, FIGURE_SEED, labels.words())):
        scores = [labels.score(index, value) for index, value in enumerate(position.state.scores())]
        out.append(RulebookFigure(f"position-{index + 1}", "scoring", position.text, position.lines, position.scene, tuple(scores)))
    return out


def rulebook_figures(spec: Spec, locale: str, play: FigurePlay | None = None) -> GameFigureSet:
    """Every figure of ``spec``'s rulebook in ``locale``; none when its rules offer no figures.

    ``play`` is :func:`play_figures`' result for ``spec``, when a caller labels it in several languages.
    """
    figures = figures_for(spec)
    play = play or play_figures(spec)
    if figures is None or play is None:
        return GameFigureSet()
    labels = Labels(spec, locale)
    return GameFigureSet(
        tuple(setup_figures(play, figures, labels)),
        worked_turn(play, figures, labels),
        tuple(position_figures(spec, figures, labels)),
    )
