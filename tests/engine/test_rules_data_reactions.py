"""Reactions, forced steps, the active seat and rule options as rules data: Ambush (tests/fixtures/ambush).

The rules come from the fixture's own rulebook text: on your turn bank a coin, draw
a dagger on another player who holds a card, or walk on (take the road's top card);
the player a dagger aims at answers it (raises a shield, or lets it strike and you
take a card at random from their hand; with `shields: must` a player holding a
shield must raise it); after you walk on, every other player in turn, from your left,
who holds an alarm may sound it while your purse holds a coin (your last coin goes to
the ditch and you are caught once) or keep quiet and let the next one decide; the
first alarm ends the turn. Layers: who decides each step and what they are offered,
the forced robbery, the window's order and its close, the option's two readings,
invariants over random playouts, the rulebook's words in both languages, then broken
copies of the fixture, one per finding the new vocabulary adds, each at its line.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, Callable

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.core import CHANCE, make_game
from cardgen.engine.harness import conformance_problems
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.findings import Severity
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec

from engine.spec_copies import edit_spec, edited_copy, option_of, step_of

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "ambush"


@pytest.fixture(scope="module")
def spec() -> Spec:
    loaded = load_spec(FIXTURE)
    assert loaded.spec is not None, [f.render() for f in loaded.findings]
    return loaded.spec


def _with_option(spec: Spec, choice: str) -> Spec:
    return spec.model_copy(update={"options": {"shields": choice}})


def _game(spec: Spec, players: int = 3) -> DataGame:
    game = make_game(spec, players)
    assert isinstance(game, DataGame)
    return game


def _position(game: DataGame, hands: dict[int, list[str]], purses: dict[int, list[str]] | None = None) -> DataState:
    """Seat 0 to act; these hands and purses, every other card on the road (its order as the pool's)."""
    s = game.new_initial_state(0)
    for zone in s.z:
        zone.clear()
    pool = [d for d in range(game.n_designs) for _ in range(game.copies[d])]
    for where, cards_by_seat in (("hand", hands), ("purse", purses or {})):
        for seat, cards in cards_by_seat.items():
            for card_id in cards:
                pool.remove(game.design(card_id))
                s.z[game.slot(where, seat)].append(game.design(card_id))
    s.z[game.slot("road")].extend(pool)
    return s


def _offered(game: DataGame, s: DataState) -> dict[str, list[tuple[int, str]]]:
    """Option id -> the (target seat, card id) pairs offered (-1 / '' where none)."""
    out: dict[str, list[tuple[int, str]]] = {}
    for action in s.legal_actions():
        index, parameter = divmod(action, game.width)
        option = game.options[index]
        target, card = divmod(parameter, game.card_width) if option.target is not None else (-1, parameter)
        out.setdefault(option.key.split(".")[1], []).append((target, game.card_ids[card] if option.chooses_card else ""))
    return out


def _take(game: DataGame, s: DataState, option_id: str, target: int = -1, card: str = "") -> None:
    for action in s.legal_actions():
        index, parameter = divmod(action, game.width)
        option = game.options[index]
        aimed, design = divmod(parameter, game.card_width) if option.target is not None else (-1, parameter)
        if option.key.split(".")[1] == option_id and aimed == target and (not option.chooses_card or game.card_ids[design] == card):
            s.apply_action(action)
            return
    raise AssertionError(f"{option_id} at {target} with {card!r} is not offered: {_offered(game, s)}")


def _cards(game: DataGame, s: DataState, zone: str, seat: int = 0) -> list[str]:
    return sorted(game.card_ids[d] for d in s.z[game.slot(zone, seat)])


# --- a reaction by the seat aimed at -------------------------------------------------------------


def test_the_player_a_dagger_aims_at_decides_the_answer(spec: Spec) -> None:
    game = _game(spec)
    s = _position(game, {0: ["dagger"], 1: ["shield", "gold"], 2: ["copper"]})
    assert sorted(_offered(game, s)["stab"]) == [(1, "dagger"), (2, "dagger")]
    _take(game, s, "stab", target=1, card="dagger")
    assert s.current_player() == 1
    assert _offered(game, s) == {"raise_shield": [(-1, "shield")]}  # shields: must, and seat 1 holds one
    _take(game, s, "raise_shield", card="shield")
    assert _cards(game, s, "ditch") == ["dagger", "shield"]
    assert _cards(game, s, "hand", 1) == ["gold"]
    assert s.current_player() == 1 and s.seat == 1  # the turn ended and passed to seat 1, whose turn it is now


def test_with_shields_may_the_target_may_let_the_dagger_strike(spec: Spec) -> None:
    game = _game(_with_option(spec, "may"))
    s = _position(game, {0: ["dagger"], 1: ["shield", "gold"], 2: ["copper"]})
    _take(game, s, "stab", target=1, card="dagger")
    assert _offered(game, s) == {"raise_shield": [(-1, "shield")], "take_it": [(-1, "")]}


def test_a_dagger_that_strikes_robs_at_random_with_no_decision_of_the_attacker(spec: Spec) -> None:
    game = _game(spec)
    s = _position(game, {0: ["dagger"], 1: ["gold", "silver", "silver"], 2: ["copper"]})
    _take(game, s, "stab", target=1, card="dagger")
    assert _offered(game, s) == {"take_it": [(-1, "")]}  # no shield: the only answer
    _take(game, s, "take_it")
    # The robbery step is forced (`auto`): chance speaks next, over the target's hand, each design by its copies.
    assert s.current_player() == CHANCE
    outcomes = {game.card_ids[a % game.width]: p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx({"gold": 1 / 3, "silver": 2 / 3})
    silver = next(a for a, _ in s.chance_outcomes() if game.card_ids[a % game.width] == "silver")
    s.apply_action(silver)
    assert _cards(game, s, "hand", 0) == ["silver"]
    assert _cards(game, s, "hand", 1) == ["gold", "silver"]
    assert s.seat == 1 and s.current_player() == 1
    assert s.option_uses[game.options.index(next(o for o in game.options if o.key == "rob.grab"))] == 1


def test_a_reaction_is_said_and_drawn_as_the_deciding_players(spec: Spec) -> None:
    from cardgen.render.data_figures import describe
    from cardgen.render.figures import Words

    game = _game(spec)
    names = {card.id: card.name for deck in spec.decks for card in deck.cards}
    words = Words("en", lambda i: f"Player {i + 1}", lambda deck, card_id, face: names[card_id]["en"], lambda palette, value: value, str)
    s = _position(game, {0: ["dagger"], 1: ["shield"], 2: ["copper"]})
    _take(game, s, "stab", target=1, card="dagger")
    (raise_shield,) = s.legal_actions()
    assert describe(s, raise_shield, words) == "Player 2: raise a shield, Shield"
    assert s.action_to_string(raise_shield) == "P2 raise a shield: Shield"


# --- a window offered to every other seat ----------------------------------------------------------


def test_after_walking_on_each_other_player_with_an_alarm_is_asked_in_turn(spec: Spec) -> None:
    game = _game(spec, 4)
    s = _position(game, {0: [], 1: ["copper"], 2: ["alarm"], 3: ["alarm"]}, purses={0: ["gold"]})
    _take(game, s, "walk")
    assert s.current_player() == 2  # seat 1 holds no alarm: skipped
    assert sorted(_offered(game, s)) == ["keep_quiet", "sound_alarm"]
    _take(game, s, "keep_quiet")
    assert s.current_player() == 3
    _take(game, s, "sound_alarm", card="alarm")
    assert _cards(game, s, "purse", 0) == []
    assert "gold" in _cards(game, s, "ditch")
    assert s.c[game.tables.counter_index["caught"] + 0] == 1  # the active player was caught, not the one sounding
    assert s.c[game.tables.counter_index["caught"] + 3] == 0
    assert s.seat == 1 and s.current_player() == 1  # the first alarm ended the turn


def test_a_window_nobody_acts_in_ends_the_turn(spec: Spec) -> None:
    game = _game(spec, 4)
    s = _position(game, {0: [], 1: ["alarm"], 2: ["alarm"], 3: []}, purses={0: ["gold"]})
    _take(game, s, "walk")
    _take(game, s, "keep_quiet")
    _take(game, s, "keep_quiet")
    assert s.seat == 1 and s.current_player() == 1 and s.step == 0
    # With an empty purse nobody is offered anything, so the window closes at once.
    s = _position(game, {0: [], 1: ["alarm"], 2: ["alarm"], 3: []})
    _take(game, s, "walk")
    assert s.seat == 1 and s.current_player() == 1 and s.step == 0


def test_a_window_goes_round_in_the_order_of_play(spec: Spec) -> None:
    game = _game(spec, 4)
    s = _position(game, {0: ["alarm"], 1: ["alarm"], 2: [], 3: ["alarm"]}, purses={2: ["copper"]})
    s.seat = 2
    _take(game, s, "walk")
    asked = []
    while s.current_player() != s.seat:
        asked.append(s.current_player())
        _take(game, s, "keep_quiet")
    assert asked == [3, 0, 1]


# --- the rule option -------------------------------------------------------------------------------


def test_the_two_readings_of_the_option_play_differently(spec: Spec) -> None:
    """Over the same seeds, `shields: may` offers a choice `must` never does (the one-fact rule: an option changes play)."""
    games = {choice: _game(_with_option(spec, choice)) for choice in ("must", "may")}
    offered = {choice: 0 for choice in games}
    for choice, game in games.items():
        for seed in range(30):
            s = game.new_initial_state(seed)
            moves = 0
            while not s.is_terminal() and moves < 400:
                actions = s.legal_actions() if s.current_player() != CHANCE else [a for a, _ in s.chance_outcomes()]
                names = _offered(game, s) if s.current_player() != CHANCE else {}
                if "raise_shield" in names and "take_it" in names:
                    offered[choice] += 1
                s.apply_action(actions[(seed + moves) % len(actions)])
                moves += 1
    assert offered["must"] == 0
    assert offered["may"] > 0


def test_an_option_the_spec_does_not_offer_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, lambda d: d.__setitem__("options", {"shields": "never"}))
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG171"]
    assert found, "an option choice the rules data does not declare must be CG171"


def test_random_playouts_keep_every_invariant(spec: Spec) -> None:
    for choice in ("must", "may"):
        for players in (2, 3, 4):
            game = _game(_with_option(spec, choice), players)
            for seed in range(5):
                assert conformance_problems(game, seed) == [], (choice, players, seed)


# --- the rulebook's words --------------------------------------------------------------------------


def test_the_rulebook_says_who_decides_each_step(spec: Spec) -> None:
    from cardgen.rulebook.i18n import translations

    said = {}
    for locale in ("en", "pt_BR"):
        summary = rules_summary(spec, locale, translations(locale))
        assert summary is not None
        said[locale] = " ".join(" ".join(step["notes"]) + " " + " ".join(o["text"] for o in step["options"]) for step in summary["turn"])
    for english, portuguese in (
        ("The chosen player decides this step, not the active player", "Quem decide esta etapa é o jogador escolhido"),
        ("Every other player in turn, starting after the active player, may decide this step", "Cada um dos outros jogadores, na sequência"),
        ("When no one is left to decide, the active player's turn ends.", "Quando não restar ninguém para decidir, o turno do jogador da vez termina."),
        ("When only one thing can be done here, it is done at once", "Quando só uma coisa pode ser feita aqui"),
        ("Then the next player in turn decides this step instead.", "Depois, o próximo jogador na sequência decide esta etapa no seu lugar."),
        ("Only when your hand does not hold Shield.", "Só quando a sua mão não tem Escudo."),  # `shields: must` folded in
        ("the active player's purse", "a bolsa do jogador da vez"),
    ):
        assert english in said["en"], english
        assert portuguese in said["pt_BR"], portuguese


# --- broken copies: every new finding at its line ----------------------------------------------------


def _copy(tmp_path: Path) -> Path:
    return edited_copy(FIXTURE, tmp_path)


_edit = edit_spec


_step = step_of
_option = option_of


def _walk_into_answer(data: Any) -> None:
    """A way into the answer step that aims at nobody."""
    _option(data, "walk")["then"] = "answer"


def _windows_in_a_ring(data: Any) -> None:
    _step(data, "watch")["after"] = "watch2"
    data["rules"]["turn"].append({"id": "watch2", "by": "others", "after": "watch", "options": [{"id": "shrug", "then": "end"}]})


CASES: list[tuple[str, Callable[[Any], None], str, str]] = [
    ("the first step is a reaction", lambda d: _step(d, "act").__setitem__("by", "others"), "by: others", "CG175"),
    ("a target's step reached without an aim", _walk_into_answer, "by: target", "CG175"),
    ("a window without `after`", lambda d: _step(d, "watch").pop("after"), "id: watch", "CG175"),
    ("`after` on a step that is no window", lambda d: _step(d, "answer").__setitem__("after", "end"), "after: end", "CG175"),
    ("`after` names no step", lambda d: _step(d, "watch").__setitem__("after", "nowhere"), "after: nowhere", "CG175"),
    ("`then: next` outside a window", lambda d: _option(d, "take_it").__setitem__("then", "next"), "then: next", "CG175"),
    ("a reaction that passes", lambda d: _option(d, "keep_quiet").__setitem__("passes", True), "passes: true", "CG175"),
    ("a step named like a `then` word", lambda d: _step(d, "rob").__setitem__("id", "next") or _option(d, "take_it").__setitem__("then", "next"), "id: next", "CG175"),
    ("an option's default is not a choice", lambda d: d["rules"]["options"]["shields"].__setitem__("default", "never"), "default: never", "CG175"),
    ("an option nothing reads", lambda d: _option(d, "take_it").__setitem__("when", "not has(hand, type, 'shield')"), "shields:", "CG175"),
    ("an option compared with no choice of it", lambda d: _option(d, "take_it").__setitem__("when", "options.shields == 'maybe'"), "maybe", "CG175"),
    ("an unknown option", lambda d: _option(d, "take_it").__setitem__("when", "options.swords == 'may'"), "swords", "CG175"),
    ("windows that close into each other", _windows_in_a_ring, "after: watch2", "CG176"),
    ("`active` as a zone name", lambda d: d["rules"]["zones"].__setitem__("active", {}), "active:", "CG175"),
]


@pytest.mark.parametrize("name,change,on_line,code", CASES, ids=[c[0] for c in CASES])
def test_broken_reaction_rules_are_findings_at_their_line(tmp_path: Path, name: str, change: Callable[[Any], None], on_line: str, code: str) -> None:
    folder = _copy(tmp_path)
    _edit(folder, change)
    result = validate_folder(folder, kinds=("static",))
    found = [f for f in result.findings if f.code == code and f.severity == Severity.ERROR]
    assert found, f"{name}: no {code} in {[f.render() for f in result.findings]}"
    lines = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert any(f.line is not None and on_line in lines[f.line - 1] for f in found), f"{name}: {[f.render() for f in found]}"


def test_the_fixture_itself_is_clean() -> None:
    result = validate_folder(FIXTURE, kinds=("static",))
    assert [f.render() for f in result.findings if f.severity == Severity.ERROR] == []


def test_a_reaction_in_a_trick_game_is_refused(tmp_path: Path) -> None:
    hearts = Path(__file__).resolve().parents[2] / "specs" / "hearts"
    folder = tmp_path / "hearts"
    shutil.copytree(hearts, folder)

    def add_reaction(data: Any) -> None:
        first = data["rules"]["turn"][0]
        first["options"][0]["then"] = "protest"
        data["rules"]["turn"].append({"id": "protest", "by": "others", "after": "end", "options": [{"id": "grumble", "then": "next"}]})

    _edit(folder, add_reaction)
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG178"]
    assert any("out of turn" in f.message for f in found), [f.render() for f in found]


def test_forced_steps_stop_at_the_length_bound(tmp_path: Path) -> None:
    """A forced step that repeats for ever (CG176 statically) still gives control back: the playout bound reports it."""
    folder = _copy(tmp_path)

    def forced_loop(data: Any) -> None:
        data["rules"]["turn"].insert(0, {"id": "fidget", "auto": True, "options": [{"id": "fidget", "do": [{"add": {"counter": "caught", "amount": 0}}], "then": "again"}]})

    _edit(folder, forced_loop)
    assert any(f.code == "CG176" for f in validate_folder(folder, kinds=("static",)).findings)
    loaded = load_spec(folder)
    assert loaded.spec is not None
    game = _game(loaded.spec)
    s = game.new_initial_state(0)
    assert s.forced == game.info().max_game_length
    assert len(s.legal_actions()) == 1 and not s.is_terminal()
