"""Random playouts of the real games are fixed: same seed, same game, before and after any speed work.

The figures below were recorded with the engine as it was before the speed-ups
in ``play_game``, Keramikos and Ceratopsians (inline random choice and chance
sampling, dice by bisection, one display search per collection at the end). A
change of rules behaviour anywhere (a different draw, a different legal-action
order, a different score or usage count) changes one of them.

The Keramikos figures were recorded again for issue 20, when its rules took the source's readings
(Complete completes a set, Trash takes any card, Sort rearranges a stack card by card, a site with
only special cards is empty, doubles mark a pottery card): the games are longer in actions because a
Sort now names each card of the new order.

The Ceramus figures were recorded again for issue 20, when a Ceramas card became usable when its holder
wants (any number, before and after the build) and a held Remove or Move card began to keep the game
going; with ``options.bonus_timing: start_of_turn`` the former fixed games still replay move for move
(tests/games/test_ceramus_source_readings.py).
"""

from __future__ import annotations

import hashlib
import random
from functools import lru_cache

import pytest

from cardgen.engine.agents import RandomAgent
from cardgen.engine.core import Game, State, make_game
from cardgen.engine.parallel import Task, plan_chunks
from cardgen.engine.playout import PlayoutResult, play_game
from cardgen.spec.load import find_spec_folder, load_spec

# (game, players, seed, final scores, actions played, digest of the actions, digest of the usage counters)
FIXED = [
    ("ceramus", 1, 0, [6], 17, "2ea5668aa75b0873", "133db5a9011d"),
    ("ceramus", 1, 1, [-4], 4, "7aa48720d018cab8", "6000591373f3"),
    ("ceramus", 2, 2, [12, 0], 37, "dced7aec8ef89646", "b0c441aaf634"),
    ("ceramus", 3, 2, [6, -2, -4], 50, "4210a46cf9544c10", "a8bc97a85618"),
    ("ceramus", 4, 0, [-4, 10, 0, 4], 73, "c1ef9d48c40b4871", "687414596012"),
    ("ceramus", 4, 2, [2, 2, -2, 12], 72, "e65ae647aaea7f74", "a2381756156b"),
    ("ceratopsians", 2, 0, [7, 6], 16, "567097bc42cf110c", "abae8827ed64"),
    ("ceratopsians", 2, 1, [7, 3], 16, "16e6384e4a61a679", "1c2b145f3c77"),
    ("ceratopsians", 2, 2, [6, 4], 16, "eb91cf0fed5ced36", "c4dbe2f417f9"),
    ("keramikos", 2, 0, [8, 0], 293, "1fd6d58ea29e420b", "907e23c651b3"),
    ("keramikos", 3, 0, [0, 0, 0], 352, "5b765c0cb14cd22b", "b3fbcd052573"),
    ("keramikos", 3, 2, [0, 0, 9], 363, "3a1ba2cce016ffca", "310921001fa2"),
    ("keramikos", 4, 0, [0, 0, 1, 0], 297, "108df227b57d67e6", "2930381893dc"),
    ("keramikos", 4, 2, [0, 8, 0, 0], 324, "9784df81eda7b9cb", "297e990063bc"),
    # Mausoleum Guardians since issue 20 (the source's readings of Protection, Sculptors and Mausolo); its
    # first-edition options still replay the former games: tests/games/test_mausoleum_guardians.py.
    ("mausoleum-guardians", 2, 0, [0, 0], 69, "1748c35c8c094464", "8fe993eb075f"),
    ("mausoleum-guardians", 3, 1, [0, 8, 0], 67, "1a7c069d4749c15e", "c97d345ebbe4"),
    ("mausoleum-guardians", 4, 1, [0, 8, 0, 0], 79, "9694c207d2cd4026", "c8e335328fe2"),
]

# Digest of (scores, length, actions digest, ranking, usage, termination) over seeds 0-39.
FORTY_SEEDS = {
    ("ceramus", 1): "384c03273c87282d",
    ("ceramus", 2): "e54bb6a1bdf9f95b",
    ("ceramus", 3): "3ffafe2ff2651487",
    ("ceramus", 4): "639ba6aec9d7623c",
    ("ceratopsians", 2): "5690606a2a502c08",
    ("keramikos", 2): "a3c96c9946d5fc3e",
    ("keramikos", 3): "fdf251fc6ece2288",
    ("keramikos", 4): "6c35999a2896f388",
    ("mausoleum-guardians", 2): "4bdd025a70abdda5",
    ("mausoleum-guardians", 3): "c177b580b98f6dd9",
    ("mausoleum-guardians", 4): "ccb8e7c56e2020bf",
}


