"""The moves of a rulebook's worked turn: chosen by a small tree search on the spec without its texts, kept by a build.

The worked turn (:func:`cardgen.rulebook.figures.play_figures`) is the engine
playing the first turn of the figure deal with a Monte Carlo tree search, a
tenth of a second or more of a rebuild. A designer's most common edit is to a
card's name or text, which no move of the search can depend on if the search
never sees the texts: so the moves are chosen on a copy of the spec whose every
localised text is replaced by its own place in the spec (:func:`text_free`; two
names stay two names), and the states the rulebook draws are the moves replayed
on the game of the real spec (:func:`replay_turn`). The moves are then a
function of the text-free copy, the player count, the seed and the engine's
code, which is the cache key (:func:`chosen_turn`): complete by construction,
so a kept entry is never stale, and a rebuild after editing a name replays the
moves instead of searching again.

Should a game's play depend on its texts after all (a rules module reading a
card's name), the replay on the real spec disagrees with the moves (an action
not offered, a turn ending elsewhere) and the turn is searched on the real
spec, as before the cache, and nothing is kept.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from cardgen.engine.core import Action, Game, State, make_game

if TYPE_CHECKING:
    from cardgen.spec.models import Spec
    from cardgen.spec.parse_cache import ResultCache

TURN_BUDGET = 100
"""Playouts per decision of the player of the worked turn: enough to play with purpose (a one-ply greedy player
passes where scoring comes later), few enough to cost a fraction of a second."""
MAX_TURN_ACTIONS = 60
"""A worked turn is cut after this many actions (chance steps included)."""
CACHE_KIND = "figure-turn-moves"
"""The first part of a kept turn's cache key."""


@dataclass(frozen=True)
class TurnMoves:
    """The actions of a worked turn: the chance steps before the first decision, then the turn itself."""

    opening: tuple[Action, ...]
    turn: tuple[Action, ...]

    def encode(self) -> bytes:
        """The moves as a cache entry (JSON)."""
        return json.dumps({"opening": list(self.opening), "turn": list(self.turn)}, separators=(",", ":")).encode()

    @classmethod
    def decode(cls, data: bytes) -> TurnMoves | None:
        """The moves of a cache entry, or None when it is not one."""
        try:
            plain = json.loads(data)
        except ValueError:
            return None
        if not isinstance(plain, dict):
            return None
        opening, turn = plain.get("opening"), plain.get("turn")
        if not all(isinstance(part, list) and all(type(a) is int for a in part) for part in (opening, turn)):
            return None
        assert isinstance(opening, list) and isinstance(turn, list)
        return cls(tuple(opening), tuple(turn))


def first_turn_moves(game: Game, seed: int) -> TurnMoves:
    """The engine plays the first turn of the deal of ``seed``: the chance steps before it, and its actions.

    The seat to move first plays with a small Monte Carlo tree search (:data:`TURN_BUDGET` playouts a decision;
    its playouts, ties and chance drawn from ``seed``) until another seat is to move or the game ends; chance
    steps inside the turn are part of it.
    """
    from cardgen.engine.agents import MctsAgent

    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    opening: list[Action] = []
    while state.is_chance_node():
        action = state.sample_chance(rng)
        opening.append(action)
        state.apply_action(action)
    seat = state.current_player()
    agent = MctsAgent(game, budget=TURN_BUDGET)
    turn: list[Action] = []
    while not state.is_terminal() and len(turn) < MAX_TURN_ACTIONS:
        mover = state.current_player()
        if not state.is_chance_node() and mover != seat:
            break
        action = state.sample_chance(rng) if state.is_chance_node() else agent.choose(state, state.legal_actions(), rng)
        turn.append(action)
        state.apply_action(action)
    return TurnMoves(tuple(opening), tuple(turn))


def _offered(state: State, action: Action) -> bool:
    if state.is_chance_node():
        return any(outcome == action for outcome, _ in state.chance_outcomes())
    return action in state.legal_actions()


def replay_turn(game: Game, seed: int, moves: TurnMoves) -> tuple[State, list[tuple[State, Action]]] | None:
    """``moves`` replayed from the deal of ``seed``: the state after the turn, and the state before each of its
    actions with the action; None when the game does not play them as :func:`first_turn_moves` would have
    (an action not offered, the opening or the turn ending elsewhere)."""
    state = game.new_initial_state(seed)
    for action in moves.opening:
        if not state.is_chance_node() or not _offered(state, action):
            return None
        state.apply_action(action)
    if state.is_chance_node():
        return None
    seat = state.current_player()
    steps: list[tuple[State, Action]] = []
    for action in moves.turn:
        if state.is_terminal() or not (state.is_chance_node() or state.current_player() == seat) or not _offered(state, action):
            return None
        steps.append((state.clone(), action))
        state.apply_action(action)
    ended = state.is_terminal() or len(steps) >= MAX_TURN_ACTIONS or (not state.is_chance_node() and state.current_player() != seat)
    return (state, steps) if ended else None


def text_free(spec: Spec) -> Spec:
    """A copy of ``spec`` whose every localised text (names, card texts, prose, localised card data) reads as its
    own place in the spec (``decks.0.cards.3.name``) in every locale: what the worked turn's search is shown."""
    from cardgen.validate.static import all_texts

    copy = spec.model_copy(deep=True)
    for path, text in all_texts(copy):
        place = ".".join(str(part) for part in path)
        for locale in text:
            text[locale] = place
    return copy


def _code_outside_cardgen(objects: Iterable[object]) -> str:
    """A digest of the Python files of the packages outside cardgen that define ``objects``' classes (a game
    installed on its own: cardgen's own code is in every cache key already)."""
    own = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for top in sorted({type(o).__module__.split(".")[0] for o in objects}):
        file = getattr(sys.modules.get(top), "__file__", None)
        if not file or Path(file).resolve().is_relative_to(own):
            continue
        root = Path(file).resolve()
        files = sorted(root.parent.rglob("*.py")) if root.name == "__init__.py" else [root]
        for path in files:
            digest.update(f"{path.relative_to(root.parent)}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def chosen_turn(spec: Spec, players: int, seed: int, cache: ResultCache | None = None, game: Game | None = None) -> TurnMoves:
    """The worked turn's moves for ``spec`` at ``players``, searched on :func:`text_free`'s copy, or kept in
    ``cache`` (a build's) from an earlier build whose copy, seed and engine were the same.

    ``game`` is ``spec``'s own game at ``players`` when the caller has it: the engine's code outside cardgen is
    then read off its classes and the text-free copy's game is compiled only when the moves are searched (the
    classes a spec plays with are chosen by its rules, never by its texts; a search whose game's classes differ
    after all keeps nothing)."""
    blind = text_free(spec)
    if cache is None:
        return first_turn_moves(make_game(blind, players), seed)
    own = game if game is not None else make_game(blind, players)
    engine_code = _engine_code(own, seed)
    key = cache.key(CACHE_KIND, players, seed, TURN_BUDGET, MAX_TURN_ACTIONS, engine_code, blind.model_dump_json())
    stored = cache.get(key)
    moves = TurnMoves.decode(stored) if stored is not None else None
    if moves is None:
        searched = own if game is None else make_game(blind, players)
        moves = first_turn_moves(searched, seed)
        if searched is own or _engine_code(searched, seed) == engine_code:
            cache.put(key, moves.encode())
    return moves


def _engine_code(game: Game, seed: int) -> str:
    """The digest of the code outside cardgen that ``game`` plays with (its classes, its state's, its mechanics')."""
    return _code_outside_cardgen([game, game.new_initial_state(seed), *getattr(game, "mechanics", ())])
