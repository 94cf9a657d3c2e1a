"""Chance steps and chosen seats as rules data: Pickpockets (tests/fixtures/dice-steal) played by the generic interpreter.

The rules come from the fixture's own rulebook text: start the turn by rolling the
two dice; with `numbers.dig_at` or more you may dig; with less you may rob another
player who holds a gem and has been robbed fewer than `numbers.max_robbed` times,
drawing one gem at random from their hand; whatever you rolled you may bribe
(a gem from your hand to the pit makes a player with a vault take its top gem
back) or bank a gem. Layers: exact chance outcomes (against an enumeration of the
dice written here), the targets offered, a theft moving one random card, replay
determinism, invariants over random playouts; then broken copies of the fixture,
one per finding the new vocabulary adds, each at its line.
"""

from __future__ import annotations

import itertools
import random
import re
import shutil
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

import pytest

from cardgen.engine.core import CHANCE, make_game, play_actions
from cardgen.engine.harness import conformance_problems
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.engine.interpreter.chance import dice_totals
from cardgen.engine.interpreter.compile import Tables, compile_expression, field_tables
from cardgen.findings import Severity
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec
from cardgen.spec.rules_expr import ExpressionError, Names, parse_expression
from cardgen.catalogue import validate_folder

from engine.spec_copies import edit_spec, edited_copy, option_of

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "dice-steal"


@pytest.fixture(scope="module")
def spec() -> Spec:
    loaded = load_spec(FIXTURE)
    assert loaded.spec is not None, [f.render() for f in loaded.findings]
    return loaded.spec


def _game(spec: Spec, players: int = 4) -> DataGame:
    game = make_game(spec, players)
    assert isinstance(game, DataGame)
    return game




def _position(game: DataGame, hands: dict[int, list[str]], vaults: dict[int, list[str]] | None = None) -> DataState:
    """Seat 0 to roll; these hands and vaults, every other gem in the bag."""
    s = game.new_initial_state(0)
    for zone in s.z:
        zone.clear()
    pool = [d for d in range(game.n_designs) for _ in range(game.copies[d])]
    for where, cards_by_seat in (("hand", hands), ("vault", vaults or {})):
        for seat, cards in cards_by_seat.items():
            for card_id in cards:
                pool.remove(game.design(card_id))
                s.z[game.slot(where, seat)].append(game.design(card_id))
    s.z[game.slot("bag")].extend(pool)
    return s


def _roll(game: DataGame, s: DataState, total: int) -> None:
    """Take the roll option, then let chance give ``total``."""
    (roll,) = s.legal_actions()
    s.apply_action(roll)
    assert s.current_player() == CHANCE
    s.apply_action(next(a for a, _ in s.chance_outcomes() if a % game.width == total))


def _options(game: DataGame, s: DataState) -> dict[str, list[tuple[int, int]]]:
    """Option name -> the (target seat, card design) pairs offered."""
    out: dict[str, list[tuple[int, int]]] = {}
    for action in s.legal_actions():
        index, parameter = divmod(action, game.width)
        option = game.options[index]
        target, card = divmod(parameter, game.card_width) if option.target is not None else (-1, parameter)
        out.setdefault(option.key.split(".")[1], []).append((target, card if option.chooses_card else -1))
    return out


# --- the rulebook's own rules -------------------------------------------------------------------


def test_dice_totals_have_their_exact_probabilities() -> None:
    for count, sides in ((1, 6), (2, 6), (3, 4), (2, 2)):
        ways: dict[int, int] = {}
        for throw in itertools.product(range(1, sides + 1), repeat=count):
            ways[sum(throw)] = ways.get(sum(throw), 0) + 1
        expected = {total: Fraction(n, sides**count) for total, n in ways.items()}
        got = dice_totals(count, sides)
        assert [t for t, _ in got] == sorted(expected)
        for total, probability in got:
            assert probability == pytest.approx(float(expected[total]), abs=1e-15)


