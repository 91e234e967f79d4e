"""Hand-built Wheeler Dealer (UK) positions: set up the table, script each seat's answers, call one engine
step (a turn, a space, a Command card, a deal) and read the table and the event log back."""
from __future__ import annotations

import numpy as np

from simkit.games import get_game
from simkit.games.wheeler_dealer_uk import engine as E
from simkit.games.wheeler_dealer_uk import state as S
from simkit.games.wheeler_dealer_uk.rules import COMMAND_KINDS
from simkit.games.wheeler_dealer_uk.view import (
    COLOURS,
    DECISION_NAMES,
    F_BANKRUPT,
    F_CASH,
    F_CIRCLE,
    F_MISS,
    F_POSITION,
    H_ACTIVE,
    H_COLOUR,
    H_COPIES,
    H_HELD,
    H_IN_PACK,
    H_PACK_SIZE,
    H_RISK,
    H_SEATS,
    MAX_SEATS,
    SEAT_FIELDS,
)
from simkit.numba_tools import EV_A, EV_KIND, EV_SEAT
from simkit.strategy import kernel_inputs, parse_lineup

from .scripted import SCRIPTED, SLOT

GAME = get_game("wheeler-dealer-uk")
EVENT_NAMES = {getattr(S, name): name[2:].lower() for name in dir(S) if name.startswith("E_") and name != "E_TURN"}
EVENT_NAMES[S.E_TURN] = "turn"


class Position:
    """A table with empty hands and packs, every seat scripted (or the given line-up)."""

    def __init__(self, players: int = 3, sets=(), lineup=None, cash: int = 10000):
        self.prepared = GAME.prepare(GAME.rules(sets=list(sets)), players)
        seats = parse_lineup(GAME.name, lineup or [SCRIPTED] * players)
        self.arrays = E.make_context(self.prepared, *kernel_inputs(seats, DECISION_NAMES, MAX_SEATS),
                                     event_capacity=10000, record=True)
        self.ctx = E.kernel_context(self.arrays)
        self.parts = E.state_parts(self.arrays)
        self.table, self.packs = self.parts.table, self.parts.packs
        self.names = self.prepared.commodities
        self.n = players
        self.table[H_ACTIVE] = players
        for p in range(players):
            self.set_cash(p, cash)
        self.parts.command_order[:] = np.arange(len(self.parts.command_order))

    # ---- setting up ----
    def c(self, name: str) -> int:
        return self.names.index(name)

    def field(self, seat, field, value=None):
        at = self.table[H_SEATS] + seat * SEAT_FIELDS + field
        if value is not None:
            self.table[at] = value
        return int(self.table[at])

    def set_cash(self, seat, value):
        self.field(seat, F_CASH, value)

    def give(self, seat, name, count=1, at_risk=False):
        (S._add_at_risk if at_risk else S._add_clean)(self.table, seat, self.c(name), count)

    def set_pack(self, colour: str, names):
        """Pack contents, top first."""
        k = COLOURS.index(colour)
        for c in range(len(self.names)):
            if self.table[self.table[H_COLOUR] + c] == k:
                self.table[self.table[H_IN_PACK] + c] = 0
        for i, name in enumerate(names):
            self.packs[k, i] = self.c(name)
            self.table[self.table[H_IN_PACK] + self.c(name)] += 1
        self.parts.heads[k] = 0
        self.table[self.table[H_PACK_SIZE] + k] = len(names)

    def set_commands(self, cards):
        """The Command pile from the top: (kind name, value) pairs."""
        for i, (kind, value) in enumerate(cards):
            self.parts.command_kinds[i] = COMMAND_KINDS.index(kind)
            self.parts.command_values[i] = value
            self.parts.command_order[i] = i
        self.parts.command_head[0] = 0

    def script(self, seat, decision: str, answers):
        memory = self.parts.memory[seat]
        base = DECISION_NAMES.index(decision) * SLOT
        memory[base] = len(answers)
        memory[base + 1] = 0
        memory[base + 2:base + 2 + len(answers)] = answers

    def place(self, seat, position, inner=False):
        self.field(seat, F_POSITION, position)
        self.field(seat, F_CIRCLE, 1 if inner else 0)

    # ---- reading back ----
    def cash(self, seat):
        return self.field(seat, F_CASH)

    def held(self, seat, name):
        return int(self.table[self.table[H_HELD] + seat * len(self.names) + self.c(name)])

    def at_risk(self, seat, name):
        return int(self.table[self.table[H_RISK] + seat * len(self.names) + self.c(name)])

    def pack(self, colour: str):
        k = COLOURS.index(colour)
        size = self.table[self.table[H_PACK_SIZE] + k]
        head = self.parts.heads[k]
        return [self.names[self.packs[k, (head + i) % self.packs.shape[1]]] for i in range(size)]

    def bankrupt(self, seat):
        return self.field(seat, F_BANKRUPT) == 1

    def misses(self, seat):
        return self.field(seat, F_MISS)

    def stat(self, seat, name):
        return int(self.parts.stats[seat, S.SEAT_STATS.index(name)])

    def events(self):
        """The event log as (name, seat, a, b, c, d) tuples."""
        return [(EVENT_NAMES[int(e[EV_KIND])], int(e[EV_SEAT]), *map(int, e[EV_A:])) for e in self.logged()]

    def logged(self):
        """The event log's rows so far."""
        return self.parts.events[:min(int(self.parts.event_count[0]), len(self.parts.events))]

    def tie_breaks(self):
        """The random stream of tie-breaks (the engine's rngs row after the dice, strategy and deal rows)."""
        return self.parts.rngs[2 * self.n + 1]

    def kinds(self):
        return [e[0] for e in self.events()]

    def copies(self, name):
        return int(self.table[self.table[H_COPIES] + self.c(name)])

    def bank_balance(self):
        """Credits the bank paid out minus what it took in (the players' cash moves by exactly this)."""
        paid_out, taken_in = self.parts.bank
        return int(paid_out - taken_in)

    def log_turn(self, seat):
        """Start a turn of ``seat`` in the event log and the table (as the engine's _turn does), without playing it."""
        self.table[E.H_TURN_SEAT] = seat
        S._write_event(self.ctx, seat, S.E_TURN, self.cash(seat), 0, 0, 0)
