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

import ast
import random
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

from cardgen.engine.core import CHANCE, TERMINAL, Action, Game, GameInfo, Seat, State, Termination
from cardgen.engine.interpreter.chance import ChanceStep, card_outcomes
from cardgen.engine.interpreter.effects import EffectFunction, compile_effect, compile_move, who_seats
from cardgen.engine.interpreter.compile import ExprFunction, Tables, compile_all_seats, compile_any_seat, compile_expression, constant_value, field_tables
from cardgen.engine.interpreter.scoring import all_or_nothing
from cardgen.engine.interpreter.scoring_one_of_each import one_of_each_bound, one_of_each_scorer
from cardgen.engine.interpreter.sets import SetsScorer
from cardgen.engine.mechanics import ActFunction, ActionsFunction, Mechanic, make_mechanics
from cardgen.limits import MAX_GAME_ACTIONS, MAX_TURN_LIMIT
from cardgen.engine.interpreter.tricks import TrickRules
from cardgen.spec.models import Spec
from cardgen.spec.rules_check import KEEP_PASSES, decks_in_play, names_of
from cardgen.spec.rules_expr import parse_expression
from cardgen.spec.rules_data import (
    AllOrNothingScore,
    DealStep,
    Effect,
    FirstSeatWhere,
    MoveSpec,
    MoveStep,
    SetAsideStep,
    OneOfEachScore,
    SetsScore,
    SetStep,
    ShuffleStep,
    SumScore,
    Who,
)
from cardgen.spec.rules_mechanics import MechanicScore, MechanicStep

END, AGAIN, NEXT = -1, -2, -3
BY_TURN, BY_TARGET, BY_OTHERS = 0, 1, 2
"""Who decides a step: the seat whose turn it is, the seat aimed at this turn, or each other seat in turn."""
DEFAULT_LENGTH_BOUND = 10_000
"""Actions a game without a turn limit may take before the checks call it endless (CG504)."""



@dataclass(frozen=True)
class _Option:
    index: int
    key: str
    """``step.option``, for usage counts and action names."""
    name: str
    card_from: int
    card_from_seat: bool
    card_to: int
    card_to_seat: bool
    where: ExprFunction | None
    card_effects: bool
    when: ExprFunction | None
    otherwise: bool
    do: tuple[EffectFunction, ...]
    then: int
    passes: bool | ExprFunction | None
    """Whether taking the option counts as a pass: a constant, an expression read as it is taken, or None
    (``passes: keep``: the run of passes stays as it is)."""
    chooses_card: bool
    trick: bool = False
    """Whether the card chosen is played to the trick (its zone is ``tricks.zone``)."""
    target: ExprFunction | None = None
    """An option aimed at a seat: which seats (``target`` bound to each in turn) it may aim at."""
    mechanic: tuple[Mechanic, str, ActionsFunction, ActFunction] | None = None
    """An option whose choices are a named mechanic's action: the mechanic, the action's name, its offer and its act."""
    from_target: bool = False
    """Whether the card is chosen from the aimed-at seat's zone (``card.whose: target``), not the deciding seat's."""
    fixed: tuple[bool | None, ...] = ()
    """Per design, the card condition worked out once where it reads nothing of the position (None: read it in play)."""
    all_fixed: bool = False
    """Whether the card condition is known for every design before play (``fixed`` holds no None)."""


def _never(when: ExprFunction | None) -> bool:
    """Whether a condition is false whatever the position: it reads nothing of a state (rule options, numbers and
    the player count are folded in when the game is made) and gives false for every seat tried."""
    if when is None:
        return False
    try:
        return not any(when(None, seat, 0) for seat in (0, 1))
    except (AttributeError, TypeError):  # it reads the position
        return False