@lru_cache(maxsize=None)
def _game(game_id: str, players: int) -> Game:
    loaded = load_spec(find_spec_folder(game_id))
    assert loaded.spec is not None
    return make_game(loaded.spec, players)


def _digest(text: str, size: int) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:size]


def _random_playout(game_id: str, players: int, seed: int) -> PlayoutResult:
    return play_game(_game(game_id, players), [RandomAgent() for _ in range(players)], seed)


@pytest.mark.parametrize(("game_id", "players", "seed", "scores", "length", "actions", "usage"), FIXED)
def test_random_playout_is_fixed(game_id: str, players: int, seed: int, scores: list[int], length: int, actions: str, usage: str) -> None:
    result = _random_playout(game_id, players, seed)
    assert result.completed and not result.conservation
    assert result.scores == scores
    assert result.length == length
    assert _digest(repr(result.actions), 16) == actions
    assert _digest(repr(sorted(result.usage.items())), 12) == usage


@pytest.mark.parametrize(("game_id", "players"), sorted(FORTY_SEEDS))
def test_forty_random_playouts_are_fixed(game_id: str, players: int) -> None:
    h = hashlib.sha256()
    for seed in range(40):
        r = _random_playout(game_id, players, seed)
        h.update(repr((r.scores, r.length, _digest(repr(r.actions), 16), r.ranking, sorted(r.usage.items()), r.termination)).encode())
    assert h.hexdigest()[:16] == FORTY_SEEDS[(game_id, players)]


class _ChoosingRandom(RandomAgent):
    """A random agent play_game does not recognise, so every choice goes through choose()."""


@pytest.mark.parametrize(("game_id", "players"), [("keramikos", 3), ("ceramus", 2), ("ceratopsians", 2), ("mausoleum-guardians", 4)])
def test_inline_random_choice_equals_choose(game_id: str, players: int) -> None:
    game = _game(game_id, players)
    for seed in range(5):
        fast = play_game(game, [RandomAgent() for _ in range(players)], seed)
        slow = play_game(game, [_ChoosingRandom() for _ in range(players)], seed)
        assert fast.actions == slow.actions and fast.scores == slow.scores and fast.usage == slow.usage


def test_keramikos_dice_sampler_matches_the_generic_one() -> None:
    state = _game("keramikos", 2).new_initial_state(0)
    state.apply_action(state.legal_actions()[0])  # roll
    assert state.is_chance_node()
    for seed in range(300):
        assert state.sample_chance(random.Random(seed)) == State.sample_chance(state, random.Random(seed))


def test_ceratopsians_best_is_the_search_and_hands_out_copies() -> None:
    game = _game("ceratopsians", 2)
    state = game.new_initial_state(5)
    rng = random.Random(5)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
    faces = state.collections[0]  # type: ignore[attr-defined]
    scorer = game.scorer  # type: ignore[attr-defined]
    value, arrangement = scorer.best(faces)
    assert (value, arrangement) == scorer.search(faces, want_arrangement=True)
    arrangement[0].append(-99)
    assert scorer.best(faces)[1] == scorer.search(faces, want_arrangement=True)[1]
    assert state.scores()[0] == value


def test_chunks_cover_every_task_once_heavy_first() -> None:
    tasks = [Task(2, ("random", "random"), s) for s in range(500)]
    tasks[10:10] = [Task(2, ("mcts:8", "random"), 1000 + s) for s in range(3)]
    tasks.append(Task(2, ("greedy", "random"), 2000))
    chunks = plan_chunks(tasks, 64)
    covered = sorted(i for start, end in chunks for i in range(start, end))
    assert covered == list(range(len(tasks)))
    assert [end - start for start, end in chunks[:4]] == [1, 1, 1, 1]
    assert all(tasks[start].agents != ("random", "random") for start, _ in chunks[:4])
    assert max(end - start for start, end in chunks) <= 64
    assert chunks[-1][1] - chunks[-1][0] == 1  # the tail is fine-grained
