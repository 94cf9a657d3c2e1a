"""The generic interpreter: a spec's rules data played on the Game/State API.

:class:`DataGame` compiles the rules data once per player count into flat tables
(zone and counter indices, per-design field tables, compiled expressions and
effect closures), as the hand-written engines precompute; :class:`DataState` is
a position made of plain lists, so a playout costs list operations and a few
compiled lambdas per action.

Actions are numbered ``option * W + parameter``: the option's index among every
option of every step (choices of a variable come after them, then chance steps)
times the width ``W``, plus the card design chosen (and the seat aimed at times
designs + 1, for an option with a ``target``), or the value chosen, or a roll's
total or the design a steal takes (see :mod:`cardgen.engine.interpreter.chance`).

Order within an option: the chosen card moves, the option's ``do`` effects
happen, then the card's own effect; then the turn goes where ``then`` says. A
``choose`` effect stops there and waits for the seat's decision (a ``roll`` or
``steal`` for chance's outcome, first), after which the turn goes on as ``then`` says.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any, Callable, Sequence, cast

from cardgen.engine.core import Game, GameInfo
from cardgen.engine.interpreter.acts import ActOption, option_act
from cardgen.engine.interpreter.compile_piles import UNROLLED_PILES
from cardgen.engine.interpreter.chance import ChanceStep
from cardgen.engine.interpreter.effects import EffectFunction, compile_effect, compile_move, who_seats
from cardgen.engine.interpreter.compile import (
    ExprFunction,
    Tables,
    compile_aimed_seats,
    compile_all_seats,
    compile_any_seat,
    compile_expression,
    compile_first_holding,
    constant_value,
    condition_terms,
    expression_code,
    field_tables,
    pile_codes,
    names_read,
)
from cardgen.engine.interpreter.offers import OfferFunction, StepAny, StepOffer, step_offer, step_offer_functions
from cardgen.engine.interpreter.scoring import all_or_nothing
from cardgen.engine.interpreter.scoring_majority import majority_bound, majority_scorer
from cardgen.engine.interpreter.scoring_one_of_each import one_of_each_bound, one_of_each_scorer
from cardgen.engine.interpreter.rows import compile_row_setup, counter_slots, pile_option, row_card_option, row_slots
from cardgen.engine.interpreter.sets import SetsScorer
from cardgen.engine.mechanics import ActFunction, ActionsFunction, Mechanic, make_mechanics
from cardgen.limits import MAX_GAME_ACTIONS, MAX_TURN_LIMIT
from cardgen.engine.interpreter.tricks import TrickRules
from cardgen.spec.models import Spec
from cardgen.spec.rules_check import KEEP_PASSES, decks_in_play, names_of
from cardgen.spec.rules_data import (
    AllOrNothingScore,
    DealStep,
    Effect,
    FirstSeatWhere,
    MoveSpec,
    MoveStep,
    SetAsideStep,
    MajorityScore,
    OneOfEachScore,
    SetsScore,
    SetStep,
    ShuffleStep,
    SumScore,
    Who,
)
from cardgen.spec.rules_mechanics import MechanicScore, MechanicStep
from cardgen.spec.rules_data import RepeatStep
from cardgen.spec.rules_rows import ShuffleBackStep

from cardgen.engine.interpreter.options import AGAIN, BY_OTHERS, BY_TARGET, BY_TURN, DEFAULT_LENGTH_BOUND, END, NEXT, CompiledOption as _Option, _fixed_per_design, _never
from cardgen.engine.interpreter.state import DataState

__all__ = ["DataGame", "DataState"]


class DataGame(Game):
    """A spec's rules data at one player count, compiled."""

    rules_id = "data"

    def __init__(self, spec: Spec, num_players: int) -> None:
        super().__init__(spec, num_players)
        rules = spec.rules_data
        if rules is None:
            raise ValueError(f"spec {spec.id!r} has no rules data")
        self.rules = rules
        setup = next((s for s in spec.setups if s.players == num_players), None)
        if setup is None:
            raise ValueError(f"no setup for {num_players} players")
        P = num_players
        # Designs: every distinct card of the decks in play.
        in_play = decks_in_play(rules)
        self.card_ids: list[str] = []
        self.card_names: list[str] = []
        self.copies: list[int] = []
        self.deck_designs: dict[str, list[int]] = {}
        designs: list[dict[str, Any]] = []
        locale = spec.locales[0]
        for deck in spec.decks:
            if deck.id not in in_play:
                continue
            indices = self.deck_designs.setdefault(deck.id, [])
            for card in deck.cards:
                indices.append(len(designs))
                designs.append({"id": card.id, "type": card.type, "effect": card.effect, **card.data})
                self.card_ids.append(card.id)
                self.card_names.append(card.name.get(locale, card.id))
                self.copies.append(card.copies)
        self.n_designs = len(designs)
        self.chances: list[ChanceStep] = []
        """Every roll and steal of the rules data, compiled, in the order they are met."""
        self.dice = {die.id: die for die in spec.dice}
        names = names_of(spec, rules)
        zone_index: dict[str, int] = {}
        slot = 0
        for name, zone in rules.zones.items():
            zone_index[name] = slot
            slot += P if zone.per_seat else row_slots(self, zone.under) if zone.under is not None else 1
        self.zone_names = list(rules.zones)
        self.zone_slots = slot
        self.zone_per_seat = {name: zone.per_seat for name, zone in rules.zones.items()}
        self.laid_out: list[int] = [d for under in dict.fromkeys(z.under for z in rules.zones.values() if z.under is not None) for d in self.deck_designs[under]]
        """The designs laid out in a row with piles under each (on the table for good: counted by conservation, once however many rows lie under the deck)."""
        self.unordered = [False] * slot
        for name, zone in rules.zones.items():
            for k in range(P if zone.per_seat else row_slots(self, zone.under) if zone.under is not None else 1):
                self.unordered[zone_index[name] + k] = not zone.ordered
        counter_index: dict[str, int] = {}
        slot = 0
        for name, counter in rules.counters.items():
            counter_index[name] = slot
            slot += counter_slots(self, counter)
        self.counter_slots = slot
        constants: dict[str, int] = {f"numbers.{k}": v for k, v in spec.numbers.items()}
        constants.update({f"setup.deal.{k}": v for k, v in setup.deal.items()})
        constants.update({f"setup.display.{k}": v for k, v in setup.display.items()})
        constants.update({f"setup.pieces.{k}": v for k, v in setup.pieces.items()})
        constants.update({f"component.{c.id}.count": c.count for c in spec.components})
        self.tables = Tables(
            names=names,
            zone_index=zone_index,
            counter_index=counter_index,
            variable_index={name: i for i, name in enumerate(rules.variables)},
            field_values=field_tables(designs, names.fields),
            constants=constants,
            players=P,
            card_design={card_id: design for design, card_id in enumerate(self.card_ids)},
            option_values={name: spec.options.get(name, option.default) for name, option in rules.options.items()},
            rows={name: (self.deck_designs[zone.under][0], row_slots(self, zone.under)) for name, zone in rules.zones.items() if zone.under is not None},
        )
        t = self.tables
        self.mechanics: list[Mechanic] = make_mechanics(self, rules.mechanics)
        """The named mechanics the rules use, in the order listed (each with its slice in ``DataState.m``)."""
        self.rounds_rotate = rules.rounds is not None and rules.rounds.first == "next"
        """Whether the first player moves on one seat each round (the turn after a round's last goes one seat further)."""
        for mechanic in self.mechanics:  # the conditions expressions ask, as mechanic(NAME, CONDITION)
            for condition in mechanic.declaration.conditions:
                t.namespace[f"_M_{mechanic.declaration.name}_{condition}"] = mechanic.query(condition)
        self.variable_values: list[list[Any]] = []
        for variable in rules.variables.values():
            seen: list[Any] = []
            for value in t.field_values[variable.values][:-1] if variable.values is not None else ():
                if value is not None and value not in seen:
                    seen.append(value)
            self.variable_values.append(seen)
        self.variable_start: list[Any] = [0 if variable.flag is not None else None for variable in rules.variables.values()]
        """Each variable's value before anything sets it: a yes-or-no variable (``flag``) starts lowered (0), so that
        ``full == 0`` and ``not full`` agree, as the rulebook's one clause for both promises; any other starts unset."""
        self.counter_start: list[int] = [0] * self.counter_slots
        self.counter_bounds: list[tuple[int, int]] = [(0, 0)] * self.counter_slots
        self.turn_resets: list[tuple[int, int]] = []
        for name, counter in rules.counters.items():
            start = constant_value(counter.start, t)
            if not counter.min <= start <= counter.max:
                raise ValueError(f"rules.counters.{name}.start is {start:,} with {P} players, outside the counter's range [{counter.min}, {counter.max}]")
            for k in range(counter_slots(self, counter)):
                self.counter_start[counter_index[name] + k] = start
                self.counter_bounds[counter_index[name] + k] = (counter.min, counter.max)
                if counter.reset == "turn":
                    self.turn_resets.append((counter_index[name] + k, start))
        # Card effects, by design (`target` is bound: the validator lets them read it only when every option choosing cards aims at a seat).
        compiled_effects = {effect_id: tuple(self._effect(e, card=True, target=True) for e in effects) for effect_id, effects in rules.effects.items()}
        self.effect_ids = list(rules.effects)
        self.design_effect: list[tuple[EffectFunction, ...] | None] = [
            compiled_effects.get(d["effect"]) if d["effect"] is not None else None for d in designs
        ]
        self.design_effect_index: list[int] = [self.effect_ids.index(d["effect"]) if d["effect"] in compiled_effects else -1 for d in designs]
        # Turn steps and options.
        step_index = {step.id: i for i, step in enumerate(rules.turn)}
        self.step_by: list[int] = [BY_TARGET if step.by == "target" else BY_OTHERS if step.by == "others" else BY_TURN for step in rules.turn]
        self.step_after: list[int] = [step_index[step.after] if step.after in step_index else END for step in rules.turn]
        """Where a `by: others` window goes when no seat is left to decide."""
        self.step_auto: list[bool] = [step.auto for step in rules.turn]
        self.steps: list[list[_Option]] = []
        options: list[_Option] = []
        for step in rules.turn:
            compiled: list[_Option] = []
            for option in step.options:
                choice = option.card
                then = {"end": END, "again": AGAIN, "next": NEXT}.get(option.then)
                if then is None:
                    then = step_index[option.then]
                compiled_option = _Option(
                    index=len(options),
                    key=f"{step.id}.{option.id}",
                    name=(option.name or {}).get(locale, option.id.replace("_", " ")),
                    card_from=zone_index[choice.from_] if choice else 0,
                    card_from_seat=bool(choice and rules.zones[choice.from_].per_seat),
                    card_to=zone_index[choice.to] if choice else 0,
                    card_to_seat=bool(choice and rules.zones[choice.to].per_seat),
                    where=compile_expression(choice.where, t, card=True, target=True) if choice and choice.where else None,
                    card_effects=bool(choice and choice.effects),
                    when=compile_expression(option.when, t) if option.when else None,
                    when_terms=tuple(condition_terms(option.when, t)) if option.when else (),
                    where_code=expression_code(choice.where, t, card=True, target=True) if choice and choice.where else None,
                    otherwise=option.otherwise,
                    do=tuple(self._effect(e, card=choice is not None, target=option.target is not None) for e in option.do),
                    then=then,
                    passes=(
                        option.passes if isinstance(option.passes, bool)
                        else None if option.passes == KEEP_PASSES
                        else compile_expression(option.passes, t, card=False, target=option.target is not None)
                    ),
                    chooses_card=choice is not None,
                    trick=bool(choice is not None and rules.tricks is not None and choice.to == rules.tricks.zone),
                    target=compile_expression(option.target.where, t, target=True) if option.target is not None else None,
                    aimed_seats=compile_aimed_seats(option.target.where, t) if option.target is not None else None,
                    from_target=bool(choice and choice.whose == "target"),
                    to_target=bool(choice and choice.to_whose == "target"),
                    fixed=_fixed_per_design(choice.where, t, len(designs)) if choice and choice.where else (),
                    mechanic=self._mechanic_action(option.mechanic.name, option.mechanic.action) if option.mechanic is not None else None,
                )
                if compiled_option.fixed and None not in compiled_option.fixed:
                    compiled_option = replace(compiled_option, all_fixed=True)
                if option.pile is not None or (choice is not None and choice.from_ in t.rows):  # a choice over a row of piles
                    row_choice = pile_option(self, option) if option.pile is not None else row_card_option(self, option)
                    compiled_option = replace(compiled_option, chooses_card=False, where=None, where_code=None, fixed=(), all_fixed=False, mechanic=cast(Any, row_choice))
                    if option.pile is not None and t.rows[option.pile.row][1] <= UNROLLED_PILES:
                        compiled_option = replace(compiled_option, pile_codes=tuple(pile_codes(option.pile.where, t, option.pile.row, target=option.target is not None)))
                compiled.append(compiled_option)
                options.append(compiled_option)
            self.steps.append(compiled)
        self.options = options
        self.live_steps: list[list[_Option]] = [[o for o in step if not _never(o.when)] for step in self.steps]
        """Each step's options that some position may offer (an option only another rule option's choice offers is left out)."""
        self.step_when: list[ExprFunction | None] = [compile_expression(step.when, t) if step.when else None for step in rules.turn]
        """Each step's condition: a step whose condition fails is passed over to the next (or the turn ends)."""
        self.n_steps = len(rules.turn)
        self.pass_over: list[Callable[[DataState], int] | None] = []
        """Per step, None when it has no condition (it is entered as it is), else one function giving the first step
        from it on whose condition holds (``n_steps``: none, the turn ends): a run of conditional steps (a play passing
        over the resolution steps of the other cards) is read in one call. Each condition is read for the seat that
        would decide its step: the seat aimed at for ``by: target``, else the seat whose turn it is."""
        for first in range(self.n_steps):
            run: list[tuple[int | str, str]] = []
            for step in rules.turn[first:]:
                if not step.when:
                    break
                run.append((step.when, "s.tg" if step.by == "target" else "s.seat"))
            self.pass_over.append(compile_first_holding(run, t, first) if run else None)
        end = rules.end
        self.end_any_seat = compile_any_seat(end.any_seat, t) if end.any_seat else None
        self.end_table = compile_expression(end.table, t) if end.table else None
        self.end_all_seats = compile_all_seats(end.all_seats, t) if end.all_seats else None
        self.end_at_turn = end.at == "turn"
        self.end_stuck = end.stuck
        """Whether a position where the seat to decide has no legal action ends the game (``end.stuck``)."""
        """Whether the end is looked at only as a turn ends (``end.at: turn``), not after every action."""
        self.end_after_action, self.end_as_turn_starts = self._end_reads(rules, t)
        self.tiebreaks = [compile_expression(source, t) for source in rules.tiebreaks]
        self.all_pass = end.all_pass
        self.end_mechanic = self.mechanic(end.mechanic.name).condition(end.mechanic.condition) if end.mechanic is not None else None
        self.turn_limit = constant_value(end.turn_limit, t) if end.turn_limit is not None else None
        self.final_when = compile_expression(end.final.when, t) if end.final is not None else None
        """A final round's condition, checked at the end of every turn (None: no final round)."""
        self.final_turns = constant_value(end.final.turns, t) if end.final is not None else 0
        if not 0 <= self.final_turns <= MAX_TURN_LIMIT:
            raise ValueError(f"rules.end.final.turns is {self.final_turns:,} with {P} players; it must lie between 0 and {MAX_TURN_LIMIT:,}")
        if self.turn_limit is not None and not 1 <= self.turn_limit <= MAX_TURN_LIMIT:
            raise ValueError(f"rules.end.turn_limit is {self.turn_limit:,} with {P} players; it must lie between 1 and {MAX_TURN_LIMIT:,}")
        self.scorers = [self._scorer(item) for item in rules.scoring]
        self.tiebreakers: list[SetsScorer] = [scorer for scorer in self.scorers if isinstance(scorer, SetsScorer) and scorer.tie_kinds]
        """Scoring items with tiebreakers, in order: after the total score, a ranking compares their tiebreak values."""
        self.trick_rules = (
            TrickRules(rules.tricks, t, P, [self._effect(e, card=False, target=False) for e in rules.tricks.after]) if rules.tricks is not None else None
        )
        self.card_width = self.n_designs + 1
        """The span of card designs in an action's parameter; an option aimed at seat k adds k times it."""
        seats = P if any(o.target is not None for o in options) else 1
        totals = [chance.totals[-1][0] + 1 for chance in self.chances if chance.totals]
        widths = [o.mechanic[0].width(o.mechanic[1]) for o in options if o.mechanic is not None]
        self.width = max([seats * self.card_width] + [len(v) for v in self.variable_values] + totals + widths)
        self.step_offers: list[list[OfferFunction]] = []
        self.step_fallbacks: list[list[OfferFunction]] = []
        """Each step's live options as the functions listing their actions (:mod:`~cardgen.engine.interpreter.offers`),
        split once: those offered first, and the ``otherwise`` ones offered only when the first offer nothing (what
        ``step_offer`` calls for the shapes it does not write inline; the tests compare them with the plain way)."""
        self.step_offer: list[StepOffer] = []
        """Each step's listing as one function (:func:`~cardgen.engine.interpreter.offers.step_offer`): what the
        functions of ``step_offers`` and ``step_fallbacks`` list, with the simple shapes written inline."""
        self.step_any: list[StepAny] = []
        """Each step's listing written to stop at the first action: whether it offers the seat anything."""
        for live in self.live_steps:
            self.step_offers.append(step_offer_functions([o for o in live if not o.otherwise], self.width, self.card_width, self.n_designs)[0])
            self.step_fallbacks.append(step_offer_functions([o for o in live if o.otherwise], self.width, self.card_width, self.n_designs)[0])
            listing, anything = step_offer(
                [o for o in live if not o.otherwise], [o for o in live if o.otherwise], self.width, self.card_width, self.n_designs, t.namespace,
            )
            self.step_offer.append(listing)
            self.step_any.append(anything)
        self.only_action: list[int] = [
            live[0].index * self.width if len(live) == 1 and live[0].when is None and not live[0].chooses_card and live[0].target is None and live[0].mechanic is None else -1
            for live in self.live_steps
        ]
        """Per step, its one action when it has a single option with no condition, card, seat or mechanic's action to choose (else -1)."""
        self.acts: list[ActOption] = [option_act(self, option) for option in options]
        """Per option, the function carrying it out (:mod:`~cardgen.engine.interpreter.acts`)."""
        self.choice_base = len(options)
        self.chance_base = self.choice_base + len(self.variable_values)
        self.arrange_base = self.chance_base + len(self.chances)
        """The option index of an arrangement's choices (after every chance step): ``arrange_base * width + design``."""
        self.roll_actions: list[list[int] | None] = [
            [(self.chance_base + k) * self.width + total for total, _ in chance.totals] if chance.kind == "roll" else None for k, chance in enumerate(self.chances)
        ]
        """Per chance step, a roll's outcomes as actions (the same in every position); None for a steal."""
        self.first_where = compile_expression(rules.first_player.where, t) if isinstance(rules.first_player, FirstSeatWhere) else None
        self.setup_rules = rules
        self.setup_steps = [self._setup_step(step) for step in rules.setup]
        total_cards = sum(self.copies)
        bound = 0
        for item in rules.scoring:
            if isinstance(item, OneOfEachScore):
                bound += one_of_each_bound(item, t, self.copies)
            elif isinstance(item, MajorityScore):
                bound += majority_bound(item, t)
            elif isinstance(item, SetsScore):
                bound += next(scorer.bound for scorer, scored in zip(self.scorers, rules.scoring) if scored is item and isinstance(scorer, SetsScorer))
            elif isinstance(item, MechanicScore):
                bound += self.mechanic(item.mechanic.name).score_bound(item.mechanic.score)
            elif isinstance(item, (SumScore, AllOrNothingScore)):
                summed = item.sum if isinstance(item, SumScore) else item.all_or_nothing
                values = t.field_values[summed.field][:-1]
                bound += sum(abs(v) * n for v, n in zip(values, self.copies) if isinstance(v, int))
            else:
                counter = rules.counters[item.counter]
                bound += max(abs(counter.min), abs(counter.max))
        self._info = GameInfo(
            num_players=P,
            max_game_length=min(self.turn_limit * (total_cards + 16), MAX_GAME_ACTIONS) if self.turn_limit else DEFAULT_LENGTH_BOUND,
            min_score=-bound,
            max_score=bound,
        )
        self.total_cards = total_cards

    def _end_reads(self, rules: Any, t: Tables) -> tuple[bool, bool]:
        """When the end (not ``end.at: turn``) needs looking at: after an action (it reads what an action may change:
        a zone, counter, variable, the aim, the run of passes, a mechanic's slice) and as a turn begins right after
        the end was looked at when the last turn ended (it reads what a new turn changes: the seat, the turn, the
        aim, a counter reset each turn, a mechanic's condition). Looking where nothing it reads has changed since
        the last look gives the same answer, so it is left out; the first turn of a game always looks."""
        end = rules.end
        if end.at == "turn":
            return False, False
        per_seat = {name for name, own in t.names.zones.items() if own} | {name for name, own in t.names.counters.items() if own}
        position = set(t.names.zones) | set(t.names.counters) | set(t.names.variables) | {"target"}
        turn_flow = {"seat", "active", "turn", "target"} | {name for name, counter in rules.counters.items() if counter.reset == "turn"}
        after_action = end.all_pass or end.mechanic is not None
        as_turn_starts = end.mechanic is not None
        for source, seat_is_turns in ((end.table, True), (end.any_seat, False), (end.all_seats, False)):
            if not source:
                continue
            names = names_read(source, t)
            after_action = after_action or bool(names & position)
            # end.table is read for the seat whose turn it is: its per-seat zones and counters change with the seat
            as_turn_starts = as_turn_starts or bool(names & turn_flow) or (seat_is_turns and bool(names & per_seat))
        return after_action, as_turn_starts

    # -- compiling effects and scoring ------------------------------------------------------------

    def _who(self, who: Who) -> Callable[["DataState", int], Sequence[int]]:
        return who_seats(self.num_players, who)

    def _move(self, move: MoveSpec, card: bool, aimed: bool = False) -> EffectFunction:
        return compile_move(self, move, card, aimed)

    def _effect(self, effect: Effect, *, card: bool, target: bool) -> EffectFunction:
        return compile_effect(self, effect, card=card, target=target)

    def mechanic(self, name: str) -> Mechanic:
        """The named mechanic ``name`` of these rules."""
        return next(m for m in self.mechanics if m.declaration.name == name)

    def _mechanic_action(self, name: str, action: str) -> tuple[Mechanic, str, ActionsFunction, ActFunction]:
        mechanic = self.mechanic(name)
        return mechanic, action, mechanic.actions(action), mechanic.act(action)

    def _scorer(self, item: Any) -> Callable[["DataState", int], int]:
        t = self.tables
        if isinstance(item, MechanicScore):
            return self.mechanic(item.mechanic.name).score(item.mechanic.score)
        if isinstance(item, AllOrNothingScore):
            return all_or_nothing(item, t, self.num_players)
        if isinstance(item, OneOfEachScore):
            return one_of_each_scorer(item, t, self.copies)
        if isinstance(item, MajorityScore):
            return majority_scorer(item, t, self.num_players)
        if isinstance(item, SetsScore):
            return SetsScorer(item, t, self.copies)
        if isinstance(item, SumScore):
            zone, per_seat = t.zone_index[item.sum.zone], t.names.zones[item.sum.zone]
            values, sign, runs = t.field_values[item.sum.field], item.sum.sign, item.sum.runs

            def total(s: DataState, seat: int) -> int:
                numbers = [values[d] for d in s.z[zone + (seat if per_seat else 0)] if isinstance(values[d], int)]
                if runs == "lowest":
                    present = set(numbers)
                    numbers = [n for n in present if n - 1 not in present]
                return sign * sum(numbers)
            return total
        index, per_seat = t.counter_index[item.counter], t.names.counters[item.counter]
        sign = item.sign
        return lambda s, seat: sign * s.c[index + (seat if per_seat else 0)]

    def _setup_step(self, step: Any) -> Callable[["DataState", random.Random], None]:
        """One setup step, compiled: the deck's cards in spec order, shuffled with the seeded generator,
        their top at the end of the list, dealt one card at a time round the table from the first seat."""
        t = self.tables
        if isinstance(step, MechanicStep):
            return self.mechanic(step.mechanic.name).setup(step.mechanic.setup)
        if isinstance(step, (RepeatStep, ShuffleBackStep)):
            return compile_row_setup(self, step)
        if isinstance(step, ShuffleStep):
            target = t.zone_index[step.shuffle.to]
            cards = [d for d in self.deck_designs[step.shuffle.deck] for _ in range(self.copies[d])]

            def shuffle(s: DataState, rng: random.Random) -> None:
                pile = s.z[target]
                pile.extend(cards)
                rng.shuffle(pile)
            return shuffle
        if isinstance(step, DealStep):
            source = t.zone_index[step.deal.from_]
            target, per_seat = t.zone_index[step.deal.to], self.zone_per_seat[step.deal.to]
            count, players = constant_value(step.deal.count, t), self.num_players

            def deal(s: DataState, rng: random.Random) -> None:
                pile = s.z[source]
                for _ in range(count):
                    if not pile:
                        break
                    for seat in range(players):
                        if pile:
                            s.z[target + (seat if per_seat else 0)].append(pile.pop())
            return deal
        if isinstance(step, MoveStep):
            move = self._move(step.move, False)
            return lambda s, rng: move(s, 0, 0)
        if isinstance(step, SetAsideStep):
            where = compile_expression(step.set_aside.where, t, card=True)
            kept_at, aside_at = t.zone_index[step.set_aside.from_], t.zone_index[step.set_aside.to]

            def set_aside(s: DataState, rng: random.Random) -> None:
                kept, aside = s.z[kept_at], s.z[aside_at]
                aside.extend(d for d in kept if where(s, 0, d))
                kept[:] = [d for d in kept if not where(s, 0, d)]
            return set_aside
        assert isinstance(step, SetStep)
        var, value = t.variable_index[step.set.var], compile_expression(step.set.value, t)

        def set_variable(s: DataState, rng: random.Random) -> None:
            s.v[var] = value(s, 0, 0)
        return set_variable

    # -- the Game API -----------------------------------------------------------------------------

    def info(self) -> GameInfo:
        return self._info

    def new_initial_state(self, seed: int) -> "DataState":
        rng = random.Random(seed)
        s = DataState(self)
        for step in self.setup_steps:
            step(s, rng)
        s.seat = rng.randrange(self.num_players) if self.setup_rules.first_player == "random" else 0
        if self.first_where is not None:
            s.seat = next((seat for seat in range(self.num_players) if self.first_where(s, seat, 0)), 0)
        s.start_turn()
        s.carry_out_forced()
        if self.end_stuck:
            s.end_if_stuck()
        return s

    def slot(self, zone: str, seat: int = 0) -> int:
        """The index in ``DataState.z`` of ``zone`` (``seat``'s own, for a per-seat zone)."""
        return self.tables.zone_index[zone] + (seat if self.zone_per_seat[zone] else 0)

    def design(self, card_id: str) -> int:
        """The design index of the card ``card_id`` (what zones hold and card choices name)."""
        return self.card_ids.index(card_id)

    def usage_keys(self) -> list[str]:
        """Every option taken and every card effect carried out at least once, except the options whose condition
        is false in every position (one offered only under another choice of a rule option)."""
        return [f"option:{o.key}" for o in self.options if not _never(o.when)] + [f"effect:{e}" for e in self.effect_ids] + [k for m in self.mechanics for k in m.usage_keys()]

    def proven_unusable(self) -> dict[str, str]:
        """What the named mechanics prove they can never use at this player count."""
        return {key: reason for m in self.mechanics for key, reason in m.proven_unusable().items()}


