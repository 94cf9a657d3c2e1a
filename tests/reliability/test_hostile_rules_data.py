"""Hostile rules data (issue 14): every attack on a spec's `rules:` mapping ends in a finding at its line.

Each case edits a copy of a data game (Crazy Eights, Hearts) the way an attacker
or a careless designer would: expressions nested past what Python compiles, text
in arithmetic, division by zero, counts of a billion, a turn limit that would run
for hours, names that hide the language's own words. Before the fixes these
ended in exit 3 (a SyntaxError or TypeError in the compiled rules), a hang, or a
silently changed meaning; now each is a CG175 finding at the line it broke, or
plays without raising.
"""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any, Callable

import pytest
from ruamel.yaml import YAML

from cardgen.engine.interpreter.game import DataGame
from cardgen.findings import Severity
from cardgen.spec.load import load_spec
from cardgen.catalogue import validate_folder
from cardgen.spec.rules_fold import Constants, fold

from .conftest import SPECS
from .test_bounded_work import deadline

Edit = Callable[[Any], None]


def _copy(spec: str, tmp_path: Path, change: Edit) -> Path:
    folder = tmp_path / spec
    shutil.copytree(SPECS / spec, folder)
    yaml = YAML()
    yaml.width = 4096
    path = folder / "game.yaml"
    data = yaml.load(path.read_text(encoding="utf-8"))
    change(data)
    out = io.StringIO()
    yaml.dump(data, out)
    path.write_text(out.getvalue(), encoding="utf-8")
    return folder


def _option(data: Any, option_id: str) -> Any:
    return next(o for o in data["rules"]["turn"][0]["options"] if o["id"] == option_id)


def _draw_when(extra: str) -> Edit:
    """The draw option's condition, with ``extra`` and-ed to it (so every number it read is still read)."""
    return lambda d: _option(d, "draw").__setitem__("when", f"count(stock) > 0 and draws < numbers.max_draws and {extra}")


def _set(*keys: Any, value: Any) -> Edit:
    def change(data: Any) -> None:
        node = data
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value
    return change


def _add_named(kind: str, name: str, value: Any) -> Edit:
    return lambda d: d["rules"].setdefault(kind, {}).__setitem__(name, value)


def _choose_a_field_no_card_has(data: Any) -> None:
    data["decks"][0]["fields"]["spare"] = {"type": "text", "required": False, "description": "Left blank on every card."}
    data["rules"]["variables"]["suit"]["values"] = "spare"
    data["rules"]["setup"][3]["set"]["value"] = "top(discard).spare"
    _option(data, "play")["do"][0]["set"]["value"] = "card.spare"
    _option(data, "play")["card"]["where"] = "card.effect == 'wild' or card.spare == suit"


