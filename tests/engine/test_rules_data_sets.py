"""Set scoring as rules data (``scoring: - sets``): Potsherds (tests/fixtures/potsherds) and Keramikos' pottery.

Three layers: the rules the fixture's rulebook states (a complete set once, an
incomplete one a point per pieces, glue where it scores the most, the tiebreakers),
a cross-check of the scorer against the hand-written Keramikos engine's own scoring
(score and every tiebreaker, over thousands of random collections, under both
readings of its Complete card), and mutants: each new name the checker reads
produces CG175 at its place in a broken copy of the fixture.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from cardgen.catalogue import validate_folder
from cardgen.engine.core import make_game
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.engine.interpreter.sets import SetsScorer
from cardgen.findings import Severity
from reference.keramikos import KeramikosGame
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "potsherds"
KERAMIKOS = ROOT / "specs" / "keramikos"


def _load(folder: Path) -> Spec:
    loaded = load_spec(folder)
    assert loaded.spec is not None, [f.render() for f in loaded.findings]
    return loaded.spec


@pytest.fixture(scope="module")
def spec() -> Spec:
    return _load(FIXTURE)


def _game(spec: Spec, players: int = 2) -> DataGame:
    game = make_game(spec, players)
    assert isinstance(game, DataGame)
    return game


def _holding(game: DataGame, shelves: dict[int, list[str]], pots: dict[int, int] | None = None) -> DataState:
    """A position in which each seat's shelf holds these shards and its glue pot this many glue cards."""
    s = game.new_initial_state(0)
    for zone in s.z:
        zone.clear()
    for seat, cards in shelves.items():
        s.z[game.slot("shelf", seat)].extend(game.design(c) for c in cards)
    for seat, glue in (pots or {}).items():
        s.z[game.slot("pot", seat)].extend([game.design("glue")] * glue)
    return s


def _with_option(tmp_path: Path, glue: str) -> Spec:
    folder = tmp_path / f"potsherds-{glue}"
    shutil.copytree(FIXTURE, folder)
    path = folder / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["options"] = {"glue": glue}
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return _load(folder)


# --- the rulebook's own rules -------------------------------------------------------------------


def test_a_complete_set_scores_once_and_an_incomplete_one_a_point_per_pieces(spec: Spec) -> None:
    game = _game(spec)
    # P1: three cups (complete: 4) and three jugs' worth of nothing but two jugs (2 // 2 = 1); P2: one vase (1 // 2 = 0).
    s = _holding(game, {0: ["cup", "cup", "cup", "jug", "jug"], 1: ["vase"]})
    assert s.scores() == [4 + 1, 0]
    # A fourth cup is still one complete set, scored once.
    s = _holding(game, {0: ["cup"] * 4})
    assert s.scores() == [4, 0]


def test_glue_completes_the_started_set_where_it_scores_the_most(spec: Spec) -> None:
    game = _game(spec)
    # One vase (of four) and two cups (of three): glue on the vase scores 12 + 1, on the cups 4 + 0.
    s = _holding(game, {0: ["vase", "cup", "cup"]}, {0: 1})
    assert s.scores()[0] == 12 + 1
    # Glue needs a started set: with an empty shelf it scores nothing.
    assert _holding(game, {}, {0: 2}).scores() == [0, 0]
    # Two glue cards complete two sets.
    assert _holding(game, {0: ["vase", "cup"]}, {0: 2}).scores()[0] == 12 + 4


def test_glue_fills_one_piece_under_the_other_reading(tmp_path: Path) -> None:
    game = _game(_with_option(tmp_path, "piece"))
    # One vase lacks three: one glue card cannot finish it; two cups lack one: the glue finishes them.
    s = _holding(game, {0: ["vase", "cup", "cup"]}, {0: 1})
    assert s.scores()[0] == 4 + 0
    s = _holding(game, {0: ["vase", "vase", "vase"]}, {0: 1})
    assert s.scores()[0] == 12


def test_ties_go_to_cards_in_complete_sets_then_to_the_highest_level(spec: Spec) -> None:
    game = _game(spec, 3)
    # P1: cups and jugs complete (4 + 4, six shards in complete sets); P2: the same with a fourth cup (seven);
    # P3: bowls and cups complete (5 + 4).
    s = _holding(game, {0: ["cup"] * 3 + ["jug"] * 3, 1: ["cup"] * 4 + ["jug"] * 3, 2: ["bowl"] * 2 + ["cup"] * 3})
    assert s.scores() == [8, 8, 9]
    # P3 wins on points; P2 beats P1 on shards in complete sets.
    assert s.ranking() == [[2], [1], [0]]
    # P1: a bowl glued complete (5, one shard); P2: a cup glued complete and two jugs (4 + 1, one shard):
    # same points, same shards, and P1's complete set is of the higher level.
    s = _holding(game, {0: ["bowl"], 1: ["cup", "jug", "jug"]}, {0: 1, 1: 1})
    assert s.scores() == [5, 5, 0]
    assert s.ranking() == [[0], [1], [2]]
    # Same points, same shards, one complete set of each level: shared.
    s = _holding(game, {0: ["bowl", "bowl", "cup", "cup", "cup"], 1: ["jug", "jug", "jug", "bowl", "bowl"]})
    assert s.scores() == [9, 9, 0]
    assert s.ranking() == [[0, 1], [2]]


