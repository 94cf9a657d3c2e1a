"""docs/widgets.md: every widget a layout may name and the parameters it takes, generated from their models.

Regenerate with::

    python -c "from cardgen.render.widget_docs import widgets_reference_markdown as w; open('docs/widgets.md','w').write(w())"

``tests/render/test_widget_params.py`` fails when the page is out of date.
"""

from __future__ import annotations

import inspect

from cardgen.render.widget_params import parameter_rows
from cardgen.render.widgets import get_widget, widget_names, widget_params


def _cell(text: str) -> str:
    return " ".join(text.replace("``", "`").replace("|", "\\|").split())


def _summary(name: str) -> str:
    """The first sentence of the widget function's docstring."""
    fn = get_widget(name)
    doc = inspect.getdoc(fn) or ""
    return _cell(doc.split("\n\n")[0])


def _home(name: str) -> str:
    """``generic``, or the game package whose widgets module registers the widget."""
    fn = get_widget(name)
    module = getattr(fn, "__module__", "")
    parts = module.split(".")
    return parts[2] if module.startswith("cardgen.games.") and len(parts) > 2 else "generic"


def widgets_reference_markdown() -> str:
    """The reference page of every registered widget and its parameters."""
    names = widget_names()
    lines = [
        "# Widgets and their parameters",
        "",
        "A layout element names a widget and gives it `params` (templates/layouts/README.md). Each widget declares the",
        "parameters it takes; a name it does not take or a value of the wrong kind is CG214, a number out of its range",
        "CG207, both at the line in the layout file, and the element is not drawn. An empty default means the widget",
        "works it out (the description says how). Generated from the widgets' parameter models",
        "(`cardgen/render/widget_params.py`); a test fails when this page is out of date.",
        "",
    ]
    homes = sorted({_home(n) for n in names}, key=lambda h: (h != "generic", h))
    for home in homes:
        lines += [f"## {'Generic widgets' if home == 'generic' else 'Widgets of ' + home}", ""]
        for name in (n for n in names if _home(n) == home):
            model = widget_params(name)
            assert model is not None
            lines += [f"### `{name}`", "", _summary(name), ""]
            rows = parameter_rows(model)
            if not rows:
                lines += ["No parameters.", ""]
                continue
            lines += ["| parameter | kind | default | meaning |", "| --- | --- | --- | --- |"]
            lines += [f"| `{n}` | {_cell(k)} | {_cell(f'`{d}`' if d else '')} | {_cell(m)} |" for n, k, d, m in rows]
            lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