def test_a_turn_starts_with_a_roll_of_the_two_dice(spec: Spec) -> None:
    game = _game(spec)
    s = _position(game, {0: ["gem-1"], 1: ["gem-2"]})
    (roll,) = s.legal_actions()
    assert "roll" in s.action_to_string(roll)
    s.apply_action(roll)
    assert s.current_player() == CHANCE and s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert sorted(a for a, _ in outcomes) == s.legal_actions()
    totals = {a % game.width: p for a, p in outcomes}
    assert sorted(totals) == list(range(2, 13))
    for total, p in totals.items():
        assert p == pytest.approx((6 - abs(total - 7)) / 36, abs=1e-15)  # two six-sided dice
    assert sum(totals.values()) == pytest.approx(1.0)
    nine = next(a for a in s.legal_actions() if a % game.width == 9)
    assert s.action_to_string(nine) == "P1 rolls pair: 9"
    s.apply_action(nine)
    assert s.current_player() == 0 and s.v[game.tables.variable_index["rolled"]] == 9


def test_digging_needs_the_number_and_robbing_needs_less(spec: Spec) -> None:
    game = _game(spec)
    dig_at = spec.numbers["dig_at"]
    for total in range(2, 13):
        s = _position(game, {0: [], 1: ["gem-2"]})
        _roll(game, s, total)
        offered = _options(game, s)
        assert ("dig" in offered) == (total >= dig_at), total
        assert ("rob" in offered) == (total < dig_at), total


def test_a_theft_is_offered_only_at_players_the_rule_allows(spec: Spec) -> None:
    game = _game(spec)
    s = _position(game, {0: ["gem-1"], 1: [], 2: ["gem-2"], 3: ["gem-3"]})
    s.c[game.tables.counter_index["robbed"] + 2] = spec.numbers["max_robbed"]  # robbed as often as allowed
    _roll(game, s, 3)
    # Not yourself, not a player with an empty hand (seat 1), not one robbed max_robbed times (seat 2).
    assert _options(game, s)["rob"] == [(3, -1)]


def test_a_bribe_is_one_choice_per_player_with_a_vault_times_each_gem_in_hand(spec: Spec) -> None:
    game = _game(spec)
    s = _position(game, {0: ["gem-1", "gem-2", "gem-2"]}, {0: ["gem-3"], 1: ["gem-1"], 3: ["gem-2", "gem-3"]})
    _roll(game, s, 8)
    expected = sorted((target, game.design(card)) for target in (1, 3) for card in ("gem-1", "gem-2"))
    assert sorted(_options(game, s)["bribe"]) == expected
    action = next(a for a in s.legal_actions() if "bribe" in s.action_to_string(a) and "at P4" in s.action_to_string(a))
    before = list(s.z[game.slot("vault", 3)])
    s.apply_action(action)
    # The gem went to the pit and the chosen player's top vault gem back to their hand.
    assert len(s.z[game.slot("pit")]) == 1
    assert s.z[game.slot("vault", 3)] == before[:-1]
    assert s.z[game.slot("hand", 3)] == before[-1:]
    assert s.current_player() == 1 and not s.conservation_errors()


def test_a_theft_moves_one_card_drawn_at_random_from_the_chosen_hand(spec: Spec) -> None:
    game = _game(spec)
    s = _position(game, {0: [], 1: ["gem-1", "gem-1", "gem-3"]})
    _roll(game, s, 4)
    (rob,) = [a for a in s.legal_actions() if "rob" in s.action_to_string(a)]
    assert s.action_to_string(rob).endswith("at P2")
    s.apply_action(rob)
    assert s.current_player() == CHANCE
    assert s.c[game.tables.counter_index["robbed"] + 1] == 1
    outcomes = {game.card_ids[a % game.width]: p for a, p in s.chance_outcomes()}
    assert outcomes == pytest.approx({"gem-1": 2 / 3, "gem-3": 1 / 3})
    take = next(a for a, _ in s.chance_outcomes() if game.card_ids[a % game.width] == "gem-3")
    assert "gem-3" not in s.action_to_string(take) and "Ruby" in s.action_to_string(take)
    s.apply_action(take)
    assert sorted(game.card_ids[d] for d in s.z[game.slot("hand", 1)]) == ["gem-1", "gem-1"]
    assert [game.card_ids[d] for d in s.z[game.slot("hand", 0)]] == ["gem-3"]
    assert s.current_player() == 1 and not s.conservation_errors()


