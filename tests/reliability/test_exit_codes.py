"""No input a user can construct makes a command exit 3 ("internal error").

Each case below is a user's or the environment's mistake: the command exits 2
(or 1 for findings in a spec) with one line on stderr naming the file, shows no
traceback, and leaves nothing half-written. The cases are built from the
minimal fixture, from the hostile files made here, and from faults the
operating system reports (a full or read-only disk, a folder on another file
system), which are injected where a test cannot make the real thing.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
from pathlib import Path
from typing import Any
from unittest import mock

import pytest

import cardgen.artefacts as artefacts_module
import cardgen.build as build_module
import cardgen.rulebook.checks as checks
import cardgen.rulebook.i18n as i18n
from cardgen.artefacts import BuildContext

from .conftest import MINIMAL, copy_spec, one_line
from .test_build_safety import leftovers, run_cli


class _Timeout(Exception):
    pass


def _alarm(_signum: int, _frame: Any) -> None:
    raise _Timeout


def run_cli_within(args: list[str], seconds: int) -> tuple[int, str, str]:
    """:func:`run_cli`, failing the test instead of hanging when the command does not return in time."""
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        return run_cli(args)
    except _Timeout:
        pytest.fail(f"`cardgen {' '.join(args)}` did not return within {seconds} s")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.strip()]


def assert_one_line_exit_2(result: tuple[int, str, str], names: str) -> str:
    """Exit 2, no traceback, and an error line that names ``names``; returns that line."""
    code, stdout, stderr = result
    assert code == 2, (code, stdout, stderr)
    assert "Traceback" not in stdout + stderr and "internal error" not in stdout + stderr
    lines = error_lines(stderr)
    assert lines and all(one_line(line) for line in lines), stderr
    assert names in lines[0], lines
    return lines[0]


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    return copy_spec(MINIMAL, tmp_path / "spec")


def _list_producer(context: BuildContext) -> list[Path]:
    """A fast stand-in for the real producers: one file per deck, one in a subfolder."""
    spec = context.loaded.spec
    assert spec is not None
    (context.staging / "decks").mkdir()
    written = []
    for deck in spec.decks:
        path = context.staging / "decks" / f"{deck.id}.txt"
        path.write_text(" ".join(c.id for c in deck.cards), encoding="utf-8")
        written.append(path)
    return written


@pytest.fixture
def quick_producers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(artefacts_module, "_PRODUCERS", {"decks": _list_producer})


# --- the output side ------------------------------------------------------------------


def test_out_naming_a_file_is_a_usage_error(spec: Path, tmp_path: Path) -> None:
    target = tmp_path / "a-file"
    target.write_text("mine\n", encoding="utf-8")
    for command in (["build", str(spec)], ["rulebook", str(spec)], ["report", str(spec)], ["export", "tts", str(spec)]):
        assert_one_line_exit_2(run_cli([*command, "--out", str(target)]), str(target))
    assert target.read_text(encoding="utf-8") == "mine\n"


def test_out_a_dangling_symlink_is_a_usage_error(spec: Path, tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "nowhere")
    line = assert_one_line_exit_2(run_cli(["build", str(spec), "--out", str(link)]), str(link))
    assert "symbolic link" in line
    assert not (tmp_path / "nowhere").exists()


def test_out_the_file_system_root_is_refused() -> None:
    # A missing game as well: before the check existed this printed "no game", and nothing is ever written to /.
    line = assert_one_line_exit_2(run_cli(["build", "no-such-game-xyz", "--out", "/"]), "/")
    assert "root of the file system" in line


def test_game_folder_being_a_file_is_exit_2(spec: Path, tmp_path: Path, quick_producers: None) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "minimal").write_text("not a folder\n", encoding="utf-8")
    assert_one_line_exit_2(run_cli(["build", str(spec), "--out", str(out)]), str(out / "minimal"))
    assert (out / "minimal").read_text(encoding="utf-8") == "not a folder\n"
    assert leftovers(out) == []


@pytest.mark.parametrize(
    ("number", "reason"), [(errno.ENOSPC, "No space left on device"), (errno.EROFS, "Read-only file system"), (errno.EACCES, "Permission denied")]
)
def test_a_full_or_read_only_disk_is_exit_2(spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, number: int, reason: str) -> None:
    """A producer's write fails as the operating system fails it (tests run as root, so a real read-only folder would not stop them)."""
    out = tmp_path / "out"

    def refused_write(context: BuildContext) -> list[Path]:
        _list_producer(context)
        raise OSError(number, reason, str(context.staging / "decks" / "more.txt"))

    monkeypatch.setattr(artefacts_module, "_PRODUCERS", {"decks": refused_write})
    line = assert_one_line_exit_2(run_cli(["build", str(spec), "--out", str(out)]), "more.txt")
    assert reason in line
    assert leftovers(out) == [] and not (out / "minimal").exists()


