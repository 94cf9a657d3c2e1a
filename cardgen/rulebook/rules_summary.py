"""The rulebook's generated rules: sentences made from a spec's rules data, in any locale.

For a spec whose ``rules`` hold rules data, the rulebook prints what the
interpreter plays, so the text and the engine cannot disagree:

* **setup, step by step**: one sentence per setup step (shuffle, deal, move,
  set), the counters' starting values and who starts;
* **a turn at a glance**: every step and option, its condition, what it does
  and where the turn goes next; for a trick game, how a trick is led, followed
  and won (:meth:`RulesSummary.tricks`); what each card effect does;
* **end and scoring**: when the game ends, how scores are counted, who wins.

Names come from the spec (deck, zone, counter, variable, field and option names
in the locale, falling back to ids) and counts from the spec's numbers and setup
table, never copied. Conditions and amounts are rendered from the checked
expression tree (:mod:`cardgen.spec.rules_expr`) by :class:`ExpressionText`; a
construct without a phrase falls back to its formula, and an effect, setup step
or scoring kind without a phrase to a generic sentence naming its kind and
values (see :data:`SETUP_PHRASES`, :data:`EFFECT_PHRASES`, :data:`SCORING_PHRASES`).

Every phrase is a gettext message of the rulebook catalog (``locales/``), so a
new locale needs a catalog, not code. Names that agree in gender (pt_BR: *o
monte*, *a mão*) use the phrase of their ``gender`` in that locale (a message
with that context); the sentence messages themselves put the prepositions
before a whole noun phrase, so a translation may fuse them (pt_BR ``d%(zone)s``
reads ``do monte``, ``da mão``).
"""

from __future__ import annotations

import ast
from typing import Any, Callable, Mapping

from cardgen.rulebook.rules_phrases import (
    END_ALL_SEATS,
    END_AT_TURN,
    END_STUCK,
    END_STUCK_ONLY,
    PASSES_WHEN,
    SCORE_SETS,
    SETS_BONUS,
    SETS_MULTIPLIED,
    STEP_UNUSED,
    STEP_WHEN,
    ALL_OR_NOTHING,
    ARRANGE_ALL,
    ARRANGE_FORMULA,
    ARRANGE_TOP,
    AUTO_STEP,
    BY_OTHERS,
    BY_OTHERS_END,
    BY_OTHERS_STEP,
    BY_TARGET,
    ALL_OR_NOTHING_LOSE,
    CARDS,
    CARDS_BY,
    CARD_EFFECT,
    CARD_WHERE,
    CHOOSE,
    CHOOSE_ANY,
    CHOOSE_CARD,
    CHOOSE_CARD_STAYS,
    CHOOSE_TARGET,
    DEAL,
    DEAL_BY_PLAYERS,
    DEAL_SHARED,
    END_ALL_PASS,
    END_ANY_SEAT,
    END_TABLE,
    END_FINAL,
    END_FINAL_FORMULA,
    END_FINAL_NOW,
    END_TURNS,
    END_TURNS_FORMULA,
    EVERY_CARD,
    EXTRA_TURN,
    FALLBACK,
    FIRST_PLAYER,
    FIRST_WHERE,
    FORMULA,
    HIGHEST_WINS,
    LOSE_COUNTER,
    LOSE_SUM,
    LED_FIELD,
    LOWER,
    MOVE,
    MOVE_WHERE,
    MOVE_WHERE_UNORDERED,
    NO_CARD,
    ONLY_OTHERWISE,
    ONLY_WHEN,
    PASSES,
    RAISE,
    RAISE_BY_AMOUNT,
    RAISE_UP_TO,
    IF_THEN,
    RANDOM_PLAYER,
    ROUNDS_NEXT,
    ROUNDS_SAME,
    REVERSE,
    ROLL,
    FLAG_IF,
    FLAG_NOW,
    ROLL_DOUBLES,
    ROLL_DOUBLES_FLAG,
    RUNS_LOWEST,
    SCORE_COUNTER,
    SCORE_SUM,
    SET,
    SET_ASIDE,
    SET_ASIDE_WHERE,
    SET_AT_SETUP,
    SHUFFLE_FACE_DOWN,
    SHUFFLE_FACE_UP,
    SKIP,
    SWAP,
    SOME_CARDS,
    STEAL,
    START_EACH,
    START_EACH_COUNTED,
    START_SHARED,
    STEP_NAMED,
    STEP_TITLE,
    THEN_AGAIN,
    THEN_AGAIN_STEP,
    THEN_END,
    THEN_NEXT,
    THEN_STEP,
    THEN_THIS_STEP,
    TOP_CARDS,
    TRANSFER,
    TRICK_AFTER,
    TRICK_DISCARD_ANY,
    TRICK_DISCARD_WHERE,
    TRICK_EQUAL,
    TRICK_FOLLOW,
    TRICK_LEAD_ANY,
    TRICK_LEAD_WHERE,
    TRICK_PLAY,
    TRICK_TAKE,
    TRICK_WIN,
    TRICK_WIN_TRUMP_OF,
    TRICK_WIN_TRUMP_OF_CONTEXT,
    TRICK_WIN_TRUMP_VALUE,
    TURN_UP,
)
from cardgen.rulebook.rules_majority import majority_sentences
from cardgen.rulebook.rules_sets import sets_sentences
from cardgen.rulebook.rules_words import ExpressionText, Named, Phrasebook, kind_of, compact, sentence
from cardgen.spec.models import Spec
from cardgen.spec.rules_data import (
    AddEffect,
    ArrangeEffect,
    AllOrNothingScore,
    ChooseEffect,
    CounterScore,
    OneOfEachScore,
    DealStep,
    MoveEffect,
    MoveSpec,
    MoveStep,
    Option,
    FirstSeatWhere,
    RollEffect,
    RulesData,
    SetAsideStep,
    SetEffect,
    SetStep,
    ShuffleStep,
    SkipEffect,
    SwapEffect,
    StealEffect,
    Step,
    SumScore,
    TransferEffect,
)
from cardgen.spec.mechanic_declaration import CountedPhrase
from cardgen.spec.rules_mechanics import MechanicEffect, MechanicScore, MechanicStep, UseKind
from cardgen.spec.rules_tricks import card_condition_before_play
from cardgen.rulebook.rules_rows_text import arranged_pile, pile_add, pile_move, pile_option, row_card_note, setup_repeat, setup_shuffle_back