def _fixed_per_design(where: str, tables: Tables, designs: int) -> tuple[bool | None, ...]:
    """Per design, whether a card condition holds, when it can be told from the card alone (it reads nothing of the
    position for that card: ``card.type == 'construction'``); None where it must be read in play. A condition
    naming a seat is always read in play."""
    tree, _ = parse_expression(where, tables.names, card=True, target=True)
    if any(isinstance(node, ast.Name) and node.id in ("seat", "target", "active", "turn") for node in ast.walk(tree)):
        return (None,) * designs
    condition = compile_expression(where, tables, card=True, target=True)
    fixed: list[bool | None] = []
    for design in range(designs):
        try:
            fixed.append(bool(condition(None, 0, design)))
        except (AttributeError, TypeError):  # it reads the position for this card
            fixed.append(None)
    return tuple(fixed)


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
            slot += P if zone.per_seat else 1
        self.zone_names = list(rules.zones)
        self.zone_slots = slot
        self.zone_per_seat = {name: zone.per_seat for name, zone in rules.zones.items()}
        self.unordered = [False] * slot
        for name, zone in rules.zones.items():
            for k in range(P if zone.per_seat else 1):
                self.unordered[zone_index[name] + k] = not zone.ordered
        counter_index: dict[str, int] = {}
        slot = 0
        for name, counter in rules.counters.items():
            counter_index[name] = slot
            slot += P if counter.per_seat else 1
        self.counter_slots = slot
        constants: dict[str, int] = {f"numbers.{k}": v for k, v in spec.numbers.items()}
        constants.update({f"setup.deal.{k}": v for k, v in setup.deal.items()})
        constants.update({f"setup.display.{k}": v for k, v in setup.display.items()})
        constants.update({f"setup.pieces.{k}": v for k, v in setup.pieces.items()})
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
        )
        t = self.tables
        self.mechanics: list[Mechanic] = make_mechanics(self, rules.mechanics)
        """The named mechanics the rules use, in the order listed (each with its slice in ``DataState.m``)."""
        self.variable_values: list[list[Any]] = []
        for variable in rules.variables.values():
            seen: list[Any] = []
            for value in t.field_values[variable.values][:-1] if variable.values is not None else ():
                if value is not None and value not in seen:
                    seen.append(value)
            self.variable_values.append(seen)
        self.counter_start: list[int] = [0] * self.counter_slots
        self.counter_bounds: list[tuple[int, int]] = [(0, 0)] * self.counter_slots
        self.turn_resets: list[tuple[int, int]] = []
        for name, counter in rules.counters.items():
            start = constant_value(counter.start, t)
            if not counter.min <= start <= counter.max:
                raise ValueError(f"rules.counters.{name}.start is {start:,} with {P} players, outside the counter's range [{counter.min}, {counter.max}]")
            for k in range(P if counter.per_seat else 1):
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
                    from_target=bool(choice and choice.whose == "target"),
                    fixed=_fixed_per_design(choice.where, t, len(designs)) if choice and choice.where else (),
                    mechanic=self._mechanic_action(option.mechanic.name, option.mechanic.action) if option.mechanic is not None else None,
                )
                if compiled_option.fixed and None not in compiled_option.fixed:
                    compiled_option = replace(compiled_option, all_fixed=True)
                compiled.append(compiled_option)
                options.append(compiled_option)
            self.steps.append(compiled)
        self.options = options
        self.live_steps: list[list[_Option]] = [[o for o in step if not _never(o.when)] for step in self.steps]

        """Each step's options that some position may offer (an option only another rule option's choice offers is left out)."""
        self.step_when: list[ExprFunction | None] = [compile_expression(step.when, t) if step.when else None for step in rules.turn]
        """Each step's condition: a step whose condition fails is passed over to the next (or the turn ends)."""
        end = rules.end
        self.end_any_seat = compile_any_seat(end.any_seat, t) if end.any_seat else None
        self.end_table = compile_expression(end.table, t) if end.table else None
        self.end_all_seats = compile_all_seats(end.all_seats, t) if end.all_seats else None
        self.end_at_turn = end.at == "turn"
        """Whether the end is looked at only as a turn ends (``end.at: turn``), not after every action."""
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
        self.only_action: list[int] = [
            live[0].index * self.width if len(live) == 1 and live[0].when is None and not live[0].chooses_card and live[0].target is None and live[0].mechanic is None else -1
            for live in self.live_steps
        ]
        """Per step, its one action when it has a single option with no condition, card, seat or mechanic's action to choose (else -1)."""
        self.choice_base = len(options)
        self.chance_base = self.choice_base + len(self.variable_values)
        self.arrange_base = self.chance_base + len(self.chances)
        """The option index of an arrangement's choices (after every chance step): ``arrange_base * width + design``."""
        self.first_where = compile_expression(rules.first_player.where, t) if isinstance(rules.first_player, FirstSeatWhere) else None
        self.setup_rules = rules
        self.setup_steps = [self._setup_step(step) for step in rules.setup]
        total_cards = sum(self.copies)
        bound = 0
        for item in rules.scoring:
            if isinstance(item, OneOfEachScore):
                bound += one_of_each_bound(item, t, self.copies)
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


