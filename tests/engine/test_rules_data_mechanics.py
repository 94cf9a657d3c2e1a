"""Named mechanics in rules data: found by name, checked at their file and line, merged into the contract,
carried in the state (cloned, fingerprinted, conserved), numbered with the interpreter's actions, said in the
rulebook, and a mechanic that raises is a bug in cardgen (exit 3).

Ceratopsians (specs/ceratopsians, mechanic ``ceratopsians``) is the game these use; a test mechanic
registered from this module (outside cardgen's tree) stands for a game installed elsewhere.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from cardgen.catalogue import validate_folder
from cardgen.engine.core import make_game, spec_contract
from cardgen.engine.interpreter import DataGame, DataState
from cardgen.engine.mechanics import Mechanic, mechanic_declaration, register_mechanic, registered_mechanics
from cardgen.games.ceratopsians.mechanic import Boneyard
from cardgen.spec.load import load_spec

SPEC = Path(__file__).resolve().parents[2] / "specs" / "ceratopsians"


def _copy(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    folder = tmp_path / "ceratopsians"
    shutil.copytree(SPEC, folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder


def _line(folder: Path, needle: str) -> int:
    return next(i for i, line in enumerate((folder / "game.yaml").read_text(encoding="utf-8").splitlines(), start=1) if needle in line)


def _cg175(folder: Path) -> list[Any]:
    return [f for f in validate_folder(folder, kinds=("static",)).findings if f.code == "CG175"]


def test_the_shipped_game_has_no_mechanic_finding() -> None:
    assert "ceratopsians" in registered_mechanics()
    assert _cg175(SPEC) == []


def test_an_unknown_mechanic_is_cg175_at_its_line(tmp_path: Path) -> None:
    folder = _copy(tmp_path, ("mechanics: [ceratopsians]", "mechanics: [ceratopsianz]"))
    found = _cg175(folder)
    listed = [f for f in found if "no mechanic 'ceratopsianz' is registered" in f.message]
    assert listed and listed[0].line == _line(folder, "mechanics: [ceratopsianz]")
    assert "known:" in listed[0].message and "ceratopsians" in listed[0].message
    # every use now names a mechanic the rules do not list
    assert any("is not listed under rules.mechanics" in f.message and f.line == _line(folder, "effect: slide") for f in found)


def test_a_use_the_mechanic_does_not_declare_is_cg175_at_its_line(tmp_path: Path) -> None:
    folder = _copy(tmp_path, ("effect: slide}", "effect: slip}"))
    found = _cg175(folder)
    assert len(found) == 1 and "has no effect 'slip' (its effects: slide, refill)" in found[0].message
    assert found[0].line == _line(folder, "effect: slip")


def test_a_missing_zone_the_mechanic_needs_is_cg175(tmp_path: Path) -> None:
    folder = _copy(tmp_path, ("    collection:\n      per_seat: true", "    collection:\n      per_seat: false"))
    found = _cg175(folder)
    assert any("needs zone 'collection' per seat" in f.message for f in found)


def test_the_mechanics_contract_is_merged_into_the_derived_one() -> None:
    loaded = load_spec(SPEC)
    assert loaded.spec is not None
    contract = spec_contract(loaded.spec)
    assert contract is not None
    skulls = contract.decks["skulls"]
    assert {"part", "cell", "top", "right", "bottom", "left"} <= set(skulls.fields)
    assert "part" not in skulls.art_fields and "colours" in skulls.art_fields  # drawn only, never scored
    assert skulls.copies == "one"
    assert contract.numbers["pair_points"].min == 1 and contract.numbers["pair_points"].max == 10  # the mechanic's range
    assert "drafts_per_player" in contract.numbers  # read by the rules data's end
    assert contract.setup.display["skulls"] == (3, 3) and contract.players == (2, 2)
    declaration = mechanic_declaration("ceratopsians")
    assert declaration is not None and declaration.package == "ceratopsians"


def _game() -> DataGame:
    loaded = load_spec(SPEC)
    assert loaded.spec is not None
    game = make_game(loaded.spec, 2)
    assert isinstance(game, DataGame)
    return game


def test_the_slice_is_cloned_fingerprinted_and_conserved() -> None:
    game = _game()
    state = game.new_initial_state(3)
    index = game.mechanics[0].index
    copy = state.clone()
    assert copy.fingerprint() == state.fingerprint()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.m[index][1] != state.m[index][1] or copy.m[index][0] != state.m[index][0]
    assert copy.fingerprint() != state.fingerprint() and not copy.conservation_errors()
    # a card in the boneyard's slice counts with the zones': one also left in the deck is in play twice
    broken = state.clone()
    broken.z[game.slot("deck")].append(broken.m[index][1][0] + game.mechanics[0].first)  # type: ignore[attr-defined]
    assert any("2 in play" in error for error in broken.conservation_errors())
    broken = state.clone()
    broken.m[index][1] = [-1, -1, -1]  # three cards lost
    assert len(broken.conservation_errors()) == 3


def test_actions_are_numbered_inside_the_interpreters_numbering() -> None:
    game = _game()
    state = game.new_initial_state(0)
    option = game.options[0]
    assert option.mechanic is not None
    assert state.legal_actions() == [option.index * game.width + slot for slot in range(3)]
    assert game.width >= 3 and "from slot 1, in the middle" in state.action_to_string(option.index * game.width + 1)


BROKEN_DISTRIBUTION = '''
from dataclasses import replace

from cardgen.engine.mechanics import register_mechanic
from cardgen.games.ceratopsians.mechanic import Boneyard


class Broken(Boneyard):
    """The Ceratopsians mechanic under another name, whose draft raises: a bug in a mechanic."""

    declaration = replace(Boneyard.declaration, name="broken_boneyard", package="broken-boneyard")

    def act(self, name):
        def draft(s, seat, slot):
            raise RuntimeError("a bug in the mechanic")
        return draft


def register():
    register_mechanic(Broken)
'''


def test_a_mechanic_installed_outside_cardgen_is_found_and_a_raise_is_exit_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A distribution registers a mechanic through the ``cardgen.games`` entry point; a spec uses it by name;
    the mechanic raises in play, which `cardgen check` reports as a bug in cardgen (exit 3), not as a finding."""
    import importlib
    import os
    import subprocess
    import sys

    import cardgen.engine.mechanics as mechanics
    import cardgen.games as games

    monkeypatch.setattr(mechanics, "_MECHANICS", dict(mechanics._MECHANICS))  # the test's registration ends with it
    site = tmp_path / "site"
    site.mkdir()
    (site / "broken_boneyard_game.py").write_text(BROKEN_DISTRIBUTION, encoding="utf-8")
    info = site / "broken_boneyard_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken_boneyard_game\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[cardgen.games]\nbroken-boneyard = broken_boneyard_game:register\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    monkeypatch.setattr(games, "_loaded", False)
    monkeypatch.setattr(games, "_entry_points_loaded", False)
    monkeypatch.setattr(games, "_tried", set())
    monkeypatch.setattr(games, "_errors", {})
    assert games.package_errors() == {} and "broken_boneyard" in registered_mechanics()

    folder = _copy(tmp_path, ("mechanics: [ceratopsians]", "mechanics: [broken_boneyard]"))
    text = (folder / "game.yaml").read_text(encoding="utf-8").replace("name: ceratopsians,", "name: broken_boneyard,")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    assert _cg175(folder) == []
    loaded = load_spec(folder)
    assert loaded.spec is not None
    state = make_game(loaded.spec, 2).new_initial_state(0)
    assert isinstance(state, DataState) and len(state.legal_actions()) == 3
    with pytest.raises(RuntimeError, match="a bug in the mechanic"):
        state.apply_action(state.legal_actions()[0])
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(site)])}
    run = subprocess.run(
        [sys.executable, "-m", "cardgen", "check", str(folder), "--playouts", "4", "--skill-games", "0", "--jobs", "1"],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600,
    )
    assert run.returncode == 3, run.stdout + run.stderr
    assert "a bug in the mechanic" in run.stderr