def test_the_same_seed_and_actions_replay_to_the_same_state(spec: Spec) -> None:
    for players in (2, 3, 4):
        game = _game(spec, players)
        for seed in range(4):
            rng = random.Random(seed)
            s = game.new_initial_state(seed)
            actions = []
            chances = 0
            while not s.is_terminal():
                if s.is_chance_node():
                    action = s.sample_chance(rng)
                    chances += 1
                else:
                    action = rng.choice(s.legal_actions())
                actions.append(action)
                s.apply_action(action)
            assert chances > 0
            again = play_actions(game, seed, actions)
            assert again.fingerprint() == s.fingerprint() and again.scores() == s.scores()


def test_another_outcome_of_chance_is_another_position(spec: Spec) -> None:
    game = _game(spec)
    s = _position(game, {0: [], 1: ["gem-1", "gem-3"]})
    (roll,) = s.legal_actions()
    s.apply_action(roll)
    after = {}
    for action, _ in s.chance_outcomes():
        child = s.clone()
        child.apply_action(action)
        after[action] = child.fingerprint()
    assert len(set(after.values())) == len(after) == 11


def test_random_playouts_keep_every_invariant(spec: Spec) -> None:
    for players in (2, 3, 4):
        game = _game(spec, players)
        for seed in range(6):
            assert conformance_problems(game, seed) == [], (players, seed)


def test_the_rulebook_says_the_roll_the_theft_and_the_chosen_player(spec: Spec) -> None:
    from cardgen.rulebook.i18n import translations

    said = {}
    for locale in ("en", "pt_BR"):
        summary = rules_summary(spec, locale, translations(locale))
        assert summary is not None
        said[locale] = " ".join(o["text"] for step in summary["turn"] for o in step["options"])
    for english, portuguese in (
        ("Roll the dice (Two dice): the total is the dice roll.", "Role os dados (Dois dados): o total é o resultado dos dados."),
        ("Take a card at random from the chosen player's hand into your hand.", "Tire uma carta ao acaso da mão do jogador escolhido para a sua mão."),
        ("Choose a player for this; you may choose one when the chosen player is not you", "Escolha um jogador para isso; você pode escolhê-lo quando o jogador escolhido não é você"),
        ("the chosen player's hand is not empty", "a mão do jogador escolhido não está vazia"),
        ("Raise the chosen player's robberies suffered by 1.", "Aumente os roubos sofridos do jogador escolhido em 1."),
        ("Move the top card of the chosen player's vault to the chosen player's hand.", "Passe a carta do topo do cofre do jogador escolhido para a mão do jogador escolhido."),
    ):
        assert english in said["en"]
        assert portuguese in said["pt_BR"]


# --- broken copies: every new finding at its line ------------------------------------------------


def _copy(tmp_path: Path) -> Path:
    return edited_copy(FIXTURE, tmp_path)


_edit = edit_spec


_option = option_of


def _aim_bank(data: Any) -> None:
    """`who: target` in an option with no target."""
    _option(data, "bank")["do"] = [{"move": {"from": "vault", "to": "hand", "who": "target"}}]


def _steal_first(data: Any) -> None:
    rob = _option(data, "rob")
    rob["do"] = list(reversed(rob["do"]))


def _shared_dice_var(data: Any) -> None:
    data["rules"]["variables"]["rolled"]["values"] = "value"


def _choose_a_total(data: Any) -> None:
    _option(data, "rest")["do"] = [{"choose": "rolled"}]