class DataState(State):
    """A position of a data game: zones, counters and variables as plain lists."""

    __slots__ = ("g", "z", "c", "v", "seat", "decider", "forced", "step", "direction", "skips", "extra", "passes", "turn", "over", "pending", "pending_then", "option_uses", "effect_uses",
                 "trick_seats", "lead_next", "tricks_taken", "tg", "chance", "chance_from", "chance_to", "final_left",
                 "arranging", "arrange_low", "arrange_next", "m")

    def __init__(self, game: DataGame) -> None:
        self.g = game
        self.z: list[list[int]] = [[] for _ in range(game.zone_slots)]
        self.c: list[int] = list(game.counter_start)
        self.v: list[Any] = [None] * len(game.variable_values)
        self.seat = 0
        """The seat whose turn it is."""
        self.decider = -1
        """The seat deciding a reaction step (-1: the seat whose turn it is)."""
        self.forced = 0
        """Actions carried out by ``auto`` steps so far (past the game's length bound, they wait for a decision)."""
        self.step = 0
        self.direction = 1
        self.skips = 0
        self.extra = False
        self.passes = 0
        self.turn = 0
        self.over: Termination | None = None
        self.pending = -1
        self.pending_then = END
        self.option_uses = [0] * len(game.options)
        self.effect_uses = [0] * len(game.effect_ids)
        self.trick_seats: list[int] = []
        """The seats that have played to the current trick, in order (its cards are in the trick zone)."""
        self.lead_next = -1
        """The seat that won the trick just completed and leads next (-1: the turn passes as usual)."""
        self.tricks_taken = 0
        self.tg = -1
        """The seat the last option aimed at this turn aims at (-1: none yet); it lasts until the turn ends."""
        self.chance = -1
        """The chance step (a roll or a steal) the state waits for, by its index in the Game's (-1: none)."""
        self.chance_from = self.chance_to = -1
        """A steal waiting for chance: the zone slot a card is taken from and the one it goes to."""
        self.final_left = -1
        """Turns still to play in the final round (-1: it has not begun)."""
        self.arranging = -1
        """The zone slot whose top cards the seat deciding is arranging (-1: none)."""
        self.arrange_low = self.arrange_next = -1
        """While arranging: the lowest index of the cards arranged, and the index whose card is chosen next (from the top down)."""
        self.m: list[Any] = [mechanic.start() for mechanic in game.mechanics]
        """Each named mechanic's own slice of the position, in the Game's order."""

    def start_turn(self) -> None:
        """Begin the turn of ``self.seat``: turn counters back to their start."""
        self.turn += 1
        self.step = 0
        self.decider = -1
        self.tg = -1
        for index, start in self.g.turn_resets:
            self.c[index] = start
        if self.g.turn_limit is not None and self.turn > self.g.turn_limit:
            self.over = Termination.TURN_LIMIT
        else:
            if not self.g.end_at_turn:
                self._check_end()
            if self.over is None:
                self._enter(0, begun=False)

    def _enter(self, step: int, begun: bool = True) -> None:
        """Go on to ``step``, passing over every step whose ``when`` fails (past the last step the turn ends),
        decided by whom its ``by`` says.

        A turn none of whose steps may be taken (``begun`` false) is a dead end (no legal action, CG503),
        never a loop of empty turns. A step's ``when`` is read for the seat that would decide it."""
        g = self.g
        whens = g.step_when
        while step < len(whens):
            when = whens[step]
            if when is None or when(self, self.tg if g.step_by[step] == BY_TARGET else self.seat, 0):
                break
            step += 1
        else:
            if not begun:
                self.step, self.decider = -1, -1
                return
            self._end_turn()
            return
        self.step = step
        by = g.step_by[step]
        if by == BY_TURN:
            self.decider = -1
        elif by == BY_TARGET:
            self.decider = self.tg
        else:
            self._open_window(self.seat)

    def _check_end(self) -> None:
        g = self.g
        if g.end_table is not None and g.end_table(self, self.seat, 0):
            self.over = Termination.NORMAL
        elif g.end_any_seat is not None and g.end_any_seat(self, 0, 0):
            self.over = Termination.NORMAL
        elif g.end_all_seats is not None and g.end_all_seats(self, 0, 0):
            self.over = Termination.NORMAL
        elif g.all_pass and self.passes >= g.num_players:
            self.over = Termination.NO_LEGAL_MOVES
        elif g.end_mechanic is not None and g.end_mechanic(self):
            self.over = Termination.NORMAL

    def deciding_seat(self) -> Seat:
        """The seat whose decision (or whose chance step) the state waits for: the turn's seat, or a reaction's."""
        return self.seat if self.decider < 0 else self.decider

    def current_player(self) -> Seat:
        return TERMINAL if self.over is not None else CHANCE if self.chance >= 0 else self.seat if self.decider < 0 else self.decider

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """A roll's totals or a steal's cards, each with its exact probability (none when no chance step waits)."""
        if self.chance < 0 or self.over is not None:
            return []
        g = self.g
        step = g.chances[self.chance]
        base = (g.chance_base + self.chance) * g.width
        if step.kind == "roll":
            return step.outcomes(base)
        return card_outcomes(self.z[self.chance_from], base)

    def is_terminal(self) -> bool:
        return self.over is not None

    def termination(self) -> Termination | None:
        return self.over

    def _offered(self, option: _Option, seen: dict[int, list[int]] | None = None) -> list[Action]:
        """The actions ``option`` offers now (``seen``: the distinct designs of the zones already looked at in this call)."""
        g = self.g
        seat = self.seat if self.decider < 0 else self.decider
        if option.when is not None and not option.when(self, seat, 0):
            return []
        where, fixed = option.where, option.fixed
        cards: list[int] = []
        if option.chooses_card and not option.from_target:  # the cards first: no card, no need to look at seats
            slot = option.card_from + (seat if option.card_from_seat else 0)
            zone = self.z[slot]
            if not zone:
                return []
            if seen is None:
                distinct = sorted(set(zone))
            else:
                distinct = seen.get(slot) or seen.setdefault(slot, sorted(set(zone)))
            if where is None:
                cards = distinct
            elif option.all_fixed:
                cards = [d for d in distinct if fixed[d]]
            else:
                for d in distinct:
                    known = fixed[d]
                    if known or (known is None and where(self, seat, d)):
                        cards.append(d)
            if not cards:
                return []
        base = option.index * g.width
        if option.mechanic is not None:
            return [base + p for p in option.mechanic[2](self, seat)]
        bases = [base]
        if option.target is not None:
            aimed, aim = option.target, self.tg
            bases = []
            for target in range(g.num_players):
                self.tg = target
                if aimed(self, seat, 0):
                    bases.append(base + target * g.card_width)
            self.tg = aim
        if not option.chooses_card:
            return bases
        where = option.where
        if option.from_target and option.target is not None:  # the cards of each seat aimed at
            offered: list[Action] = []
            for first in bases:
                self.tg = (first - base) // g.card_width
                zone = self.z[option.card_from + (self.tg if option.card_from_seat else 0)]
                offered.extend(first + d for d in sorted(set(zone)) if where is None or where(self, seat, d))
            self.tg = -1
            return offered
        if option.from_target:
            zone = self.z[option.card_from + (self.tg if option.card_from_seat else 0)]
            cards = [d for d in sorted(set(zone)) if where is None or where(self, seat, d)]
        if option.trick:
            assert g.trick_rules is not None
            cards = g.trick_rules.playable(self, seat, cards)
        return [first + d for first in bases for d in cards]

    def legal_actions(self) -> list[Action]:
        if self.over is not None:
            return []
        g = self.g
        if self.chance >= 0:
            return [action for action, _ in self.chance_outcomes()]
        if self.pending >= 0:
            base = (g.choice_base + self.pending) * g.width
            return [base + k for k in range(len(g.variable_values[self.pending]))]
        if self.arranging >= 0:
            base = g.arrange_base * g.width
            return [base + d for d in sorted(set(self.z[self.arranging][self.arrange_low : self.arrange_next + 1]))]
        if self.step < 0:
            return []
        actions: list[Action] = []
        fallbacks: list[_Option] = []
        seen: dict[int, list[int]] = {}
        for option in g.live_steps[self.step]:
            if option.otherwise:
                fallbacks.append(option)
            else:
                actions.extend(self._offered(option, seen))
        if not actions:
            for option in fallbacks:
                actions.extend(self._offered(option, seen))
        actions.sort()
        return actions

    def apply_action(self, action: Action) -> None:
        self._apply(action)
        self.carry_out_forced()

    def carry_out_forced(self) -> None:
        """Carry out every step marked ``auto`` that offers exactly one action, one after another."""
        g = self.g
        bound = g.info().max_game_length
        while self.over is None and self.chance < 0 and self.pending < 0 and self.arranging < 0 and self.step >= 0 and g.step_auto[self.step] and self.forced < bound:
            only = g.only_action[self.step]
            if only >= 0:  # a step with one option that offers one action in every position: no need to list it
                self.forced += 1
                self._apply(only)
                continue
            actions = self.legal_actions()
            if len(actions) != 1:
                return
            self.forced += 1
            self._apply(actions[0])

    def _apply(self, action: Action) -> None:
        g = self.g
        index, parameter = divmod(action, g.width)
        seat = self.deciding_seat()
        if index >= g.arrange_base:
            self._arrange(parameter)
            return
        if index >= g.chance_base:
            self._resolve_chance(index - g.chance_base, parameter)
            return
        if index >= g.choice_base:
            var = index - g.choice_base
            self.v[var] = g.variable_values[var][parameter]
            self.pending = -1
            self._then(self.pending_then)
            return
        option = g.options[index]
        self.option_uses[index] += 1
        card = parameter
        if option.target is not None:
            self.tg, card = divmod(parameter, g.card_width)
        passes = option.passes if option.passes is None or isinstance(option.passes, bool) else bool(option.passes(self, seat, card))
        if option.mechanic is not None:
            option.mechanic[3](self, seat, parameter)
        if option.chooses_card:
            owner = self.tg if option.from_target else seat
            source = self.z[option.card_from + (owner if option.card_from_seat else 0)]
            source.remove(card)
            self.z[option.card_to + (seat if option.card_to_seat else 0)].append(card)
        for effect in option.do:
            effect(self, seat, card)
        if option.chooses_card and option.card_effects:
            effects = g.design_effect[card]
            if effects is not None:
                self.effect_uses[g.design_effect_index[card]] += 1
                for effect in effects:
                    effect(self, seat, card)
        if option.trick:
            assert g.trick_rules is not None
            g.trick_rules.played(self, seat)
        if passes is not None:
            self.passes = self.passes + 1 if passes else 0
        if self.pending >= 0 or self.chance >= 0 or self.arranging >= 0:
            self.pending_then = option.then
            if not g.end_at_turn:
                self._check_end()
            return
        self._then(option.then)

    def _resolve_chance(self, step: int, outcome: int) -> None:
        """The outcome of the chance step waited for: a total rolled into its variable, or the design of the card taken."""
        chance = self.g.chances[step]
        if chance.kind == "roll":
            if chance.doubles >= 0:
                outcome, self.v[chance.doubles] = divmod(outcome, 2)
            self.v[chance.var] = outcome
        else:
            self.z[self.chance_from].remove(outcome)
            self.z[self.chance_to].append(outcome)
            self.chance_from = self.chance_to = -1
        self.chance = -1
        if self.pending < 0 and self.arranging < 0:  # a choice made in the same option waits until chance has spoken
            self._then(self.pending_then)

    def _arrange(self, design: int) -> None:
        """The card of ``design`` (the one nearest the top) goes next in the arrangement; done when the rest has one order."""
        zone, low, place = self.z[self.arranging], self.arrange_low, self.arrange_next
        at = max(i for i in range(low, place + 1) if zone[i] == design)
        zone.insert(place, zone.pop(at))
        self.arrange_next = place - 1
        if len(set(zone[low:place])) < 2:
            self.arranging = self.arrange_low = self.arrange_next = -1
            if self.chance < 0 and self.pending < 0:
                self._then(self.pending_then)

    def _then(self, then: int) -> None:
        if not self.g.end_at_turn:
            self._check_end()
            if self.over is not None:
                return
        if then == AGAIN:
            if self.g.step_when[self.step] is not None:  # a repeated step is taken again only while its condition holds
                self._enter(self.step)
            return
        if then == NEXT:
            self._open_window(self.decider)
            return
        if then >= 0:
            self._enter(then)
            return
        self._end_turn()

    def _end_turn(self) -> None:
        """The turn is over: look at the end (``end.at: turn``), then the next seat's turn begins."""
        g = self.g
        if g.end_at_turn:
            self._check_end()
            if self.over is not None:
                return
        if g.final_when is not None and self._final_round():
            return
        if self.lead_next >= 0:
            self.seat, self.lead_next = self.lead_next, -1
        elif self.extra:
            self.extra = False
        else:
            self.seat = (self.seat + self.direction * (1 + self.skips)) % g.num_players
        self.skips = 0
        self.start_turn()


    def _final_round(self) -> bool:
        """At the end of a turn: begin the final round when its condition holds, else count it down; whether the game is over."""
        g = self.g
        if self.final_left < 0:
            if g.final_when is not None and g.final_when(self, self.seat, 0):
                self.final_left = g.num_players * g.final_turns
                if self.final_left == 0:
                    self.over = Termination.NORMAL
        else:
            self.final_left -= 1
            if self.final_left <= 0:
                self.over = Termination.NORMAL
        return self.over is not None

    def _open_window(self, after: int) -> None:
        """Hand a ``by: others`` step to the first seat after ``after`` in turn order that is offered something; when the
        turn's own seat comes round again, the window closes and the turn goes to the step's ``after``."""
        g = self.g
        seat = (after + self.direction) % g.num_players
        while seat != self.seat:
            self.decider = seat
            if self.legal_actions():
                return
            seat = (seat + self.direction) % g.num_players
        self.decider = -1
        self._then(g.step_after[self.step])

    def scores(self) -> list[int]:
        g = self.g
        return [sum(scorer(self, seat) for scorer in g.scorers) for seat in range(g.num_players)]

    def ranking(self) -> list[list[Seat]]:
        """Seats from first place down: by score, then by the tiebreakers of the scoring items that have them (in
        scoring order), then by each of ``rules.tiebreaks`` in order (higher first); seats equal on all share a place."""
        g = self.g
        if not g.tiebreaks and not g.tiebreakers:
            return State.ranking(self)
        keys = [
            (score, *(v for scorer in g.tiebreakers for v in scorer.ties(self, seat)), *(tiebreak(self, seat, 0) or 0 for tiebreak in g.tiebreaks))
            for seat, score in enumerate(self.scores())
        ]
        return [[seat for seat, key in enumerate(keys) if key == value] for value in sorted(set(keys), reverse=True)]

    def clone(self) -> "DataState":
        other = DataState.__new__(DataState)
        other.g = self.g
        other.z = [list(zone) for zone in self.z]
        other.c = list(self.c)
        other.v = list(self.v)
        other.decider, other.forced = self.decider, self.forced
        other.seat, other.step, other.direction, other.skips = self.seat, self.step, self.direction, self.skips
        other.extra, other.passes, other.turn, other.over = self.extra, self.passes, self.turn, self.over
        other.pending, other.pending_then = self.pending, self.pending_then
        other.option_uses = list(self.option_uses)
        other.effect_uses = list(self.effect_uses)
        other.trick_seats = list(self.trick_seats)
        other.lead_next, other.tricks_taken = self.lead_next, self.tricks_taken
        other.tg, other.chance, other.chance_from, other.chance_to = self.tg, self.chance, self.chance_from, self.chance_to
        other.final_left = self.final_left
        other.arranging, other.arrange_low, other.arrange_next = self.arranging, self.arrange_low, self.arrange_next
        other.m = [mechanic.clone(part) for mechanic, part in zip(self.g.mechanics, self.m)]
        return other

    def action_to_string(self, action: Action) -> str:
        g = self.g
        index, parameter = divmod(action, g.width)
        seat = self.deciding_seat()
        if index >= g.arrange_base:
            return f"P{seat + 1} puts {g.card_names[parameter]} next, from the top down"
        if index >= g.chance_base:
            chance = g.chances[index - g.chance_base]
            if chance.kind == "roll":
                if chance.doubles >= 0:
                    total, double = divmod(parameter, 2)
                    return f"P{seat + 1} rolls {chance.name}: {total}{' (doubles)' if double else ''}"
                return f"P{seat + 1} rolls {chance.name}: {parameter}"
            return f"P{seat + 1} takes at random from {chance.name}: {g.card_names[parameter]}"
        if index >= g.choice_base:
            var = index - g.choice_base
            return f"P{seat + 1} chooses {list(g.setup_rules.variables)[var]} {g.variable_values[var][parameter]}"
        option = g.options[index]
        aim = ""
        if option.target is not None:
            target, parameter = divmod(parameter, g.card_width)
            aim = f" at P{target + 1}"
        if option.mechanic is not None:
            return f"P{seat + 1} {option.name}: {option.mechanic[0].describe(option.mechanic[1], self, parameter)}"
        if option.chooses_card:
            return f"P{seat + 1} {option.name}{aim}: {g.card_names[parameter]}"
        return f"P{seat + 1} {option.name}{aim}"

    def fingerprint(self) -> tuple[object, ...]:
        g = self.g
        zones = tuple(tuple(sorted(zone)) if g.unordered[i] else tuple(zone) for i, zone in enumerate(self.z))
        return (zones, tuple(self.c), tuple(self.v), self.seat, self.decider, self.step, self.direction, self.skips, self.extra,
                self.passes, self.turn, self.over, self.pending, self.pending_then, tuple(self.trick_seats), self.lead_next, self.tricks_taken,
                self.tg, self.chance, self.chance_from, self.chance_to, self.final_left, self.arranging, self.arrange_low, self.arrange_next,
                tuple(m.fingerprint(part) for m, part in zip(g.mechanics, self.m)))

    def usage(self) -> dict[str, int]:
        g = self.g
        out = {f"option:{o.key}": n for o, n in zip(g.options, self.option_uses)}
        out.update({f"effect:{e}": n for e, n in zip(g.effect_ids, self.effect_uses)})
        for mechanic in g.mechanics:
            out.update(mechanic.usage(self))
        return out

    def conservation_errors(self) -> list[str]:
        """Every card in exactly one zone, every counter within its bounds, one card per seat at most in a trick."""
        g = self.g
        counts = [0] * g.n_designs
        for zone in self.z:
            for d in zone:
                counts[d] += 1
        for mechanic, part in zip(g.mechanics, self.m):
            for d in mechanic.held(part):
                counts[d] += 1
        errors = [f"{g.card_ids[d]}: {counts[d]} in play, {g.copies[d]} in the deck" for d in range(g.n_designs) if counts[d] != g.copies[d]]
        for slot, (value, (low, high)) in enumerate(zip(self.c, g.counter_bounds)):
            if not low <= value <= high:
                errors.append(f"counter slot {slot} holds {value}, outside [{low}, {high}]")
        if self.chance >= 0 and g.chances[self.chance].kind == "steal" and not self.z[self.chance_from]:
            errors.append(f"a card is to be taken at random from zone slot {self.chance_from}, which is empty")
        if g.trick_rules is not None:
            on_table = len(self.z[g.trick_rules.zone])
            if on_table != len(self.trick_seats) or len(set(self.trick_seats)) != on_table or on_table >= g.num_players:
                errors.append(f"the trick holds {on_table} card(s) played by seats {[seat + 1 for seat in self.trick_seats]}")
        for mechanic in g.mechanics:
            errors.extend(f"{mechanic.declaration.name}: {error}" for error in mechanic.errors(self))
        return errors
