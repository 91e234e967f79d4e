"""A Wheeler-Dealer (US) table set up by hand, for scenario tests of single engine steps, and a scripted
strategy whose every answer comes from its parameters."""
from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games import get_game
from simkit.games.wheeler_dealer_us import engine, state
from simkit.games.wheeler_dealer_us.engine import R_START_CASH
from simkit.games.wheeler_dealer_us.play import _kernel_inputs
from simkit.games.wheeler_dealer_us.rules import R_DECK_SIZE
from simkit.games.wheeler_dealer_us.view import (
    A_BUMP_SEAT,
    A_BUMP_SQUARE,
    A_DEAL_CASH,
    A_DEAL_MINE,
    A_DEAL_OTHER,
    A_DEAL_THEIRS,
    A_RAISE_ITEM,
    A_STAKE,
    A_TARGET,
    CARD_DRAWN,
    CARD_STEP5,
    P_SQUARE,
    PUB_CARDS_LEFT,
    PUB_HOLDINGS_VERSION,
    PUB_PROPERTIES,
    PUB_SEAT,
    Q_CARD_CONTEXT,
    Q_CARD_TYPE,
    Q_INVEST_OPTIONAL,
    Q_INVEST_RAISING,
    Q_OFFERS_MADE,
    RAISE_GIVE_UP,
    S_CASH,
    S_ON_SCHOOL,
    S_POSITION,
    debt_slot,
    owner,
    owner_slot,
    seat_slot,
)
from simkit.numba_tools import EV_KIND, kernel_context
from simkit.strategy import Strategy, parse_lineup, registered

GAME = get_game("wheeler-dealer-us")

# scripted parameters
(SC_INVEST, SC_BUY, SC_BID, SC_POACH, SC_ACCEPT, SC_BUMP_SEAT, SC_BUMP_SQUARE, SC_USE_DRAWN, SC_ARG0, SC_ARG1,
 SC_ARG2, SC_STEP5, SC_REACTIVE, SC_BAMBOOZLE, SC_MINE, SC_TARGET) = range(16)
# longer scripts live in the seat's memory (parameters are full; tests write them after setting up):
# raise answers (action, property or card type) for the first RAISE_SCRIPT questions, then give up; one
# deal offer at the start of a turn (kind, 0 none; other seat, my property, their property, cash I pay)
M_RAISE_ASKED, M_RAISE = 0, 1
RAISE_SCRIPT = 3
M_OFFER = M_RAISE + 2 * RAISE_SCRIPT


@njit(cache=True)
def _finance(public, table, query, params, memory, rng, out):
    return 0


@njit(cache=True)
def _invest(public, table, query, params, memory, rng, out):
    # declines the Trade Fair
    return -1 if query[Q_INVEST_OPTIONAL] == 1 and query[Q_INVEST_RAISING] == 0 else int(params[SC_INVEST])


@njit(cache=True)
def _buy(public, table, query, params, memory, rng, out):
    return int(params[SC_BUY])


@njit(cache=True)
def _bid(public, table, query, params, memory, rng, out):
    return int(params[SC_BID])


@njit(cache=True)
def _poach(public, table, query, params, memory, rng, out):
    return int(params[SC_POACH])


@njit(cache=True)
def _offer(public, table, query, params, memory, rng, out):
    for i, field in enumerate((A_DEAL_OTHER, A_DEAL_MINE, A_DEAL_THEIRS, A_DEAL_CASH)):
        out[field] = int(memory[M_OFFER + 1 + i])
    return int(memory[M_OFFER]) if query[Q_OFFERS_MADE] == 0 else 0


@njit(cache=True)
def _answer(public, table, query, params, memory, rng, out):
    return int(params[SC_ACCEPT])


@njit(cache=True)
def _raise(public, table, query, params, memory, rng, out):
    asked = int(memory[M_RAISE_ASKED])
    memory[M_RAISE_ASKED] += 1
    if asked >= RAISE_SCRIPT:
        return RAISE_GIVE_UP
    out[A_RAISE_ITEM] = int(memory[M_RAISE + 2 * asked + 1])
    return int(memory[M_RAISE + 2 * asked])


@njit(cache=True)
def _bump(public, table, query, params, memory, rng, out):
    if params[SC_BUMP_SEAT] < 0:
        return 0
    out[A_BUMP_SEAT], out[A_BUMP_SQUARE] = int(params[SC_BUMP_SEAT]), int(params[SC_BUMP_SQUARE])
    return 1


@njit(cache=True)
def _card(public, table, query, params, memory, rng, out):
    out[0], out[1], out[2] = int(params[SC_ARG0]), int(params[SC_ARG1]), int(params[SC_ARG2])  # any card's answer
    if query[Q_CARD_CONTEXT] == CARD_DRAWN:
        return query[Q_CARD_TYPE] if params[SC_USE_DRAWN] else -1
    if query[Q_CARD_CONTEXT] == CARD_STEP5:
        return int(params[SC_STEP5])
    return int(params[SC_REACTIVE])


@njit(cache=True)
def _bamboozle(public, table, query, params, memory, rng, out):
    out[A_STAKE], out[A_TARGET] = int(params[SC_MINE]), int(params[SC_TARGET])
    return int(params[SC_BAMBOOZLE])


@njit(cache=True)
def _borrow_on(public, table, query, params, memory, rng, out):
    seat = public[PUB_SEAT]
    for prop in range(public[PUB_PROPERTIES]):
        if owner(public, prop) == seat and public[debt_slot(public, prop)] == 0:
            return prop
    return -1


