"""Replay logs: deterministic bytes, a faithful round trip, and refusal of foreign or tampered logs."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from cardgen.engine.agents import make_agent
from cardgen.engine.core import make_game
from cardgen.engine.playout import play_game
from cardgen.engine.replay import (
    ReplayMismatch,
    dumps_replay,
    loads_replay,
    read_replay,
    replay_lines,
    replay_of,
    replay_state,
    spec_hash,
    write_replay,
)
from cardgen.findings import InputError
from cardgen.spec.load import LoadedSpec


def _game_and_replay(toy: LoadedSpec, seed: int = 7):  # type: ignore[no-untyped-def]
    assert toy.spec is not None
    game = make_game(toy.spec, 2)
    result = play_game(game, [make_agent("greedy", game), make_agent("random", game)], seed)
    return game, result, replay_of(game, result)


def test_round_trip(toy: LoadedSpec, tmp_path: Path) -> None:
    game, result, replay = _game_and_replay(toy)
    path = write_replay(replay, tmp_path / "sub" / "game.jsonl")
    again = read_replay(path)
    assert again == replay
    assert again.actions == result.actions
    assert replay_state(game, again).state_hash() == _final_hash(game, result)
    lines = (tmp_path / "sub" / "game.jsonl").read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert set(header) == {"game", "spec_hash", "players", "seed", "agents", "cardgen_version"}
    assert header["agents"] == ["greedy", "random"] and header["seed"] == 7 and header["players"] == 2
    assert set(json.loads(lines[1])) == {"ply", "player", "action", "text"}
    assert json.loads(lines[1])["player"] == -1 and json.loads(lines[1])["text"].startswith("P1 rolls ")
    assert set(json.loads(lines[-1])) == {"scores", "ranking", "termination"}
    assert len(lines) == len(result.actions) + 2


def _final_hash(game, result) -> str:  # type: ignore[no-untyped-def]
    state = game.new_initial_state(result.seed)
    for action in result.actions:
        state.apply_action(action)
    return state.state_hash()


def test_bytes_are_deterministic(toy: LoadedSpec) -> None:
    _, _, first = _game_and_replay(toy)
    _, _, second = _game_and_replay(toy)
    assert dumps_replay(first) == dumps_replay(second)
    assert dumps_replay(first) != dumps_replay(_game_and_replay(toy, seed=8)[2])


def test_spec_hash_changes_with_the_spec(toy: LoadedSpec, variant) -> None:  # type: ignore[no-untyped-def]
    assert toy.spec is not None
    other = variant({"wild_points": 5})
    assert other.spec is not None
    assert spec_hash(toy.spec) == spec_hash(toy.spec.model_copy())
    assert spec_hash(toy.spec) != spec_hash(other.spec)
    game, _, replay = _game_and_replay(toy)
    with pytest.raises(ReplayMismatch, match="spec hash"):
        list(replay_lines(make_game(other.spec, 2), replay))


def test_illegal_action_and_wrong_scores_are_refused(toy: LoadedSpec) -> None:
    game, _, replay = _game_and_replay(toy)
    steps = list(replay.steps)
    steps[0] = replace(steps[0], action=999)
    with pytest.raises(ReplayMismatch, match="ply 0: action 999 is not legal"):
        list(replay_lines(game, replace(replay, steps=steps)))
    with pytest.raises(ReplayMismatch, match="ends with scores"):
        list(replay_lines(game, replace(replay, scores=[99, 99])))


def test_readable_lines(toy: LoadedSpec) -> None:
    game, result, replay = _game_and_replay(toy)
    lines = list(replay_lines(game, replay))
    assert lines[0] == "toy, 2 player(s), seed 7, agents greedy, random"
    assert len(lines) == len(result.actions) + 2
    assert lines[-1].startswith("end (")
    assert any(" takes " in line for line in lines)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "needs a header line"),
        ("not json\n{}\n", "line 1 is not JSON"),
        ('{"game": "toy"}\n{"scores": [], "ranking": [], "termination": "x"}\n', "'spec_hash'"),
        ('[1]\n[2]\n', "not a JSON object"),
    ],
)
def test_malformed_logs_are_input_errors(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        loads_replay(text)
