"""The spec's ``rules`` field: a rules module's id or rules data, whose models load only when a spec holds rules data.

The rules-data models (:mod:`cardgen.spec.rules_data`, about a hundred of them)
took a sixth of a cold build's CPU to import and to build, paid by every run
that read a spec, also by specs whose ``rules`` is a module id or absent (issue
17). The field is therefore read by a function: a mapping (or a
:class:`~cardgen.spec.rules_data.RulesData` already made) is validated by the
rules-data models, imported then; anything else is checked as a module id.
This is what the tagged union it replaces did, with the same errors at the same
places (a nested model's errors carry the field's place, as pydantic gives
them; only the union's tag is gone from their ``loc``, which the loader never
showed). The JSON Schema and the spec reference still describe both readings:
they import the rules-data models when asked for.
"""

from __future__ import annotations

import sys
from typing import Any

from pydantic import BaseModel, ConfigDict, GetCoreSchemaHandler, GetJsonSchemaHandler, TypeAdapter
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

RULES_DATA_MODULE = "cardgen.spec.rules_data"
MODULE_TAG, DATA_TAG = "rules-module", "rules-data"


def rules_data_model() -> type[BaseModel]:
    """The :class:`~cardgen.spec.rules_data.RulesData` model (importing, and so defining, every rules-data model)."""
    from cardgen.spec.rules_data import RulesData

    return RulesData


def holds_rules_data(value: object) -> bool:
    """Whether ``value`` is read as rules data: a mapping, or rules data already made (whose module is then loaded)."""
    if isinstance(value, dict):
        return True
    module = sys.modules.get(RULES_DATA_MODULE)
    return module is not None and isinstance(value, module.RulesData)


class RulesOnDemand:
    """Pydantic metadata reading the ``rules`` field as a module id (``identifier``) or as rules data, loaded on demand."""

    def __init__(self, identifier: Any) -> None:
        self.identifier = identifier
        self._module_ids: TypeAdapter[str] | None = None

    def models(self) -> list[type[BaseModel]]:
        """The models this field may hold (for the spec reference: :mod:`cardgen.spec.schema`)."""
        return [rules_data_model()]

    def _module_id(self, value: object) -> str:
        if self._module_ids is None:
            self._module_ids = TypeAdapter(self.identifier, config=ConfigDict(strict=True))
        return self._module_ids.validate_python(value)

    def _read(self, value: object) -> Any:
        if holds_rules_data(value):
            return rules_data_model().model_validate(value)
        return self._module_id(value)

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        # Serialised as what it holds (a string, or the rules-data model's own serialiser), as the union did.
        return core_schema.no_info_plain_validator_function(self._read)

    def __get_pydantic_json_schema__(self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        module_ids = TypeAdapter(self.identifier, config=ConfigDict(strict=True)).core_schema
        model = rules_data_model()
        union = core_schema.tagged_union_schema({MODULE_TAG: module_ids, DATA_TAG: model.__pydantic_core_schema__}, discriminator=_tag)
        return handler(union)


def _tag(value: object) -> str:
    return DATA_TAG if holds_rules_data(value) else MODULE_TAG