def test_random_playouts_keep_every_card_and_score_within_the_bound(spec: Spec) -> None:
    rng = random.Random(5)
    for players in (2, 3, 4):
        game = _game(spec, players)
        info = game.info()
        for seed in range(30):
            s = game.new_initial_state(seed)
            while not s.is_terminal():
                s.apply_action(rng.choice(s.legal_actions()))
                assert s.conservation_errors() == []
            scores = s.scores()
            assert all(info.min_score <= x <= info.max_score for x in scores)
            ranking = s.ranking()
            assert sorted(seat for group in ranking for seat in group) == list(range(players))
            assert [scores[group[0]] for group in ranking] == sorted({*scores}, reverse=True) or len(ranking) > len(set(scores))


# --- a cross-check against the hand-written Keramikos engine's scoring ---------------------------------


def _keramikos_as_sets(tmp_path: Path, complete_card: str) -> tuple[DataGame, KeramikosGame]:
    """Keramikos' decks with a rules data that only collects (its scoring as a ``sets`` item), and the hand-written game."""
    folder = tmp_path / f"keramikos-{complete_card}"
    shutil.copytree(KERAMIKOS, folder)
    path = folder / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["options"] = {"complete_card": complete_card}
    reference = KeramikosGame(_load_from(data, folder, path), 2)
    data.pop("options")
    data["options"] = {"complete_card": complete_card}
    data["rules"] = {
        "options": {"complete_card": {"choices": ["set", "piece"], "default": "set"}},
        "zones": {"deck": {}, "collection": {"per_seat": True, "ordered": False}, "hand": {"per_seat": True, "ordered": False}},
        "setup": [{"shuffle": {"deck": "excavation", "to": "deck"}}],
        "turn": [{"id": "dig", "options": [{"id": "take", "card": {"from": "deck", "to": "collection", "effects": False}}]}],
        "end": {"table": "count(deck) == 0"},
        "scoring": [
            {
                "sets": {
                    "zone": "collection",
                    "set": "set",
                    "size": "set_size",
                    "points": "points",
                    "per": "numbers.pieces_per_point",
                    "wild": {"zone": "hand", "where": "card.effect == 'complete'", "fills": "options.complete_card"},
                    "ties": ["cards", {"by": "level"}],
                }
            }
        ],
    }
    data["rules"]["effects"] = {}
    game = _game(_load_from(data, folder, path), 2)
    return game, reference


def _load_from(data: dict[str, Any], folder: Path, path: Path) -> Spec:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return _load(folder)


@pytest.mark.parametrize("complete_card", ["set", "piece"])
def test_the_sets_scorer_agrees_with_the_keramikos_engine(tmp_path: Path, complete_card: str) -> None:
    """Thousands of random collections (near-complete sets favoured) with 0-3 Complete cards: the same score and the
    same tiebreak key (cards in complete sets, complete sets by level from the highest) as the hand-written scoring."""
    game, reference = _keramikos_as_sets(tmp_path, complete_card)
    scorer = game.scorers[0]
    assert isinstance(scorer, SetsScorer)
    designs = [game.design(kind) for kind in reference.kind_ids[: reference.num_pottery]]
    complete = game.design(reference.kind_ids[reference.num_pottery + reference.sp_complete])
    rng = random.Random(14)
    s = game.new_initial_state(0)
    for zone in s.z:
        zone.clear()
    differences = []
    for trial in range(3000):
        coll = [rng.choice([0, 0, 1, max(0, reference.set_size[k] - 1), reference.set_size[k], rng.randint(0, reference.copies[k])]) for k in range(reference.num_pottery)]
        completes = rng.choice([0, 0, 1, 1, 2, 3])
        s.z[game.slot("collection", 0)][:] = [designs[k] for k in range(reference.num_pottery) for _ in range(coll[k])]
        s.z[game.slot("hand", 0)][:] = [complete] * completes
        detail = reference.score_detail(coll, completes)
        if (scorer(s, 0), scorer.ties(s, 0)) != (detail.score, detail.key[1:]):
            differences.append((coll, completes, scorer(s, 0), scorer.ties(s, 0), detail.key))
    assert differences == []


# --- the rulebook text ------------------------------------------------------------------------------


