"""A roll that records doubles (``roll: {dice, var, doubles}``): Pickpockets (tests/fixtures/dice-steal) with one
more rule, "with doubles you may dig whatever the total", played by the generic interpreter.

The outcomes of a roll with doubles are checked against every throw of the dice counted one by one; the
variable is set by chance's outcome; the rule reads it; the generated rulebook says it; and each misuse of
the new key is CG175 at its place.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.core import CHANCE
from cardgen.engine.interpreter import DataGame
from cardgen.engine.interpreter.chance import dice_totals, dice_totals_doubles
from cardgen.findings import Severity
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec

from engine.spec_copies import Change, data_game, edited_copy

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "dice-steal"


@pytest.mark.parametrize(("count", "sides"), [(1, 6), (2, 4), (2, 6), (3, 4), (3, 6), (4, 3)])
def test_the_outcomes_match_every_throw_counted(count: int, sides: int) -> None:
    ways: dict[int, int] = {}
    for throw in itertools.product(range(1, sides + 1), repeat=count):
        code = sum(throw) * 2 + (1 if count > 1 and len(set(throw)) == 1 else 0)
        ways[code] = ways.get(code, 0) + 1
    expected = [(code, Fraction(n, sides**count)) for code, n in sorted(ways.items())]
    got = [(code, Fraction(p).limit_denominator(sides**count)) for code, p in dice_totals_doubles(count, sides)]
    assert got == expected
    assert sum(p for _, p in dice_totals_doubles(count, sides)) == pytest.approx(1.0)
    # Folding doubles away gives the plain totals.
    folded: dict[int, float] = {}
    for code, p in dice_totals_doubles(count, sides):
        folded[code // 2] = folded.get(code // 2, 0.0) + p
    plain = dice_totals(count, sides)
    assert sorted(folded) == [total for total, _ in plain]
    assert [folded[total] for total, _ in plain] == pytest.approx([p for _, p in plain])


def _with_doubles(data: dict[str, Any]) -> None:
    rules = data["rules"]
    rules["variables"]["double"] = {"name": {"en": "doubles", "pt_BR": "dados iguais"}, "gender": {"pt_BR": "masculine plural"}}
    rules["turn"][0]["options"][0]["do"] = [{"roll": {"dice": "pair", "var": "rolled", "doubles": "double"}}]
    dig = next(o for o in rules["turn"][1]["options"] if o["id"] == "dig")
    dig["when"] = "(rolled >= numbers.dig_at or double == 1) and count(bag) > 0"


def _copy(tmp_path: Path, change: Change) -> Path:
    return edited_copy(FIXTURE, tmp_path, _with_doubles, change)


def _game(tmp_path: Path) -> DataGame:
    return data_game(_copy(tmp_path, lambda data: None), 2)


def test_a_double_lets_the_player_dig_below_the_total(tmp_path: Path) -> None:
    game = _game(tmp_path)
    dig = next(o for o in game.options if o.key == "act.dig").index
    for total, double, digs in ((4, 1, True), (4, 0, False), (8, 0, True), (2, 1, True)):
        s = game.new_initial_state(3)
        (roll,) = s.legal_actions()
        s.apply_action(roll)
        assert s.current_player() == CHANCE
        outcomes = dict(s.chance_outcomes())
        names = {s.action_to_string(a) for a in outcomes}
        assert any("(doubles)" in name for name in names) and not all("(doubles)" in name for name in names)
        assert sum(outcomes.values()) == pytest.approx(1.0)
        action = next(a for a in outcomes if a % game.width == total * 2 + double)
        assert outcomes[action] == pytest.approx((1 if double else {4: 2, 8: 4}.get(total, 0)) / 36)
        s.apply_action(action)
        assert s.v[game.tables.variable_index["rolled"]] == total
        assert s.v[game.tables.variable_index["double"]] == double
        offered = {a // game.width for a in s.legal_actions()}
        assert (dig in offered) is digs, (total, double)


def test_the_rulebook_says_the_doubles(tmp_path: Path) -> None:
    from cardgen.rulebook.i18n import translations

    loaded = load_spec(_copy(tmp_path, lambda data: None))
    assert loaded.spec is not None
    for locale, words in (("en", "the same face"), ("pt_BR", "mesma face")):
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        text = str(summary["turn"])
        assert words in text, text


def test_the_copy_with_doubles_is_clean(tmp_path: Path) -> None:
    result = validate_folder(_copy(tmp_path, lambda data: None), kinds=("static",))
    assert [f.render() for f in result.findings if f.severity is Severity.ERROR] == []


def _roll_spec(data: dict[str, Any]) -> dict[str, Any]:
    roll: dict[str, Any] = data["rules"]["turn"][0]["options"][0]["do"][0]["roll"]
    return roll


MUTANTS: list[tuple[str, Callable[[dict[str, Any]], object]]] = [
    ("an unknown variable", lambda d: _roll_spec(d).__setitem__("doubles", "pair_shown")),
    ("the total's own variable", lambda d: _roll_spec(d).__setitem__("doubles", "rolled")),
    ("a variable over card values", lambda d: d["rules"]["variables"]["double"].__setitem__("values", "value")),
]


@pytest.mark.parametrize(("name", "change"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_each_misuse_is_refused_at_its_place(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], object]) -> None:
    result = validate_folder(_copy(tmp_path, change), kinds=("static",))
    found = [(f.code, f.path) for f in result.findings if f.severity is Severity.ERROR]
    assert ("CG175", "rules.turn[0].options[0].do[0].roll.doubles") in found, found


FLAG = {"raised": {"en": "the roll is a double", "pt_BR": "a rolagem é de dados iguais"},
        "lowered": {"en": "the roll is not a double", "pt_BR": "a rolagem não é de dados iguais"}}


def _flagged(data: dict[str, Any]) -> None:
    data["rules"]["variables"]["double"]["flag"] = FLAG


@pytest.mark.parametrize("condition", ["double == 1", "double != 0", "double", "1 == double", "not double == 0",
                                       "double > 0", "double >= 1", "0 < double", "not double < 1", "double in [1]", "double not in [0]"])
def test_a_flag_is_said_in_its_own_words(tmp_path: Path, condition: str) -> None:
    """Every way of asking whether the flag is 1 reads as its raised clause; the roll says both clauses; no "is 1" is left."""
    from cardgen.rulebook.i18n import translations

    def ask(data: dict[str, Any]) -> None:
        _flagged(data)
        dig = next(o for o in data["rules"]["turn"][1]["options"] if o["id"] == "dig")
        dig["when"] = f"(rolled >= numbers.dig_at or {condition}) and count(bag) > 0"

    folder = _copy(tmp_path, ask)
    assert [f.render() for f in validate_folder(folder, kinds=("static",)).findings if f.severity is Severity.ERROR] == []
    loaded = load_spec(folder)
    assert loaded.spec is not None
    for locale, raised, rolled in (
        ("en", "or the roll is a double", "If every die shows the same face, the roll is a double; if not, the roll is not a double."),
        ("pt_BR", "ou a rolagem é de dados iguais", "Se todos os dados mostram a mesma face, a rolagem é de dados iguais; se não, a rolagem não é de dados iguais."),
    ):
        summary = rules_summary(loaded.spec, locale, translations(locale))
        assert summary is not None
        text = str(summary["turn"])
        assert raised in text and rolled in text, text
        assert " is 1" not in text and " é 1" not in text


@pytest.mark.parametrize(("source", "words"), [
    (1, "From now on, the roll is a double."),
    (0, "From now on, the roll is not a double."),
    ("1 if count(bag) > 2 else 0", "The roll is a double if the number of cards in"),
    ("0 if count(bag) > 2 else 1", "The roll is not a double if the number of cards in"),
])
def test_setting_a_flag_is_said_in_its_own_words(tmp_path: Path, source: int | str, words: str) -> None:
    from cardgen.rulebook.i18n import translations

    def set_it(data: dict[str, Any]) -> None:
        _flagged(data)
        data["rules"]["turn"][0]["options"][0]["do"].insert(0, {"set": {"var": "double", "value": source}})

    loaded = load_spec(_copy(tmp_path, set_it))
    assert loaded.spec is not None
    summary = rules_summary(loaded.spec, "en", translations("en"))
    assert summary is not None
    assert words in str(summary["turn"]), summary["turn"]


FLAG_MUTANTS: list[tuple[str, Callable[[dict[str, Any]], object], str]] = [
    ("a flag with values", lambda d: d["rules"]["variables"]["double"].__setitem__("values", "value"), "rules.variables.double.flag"),
    ("a flag holding the total", lambda d: d["rules"]["variables"]["rolled"].__setitem__("flag", FLAG), "rules.turn[0].options[0].do[0].roll.var"),
    ("a flag set to 2", lambda d: d["rules"]["turn"][0]["options"][0]["do"].insert(0, {"set": {"var": "double", "value": 2}}), "rules.turn[0].options[0].do[0].set.value"),
    ("a flag set to a count", lambda d: d["rules"]["turn"][0]["options"][0]["do"].insert(0, {"set": {"var": "double", "value": "count(bag)"}}), "rules.turn[0].options[0].do[0].set.value"),
    ("a flag set to 1 or 2", lambda d: d["rules"]["turn"][0]["options"][0]["do"].insert(0, {"set": {"var": "double", "value": "1 if count(bag) > 2 else 2"}}), "rules.turn[0].options[0].do[0].set.value"),
]


@pytest.mark.parametrize(("name", "change", "path"), FLAG_MUTANTS, ids=[m[0] for m in FLAG_MUTANTS])
def test_each_misuse_of_a_flag_is_refused_at_its_place(tmp_path: Path, name: str, change: Callable[[dict[str, Any]], object], path: str) -> None:
    def both(data: dict[str, Any]) -> None:
        _flagged(data)
        change(data)

    result = validate_folder(_copy(tmp_path, both), kinds=("static",))
    found = [(f.code, f.path) for f in result.findings if f.severity is Severity.ERROR]
    assert ("CG175", path) in found, found


@pytest.mark.parametrize("condition", ["double == 0", "not double", "double != 1", "double < 1"])
def test_a_flag_nothing_has_set_yet_is_lowered(tmp_path: Path, condition: str) -> None:
    """Before the first roll, a flag is 0 (its lowered clause holds), not unset: every way of asking whether it is 0,
    which the rulebook says alike ("the roll is not a double"), holds at the start, as ``not double`` does."""

    def ask_first(data: dict[str, Any]) -> None:
        _flagged(data)
        data["rules"]["turn"][0]["options"][0]["when"] = condition

    game = data_game(_copy(tmp_path, ask_first), 2)
    s = game.new_initial_state(3)
    assert s.v[game.tables.variable_index["double"]] == 0
    assert s.v[game.tables.variable_index["rolled"]] is None  # (a variable that is no flag starts unset, as before)
    roll = next(o for o in game.options if o.key == "throw.roll").index
    assert roll in {a // game.width for a in s.legal_actions()}, condition


@pytest.mark.parametrize(("var", "value", "said"), [
    ("full", "2", "variable 'full' is a `flag`"),
    ("full", "count(deck)", "variable 'full' is a `flag`"),
    ("rolled", "'three'", "gives text values, and variable 'rolled' takes number values"),
])
def test_a_set_in_a_setup_loop_is_held_to_its_variable_as_any_set(tmp_path: Path, var: str, value: str, said: str) -> None:
    """A ``set`` inside a setup ``repeat`` gives its variable a value of the variable's kind, and only 1 or 0 to a flag,
    as a set anywhere else must (the loop's texts were checked for names only)."""
    keramikos = Path(__file__).resolve().parents[2] / "specs" / "keramikos"

    def loop_set(data: dict[str, Any]) -> None:
        loop = next(step for step in data["rules"]["setup"] if "repeat" in step)
        loop["repeat"]["do"].insert(0, {"set": {"var": var, "value": value}})

    result = validate_folder(edited_copy(keramikos, tmp_path, loop_set), kinds=("static",))
    found = [f for f in result.findings if f.code == "CG175" and f.path == "rules.setup[1].repeat.do[0].set.value"]
    assert len(found) == 1 and said in found[0].message, [f.render() for f in result.findings]


@pytest.mark.parametrize("condition", ["double == 2", "double != 'yes'", "2 == double", "double in [1, 2]"])
def test_a_flag_compared_with_a_value_it_never_holds_is_reported(tmp_path: Path, condition: str) -> None:
    """A flag holds 1 or 0 only, so comparing it with anything else can never hold (or always holds): CG183 at the condition."""

    def ask(data: dict[str, Any]) -> None:
        _flagged(data)
        dig = next(o for o in data["rules"]["turn"][1]["options"] if o["id"] == "dig")
        dig["when"] = f"(rolled >= numbers.dig_at or {condition}) and count(bag) > 0"

    found = [f for f in validate_folder(_copy(tmp_path, ask), kinds=("static",)).findings if f.code == "CG183"]
    assert len(found) == 1 and "'double' is a flag" in found[0].message and found[0].path.endswith(".when"), [f.render() for f in found]
