"""The generated rules read as the spec's chosen rule options play (cardgen/rulebook/rule_options.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardgen.rulebook.i18n import translations
from cardgen.rulebook.rule_options import always, fold_options
from cardgen.rulebook.rules_summary import rules_summary
from cardgen.spec.load import load_spec

from engine.spec_copies import edited_copy

ROOT = Path(__file__).resolve().parents[2]
AMBUSH = ROOT / "tests" / "fixtures" / "ambush"


@pytest.mark.parametrize(
    "source,folded",
    [
        ("options.a == 'x'", "True"),
        ("options.a != 'x'", "False"),
        ("'y' == options.a", "False"),
        ("options.a == 'x' or count(hand) > 0", "True"),
        ("options.a == 'y' or count(hand) > 0", "count(hand) > 0"),
        ("options.a == 'x' and count(hand) > 0", "count(hand) > 0"),
        ("options.a == 'y' and count(hand) > 0", "False"),
        ("not options.a == 'y'", "True"),
        ("1 if options.a == 'x' else 2", "1"),
        ("1 if options.a == 'y' else 2", "2"),
        ("count(hand) if options.b == 'z' else 0", "count(hand) if options.b == 'z' else 0"),  # an option not chosen here stays
        ("(options.a == 'y' or seat == 1) and (options.a == 'x' or seat == 2)", "seat == 1"),
    ],
)
def test_fold(source: str, folded: str) -> None:
    tree = fold_options(ast.parse(source, mode="eval").body, {"a": "x"})
    assert ast.unparse(tree) == folded


def test_always() -> None:
    assert always(ast.Constant(True)) is True and always(ast.Constant(False)) is False
    assert always(ast.parse("count(hand) > 0", mode="eval").body) is None and always(None) is None


def _texts(folder: Path, locale: str = "en") -> list[str]:
    loaded = load_spec(folder)
    assert loaded.spec is not None
    summary = rules_summary(loaded.spec, locale, translations(locale))
    assert summary is not None
    return [note for step in summary["turn"] for note in step["notes"]] + [o["text"] for step in summary["turn"] for o in step["options"]]


def test_a_condition_the_chosen_option_decides_is_left_out(tmp_path: Path) -> None:
    """Ambush's `take_it` is open when `shields: may`, or when the hand holds no shield (`shields: must`)."""
    must = _texts(AMBUSH)
    may = _texts(edited_copy(AMBUSH, tmp_path, lambda data: data["options"].__setitem__("shields", "may")))
    assert "Only when your hand does not hold Shield. Then go on to step 3." in must
    assert "Then go on to step 3." in may
    assert not any("rule option" in text for text in must + may)


def test_an_option_never_offered_and_a_step_never_taken_at_the_chosen_options(tmp_path: Path) -> None:
    def only_with_may(data: dict) -> None:
        step = next(step for step in data["rules"]["turn"] if step["id"] == "answer")
        take_it = next(o for o in step["options"] if o["id"] == "take_it")
        take_it["when"] = "options.shields == 'may'"
        step["when"] = "options.shields == 'may' and count(hand) > 0"

    must = edited_copy(AMBUSH, tmp_path / "must", only_with_may)
    texts = _texts(must)
    assert "With the rule options chosen for this game, this step is never taken." in texts
    assert not any("Then go on to step 3." == text for text in texts)
    assert "Com as opções de regra escolhidas para este jogo, esta etapa nunca é feita." in _texts(must, "pt_BR")
