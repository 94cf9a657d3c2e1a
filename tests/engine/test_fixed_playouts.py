"""Random playouts of the real games are fixed: same seed, same game, before and after any speed work.

The figures below were recorded with the engine as it was before the speed-ups
in ``play_game``, Keramikos and Ceratopsians (inline random choice and chance
sampling, dice by bisection, one display search per collection at the end). A
change of rules behaviour anywhere (a different draw, a different legal-action
order, a different score or usage count) changes one of them.

The Keramikos figures were recorded again for issue 20, when its rules took the source's readings
(Complete completes a set, Trash takes any card, Sort rearranges a stack card by card, a site with
only special cards is empty, doubles mark a pottery card): the games are longer in actions because a
Sort now names each card of the new order. They were recorded again for issue 14, when its play became
rules data (specs/keramikos): the interpreter's dice are the (total, doubles) classes with their probabilities (9
with two four-sided dice) where the former engine drew one of the 16 ordered pairs, so the same seed rolls other
totals from the first roll on; a burn is one decision (which pottery card) instead of two; and the actions are the
options' numbers. The former engine, now tests/reference/keramikos.py, agrees with it move for move on the same
deal and the same (total, doubles) outcomes (tests/engine/test_lockstep_keramikos.py). The usage counts of Trash,
Sort and Complete count the options asking for those cards and the wild cards scored (engine/interpreter/named_uses.py).

The Ceramus figures were recorded again for issue 20, when a Ceramas card became usable when its holder
wants (any number, before and after the build) and a held Remove or Move card began to keep the game
going; with ``options.bonus_timing: start_of_turn`` the former fixed games still replay move for move
(tests/reference/test_ceramus_source_readings_reference.py). They were recorded again for issue 14, when its play
became rules data with the named mechanic ``ceramus_mural``: the data's setup draws the Mural, its quarter turns and
the Shape deal in its own order and deals from the top (the end of the list), so a seed deals another game, and the
actions are the options' numbers; the former rules module, now tests/reference/ceramus.py, agrees with it move for
move on the same deal (tests/engine/test_lockstep_ceramus.py).

The Ceratopsians figures were recorded again for issue 14, when its play became rules data with the
named mechanic ``ceratopsians``: the deal follows the rules data's convention (the top of the shuffled
deck is the end of the list, so the boneyard and the refills come from the other end than before) and
the actions are the draft option's numbers; the former rules module, now tests/reference/ceratopsians.py,
agrees with it move for move on the same deal (tests/engine/test_lockstep_ceratopsians.py).

Playthroughs: the games of ``FIXED`` are kept whole, readable, as JSON lines in
``tests/engine/playthroughs/`` (one line per action: who played, the action as
the rules module writes it, the scores, who moves next, how many choices they
have, the position in a few words (``State.summary``) and a short digest of the
whole position; a last line with the result and the usage counters). A change of rules shows there as a diff a reviewer can read,
and the test names the first line that differs. After a deliberate rules
change, review the diff, then write the files again with::

    PYTHONPATH=. python tests/engine/test_fixed_playouts.py --record
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from cardgen.engine.agents import RandomAgent
from cardgen.engine.core import CHANCE, TERMINAL, Game, State, make_game
from cardgen.engine.parallel import Task, plan_chunks
from cardgen.engine.playout import PlayoutResult, play_game
from cardgen.spec.load import find_spec_folder, load_spec

# (game, players, seed) of the playthroughs kept in tests/engine/playthroughs/.
FIXED = [
    ("ceramus", 1, 0),
    ("ceramus", 1, 1),
    ("ceramus", 2, 2),
    ("ceramus", 3, 2),
    ("ceramus", 4, 0),
    ("ceramus", 4, 2),
    ("ceratopsians", 2, 0),
    ("ceratopsians", 2, 1),
    ("ceratopsians", 2, 2),
    # Keramikos, played from its rules data since issue 14 (re-recorded: see the module's docstring).
    ("keramikos", 2, 0),
    ("keramikos", 3, 0),
    ("keramikos", 3, 2),
    ("keramikos", 4, 0),
    ("keramikos", 4, 2),
    # Mausoleum Guardians, played from its rules data since issue 14 (its former engine, tests/reference, agrees
    # with it move for move: tests/engine/test_lockstep_mausoleum_guardians.py); re-recorded because the engine changed.
    ("mausoleum-guardians", 2, 0),
    ("mausoleum-guardians", 3, 1),
    ("mausoleum-guardians", 4, 1),
]
PLAYTHROUGHS = Path(__file__).resolve().parent / "playthroughs"
RECORD = "PYTHONPATH=. python tests/engine/test_fixed_playouts.py --record"

# Digest of (scores, length, actions digest, ranking, usage, termination) over seeds 0-39.
FORTY_SEEDS = {
    ("ceramus", 1): "f04f9918377b8614",
    ("ceramus", 2): "f54939b01a36883d",
    ("ceramus", 3): "edfaec52dd846084",
    ("ceramus", 4): "317ae3dabea860be",
    ("ceratopsians", 2): "194b9843b79a138c",
    ("keramikos", 2): "4bb8d35fed774cff",
    ("keramikos", 3): "be6f769664a91e73",
    ("keramikos", 4): "ca4c97754a4d8b11",
    ("mausoleum-guardians", 2): "ad89a85ccd7ce9d9",
    ("mausoleum-guardians", 3): "adf2581c2fbc2ff2",
    ("mausoleum-guardians", 4): "7eab616ea627bef3",
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


def _line(data: dict[str, object]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))


def _seat(seat: int) -> str:
    return "chance" if seat == CHANCE else "end" if seat == TERMINAL else f"P{seat + 1}"


def playthrough(game_id: str, players: int, seed: int) -> list[str]:
    """The random playout of ``seed`` as readable JSON lines: a header, one line per action, the result."""
    game = _game(game_id, players)
    result = _random_playout(game_id, players, seed)
    lines = [_line({"game": game_id, "players": players, "seed": seed, "agents": list(result.agents)})]
    state = game.new_initial_state(seed)
    for ply, action in enumerate(result.actions):
        by, text = _seat(state.current_player()), state.action_to_string(action)
        state.apply_action(action)
        after = state.current_player()
        lines.append(_line({
            "ply": ply, "by": by, "action": text, "scores": list(state.scores()),
            "next": _seat(after), "choices": 0 if state.is_terminal() else len(state.legal_actions()),
            "position": state.summary(), "digest": state.state_hash()[:10],
        }))
    lines.append(_line({
        "end": result.termination, "completed": result.completed, "scores": result.scores, "ranking": result.ranking,
        "conservation": result.conservation, "usage": dict(sorted(result.usage.items())),
    }))
    return lines


def _file(game_id: str, players: int, seed: int) -> Path:
    return PLAYTHROUGHS / f"{game_id}-{players}p-seed{seed}.jsonl"


def first_difference(kept: list[str], now: list[str]) -> str | None:
    """Where two playthroughs part, in words (None: they are the same)."""
    for number, (old, new) in enumerate(zip(kept, now), start=1):
        if old != new:
            return f"line {number} differs:\n  kept: {old}\n  now:  {new}"
    if len(kept) != len(now):
        longer, which = (kept, "kept") if len(kept) > len(now) else (now, "now")
        return f"the {which} playthrough goes on at line {min(len(kept), len(now)) + 1}: {longer[min(len(kept), len(now))]}"
    return None


@pytest.mark.parametrize(("game_id", "players", "seed"), FIXED)
def test_random_playout_is_the_kept_playthrough(game_id: str, players: int, seed: int) -> None:
    path = _file(game_id, players, seed)
    assert path.is_file(), f"no playthrough {path.name}; write it with: {RECORD}"
    kept = path.read_text(encoding="utf-8").splitlines()
    difference = first_difference(kept, playthrough(game_id, players, seed))
    assert difference is None, f"{path.name}: {difference}\n(after a deliberate rules change, review and run: {RECORD})"


def test_the_kept_playthroughs_end_in_completed_games() -> None:
    """Every kept game ran to its end with its pieces conserved (a file edited by hand could say otherwise)."""
    for game_id, players, seed in FIXED:
        end = json.loads(_file(game_id, players, seed).read_text(encoding="utf-8").splitlines()[-1])
        assert end["completed"] and not end["conservation"], (game_id, players, seed, end)


def test_the_first_difference_is_named() -> None:
    kept = playthrough("ceratopsians", 2, 0)
    changed = list(kept)
    changed[5] = changed[5].replace('"scores": [', '"scores": [1')
    message = first_difference(kept, changed)
    assert message is not None and message.startswith("line 6 differs") and changed[5] in message
    assert first_difference(kept, kept[:-1]) == f"the kept playthrough goes on at line {len(kept)}: {kept[-1]}"
    assert first_difference(kept, kept) is None


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
    from cardgen.games.ceratopsians.position import facts, position

    faces = position(state).collections[0]
    scorer = facts(game).scorer
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


def record() -> None:
    """Write every playthrough of ``FIXED`` again (after a deliberate, reviewed rules change)."""
    PLAYTHROUGHS.mkdir(exist_ok=True)
    for game_id, players, seed in FIXED:
        path = _file(game_id, players, seed)
        result = _random_playout(game_id, players, seed)
        if not result.completed or result.conservation:
            sys.exit(f"{path.name}: the game did not complete cleanly ({result.termination}; {result.conservation}); not recorded")
        path.write_text("\n".join(playthrough(game_id, players, seed)) + "\n", encoding="utf-8")
        print(path)


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit(f"usage: {RECORD}")
    record()