STATIC_CASES: list[tuple[str, str, Edit, str]] = [
    # nesting: the compiled Python would exceed the parser's nesting (SyntaxError at make_game, CG502 or exit 3)
    ("400 minus signs", "crazy-eights", _draw_when("-" * 400 + "draws < 3"), "nests"),
    ("110 nots", "crazy-eights", _draw_when("not " * 110 + "draws < 3"), "nests"),
    ("a sum of 60 terms", "crazy-eights", _draw_when("draws+" * 60 + "1 < 300"), "nests"),
    ("has() nested in has()", "crazy-eights", _draw_when("has(hand,rank,-" * 25 + "1" + ")" * 25), "nests"),
    # kinds: each raised TypeError in the first playout (exit 3)
    ("text plus number", "crazy-eights", _draw_when("top(discard).suit + 1 > 0"), "arithmetic"),
    ("text ordered against a number", "crazy-eights", _draw_when("suit < 3"), "no order"),
    ("a total of a text field", "crazy-eights", _draw_when("total(hand, suit) > 0"), "total()"),
    ("minus a text", "crazy-eights", _draw_when("-'a' == suit"), "`-`"),
    ("text modulo (string formatting)", "crazy-eights", _draw_when("not 'a' % 3"), "arithmetic"),
    ("text repeated (memory)", "crazy-eights", _draw_when("'ab' * draws * draws == suit"), "arithmetic"),
    ("a localised text ordered", "crazy-eights", _draw_when("(suit or 1) < 2"), "no order"),
    ("a text variable set to a number", "crazy-eights", lambda d: _option(d, "play")["do"][0]["set"].__setitem__("value", "card.rank"), "variable 'suit'"),
    # the static fold (CG182) works amounts out before play: a constant text repeated a hundred billion times raised
    # MemoryError (exit 3), and an expression too long or deep for the checker was parsed anyway
    ("a constant text repeated (memory, static fold)", "crazy-eights",
     lambda d: _option(d, "draw")["do"][1]["add"].__setitem__("amount", "'x' * 100000000000"), "arithmetic"),
    ("3000 minus signs in an amount (static fold)", "crazy-eights",
     lambda d: _option(d, "draw")["do"][1]["add"].__setitem__("amount", "-" * 3000 + "1"), "longer than 500"),
    ("a majority's points a text repeated (static fold)", "hearts",
     lambda d: d["rules"]["scoring"].append({"majority": {"zone": "taken", "points": ["'x' * 100000000000"]}}), "arithmetic"),
    ("a text amount", "crazy-eights", lambda d: _option(d, "draw")["do"][1]["add"].__setitem__("amount", "'x'"), "whole number"),
    ("a text deal count", "crazy-eights", _set("rules", "setup", 1, "deal", "count", value="'x' or setup.deal.standard"), "whole number"),
    # sizes
    ("a deal of a billion", "crazy-eights", _set("rules", "setup", 1, "deal", "count", value=10**9), "over the limit"),
    ("a turn limit of a billion", "crazy-eights", _set("rules", "end", "turn_limit", value=10**9), "turn_limit"),
    ("a counter's min above its max", "crazy-eights", lambda d: d["rules"]["counters"]["draws"].__setitem__("min", 100), "above its max"),
    ("a counter starting outside its range", "crazy-eights", lambda d: d["rules"]["counters"]["draws"].__setitem__("start", 10**9), "outside its range"),
    # worked out before play from a position that does not exist yet (AttributeError at make_game, found by the fuzz test)
    ("a counter starting at a zone's count", "crazy-eights", lambda d: d["rules"]["counters"]["draws"].__setitem__("start", "count(stock) // 60"), "before play"),
    ("a deal counting a counter", "crazy-eights", _set("rules", "setup", 1, "deal", "count", value="setup.deal.standard + draws"), "before play"),
    ("a turn limit read from the turn", "crazy-eights", _set("rules", "end", "turn_limit", value="turn + 100"), "before play"),
    # names that hide the language's words or each other (a counter `players` silently replaced the player count)
    ("a counter named players", "hearts", _add_named("counters", "players", {"per_seat": False}), "word of the expression language"),
    ("a counter named card", "hearts", _add_named("counters", "card", {"per_seat": False}), "word of the expression language"),
    ("a zone named seat", "hearts", _add_named("zones", "seat", {}), "word of the expression language"),
    ("a zone named like a Python keyword", "hearts", _add_named("zones", "lambda", {}), "word of the expression language"),
    ("a counter named like a zone", "hearts", _add_named("counters", "hand", {"per_seat": False}), "both a zone and a counter"),
    ("a variable named like a counter", "hearts", _add_named("variables", "tricks", {"values": "suit"}), "both a counter and a variable"),
    # tricks and choices the interpreter could only play wrong
    ("a number as trump over text suits", "hearts", _set("rules", "tricks", "trump", value=3), "no card is ever a trump"),
    ("a choice of a field no card has", "crazy-eights", _choose_a_field_no_card_has, "offers nothing"),
]


