"""Keramikos in the rulebook's pictures: the table read off a state, and its actions said in words.

Registered on import; the rulebook imports this module through its figure discovery.
"""

from __future__ import annotations

from cardgen.engine.core import Action, State
from cardgen.games.keramikos.rules import (
    A_BURN,
    A_BURN_DECLARE,
    A_DEEPEN,
    A_DEEPEN_EXTRA,
    A_DICE,
    A_MARK,
    A_MARK_EXTRA,
    A_REROLL,
    A_ROLL,
    A_SABOTAGE,
    A_SORT,
    A_SORT_PICK,
    A_STEAL,
    A_STOP,
    A_TAKE,
    A_TRASH,
    DECIDE,
    RESOLVE,
    ROLLING,
    SABOTAGE_WINDOW,
    SORTING,
    KeramikosState,
)
from cardgen.render.figures import GameFigures, Mark, TableView, Words, Zone, register_figures

SITES, DIG, MARKER = "dig-sites", "excavation", "marker"
"""The deck and component ids the rules module reads (see its contract)."""


def table(state: State) -> TableView:
    """The dig sites, below each its stack of buried cards (the top one face up), the deck and discard pile,
    and each seat's markers, special cards in hand and pottery collected."""
    assert isinstance(state, KeramikosState)
    g = state.g
    zones = [Zone("grid", SITES, g.num_sites, marks=tuple(Mark(card=site) for site in g.site_ids), columns=g.num_sites)]
    stacks = tuple(Mark(card=g.kind_ids[stack[0]], depth=len(stack)) if stack else Mark(depth=0) for stack in state.stacks)
    zones.append(Zone("grid", DIG, sum(len(stack) for stack in state.stacks), marks=stacks, columns=g.num_sites))
    zones.append(Zone("pile", DIG, len(state.deck)))
    if sum(state.discard):
        zones.append(Zone("discard", DIG, sum(state.discard)))
    for seat in range(g.num_players):
        zones.append(Zone("pieces", MARKER, state.supply[seat], seat))
        held = sum(state.hand[seat][: g.num_special])
        if held:
            zones.append(Zone("hand", DIG, held, seat))
        pottery = tuple(Mark(card=g.kind_ids[k]) for k in range(g.num_pottery) for _ in range(state.coll[seat][k]))
        if pottery:
            zones.append(Zone("collection", DIG, len(pottery), seat, pottery))
    return TableView(g.num_players, tuple(zones))


P: dict[str, dict[str, str]] = {
    "dice": {"en": "the dice show {a} and {b}: {site}", "pt_BR": "os dados mostram {a} e {b}: {site}"},
    "doubles": {"en": "the dice show {a} and {b}, doubles: {site}", "pt_BR": "os dados mostram {a} e {b}, um par: {site}"},
    "sabotage": {"en": "{other} plays {card} and {who} must roll again", "pt_BR": "{other} joga {card} e {who} precisa rolar de novo"},
    "let": {"en": "{other} lets the roll stand", "pt_BR": "{other} deixa a rolagem valer"},
    "roll": {"en": "{who} rolls the dice", "pt_BR": "{who} rola os dados"},
    "stop": {"en": "{who} stops and collects the cards under their {n} markers", "pt_BR": "{who} para e recolhe as cartas sob seus {n} marcadores"},
    "stop_one": {"en": "{who} stops and collects the card under their marker", "pt_BR": "{who} para e recolhe a carta sob seu marcador"},
    "bust": {"en": "{who} busts on {site}: nothing is collected", "pt_BR": "{who} estoura em {site}: nada é recolhido"},
    "empty": {"en": "{who} marks {site}, which is empty", "pt_BR": "{who} marca {site}, que está vazio"},
    "mark": {"en": "{who} marks {card} on {site}", "pt_BR": "{who} marca {card} em {site}"},
    "extra": {"en": "{who} marks {card} on {site} and, with an extra marker, {below} below it", "pt_BR": "{who} marca {card} em {site} e, com um marcador extra, {below} abaixo dela"},
    "reroll": {"en": "{who} plays {card} to roll again", "pt_BR": "{who} joga {card} para rolar de novo"},
    "deepen": {"en": "{who} uses the doubles to mark {card} deeper in {site}", "pt_BR": "{who} usa o par para marcar {card} mais fundo em {site}"},
    "burn_declare": {"en": "{who} discards a pottery card to roll again", "pt_BR": "{who} descarta uma carta de cerâmica para rolar de novo"},
    "burn": {"en": "{who} discards {card}", "pt_BR": "{who} descarta {card}"},
    "take": {"en": "{who} takes {card} for the empty site", "pt_BR": "{who} pega {card} pelo sítio vazio"},
    "trash": {"en": "{who} takes {card} from the discard pile", "pt_BR": "{who} pega {card} da pilha de descarte"},
    "steal": {"en": "{who} steals {card} from {other}", "pt_BR": "{who} rouba {card} de {other}"},
    "sort": {"en": "{who} rearranges the cards of {site}", "pt_BR": "{who} reordena as cartas de {site}"},
    "sort_pick": {"en": "{who} puts {card} next in {site}", "pt_BR": "{who} põe {card} a seguir em {site}"},
}