CASES: list[tuple[str, Callable[[Any], None], str]] = [
    ("a roll names dice the spec lacks", lambda d: _option(d, "roll")["do"][0]["roll"].__setitem__("dice", "triple"), "triple"),
    ("a roll names an unknown variable", lambda d: _option(d, "roll")["do"][0]["roll"].__setitem__("var", "total"), "total"),
    ("a roll's variable takes a card field's values", _shared_dice_var, "rolled"),
    ("a steal is not the last effect", _steal_first, "steal"),
    ("a steal takes from a shared zone", lambda d: _option(d, "rob")["do"][1]["steal"].__setitem__("from", "bag"), "bag"),
    ("a steal names an unknown zone", lambda d: _option(d, "rob")["do"][1]["steal"].__setitem__("to", "pocket"), "pocket"),
    ("`who: target` where no target is chosen", _aim_bank, "target"),
    ("`target` read where no target is chosen", lambda d: _option(d, "dig").__setitem__("when", "count(hand, target) > 0"), "count(hand, target)"),
    ("a target condition names an unknown zone", lambda d: _option(d, "rob")["target"].__setitem__("where", "count(purse, target) > 0"), "purse"),
    ("a seat argument is not a seat", lambda d: _option(d, "rob")["target"].__setitem__("where", "count(hand, 2) > 0"), "count(hand, 2)"),
    ("a shared zone read for a seat", lambda d: _option(d, "rob")["target"].__setitem__("where", "count(bag, target) > 0"), "count(bag, target)"),
    ("counter() names no counter", lambda d: _option(d, "rob")["target"].__setitem__("where", "counter(luck, target) > 0"), "counter(luck"),
    ("a choice of a variable without values", _choose_a_total, "choose"),
]


@pytest.mark.parametrize("name,change,on_line", CASES, ids=[c[0] for c in CASES])
def test_broken_chance_and_target_rules_are_findings_at_their_line(tmp_path: Path, name: str, change: Callable[[Any], None], on_line: str) -> None:
    folder = _copy(tmp_path)
    _edit(folder, change)
    result = validate_folder(folder, kinds=("static",))
    found = [f for f in result.findings if f.code == "CG175" and f.severity == Severity.ERROR]
    assert found, f"{name}: no CG175 in {[f.render() for f in result.findings]}"
    lines = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert any(f.line is not None and on_line in lines[f.line - 1] for f in found), f"{name}: {[f.render() for f in found]}"


def test_the_fixture_itself_is_clean() -> None:
    result = validate_folder(FIXTURE, kinds=("static",))
    assert [f.render() for f in result.findings if f.severity == Severity.ERROR] == []


def test_dice_no_rule_rolls_are_unread(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, lambda d: d["dice"].append({"id": "spare", "name": {"en": "Spare die", "pt_BR": "Dado extra"}, "count": 1, "sides": 6}))
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG172"]
    assert found and any("spare" in f.message for f in found)
    # And the dice the rules do roll are read: no CG172 for them.
    assert not any("'pair'" in f.message for f in found)


def test_the_figures_say_rolls_thefts_and_targets(spec: Spec) -> None:
    from cardgen.render.data_figures import describe
    from cardgen.render.figures import Words

    game = _game(spec)
    names = {card.id: card.name for deck in spec.decks for card in deck.cards}
    for locale, rolls, takes, aimed in (("en", "rolls Two dice: 4", "takes at random: Ruby", "at Player 2"), ("pt_BR", "rola Dois dados: 4", "tira ao acaso: Rubi", "contra Jogador 2")):
        player = "Player" if locale == "en" else "Jogador"

        def seat(i: int, player: str = player) -> str:
            return f"{player} {i + 1}"

        def card(deck: str, card_id: str, face: int, locale: str = locale) -> str:
            return names[card_id][locale]

        def entry(palette: str, value: str) -> str:
            return value

        words = Words(locale, seat, card, entry, str)
        s = _position(game, {0: [], 1: ["gem-3"]})
        (roll,) = s.legal_actions()
        s.apply_action(roll)
        four = next(a for a in s.legal_actions() if a % game.width == 4)
        assert rolls in describe(s, four, words)
        s.apply_action(four)
        (rob,) = [a for a in s.legal_actions() if "rob" in s.action_to_string(a)]
        assert aimed in describe(s, rob, words)
        s.apply_action(rob)
        (take,) = s.legal_actions()
        assert takes in describe(s, take, words)


# --- the seat argument of the expression language, compiled -------------------------------------

SEAT_NAMES = Names(
    zones={"pile": False, "hand": True},
    counters={"chips": True, "pot": False},
    variables=frozenset(),
    fields=frozenset({"points"}),
    numbers=frozenset(),
    setup=frozenset(),
)
SEAT_DESIGNS: list[dict[str, Any]] = [{"id": "one", "type": None, "effect": None, "points": 1}, {"id": "five", "type": None, "effect": None, "points": 5}]


