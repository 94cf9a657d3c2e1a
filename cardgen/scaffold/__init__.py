"""Helpers for a designer's daily work: scaffolding a new game folder (``cardgen new``).

The scaffold is a small but complete game: ``game.yaml`` with both locales,
credits and licence placeholders, a deck whose cards live in ``cards.csv``, one
setup per player count, its play written as rules data (so ``cardgen check``
plays it at once), rules prose and a clarification; a face layout in
``layouts/``; and a short note on how the rulebook is made. It validates and
builds as it is, so a designer starts from something that works and changes it
one step at a time. Each kind of game (:data:`KINDS`) has its own small
original game in ``templates/scaffold/<kind>/``; the rulebook note is shared.
The templates are filled with :class:`string.Template` (``$name`` placeholders).

The watcher behind ``cardgen watch`` lives in :mod:`cardgen.scaffold.watch`.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from string import Template

from cardgen.findings import InputError, display_path
from cardgen.resources import SCHEMA, TEMPLATES

TEMPLATES_DIR = TEMPLATES / "scaffold"
"""The scaffold's file templates."""
SCHEMA_FILE = SCHEMA / "cardgen-spec.schema.json"
"""The JSON Schema the new game.yaml points editors at."""
DECK_ID = "cards"
"""The id of the scaffold's one deck (its layout file is ``layouts/cards.yaml``)."""
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9_\-]*")
"""The spec language's identifier rule (see ``Identifier`` in cardgen.spec.models); matched whole, with ``fullmatch``
(a ``$`` would let a trailing newline through)."""
MAX_ID_LENGTH = 64


KINDS: dict[str, str] = {
    "set-collection": "take gems from a face-up row and play actions; the first to a target score wins",
    "drafting": "take one card from a market that refills from the deck; the best basket wins",
    "push-your-luck": "turn up cards one by one and bank them, or lose them all on a repeated colour",
    "shedding": "match the colour or the number of the top card and be the first to empty your hand",
    "trick-taking": "follow the suit led or trump it; every trick and every lantern taken scores",
}
"""The kinds of game ``cardgen new --kind`` scaffolds, each with what its small game is about."""
DEFAULT_KIND = "set-collection"
"""The kind scaffolded when none is asked for."""


@dataclass(frozen=True)
class ScaffoldFile:
    """One file of the scaffold: its template (under the kind's folder unless ``shared``) and where it goes."""

    template: str
    target: str
    shared: bool = False


SCAFFOLD_FILES: tuple[ScaffoldFile, ...] = (
    ScaffoldFile("game.yaml.tmpl", "game.yaml"),
    ScaffoldFile("cards.csv.tmpl", "cards.csv"),
    ScaffoldFile("layout.yaml.tmpl", f"layouts/{DECK_ID}.yaml"),
    ScaffoldFile("RULEBOOK.md.tmpl", "RULEBOOK.md", shared=True),
)


def check_game_id(name: str) -> None:
    """Raise :class:`InputError` unless ``name`` is a valid spec id (lower-case letters, digits, '-' and '_')."""
    if not ID_PATTERN.fullmatch(name) or len(name) > MAX_ID_LENGTH:
        raise InputError(
            f"{name!r} is not a valid game id: use lower-case letters, digits, '-' and '_' "
            f"(starting with a letter or digit, at most {MAX_ID_LENGTH} characters), e.g. 'my-game'"
        )


def title_from_id(game_id: str) -> str:
    """A readable placeholder title: ``gem-market`` -> ``Gem Market``."""
    words = [w for w in re.split(r"[-_]+", game_id) if w]
    return " ".join(w[:1].upper() + w[1:] for w in words) or game_id


def schema_reference(folder: Path) -> str:
    """The path of the repository's JSON Schema relative to ``folder`` (POSIX separators), or its file URI."""
    try:
        return Path(os.path.relpath(SCHEMA_FILE, folder.resolve())).as_posix()
    except ValueError:  # another drive on Windows: no relative path exists
        return SCHEMA_FILE.as_uri()


def check_kind(kind: str) -> None:
    """Raise :class:`InputError` unless ``kind`` is one of :data:`KINDS`."""
    if kind not in KINDS:
        raise InputError(f"{kind!r} is not a kind of game cardgen new scaffolds (kinds: {', '.join(KINDS)})")


def render_files(game_id: str, folder: Path, kind: str = DEFAULT_KIND) -> dict[str, str]:
    """The scaffold's files of ``kind`` for ``game_id`` as they would be written into ``folder``: relative path -> text."""
    check_kind(kind)
    values = {
        "game_id": game_id,
        "title": title_from_id(game_id),
        "deck_id": DECK_ID,
        "schema_path": schema_reference(folder),
    }
    out: dict[str, str] = {}
    for item in SCAFFOLD_FILES:
        source = TEMPLATES_DIR / item.template if item.shared else TEMPLATES_DIR / kind / item.template
        try:
            text = source.read_text(encoding="utf-8")
        except OSError as error:
            raise InputError(f"scaffold template missing ({error.strerror or error})", str(source)) from error
        out[item.target] = Template(text).substitute(values)
    return out


def _give_folder_mode(folder: Path) -> None:
    """Give a folder made by :func:`tempfile.mkdtemp` (mode 0700) the mode a plain ``mkdir`` gives: 0777 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    folder.chmod(0o777 & ~umask)


def create_game(game_id: str, parent: Path, kind: str = DEFAULT_KIND) -> Path:
    """Write a new game folder ``parent/game_id`` of ``kind`` (see :data:`KINDS`) and return it.

    Refuses an invalid id, an unknown kind and an existing folder (nothing is ever overwritten).
    The files are written into a private folder first and moved into place with
    one rename, so an interrupted run leaves no half-made game behind.
    """
    check_game_id(game_id)
    check_kind(kind)
    target = parent / game_id
    if target.exists() or target.is_symlink():
        raise InputError("the folder already exists; cardgen new never overwrites anything (pick another name or --dir)", display_path(target))
    if parent.exists() and not parent.is_dir():
        raise InputError("--dir names a file, not a folder; cardgen new makes the game folder inside --dir", display_path(parent))
    parent.mkdir(parents=True, exist_ok=True)
    files = render_files(game_id, target, kind)
    staging = Path(tempfile.mkdtemp(prefix=f".new-{game_id}-", dir=parent))
    try:
        _give_folder_mode(staging)
        for relative, text in files.items():
            path = staging / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
        if target.exists():  # created by someone else meanwhile
            raise InputError("the folder already exists; cardgen new never overwrites anything", display_path(target))
        os.rename(staging, target)
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target