@pytest.mark.parametrize(("locale", "words"), [("en", ["complete set", "glue pot"]), ("pt_BR", ["conjunto completo", "pote de cola"])])
def test_the_generated_scoring_says_the_sets_rule(spec: Spec, locale: str, words: list[str]) -> None:
    from cardgen.rulebook.i18n import translations

    summary = rules_summary(spec, locale, translations(locale))
    assert summary is not None
    text = " ".join(summary["end"])
    assert "Rule “sets”" not in text and "Regra “sets”" not in text
    for word in words:
        assert word in text, text


# --- mutants ----------------------------------------------------------------------------------------


def _sets(data: dict[str, Any]) -> dict[str, Any]:
    item: dict[str, Any] = data["rules"]["scoring"][0]["sets"]
    return item


MUTANTS: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("a shared zone", lambda d: _sets(d).__setitem__("zone", "row"), "rules.scoring[0].sets.zone"),
    ("an unknown zone", lambda d: _sets(d).__setitem__("zone", "cupboard"), "rules.scoring[0].sets.zone"),
    ("an unknown set field", lambda d: _sets(d).__setitem__("set", "family"), "rules.scoring[0].sets.set"),
    ("a size that is text", lambda d: _sets(d).__setitem__("size", "set"), "rules.scoring[0].sets.size"),
    ("unknown points", lambda d: _sets(d).__setitem__("points", "value"), "rules.scoring[0].sets.points"),
    ("a tiebreak by text", lambda d: _sets(d).__setitem__("ties", ["cards", {"by": "set"}]), "rules.scoring[0].sets.ties[1].by"),
    ("a per read from the table", lambda d: _sets(d).__setitem__("per", "count(row)"), "rules.scoring[0].sets.per"),
    ("a per that is text", lambda d: _sets(d).__setitem__("per", "'two'"), "rules.scoring[0].sets.per"),
    ("a wild zone that is shared", lambda d: _sets(d)["wild"].__setitem__("zone", "heap"), "rules.scoring[0].sets.wild.zone"),
    ("a wild condition on an unknown name", lambda d: _sets(d)["wild"].__setitem__("where", "card.kind == 'glue'"), "rules.scoring[0].sets.wild.where"),
    ("a fill that is another text", lambda d: _sets(d)["wild"].__setitem__("fills", "'half'"), "rules.scoring[0].sets.wild.fills"),
    ("a fill read from the table", lambda d: _sets(d)["wild"].__setitem__("fills", "count(row)"), "rules.scoring[0].sets.wild.fills"),
]


def _copy(tmp_path: Path, change: Callable[[dict[str, Any]], object]) -> Path:
    folder = tmp_path / "potsherds"
    shutil.copytree(FIXTURE, folder)
    path = folder / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return folder