def _seat_value(source: str, hands: list[list[int]], chips: list[int], seat: int, target: int) -> Any:
    tables = Tables(
        names=SEAT_NAMES,
        zone_index={"pile": 0, "hand": 1},
        counter_index={"chips": 0, "pot": 3},
        variable_index={},
        field_values=field_tables(SEAT_DESIGNS, SEAT_NAMES.fields),
        constants={},
        players=3,
    )
    state = SimpleNamespace(z=[[], *hands], c=[*chips, 0], v=[], turn=1, tg=target)
    return compile_expression(source, tables, target=True)(state, seat, 0)


def test_a_seat_argument_reads_that_seats_zone_or_counter() -> None:
    hands, chips = [[0], [0, 1, 1], []], [4, 0, 7]
    assert _seat_value("count(hand, target)", hands, chips, seat=0, target=1) == 3
    assert _seat_value("count(hand, target)", hands, chips, seat=0, target=2) == 0
    assert _seat_value("count(hand, seat)", hands, chips, seat=1, target=0) == 3
    assert _seat_value("count(hand)", hands, chips, seat=0, target=1) == 1  # the seat in question's, as before
    assert _seat_value("total(hand, points, target)", hands, chips, seat=0, target=1) == 11
    assert _seat_value("top(hand, target).points", hands, chips, seat=0, target=1) == 5
    assert _seat_value("counter(chips, target)", hands, chips, seat=0, target=2) == 7
    assert _seat_value("counter(chips, target) > chips", hands, chips, seat=0, target=2) is True
    assert _seat_value("target != seat", hands, chips, seat=1, target=1) is False


@pytest.mark.parametrize(
    ("source", "target", "message"),
    [
        ("count(hand, target) > 0", False, "`target` is only known"),
        ("count(pile, target)", True, "zone 'pile' is shared"),
        ("count(hand, 1)", True, "is not a seat"),
        ("count(hand, target + 1)", True, "is not a seat"),
        ("counter(pot, target)", True, "counter 'pot' is shared"),
        ("counter(coins, target)", True, "'coins' is not a counter"),
        ("counter(chips)", True, "counter() takes 2 argument"),
        ("count(hand, target, seat)", True, "count() takes 1 argument"),
    ],
)
def test_the_checker_refuses_a_wrong_seat_argument(source: str, target: bool, message: str) -> None:
    with pytest.raises(ExpressionError, match=re.escape(message)):
        parse_expression(source, SEAT_NAMES, target=target)


def _cursed_ruby(data: Any) -> None:
    """The ruby carries an effect that names the chosen player."""
    next(c for c in data["decks"][0]["cards"] if c["id"] == "gem-3")["effect"] = "curse"
    data["rules"]["effects"] = {"curse": [{"add": {"counter": "robbed", "amount": 1, "who": "target"}}]}


def test_card_effects_may_name_the_chosen_player_only_when_every_option_choosing_them_aims(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, _cursed_ruby)  # `bank` chooses a card with its effects and aims at nobody
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG175"]
    assert found and all("target" in f.message for f in found)

    def bank_without_effects(data: Any) -> None:
        _cursed_ruby(data)
        _option(data, "bank")["card"]["effects"] = False

    folder = tmp_path / "aimed"
    shutil.copytree(FIXTURE, folder)
    _edit(folder, bank_without_effects)
    loaded = load_spec(folder)
    assert [f.render() for f in validate_folder(folder, kinds=("static",)).findings if f.severity == Severity.ERROR] == []
    assert loaded.spec is not None
    game = _game(loaded.spec)
    s = _position(game, {0: ["gem-3"]}, {1: ["gem-1"]})
    _roll(game, s, 8)
    bribe = next(a for a in s.legal_actions() if "bribe" in s.action_to_string(a) and "Ruby" in s.action_to_string(a))
    s.apply_action(bribe)
    assert s.c[game.tables.counter_index["robbed"] + 1] == 1  # the ruby's curse hit the player bribed against
