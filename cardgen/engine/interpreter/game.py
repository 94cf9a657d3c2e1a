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
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from cardgen.engine.core import CHANCE, TERMINAL, Action, Game, GameInfo, Seat, State, Termination
from cardgen.engine.interpreter.chance import ChanceStep, card_outcomes
from cardgen.engine.interpreter.effects import EffectFunction, compile_effect, compile_move, who_seats
from cardgen.engine.interpreter.compile import ExprFunction, Tables, compile_any_seat, compile_expression, constant_value, field_tables
from cardgen.engine.interpreter.scoring import all_or_nothing
from cardgen.engine.mechanics import ActFunction, ActionsFunction, Mechanic, make_mechanics
from cardgen.limits import MAX_GAME_ACTIONS, MAX_TURN_LIMIT
from cardgen.engine.interpreter.tricks import TrickRules
from cardgen.spec.models import Spec
from cardgen.spec.rules_check import decks_in_play, names_of
from cardgen.spec.rules_data import (
    AllOrNothingScore,
    DealStep,
    Effect,
    FirstSeatWhere,
    MoveSpec,
    MoveStep,
    SetAsideStep,
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
    passes: bool
    chooses_card: bool
    trick: bool = False
    """Whether the card chosen is played to the trick (its zone is ``tricks.zone``)."""
    target: ExprFunction | None = None
    """An option aimed at a seat: which seats (``target`` bound to each in turn) it may aim at."""
    mechanic: tuple[Mechanic, str, ActionsFunction, ActFunction] | None = None
    """An option whose choices are a named mechanic's action: the mechanic, the action's name, its offer and its act."""


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
                    where=compile_expression(choice.where, t, card=True) if choice and choice.where else None,
                    card_effects=bool(choice and choice.effects),
                    when=compile_expression(option.when, t) if option.when else None,
                    otherwise=option.otherwise,
                    do=tuple(self._effect(e, card=choice is not None, target=option.target is not None) for e in option.do),
                    then=then,
                    passes=option.passes,
                    chooses_card=choice is not None,
                    trick=bool(choice is not None and rules.tricks is not None and choice.to == rules.tricks.zone),
                    target=compile_expression(option.target.where, t, target=True) if option.target is not None else None,
                    mechanic=self._mechanic_action(option.mechanic.name, option.mechanic.action) if option.mechanic is not None else None,
                )
                compiled.append(compiled_option)
                options.append(compiled_option)
            self.steps.append(compiled)
        self.options = options
        end = rules.end
        self.end_any_seat = compile_any_seat(end.any_seat, t) if end.any_seat else None
        self.end_table = compile_expression(end.table, t) if end.table else None
        self.all_pass = end.all_pass
        self.end_mechanic = self.mechanic(end.mechanic.name).condition(end.mechanic.condition) if end.mechanic is not None else None
        self.turn_limit = constant_value(end.turn_limit, t) if end.turn_limit is not None else None
        if self.turn_limit is not None and not 1 <= self.turn_limit <= MAX_TURN_LIMIT:
            raise ValueError(f"rules.end.turn_limit is {self.turn_limit:,} with {P} players; it must lie between 1 and {MAX_TURN_LIMIT:,}")
        self.scorers = [self._scorer(item) for item in rules.scoring]
        self.trick_rules = (
            TrickRules(rules.tricks, t, P, [self._effect(e, card=False, target=False) for e in rules.tricks.after]) if rules.tricks is not None else None
        )
        self.card_width = self.n_designs + 1
        """The span of card designs in an action's parameter; an option aimed at seat k adds k times it."""
        seats = P if any(o.target is not None for o in options) else 1
        totals = [chance.totals[-1][0] + 1 for chance in self.chances if chance.totals]
        widths = [o.mechanic[0].width(o.mechanic[1]) for o in options if o.mechanic is not None]
        self.width = max([seats * self.card_width] + [len(v) for v in self.variable_values] + totals + widths)
        self.choice_base = len(options)
        self.chance_base = self.choice_base + len(self.variable_values)
        self.first_where = compile_expression(rules.first_player.where, t) if isinstance(rules.first_player, FirstSeatWhere) else None
        self.setup_rules = rules
        self.setup_steps = [self._setup_step(step) for step in rules.setup]
        total_cards = sum(self.copies)
        bound = 0
        for item in rules.scoring:
            if isinstance(item, MechanicScore):
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
        """Every option taken and every card effect carried out at least once."""
        return [f"option:{o.key}" for o in self.options] + [f"effect:{e}" for e in self.effect_ids] + [k for m in self.mechanics for k in m.usage_keys()]

    def proven_unusable(self) -> dict[str, str]:
        """What the named mechanics prove they can never use at this player count."""
        return {key: reason for m in self.mechanics for key, reason in m.proven_unusable().items()}