def test_a_disk_failing_while_publishing_is_exit_2(spec: Path, tmp_path: Path, quick_producers: None) -> None:
    out = tmp_path / "out"

    def full(staging: Path, target: Path) -> list[Path]:
        raise OSError(errno.ENOSPC, "No space left on device", str(target / "decks"))

    with mock.patch.object(build_module, "publish", full):
        line = assert_one_line_exit_2(run_cli(["build", str(spec), "--out", str(out)]), str(out / "minimal" / "decks"))
    assert "No space left on device" in line
    assert leftovers(out) == []


def test_game_folder_on_another_file_system_is_published_by_copy(spec: Path, tmp_path: Path, quick_producers: None) -> None:
    """``os.replace`` fails with EXDEV across file systems, every time: the build copies instead."""
    out = tmp_path / "out"
    elsewhere = out / "minimal"
    real_replace = os.replace
    refused: list[str] = []

    def replace(source: Any, destination: Any, *args: Any, **kwargs: Any) -> None:
        if ".staging-" in str(source) and str(destination).startswith(str(elsewhere)):
            refused.append(str(destination))
            raise OSError(errno.EXDEV, "Invalid cross-device link", str(source), None, str(destination))
        real_replace(source, destination, *args, **kwargs)

    with mock.patch("os.replace", replace):
        code, stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
    assert code == 0, (stdout, stderr)
    assert refused, "the test did not reach the publishing step"
    published = sorted(p.name for p in (elsewhere / "decks").iterdir())
    assert published == ["bones.txt", "pots.txt", "shapes.txt", "sites.txt"]
    assert leftovers(out) == []


def test_a_real_second_file_system_when_there_is_one(spec: Path, tmp_path: Path, quick_producers: None) -> None:
    """The same with a real symbolic link to /dev/shm, when it is another file system than the temporary folder."""
    shm = Path("/dev/shm")
    if not shm.is_dir() or shm.stat().st_dev == tmp_path.stat().st_dev:
        pytest.skip("no second file system to link to (the EXDEV case is covered by the test above)")
    target = Path(os.environ.get("CARDGEN_TEST_SHM", shm)) / f"cardgen-test-{os.getpid()}-{tmp_path.name}"
    target.mkdir()
    try:
        out = tmp_path / "out"
        out.mkdir()
        (out / "minimal").symlink_to(target)
        code, stdout, stderr = run_cli(["build", str(spec), "--out", str(out)])
        assert code == 0, (stdout, stderr)
        assert (target / "decks" / "shapes.txt").is_file()
    finally:
        shutil.rmtree(target, ignore_errors=True)


# --- options ------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["--lang", "--card-lang"])
def test_a_locale_the_game_does_not_declare_is_exit_2(spec: Path, tmp_path: Path, option: str) -> None:
    out = tmp_path / "out"
    line = assert_one_line_exit_2(run_cli(["build", str(spec), "--out", str(out), "--paper", "a4", option, "xx"]), "game.yaml")
    assert f"{option} xx" in line and "en, pt_BR" in line
    assert not (out / "minimal").exists() and leftovers(out) == []


