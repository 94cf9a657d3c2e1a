"""Trick taking as rules data: Hearts (specs/hearts) played by the generic interpreter.

Three layers, as for every game: rules taken from the rulebook's own text and
example (following suit, the winner of a trick with and without trump, the lead
restriction, the first trick, shooting the moon), invariants over random
playouts at every player count, and mutants: each trick finding (CG178) and each
new name the vocabulary checks (CG175) is produced by a broken copy of the spec, and so is a deal
that leaves the seats with hands of different sizes (CG179).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from cardgen.engine.core import make_game
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.findings import Severity
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec
from cardgen.catalogue import validate_folder

HEARTS = Path(__file__).resolve().parents[2] / "specs" / "hearts"
PENALTY = 26
"""Every heart (one point each) and the queen of spades (as much as all hearts): the penalty points of a deal."""


@pytest.fixture(scope="module")
def spec() -> Spec:
    loaded = load_spec(HEARTS)
    assert loaded.spec is not None, [f.render() for f in loaded.findings]
    return loaded.spec


def _game(spec: Spec, players: int = 4) -> DataGame:
    game = make_game(spec, players)
    assert isinstance(game, DataGame)
    return game




def _table(game: DataGame, hands: dict[int, list[str]], *, seat: int, tricks: int = 1, broken: int = 0) -> DataState:
    """A position: these hands (every other card in the stock), no trick on the table, ``seat`` to lead."""
    s = game.new_initial_state(0)
    for zone in s.z:
        zone.clear()
    held = set()
    for who, cards in hands.items():
        s.z[game.slot("hand", who)].extend(game.design(c) for c in cards)
        held.update(cards)
    s.z[game.slot("stock")].extend(d for d, card_id in enumerate(game.card_ids) if card_id not in held)
    s.c[game.tables.counter_index["tricks"]] = tricks
    s.c[game.tables.counter_index["broken"]] = broken
    s.seat = seat
    return s


def _cards(game: DataGame, s: DataState) -> list[str]:
    width = game.width
    return sorted(game.card_ids[a % width] for a in s.legal_actions())


def _play(game: DataGame, s: DataState, card_id: str) -> None:
    action = next(a for a in s.legal_actions() if a % game.width == game.design(card_id))
    s.apply_action(action)


# --- the rulebook's own rules -------------------------------------------------------------------


def test_the_rulebook_example_trick(spec: Spec) -> None:
    """The worked example: Ana leads the nine of clubs, Bruno must follow, Carla throws the queen of spades, Davi's ace wins."""
    game = _game(spec)
    ana, bruno, carla, davi = 0, 1, 2, 3
    s = _table(
        game,
        {
            ana: ["9-clubs", "4-spades"],
            bruno: ["k-clubs", "5-hearts"],
            carla: ["q-spades", "7-diamonds"],
            davi: ["a-clubs", "2-hearts"],
        },
        seat=ana,
    )
    _play(game, s, "9-clubs")
    assert s.seat == bruno
    assert _cards(game, s) == ["k-clubs"], "Bruno holds a club and must follow"
    _play(game, s, "k-clubs")
    assert _cards(game, s) == ["7-diamonds", "q-spades"], "Carla has no club: she may play anything"
    _play(game, s, "q-spades")
    assert _cards(game, s) == ["a-clubs"]
    _play(game, s, "a-clubs")
    assert s.z[game.slot("trick")] == []
    assert sorted(game.card_ids[d] for d in s.z[game.slot("taken", davi)]) == ["9-clubs", "a-clubs", "k-clubs", "q-spades"]
    assert s.seat == davi, "the winner leads the next trick"
    assert s.tricks_taken == 1


def test_a_seat_that_cannot_follow_plays_anything(spec: Spec) -> None:
    game = _game(spec)
    s = _table(game, {0: ["9-spades", "4-clubs"], 1: ["3-hearts", "q-spades", "k-diamonds"], 2: ["2-clubs"], 3: ["5-clubs"]}, seat=0)
    s.apply_action(next(a for a in s.legal_actions() if a % game.width == game.design("4-clubs")))
    assert _cards(game, s) == ["3-hearts", "k-diamonds", "q-spades"]


