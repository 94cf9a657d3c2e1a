"""Rules data whose numbers make a rule do nothing (CG182): each case is refused at the line of the rule.

The family: an amount of 0, a move of no card, an arrangement of one card, sets multiplied by 1 and a bonus of 0,
at every player count or only at some (the message names them), and a warning instead when a rule option decides
it. Each case edits a copy of a shipped data game; the shipped specs are clean (test_controls.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.catalogue import validate_folder
from cardgen.findings import Severity

from .helpers import copy_spec, edit_yaml, errors, line_of, rendered


def _draw(data: Any) -> Any:
    return next(o for o in data["rules"]["turn"][0]["options"] if o["id"] == "draw")


def _inert(folder: Path) -> list[Any]:
    return [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG182"]


def test_a_multiplier_of_one_is_refused_at_its_line(tmp_path: Path) -> None:
    """Mausoleum Guardians' Mausolo multiplies a set's points by ``numbers.mausolo_multiplier``: at 1 the card does nothing."""
    folder = copy_spec("mausoleum-guardians", tmp_path)
    edit_yaml(folder, lambda d: d["numbers"].__setitem__("mausolo_multiplier", 1))
    found = errors(_inert(folder), "CG182")
    assert found, rendered(validate_folder(folder, kinds=("static",)).findings)
    assert "times:" in line_of(found[0]) and "multiplies sets by 1" in found[0].message


def test_a_multiplier_of_three_is_not(tmp_path: Path) -> None:
    folder = copy_spec("mausoleum-guardians", tmp_path)
    edit_yaml(folder, lambda d: d["numbers"].__setitem__("mausolo_multiplier", 3))
    assert _inert(folder) == []


def test_an_amount_of_zero_read_from_a_number_is_refused(tmp_path: Path) -> None:
    folder = copy_spec("crazy-eights", tmp_path)

    def add_nothing(data: Any) -> None:
        data["numbers"]["draw_cost"] = 0
        _draw(data)["do"][1]["add"]["amount"] = "numbers.draw_cost"

    edit_yaml(folder, add_nothing)
    found = errors(_inert(folder), "CG182")
    assert found and "amount:" in line_of(found[0]) and "adds 0 to counter 'draws'" in found[0].message
    assert " with " not in found[0].message  # at every player count: no counts named


def test_a_move_of_no_card_at_some_player_counts_names_them(tmp_path: Path) -> None:
    folder = copy_spec("crazy-eights", tmp_path)

    def draw_by_players(data: Any) -> None:
        _draw(data)["do"][0]["move"]["count"] = "5 - players"

    edit_yaml(folder, draw_by_players)
    found = errors(_inert(folder), "CG182")
    assert found and found[0].message.endswith("moves no card from 'stock' with 5 players: the rule does nothing there"), rendered(found)


def test_a_rule_an_option_switches_off_is_a_warning(tmp_path: Path) -> None:
    folder = copy_spec("crazy-eights", tmp_path)

    def optional_draw(data: Any) -> None:
        data["rules"]["options"] = {"draws_count": {"choices": ["yes", "no"], "default": "no", "name": {"en": "Draws count", "pt_BR": "Compras contam"}}}
        _draw(data)["do"][1]["add"]["amount"] = "1 if options.draws_count == 'yes' else 0"

    edit_yaml(folder, optional_draw)
    found = _inert(folder)
    assert [f.severity for f in found] == [Severity.WARNING], rendered(found)


def test_an_amount_read_from_the_position_is_not_judged(tmp_path: Path) -> None:
    """Only what is known before play is folded: an amount reading a zone may be 0 in one position and not another."""
    folder = copy_spec("crazy-eights", tmp_path)
    edit_yaml(folder, lambda d: _draw(d)["do"][1]["add"].__setitem__("amount", "count(stock) - count(stock)"))
    assert _inert(folder) == []


def _literal(folder: Path) -> list[Any]:
    return [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG183"]


def test_a_card_value_no_card_has_is_reported_at_its_condition(tmp_path: Path) -> None:
    """A typo in a suit (``hearts`` written ``heart``) makes the condition never hold."""
    folder = copy_spec("crazy-eights", tmp_path)

    def typo(data: Any) -> None:
        play = next(o for o in data["rules"]["turn"][0]["options"] if o["id"] == "play")
        play["card"]["where"] = "card.effect == 'wild' or card.suit == 'heart' or card.rank == top(discard).rank"

    edit_yaml(folder, typo)
    found = _literal(folder)
    assert len(found) == 1 and found[0].severity is Severity.WARNING, rendered(found)
    assert "where:" in line_of(found[0]) and "no card in play has suit 'heart'" in found[0].message


def test_a_rule_waiting_for_a_card_the_deck_leaves_out_is_reported(tmp_path: Path) -> None:
    """Mausoleum Guardians without its Earthquakes: the guards' step waits for an attack that never comes
    (what the rules module's contract called an inert defence)."""
    folder = copy_spec("mausoleum-guardians", tmp_path)

    def no_earthquakes(data: Any) -> None:
        for deck in data["decks"]:
            deck["cards"] = [card for card in deck["cards"] if card.get("effect") != "earthquake"]

    edit_yaml(folder, no_earthquakes)
    found = _literal(folder)
    assert any("effect 'earthquake'" in f.message and "top(discard).effect == 'earthquake'" in f.message for f in found), rendered(found)


def test_values_the_cards_have_are_not_reported(tmp_path: Path) -> None:
    folder = copy_spec("crazy-eights", tmp_path)

    def suit_named(data: Any) -> None:
        play = next(o for o in data["rules"]["turn"][0]["options"] if o["id"] == "play")
        play["card"]["where"] = "card.effect == 'wild' or card.suit == 'hearts' or suit != 'spades'"

    edit_yaml(folder, suit_named)
    assert _literal(folder) == []


def test_a_variable_compared_with_a_value_of_its_field_no_card_has(tmp_path: Path) -> None:
    folder = copy_spec("crazy-eights", tmp_path)

    def typo(data: Any) -> None:
        draw = next(o for o in data["rules"]["turn"][0]["options"] if o["id"] == "draw")
        draw["when"] = "count(stock) > 0 and draws < numbers.max_draws and suit != 'spade'"

    edit_yaml(folder, typo)
    found = _literal(folder)
    assert len(found) == 1 and "suit 'spade'" in found[0].message, rendered(found)


def test_a_majority_whose_places_all_score_nothing_is_refused(tmp_path: Path) -> None:
    folder = copy_spec("hearts", tmp_path)

    def zero_majority(data: Any) -> None:
        data["numbers"] = {"suit_first": 0}
        data["rules"]["scoring"].append({"majority": {"zone": "taken", "by": "suit", "points": ["numbers.suit_first", 0]}})

    edit_yaml(folder, zero_majority)
    found = errors(_inert(folder), "CG182")
    assert found and "points:" in line_of(found[0]) and "every place of the majority scores 0" in found[0].message, rendered(found)


def test_an_amount_of_zero_where_the_rules_never_get_to_it_is_not_reported(tmp_path: Path) -> None:
    """The hint's own advice: an add of ``players - 2`` on an option (or in a step) whose ``when`` holds only with
    more than two players never runs with two, so it does nothing nowhere."""
    for where in ("option", "step"):
        folder = copy_spec("crazy-eights", tmp_path / where)

        def guarded(data: Any, where: str = where) -> None:
            draw = _draw(data)
            if where == "option":
                draw["when"] = "players > 2 and " + draw["when"]
            else:
                data["rules"]["turn"][0]["when"] = "players >= 3"
            draw["do"][1]["add"]["amount"] = "players - 2"

        edit_yaml(folder, guarded)
        assert _inert(folder) == [], rendered(_inert(folder))


def test_a_guard_that_lets_the_rule_run_where_it_does_nothing_does_not_hide_it(tmp_path: Path) -> None:
    folder = copy_spec("crazy-eights", tmp_path)

    def loosely_guarded(data: Any) -> None:
        draw = _draw(data)
        draw["when"] = "(players > 1 or count(stock) > 0) and " + draw["when"]
        draw["do"][1]["add"]["amount"] = "players - 2"

    edit_yaml(folder, loosely_guarded)
    found = errors(_inert(folder), "CG182")
    assert found and found[0].message.endswith("with 2 players: the rule does nothing there"), rendered(_inert(folder))


def test_a_card_value_no_card_has_in_a_targets_condition_is_reported(tmp_path: Path) -> None:
    """``target.where`` is a condition like any other (it was not read by CG183)."""
    folder = copy_spec("crazy-eights", tmp_path)
    edit_yaml(folder, lambda d: _draw(d).__setitem__("target", {"where": "target != seat and top(discard).suit == 'heart'"}))
    found = _literal(folder)
    assert len(found) == 1 and "suit 'heart'" in found[0].message and "where:" in line_of(found[0]), rendered(found)


def test_a_value_the_rules_set_a_variable_to_is_not_reported(tmp_path: Path) -> None:
    """A variable holding a field's values may also be set to a value of the designer's (``'none'`` once the suit is
    cleared): comparing it with that value is not a value that never occurs."""
    folder = copy_spec("crazy-eights", tmp_path)

    def cleared(data: Any) -> None:
        pass_option = next(o for o in data["rules"]["turn"][0]["options"] if o["id"] == "pass")
        pass_option["do"] = [{"set": {"var": "suit", "value": "'none' if count(stock) == 0 else suit"}}]
        play = next(o for o in data["rules"]["turn"][0]["options"] if o["id"] == "play")
        play["card"]["where"] = "suit == 'none' or card.effect == 'wild' or card.suit == suit or card.rank == top(discard).rank"

    edit_yaml(folder, cleared)
    assert _literal(folder) == [], rendered(_literal(folder))
    edit_yaml(folder, lambda d: next(o for o in d["rules"]["turn"][0]["options"] if o["id"] == "play")["card"].__setitem__(
        "where", "suit == 'nothing' or card.suit == suit"))
    found = _literal(folder)
    assert len(found) == 1 and "suit 'nothing'" in found[0].message, rendered(found)


def test_a_setup_set_nothing_after_it_reads_is_refused(tmp_path: Path) -> None:
    """Keramikos' setup loop stops on variable ``full``; setting it again once the loop is done changes nothing: refused at
    that step. Read later (a turn's condition), the same step is kept."""
    folder = copy_spec("keramikos", tmp_path)
    edit_yaml(folder, lambda d: d["rules"]["setup"].append({"set": {"var": "full", "value": 0}}))
    found = errors(_inert(folder), "CG182")
    assert found and "var: full" in line_of(found[0]) and "nothing after this step reads" in found[0].message

    def read_in_play(data: Any) -> None:
        data["rules"]["setup"].append({"set": {"var": "full", "value": 0}})
        option = data["rules"]["turn"][0]["options"][0]
        option["when"] = f"({option['when']}) and full == 0"

    folder = copy_spec("keramikos", tmp_path / "read")
    edit_yaml(folder, read_in_play)
    assert [f for f in _inert(folder) if "nothing after this step reads" in f.message] == []


def test_a_variable_s_own_name_is_not_a_read_of_it(tmp_path: Path) -> None:
    """A variable named in words that are its id (``name: {en: full}``) is not read by its name: the unread setup step
    is still refused (the rulebook's words under name, meaning, flag and gender are no expressions)."""

    def named_as_its_id(data: Any) -> None:
        data["rules"]["setup"].append({"set": {"var": "full", "value": 0}})
        data["rules"]["variables"]["full"]["name"] = {"en": "full", "pt_BR": "full"}

    folder = copy_spec("keramikos", tmp_path)
    edit_yaml(folder, named_as_its_id)
    found = errors(_inert(folder), "CG182")
    assert found and "var: full" in line_of(found[0]) and "nothing after this step reads" in found[0].message, rendered(_inert(folder))


def test_a_set_in_a_setup_loop_nothing_reads_is_refused(tmp_path: Path) -> None:
    """A set inside a setup loop that neither the loop (its `until`, its other effects) nor anything after it reads does
    nothing; Keramikos' own loop set of ``full``, which its `until` reads, stays clean."""

    def probe(data: Any) -> None:
        data["rules"]["variables"]["probe"] = {"name": {"en": "probe", "pt_BR": "sonda"}, "gender": {"pt_BR": "feminine"}}
        loop = next(step for step in data["rules"]["setup"] if "repeat" in step)
        loop["repeat"]["do"].append({"set": {"var": "probe", "value": 1}})

    folder = copy_spec("keramikos", tmp_path)
    edit_yaml(folder, probe)
    found = errors(_inert(folder), "CG182")
    assert len(found) == 1 and "var: probe" in line_of(found[0]) and "setup loop" in found[0].message, rendered(found)
    assert errors(_inert(copy_spec("keramikos", tmp_path / "shipped")), "CG182") == []