def guarded_count(node: ast.expr | None) -> tuple[ast.expr, int | str] | None:
    """``N if C else 0`` (or ``0 if C else N``, as ``not C``) as (C, N): a count that is N when C holds, else nothing."""
    if not isinstance(node, ast.IfExp):
        return None
    for count, nothing, condition in ((node.body, node.orelse, node.test), (node.orelse, node.body, ast.UnaryOp(op=ast.Not(), operand=node.test))):
        if isinstance(nothing, ast.Constant) and nothing.value == 0 and not (isinstance(count, ast.Constant) and count.value == 0):
            value = count.value if isinstance(count, ast.Constant) and isinstance(count.value, int) else ast.unparse(count)
            return condition, value
    return None


def capped_raise(node: ast.expr, counter: str) -> tuple[ast.expr, ast.expr] | None:
    """``min(STEP, CAP - counter)`` (either order) as (STEP, CAP): an amount that raises ``counter`` by STEP at most up to CAP."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "min" and len(node.args) == 2):
        return None
    for step, room in (node.args, node.args[::-1]):
        if (
            isinstance(room, ast.BinOp) and isinstance(room.op, ast.Sub)
            and isinstance(room.right, ast.Name) and room.right.id == counter
            and not any(isinstance(n, ast.Name) and n.id == counter for n in ast.walk(step))
            and not any(isinstance(n, ast.Name) and n.id == counter for n in ast.walk(room.left))
        ):
            return step, room.left
    return None


class RulesSummary:
    """The generated rules of one spec in one locale (see the module's docstring)."""

    def __init__(self, spec: Spec, rules: RulesData, locale: str, translation: Any) -> None:
        self.book = Phrasebook(spec, rules, locale, translation)
        self.rules = rules

    def fallback(self, item: object) -> str:
        return self.book.say(FALLBACK, kind=kind_of(item), detail=compact(item))

    def mechanic(self, name: str, kind: UseKind, item: str) -> str:
        """A named mechanic's own phrase for one use (its declaration's catalog message), its numbers filled from the spec."""
        from cardgen.engine.mechanics import mechanic_declaration

        declaration = mechanic_declaration(name)
        message = declaration.offers(kind).get(item) if declaration is not None else None
        if message is None:
            return self.book.say(FALLBACK, kind="mechanic", detail=f"{name}: {kind} {item}")
        b = self.book
        spec = b.spec
        values: dict[str, str] = {f"numbers.{key}": b.number(value) for key, value in spec.numbers.items()}
        for entry in ("deal", "display", "pieces"):
            keys = {key for setup in spec.setups for key in getattr(setup, entry)}
            for key in keys:
                counts = {setup.players: b.number(getattr(setup, entry).get(key, 0)) for setup in spec.setups}
                values[f"setup.{entry}.{key}"] = b.by_player_counts(counts)
        if isinstance(message, CountedPhrase):
            count = spec.numbers.get(message.count.removeprefix("numbers."), 0)
            return str(b.translation.ngettext(message.forms[0], message.forms[1], count)) % values
        return b.say(message, **values)

    def _setup_mechanic(self, step: MechanicStep) -> str:
        return self.mechanic(step.mechanic.name, "setup", step.mechanic.setup)

    def _effect_mechanic(self, effect: MechanicEffect, card: bool) -> str:
        return self.mechanic(effect.mechanic.name, "effect", effect.mechanic.effect)

    def _score_mechanic(self, item: MechanicScore) -> str:
        return self.mechanic(item.mechanic.name, "score", item.mechanic.score)

    # -- setup ---------------------------------------------------------------------------------------

    def setup(self) -> list[str]:
        out = [SETUP_PHRASES[kind_of(step)](self, step) if kind_of(step) in SETUP_PHRASES else self.fallback(step) for step in self.rules.setup]
        b = self.book
        for counter_id, counter in self.rules.counters.items():
            if counter.reset == "turn":
                continue
            tree = ExpressionText(b).tree(counter.start, False)
            values = b.by_players(tree) if tree is not None else None
            if values is not None and set(values.values()) == {0}:
                continue
            amount = ExpressionText(b).amount(counter.start)
            named = Named(b.local(counter.name, b._readable(counter_id)), counter.gender.get(b.locale), counter.per_seat)
            if values is not None:  # a number known at each player count (the setup table's pieces): said with its counts
                if counter.per_seat:
                    amount = b.by_player_counts({players: f"{b.number(value)} {named.name}" for players, value in values.items()})
                    out.append(b.say(START_EACH_COUNTED, amount=amount))
                else:
                    amount = b.by_player_counts({players: b.number(value) for players, value in values.items()})
                    out.append(sentence(b.say(START_SHARED, amount=amount, counter=b.owned(named, "table"))))
                continue
            if counter.per_seat:
                out.append(b.say(START_EACH, amount=amount, counter=named.name))
            else:
                out.append(sentence(b.say(START_SHARED, amount=amount, counter=b.owned(named, "table"))))
        first = self.rules.first_player
        if isinstance(first, FirstSeatWhere):
            out.append(b.say(FIRST_WHERE, condition=ExpressionText(b, "their").condition(first.where)))
        else:
            out.append(b.say(RANDOM_PLAYER if first == "random" else FIRST_PLAYER))
        if self.rules.rounds is not None:
            out.append(b.say(ROUNDS_NEXT if self.rules.rounds.first == "next" else ROUNDS_SAME))
        return out

    def _shuffle(self, step: ShuffleStep) -> str:
        b = self.book
        deck = next((d for d in b.spec.decks if d.id == step.shuffle.deck), None)
        total = sum(card.copies for card in deck.cards) if deck is not None else 0
        zone = b.rules.zones.get(step.shuffle.to)
        message = SHUFFLE_FACE_UP if zone is not None and zone.visibility == "public" else SHUFFLE_FACE_DOWN
        return b.say(message, cards=b.say_count(CARDS, total), deck=b.deck_name(step.shuffle.deck), zone=b.zone_phrase(step.shuffle.to, "table"))

    def _deal(self, step: DealStep) -> str:
        b = self.book
        deal = step.deal
        source = b.zone_phrase(deal.from_, "table")
        per_seat = b.zone(deal.to).per_seat
        target = b.zone_phrase(deal.to, "each")
        tree = ExpressionText(b).tree(deal.count, False)
        values = b.by_players(tree) if tree is not None else None
        if values is None:
            cards = b.say(CARDS_BY, amount=ExpressionText(b).amount(deal.count))
        elif len(set(values.values())) > 1 and per_seat:
            return b.say(DEAL_BY_PLAYERS, source=source, target=target, counts=b.counted(values, CARDS))
        else:
            cards = b.counted(values, CARDS)
        return b.say(DEAL if per_seat else DEAL_SHARED, cards=cards, source=source, target=target)

    def _setup_move(self, step: MoveStep) -> str:
        b = self.book
        move = step.move
        source, target = b.rules.zones.get(move.from_), b.rules.zones.get(move.to)
        if source is not None and target is not None and source.visibility != "public" and target.visibility in ("public", "top"):
            return b.say(
                TURN_UP, cards=self.cards_moved(move, source.ordered), source=b.zone_phrase(move.from_, "table"), target=b.zone_phrase(move.to, "table")
            )
        return self.move_sentence(move, card=False)

    def _setup_set(self, step: SetStep) -> str:
        b = self.book
        flagged = self.flag_set(step.set.var, step.set.value, card=False)
        if flagged is not None:
            return flagged
        variable = b.owned(b.variable(step.set.var), "table")
        field = b.rules.variables[step.set.var].values if step.set.var in b.rules.variables else None
        return sentence(b.say(SET_AT_SETUP, variable=variable, value=self.value(step.set.value, field, card=False)))

    def _set_aside(self, step: SetAsideStep) -> str:
        b = self.book
        spec = step.set_aside
        source, target = b.zone_phrase(spec.from_, "table"), b.zone_phrase(spec.to, "table")
        chosen: dict[int, str] = {}
        for players in b.player_counts():
            held = [card_condition_before_play(spec.where, b.names, b.spec, players, card) for card in b.cards]
            if any(h is None for h in held):
                return b.say(SET_ASIDE_WHERE, source=source, target=target, condition=ExpressionText(b).condition(spec.where, card=True))
            names = [b.local(card.name, card.id) for card, h in zip(b.cards, held) if h]
            chosen[players] = b.listing(names) if names else b.say(NO_CARD)
        return b.say(SET_ASIDE, source=source, target=target, cards=b.by_player_counts(chosen))

    def value(self, source: int | str, field: str | None, *, card: bool) -> str:
        text = ExpressionText(self.book)
        node = text.tree(source, card)
        return text.term(node, field) if node is not None else self.book.say(FORMULA, formula=source)

    # -- effects -------------------------------------------------------------------------------------

    def effect(self, effect: object, *, card: bool) -> str:
        kind = kind_of(effect)
        phrase = EFFECT_PHRASES.get(kind)
        return phrase(self, effect, card) if phrase is not None else self.fallback(effect)

    def cards_moved(self, move: MoveSpec, ordered: bool, card: bool = False) -> str:
        b = self.book
        if move.count == "all":
            return b.say(EVERY_CARD)
        text = ExpressionText(b)
        node = text.tree(move.count, card)
        value = text.known(node) if node is not None else None
        if value is None:
            by_players = b.by_players(node) if node is not None and not card else None
            if by_players is not None:  # known before play, one count per player count (a display laid out by the setup table)
                return b.counted(by_players, TOP_CARDS if ordered else SOME_CARDS)
            return b.say(CARDS_BY, amount=text.amount(move.count, card=card))
        return b.say_count(TOP_CARDS if ordered else SOME_CARDS, value)

    def move_sentence(self, move: MoveSpec, *, card: bool) -> str:
        b = self.book
        guarded = guarded_count(ExpressionText(b).tree(move.count, card)) if isinstance(move.count, str) and move.count != "all" else None
        if guarded is not None:  # `N if C else 0`: "If C: move N cards ..."
            test, count = guarded
            then = self.move_sentence(move.model_copy(update={"count": count}), card=card)
            return b.say(IF_THEN, condition=ExpressionText(b).clause(test), then=then)
        source = b.rules.zones.get(move.from_)
        ordered = source.ordered if source is not None else True
        cards, where_from, where_to = self.cards_moved(move, ordered, card), b.zone_phrase(move.from_, move.who), b.zone_phrase(move.to, move.to_who or move.who)
        into_pile = pile_move(self, move, cards)
        if into_pile is not None:
            return into_pile
        if move.where is not None:
            condition = ExpressionText(b).condition(move.where, card=True)
            return b.say(MOVE_WHERE if ordered else MOVE_WHERE_UNORDERED, cards=cards, source=where_from, target=where_to, condition=condition)
        return b.say(MOVE, cards=cards, source=where_from, target=where_to)

    def _move(self, effect: MoveEffect, card: bool) -> str:
        return self.move_sentence(effect.move, card=card)

    def _add(self, effect: AddEffect, card: bool) -> str:
        per_pile = pile_add(self, effect.add, card)
        if per_pile is not None:
            return per_pile
        b = self.book
        text = ExpressionText(b)
        node = text.tree(effect.add.amount, card)
        value = text.known(node) if node is not None else None
        counter = b.owned(b.counter(effect.add.counter), effect.add.who)
        if value is not None:
            return b.say(LOWER if value < 0 else RAISE, counter=counter, amount=b.number(abs(value)))
        capped = capped_raise(node, effect.add.counter) if node is not None else None
        if capped is not None:  # min(STEP, CAP - counter): "raise it by STEP, to at most CAP"
            step, cap = capped
            return b.say(RAISE_UP_TO, counter=counter, amount=text.term(step), cap=text.term(cap))
        return b.say_gendered("amount", RAISE_BY_AMOUNT, counter=counter, amount=text.amount(effect.add.amount, card=card))

    def _transfer(self, effect: TransferEffect, card: bool) -> str:
        b = self.book
        who = effect.transfer.who
        return b.say(TRANSFER, source=b.owned(b.counter(effect.transfer.from_), who), target=b.owned(b.counter(effect.transfer.to), who))

    def flag_set(self, var: str, source: int | str, *, card: bool) -> str | None:
        """Setting a yes-or-no variable in its own clauses ("From now on, the setup is over.", "The roll is a double if ...;
        if not, ..."), None for a variable without them or a value said otherwise."""
        b = self.book
        if b.flag(var, True) is None:
            return None
        text = ExpressionText(b)
        node = text.tree(source, card)
        if isinstance(node, ast.Constant) and node.value in (0, 1):
            return sentence(b.say(FLAG_NOW, state=b.flag(var, node.value == 1)))
        if isinstance(node, ast.IfExp) and all(isinstance(n, ast.Constant) and n.value in (0, 1) for n in (node.body, node.orelse)):
            assert isinstance(node.body, ast.Constant) and isinstance(node.orelse, ast.Constant)
            if node.body.value != node.orelse.value:
                state, otherwise = b.flag(var, node.body.value == 1), b.flag(var, node.orelse.value == 1)
                return sentence(b.say(FLAG_IF, state=state, condition=text.clause(node.test), otherwise=otherwise))
        return None

    def _set(self, effect: SetEffect, card: bool) -> str:
        b = self.book
        flagged = self.flag_set(effect.set.var, effect.set.value, card=card)
        if flagged is not None:
            return flagged
        field = b.rules.variables[effect.set.var].values if effect.set.var in b.rules.variables else None
        return sentence(b.say(SET, variable=b.owned(b.variable(effect.set.var), "table"), value=self.value(effect.set.value, field, card=card)))

    def _choose(self, effect: ChooseEffect, card: bool) -> str:
        b = self.book
        variable = b.owned(b.variable(effect.choose), "table")
        definition = b.rules.variables.get(effect.choose)
        values = b.values_of(definition.values) if definition is not None and definition.values is not None else []
        if values:
            return b.say(CHOOSE, variable=variable, values=b.listing(values, "or"))
        return b.say(CHOOSE_ANY, variable=variable)

    def _swap(self, effect: SwapEffect, card: bool) -> str:
        b = self.book
        swap = effect.swap
        return b.say(SWAP, mine=b.zone_phrase(swap.zone), theirs=b.zone_phrase(swap.other or swap.zone, swap.with_))

    def _skip(self, effect: SkipEffect, card: bool) -> str:
        return self.book.say_count(SKIP, effect.skip)

    def _arrange(self, effect: ArrangeEffect, card: bool) -> str:
        b = self.book
        zone = arranged_pile(self, effect.arrange) or b.zone_phrase(effect.arrange.zone)
        if effect.arrange.count == "all":
            return b.say(ARRANGE_ALL, zone=zone)
        text = ExpressionText(b)
        node = text.tree(effect.arrange.count, card)
        value = text.known(node) if node is not None else None
        return b.say_count(ARRANGE_TOP, value, zone=zone) if value is not None else b.say(ARRANGE_FORMULA, zone=zone, amount=text.amount(effect.arrange.count, card=card))

    def _roll(self, effect: RollEffect, card: bool) -> str:
        b = self.book
        die = next((d for d in b.spec.dice if d.id == effect.roll.dice), None)
        dice = b.local(die.name, die.id) if die is not None else effect.roll.dice
        if effect.roll.doubles is not None and b.flag(effect.roll.doubles, True) is not None:
            raised, lowered = b.flag(effect.roll.doubles, True), b.flag(effect.roll.doubles, False)
            return b.say(ROLL_DOUBLES_FLAG, dice=dice, variable=b.owned(b.variable(effect.roll.var), "table"), raised=raised, lowered=lowered)
        if effect.roll.doubles is not None:
            return b.say(ROLL_DOUBLES, dice=dice, variable=b.owned(b.variable(effect.roll.var), "table"), doubles=b.owned(b.variable(effect.roll.doubles), "table"))
        return b.say(ROLL, dice=dice, variable=b.owned(b.variable(effect.roll.var), "table"))

    def _steal(self, effect: StealEffect, card: bool) -> str:
        b = self.book
        steal = effect.steal
        target_zone = b.rules.zones.get(steal.to)
        owner = "me" if target_zone is None or target_zone.per_seat else "table"
        return b.say(STEAL, source=b.zone_phrase(steal.from_, steal.who), target=b.zone_phrase(steal.to, owner))

    # -- the turn ------------------------------------------------------------------------------------

    def turn(self) -> list[dict[str, Any]]:
        b = self.book
        steps = []
        several = len(self.rules.turn) > 1
        numbers = {step.id: index + 1 for index, step in enumerate(self.rules.turn)}
        for index, step in enumerate(self.rules.turn):
            title = ""
            if several or step.name:
                name = b.local(step.name, "")
                number = b.number(index + 1)
                title = b.say(STEP_NAMED, number=number, name=name) if name else b.say(STEP_TITLE, number=number)
            options = [
                {"name": sentence(b.local(option.name, b._readable(option.id))), "text": " ".join(self.option(option, several, numbers, step.id))}
                for option in step.options
                if ExpressionText(b).decided(option.when) is not False  # never offered at the spec's rule options
            ]
            steps.append({"title": title, "notes": self.step_notes(step, numbers), "options": options})
        return steps

    def step_notes(self, step: Step, numbers: Mapping[str, int]) -> list[str]:
        """Who decides the step, and whether it is carried out by itself."""
        b = self.book
        notes: list[str] = []
        if step.by == "target":
            notes.append(b.say(BY_TARGET))
        elif step.by == "others":
            notes.append(b.say(BY_OTHERS))
            if step.after is not None and step.after in numbers:
                notes.append(b.say(BY_OTHERS_STEP, number=b.number(numbers[step.after])))
            else:
                notes.append(b.say(BY_OTHERS_END))
        taken = ExpressionText(b).decided(step.when)
        if taken is False:
            notes.append(b.say(STEP_UNUSED))
        elif step.when is not None and taken is None:
            notes.append(b.say(STEP_WHEN, condition=ExpressionText(b).condition(step.when)))
        if step.auto:
            notes.append(b.say(AUTO_STEP))
        return notes

    def option(self, option: Option, several: bool, numbers: Mapping[str, int], step_id: str | None = None) -> list[str]:
        """The sentences of one option of the step ``step_id``: when it is offered, what it does, where play goes next."""
        b = self.book
        out: list[str] = []
        if option.when is not None and ExpressionText(b).decided(option.when) is None:
            out.append(b.say(ONLY_WHEN, condition=ExpressionText(b).condition(option.when)))
        if option.otherwise:
            out.append(b.say(ONLY_OTHERWISE))
        if option.target is not None:
            out.append(b.say(CHOOSE_TARGET, condition=ExpressionText(b).condition(option.target.where)))
        if option.mechanic is not None:
            out.append(self.mechanic(option.mechanic.name, "action", option.mechanic.action))
        out.extend(pile_option(self, option))
        choice = option.card
        if choice is not None:
            if choice.from_ == choice.to and choice.whose == choice.to_whose:
                out.append(b.say(CHOOSE_CARD_STAYS, source=b.zone_phrase(choice.from_, choice.whose)))
            else:
                out.append(b.say(CHOOSE_CARD, source=b.zone_phrase(choice.from_, choice.whose), target=b.zone_phrase(choice.to, choice.to_whose)))
            if choice.where is not None:
                out.append(b.say(CARD_WHERE, condition=ExpressionText(b).condition(choice.where, card=True)))
            across = row_card_note(self, option)
            if across is not None:
                out.append(across)
        tricks = self.rules.tricks
        if choice is not None and tricks is not None and choice.to == tricks.zone:
            out.append(b.say(TRICK_PLAY))
        out.extend(self.effect(effect, card=choice is not None) for effect in option.do)
        if choice is not None and choice.effects and self.rules.effects:
            out.append(b.say(CARD_EFFECT))
        if isinstance(option.passes, str) and option.passes != "keep" and self.rules.end.all_pass:
            out.append(b.say(PASSES_WHEN, condition=ExpressionText(b).condition(option.passes)))
        elif option.passes is True and self.rules.end.all_pass:
            out.append(b.say(PASSES))
        if option.then == "end":
            out.append(b.say(THEN_END))
        elif option.then == "again":
            out.append(b.say(THEN_AGAIN_STEP if several else THEN_AGAIN))
        elif option.then == "next":
            out.append(b.say(THEN_NEXT))
        elif option.then == step_id:  # back to the start of its own step: its `when` read again
            out.append(b.say(THEN_THIS_STEP))
        elif option.then in numbers:
            out.append(b.say(THEN_STEP, number=b.number(numbers[option.then])))
        return out

    def card_effects(self) -> list[dict[str, str]]:
        b = self.book
        return [
            {"cards": b.carriers(effect_id) or effect_id, "text": " ".join(self.effect(e, card=True) for e in effects)}
            for effect_id, effects in self.rules.effects.items()
            if effects  # an effect with nothing to do (its card's part is in the turn's steps) says nothing
        ]

    def tricks(self) -> list[str]:
        """How a trick is played and won (the ``tricks`` rules), one sentence each; empty for a game without tricks."""
        tricks = self.rules.tricks
        if tricks is None:
            return []
        b = self.book
        follow, rank = b.field(tricks.follow), b.field(tricks.rank).name
        led = b.say_gendered(follow.gender, LED_FIELD, name=follow.name)
        out = []
        if tricks.lead is None:
            out.append(b.say(TRICK_LEAD_ANY))
        else:
            out.append(b.say(TRICK_LEAD_WHERE, condition=ExpressionText(b).condition(tricks.lead, card=True)))
        out.append(b.say(TRICK_FOLLOW, led=led))
        if tricks.discard is None:
            out.append(b.say(TRICK_DISCARD_ANY))
        else:
            out.append(b.say(TRICK_DISCARD_WHERE, condition=ExpressionText(b).condition(tricks.discard, card=True)))
        if tricks.trump is None:
            out.append(b.say(TRICK_WIN, rank=rank, led=led))
        else:
            text = ExpressionText(b)
            node = text.tree(tricks.trump, False)
            trump = text.term(node, tricks.follow) if node is not None else b.say(FORMULA, formula=tricks.trump)
            if node is not None and isinstance(node, ast.Constant):
                out.append(b.say(TRICK_WIN_TRUMP_VALUE, rank=rank, led=led, trump=trump))
            else:  # a noun phrase with its article, which a translation may fuse with the preposition before it
                out.append(b.say_gendered(TRICK_WIN_TRUMP_OF_CONTEXT, TRICK_WIN_TRUMP_OF, rank=rank, led=led, trump=trump))
        if self.equal_cards(tricks.follow, tricks.rank):
            out.append(b.say(TRICK_EQUAL))
        out.append(b.say(TRICK_TAKE, won=b.zone_phrase(tricks.won, "their")))
        if tricks.after:
            out.append(b.say(TRICK_AFTER, effects=" ".join(self.effect(effect, card=False) for effect in tricks.after)))
        return out

    def equal_cards(self, follow: str, rank: str) -> bool:
        """Whether two cards in play share their followed field and their rank (so the first played wins between them)."""
        seen: set[tuple[object, object]] = set()
        for card in self.book.cards:
            key = (card.data.get(follow), card.data.get(rank))
            if card.copies > 1 or key in seen:
                return True
            seen.add(key)
        return False

    # -- end and scoring -----------------------------------------------------------------------------

    def end(self) -> list[str]:
        b = self.book
        end = self.rules.end
        out = []
        if end.any_seat is not None:
            out.append(b.say(END_ANY_SEAT, condition=ExpressionText(b, "a_player").condition(end.any_seat)))
        if end.table is not None:
            out.append(b.say(END_TABLE, condition=ExpressionText(b).condition(end.table)))
        if end.all_seats is not None:
            out.append(b.say(END_ALL_SEATS, condition=ExpressionText(b, "their").condition(end.all_seats)))
        if end.all_pass:
            out.append(b.say(END_ALL_PASS))
        if end.mechanic is not None:
            out.append(b.say(END_TABLE, condition=self.mechanic(end.mechanic.name, "condition", end.mechanic.condition)))
        if end.turn_limit is not None:
            text = ExpressionText(b)
            node = text.tree(end.turn_limit, False)
            value = text.known(node) if node is not None else None
            out.append(b.say_count(END_TURNS, value) if value is not None else b.say(END_TURNS_FORMULA, amount=text.amount(end.turn_limit)))
        if end.final is not None:
            text = ExpressionText(b)
            condition = text.condition(end.final.when)
            node = text.tree(end.final.turns, False)
            value = text.known(node) if node is not None else None
            if value == 0:
                out.append(b.say(END_FINAL_NOW, condition=condition))
            elif value is not None:
                out.append(b.say_count(END_FINAL, value, condition=condition))
            else:
                out.append(b.say(END_FINAL_FORMULA, condition=condition, amount=text.amount(end.final.turns)))
        if end.stuck:
            out.append(b.say(END_STUCK if out else END_STUCK_ONLY))  # "also" only after another way to end
        if end.at == "turn":
            out.append(b.say(END_AT_TURN))
        return out

    def scoring(self) -> list[str]:
        out = [SCORING_PHRASES[kind_of(item)](self, item) if kind_of(item) in SCORING_PHRASES else self.fallback(item) for item in self.rules.scoring]
        out.append(self.book.say(HIGHEST_WINS))
        return out

    def _sum(self, item: SumScore) -> str:
        b = self.book
        spec = item.sum
        text = b.say(SCORE_SUM if spec.sign > 0 else LOSE_SUM, field=b.field(spec.field).name, zone=b.zone_phrase(spec.zone, "their"))
        return f"{text} {b.say(RUNS_LOWEST)}" if spec.runs == "lowest" else text

    def _one_of_each(self, item: OneOfEachScore) -> str:
        """Complete sets: what each scores, the bonus, and the sets multiplied."""
        b = self.book
        spec = item.one_of_each
        text = ExpressionText(b, "their")
        value = b.value_label(spec.field, spec.value)
        out = [b.say(SCORE_SETS, zone=b.zone_phrase(spec.zone, "their"), value=value, points=text.amount(spec.points))]
        if spec.bonus != 0:
            out.append(b.say(SETS_BONUS, at=text.amount(spec.bonus_at), bonus=text.amount(spec.bonus)))
        if spec.multiplied != 0 and spec.times != 1:
            out.append(sentence(b.say(SETS_MULTIPLIED, multiplied=text.amount(spec.multiplied), times=text.amount(spec.times))))
        return " ".join(out)

    def _all_or_nothing(self, item: AllOrNothingScore) -> str:
        b = self.book
        spec = item.all_or_nothing
        return b.say(ALL_OR_NOTHING if spec.sign > 0 else ALL_OR_NOTHING_LOSE, field=b.field(spec.field).name, zone=b.zone_phrase(spec.zone, "their"))

    def _counter(self, item: CounterScore) -> str:
        b = self.book
        return b.say(SCORE_COUNTER if item.sign > 0 else LOSE_COUNTER, counter=b.owned(b.counter(item.counter), "their"))

    def as_context(self) -> dict[str, Any]:
        """Everything the templates print, as plain data."""
        return {
            "setup": self.setup(),
            "turn": self.turn(),
            "tricks": self.tricks(),
            "card_effects": self.card_effects(),
            "end": self.end() + self.scoring(),
        }


SETUP_PHRASES: dict[str, Callable[[RulesSummary, Any], str]] = {
    "shuffle": RulesSummary._shuffle,
    "deal": RulesSummary._deal,
    "move": RulesSummary._setup_move,
    "set": RulesSummary._setup_set,
    "set_aside": RulesSummary._set_aside,
    "mechanic": RulesSummary._setup_mechanic,
    "repeat": setup_repeat,
    "shuffle_back": setup_shuffle_back,
}
"""Setup step kinds with a sentence of their own; any other kind gets :data:`FALLBACK`."""
EFFECT_PHRASES: dict[str, Callable[[RulesSummary, Any, bool], str]] = {
    "move": RulesSummary._move,
    "add": RulesSummary._add,
    "transfer": RulesSummary._transfer,
    "set": RulesSummary._set,
    "choose": RulesSummary._choose,
    "skip": RulesSummary._skip,
    "swap": RulesSummary._swap,
    "roll": RulesSummary._roll,
    "arrange": RulesSummary._arrange,
    "steal": RulesSummary._steal,
    "reverse": lambda summary, effect, card: summary.book.say(REVERSE),
    "extra_turn": lambda summary, effect, card: summary.book.say(EXTRA_TURN),
    "mechanic": RulesSummary._effect_mechanic,
}
"""Effect kinds with a sentence of their own; any other kind gets :data:`FALLBACK`."""
SCORING_PHRASES: dict[str, Callable[[RulesSummary, Any], str]] = {
    "sum": RulesSummary._sum,
    "counter": RulesSummary._counter,
    "all_or_nothing": RulesSummary._all_or_nothing,
    "sets": lambda summary, item: sets_sentences(summary.book, item),
    "one_of_each": RulesSummary._one_of_each,
    "majority": lambda summary, item: majority_sentences(summary.book, item),
    "mechanic": RulesSummary._score_mechanic,
}
"""Scoring kinds with a sentence of their own; any other kind gets :data:`FALLBACK`."""


def rules_summary(spec: Spec, locale: str, translation: Any) -> dict[str, Any] | None:
    """The generated setup, turn, card effects, end and scoring of ``spec`` in ``locale`` (None: no rules data).

    ``translation`` is the locale's gettext translations (gettext, ngettext and pgettext).
    """
    rules = spec.rules_data
    if rules is None:
        return None
    return RulesSummary(spec, rules, locale, translation).as_context()