def test_the_highest_card_of_the_suit_led_wins_and_off_suit_never_does(spec: Spec) -> None:
    game = _game(spec)
    s = _table(game, {0: ["3-clubs", "2-spades"], 1: ["a-diamonds", "3-spades"], 2: ["9-clubs", "4-spades"], 3: ["k-hearts", "5-spades"]}, seat=0, broken=1)
    for card in ("3-clubs", "a-diamonds", "9-clubs", "k-hearts"):
        _play(game, s, card)
    assert s.seat == 2
    assert len(s.z[game.slot("taken", 2)]) == 4


def test_trump_beats_the_suit_led_and_the_higher_trump_wins(spec: Spec, tmp_path: Path) -> None:
    """The same trick with `trump` set: a low trump takes it; with two trumps, the higher."""
    folder = _copy(tmp_path)
    _edit(folder, lambda data: data["rules"]["tricks"].__setitem__("trump", "'diamonds'"))
    trumped = load_spec(folder).spec
    assert trumped is not None
    game = _game(trumped)
    s = _table(game, {0: ["3-clubs", "2-spades"], 1: ["2-diamonds", "3-spades"], 2: ["a-clubs", "4-spades"], 3: ["k-hearts", "5-spades"]}, seat=0)
    for card in ("3-clubs", "2-diamonds", "a-clubs", "k-hearts"):
        _play(game, s, card)
    assert s.seat == 1, "the two of the trump suit beats the ace of the suit led"
    s = _table(game, {0: ["3-clubs", "2-spades"], 1: ["2-diamonds", "3-spades"], 2: ["5-diamonds", "4-spades"], 3: ["a-clubs", "5-spades"]}, seat=0)
    for card in ("3-clubs", "2-diamonds", "5-diamonds", "a-clubs"):
        _play(game, s, card)
    assert s.seat == 2, "the higher trump wins"
    plain = _game(spec)  # control: without trump the ace of clubs wins that very trick
    s = _table(plain, {0: ["3-clubs", "2-spades"], 1: ["2-diamonds", "3-spades"], 2: ["5-diamonds", "4-spades"], 3: ["a-clubs", "5-spades"]}, seat=0)
    for card in ("3-clubs", "2-diamonds", "5-diamonds", "a-clubs"):
        _play(plain, s, card)
    assert s.seat == 3


def test_hearts_are_not_led_until_broken_unless_the_hand_holds_only_hearts(spec: Spec) -> None:
    game = _game(spec)
    hands = {0: ["4-hearts", "9-hearts", "k-clubs"], 1: ["2-clubs"], 2: ["3-clubs"], 3: ["5-clubs"]}
    assert _cards(game, _table(game, hands, seat=0)) == ["k-clubs"]
    assert _cards(game, _table(game, hands, seat=0, broken=1)) == ["4-hearts", "9-hearts", "k-clubs"]
    only_hearts = {0: ["4-hearts", "9-hearts"], 1: ["2-clubs"], 2: ["3-clubs"], 3: ["5-clubs"]}
    assert _cards(game, _table(game, only_hearts, seat=0)) == ["4-hearts", "9-hearts"]


def test_a_heart_played_to_a_trick_breaks_hearts(spec: Spec) -> None:
    game = _game(spec)
    s = _table(
        game,
        {0: ["a-clubs", "7-hearts", "8-clubs"], 1: ["4-hearts", "6-diamonds", "2-diamonds"], 2: ["9-clubs", "2-spades", "3-spades"], 3: ["5-clubs", "4-spades", "5-spades"]},
        seat=0,
    )
    assert _cards(game, s) == ["8-clubs", "a-clubs"], "hearts are not broken yet"
    for card in ("a-clubs", "4-hearts", "9-clubs", "5-clubs"):
        _play(game, s, card)
    assert s.seat == 0 and s.c[game.tables.counter_index["broken"]] == 1
    assert _cards(game, s) == ["7-hearts", "8-clubs"], "a heart discarded on a trick broke hearts: they may be led"


