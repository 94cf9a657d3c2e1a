"""One fact, one place: every rule-bearing value of every shipped spec (and of the fixtures in
:data:`MUTATED_FIXTURES`) is obeyed or refused.

For each value a designer might edit (every number, every setup count, every card's copies, every
component count, the dice, the player range, and every other choice of each rule option the rules module
or the rules data declares), the test writes a copy of the spec with that one value
moved up and down by one, and demands one of two outcomes:

* the static validator refuses the copy (an error finding, no simulation needed), or
* the engine plays differently: the deal or the random playouts of a fixed set of seeds change.

A value that passes both (accepted, and the games come out the same) is stated in the spec but read
by nothing: editing it would change the rulebook and not the game, which is the family of bugs this
test exists to catch.
"""

from __future__ import annotations

import csv
import hashlib
import shutil
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import yaml

from cardgen.engine.agents import RandomAgent
from cardgen.engine.core import contract_for, make_game
from cardgen.engine.playout import play_game
from cardgen.findings import Severity
from cardgen.spec.load import load_spec
from cardgen.spec.models import Spec
from cardgen.catalogue import validate_folder

from .helpers import SHIPPED, SPECS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MUTATED_FIXTURES = ("lantern-fair",)
"""Test fixtures mutated too: their rules use constructs no shipped spec uses yet (a gift, a swap, majorities, end.stuck)."""
SUBJECTS = SHIPPED + MUTATED_FIXTURES

SEEDS = range(12)
Edit = Callable[[dict[str, Any], Path], None]


def behaviour(spec: Spec) -> str:
    """A digest of what the engine does with ``spec``: every deal and random playout of :data:`SEEDS`."""
    digest = hashlib.sha256()
    for players in range(spec.players.min, spec.players.max + 1):
        game = make_game(spec, players)
        for seed in SEEDS:
            digest.update(repr(game.new_initial_state(seed).fingerprint()).encode())
            result = play_game(game, [RandomAgent() for _ in range(players)], seed)
            digest.update(repr((players, seed, result.actions, result.scores, result.termination, result.error)).encode())
    return digest.hexdigest()


def _set(path: tuple[Any, ...], delta: int) -> Edit:
    def edit(data: dict[str, Any], folder: Path) -> None:
        node: Any = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = node[path[-1]] + delta

    return edit


def _set_option(name: str, choice: str) -> Edit:
    def edit(data: dict[str, Any], folder: Path) -> None:
        data.setdefault("options", {})[name] = choice

    return edit


def _set_csv_copies(sheet: str, card_id: str, delta: int) -> Edit:
    def edit(data: dict[str, Any], folder: Path) -> None:
        path = folder / sheet
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        fields = list(rows[0])
        for row in rows:
            if row["id"] == card_id:
                row["copies"] = str(int(row.get("copies") or 1) + delta)
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)

    return edit


def rule_bearing_values(spec_id: str) -> Iterator[tuple[str, Edit]]:
    """(name, edit) for every rule-bearing value of a shipped spec, each moved by +1 and by -1."""
    data = yaml.safe_load((copy_spec_source(spec_id) / "game.yaml").read_text(encoding="utf-8"))
    places: list[tuple[str, tuple[Any, ...]]] = []
    places += [(f"numbers.{name}", ("numbers", name)) for name in data.get("numbers", {})]
    places += [("players.min", ("players", "min")), ("players.max", ("players", "max"))]
    for s_index, setup in enumerate(data["setups"]):
        for part in ("deal", "display", "pieces"):
            places += [(f"setups[{s_index}].{part}.{key}", ("setups", s_index, part, key)) for key in setup.get(part, {})]
        for grid_name, grid in setup.get("grids", {}).items():
            places += [(f"setups[{s_index}].grids.{grid_name}.{side}", ("setups", s_index, "grids", grid_name, side)) for side in ("columns", "rows")]
    for c_index, component in enumerate(data.get("components", [])):
        places.append((f"components.{component['id']}.count", ("components", c_index, "count")))
    for d_index, dice in enumerate(data.get("dice", [])):
        places += [(f"dice.{dice['id']}.{key}", ("dice", d_index, key)) for key in ("count", "sides")]
    for d_index, deck in enumerate(data.get("decks", [])):
        for c_index, card in enumerate(deck.get("cards", [])):
            if "copies" not in card:
                card["copies"] = 1  # an unstated copies is 1; the edit below states it
            places.append((f"{deck['id']}/{card['id']}.copies", ("decks", d_index, "cards", c_index, "copies")))
    for name, path in places:
        for delta in (1, -1):
            yield f"{name}{'+' if delta > 0 else '-'}1", _with_default_copies(_set(path, delta), path)
    # A rules module declares its options in its contract; rules data (a mapping) under `rules.options`.
    if isinstance(data.get("rules"), str):
        contract = contract_for(data["rules"])
        declared = {name: (list(rule.choices), rule.default) for name, rule in (contract.options.items() if contract else [])}
    else:
        declared = {name: (option["choices"], option["default"]) for name, option in (data.get("rules") or {}).get("options", {}).items()}
    for name, (choices, default) in declared.items():
        current = data.get("options", {}).get(name, default)
        for choice in choices:
            if choice != current:
                yield f"options.{name}={choice}", _set_option(name, choice)
    for deck in data.get("decks", []):
        sheet = deck.get("cards_file")
        if sheet:
            with (copy_spec_source(spec_id) / sheet).open(encoding="utf-8", newline="") as handle:
                for row in csv.DictReader(handle):
                    for delta in (1, -1):
                        yield f"{deck['id']}/{row['id']}.copies{'+' if delta > 0 else '-'}1 ({sheet})", _set_csv_copies(sheet, row["id"], delta)


