"""Card coverage per player count: what no playout used, searched for, and proved where it can be.

Random playouts are evidence, not proof: a card no random game happened to use
may be usable. So an unused key goes through two more steps before it is
reported:

1. a targeted search plays more seeded games in which every seat, before it
   acts, looks one action ahead and takes an action that uses the key when
   there is one (otherwise it plays at random); a use found there clears the key;
2. the rules module may prove the key unusable (:meth:`Game.proven_unusable`,
   a bound such as "this Shape is wider than the Mural").

What is proved is an error; what is only unobserved is a warning that says how
many games it rests on. Both are reported per player count, so a card that can
never be used in the solo game is not hidden by the multi-player games.
Everything is seeded: one spec and seed give one verdict on any machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from cardgen.engine.core import CHANCE, Game

TARGETED_GAMES = 40
"""Games the targeted search plays for each unused key at each player count."""
TARGETED_SEED_OFFSET = 2_000_000
"""Targeted games use seeds base + offset + index, apart from the balance and skill games."""


@dataclass
class CountCoverage:
    """Usage at one player count: the keys the game declares and how often each was used."""

    players: int
    keys: list[str]
    used: dict[str, int] = field(default_factory=dict)
    games: int = 0
    """Games whose usage is counted here (random playouts and skill games)."""


def seek_usage(game: Game, key: str, seed: int, games: int = TARGETED_GAMES) -> int | None:
    """Play ``games`` games from seeds ``seed`` onwards, each seat preferring an action that uses ``key``
    at once; the seed of the first game that uses it, or None."""
    for index in range(games):
        game_seed = seed + index
        rng = random.Random(f"cardgen-seek:{key}:{game_seed}")
        state = game.new_initial_state(game_seed)
        bound = game.info().max_game_length
        for _ in range(bound):
            if state.is_terminal():
                break
            if state.usage().get(key, 0):
                return game_seed
            if state.current_player() == CHANCE:
                state.apply_action(state.sample_chance(rng))
                continue
            actions = state.legal_actions()
            if not actions:
                break
            before = state.usage().get(key, 0)
            useful = []
            for action in actions:
                child = state.clone()
                child.apply_action(action)
                if child.usage().get(key, 0) > before:
                    useful.append(action)
            state.apply_action(rng.choice(useful or actions))
        if state.usage().get(key, 0):
            return game_seed
    return None


@dataclass(frozen=True)
class Unused:
    """A key no game used at some player counts: proved unusable there, or only not found."""

    key: str
    proved: dict[int, str]
    """Player count -> why the rules module proves the key unusable there."""
    unobserved: list[int]
    """Player counts where no game used it, with no proof."""
    games: dict[int, int]
    """Player count -> games played there (random, skill and targeted)."""


def unused_keys(games: dict[int, Game], coverage: list[CountCoverage], seed: int, search: bool = True) -> list[Unused]:
    """The keys left unused at some player count after the targeted search, with any proofs."""
    by_key: dict[str, Unused] = {}
    for count in coverage:
        game = games.get(count.players)
        if game is None:
            continue
        proofs = game.proven_unusable()
        for key in count.keys:
            if count.used.get(key, 0):
                continue
            played = count.games
            if search and key not in proofs:
                found = seek_usage(game, key, seed + TARGETED_SEED_OFFSET)
                played += TARGETED_GAMES
                if found is not None:
                    continue
            entry = by_key.setdefault(key, Unused(key, {}, [], {}))
            entry.games[count.players] = played
            if key in proofs:
                entry.proved[count.players] = proofs[key]
            else:
                entry.unobserved.append(count.players)
    return [by_key[key] for key in sorted(by_key)]
