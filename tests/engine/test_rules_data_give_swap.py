"""Cards changing owner: giving a chosen card to the aimed seat (``card.to_whose: target``), moving cards to
another seat's zone (``move.to_who``) and swapping two seats' zones (``swap``).

Pickpockets (tests/fixtures/dice-steal) with one more option for each, played by the generic interpreter: the
tests follow single actions card by card, then play random games checking that every card stays somewhere.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.findings import Severity
from cardgen.rulebook.i18n import translations
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec

from engine.spec_copies import Change, data_game, edited_copy, option_of

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "dice-steal"
OTHER = {"where": "target != seat"}
GIFT = {"id": "gift", "name": {"en": "give a gem", "pt_BR": "dar uma gema"}, "target": OTHER, "card": {"from": "hand", "to": "hand", "to_whose": "target"}}
TAX = {"id": "tax", "name": {"en": "collect a tax", "pt_BR": "cobrar um imposto"}, "do": [{"move": {"from": "vault", "to": "hand", "who": "others", "to_who": "me"}}]}
SWITCH = {"id": "switch", "name": {"en": "switch hands", "pt_BR": "trocar de mão"}, "target": OTHER, "do": [{"swap": {"zone": "hand", "with": "target"}}]}


def _with(*options: dict[str, Any]) -> Change:
    def change(data: dict[str, Any]) -> None:
        step = next(step for step in data["rules"]["turn"] if step["id"] == "act")
        step["options"][:0] = [dict(option) for option in options]

    return change


def _act(game: DataGame, seed: int) -> DataState:
    """A position at the act step (after the roll), with every seat holding cards."""
    state = game.new_initial_state(seed)
    assert isinstance(state, DataState)
    state.apply_action(state.legal_actions()[0])  # roll
    outcomes = state.chance_outcomes()
    state.apply_action(outcomes[0][0])
    return state


def _find(game: DataGame, state: DataState, key: str) -> list[int]:
    return [a for a in state.legal_actions() if game.options[a // game.width].key == f"act.{key}"]


def _hand(game: DataGame, state: DataState, seat: int) -> list[int]:
    return sorted(state.z[game.slot("hand", seat)])


def test_a_gift_moves_the_chosen_card_into_the_aimed_seats_hand(tmp_path: Path) -> None:
    game = data_game(edited_copy(FIXTURE, tmp_path, _with(GIFT)), 3)
    state = _act(game, 1)
    me = state.current_player()
    before = [_hand(game, state, seat) for seat in range(3)]
    gifts = _find(game, state, "gift")
    assert gifts
    action = gifts[-1]
    target, card = divmod(action - (action // game.width) * game.width, game.card_width)
    assert target != me and card in before[me]
    state.apply_action(action)
    after = [_hand(game, state, seat) for seat in range(3)]
    mine = list(before[me])
    mine.remove(card)
    assert after[me] == sorted(mine) and after[target] == sorted(before[target] + [card])


def test_a_tax_takes_one_card_from_every_other_seats_vault(tmp_path: Path) -> None:
    game = data_game(edited_copy(FIXTURE, tmp_path, _with(TAX)), 3)
    state = _act(game, 2)
    me = state.current_player()
    for seat in range(3):
        state.z[game.slot("vault", seat)].append(seat)  # one known card in every vault
    state.z[game.slot("bag")][:3] = []
    before = _hand(game, state, me)
    state.apply_action(_find(game, state, "tax")[0])
    assert _hand(game, state, me) == sorted(before + [seat for seat in range(3) if seat != me])
    assert state.z[game.slot("vault", me)] == [me]


def test_a_switch_exchanges_two_hands_whole(tmp_path: Path) -> None:
    game = data_game(edited_copy(FIXTURE, tmp_path, _with(SWITCH)), 3)
    state = _act(game, 3)
    me = state.current_player()
    before = [_hand(game, state, seat) for seat in range(3)]
    action = _find(game, state, "switch")[0]
    target = (action - (action // game.width) * game.width) // game.card_width
    state.apply_action(action)
    assert _hand(game, state, me) == before[target] and _hand(game, state, target) == before[me]


PASS_ON = {"id": "pass_on", "name": {"en": "pass hands on", "pt_BR": "passar adiante"}, "do": [{"move": {"from": "hand", "to": "hand", "who": "each", "to_who": "next"}}]}
PICKED_GIFT = {
    "id": "picked", "name": {"en": "give a quartz", "pt_BR": "dar um quartzo"}, "target": OTHER,
    "do": [{"move": {"from": "hand", "to": "hand", "to_who": "target", "count": 1, "where": "card.value == 1"}}],
}


def _known_hands(game: DataGame, state: DataState, hands: list[list[int]]) -> None:
    for seat, cards in enumerate(hands):
        state.z[game.slot("hand", seat)][:] = cards


@pytest.mark.parametrize("players", [3, 4])
def test_each_player_passes_their_top_card_to_the_next_player(tmp_path: Path, players: int) -> None:
    """``who: each, to_who: next`` reads "each player's card to the next player's hand": every seat gives to the
    seat after it, all at once (a card passed on is not passed again), as the rulebook says."""
    game = data_game(edited_copy(FIXTURE, tmp_path, _with(PASS_ON)), players)
    state = _act(game, 4)
    me = state.current_player()
    designs = [0, 1, 2]  # Quartz, Garnet, Ruby
    hands = [[designs[(seat + 1) % 3], designs[seat % 3]] for seat in range(players)]  # the top (last) card is designs[seat % 3]
    _known_hands(game, state, hands)
    state.apply_action(_find(game, state, "pass_on")[0])
    for seat in range(players):
        giver = (seat - state.direction) % players
        assert _hand(game, state, seat) == sorted([hands[seat][0], hands[giver][-1]]), (me, seat, hands)


def test_a_move_of_chosen_cards_goes_to_the_seat_named_by_to_who(tmp_path: Path) -> None:
    """``where`` (only some cards move) with ``to_who``: the cards go to the aimed seat's hand, as the rulebook says."""
    game = data_game(edited_copy(FIXTURE, tmp_path, _with(PICKED_GIFT)), 3)
    state = _act(game, 5)
    me = state.current_player()
    quartz, garnet = 0, 1
    assert game.card_names[quartz] != game.card_names[garnet]
    _known_hands(game, state, [[quartz, garnet] if seat == me else [garnet] for seat in range(3)])
    action = _find(game, state, "picked")[0]
    target = (action - (action // game.width) * game.width) // game.card_width
    state.apply_action(action)
    assert _hand(game, state, me) == [garnet]
    assert _hand(game, state, target) == sorted([garnet, quartz])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_card(tmp_path: Path, players: int) -> None:
    game = data_game(edited_copy(FIXTURE, tmp_path, _with(GIFT, TAX, SWITCH)), players)
    rng = random.Random(players)
    used: set[str] = set()
    for seed in range(40):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            assert state.conservation_errors() == []
        used.update(key for key, n in state.usage().items() if n)
    assert {"option:act.gift", "option:act.tax", "option:act.switch"} <= used


def test_the_copy_is_clean_and_the_rulebook_says_each(tmp_path: Path) -> None:
    folder = edited_copy(FIXTURE, tmp_path, _with(GIFT, TAX, SWITCH))
    assert [f.render() for f in validate_folder(folder, kinds=("static",)).findings if f.severity is Severity.ERROR] == []
    loaded = load_spec(folder)
    assert loaded.spec is not None
    wanted = {
        "en": ("Choose a card from your hand and move it to the chosen player's hand.", "Move the top card of every other player's vault to your hand.",
               "Swap your hand with the chosen player's hand."),
        "pt_BR": ("passe-a para a mão do jogador escolhido", "Troque a sua mão com a mão do jogador escolhido."),
    }
    for locale, phrases in wanted.items():
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        for phrase in phrases:
            assert phrase in str(summary["turn"]), (phrase, summary["turn"])


@pytest.mark.parametrize(
    "change,wanted",
    [
        (lambda d: option_of(d, "gift").pop("target"), "gives the card to the aimed seat"),
        (lambda d: option_of(d, "gift")["card"].__setitem__("to", "pit"), "zone 'pit' is shared; a card is given"),
        (lambda d: option_of(d, "tax")["do"][0]["move"].__setitem__("to", "pit"), "zone 'pit' is shared; `to_who`"),
        (lambda d: option_of(d, "tax")["do"][0]["move"].__setitem__("to_who", "target"), "`to_who: target`"),
        (lambda d: option_of(d, "switch").pop("target"), "`with: target`"),
        (lambda d: option_of(d, "switch")["do"][0]["swap"].__setitem__("other", "pit"), "zone 'pit' is shared; a swap"),
        (lambda d: option_of(d, "switch")["do"][0]["swap"].__setitem__("zone", "pocket"), "no zone 'pocket'"),
    ],
)
def test_a_broken_gift_tax_or_swap_is_a_finding_at_its_line(tmp_path: Path, change: Change, wanted: str) -> None:
    folder = edited_copy(FIXTURE, tmp_path, _with(GIFT, TAX, SWITCH), change)
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG175" and wanted in f.message]
    assert found, [f.render() for f in validate_folder(folder, kinds=("static",)).findings]


def test_a_swap_of_a_zone_with_the_same_seats_zone_is_refused(tmp_path: Path) -> None:
    """``with: active`` in a step the active seat decides names the seat deciding: swapping its hand with its own
    hand does nothing (CG182), while swapping with another of its zones, or in a step another seat decides, does."""
    itself = {"id": "mirror", "name": {"en": "look in a mirror", "pt_BR": "olhar no espelho"}, "do": [{"swap": {"zone": "hand", "with": "active"}}]}
    folder = edited_copy(FIXTURE, tmp_path / "itself", _with(itself))
    found = [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG182"]
    assert found and found[0].severity is Severity.ERROR and "swap.with" in found[0].render(), [f.render() for f in found]
    other_zone = dict(itself, do=[{"swap": {"zone": "hand", "with": "active", "other": "vault"}}])
    folder = edited_copy(FIXTURE, tmp_path / "other", _with(other_zone))
    assert [f.render() for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG182"] == []


@pytest.mark.parametrize("move,inert", [
    ({"from": "hand", "to": "hand"}, True),
    ({"from": "hand", "to": "hand", "who": "each"}, True),
    ({"from": "hand", "to": "hand", "to_who": "me"}, True),
    ({"from": "hand", "to": "hand", "to_who": "next"}, False),
    ({"from": "vault", "to": "vault", "where": "card.value == 1"}, False),  # the matching cards come to the top
    ({"from": "hand", "to": "vault"}, False),
])
def test_a_move_into_the_zone_it_leaves_is_refused(tmp_path: Path, move: dict[str, Any], inert: bool) -> None:
    """A move whose cards land on the same seat's same zone they left, one by one from the top, changes nothing (CG182)."""
    option = {"id": "shuffle_in_place", "name": {"en": "fidget", "pt_BR": "mexer"}, "do": [{"move": move}]}
    folder = edited_copy(FIXTURE, tmp_path, _with(option))
    found = [f.render() for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG182"]
    assert bool(found) is inert, found


def test_a_zone_only_a_swap_fills_is_not_reported_as_never_filled(tmp_path: Path) -> None:
    """A swap puts cards into both zones it exchanges: a choice from a zone only a swap fills is offered (no CG180)."""
    def stash(data: dict[str, Any]) -> None:
        data["rules"]["zones"]["stash"] = {"per_seat": True, "visibility": "owner", "name": {"en": "stash", "pt_BR": "esconderijo"}, "gender": {"pt_BR": "masculine"}}

    hide = {"id": "hide", "name": {"en": "hide your hand", "pt_BR": "esconder a mão"}, "do": [{"swap": {"zone": "hand", "with": "next", "other": "stash"}}]}
    dig_up = {"id": "dig_up", "name": {"en": "dig up a gem", "pt_BR": "desenterrar uma gema"}, "card": {"from": "stash", "to": "vault"}}
    folder = edited_copy(FIXTURE, tmp_path, stash, _with(hide, dig_up))
    findings = validate_folder(folder, kinds=("static",)).findings
    assert [f.render() for f in findings if f.code == "CG180"] == []
    assert [f.render() for f in findings if f.severity is Severity.ERROR] == []


def test_one_other_seats_card_to_the_next_player_goes_after_the_seat_deciding(tmp_path: Path) -> None:
    """``who: previous, to_who: next`` reads "the previous player's card to the next player's hand": the seat after
    the one deciding, as everywhere in the rulebook; only a move from several seats (each, others) passes each on."""
    relay = {"id": "relay", "name": {"en": "relay a gem", "pt_BR": "repassar uma gema"},
             "do": [{"move": {"from": "hand", "to": "hand", "who": "previous", "to_who": "next"}}]}
    game = data_game(edited_copy(FIXTURE, tmp_path, _with(relay)), 4)
    state = _act(game, 6)
    me = state.current_player()
    previous, following = (me - state.direction) % 4, (me + state.direction) % 4
    _known_hands(game, state, [[seat % 3] for seat in range(4)])
    state.apply_action(_find(game, state, "relay")[0])
    assert _hand(game, state, previous) == [] and _hand(game, state, following) == sorted([following % 3, previous % 3])
    assert _hand(game, state, me) == [me % 3]


def test_listing_an_option_aimed_at_a_seats_own_cards_leaves_the_aim_as_it_was(tmp_path: Path) -> None:
    """Legal actions are a question, not a move: listing an option that takes a card of the aimed seat's choice
    (`target` with `card.whose: target`) tried each seat as the aim and then cleared it, so an aim taken earlier in
    the turn was lost (found by the red team, session 6)."""
    pinch = {"id": "pinch", "name": {"en": "pinch a gem", "pt_BR": "beliscar uma gema"}, "target": OTHER,
             "card": {"from": "hand", "to": "hand", "whose": "target"}}
    game = data_game(edited_copy(FIXTURE, tmp_path, _with(pinch)), 3)
    state = _act(game, 1)
    assert _find(game, state, "pinch")
    for aim in (-1, 0, 2):
        state.tg = aim
        state.legal_actions()
        assert state.tg == aim