SCRIPTED = Strategy.build(
    "wheeler-dealer-us", "scripted", base=registered("wheeler-dealer-us")["random"],
    params={"invest": 0, "buy": 0, "bid": 0, "poach": 0, "accept": 0, "bump_seat": -1, "bump_square": 0,
            "use_drawn": 0, "arg0": 0, "arg1": 0, "arg2": 0, "step5": -1, "reactive": 0, "bamboozle": 0,
            "mine": -1, "target": -1},
    finance=_finance, invest=_invest, buy=_buy, bid=_bid, poach=_poach, deal_offer=_offer, deal_answer=_answer,
    bump=_bump, card=_card, bamboozle=_bamboozle, borrow_on=_borrow_on, **{"raise": _raise})


class Table:
    """State of one game at its start; tests arrange titles, cash and tokens, then run one engine step
    on ``table.ctx`` (every engine helper takes it) and read the result and the event log."""

    def __init__(self, players=3, sets=(), seed=1, game=0, **script):
        self.prepared = GAME.prepare(GAME.rules(sets=sets), players)
        p = self.prepared
        self.seats = parse_lineup("wheeler-dealer-us", [SCRIPTED] * players)
        self.arrays = state.make_context(p, *_kernel_inputs(self.seats), event_capacity=10_000, record=True)
        self.ctx = kernel_context(self.arrays)
        parts = state.state_parts(self.arrays)
        self.params, self.memory = parts.params, parts.memory
        for key, value in script.items():  # e.g. bid=[1000, 5000, 0]: one value per seat
            values = value if isinstance(value, (list, tuple)) else [value] * players
            self.params[: len(values), list(SCRIPTED.params).index(key)] = values
        engine._new_game(self.ctx, p.deck, np.uint64(seed), game)
        self.public, self.deck, self.stats, self.extra_turns = parts.public, parts.deck, parts.stats, parts.extra_turns
        self.events, self.event_count, self.bank = parts.events, parts.event_count, parts.bank
        self.start_total = int(p.vector[R_START_CASH]) * players

    # ---- arranging ----
    def script_raise(self, seat: int, *answers) -> None:
        """The seat's answers to its next raise questions: (action, property or card type) pairs."""
        self.memory[seat, M_RAISE_ASKED] = 0
        for i, (action, item) in enumerate(answers):
            self.memory[seat, M_RAISE + 2 * i: M_RAISE + 2 * i + 2] = action, item

    def script_offer(self, seat: int, kind: int, other: int, mine: int = -1, theirs: int = -1, money: int = 0) -> None:
        """One deal offer the seat makes at the start of its turns."""
        self.memory[seat, M_OFFER:M_OFFER + 5] = kind, other, mine, theirs, money

    def prop(self, pid: str) -> int:
        return self.prepared.properties.index(pid)

    def square_of(self, pid: str) -> int:
        return int(self.prepared.table[self.prop(pid), P_SQUARE])

    def square(self, name: str) -> int:
        return self.prepared.squares.index(name)

    def own(self, seat: int, *pids: str, debt: bool = False) -> None:
        for pid in pids:
            previous = self.public[owner_slot(self.prop(pid))]
            self.public[owner_slot(self.prop(pid))] = seat
            self.public[debt_slot(self.public, self.prop(pid))] = int(debt)
            for changed in {previous, seat} - {-1}:  # as the engine's changes of titles and debts do
                self.public[PUB_HOLDINGS_VERSION + changed] += 1

    def set_cash(self, seat: int, amount: int) -> None:
        """Give a seat cash from the bank (recorded, so conservation still balances)."""
        self.bank[0] += amount - self.cash(seat)
        self.public[seat_slot(seat, S_CASH)] = amount

    def place(self, seat: int, square: int) -> None:
        self.public[seat_slot(seat, S_POSITION)] = square

    def next_card(self, kind: str, amount: int | None = None) -> int:
        """Put a card of this kind (and amount) on top of the draw pile; returns its type."""
        for t, name in enumerate(self.prepared.card_types):
            base, _, rest = name.partition(" ")
            if base == kind and (amount is None or rest == f"{amount:+d}"):
                position = int(self.prepared.vector[R_DECK_SIZE]) - int(self.public[PUB_CARDS_LEFT])
                self.deck[position] = t
                return t
        raise KeyError(kind)

    # ---- reading ----
    def cash(self, seat: int) -> int:
        return int(self.public[seat_slot(seat, S_CASH)])

    def owner(self, pid: str) -> int:
        return int(self.public[owner_slot(self.prop(pid))])

    def debt(self, pid: str) -> bool:
        return bool(self.public[debt_slot(self.public, self.prop(pid))])

    def position(self, seat: int) -> int:
        return int(self.public[seat_slot(seat, S_POSITION)])

    def log(self, kind=None):
        rows = self.events[: self.event_count[0]]
        return [tuple(int(v) for v in row) for row in rows if kind is None or row[EV_KIND] == kind]

    def replay(self) -> list[str]:
        """The replay text of the events logged so far (simkit replay's formatter), one line each."""
        from simkit.games.wheeler_dealer_us.replay import format_replay

        n = self.prepared.n_players
        count = int(self.event_count[0])
        out = {"events": self.events[:count], "events_lost": 0,
               "bankrupt": np.zeros((1, n), bool), "winner": np.zeros((1, n), bool), "net_worth": np.zeros((1, n)),
               "cash": np.zeros((1, n)), "properties": np.zeros((1, n), int), "blocks": np.zeros((1, n), int)}
        return [line.strip() for line in format_replay(self.prepared, self.seats, 0, 0, out).splitlines()]

    def on_school(self, seat: int) -> bool:
        return bool(self.public[seat_slot(seat, S_ON_SCHOOL)])

    def conserved(self) -> bool:
        total = sum(self.cash(s) for s in range(self.prepared.n_players))
        return total == self.start_total + int(self.bank[0])