def test_the_first_trick_is_led_with_the_two_of_clubs_and_takes_no_penalty_card(spec: Spec) -> None:
    for players in range(spec.players.min, spec.players.max + 1):
        game = _game(spec, players)
        for seed in range(20):
            s = game.new_initial_state(seed)
            assert game.design("2-clubs") in s.z[game.slot("hand", s.seat)], "whoever holds the two of clubs leads"
            assert _cards(game, s) == ["2-clubs"]
    game = _game(spec)
    s = _table(game, {0: ["2-clubs", "3-clubs"], 1: ["q-spades", "5-hearts", "4-diamonds"], 2: ["9-hearts"], 3: ["6-clubs"]}, seat=0, tricks=0)
    _play(game, s, "2-clubs")
    assert _cards(game, s) == ["4-diamonds"], "no penalty card on the first trick while another card is held"
    _play(game, s, "4-diamonds")
    assert _cards(game, s) == ["9-hearts"], "a hand of nothing but penalty cards may play one"


def test_shooting_the_moon_turns_the_points_against_the_others(spec: Spec) -> None:
    game = _game(spec)
    hearts = [card_id for card_id in game.card_ids if card_id.endswith("-hearts")]
    s = _table(game, {}, seat=0)
    s.z[game.slot("stock")].clear()
    s.z[game.slot("taken", 2)].extend(game.design(c) for c in hearts + ["q-spades", "3-clubs"])
    assert s.scores() == [-PENALTY, -PENALTY, 0, -PENALTY]
    # Control: one heart elsewhere, and everyone scores what they took.
    s.z[game.slot("taken", 2)].remove(game.design("5-hearts"))
    s.z[game.slot("taken", 1)].append(game.design("5-hearts"))
    assert s.scores() == [0, -1, -(PENALTY - 1), 0]


# --- random playouts --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_playouts_keep_the_rules_of_tricks(spec: Spec, players: int) -> None:
    game = _game(spec, players)
    hand, trick = game.tables.zone_index["hand"], game.slot("trick")
    dealt = spec.setups[[s.players for s in spec.setups].index(players)].deal["standard"]
    suit = game.tables.field_values["suit"]
    for seed in range(25):
        rng = random.Random(seed)
        s = game.new_initial_state(seed)
        in_play = sum(len(s.z[hand + k]) for k in range(players))
        assert in_play == dealt * players and all(len(s.z[hand + k]) == dealt for k in range(players))
        while not s.is_terminal():
            assert s.conservation_errors() == []
            assert len(s.z[trick]) == len(s.trick_seats) < players
            assert len(set(s.trick_seats)) == len(s.trick_seats), "no seat plays twice to one trick"
            actions = s.legal_actions()
            assert actions, "a seat to move always has a card to play"
            own = s.z[hand + s.seat]
            if s.z[trick]:
                led = suit[s.z[trick][0]]
                if any(suit[d] == led for d in own):
                    assert all(suit[a % game.width] == led for a in actions)
            s.apply_action(rng.choice(actions))
        assert s.conservation_errors() == []
        assert s.tricks_taken == dealt
        taken = [len(s.z[game.slot("taken", k)]) for k in range(players)]
        assert all(n % players == 0 for n in taken) and sum(taken) == in_play, "every trick holds one card per seat"
        scores = s.scores()
        assert sum(scores) in (-PENALTY, -PENALTY * (players - 1))
        assert min(scores) >= -PENALTY


# --- mutants: each finding from a broken copy ---------------------------------------------------


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "hearts"
    shutil.copytree(HEARTS, target)
    return target


def _edit(folder: Path, change: Callable[[dict[str, Any]], object]) -> None:
    path = folder / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _rules(data: dict[str, Any]) -> dict[str, Any]:
    rules: dict[str, Any] = data["rules"]
    return rules


def _option(data: dict[str, Any]) -> dict[str, Any]:
    option: dict[str, Any] = _rules(data)["turn"][0]["options"][0]
    return option


