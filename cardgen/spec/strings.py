"""Every string of a spec, and the characters none of them may hold."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from cardgen.spec.source import PathKey

CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def all_strings(value: object, path: PathKey = ()) -> Iterator[tuple[PathKey, str]]:
    """Every string inside a spec (or any part of one), with its path: text, ids, versions, URLs, card data."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, BaseModel):
        for name, _info, item in parsed_fields(value):
            yield from all_strings(item, path + (name,))
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from all_strings(item, path + (index,))
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                yield path + (key,), key
            yield from all_strings(item, path + (key,))


def control_character(text: str) -> re.Match[str] | None:
    """The first control character in ``text`` other than a line break or tab, if any."""
    return CONTROL_CHARACTERS.search(text)


def has_control_characters(spec: BaseModel) -> bool:
    """Whether any string of ``spec`` holds a control character (reported as CG122)."""
    return any(control_character(text) for _, text in all_strings(spec))


def parsed_fields(model: BaseModel) -> Iterator[tuple[str, FieldInfo, Any]]:
    """(name, declaration, value) of each field ``model`` holds, in declaration order.

    A spec the schema refused is checked without the keys that did not parse
    (:func:`cardgen.spec.load.salvage_spec`): they are absent from the model,
    and a walk over every field passes them by.
    """
    held = model.__dict__
    for name, info in type(model).model_fields.items():
        if name in held:
            yield name, info, held[name]