@pytest.mark.parametrize("name,spec,change,says", STATIC_CASES, ids=[c[0] for c in STATIC_CASES])
def test_hostile_rules_data_is_a_finding_at_its_line(tmp_path: Path, name: str, spec: str, change: Edit, says: str) -> None:
    folder = _copy(spec, tmp_path, change)
    findings = validate_folder(folder, kinds=("static",)).findings
    found = [f for f in findings if f.code == "CG175" and f.severity is Severity.ERROR and says in f.message]
    assert found, f"{name}: no CG175 saying {says!r}:\n" + "\n".join(f.render() for f in findings)
    assert all(f.line for f in found), [f.render() for f in found]


FOLD_ATTACKS = [
    "'x' * 100000000000", "numbers.s * numbers.big", "100000000000 * 'x'", "-" * 60000 + "1", "not " * 16000 + "1",
    "(" * 3000 + "1" + ")" * 3000, "1 if " * 3000 + "1" + " else 1" * 3000, "min(" * 300 + "1" + ")" * 300, "9" * 5000,
    "'a' < 1", "1 // 0", "1 % 0", "-'a'", "", "   ", "lambda: 1", "numbers.", "min()", "max(*x)",
]


@pytest.mark.parametrize("source", FOLD_ATTACKS, ids=range(len(FOLD_ATTACKS)))
def test_the_static_fold_never_raises(source: str) -> None:
    """:func:`cardgen.spec.rules_fold.fold` gives a value or None for any text, quickly and without raising."""
    constants = Constants(players=3, values={"numbers.big": 10**12, "numbers.s": "ab"})
    with deadline(10):
        value = fold(source, constants)
    assert value is None or isinstance(value, (int, str)) and len(str(value)) < 10_000


def _with_void(change: Edit) -> Edit:
    """``change``, in a spec with a zone nothing ever fills (its top card has no value)."""

    def both(data: Any) -> None:
        data["rules"]["zones"]["void"] = {}
        change(data)
    return both


PLAYABLE_CASES: list[tuple[str, Edit]] = [
    ("division by zero", _draw_when("1 // draws > 0")),
    ("modulo by zero", _draw_when("1 % (draws - draws) == 0")),
    ("arithmetic on an empty zone's top", _with_void(_draw_when("top(void).rank - 1 >= 0"))),
    ("a negative of a missing value", _with_void(_draw_when("-top(void).rank < 0"))),
    ("a move count that is missing", _with_void(lambda d: _option(d, "draw")["do"][0]["move"].__setitem__("count", "top(void).rank // 13"))),
    ("an amount that is missing", _with_void(lambda d: _option(d, "draw")["do"][1]["add"].__setitem__("amount", "top(void).rank * 2 + 1"))),
    ("a deal asking for far more cards than the deck", _set("rules", "setup", 1, "deal", "count", value="setup.deal.standard * 1000000")),
]


@pytest.mark.parametrize("name,change", PLAYABLE_CASES, ids=[c[0] for c in PLAYABLE_CASES])
def test_expressions_that_could_raise_play_without_raising(tmp_path: Path, name: str, change: Edit) -> None:
    """Arithmetic on a missing value or by zero gives no value; a deal stops when the pile is empty."""
    folder = _copy("crazy-eights", tmp_path, change)
    with deadline(120):
        result = validate_folder(folder, kinds=("static", "sim"))
    crashes = [f for f in result.findings if f.code in ("CG502", "CG506", "CG175")]
    assert not crashes, "\n".join(f.render() for f in crashes)


def test_a_turn_limit_computed_too_high_is_refused_before_play(tmp_path: Path) -> None:
    """A limit the checker cannot see (an expression) is refused when the game is made, not played for hours."""
    folder = _copy("crazy-eights", tmp_path, _set("rules", "end", "turn_limit", value="numbers.max_draws * 100000"))
    loaded = load_spec(folder)
    assert loaded.spec is not None
    with pytest.raises(ValueError, match="turn_limit"):
        DataGame(loaded.spec, 3)
    with deadline(120):
        findings = validate_folder(folder, kinds=("static", "sim")).findings
    assert any(f.code == "CG502" and "turn_limit" in f.message for f in findings), [f.render() for f in findings]