def test_the_unbroken_copy_is_clean(tmp_path: Path) -> None:
    result = validate_folder(_copy(tmp_path, lambda data: None), kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []


@pytest.mark.parametrize(("name", "change", "path"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_each_broken_copy_is_refused_at_its_place(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], object], path: str) -> None:
    result = validate_folder(_copy(tmp_path, change), kinds=("static",))
    found = [(f.code, f.path) for f in result.findings if f.severity is Severity.ERROR]
    assert ("CG175", path) in found, found


# --- the final round (end.final) ----------------------------------------------------------------------


def _turns_after_the_heap_runs_out(game: DataGame, seed: int) -> tuple[int, int, int]:
    """Play at random until the heap is empty at a turn's end; (the seat that emptied it, turns played after, the row left)."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    heap = game.slot("heap")
    emptied_by, turn_then = -1, 0
    while not s.is_terminal():
        seat, turn = s.seat, s.turn
        s.apply_action(rng.choice(s.legal_actions()))
        if emptied_by < 0 and not s.z[heap] and (s.turn != turn or s.is_terminal()):
            emptied_by, turn_then = seat, turn
    return emptied_by, s.turn - turn_then, len(s.z[game.slot("row")])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_takes_one_final_turn_after_the_heap_runs_out(spec: Spec, players: int) -> None:
    """The rulebook: after the turn that empties the heap, each player, that turn's player included, takes one more turn
    (the row, three cards once the heap is empty, runs out first with four players)."""
    game = _game(spec, players)
    for seed in range(20):
        emptied_by, after, row = _turns_after_the_heap_runs_out(game, seed)
        assert emptied_by >= 0
        if row:
            assert after == players, (seed, after)
        else:
            assert after <= players


def test_with_no_final_turn_the_game_ends_with_the_turn_that_empties_the_heap(tmp_path: Path) -> None:
    folder = _copy(tmp_path, lambda d: d["numbers"].__setitem__("final_turns", 0))
    game = _game(_load(folder), 2)
    for seed in range(10):
        _, after, row = _turns_after_the_heap_runs_out(game, seed)
        assert after == 0 and row == 3


def test_the_final_round_is_said_in_both_languages(spec: Spec) -> None:
    from cardgen.rulebook.i18n import translations

    said = {locale: " ".join((rules_summary(spec, locale, translations(locale)) or {}).get("end", [])) for locale in ("en", "pt_BR")}
    assert "takes 1 more turn in turn order" in said["en"], said["en"]
    assert "joga mais 1 turno na ordem de jogo" in said["pt_BR"], said["pt_BR"]


FINAL_MUTANTS: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("final turns read from the table", lambda d: d["rules"]["end"]["final"].__setitem__("turns", "count(row)"), "rules.end.final.turns"),
    ("final turns below zero", lambda d: d["rules"]["end"]["final"].__setitem__("turns", -1), "rules.end.final.turns"),
    ("a final round on an unknown zone", lambda d: d["rules"]["end"]["final"].__setitem__("when", "count(deck) == 0"), "rules.end.final.when"),
]


@pytest.mark.parametrize(("name", "change", "path"), FINAL_MUTANTS, ids=[m[0] for m in FINAL_MUTANTS])
def test_each_broken_final_round_is_refused_at_its_place(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], object], path: str) -> None:
    result = validate_folder(_copy(tmp_path, change), kinds=("static",))
    found = [(f.code, f.path) for f in result.findings if f.severity is Severity.ERROR]
    assert ("CG175", path) in found, found


# --- Keramikos' dice and dig sites: a roll with doubles names a site by its totals ------------------------


def _keramikos_dig(tmp_path: Path) -> tuple[DataGame, KeramikosGame, Spec]:
    """Keramikos' decks and dice with a rules data that rolls, then takes the dig site whose totals hold the roll."""
    folder = tmp_path / "keramikos-dig"
    shutil.copytree(KERAMIKOS, folder)
    path = folder / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    reference = KeramikosGame(_load_from(data, folder, path), 2)
    data["rules"] = {
        "zones": {"deck": {}, "row": {"ordered": False}, "found": {"per_seat": True, "ordered": False}},
        "variables": {"rolled": {}, "double": {}},
        "setup": [{"shuffle": {"deck": "dig-sites", "to": "row"}}, {"shuffle": {"deck": "excavation", "to": "deck"}}],
        "turn": [
            {"id": "throw", "options": [{"id": "roll", "do": [{"roll": {"dice": "dice", "var": "rolled", "doubles": "double"}}], "then": "dig"}]},
            {"id": "dig", "options": [{"id": "site", "card": {"from": "row", "to": "found", "where": "rolled in card.totals"}}]},
        ],
        "end": {"table": "count(row) == 0"},
        "scoring": [{"sets": {"zone": "found", "set": "set", "size": "set_size", "points": "points"}}],
    }
    spec = _load_from(data, folder, path)
    return _game(spec, 2), reference, spec


def test_a_roll_names_the_same_dig_site_with_the_same_probability_as_the_keramikos_engine(tmp_path: Path) -> None:
    """The chance outcomes of the data roll, read as (site whose totals hold the roll, doubles), have the probabilities
    of the hand-written engine's sixteen ordered pairs of faces grouped the same way."""
    game, reference, _ = _keramikos_dig(tmp_path)
    expected: dict[tuple[str, bool], float] = {}
    for index, (d1, d2) in enumerate(reference.outcome_dice):
        key = (reference.site_ids[reference.outcome_site[index]], d1 == d2)
        expected[key] = expected.get(key, 0.0) + 1 / len(reference.outcome_dice)
    s = game.new_initial_state(0)
    (roll,) = s.legal_actions()
    s.apply_action(roll)
    got: dict[tuple[str, bool], float] = {}
    for action, probability in s.chance_outcomes():
        after = s.clone()
        after.apply_action(action)
        (take,) = after.legal_actions()  # exactly one site holds each total
        key = (game.card_ids[take % game.width], bool(after.v[game.tables.variable_index["double"]]))
        got[key] = got.get(key, 0.0) + probability
    assert sorted(got) == sorted(expected)
    assert [got[k] for k in sorted(got)] == pytest.approx([expected[k] for k in sorted(expected)])


def test_a_list_lookup_is_said_in_both_languages(tmp_path: Path) -> None:
    from cardgen.rulebook.i18n import translations

    _, _, spec = _keramikos_dig(tmp_path)
    said = {locale: str((rules_summary(spec, locale, translations(locale)) or {}).get("turn")) for locale in ("en", "pt_BR")}
    assert "is one of the card’s totals" in said["en"] or "is one of the card's totals" in said["en"], said["en"]
    assert "é um d" in said["pt_BR"], said["pt_BR"]
