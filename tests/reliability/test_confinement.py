"""Confinement: nothing is read outside the spec folder and cardgen's own files, by any route.

Routes covered, each with links (files and folders) leading out, and the cases
that must keep working (links that stay inside):

* ``game.yaml`` itself (a link out; a FIFO that would block the reader);
* layouts: a ``layout:`` naming a path out, a link out, a ``layouts/`` folder
  that is a link out, the spec's own ``layouts/<deck>.yaml`` as a link out;
* rulebook templates: the main template, ``{% include %}``, ``{% import %}``,
  ``{% extends %}`` of a link out, a ``templates/rulebook`` folder that is a
  link out;
* print-shop profiles named by a path;
* what a template may compute (tests/fixtures/hostile/templates/).

Card sheets (``cards_file``) are covered in test_hostile_inputs.py. Each
outside file holds a marker; the tests check the marker reaches no finding,
no output file and no cache entry.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardgen.findings import Finding, InputError
from cardgen.rulebook.build import RulebookError, make_rulebook
from cardgen.spec.load import load_spec
from cardgen.catalogue import validate_folder

from .conftest import HOSTILE, MINIMAL, ROOT, copy_spec, one_line
from .test_build_safety import run_cli

SECRET = "SECRET-MARKER-7f3a"
"""Written into every outside file; it must never be read back anywhere."""
OUTSIDE_LAYOUT = f'# {SECRET}\nfront:\n  background: "#123456"\n  elements: []\n'
TEMPLATE_CORPUS = sorted((HOSTILE / "templates").glob("*.j2"))


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the spec, holding files a hostile spec points at."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.txt").write_text(f"{SECRET}\n", encoding="utf-8")
    (folder / "secret.yaml").write_text(OUTSIDE_LAYOUT, encoding="utf-8")
    (folder / "shapes.yaml").write_text(OUTSIDE_LAYOUT, encoding="utf-8")
    (folder / "game.yaml").write_text(f"{SECRET}_key: 1\nanother_{SECRET}: 2\n", encoding="utf-8")
    (folder / "rulebook.xhtml.j2").write_text(f"<rulebook><p>{SECRET}</p></rulebook>\n", encoding="utf-8")
    return folder


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    return copy_spec(MINIMAL, tmp_path / "spec")


def everything_written(*roots: Path) -> str:
    """The text of every file under ``roots`` (binary files decoded loosely), to look for the marker."""
    texts = []
    for root in roots:
        for path in root.rglob("*") if root.exists() else []:
            if path.is_file() and not path.is_symlink():
                texts.append(path.read_bytes().decode("latin-1"))
    return "\n".join(texts)


def with_layout(folder: Path, layout: str) -> Path:
    """Give the spec's first deck (shapes) an explicit ``layout:``."""
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    (folder / "game.yaml").write_text(text.replace("    size: poker\n", f"    size: poker\n    layout: {layout}\n", 1), encoding="utf-8")
    return folder


def findings(folder: Path) -> list[Finding]:
    return list(validate_folder(folder, kinds=("static", "render")).findings)


# --- game.yaml ---------------------------------------------------------------------


def test_a_game_yaml_linking_outside_is_refused_unread(tmp_path: Path, outside: Path) -> None:
    folder = tmp_path / "linked"
    folder.mkdir()
    (folder / "game.yaml").symlink_to(outside / "game.yaml")
    with pytest.raises(InputError, match="outside the spec folder") as caught:
        load_spec(folder)
    assert SECRET not in caught.value.render()
    for command in (["validate", str(folder)], ["build", str(folder), "--out", str(tmp_path / "out")]):
        code, stdout, stderr = run_cli(command)
        assert code == 2, (command, stdout, stderr)
        assert SECRET not in stdout + stderr
        line = (stdout + stderr).strip().splitlines()[0]  # (validate lists it as a CG001 finding; build prints it to stderr)
        assert line.startswith(str(folder / "game.yaml")) and "outside the spec folder" in line
    assert SECRET not in everything_written(tmp_path / "out")


