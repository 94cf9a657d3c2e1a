"""LocalText, text in every locale a game declares, and the mark the checks find it by.

It lives apart from :mod:`cardgen.spec.models` so the rules-data models (which
the spec models import) can name things in every locale too.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field


class _LocalTextMark:
    """Marks the LocalText type so checks can find every localised text in a spec."""

    def __repr__(self) -> str:
        return "LOCAL_TEXT"


LOCAL_TEXT = _LocalTextMark()
LocalText = Annotated[
    dict[str, str],
    Field(description="Text in every locale the game declares, keyed by locale code (en, pt_BR)."),
    LOCAL_TEXT,
]

Gender = Literal["masculine", "feminine", "masculine plural", "feminine plural"]
"""The grammatical gender (and number) of a name in a locale whose generated sentences agree with it (pt_BR: *o monte*, *a mão*, *as compras*)."""
GENDERED_LANGUAGES = frozenset({"pt", "es", "fr", "it", "ca", "ro"})
"""Languages whose articles and adjectives agree with a noun's gender and number, so a name printed in generated
sentences needs its ``gender`` there (the locale's language: ``pt`` for ``pt_BR``)."""


def needs_gender(locale: str) -> bool:
    """Whether names in ``locale`` need a grammatical gender for the generated sentences to agree with them."""
    return locale.replace("-", "_").split("_")[0].lower() in GENDERED_LANGUAGES


GENDER_DESCRIPTION = (
    "The grammatical gender (and number) of `name` in each locale whose sentences agree with it (pt_BR: `monte` masculine, `mão` feminine, "
    "`compras` feminine plural); "
    "the generated rulebook text picks its articles by it. A locale left out gets the catalog's unmarked phrases."
)
