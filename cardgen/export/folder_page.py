"""Small pages for the output folders other commands write, so the gallery links pages, not raw listings.

``cardgen preview``, ``cardgen export tts``, ``cardgen export profile`` and ``cardgen check --replays``
each write an ``index.html`` into their folder (``preview/``, ``tts/``, ``<profile>/``, ``replays/``):
the game's title, what the folder is for, the notes of the command that wrote it, and every file in it,
linked, with PNGs shown as pictures. Like the gallery it is one self-contained file: inline CSS, no
script, no external URL, relative links only, every text escaped. A ``<meta name="cardgen-folder">``
names the kind of folder, so the gallery can find print-shop folders whatever the profile is called.
The report folder has its own page (``report/index.html``, :mod:`cardgen.report`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Literal
from urllib.parse import quote

from cardgen.fsmove import write_atomic
from cardgen.render.widgets import local
from cardgen.spec.models import Spec

PAGE = "index.html"
"""The page's name in its folder."""

FolderKind = Literal["preview", "tts", "print-shop", "replays"]

KIND_META = re.compile(r'<meta name="cardgen-folder" content="([a-z-]+)">')
"""How a folder page names its kind (read back by :func:`folder_kind`)."""

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "preview": "Previews", "tts": "Tabletop Simulator", "print-shop": "Print shop: {name}", "replays": "Replays",
        "preview-about": "A PNG of every face (trim and bleed) and a contact sheet of them all.",
        "tts-about": "Deck sheets and a saved object for Tabletop Simulator: copy {save} into its Saves/Saved Objects folder (the images stay beside it, or where --base-url says they are hosted).",
        "print-shop-about": "The files to upload to the print shop.",
        "replays-about": "Replays of unusual games found by 'cardgen check --replays'; read one with 'cardgen replay FILE'.",
        "files": "Files", "back": "Back to the gallery", "made": "Made by cardgen.",
    },
    "pt_BR": {
        "preview": "Pré-visualizações", "tts": "Tabletop Simulator", "print-shop": "Gráfica: {name}", "replays": "Replays",
        "preview-about": "Um PNG de cada face (corte e sangria) e uma folha de contato com todas.",
        "tts-about": "Folhas de cartas e um objeto salvo para o Tabletop Simulator: copie {save} para a pasta Saves/Saved Objects (as imagens ficam ao lado dele, ou onde --base-url indica).",
        "print-shop-about": "Os arquivos a enviar para a gráfica.",
        "replays-about": "Replays de partidas incomuns encontradas por 'cardgen check --replays'; leia um com 'cardgen replay ARQUIVO'.",
        "files": "Arquivos", "back": "Voltar à galeria", "made": "Feito pelo cardgen.",
    },
}
"""The pages' own words in each card language (English for any other)."""

CSS = """
body{font-family:"DejaVu Sans",Verdana,sans-serif;margin:0;background:#f2f0ec;color:#222}
header,main,footer{max-width:1200px;margin:0 auto;padding:0 16px}
h1{margin:16px 0 4px}h2{border-bottom:2px solid #ccc;padding-bottom:4px;margin-top:28px}
ul.files{columns:3;padding-left:20px}ul.files li{margin:2px 0}
.pictures{display:flex;flex-wrap:wrap;gap:12px}
figure{margin:0;background:#fff;border:1px solid #ddd;border-radius:6px;padding:8px}
figure img{display:block;max-height:220px;max-width:100%;height:auto;width:auto}
figcaption{font-size:12px;margin-top:4px;color:#555}
footer{font-size:12px;color:#666;margin:24px auto}
"""


def _e(text: str) -> str:
    from html import escape  # (here, not at the top: a build imports this module for every artefact kind, mostly to write none of its pages)

    return escape(text, quote=True)


def _href(relative: str) -> str:
    return _e(quote(relative, safe="/"))


def _size(size: int) -> str:
    return f"{size / 1_048_576:.1f} MB" if size >= 1_048_576 else f"{max(1, round(size / 1024))} KB"


def folder_files(folder: Path) -> list[Path]:
    """The files the page lists: everything under ``folder`` but the page and hidden files, in name order."""
    out = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if path.is_file() and relative.as_posix() != PAGE and not any(part.startswith(".") for part in relative.parts):
            out.append(path)
    return out


def kind_title(kind: FolderKind, locale: str, name: str = "") -> str:
    """What a folder of ``kind`` is called on its page and in the gallery (``name``: the print shop's)."""
    words = WORDS.get(locale, WORDS["en"])
    return words[kind].format(name=name)


def render_folder_page(spec: Spec, folder: Path, kind: FolderKind, locale: str, notes: Iterable[str] = (), name: str = "") -> str:
    """The page's HTML for the files now in ``folder`` (``notes``: lines from the command that wrote them)."""
    words = WORDS.get(locale, WORDS["en"])
    title = local(spec.title, locale, spec.locales[0])
    heading = kind_title(kind, locale, name or folder.name)
    about = words[f"{kind}-about"].format(save=f"{spec.id}.json")
    files = folder_files(folder)
    pictures = [path for path in files if path.suffix.lower() == ".png"]
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{_e(locale.replace("_", "-"))}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="cardgen-folder" content="{_e(kind)}">',
        f"<title>{_e(title)} – {_e(heading)}</title><style>{CSS}</style></head><body>",
        f'<header><p><a href="../index.html">{_e(words["back"])}</a></p><h1>{_e(title)} – {_e(heading)}</h1><p>{_e(about)}</p></header><main>',
    ]
    lines = [line for line in notes if line]
    if lines:
        parts.append("<ul>" + "".join(f"<li>{_e(line)}</li>" for line in lines) + "</ul>")
    if pictures:
        figures = "".join(
            f'<figure><a href="{_href(path.relative_to(folder).as_posix())}"><img src="{_href(path.relative_to(folder).as_posix())}" '
            f'alt="{_e(path.stem)}" loading="lazy"></a><figcaption>{_e(path.relative_to(folder).as_posix())}</figcaption></figure>'
            for path in pictures
        )
        parts.append(f'<div class="pictures">{figures}</div>')
    items = "".join(
        f'<li><a href="{_href(path.relative_to(folder).as_posix())}">{_e(path.relative_to(folder).as_posix())}</a> <small>{_size(path.stat().st_size)}</small></li>'
        for path in files
    )
    parts.append(f'<h2>{_e(words["files"])}</h2><ul class="files">{items}</ul>')
    parts.append(f"</main><footer>{_e(words['made'])}</footer></body></html>")
    return "\n".join(parts) + "\n"


def write_folder_page(spec: Spec, folder: Path, kind: FolderKind, locale: str, notes: Iterable[str] = (), name: str = "") -> Path:
    """Write ``folder/index.html`` listing what is in ``folder`` now; returns its path."""
    page = folder / PAGE
    write_atomic(page, render_folder_page(spec, folder, kind, locale, notes, name).encode("utf-8"))
    return page


def folder_kind(folder: Path) -> str | None:
    """The kind a folder's page declares, or None when it has no cardgen folder page."""
    page = folder / PAGE
    try:
        with page.open(encoding="utf-8", errors="replace") as handle:
            head = handle.read(2048)
    except OSError:
        return None
    found = KIND_META.search(head)
    return found.group(1) if found else None
