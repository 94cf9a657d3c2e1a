"""Templates are untrusted: the sandbox refuses escapes, loaders are confined, text is escaped."""

from __future__ import annotations

from pathlib import Path

import pytest
from jinja2.exceptions import SecurityError, TemplateNotFound, UndefinedError

from cardgen.rulebook.build import RulebookError, make_rulebook
from cardgen.rulebook.environment import make_environment
from cardgen.spec.load import load_spec

from .conftest import LANTERN


@pytest.mark.parametrize(
    "source",
    [
        "{{ ''.__class__.__mro__ }}",
        "{{ ''.__class__.__mro__[1].__subclasses__() }}",
        "{{ joiner.__init__.__globals__ }}",  # (lipsum, the usual example, is not offered at all)
        "{{ cycler.__init__.__globals__.os }}",
        "{{ _.__globals__ }}",
        "{% set x = [] %}{{ x.append(1) }}",
        "{{ {}.update(a=1) }}",
    ],
)
def test_sandbox_refuses_escapes(source: str) -> None:
    env = make_environment("en")
    with pytest.raises(SecurityError):
        env.from_string(source).render()


@pytest.mark.parametrize("name", ["/etc/passwd", "../../pyproject.toml", "../../cardgen/__init__.py"])
def test_templates_cannot_include_other_files(name: str) -> None:
    env = make_environment("en")
    with pytest.raises(TemplateNotFound):
        env.from_string("{% include '" + name + "' %}").render()


def test_undefined_names_are_errors_not_blanks() -> None:
    env = make_environment("en")
    with pytest.raises(UndefinedError):
        env.from_string("{{ open('/etc/passwd') }}").render()
    with pytest.raises(UndefinedError):
        env.from_string("{{ no_such_value }}").render()


def test_autoescape_and_translation_inside_the_sandbox() -> None:
    env = make_environment("pt_BR")
    out = env.from_string("<p>{{ name }} · {{ _('Contents') }} · {% trans count=n, num=n|number %}{{ num }} card{% pluralize %}{{ num }} cards{% endtrans %}</p>").render(name="<Fish & chips>", n=1500)
    assert out == "<p>&lt;Fish &amp; chips&gt; · Sumário · 1.500 cartas</p>"


def _spec_with_template(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "lantern-market"
    folder.mkdir()
    (folder / "game.yaml").write_text((LANTERN / "game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "templates" / "rulebook").mkdir(parents=True)
    (folder / "templates" / "rulebook" / "rulebook.xhtml.j2").write_text(body, encoding="utf-8")
    return folder


def test_a_spec_template_trying_an_escape_is_refused(tmp_path: Path) -> None:
    folder = _spec_with_template(tmp_path, "<rulebook><p>{{ game.__class__.__mro__ }}</p></rulebook>")
    spec = load_spec(folder).spec
    assert spec is not None
    with pytest.raises(RulebookError, match="SecurityError"):
        make_rulebook(spec, "en", folder)


def test_a_spec_template_with_unknown_elements_is_refused(tmp_path: Path) -> None:
    folder = _spec_with_template(tmp_path, "<rulebook><script>alert(1)</script></rulebook>")
    spec = load_spec(folder).spec
    assert spec is not None
    with pytest.raises(RulebookError, match="not a rulebook element"):
        make_rulebook(spec, "en", folder)


def test_a_spec_template_may_override_the_bundled_one(tmp_path: Path) -> None:
    folder = _spec_with_template(
        tmp_path, '{% from "macros.xhtml.j2" import prose %}<rulebook lang="{{ html_lang }}"><h1>{{ game.title }}</h1>{{ prose(goal) }}</rulebook>'
    )
    spec = load_spec(folder).spec
    assert spec is not None
    md = make_rulebook(spec, "pt_BR", folder).markdown
    assert md.startswith("## Mercado das Lanternas\n\nSeja o primeiro mercador a chegar a 1.200 moedas")