MUTANTS: list[tuple[str, Callable[[dict[str, Any]], object], str, str]] = [
    ("per-seat trick zone", lambda d: _rules(d)["zones"]["trick"].__setitem__("per_seat", True), "CG178", "rules.tricks.zone"),
    ("tricks won to a shared zone", lambda d: _rules(d)["zones"]["taken"].__setitem__("per_seat", False), "CG178", "rules.tricks.won"),
    ("no play to the trick", lambda d: _option(d)["card"].__setitem__("to", "taken"), "CG178", "rules.tricks.zone"),
    (
        "two cards a turn",
        lambda d: _rules(d).update(
            turn=[
                {"id": "turn", "options": [{**_option(d), "then": "more"}]},
                {"id": "more", "options": [{"id": "again", "card": {"from": "hand", "to": "trick"}}]},
            ]
        ),
        "CG178",
        "rules.turn[0]",
    ),
    (
        "a turn that may play nothing",
        lambda d: _rules(d)["turn"][0]["options"].append({"id": "wait", "when": "count(hand) > 0"}),
        "CG178",
        "rules.turn[0]",
    ),
    ("an extra turn", lambda d: _rules(d)["effects"]["heart"].append("extra_turn"), "CG178", "rules.effects.heart[1]"),
    ("reverse after a trick", lambda d: _rules(d)["tricks"]["after"].append("reverse"), "CG178", "rules.tricks.after[1]"),
    (
        "a move out of the trick",
        lambda d: _rules(d)["effects"]["heart"].append({"move": {"from": "trick", "to": "aside"}}),
        "CG178",
        "rules.effects.heart[1]",
    ),
    ("a deal to the trick", lambda d: _rules(d)["setup"][2]["deal"].__setitem__("to", "trick"), "CG178", "rules.setup[2].deal"),
    ("a play from a shared zone", lambda d: _option(d)["card"].__setitem__("from", "stock"), "CG178", "rules.turn[0].options[0].card.from"),
    ("a rank that is text", lambda d: _rules(d)["tricks"].__setitem__("rank", "label"), "CG178", "rules.tricks.rank"),
    (
        "a choice after a trick",
        lambda d: _rules(d).update(variables={"called": {"values": "suit"}}, tricks={**_rules(d)["tricks"], "after": [{"choose": "called"}]}),
        "CG178",
        "rules.tricks.after[0]",
    ),
    (
        "an uneven deal",
        lambda d: _rules(d)["setup"][1]["set_aside"].__setitem__("where", "players == 3 and card.id in ['2-diamonds', '2-spades']"),
        "CG179",
        "rules.setup[2].deal.count",
    ),
    ("a deal larger than the deck", lambda d: _rules(d)["setup"][2]["deal"].__setitem__("count", "setup.deal.standard + 1"), "CG179", "rules.setup[2].deal.count"),
    ("an unknown field followed", lambda d: _rules(d)["tricks"].__setitem__("follow", "colour"), "CG175", "rules.tricks.follow"),
    ("an unknown trick zone", lambda d: _rules(d)["tricks"].__setitem__("won", "pile"), "CG175", "rules.tricks.won"),
    ("holds an unknown card", lambda d: _rules(d)["first_player"].__setitem__("where", "holds(hand, '1-clubs')"), "CG175", "rules.first_player.where"),
    ("holds without quotes", lambda d: _rules(d)["first_player"].__setitem__("where", "holds(hand, 2)"), "CG175", "rules.first_player.where"),
    ("a lead over an unknown name", lambda d: _rules(d)["tricks"].__setitem__("lead", "card.suit != led"), "CG175", "rules.tricks.lead"),
    ("set aside from a hand", lambda d: _rules(d)["setup"][1]["set_aside"].__setitem__("from", "hand"), "CG175", "rules.setup[1].set_aside.from"),
    ("set aside over an unknown field", lambda d: _rules(d)["setup"][1]["set_aside"].__setitem__("where", "card.colour == 'red'"), "CG175", "rules.setup[1].set_aside.where"),
    ("a sweep of an unknown field", lambda d: _rules(d)["scoring"][0]["all_or_nothing"].__setitem__("field", "penalty"), "CG175", "rules.scoring[0].all_or_nothing.field"),
]


