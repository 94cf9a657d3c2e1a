"""The worked turn's moves (issue 17): searched on the spec without its texts, kept by a build's cache.

What is checked is what is reused and what is redone, and that the rulebook comes out the same, never how
long anything takes.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from cardgen.artefacts import BuildOptions
from cardgen.build import build_game, build_lock
from cardgen.cache import ArtefactCache
from cardgen.engine.core import make_game
from cardgen.rulebook import turn_moves
from cardgen.rulebook.figures import FIGURE_SEED, _turn_players, figures_for
from cardgen.rulebook.turn_moves import TurnMoves, chosen_turn, first_turn_moves, replay_turn, text_free
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec
from cardgen.validate.static import all_texts

from .conftest import ROOT

GAMES = sorted(p.parent for p in (ROOT / "specs").glob("*/game.yaml")) + [ROOT / "tests" / "fixtures" / "dice-steal"]


def _spec(folder: Path) -> Spec:
    loaded = load_spec(folder)
    assert loaded.spec is not None, loaded.findings
    return loaded.spec


@pytest.mark.parametrize("folder", GAMES, ids=[g.name for g in GAMES])
def test_the_moves_searched_without_texts_are_those_searched_with_them(folder: Path) -> None:
    """For every shipped game the search sees no text it plays by: its moves, chosen on the text-free copy,
    are the moves it chooses on the spec itself, and they replay on the spec's game."""
    spec = _spec(folder)
    assert figures_for(spec) is not None
    players = _turn_players(spec)
    game = make_game(spec, players)
    moves = chosen_turn(spec, players, FIGURE_SEED)
    assert moves == first_turn_moves(game, FIGURE_SEED)
    assert moves.turn, "the first turn has at least one action"
    played = replay_turn(game, FIGURE_SEED, moves)
    assert played is not None
    assert [action for _, action in played[1]] == list(moves.turn)


def test_the_text_free_copy_keeps_no_text_and_leaves_the_spec_alone() -> None:
    spec = _spec(ROOT / "specs" / "keramikos")
    before = spec.model_dump_json()
    blind = text_free(spec)
    assert spec.model_dump_json() == before
    texts = list(all_texts(blind))
    assert texts
    for path, text in texts:
        assert set(text.values()) == {".".join(str(part) for part in path)}
    assert len({text_value for _, text in texts for text_value in text.values()}) == len(texts)  # two names stay two names
    assert blind.decks[0].cards[0].id == spec.decks[0].cards[0].id


def _renamed(folder: Path, tmp_path: Path, number: int | None = None) -> Spec:
    """A copy of ``folder``'s spec with its first deck renamed in every locale (and a number moved, if given)."""
    copy = tmp_path / f"copy-{len(list(tmp_path.iterdir()))}"
    shutil.copytree(folder, copy)
    path = copy / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    deck = data["decks"][0]
    deck["name"] = {locale: f"{name} II" for locale, name in deck["name"].items()}
    if number is not None:
        name = sorted(data["numbers"])[0]
        data["numbers"][name] = number
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return _spec(copy)


def test_a_kept_turn_is_reused_after_a_text_edit_and_searched_again_after_a_rule_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = ROOT / "specs" / "crazy-eights"
    spec = _spec(folder)
    players = _turn_players(spec)
    searched: list[int] = []
    real_search = turn_moves.first_turn_moves

    def counting(game: object, seed: int) -> TurnMoves:
        searched.append(seed)
        return real_search(game, seed)  # type: ignore[arg-type]

    monkeypatch.setattr(turn_moves, "first_turn_moves", counting)
    cache = ArtefactCache(tmp_path / "cache")
    (tmp_path / "copies").mkdir()
    first = chosen_turn(spec, players, FIGURE_SEED, cache)
    assert len(searched) == 1
    assert chosen_turn(_renamed(folder, tmp_path / "copies"), players, FIGURE_SEED, cache) == first
    assert len(searched) == 1, "a deck name edit reuses the kept moves"
    number = sorted(spec.numbers)[0]
    chosen_turn(_renamed(folder, tmp_path / "copies", spec.numbers[number] + 1), players, FIGURE_SEED, cache)
    assert len(searched) == 2, "a rule-bearing number is part of the key"
    chosen_turn(spec, players + 1, FIGURE_SEED, cache)
    assert len(searched) == 3, "so is the player count"


def test_a_damaged_entry_is_searched_again(tmp_path: Path) -> None:
    spec = _spec(ROOT / "specs" / "no-thanks")
    players = _turn_players(spec)

    class Spoilt(ArtefactCache):
        def get(self, key: str) -> bytes | None:
            return b'{"opening": [1], "turn": "x"}'

    moves = chosen_turn(spec, players, FIGURE_SEED, Spoilt(tmp_path / "cache"))
    assert moves == first_turn_moves(make_game(text_free(spec), players), FIGURE_SEED)
    assert TurnMoves.decode(b"not json") is None
    assert TurnMoves.decode(b'{"opening": [], "turn": [true]}') is None


def test_moves_the_game_does_not_play_that_way_are_not_replayed() -> None:
    spec = _spec(ROOT / "specs" / "keramikos")
    players = _turn_players(spec)
    game = make_game(spec, players)
    moves = first_turn_moves(game, FIGURE_SEED)
    assert replay_turn(game, FIGURE_SEED, moves) is not None
    assert replay_turn(game, FIGURE_SEED, TurnMoves(moves.opening, moves.turn[:-1])) is None, "a turn cut short ends elsewhere"
    assert replay_turn(game, FIGURE_SEED, TurnMoves(moves.opening, moves.turn + moves.turn[-1:])) is None, "the turn was over"
    assert replay_turn(game, FIGURE_SEED, TurnMoves(moves.opening, (10**9,) + moves.turn[1:])) is None, "an action not offered"


def test_a_rebuild_after_a_name_edit_replays_the_kept_turn_and_writes_what_a_fresh_build_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "specs" / "keramikos"
    shutil.copytree(ROOT / "specs" / "keramikos", folder)
    options = BuildOptions(only=("rulebooks",))
    out = tmp_path / "out"
    with build_lock(out):
        assert not build_game(folder, out, options).failed
    path = folder / "game.yaml"
    name = yaml.safe_load(path.read_text(encoding="utf-8"))["decks"][0]["cards"][0]["name"]["en"]
    text = path.read_text(encoding="utf-8")
    assert name in text
    path.write_text(text.replace(name, f"{name} II", 1), encoding="utf-8")
    assert _spec(folder).decks[0].cards[0].name["en"] == f"{name} II"
    searched: list[int] = []
    real_search = turn_moves.first_turn_moves

    def counting(game: object, seed: int) -> TurnMoves:
        searched.append(seed)
        return real_search(game, seed)  # type: ignore[arg-type]

    monkeypatch.setattr(turn_moves, "first_turn_moves", counting)
    with build_lock(out):
        again = build_game(folder, out, options)
    assert not again.failed
    assert searched == [], "the rebuild replays the kept moves"
    fresh = tmp_path / "fresh"
    with build_lock(fresh):
        assert not build_game(folder, fresh, BuildOptions(only=("rulebooks",), cache=False)).failed
    assert searched == [FIGURE_SEED]
    names = sorted(p.name for p in (fresh / "keramikos").iterdir())
    assert any(n.endswith(".pdf") for n in names) and any(n.endswith("-turn.svg") for n in names)
    assert names == sorted(p.name for p in (out / "keramikos").iterdir() if p.is_file())
    for name in names:
        assert (out / "keramikos" / name).read_bytes() == (fresh / "keramikos" / name).read_bytes(), name