@pytest.mark.parametrize(
    "args",
    [["build", "--paper", "a5"], ["validate", "--format", "xml"], ["check", "ceramus", "--players", "many"], ["validate", "--no-such-option"], ["no-such-command"]],
)
def test_usage_errors_are_one_line(args: list[str]) -> None:
    code, stdout, stderr = run_cli(args)
    assert code == 2, (stdout, stderr)
    lines = error_lines(stderr)
    assert len(lines) == 1 and "error" in lines[0], stderr
    assert not any(ch in stderr for ch in "╭│╰"), stderr


# --- cardgen new ------------------------------------------------------------------------


def test_new_with_dir_naming_a_file_is_exit_2(tmp_path: Path) -> None:
    parent = tmp_path / "a-file"
    parent.write_text("mine\n", encoding="utf-8")
    assert_one_line_exit_2(run_cli(["new", "x", "--dir", str(parent)]), str(parent))
    assert parent.read_text(encoding="utf-8") == "mine\n"


@pytest.mark.parametrize("name", ["evil\n", "evil\r", "ok\n\n", "a\nb"])
def test_new_refuses_an_id_with_a_line_break(tmp_path: Path, name: str) -> None:
    code, stdout, stderr = run_cli(["new", name, "--dir", str(tmp_path)])
    assert code == 2 and "not a valid game id" in stderr, (code, stdout, stderr)
    assert list(tmp_path.iterdir()) == []


def test_new_makes_folders_with_the_usual_mode(tmp_path: Path) -> None:
    umask = os.umask(0o022)
    try:
        code, stdout, stderr = run_cli(["new", "fresh-game", "--dir", str(tmp_path)])
    finally:
        os.umask(umask)
    assert code == 0, (stdout, stderr)
    assert (tmp_path / "fresh-game").stat().st_mode & 0o777 == 0o755
    assert (tmp_path / "fresh-game" / "layouts").stat().st_mode & 0o777 == 0o755


# --- translations -------------------------------------------------------------------