def test_a_setup_condition_on_a_zone_neither_breaks_the_deal_check_nor_misleads_it(tmp_path: Path) -> None:
    """The deal check follows the setup only where it is known before play; a condition on a zone stops it quietly."""
    folder = _copy(tmp_path)
    _edit(folder, lambda d: _rules(d)["setup"][1]["set_aside"].__setitem__("where", "count(stock) > 100 and card.id == '2-diamonds'"))
    result = validate_folder(folder, kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []


def test_the_unbroken_copy_is_clean(tmp_path: Path) -> None:
    """The control: a plain copy has no error, so every finding below comes from its one edit."""
    folder = _copy(tmp_path)
    _edit(folder, lambda data: None)
    result = validate_folder(folder, kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []


@pytest.mark.parametrize(("name", "change", "code", "path"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_each_broken_copy_is_refused_at_its_place(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], object], code: str, path: str) -> None:
    folder = _copy(tmp_path)
    _edit(folder, change)
    result = validate_folder(folder, kinds=("static",))
    found = [f for f in result.findings if f.code == code and f.severity is Severity.ERROR]
    assert found, f"{name}: expected {code}, got {[f.render() for f in result.findings]}"
    assert any(f.path == path for f in found), f"{name}: {code} at {[f.path for f in found]}, expected {path}"
    for finding in found:
        assert finding.file.endswith("game.yaml") and finding.line > 0, finding.render()


# --- every trick's winner against a reference, with and without a trump turned up at setup ------


def _reference_winner(cards: list[tuple[int, str, int]], trump: str | None) -> int:
    """The seat winning a trick of (seat, suit, rank) in play order: the highest trump, else the highest of the suit led."""
    led = cards[0][1]
    trumps = [c for c in cards if trump is not None and c[1] == trump]
    contenders = trumps or [c for c in cards if c[1] == led]
    return max(contenders, key=lambda c: c[2])[0]


def _turned_trump(data: dict[str, Any]) -> None:
    """An Oh Hell-like variant: one card fewer each, the next card turned up, and its suit is trump."""
    rules = _rules(data)
    rules["zones"]["turned"] = {"visibility": "public"}
    rules["variables"] = {"trump": {"values": "suit"}}
    rules["setup"][2]["deal"]["count"] = "setup.deal.standard - 1"
    rules["setup"] += [{"move": {"from": "stock", "to": "turned"}}, {"set": {"var": "trump", "value": "top(turned).suit"}}]
    rules["tricks"]["trump"] = "trump"


@pytest.mark.parametrize("variant", ["plain", "turned trump"])
def test_every_trick_goes_to_the_reference_winner(tmp_path: Path, variant: str) -> None:
    folder = _copy(tmp_path)
    _edit(folder, _turned_trump if variant == "turned trump" else (lambda data: None))
    result = validate_folder(folder, kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []
    assert result.loaded is not None and result.loaded.spec is not None
    trumped = 0
    for players in (3, 4, 6):
        game = _game(result.loaded.spec, players)
        suit, rank = game.tables.field_values["suit"], game.tables.field_values["rank"]
        trick = game.slot("trick")
        for seed in range(15):
            rng = random.Random(seed)
            s = game.new_initial_state(seed)
            trump = s.v[0] if variant == "turned trump" else None
            assert (trump is None) == (variant == "plain")
            while not s.is_terminal():
                action = rng.choice(s.legal_actions())
                if len(s.z[trick]) == players - 1:
                    played = [(seat, suit[d], rank[d]) for seat, d in zip(s.trick_seats, s.z[trick])]
                    played.append((s.seat, suit[action % game.width], rank[action % game.width]))
                    expected = _reference_winner(played, trump)
                    trumped += any(c[1] == trump for c in played) and played[0][1] != trump
                    before = len(s.z[game.slot("taken", expected)])
                    s.apply_action(action)
                    assert len(s.z[game.slot("taken", expected)]) == before + players
                    assert s.is_terminal() or s.seat == expected
                else:
                    s.apply_action(action)
    if variant == "turned trump":
        assert trumped > 0, "the playouts trumped a trick led in another suit"