def describe(state: State, action: Action, words: Words) -> str:
    """``action`` in ``words``' language, from the position before it (as ``action_to_string`` says it)."""
    assert isinstance(state, KeramikosState)
    g = state.g
    who = words.seat(state.player)

    def say(key: str, **values: object) -> str:
        return words.phrase(P[key]).format(who=who, **values)

    def kind(k: int) -> str:
        return words.card(DIG, g.kind_ids[k], -1)

    def site(s: int) -> str:
        return words.card(SITES, g.site_ids[s], -1)

    phase = state.phase
    if phase == ROLLING and 0 <= action - A_DICE < len(g.outcome_dice):
        a, b = g.outcome_dice[action - A_DICE]
        return say("doubles" if a == b else "dice", a=words.number(a), b=words.number(b), site=site(g.outcome_site[action - A_DICE]))
    if phase == SABOTAGE_WINDOW:
        return say("sabotage" if action == A_SABOTAGE else "let", other=words.seat(state.sab_seat), card=kind(g.num_pottery + g.sp_sabotage))
    if action == A_ROLL:
        return say("roll")
    if action == A_STOP:
        placed = state.placed()
        return say("stop_one") if placed == 1 else say("stop", n=words.number(placed))
    if phase == RESOLVE and action in (A_MARK, A_MARK_EXTRA):
        s = g.outcome_site[state.roll]
        if state.marks[s] or state.site_mark[s]:
            return say("bust", site=site(s))
        stack = state.stacks[s]
        if state._empty(s):
            return say("empty", site=site(s))
        if action == A_MARK_EXTRA and len(stack) > 1:
            return say("extra", card=kind(stack[0]), site=site(s), below=kind(stack[1]))
        return say("mark", card=kind(stack[0]), site=site(s))
    if action == A_REROLL:
        return say("reroll", card=kind(g.num_pottery + g.sp_reroll))
    for base in (A_DEEPEN, A_DEEPEN_EXTRA):
        if base <= action < base + g.num_sites:
            s = action - base
            depth = state.marks[s]
            stack = state.stacks[s]
            return say("deepen", card=kind(stack[depth]) if depth < len(stack) else "?", site=site(s))
    if action == A_BURN_DECLARE:
        return say("burn_declare")
    if A_BURN <= action < A_BURN + g.num_pottery:
        return say("burn", card=kind(action - A_BURN))
    if A_TAKE <= action < A_TAKE + g.num_pottery:
        return say("take", card=kind(action - A_TAKE))
    if A_TRASH <= action < A_TRASH + g.num_kinds:
        return say("trash", card=kind(action - A_TRASH))
    if A_STEAL <= action < A_SORT:
        victim, k = divmod(action - A_STEAL, 100)
        if k < g.num_pottery:
            return say("steal", card=kind(k), other=words.seat(victim))
    if phase == DECIDE and A_SORT <= action < A_SORT + g.num_sites:
        return say("sort", site=site(action - A_SORT))
    if phase == SORTING and A_SORT_PICK <= action < A_SORT_PICK + g.num_kinds:
        return say("sort_pick", card=kind(action - A_SORT_PICK), site=site(state.sort_site))
    return state.action_to_string(action)


register_figures("keramikos", GameFigures(table=table, describe=describe))