def _with_default_copies(edit: Edit, path: tuple[Any, ...]) -> Edit:
    """Give an unstated ``copies`` its default of 1 before editing it."""

    def wrapped(data: dict[str, Any], folder: Path) -> None:
        if path[-1] == "copies":
            card = data["decks"][path[1]]["cards"][path[3]]
            card.setdefault("copies", 1)
        edit(data, folder)

    return wrapped


def copy_spec_source(spec_id: str) -> Path:
    """The spec folder of ``spec_id``, shipped or a mutated fixture (read only)."""
    return FIXTURES / spec_id if spec_id in MUTATED_FIXTURES else SPECS / spec_id


def copy_spec(spec_id: str, tmp_path: Path) -> Path:
    """A fresh copy of the spec folder of ``spec_id`` inside ``tmp_path``."""
    target = tmp_path / spec_id
    shutil.copytree(copy_spec_source(spec_id), target)
    return target


CASES = [(spec_id, name, edit) for spec_id in SUBJECTS for name, edit in rule_bearing_values(spec_id)]


@pytest.fixture(scope="module")
def baselines() -> dict[str, str]:
    """The behaviour of every shipped spec as it is."""
    out = {}
    for spec_id in SUBJECTS:
        loaded = load_spec(copy_spec_source(spec_id))
        assert loaded.spec is not None
        out[spec_id] = behaviour(loaded.spec)
    return out


@pytest.mark.parametrize(("spec_id", "name", "edit"), CASES, ids=[f"{s}:{n}" for s, n, _ in CASES])
def test_each_rule_bearing_value_is_obeyed_or_refused(spec_id: str, name: str, edit: Edit, baselines: dict[str, str], tmp_path: Path) -> None:
    folder = copy_spec(spec_id, tmp_path)
    path = folder / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(data, folder)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = validate_folder(folder, kinds=("static",))
    if any(f.severity is Severity.ERROR for f in result.findings):
        return  # refused statically, with a finding
    assert result.loaded is not None and result.loaded.spec is not None
    assert behaviour(result.loaded.spec) != baselines[spec_id], (
        f"{spec_id}: {name} is accepted by the validator but changes nothing the engine does: "
        "a value that describes play must be read by the rules or refused"
    )


@pytest.mark.parametrize("spec_id", SUBJECTS)
def test_behaviour_digest_is_stable_and_ignores_what_is_not_play(spec_id: str, baselines: dict[str, str], tmp_path: Path) -> None:
    """The control: without it every edit could look 'obeyed'. A value that is not play (the minimum
    age) leaves the digest as it was, and the digest of the same spec is the same on every run."""
    folder = copy_spec(spec_id, tmp_path)
    path = folder / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["min_age"] = data["min_age"] + 1
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = validate_folder(folder, kinds=("static",))
    assert result.loaded is not None and result.loaded.spec is not None
    assert behaviour(result.loaded.spec) == baselines[spec_id]


def test_an_unread_value_would_be_caught(baselines: dict[str, str], tmp_path: Path) -> None:
    """The other control: a value the engine ignores and the validator accepts fails the test's assertion.
    The Ceratopsians engine never reads the skull colours it draws (they are art); moving one colour of a
    face to another entry leaves the behaviour as it was, so such a value could only be guarded statically."""
    folder = copy_spec("ceratopsians", tmp_path)
    path = folder / "game.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    face = data["decks"][0]["cards"][0]["faces"][0]["data"]
    face["colours"] = list(reversed(face["colours"]))
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    result = validate_folder(folder, kinds=("static",))
    assert result.loaded is not None and result.loaded.spec is not None
    assert behaviour(result.loaded.spec) == baselines["ceratopsians"]