@pytest.fixture
def catalog(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A copy of the pt_BR catalog under tmp_path that every command reads instead of the real one."""
    copy = tmp_path / "locales" / "pt_BR" / "LC_MESSAGES" / "cardgen.po"
    copy.parent.mkdir(parents=True)
    shutil.copy(i18n.po_path("pt_BR"), copy)

    def po_path(locale: str, root: Path | None = None) -> Path:
        return tmp_path / "locales" / locale / "LC_MESSAGES" / "cardgen.po"

    monkeypatch.setattr(checks, "po_path", po_path)
    monkeypatch.setattr(i18n, "po_path", po_path)
    monkeypatch.setattr(i18n, "catalog_locales", lambda root=None: ["pt_BR"])
    monkeypatch.setattr(checks, "catalog_locales", lambda root=None: ["pt_BR"])
    return copy


def _retranslate(path: Path, msgid: str, msgstr: str) -> int:
    """Set the msgstr of ``msgid`` in the PO file; returns the line of its msgid."""
    lines = path.read_text(encoding="utf-8").splitlines()
    index = lines.index(f'msgid "{msgid}"')
    assert lines[index + 1].startswith("msgstr ")
    lines[index + 1] = f'msgstr "{msgstr}"'
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return index + 1


HEADING = "Contents"
"""A message every rulebook prints (the contents heading)."""
BROKEN_TRANSLATIONS = {
    "renamed placeholder": ("Page %(page)s", "Página %(pagina)s"),
    "unknown placeholder": ("Contents", "Sumário %(extra)s"),
    "literal percent": ("Contents", "Sumário 100%"),
    "percent before a letter": ("Contents", "100% dos itens"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_TRANSLATIONS))
def test_a_translation_with_broken_placeholders_is_cg304_in_every_command(spec: Path, tmp_path: Path, catalog: Path, case: str) -> None:
    msgid, msgstr = BROKEN_TRANSLATIONS[case]
    line = _retranslate(catalog, msgid, msgstr)
    place = f"{catalog}:{line}:1: CG304 error"
    outputs = {}
    for command in (["validate", "--no-sim", str(spec)], ["rulebook", str(spec), "--out", str(tmp_path / "out")], ["i18n", "check"]):
        code, stdout, stderr = run_cli(command)
        assert code == 1, (command, code, stdout, stderr)
        assert "internal error" not in stdout + stderr and "Traceback" not in stdout + stderr
        outputs[command[0]] = [row for row in (stdout + stderr).splitlines() if " CG304 " in row]
        assert any(row.endswith(place) or place in row for row in outputs[command[0]]), (command, stdout, stderr)
    assert outputs["validate"] == outputs["rulebook"]  # the same finding, word for word
    assert not (tmp_path / "out" / "minimal").exists()


def test_a_broken_translation_falls_back_to_english_when_rendering(catalog: Path) -> None:
    from cardgen.rulebook.build import make_rulebook
    from cardgen.spec.load import load_spec

    _retranslate(catalog, HEADING, "Sumário 100%")
    loaded = load_spec(MINIMAL)
    assert loaded.spec is not None
    rulebook = make_rulebook(loaded.spec, "pt_BR", MINIMAL)
    assert "Contents" in rulebook.markdown and "Sumário" not in rulebook.markdown


def test_an_unreadable_catalog_is_cg307_at_the_catalog(spec: Path, catalog: Path) -> None:
    catalog.write_bytes(b"\xff\xfe not a catalog")
    code, stdout, stderr = run_cli(["validate", "--no-sim", str(spec)])
    assert code == 1 and "internal error" not in stderr, (stdout, stderr)
    rows = [row for row in stdout.splitlines() if " CG307 " in row]
    assert rows and all(row.startswith(str(catalog)) for row in rows), stdout
    assert not any("game.yaml" in row and " CG3" in row for row in stdout.splitlines()), stdout


# --- spec strings and templates --------------------------------------------------------


@pytest.mark.parametrize("character", ["\\0", "\\e", "\\x7f"])
def test_a_control_character_in_any_string_is_reported_at_its_line(spec: Path, character: str) -> None:
    game = spec / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert 'version: "1.0"' in text
    game.write_text(text.replace('version: "1.0"', f'version: "1.0{character}"'), encoding="utf-8")
    line = text.splitlines().index('version: "1.0"') + 1
    code, stdout, stderr = run_cli(["validate", "--no-sim", str(spec)])
    assert code == 1, (stdout, stderr)
    errors = [row for row in stdout.splitlines() if " error: " in row]
    assert len(errors) == 1, stdout
    assert f"game.yaml:{line}:" in errors[0] and "CG122" in errors[0] and "version" in errors[0]


SPEC_TEMPLATES = {
    "division by zero": "<html><body>{{ 1 / 0 }}</body></html>",
    "bad format": "<html><body>\n{{ '%s %s' % (1,) }}</body></html>",
    "syntax": "<html><body>\n\n{% for %}</body></html>",
}


@pytest.mark.parametrize("case", sorted(SPEC_TEMPLATES))
def test_a_failing_spec_template_is_cg310_at_its_line(spec: Path, tmp_path: Path, case: str) -> None:
    body = SPEC_TEMPLATES[case]
    template = spec / "templates" / "rulebook" / "rulebook.xhtml.j2"
    template.parent.mkdir(parents=True)
    template.write_text(body, encoding="utf-8")
    line = body.count("\n") + 1
    for command in (["validate", "--no-sim", str(spec)], ["build", str(spec), "--out", str(tmp_path / "out"), "--paper", "a4"]):
        code, stdout, stderr = run_cli(command)
        assert code == 1, (command, stdout, stderr)
        rows = [row for row in stdout.splitlines() if " CG310 " in row]
        assert rows and all(f"rulebook.xhtml.j2:{line}:" in row for row in rows), (command, stdout)
    assert not (tmp_path / "out" / "minimal").exists()


# --- replays ---------------------------------------------------------------------------


def _replay_lines(tmp_path: Path) -> list[str]:
    path = tmp_path / "game.jsonl"
    code, stdout, stderr = run_cli(["play", "ceramus", "--agents", "random", "--replay-out", str(path)])
    assert code == 0, (stdout, stderr)
    return path.read_text(encoding="utf-8").splitlines()


def test_malformed_replays_are_exit_2(tmp_path: Path) -> None:
    lines = _replay_lines(tmp_path)
    corpus = {
        "nested too deep": "[" * 100_000 + "]" * 100_000,
        "a number too long to read": '{"action": ' + "9" * 5000 + ', "player": 0, "ply": 0}',
        "not UTF-8": "\udcff",
    }
    for name, middle in corpus.items():
        path = tmp_path / f"{name.replace(' ', '-')}.jsonl"
        path.write_bytes("\n".join([lines[0], middle, lines[-1]]).encode("utf-8", "surrogateescape") + b"\n")
        assert_one_line_exit_2(run_cli(["replay", str(path)]), path.name)


# --- a spec's own layout files -------------------------------------------------------------

LAYOUT_PARAMS = {
    "text size zero": ("params: {size: 7}", "params: {size: 0}"),
    "text size negative": ("params: {size: 7}", "params: {size: -3}"),
    "text size too large": ("params: {size: 7}", "params: {size: 1e308}"),
    "text size not a number": ("params: {size: 7}", "params: {size: .nan}"),
    "box infinite": ("box: [4, 4, 55, 5]", "box: [4, 4, .inf, 5]"),
    "box negative": ("box: [4, 4, 55, 5]", "box: [4, 4, -55, 5]"),
    "unknown vertical alignment": ("valign: middle", "valign: sideways"),
}


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    parent = tmp_path_factory.mktemp("scaffold")
    code, stdout, stderr = run_cli(["new", "gem-game", "--dir", str(parent)])
    assert code == 0, (stdout, stderr)
    return parent / "gem-game"


@pytest.mark.parametrize("case", sorted(LAYOUT_PARAMS))
def test_layout_parameters_no_widget_can_draw_are_findings_in_the_layout(scaffolded: Path, tmp_path: Path, case: str) -> None:
    old, new = LAYOUT_PARAMS[case]
    spec = copy_spec(scaffolded, tmp_path / "gem-game")
    layout = spec / "layouts" / "cards.yaml"
    text = layout.read_text(encoding="utf-8")
    assert old in text
    layout.write_text(text.replace(old, new, 1), encoding="utf-8")
    changed = text[: text.index(old)].count("\n") + 1
    code, stdout, stderr = run_cli_within(["validate", "--no-sim", str(spec)], 120)  # a NaN size once looped for ever
    assert code == 1, (code, stdout, stderr)
    assert "internal error" not in stdout + stderr
    errors = [row for row in stdout.splitlines() if " error: " in row]
    assert errors and all("layouts/cards.yaml:" in row for row in errors), stdout
    lines = {int(row.split("cards.yaml:")[1].split(":")[0]) for row in errors}
    assert all(abs(line - changed) <= 1 for line in lines), (lines, changed, stdout)


def test_a_card_sheet_that_is_a_symbolic_link_loop_is_exit_2(scaffolded: Path, tmp_path: Path) -> None:
    spec = copy_spec(scaffolded, tmp_path / "gem-game")
    (spec / "cards.csv").unlink()
    (spec / "cards.csv").symlink_to("cards.csv")
    code, stdout, stderr = run_cli(["validate", "--no-sim", str(spec)])
    assert code == 2 and "internal error" not in stdout + stderr, (code, stdout, stderr)
    assert any("cards.csv" in row and "loops" in row for row in stdout.splitlines()), stdout


def test_out_through_a_symbolic_link_loop_is_a_usage_error(spec: Path, tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to("loop")
    for out in (loop, loop / "sub"):
        assert_one_line_exit_2(run_cli(["build", str(spec), "--out", str(out)]), str(out))


def test_watch_reports_a_full_disk_in_one_line_and_keeps_watching(spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"

    def full_disk(context: BuildContext) -> list[Path]:
        raise OSError(errno.ENOSPC, "No space left on device", str(context.staging / "decks.txt"))

    monkeypatch.setattr(artefacts_module, "_PRODUCERS", {"decks": full_disk})
    code, stdout, stderr = run_cli_within(["watch", str(spec), "--out", str(out), "--interval", "0.1", "--max-cycles", "1"], 120)
    assert code == 0, (stdout, stderr)
    assert "internal error" not in stdout + stderr
    assert any("decks.txt: error: No space left on device" in row for row in stdout.splitlines()), stdout