def test_registering_two_mechanics_under_one_name_is_refused() -> None:
    class _Other(Mechanic):
        declaration = Boneyard.declaration

        def start(self) -> Any:
            return None

        def clone(self, part: Any) -> Any:
            return None

        def fingerprint(self, part: Any) -> object:
            return None

    with pytest.raises(ValueError, match="registered twice"):
        register_mechanic(_Other)


def test_the_rulebook_says_the_mechanics_own_phrases_in_both_languages() -> None:
    from cardgen.rulebook.i18n import translations
    from cardgen.rulebook.rules_summary import rules_summary

    loaded = load_spec(SPEC)
    assert loaded.spec is not None
    english = rules_summary(loaded.spec, "en", translations("en"))
    portuguese = rules_summary(loaded.spec, "pt_BR", translations("pt_BR"))
    assert english is not None and portuguese is not None
    assert "Deal the top 3 cards of the deck" in " ".join(english["setup"])
    assert "Coloque as 3 cartas de cima do baralho" in " ".join(portuguese["setup"])
    draft = english["turn"][0]["options"][0]["text"]
    assert draft.startswith("Take the card from one slot of the boneyard") and "slide towards your rival" in draft
    assert portuguese["turn"][0]["options"][0]["text"].startswith("Pegue a carta de um espaço do ossário")
    assert any("scores 1, and a display with every part scores 3 more" in line for line in english["end"])
    assert not any("Rule" in line and "mechanic" in line for line in english["setup"] + english["end"])  # no fallback


