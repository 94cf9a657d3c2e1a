"""Named mechanics in rules data: the rules a game's vocabulary cannot say, written in Python and used by name.

A spec's rules data lists the mechanics it uses (``mechanics: [NAME]``) and calls
them where the vocabulary has no word: an option whose choices are a mechanic's
actions (``mechanic: {name, action}``), an effect (``{mechanic: {name, effect}}``),
a setup step (``{mechanic: {name, setup}}``) and a scoring item (``{mechanic:
{name, score}}``). Everything else about the game stays data.

A mechanic is registered once by a game package (``cardgen/games/<pkg>/``) or an
installed distribution (the ``cardgen.games`` entry-point group), with a
:class:`MechanicDeclaration`: what it offers under which names, the zones of the
rules data it reads and fills, the phrase the generated rulebook says for each
use, and its own contract (numbers, options, decks and fields, setup entries),
which the validator merges into the contract the rules data implies. This module
holds the models and the declaration, so the spec and validate layers can check
a use without the engine; the registry and the runtime class are
:mod:`cardgen.engine.mechanics`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Literal, Mapping

from pydantic import Field

from cardgen.spec.rules_base import RulesIdentifier, RulesModel
from cardgen.spec.source import PathKey

if TYPE_CHECKING:  # both import the rules-data models this module defines some of
    from cardgen.spec.contract import RulesContract
    from cardgen.spec.rules_data import RulesData

UseKind = Literal["action", "effect", "setup", "score"]
"""What a rules-data item asks of a mechanic."""


class MechanicAction(RulesModel):
    """An option whose choices are a named mechanic's actions (a slot to draft from, a place to put a tile)."""

    name: RulesIdentifier = Field(description="The mechanic, as listed under `rules.mechanics`.")
    action: RulesIdentifier = Field(description="One of the actions the mechanic declares.")


class MechanicEffectSpec(RulesModel):
    """Which mechanic and which of its effects."""

    name: RulesIdentifier = Field(description="The mechanic, as listed under `rules.mechanics`.")
    effect: RulesIdentifier = Field(description="One of the effects the mechanic declares.")


class MechanicEffect(RulesModel):
    """An effect the vocabulary has no word for, carried out by a named mechanic."""

    mechanic: MechanicEffectSpec = Field(description="The mechanic and its effect.")


class MechanicSetupSpec(RulesModel):
    """Which mechanic and which of its setup steps."""

    name: RulesIdentifier = Field(description="The mechanic, as listed under `rules.mechanics`.")
    setup: RulesIdentifier = Field(description="One of the setup steps the mechanic declares.")


class MechanicStep(RulesModel):
    """A setup step carried out by a named mechanic."""

    mechanic: MechanicSetupSpec = Field(description="The mechanic and its setup step.")


class MechanicScoreSpec(RulesModel):
    """Which mechanic and which of its scores."""

    name: RulesIdentifier = Field(description="The mechanic, as listed under `rules.mechanics`.")
    score: RulesIdentifier = Field(description="One of the scores the mechanic declares.")


class MechanicScore(RulesModel):
    """Points counted by a named mechanic (a geometry the scoring vocabulary cannot say)."""

    mechanic: MechanicScoreSpec = Field(description="The mechanic and its score.")


@dataclass(frozen=True)
class MechanicZone:
    """A zone of the rules data a mechanic reads or fills, by the name the rules data must give it."""

    per_seat: bool
    meaning: str


@dataclass(frozen=True)
class MechanicDeclaration:
    """What a named mechanic offers and reads: checked against the rules data before anything is played.

    Every name in ``actions``, ``effects``, ``setups`` and ``scores`` maps to its phrase: an English
    gettext message (marked with ``N_`` in the package's ``phrases.py``, so the rulebook catalog carries
    its translations) that the generated rulebook says for that use; it may name the spec's numbers
    and setup entries as ``%(numbers.NAME)s`` / ``%(setup.display.DECK)s``, filled from the spec.
    """

    name: str
    package: str
    """The game package registering it: its layouts, figures and solver serve a spec using the mechanic."""
    contract: RulesContract
    """What the mechanic reads from the spec (merged into the rules data's derived contract)."""
    zones: Mapping[str, MechanicZone] = field(default_factory=dict)
    actions: Mapping[str, str] = field(default_factory=dict)
    effects: Mapping[str, str] = field(default_factory=dict)
    setups: Mapping[str, str] = field(default_factory=dict)
    scores: Mapping[str, str] = field(default_factory=dict)

    def offers(self, kind: UseKind) -> Mapping[str, str]:
        """The names (with their phrases) the mechanic declares for one kind of use."""
        return {"action": self.actions, "effect": self.effects, "setup": self.setups, "score": self.scores}[kind]


def mechanic_uses(rules: "RulesData") -> Iterator[tuple[PathKey, str, UseKind, str]]:
    """(path of the item, mechanic name, kind of use, name used) of every mechanic use in ``rules``."""
    for i, step in enumerate(rules.setup):
        if isinstance(step, MechanicStep):
            yield ("rules", "setup", i, "mechanic"), step.mechanic.name, "setup", step.mechanic.setup
    for i, turn_step in enumerate(rules.turn):
        for j, option in enumerate(turn_step.options):
            if option.mechanic is not None:
                yield ("rules", "turn", i, "options", j, "mechanic"), option.mechanic.name, "action", option.mechanic.action
            for k, effect in enumerate(option.do):
                if isinstance(effect, MechanicEffect):
                    yield ("rules", "turn", i, "options", j, "do", k, "mechanic"), effect.mechanic.name, "effect", effect.mechanic.effect
    for effect_id, effects in rules.effects.items():
        for k, effect in enumerate(effects):
            if isinstance(effect, MechanicEffect):
                yield ("rules", "effects", effect_id, k, "mechanic"), effect.mechanic.name, "effect", effect.mechanic.effect
    for i, item in enumerate(rules.scoring):
        if isinstance(item, MechanicScore):
            yield ("rules", "scoring", i, "mechanic"), item.mechanic.name, "score", item.mechanic.score