class DataState(State):
    """A position of a data game: zones, counters and variables as plain lists."""

    __slots__ = ("g", "z", "c", "v", "seat", "decider", "forced", "step", "direction", "skips", "extra", "passes", "turn", "over", "pending", "pending_then", "option_uses", "effect_uses",
                 "trick_seats", "lead_next", "tricks_taken", "tg", "chance", "chance_from", "chance_to", "m")

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
            self._check_end()

    def _check_end(self) -> None:
        g = self.g
        if g.end_table is not None and g.end_table(self, self.seat, 0):
            self.over = Termination.NORMAL
        elif g.end_any_seat is not None and g.end_any_seat(self, 0, 0):
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

    def _offered(self, option: _Option) -> list[Action]:
        g = self.g
        seat = self.deciding_seat()
        if option.when is not None and not option.when(self, seat, 0):
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
        zone = self.z[option.card_from + (seat if option.card_from_seat else 0)]
        where = option.where
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
        actions: list[Action] = []
        fallbacks: list[_Option] = []
        for option in g.steps[self.step]:
            if option.otherwise:
                fallbacks.append(option)
            else:
                actions.extend(self._offered(option))
        if not actions:
            for option in fallbacks:
                actions.extend(self._offered(option))
        actions.sort()
        return actions

    def apply_action(self, action: Action) -> None:
        self._apply(action)
        self.carry_out_forced()

    def carry_out_forced(self) -> None:
        """Carry out every step marked ``auto`` that offers exactly one action, one after another."""
        g = self.g
        bound = g.info().max_game_length
        while self.over is None and self.chance < 0 and self.pending < 0 and g.step_auto[self.step] and self.forced < bound:
            actions = self.legal_actions()
            if len(actions) != 1:
                return
            self.forced += 1
            self._apply(actions[0])

    def _apply(self, action: Action) -> None:
        g = self.g
        index, parameter = divmod(action, g.width)
        seat = self.deciding_seat()
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
        if option.mechanic is not None:
            option.mechanic[3](self, seat, parameter)
        if option.chooses_card:
            source = self.z[option.card_from + (seat if option.card_from_seat else 0)]
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
        self.passes = self.passes + 1 if option.passes else 0
        if self.pending >= 0 or self.chance >= 0:
            self.pending_then = option.then
            self._check_end()
            return
        self._then(option.then)

    def _resolve_chance(self, step: int, outcome: int) -> None:
        """The outcome of the chance step waited for: a total rolled into its variable, or the design of the card taken."""
        chance = self.g.chances[step]
        if chance.kind == "roll":
            self.v[chance.var] = outcome
        else:
            self.z[self.chance_from].remove(outcome)
            self.z[self.chance_to].append(outcome)
            self.chance_from = self.chance_to = -1
        self.chance = -1
        if self.pending < 0:  # a choice made in the same option waits until chance has spoken
            self._then(self.pending_then)

    def _then(self, then: int) -> None:
        self._check_end()
        if self.over is not None:
            return
        if then == AGAIN:
            return
        if then == NEXT:
            self._open_window(self.decider)
            return
        if then >= 0:
            self._enter(then)
            return
        g = self.g
        if self.lead_next >= 0:
            self.seat, self.lead_next = self.lead_next, -1
        elif self.extra:
            self.extra = False
        else:
            self.seat = (self.seat + self.direction * (1 + self.skips)) % g.num_players
        self.skips = 0
        self.start_turn()

    def _enter(self, step: int) -> None:
        """Go on to ``step``, decided by whom its ``by`` says."""
        self.step = step
        by = self.g.step_by[step]
        if by == BY_TURN:
            self.decider = -1
        elif by == BY_TARGET:
            self.decider = self.tg
        else:
            self._open_window(self.seat)

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
        other.m = [mechanic.clone(part) for mechanic, part in zip(self.g.mechanics, self.m)]
        return other

    def action_to_string(self, action: Action) -> str:
        g = self.g
        index, parameter = divmod(action, g.width)
        seat = self.deciding_seat()
        if index >= g.chance_base:
            chance = g.chances[index - g.chance_base]
            if chance.kind == "roll":
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
                self.tg, self.chance, self.chance_from, self.chance_to, tuple(m.fingerprint(part) for m, part in zip(g.mechanics, self.m)))

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