def test_a_game_yaml_linking_inside_the_folder_still_loads(tmp_path: Path) -> None:
    folder = tmp_path / "spec"
    (folder / "versions").mkdir(parents=True)
    (folder / "versions" / "v1.yaml").write_text((MINIMAL / "game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "game.yaml").symlink_to(Path("versions") / "v1.yaml")
    loaded = load_spec(folder)
    assert loaded.spec is not None and loaded.spec.id == "minimal"


def test_a_game_yaml_that_is_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    folder = tmp_path / "fifo"
    folder.mkdir()
    os.mkfifo(folder / "game.yaml")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "cardgen", "validate", str(folder)], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and one_line(lines[0]) and "game.yaml" in lines[0]
    script = "import sys; from pathlib import Path; from cardgen.spec.load import load_spec\n" "load_spec(Path(sys.argv[1]))"
    done = subprocess.run([sys.executable, "-c", script, str(folder)], capture_output=True, text=True, timeout=120, env=env)
    assert "InputError" in done.stderr and "not a regular file" in done.stderr  # the loader itself refuses it, unopened


# --- layouts -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../outside/secret.yaml", "{outside}/secret.yaml", "../outside/secret"])
def test_a_layout_naming_a_path_outside_is_a_finding(spec: Path, outside: Path, name: str) -> None:
    """Before: the bundled (or generic) layout was used instead, silently."""
    with_layout(spec, name.format(outside=outside))
    found = [f for f in findings(spec) if f.code == "CG010"]
    assert len(found) == 1, [f.render() for f in findings(spec)]
    assert found[0].path == "decks[0].layout" and found[0].line > 0 and found[0].file.endswith("game.yaml")
    assert "outside the spec folder" in found[0].message and SECRET not in found[0].render()


def test_a_layout_link_leading_outside_is_a_finding(spec: Path, outside: Path) -> None:
    (spec / "mine.yaml").symlink_to(outside / "secret.yaml")
    with_layout(spec, "mine.yaml")
    found = [f.render() for f in findings(spec) if f.code == "CG010"]
    assert len(found) == 1 and "decks[0].layout" in found[0] and SECRET not in found[0]


def test_a_layouts_folder_linking_outside_is_not_read(spec: Path, outside: Path, tmp_path: Path) -> None:
    """Before: ``layout: secret`` was looked up inside ``layouts/``, confined to the link's target, and read."""
    (spec / "layouts").symlink_to(outside, target_is_directory=True)
    with_layout(spec, "secret")
    assert [f.path for f in findings(spec) if f.code == "CG010"] == ["decks[0].layout"]
    code, stdout, stderr = run_cli(["build", str(spec), "--out", str(tmp_path / "out"), "--paper", "a4", "--lang", "en"])
    assert code == 1 and "CG010" in stdout, (stdout, stderr)
    assert not (tmp_path / "out" / "minimal").exists()
    assert "#123456" not in everything_written(tmp_path / "out") and SECRET not in everything_written(tmp_path / "out")


def test_the_spec_own_layout_linking_outside_is_a_finding(spec: Path, outside: Path) -> None:
    (spec / "layouts").mkdir()
    (spec / "layouts" / "shapes.yaml").symlink_to(outside / "shapes.yaml")
    found = [f for f in findings(spec) if f.code == "CG010"]
    assert len(found) == 1 and "layouts/shapes.yaml" in found[0].render() and SECRET not in found[0].render()


def test_a_layout_link_staying_inside_is_used(spec: Path) -> None:
    (spec / "layouts").mkdir()
    (spec / "art").mkdir()
    (spec / "art" / "shapes-layout.yaml").write_text('front:\n  background: "#654321"\n  elements: []\n', encoding="utf-8")
    (spec / "layouts" / "shapes.yaml").symlink_to(Path("..") / "art" / "shapes-layout.yaml")
    from cardgen.render.faces import face_set

    loaded = load_spec(spec)
    assert loaded.spec is not None and not [f for f in findings(spec) if f.code in ("CG010", "CG207")]
    assert face_set(loaded).layouts["shapes"].layout.front.background == "#654321"


# --- rulebook templates ------------------------------------------------------------


def _own_templates(spec: Path) -> Path:
    folder = spec / "templates" / "rulebook"
    folder.mkdir(parents=True)
    return folder


def _rulebook_error(spec: Path) -> str:
    loaded = load_spec(spec)
    assert loaded.spec is not None
    with pytest.raises(RulebookError) as caught:
        make_rulebook(loaded.spec, "en", spec)
    return str(caught.value)


@pytest.mark.parametrize(
    "main",
    [
        '<rulebook><p>{% include "secret.j2" %}</p></rulebook>',
        '{% import "secret.j2" as s %}<rulebook><p>x</p></rulebook>',
        '{% from "secret.j2" import nothing %}<rulebook><p>x</p></rulebook>',
        '{% extends "secret.j2" %}',
        '<rulebook><p>{% include ["missing.j2", "secret.j2"] %}</p></rulebook>',
    ],
)
def test_a_template_reaching_a_link_outside_is_refused(spec: Path, outside: Path, main: str) -> None:
    """Before: Jinja's loader followed the link and put the outside file into the rulebook."""
    templates = _own_templates(spec)
    (templates / "secret.j2").symlink_to(outside / "secret.txt")
    (templates / "rulebook.xhtml.j2").write_text(main, encoding="utf-8")
    message = _rulebook_error(spec)
    assert "TemplateOutsideError" in message and "secret.j2" in message and SECRET not in message


def test_a_main_template_linking_outside_is_refused(spec: Path, outside: Path) -> None:
    (_own_templates(spec) / "rulebook.xhtml.j2").symlink_to(outside / "rulebook.xhtml.j2")
    message = _rulebook_error(spec)
    assert "TemplateOutsideError" in message and SECRET not in message


def test_a_template_folder_linking_outside_is_refused(spec: Path, outside: Path) -> None:
    (spec / "templates").mkdir()
    (spec / "templates" / "rulebook").symlink_to(outside, target_is_directory=True)
    message = _rulebook_error(spec)
    assert "TemplateOutsideError" in message and SECRET not in message


def test_a_template_link_to_etc_passwd_publishes_nothing(spec: Path, tmp_path: Path) -> None:
    """The issue's case, end to end: a finding, exit 1, no rulebook, no cache entry holding the file."""
    passwd = Path("/etc/passwd")
    if not passwd.is_file():
        pytest.skip("no /etc/passwd here")
    first_line = passwd.read_text(encoding="utf-8", errors="replace").splitlines()[0]
    templates = _own_templates(spec)
    (templates / "passwd.j2").symlink_to(passwd)
    main = (ROOT / "templates" / "rulebook" / "rulebook.xhtml.j2").read_text(encoding="utf-8")
    (templates / "rulebook.xhtml.j2").write_text(main.replace("<rulebook ", '{% include "passwd.j2" %}<rulebook ', 1), encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(["build", str(spec), "--out", str(out), "--paper", "a4", "--lang", "en"])
    assert code == 1, (stdout, stderr)
    assert "CG310" in stdout and "TemplateOutsideError" in stdout and "Traceback" not in stdout + stderr
    assert not (out / "minimal").exists()
    assert first_line not in everything_written(out)


def test_a_template_link_staying_inside_is_used(spec: Path) -> None:
    templates = _own_templates(spec)
    (spec / "parts").mkdir()
    (spec / "parts" / "note.j2").write_text("<p>A note kept in another folder of the spec.</p>\n", encoding="utf-8")
    (templates / "note.j2").symlink_to(Path("..") / ".." / "parts" / "note.j2")
    main = (ROOT / "templates" / "rulebook" / "rulebook.xhtml.j2").read_text(encoding="utf-8")
    (templates / "rulebook.xhtml.j2").write_text(main.replace('<p class="title">', '{% include "note.j2" %}<p class="title">', 1), encoding="utf-8")
    loaded = load_spec(spec)
    assert loaded.spec is not None
    assert "A note kept in another folder of the spec." in make_rulebook(loaded.spec, "en", spec).markdown


# --- what a template may compute ---------------------------------------------------


def test_the_template_corpus_is_there() -> None:
    assert len(TEMPLATE_CORPUS) >= 20


@pytest.mark.parametrize("template", TEMPLATE_CORPUS, ids=[p.stem for p in TEMPLATE_CORPUS])
def test_hostile_templates_end_in_a_clean_error(spec: Path, template: Path) -> None:
    """Each asks for unbounded work, text or memory; each is stopped by a bound, with the bound named."""
    (_own_templates(spec) / "rulebook.xhtml.j2").write_text(template.read_text(encoding="utf-8"), encoding="utf-8")
    message = _rulebook_error(spec)
    if template.stem == "lipsum":
        assert "'lipsum' is undefined" in message  # not offered to templates at all
    else:
        assert "TemplateBudgetError" in message, message


def test_a_template_bomb_in_a_build_is_a_finding_and_publishes_nothing(spec: Path, tmp_path: Path) -> None:
    (_own_templates(spec) / "rulebook.xhtml.j2").write_text((HOSTILE / "templates" / "nested-ranges.j2").read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, stderr = run_cli(["build", str(spec), "--out", str(out), "--paper", "a4", "--lang", "en"])
    assert code == 1, (stdout, stderr)
    assert "CG310" in stdout and "TemplateBudgetError" in stdout and "Traceback" not in stdout + stderr
    assert not (out / "minimal").exists()


def test_a_large_honest_template_stays_within_the_bounds(spec: Path) -> None:
    """The bounds leave room: a template writing a few thousand sections of text still renders."""
    main = (ROOT / "templates" / "rulebook" / "rulebook.xhtml.j2").read_text(encoding="utf-8")
    extra = "{% for i in range(3000) %}<p>Section {{ i }}: {{ 'words ' * 20 }}{{ game.title ~ '!' }}</p>{% endfor %}"
    (_own_templates(spec) / "rulebook.xhtml.j2").write_text(main.replace("</rulebook>", extra + "</rulebook>", 1), encoding="utf-8")
    loaded = load_spec(spec)
    assert loaded.spec is not None
    start = time.process_time()
    markdown = make_rulebook(loaded.spec, "en", spec).markdown
    assert "Section 2999:" in markdown
    print(f"a 3000-section template rendered in {time.process_time() - start:.2f} s of CPU")


# --- print-shop profiles -------------------------------------------------------------


@pytest.mark.parametrize("name", ["../../pyproject", "/etc/passwd", "..", "makeplayingcards/../gamecrafter"])
def test_a_profile_named_by_a_path_is_refused(name: str) -> None:
    from cardgen.export.profiles import load_profile

    with pytest.raises(InputError, match="is not a profile name"):
        load_profile(name)


def test_memory_is_bounded_where_the_checks_do_not_foresee(tmp_path: Path) -> None:
    """The backstop: an allocation no check anticipated (here, a filter added for the test) ends as a budget error."""
    resource = pytest.importorskip("resource")
    from cardgen.rulebook import bounded
    from cardgen.rulebook.environment import make_environment

    if not hasattr(resource, "RLIMIT_AS") or bounded._address_space() is None:
        pytest.skip("this system cannot limit the address space")
    before = resource.getrlimit(resource.RLIMIT_AS)
    env = make_environment("en")
    env.filters["hog"] = lambda value: len(bytearray(bounded.MAX_RENDER_MEMORY + (512 << 20)))
    template = env.from_string("<rulebook>{{ x|hog }}</rulebook>")  # (a variable: not folded at compile time)
    with pytest.raises(bounded.TemplateBudgetError, match="MiB of memory"):
        bounded.render_bounded(lambda: template.render(x=1), env)
    assert resource.getrlimit(resource.RLIMIT_AS) == before  # lifted again
    assert len(bytearray(64 << 20)) == 64 << 20


def test_link_loops_are_clean_errors(spec: Path, tmp_path: Path) -> None:
    """Before: a layout or template that is a link loop ended in exit 3 (pathlib raises on a loop)."""
    (spec / "layouts").mkdir()
    (spec / "layouts" / "a.yaml").symlink_to("b.yaml")
    (spec / "layouts" / "b.yaml").symlink_to("a.yaml")
    (spec / "layouts" / "shapes.yaml").symlink_to("shapes.yaml")
    with_layout(spec, "a")
    (_own_templates(spec) / "rulebook.xhtml.j2").symlink_to("rulebook.xhtml.j2")
    code, stdout, stderr = run_cli(["validate", str(spec), "--no-sim"])
    assert code == 1, (stdout, stderr)
    assert "internal error" not in stderr and "CG310" in stdout and "cannot be read" in stdout and "CG207" in stdout
    looped = tmp_path / "looped"
    looped.mkdir()
    (looped / "game.yaml").symlink_to("game.yaml")
    with pytest.raises(InputError):
        load_spec(looped)
