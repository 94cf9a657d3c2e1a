"""A lookup by a game's id imports that game's own package first (issue 17), which is sound because every in-tree
package registers only under its own id: what these tests check, with the run that imports no other game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from cardgen.engine import agents, core, mechanics
from cardgen.games import import_game_parts, load_game_packages
from cardgen.render import figures, layouts

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # tests/games is no package: the shared helpers are found from tests/

from cli_modules import run_cli_modules  # noqa: E402
GAMES = ROOT / "cardgen" / "games"
IN_TREE = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").is_file())


def _package_of(module: str) -> str | None:
    """The in-tree game package a module belongs to (None: outside ``cardgen.games``)."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["cardgen", "games"] and len(parts) > 2 else None


def test_every_in_tree_package_registers_only_under_its_own_id() -> None:
    load_game_packages()
    import_game_parts("widgets")  # (layouts register beside the widgets)
    import_game_parts("figures")
    registered: list[tuple[str, str, str | None]] = []
    registered += [("rules", key, _package_of(factory.__module__)) for key, factory in core._REGISTRY.items()]
    registered += [("solver", key, _package_of(solver.__module__)) for key, solver in core._SOLVERS.items()]
    registered += [("mechanic", key, _package_of(found.__module__)) for key, found in mechanics._MECHANICS.items()]
    registered += [("figures", key, _package_of(found.table.__module__)) for key, found in figures._FIGURES.items()]
    for key, folder in layouts._BUNDLED.items():
        inside = folder.resolve().relative_to(GAMES.resolve()).parts[0] if folder.resolve().is_relative_to(GAMES.resolve()) else None
        registered.append(("layouts", key, inside))
    # Every in-tree game is rules data now: its packages register solvers, mechanics, figures and layouts, no rules
    # module (the tests' toy registers one from outside cardgen.games, when its tests have run).
    assert {kind for kind, _, package in registered if package is not None} == {"solver", "mechanic", "figures", "layouts"}
    wrong = [
        (kind, key, package) for kind, key, package in registered
        if package is not None and key.replace("-", "_") != package and not key.replace("-", "_").startswith(f"{package}_")
    ]
    assert wrong == []
    assert set(core._CONTRACTS) == set(core._REGISTRY)
    assert {package for _, _, package in registered} >= set(IN_TREE)
    assert "keramikos-expectimax" in agents._AGENTS  # agents are listed by name, so every package is loaded for them


def _run(tmp_path: Path, *args: str) -> tuple[int, set[str]]:
    code, modules = run_cli_modules(tmp_path, *args)
    return code, set(modules)


def test_a_game_s_build_imports_no_other_game(tmp_path: Path) -> None:
    """Keramikos (rules data with its own widgets, layouts, figures and planner) and Ceratopsians (rules data naming
    a mechanic) are built with their rulebook figures, importing no other game package."""
    for game in ("keramikos", "ceratopsians"):
        out = tmp_path / game
        code, modules = _run(tmp_path, "build", str(ROOT / "specs" / game), "--out", str(out), "--quiet", "--paper", "a4", "--lang", "en")
        assert code == 0
        assert any(name.endswith("-turn.svg") for name in os.listdir(out / game)), "the engine's figures were drawn"
        own = game.replace("-", "_")
        assert {f"cardgen.games.{own}", f"cardgen.games.{own}.widgets", f"cardgen.games.{own}.figures"} <= modules
        others = sorted(name for name in modules if _package_of(name) not in (None, own))
        assert others == [], game


def test_a_mechanic_named_after_its_package_imports_that_package_alone(tmp_path: Path) -> None:
    """Ceramus registers the mechanic ``ceramus_mural``: its lookup imports ``cardgen.games.ceramus``, no other game."""
    script = textwrap.dedent(
        """
        import json, sys
        from cardgen.engine.mechanics import mechanic_declaration
        found = mechanic_declaration("ceramus_mural")
        print(json.dumps({"found": found is not None, "modules": sorted(m for m in sys.modules if m.startswith("cardgen.games."))}))
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, check=True)
    report = json.loads(result.stdout)
    assert report["found"]
    assert {_package_of(name) for name in report["modules"]} == {"ceramus"}, report["modules"]


def _renamed_copy(tmp_path: Path, spec: str, new_id: str, package: str | None) -> Path:
    import shutil

    folder = tmp_path / new_id
    shutil.copytree(ROOT / "specs" / spec, folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    assert f"\nid: {spec}\n" in text
    text = text.replace(f"\nid: {spec}\n", f"\nid: {new_id}\n" + (f"package: {package}\n" if package else ""), 1)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return folder


def test_a_renamed_copy_of_a_data_game_keeps_its_faces_by_naming_the_package(tmp_path: Path) -> None:
    """A variant copied under a new id draws the original's card faces when it names the original's package, and the
    generic faces when it does not (its own id has no package): `package:` is what carries the layouts over."""
    from cardgen.catalogue import validate_folder
    from cardgen.render.faces import face_set
    from cardgen.render.scene import scene_digest
    from cardgen.spec.load import load_spec

    def digests(folder: Path) -> dict[str, str]:
        loaded = load_spec(folder)
        assert loaded.spec is not None
        return {face.key: scene_digest(face.scene) for face in face_set(loaded, "en").faces}

    original = digests(ROOT / "specs" / "mausoleum-guardians")
    named = _renamed_copy(tmp_path, "mausoleum-guardians", "my-guardians", "mausoleum-guardians")
    assert [f.render() for f in validate_folder(named).findings if f.code == "CG215"] == []
    assert digests(named) == original
    assert digests(_renamed_copy(tmp_path, "mausoleum-guardians", "other-guardians", None)) != original


def test_a_package_that_is_not_installed_or_stands_beside_a_rules_module_is_refused(tmp_path: Path) -> None:
    from cardgen.catalogue import validate_folder

    missing = _renamed_copy(tmp_path, "keramikos", "my-keramikos", "keramikoss")
    found = [f for f in validate_folder(missing).findings if f.code == "CG215"]
    assert [(f.path, f.line) for f in found] == [("package", 4)] and "'keramikoss'" in found[0].message
    import shutil

    import engine.toy_rules  # noqa: F401  (registers the toy rules module, which the fixture names)

    toy = tmp_path / "toy"
    shutil.copytree(ROOT / "tests" / "fixtures" / "toy", toy)
    text = (toy / "game.yaml").read_text(encoding="utf-8")
    (toy / "game.yaml").write_text(text.replace("\nrules: toy\n", "\nrules: toy\npackage: keramikos\n", 1), encoding="utf-8")
    found = [f for f in validate_folder(toy).findings if f.code == "CG215"]
    assert len(found) == 1 and "beside rules module 'toy'" in found[0].message


def test_a_package_other_than_its_named_mechanic_s_is_refused(tmp_path: Path) -> None:
    """A data game using a named mechanic is drawn (and solved) by the mechanic's package: a `package:` naming another
    would be ignored without a word, so it is refused (CG215); naming the mechanic's own package is fine."""
    from cardgen.catalogue import validate_folder

    other = _renamed_copy(tmp_path, "ceratopsians", "my-ceratopsians", "keramikos")
    found = [f for f in validate_folder(other).findings if f.code == "CG215"]
    assert len(found) == 1 and "named mechanics of package 'ceratopsians'" in found[0].message, [f.render() for f in found]
    own = _renamed_copy(tmp_path / "own", "ceratopsians", "my-ceratopsians", "ceratopsians")
    assert [f.render() for f in validate_folder(own).findings if f.code == "CG215"] == []