def test_an_end_condition_of_a_mechanic_ends_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``end.mechanic`` asks a mechanic whether the game is over; a test mechanic ends it when the deck runs out."""
    from dataclasses import replace

    import cardgen.engine.mechanics as mechanics
    from cardgen.engine.mechanics import ConditionFunction
    from cardgen.rulebook.i18n import translations
    from cardgen.rulebook.rules_summary import rules_summary

    class ShortBoneyard(Boneyard):
        declaration = replace(Boneyard.declaration, name="short_boneyard", conditions={"deck_empty": "the deck is empty"})

        def condition(self, name: str) -> ConditionFunction:
            assert name == "deck_empty"
            deck = self.deck
            return lambda s: not s.z[deck]

    monkeypatch.setattr(mechanics, "_MECHANICS", dict(mechanics._MECHANICS))
    register_mechanic(ShortBoneyard)
    folder = _copy(
        tmp_path,
        ("mechanics: [ceratopsians]", "mechanics: [short_boneyard]"),
        ('    table: "turn > players * numbers.drafts_per_player"', "    mechanic: {name: short_boneyard, condition: deck_empty}"),
    )
    text = (folder / "game.yaml").read_text(encoding="utf-8").replace("name: ceratopsians,", "name: short_boneyard,")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    assert _cg175(folder) == []
    loaded = load_spec(folder)
    assert loaded.spec is not None
    game = make_game(loaded.spec, 2)
    state = game.new_initial_state(1)
    plies = 0
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
        plies += 1
    assert plies == 18 - 3  # every refill empties the deck by one; the last one ends the game
    summary = rules_summary(loaded.spec, "en", translations("en"))
    assert summary is not None and "The game ends as soon as the deck is empty." in summary["end"]
    text = (folder / "game.yaml").read_text(encoding="utf-8").replace("condition: deck_empty", "condition: deck_full")
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    assert [f.message for f in _cg175(folder)] == ["mechanic 'short_boneyard' has no condition 'deck_full' (its conditions: deck_empty)"]
