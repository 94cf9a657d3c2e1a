"""A position of a data game (:class:`DataState`): zones, counters and variables as plain lists, and the turn flow
that applies an action: an option's card and effects, chance steps, choices, reactions, forced steps and the end.

The game it belongs to (:class:`~cardgen.engine.interpreter.game.DataGame`) compiled the rules data into the
tables read here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.engine.core import CHANCE, TERMINAL, Action, Seat, State, Termination
from cardgen.engine.interpreter.chance import card_outcomes
from cardgen.engine.interpreter.named_uses import add_named_uses
from cardgen.engine.interpreter.summary import position_summary
from cardgen.engine.interpreter.options import AGAIN, BY_TARGET, BY_TURN, END, NEXT, CompiledOption as _Option

if TYPE_CHECKING:
    from cardgen.engine.interpreter.game import DataGame


class DataState(State):
    """A position of a data game: zones, counters and variables as plain lists."""

    __slots__ = ("g", "z", "c", "v", "seat", "decider", "forced", "step", "direction", "skips", "extra", "passes", "turn", "over", "pending", "pending_then", "option_uses", "effect_uses",
                 "trick_seats", "lead_next", "tricks_taken", "tg", "chance", "chance_from", "chance_to", "final_left",
                 "arranging", "arrange_low", "arrange_next", "m")

    def __init__(self, game: DataGame) -> None:
        self.g = game
        self.z: list[list[int]] = [[] for _ in range(game.zone_slots)]
        self.c: list[int] = list(game.counter_start)
        self.v: list[Any] = list(game.variable_start)
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

    def start_turn(self, after_turn: bool = False) -> None:
        """Begin the turn of ``self.seat``: turn counters back to their start.

        ``after_turn``: the turn before has just ended, and the end was looked at after its last action; it is looked
        at again only when it reads what a new turn changes (``DataGame.end_as_turn_starts``)."""
        g = self.g
        self.turn += 1
        self.step = 0
        self.decider = -1
        self.tg = -1
        for index, start in g.turn_resets:
            self.c[index] = start
        if g.turn_limit is not None and self.turn > g.turn_limit:
            self.over = Termination.TURN_LIMIT
        else:
            if not g.end_at_turn and (g.end_as_turn_starts or not after_turn):
                self._check_end()
            if self.over is None:
                self._enter(0, begun=False)

    def _enter(self, step: int, begun: bool = True) -> None:
        """Go on to ``step``, passing over every step whose ``when`` fails (past the last step the turn ends),
        decided by whom its ``by`` says.

        A turn none of whose steps may be taken (``begun`` false) is a dead end (no legal action, CG503),
        never a loop of empty turns. A step's ``when`` is read for the seat that would decide it."""
        g = self.g
        pass_over = g.pass_over[step]
        if pass_over is not None:
            step = pass_over(self)
            if step == g.n_steps:
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
        if option.aimed_seats is not None:
            bases = [base + target * g.card_width for target in option.aimed_seats(self, seat)]
        if not option.chooses_card:
            return bases
        where = option.where
        if option.from_target and option.target is not None:  # the cards of each seat aimed at
            offered: list[Action] = []
            aim = self.tg  # listing must leave the position as it found it (an aim taken earlier this turn lasts)
            for first in bases:
                self.tg = (first - base) // g.card_width
                zone = self.z[option.card_from + (self.tg if option.card_from_seat else 0)]
                offered.extend(first + d for d in sorted(set(zone)) if where is None or where(self, seat, d))
            self.tg = aim
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
            rolled = g.roll_actions[self.chance]
            return rolled[:] if rolled is not None else [action for action, _ in self.chance_outcomes()]
        if self.pending >= 0:
            base = (g.choice_base + self.pending) * g.width
            return [base + k for k in range(len(g.variable_values[self.pending]))]
        if self.arranging >= 0:
            base = g.arrange_base * g.width
            return [base + d for d in sorted(set(self.z[self.arranging][self.arrange_low : self.arrange_next + 1]))]
        if self.step < 0:
            return []
        return g.step_offer[self.step](self, self.seat if self.decider < 0 else self.decider)

    def apply_action(self, action: Action) -> None:
        self._apply(action)
        self.carry_out_forced()
        if self.g.end_stuck:
            self.end_if_stuck()

    def end_if_stuck(self) -> None:
        """``end.stuck``: a decision with nothing to choose ends the game (a chance step always has an outcome)."""
        if self.over is None and self.chance < 0 and not self.legal_actions():
            self.over = Termination.NORMAL

    def carry_out_forced(self) -> None:
        """Carry out every step marked ``auto`` that offers exactly one action, one after another."""
        g = self.g
        auto = g.step_auto
        while self.step >= 0 and auto[self.step] and self.over is None and self.chance < 0 and self.pending < 0 and self.arranging < 0:
            if self.forced >= g.info().max_game_length:
                return
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
        if index >= g.choice_base:
            if index >= g.arrange_base:
                self._arrange(parameter)
            elif index >= g.chance_base:
                self._resolve_chance(index - g.chance_base, parameter)
            else:
                var = index - g.choice_base
                self.v[var] = g.variable_values[var][parameter]
                self.pending = -1
                self._then(self.pending_then)
            return
        g.acts[index](self, self.seat if self.decider < 0 else self.decider, parameter)  # what the option does (acts.py)
        option = g.options[index]
        if self.pending >= 0 or self.chance >= 0 or self.arranging >= 0:
            self.pending_then = option.then
            if g.end_after_action:
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
        g = self.g
        if g.end_after_action:
            self._check_end()
            if self.over is not None:
                return
        if then >= 0:
            self._enter(then)
        elif then == END:
            self._end_turn()
        elif then == AGAIN:
            if g.step_when[self.step] is not None:  # a repeated step is taken again only while its condition holds
                self._enter(self.step)
        else:
            assert then == NEXT
            self._open_window(self.decider)

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
            if g.rounds_rotate and self.turn % g.num_players == 0:  # a round is over: the seat after its first player begins the next
                self.seat = (self.seat + 1) % g.num_players
        self.skips = 0
        self.start_turn(after_turn=True)


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
        anything = g.step_any[self.step]
        while seat != self.seat:
            self.decider = seat
            if anything(self, seat) if self.over is None and self.chance < 0 and self.pending < 0 and self.arranging < 0 else self.legal_actions():
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
        other.z = [zone[:] for zone in self.z]
        other.c = self.c[:]
        other.v = self.v[:]
        other.decider, other.forced = self.decider, self.forced
        other.seat, other.step, other.direction, other.skips = self.seat, self.step, self.direction, self.skips
        other.extra, other.passes, other.turn, other.over = self.extra, self.passes, self.turn, self.over
        other.pending, other.pending_then = self.pending, self.pending_then
        other.option_uses = self.option_uses[:]
        other.effect_uses = self.effect_uses[:]
        other.trick_seats = self.trick_seats[:]
        other.lead_next, other.tricks_taken = self.lead_next, self.tricks_taken
        other.tg, other.chance, other.chance_from, other.chance_to = self.tg, self.chance, self.chance_from, self.chance_to
        other.final_left = self.final_left
        other.arranging, other.arrange_low, other.arrange_next = self.arranging, self.arrange_low, self.arrange_next
        other.m = [mechanic.clone(part) for mechanic, part in zip(self.g.mechanics, self.m)] if self.m else []
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
        zones = tuple([tuple(sorted(zone)) if unordered else tuple(zone) for zone, unordered in zip(self.z, g.unordered)])
        return (zones, tuple(self.c), tuple(self.v), self.seat, self.decider, self.step, self.direction, self.skips, self.extra,
                self.passes, self.turn, self.over, self.pending, self.pending_then, tuple(self.trick_seats), self.lead_next, self.tricks_taken,
                self.tg, self.chance, self.chance_from, self.chance_to, self.final_left, self.arranging, self.arrange_low, self.arrange_next,
                tuple([m.fingerprint(part) for m, part in zip(g.mechanics, self.m)]) if self.m else ())

    def summary(self) -> str:
        """The zones, counters, variables and mechanic slices in a few readable words (for playthroughs)."""
        return position_summary(self)

    def usage(self) -> dict[str, int]:
        g = self.g
        out = {f"option:{o.key}": n for o, n in zip(g.options, self.option_uses)}
        out.update({f"effect:{e}": n for e, n in zip(g.effect_ids, self.effect_uses)})
        add_named_uses(self, out)  # effects used by the options asking for their cards, by wild cards scored
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
        for d in g.laid_out:  # the cards a row of piles lies under
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

