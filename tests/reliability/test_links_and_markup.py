"""Unsafe links and markup: only http, https and mailto become links; Markdown is escaped; translations are text.

The corpus is URLs and texts a hostile or careless spec, template or catalog
could hold. Each must reach the rulebook's PDF and Markdown as plain text, never
as a link action, a Markdown link or markup.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from pypdf import PdfReader

import cardgen.rulebook.checks as checks
import cardgen.rulebook.i18n as i18n
from cardgen.links import link_problem, markdown_destination, safe_link
from cardgen.rulebook.build import make_rulebook, render_xhtml, rulebook_pdf
from cardgen.rulebook.document import parse_document
from cardgen.rulebook.markdown import to_markdown
from cardgen.spec.load import load_spec

from .conftest import MINIMAL, copy_spec

UNSAFE_URLS = [
    "javascript:alert(1)",
    "JavaScript:alert(document.cookie)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "jav&#x61;script:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd",
    "vbscript:msgbox(1)",
    "//evil.example/no-scheme",
    "https:no-host",
    "mailto:",
    "https://example.org/>)[click](javascript:alert(1)",
    "https://example.org/a b",
    'https://example.org/"onmouseover="alert(1)',
    "https://example.org/\nnext",
]
SAFE_URLS = ["https://creativecommons.org/licenses/by/4.0/", "http://example.org/a?b=c#d", "mailto:designer@example.org", "HTTPS://EXAMPLE.ORG/"]


@pytest.mark.parametrize("url", UNSAFE_URLS)
def test_unsafe_urls_are_refused(url: str) -> None:
    assert link_problem(url) is not None
    assert safe_link(url) == ""


@pytest.mark.parametrize("url", SAFE_URLS)
def test_web_and_mail_urls_are_links(url: str) -> None:
    assert link_problem(url) is None
    assert safe_link(url) == url


def _with(spec: Path, old: str, new: str) -> None:
    game = spec / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert old in text
    game.write_text(text.replace(old, new), encoding="utf-8")


LICENCE_URL = "  url: https://creativecommons.org/licenses/by/4.0/"
SOURCE = "  source: cardgen test fixture"


@pytest.mark.parametrize("url", UNSAFE_URLS)
def test_a_spec_with_an_unsafe_url_is_a_finding_at_its_line(tmp_path: Path, url: str) -> None:
    spec = copy_spec(MINIMAL, tmp_path / "spec")
    quoted = '"' + url.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n") + '"'
    _with(spec, LICENCE_URL, f"  url: {quoted}")
    _with(spec, SOURCE, f"{SOURCE}\n  source_url: {quoted}")
    lines = (spec / "game.yaml").read_text(encoding="utf-8").splitlines()
    loaded = load_spec(spec)
    assert loaded.spec is None
    places = {(f.path, f.line) for f in loaded.findings if f.code == "CG004"}
    assert ("licence.url", lines.index(f"  url: {quoted}") + 1) in places
    assert ("credits.source_url", lines.index(f"  source_url: {quoted}") + 1) in places


def test_safe_urls_in_a_spec_still_load(tmp_path: Path) -> None:
    spec = copy_spec(MINIMAL, tmp_path / "spec")
    _with(spec, SOURCE, f"{SOURCE}\n  source_url: mailto:designer@example.org")
    loaded = load_spec(spec)
    assert loaded.spec is not None and loaded.spec.credits.source_url == "mailto:designer@example.org"


HOSTILE_TEMPLATE = """<rulebook lang="en">
<h1>Links</h1>
<p><a href="javascript:alert(1)">run me</a></p>
<p><a href="file:///etc/passwd">read me</a></p>
<p><a href="https://example.org/&gt;)[click](javascript:alert(2)">https://example.org/&gt;)[click](javascript:alert(2)</a></p>
<p><a href="https://example.org/ok">fine</a></p>
</rulebook>
"""


@pytest.fixture
def hostile_template_spec(tmp_path: Path) -> Path:
    spec = copy_spec(MINIMAL, tmp_path / "spec")
    template = spec / "templates" / "rulebook" / "rulebook.xhtml.j2"
    template.parent.mkdir(parents=True)
    template.write_text(HOSTILE_TEMPLATE, encoding="utf-8")
    return spec


def test_a_template_link_with_an_unsafe_url_is_plain_text(hostile_template_spec: Path) -> None:
    loaded = load_spec(hostile_template_spec)
    assert loaded.spec is not None
    rulebook = make_rulebook(loaded.spec, "en", hostile_template_spec)
    hrefs = {run.href for block in rulebook.document.blocks for run in getattr(block, "runs", ()) if run.href}
    assert hrefs == {"https://example.org/ok"}  # the '>' in the third link's URL makes it no link at all
    md = rulebook.markdown
    assert "run me" in md and "read me" in md
    assert not re.search(r"(?<!\\)\]\(\s*<?\s*(javascript|file|data):", md, re.IGNORECASE), md  # an unescaped ](javascript: is a link
    assert "[click](javascript" not in md
    assert "[fine](<https://example.org/ok>)" in md
    pdf = rulebook_pdf(loaded.spec, rulebook, "a4")
    targets = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        for annotation in page.get("/Annots") or []:
            action = annotation.get_object().get("/A")
            if action is not None:
                targets.append(str(action.get_object().get("/URI", action.get_object().get("/S"))))
    assert targets and all(t.startswith("https://") for t in targets), targets


def test_a_markdown_link_destination_cannot_be_closed_early() -> None:
    destination = markdown_destination("https://example.org/a>b<c d\\e")
    assert not set(destination) & set("<> \\"), destination
    assert destination.startswith("https://example.org/a")


def test_text_that_looks_like_a_character_reference_shows_as_written(tmp_path: Path) -> None:
    spec = copy_spec(MINIMAL, tmp_path / "spec")
    loaded = load_spec(spec)
    assert loaded.spec is not None
    xhtml = render_xhtml(loaded.spec, "en", spec)
    marked = xhtml.replace("</rulebook>", "<p>Score &amp;lt;3 &amp;#60;3 &amp; [x](javascript:alert(1))</p></rulebook>", 1)
    md = to_markdown(parse_document(marked))
    assert "Score \\&lt;3 \\&#60;3 & \\[x\\](javascript:alert(1))" in md, md


# --- translations are text --------------------------------------------------------------


@pytest.fixture
def catalog(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    copy = tmp_path / "locales" / "pt_BR" / "LC_MESSAGES" / "cardgen.po"
    copy.parent.mkdir(parents=True)
    shutil.copy(i18n.po_path("pt_BR"), copy)

    def po_path(locale: str, root: Path | None = None) -> Path:
        return tmp_path / "locales" / locale / "LC_MESSAGES" / "cardgen.po"

    monkeypatch.setattr(checks, "po_path", po_path)
    monkeypatch.setattr(i18n, "po_path", po_path)
    return copy


MARKUP_IN_MSGSTR = [
    '<a href=\\"javascript:alert(1)\\">Sumário</a>',
    "<b>Sumário</b>",
    "Sumário <i>&amp;</i> mais",
    "Sumário</h2><pagebreak/><h2>",
]


@pytest.mark.parametrize("msgstr", MARKUP_IN_MSGSTR)
def test_markup_in_a_translation_is_printed_as_text(catalog: Path, msgstr: str) -> None:
    lines = catalog.read_text(encoding="utf-8").splitlines()
    index = lines.index('msgid "Contents"')
    lines[index + 1] = f'msgstr "{msgstr}"'
    catalog.write_text("\n".join(lines) + "\n", encoding="utf-8")
    loaded = load_spec(MINIMAL)
    assert loaded.spec is not None
    rulebook = make_rulebook(loaded.spec, "pt_BR", MINIMAL)  # a bad document would raise RulebookError
    shown = msgstr.replace('\\"', '"')
    texts = [getattr(block, "title", "") for block in rulebook.document.blocks] + [getattr(block, "text", "") for block in rulebook.document.blocks]
    assert shown in texts, texts
    assert not any(run.href.startswith("javascript") for block in rulebook.document.blocks for run in getattr(block, "runs", ()))
    assert not re.search(r"(?<!\\)<(a |b>|i>|/h2)", rulebook.markdown), rulebook.markdown  # only escaped, as text
