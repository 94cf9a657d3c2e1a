"""Cards that change owner in rules data checked against the zones: a move to another seat's zone (`to_who`) and a
swap of two seats' zones (a card given to the aimed seat, `to_whose: target`, is checked with the cards chosen from
it, :func:`cardgen.spec.rules_chance.chosen_from_target`).

Kept apart from :mod:`cardgen.spec.rules_check` so each construct's checks live together.
"""

from __future__ import annotations

from typing import Iterator

from cardgen.spec.rules_chance import binds_target
from cardgen.spec.rules_check import all_effects
from cardgen.spec.rules_data import MoveEffect, RulesData, SwapEffect
from cardgen.spec.source import PathKey

CODE = "CG175"


def give_problems(rules: RulesData) -> Iterator[tuple[PathKey, str, str]]:
    """A seat named where no seat is aimed at, or a shared zone where a seat's own is needed."""
    def shared(zone: str) -> bool:
        return zone in rules.zones and not rules.zones[zone].per_seat

    for path, effect, _, _ in all_effects(rules):
        if isinstance(effect, MoveEffect) and effect.move.to_who is not None:
            if shared(effect.move.to):
                yield path + ("move", "to_who"), f"zone {effect.move.to!r} is shared; `to_who` names whose own zone the cards go to", CODE
            if effect.move.to_who == "target" and not binds_target(rules, path):
                yield path + ("move", "to_who"), "`to_who: target` names the seat an option of this turn aimed at, and no `target` is chosen before here (give the option a `target`)", CODE
        elif isinstance(effect, SwapEffect):
            swap = effect.swap
            for key, zone in (("zone", swap.zone), ("other", swap.other)):
                if zone is not None and zone not in rules.zones:
                    yield path + ("swap", key), f"no zone {zone!r} (zones: {', '.join(sorted(rules.zones))})", CODE
                elif zone is not None and shared(zone):
                    yield path + ("swap", key), f"zone {zone!r} is shared; a swap exchanges two seats' own zones", CODE
            if swap.with_ == "target" and not binds_target(rules, path):
                yield path + ("swap", "with"), "`with: target` names the seat an option of this turn aimed at, and no `target` is chosen before here (give the option a `target`)", CODE
