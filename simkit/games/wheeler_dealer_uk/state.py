"""The Wheeler Dealer (UK) engine's state, and the moves every part of the engine makes on it: the layout of a
batch's arrays (make_context, named for Python by state_parts), the context the engine's helpers take, the
per-seat counters and the event log, asking a strategy (_ask), and the seat's cards (_add_clean, _add_at_risk).

Every helper takes ``ctx``: the engine's private int64 ``state`` vector, which finds the batch's other arrays by
their addresses (numba_tools' engine context, as in the US engine):
  state:  the engine's private fields (ST_*; ST_*_ADDRESS: where the other arrays are), the query, the pack
          heads, the per-seat counters of the game being played, the sets sold by size, then the Command pile:
          its order, the kind and the value of each card
  table:  the public table (view.py), which strategies are shown read-only
  packs:  [3, cards]: each pack as a ring (head in the state, size in the table)
  floats: per seat its parameters then its memory; rngs: per seat dice, per seat strategy, the deal, tie-breaks
  events: the replay log; fns: per decision and seat, a decision function's addresses
"""
from typing import NamedTuple

import numpy as np
from numba import types

from ...guard import deciding
from ...numba_tools import (
    EVENT_FIELDS,
    append_event,
    array_at,
    context_helper,
    function_addresses,
    function_from_addresses,
    inlined,
    readonly_c,
    store_addresses,
    uncounted,
    vector_at,
    view,
)
from ...strategy import MAX_PARAMS
from . import SEAT_STATS
from .view import (
    COLOURS,
    DECISION_NAMES,
    DECISION_SIGNATURE,
    F_CARD_VALUE,
    F_CARDS,
    F_RISK_CARDS,
    F_RISK_COST,
    F_SETS,
    H_COLOUR,
    H_COMMODITIES,
    H_COPIES,
    H_HELD,
    H_MIN_SET,
    H_PLAYERS,
    H_RISK,
    H_ROUND,
    H_SEATS,
    MAX_SEATS,
    MAX_SET,
    MEMORY_SIZE,
    Q_COMMODITY,
    Q_CONTEXT,
    Q_FROM,
    Q_KIND,
    Q_PRICE,
    Q_SEAT,
    Q_SHORT,
    QUERY_SIZE,
    SEAT_FIELDS,
    face,
    redeem_cost,
)

COMMAND_CHAIN = 16   # a Command move that lands on another Command space, and so on, stops after this many

# the per-seat counters' places: SEAT_STATS, the result columns in order, is declared with their meanings in
# __init__.py; a counter a later module alone counts has its place named there (docs/architecture.md)
S_SETS_SOLD = SEAT_STATS.index("sets_sold")
S_SET_CREDITS = SEAT_STATS.index("set_credits")
S_LOANS = SEAT_STATS.index("loans")
S_SALE_LOANS = SEAT_STATS.index("sale_loans")
S_REDEEMED = SEAT_STATS.index("redeemed")
S_FORFEITED = SEAT_STATS.index("forfeited")
S_BOUGHT_FROM_PLAYERS = SEAT_STATS.index("bought_from_players")
S_SOLD_TO_PLAYERS = SEAT_STATS.index("sold_to_players")
S_RAIDS = SEAT_STATS.index("raids")
S_RAIDED = SEAT_STATS.index("raided")
S_OFFERS_REFUSED = SEAT_STATS.index("offers_refused")
S_SPACE_BUYS = SEAT_STATS.index("space_buys")
S_CHARGES = SEAT_STATS.index("charges_paid")
S_COMMANDS = SEAT_STATS.index("commands")
S_FREE_CARDS = SEAT_STATS.index("free_cards")
S_TURNS = SEAT_STATS.index("turns")
S_BANKRUPT_ROUND = SEAT_STATS.index("bankrupt_round")
S_INNER_ROUND = SEAT_STATS.index("inner_round")
S_ILLEGAL = SEAT_STATS.index("illegal_actions")
S_BLUE_BONUSES = SEAT_STATS.index("blue_bonuses")
S_EMPTY_PACKS = SEAT_STATS.index("empty_pack_landings")
S_LONG_SETS = SEAT_STATS.index("long_sets")
S_REDEEM_LOANS = SEAT_STATS.index("redeem_loans")
N_STATS = len(SEAT_STATS)
END_TARGET, END_LAST_PLAYER, END_TURN_LIMIT = 0, 1, 2
LAST_ONES_OUT = -2

# state layout
# (each run of fields starts where the one before ends; ST_SALE_LOANS: cards of the turn's seat borrowed on for a
# sale, not yet sold)
(ST_BANK_OUT, ST_BANK_IN, ST_EVENT_COUNT, ST_RECORD, ST_COMMAND_HEAD, ST_COMMAND_CARDS, ST_TURN,
 ST_SALE_LOANS) = range(8)
(ST_TABLE_ADDRESS, ST_TABLE_LENGTH, ST_PACKS_ADDRESS, ST_PACK_CAPACITY, ST_FLOATS_ADDRESS, ST_RNGS_ADDRESS,
 ST_EVENTS_ADDRESS, ST_EVENT_CAPACITY, ST_FNS_ADDRESS) = range(ST_SALE_LOANS + 1, ST_SALE_LOANS + 10)
ST_BANKRUPT_TURN = ST_FNS_ADDRESS + 1       # per seat: the game turn it went bankrupt in
# a game between two turns (engine.GameState): the seat to play next, how the game ended (END_*, -1 while it goes
# on) and its winner (engine._play_on), checking mode, the start cash (checking mode's sums)
ST_NEXT_SEAT, ST_END, ST_WINNER, ST_CHECK, ST_START_CASH = range(ST_BANKRUPT_TURN + MAX_SEATS,
                                                                 ST_BANKRUPT_TURN + MAX_SEATS + 5)
ST_QUERY = ST_START_CASH + 1
ST_HEADS = ST_QUERY + QUERY_SIZE
ST_STATS = ST_HEADS + 4
ST_SET_SIZES = ST_STATS + MAX_SEATS * N_STATS
ST_COMMANDS = ST_SET_SIZES + MAX_SET + 1      # order of the pile, then kind and value of each card
RNG_ROWS = 2 * MAX_SEATS + 2                # rows used: per seat dice (n), strategy (n), the deal, tie-breaks

# event log for replays (numba_tools.append_event): [round, seat, kind, a, b, c, d]; seat is the one acting
# (not always the turn's seat)
EVENT_KINDS = ("turn", "missed", "deal", "refused", "raid", "redeem", "sell", "loan", "enter", "roll", "card",
               "buy", "charge", "empty_pack", "bonus", "command", "pay", "free_card", "discard", "bank_buys",
               "forfeit", "bankrupt", "win", "end", "illegal", "yellow_command", "cannot_raise", "loan_to_risk",
               "dealt")
(E_TURN, E_MISSED, E_DEAL, E_REFUSED, E_RAID, E_REDEEM, E_SELL, E_LOAN, E_ENTER, E_ROLL, E_CARD, E_BUY,
 E_CHARGE, E_EMPTY_PACK, E_BONUS, E_COMMAND, E_PAY, E_FREE_CARD, E_DISCARD, E_BANK_BUYS, E_FORFEIT,
 E_BANKRUPT, E_WIN, E_END, E_ILLEGAL, E_YELLOW_COMMAND, E_CANNOT_RAISE, E_LOAN_TO_RISK, E_DEALT) = range(len(EVENT_KINDS))
# E_DEALT: a start-hand card, commodity and face value (so a replay shows the hands and wealth can be re-added)
# E_PAY: amount, payee (PAYEE_BANK, PAYEE_EACH or a seat), what for (PAY_*), a detail (PAY_*)
PAYEE_BANK, PAYEE_EACH = -1, -2
PAY_PLAIN = 0         # a Command card's payment; to each other player: detail = the total
PAY_CHARGE = 1        # the Handlers Charge
PAY_RAID_LOAN = 2     # a raided owner repays its loan + interest from the price; detail = the commodity
PAY_SALE_LOANS = 3    # the loans on cards of a set just sold, + interest; detail = the commodity
PAY_LAST_CASH = 4     # a bankrupt payer's last credits to an unpaid creditor
# E_CANNOT_RAISE: commodity, price, what it was for (WANT_*), the other seat of a deal
WANT_DEAL, WANT_CARD, WANT_REDEEM = 0, 1, 2

I = types.int64
_I64 = types.Array(types.int64, 1, "C")
# Every helper has one explicit signature (numba_tools.context_helper, or uncounted for the two that take the
# table); only the small ones are inlined (numba_tools.inlined).


# ---- the context: the batch's arrays, found through the state ---------------------------------------
_decision_function = function_from_addresses(DECISION_SIGNATURE)


@inlined
def _state(ctx):
    return ctx


@inlined
def _table(ctx):
    return vector_at(ctx[ST_TABLE_ADDRESS], ctx[ST_TABLE_LENGTH], np.int64)


@inlined
def _packs(ctx):
    return array_at(ctx[ST_PACKS_ADDRESS], len(COLOURS), ctx[ST_PACK_CAPACITY], np.int64)


@inlined
def _floats(ctx):
    return array_at(ctx[ST_FLOATS_ADDRESS], MAX_SEATS, MAX_PARAMS + MEMORY_SIZE, np.float64)


@inlined
def _rngs(ctx):
    return array_at(ctx[ST_RNGS_ADDRESS], RNG_ROWS, 4, np.uint64)


@inlined
def _events(ctx):
    return array_at(ctx[ST_EVENTS_ADDRESS], ctx[ST_EVENT_CAPACITY], EVENT_FIELDS, np.int64)


@inlined
def _decision(ctx, kind, seat):
    fns = array_at(ctx[ST_FNS_ADDRESS], len(DECISION_NAMES) * MAX_SEATS, 3, np.int64)
    at = kind * MAX_SEATS + seat
    return _decision_function(fns[at, 0], fns[at, 1], fns[at, 2])


# ---- small accessors of the table ---------------------------------------------------------------
@inlined
def _seat(table, seat, field):
    return table[H_SEATS] + seat * SEAT_FIELDS + field


@inlined
def _held(table, seat, c):
    return table[H_HELD] + seat * table[H_COMMODITIES] + c


@inlined
def _risk(table, seat, c):
    return table[H_RISK] + seat * table[H_COMMODITIES] + c


@inlined
def _stat(state, seat, stat):
    return ST_STATS + seat * N_STATS + stat


@uncounted(types.none(_I64, I, I, I))
def _add_clean(table, seat, c, cards):
    """Clean cards of c in or (cards < 0) out of a seat's hand; keeps the seat's totals (view.py F_*)."""
    at = _held(table, seat, c)
    before = table[at]
    table[at] = before + cards
    table[_seat(table, seat, F_CARDS)] += cards
    table[_seat(table, seat, F_CARD_VALUE)] += cards * face(table, c)
    min_set = table[H_MIN_SET]
    table[_seat(table, seat, F_SETS)] += int(before + cards >= min_set) - int(before >= min_set)


@uncounted(types.none(_I64, I, I, I))
def _add_at_risk(table, seat, c, cards):
    """Cards of c into or (cards < 0) out of a seat's At Risk zone; keeps the seat's totals."""
    table[_risk(table, seat, c)] += cards
    table[_seat(table, seat, F_RISK_CARDS)] += cards
    table[_seat(table, seat, F_CARD_VALUE)] += cards * face(table, c)
    table[_seat(table, seat, F_RISK_COST)] += cards * redeem_cost(table, c)


@inlined
def _log(ctx, seat, kind, a, b, c, d):
    if _state(ctx)[ST_RECORD] != 0:
        _write_event(ctx, seat, kind, a, b, c, d)


@context_helper(types.none, I, I, I, I, I, I)
def _write_event(ctx, seat, kind, a, b, c, d):
    state = _state(ctx)
    state[ST_EVENT_COUNT] = append_event(_events(ctx), state[ST_EVENT_COUNT], _table(ctx)[H_ROUND], seat, kind, a, b,
                                         c, d)


@context_helper(I, I, I, I, I, I, I, I)
def _ask(ctx, kind, seat, context, commodity, price, short, other):
    """Put a question to a seat's strategy (view.py D_*)."""
    table, state = _table(ctx), _state(ctx)
    query = view(state, ST_QUERY, QUERY_SIZE)   # views without a slice's clamping of its bounds
    query[Q_SEAT] = seat
    query[Q_KIND] = kind
    query[Q_CONTEXT] = context
    query[Q_COMMODITY] = commodity
    query[Q_PRICE] = price
    query[Q_SHORT] = short
    query[Q_FROM] = other
    floats = _floats(ctx)[seat]
    deciding(seat, kind)
    return _decision(ctx, kind, seat)(readonly_c(table), readonly_c(view(floats, 0, MAX_PARAMS)),
                                      view(floats, MAX_PARAMS, MEMORY_SIZE), _rngs(ctx)[table[H_PLAYERS] + seat],
                                      readonly_c(query))


@context_helper(types.none, I, I, I)
def _illegal(ctx, seat, kind, answer):
    """An answer the engine refuses: counted, logged; the caller plays the decision's default."""
    _state(ctx)[_stat(_state(ctx), seat, S_ILLEGAL)] += 1
    _log(ctx, seat, E_ILLEGAL, kind, answer, 0, 0)


@context_helper(I, I, I, I, I, I, I, I)
def _ask_yes_no(ctx, kind, seat, context, commodity, price, short, other):
    """A yes/no decision: 1 or 0; any other answer is refused and played as 0 (every yes/no default is 0)."""
    answer = _ask(ctx, kind, seat, context, commodity, price, short, other)
    if answer == 0 or answer == 1:
        return answer
    _illegal(ctx, seat, kind, answer)
    return 0





def make_context(prepared, functions, params, event_capacity=0, record=False):
    """Allocate the arrays of one batch, ``(state, table, packs, floats, rngs, events, fns)``, for compiled rules
    (rules.UKRules), the decision functions of each seat (``functions[seat]``, in DECISION_NAMES order) and the
    seats' parameters (``params[seat]``). The caller keeps the arrays alive while the engine runs on
    ``kernel_context(arrays)``; ``_play`` sets up each game in them."""
    n, commands = prepared.n_players, prepared.commands
    cards = len(commands)
    state = np.zeros(ST_COMMANDS + 3 * cards, np.int64)
    state[ST_RECORD] = record
    state[ST_COMMAND_CARDS] = cards
    state[ST_COMMANDS + cards:ST_COMMANDS + 2 * cards] = commands[:, 0]
    state[ST_COMMANDS + 2 * cards:] = commands[:, 1]
    table = prepared.table.copy()
    copies = table[table[H_COPIES]:][:len(prepared.commodities)]
    colours = table[table[H_COLOUR]:][:len(prepared.commodities)]
    largest = max(int(copies[colours == k].sum()) for k in range(len(COLOURS)))
    packs = np.zeros((len(COLOURS), max(1, largest)), np.int64)
    floats = np.zeros((MAX_SEATS, MAX_PARAMS + MEMORY_SIZE))
    floats[:, :params.shape[1]] = params
    fns = function_addresses(DECISION_SIGNATURE, tuple(functions[min(seat, n - 1)][decision]
                                                       for decision in range(len(DECISION_NAMES))
                                                       for seat in range(MAX_SEATS)))
    arrays = (state, table, packs, floats, np.zeros((RNG_ROWS, 4), np.uint64),
              np.zeros((event_capacity, EVENT_FIELDS), np.int64), fns)
    store_addresses(state, (ST_TABLE_ADDRESS, ST_PACKS_ADDRESS, ST_FLOATS_ADDRESS, ST_RNGS_ADDRESS, ST_EVENTS_ADDRESS,
                            ST_FNS_ADDRESS), arrays[1:])
    state[ST_TABLE_LENGTH] = table.size
    state[ST_PACK_CAPACITY] = packs.shape[1]
    state[ST_EVENT_CAPACITY] = event_capacity
    return arrays


class StateParts(NamedTuple):
    """Named views of a batch's arrays (make_context): the places the kernel reads and writes, for Python
    (the result columns, and tests that set up a position by hand)."""

    table: np.ndarray           # view.py's public table
    packs: np.ndarray           # [pack, capacity]: each pack as a ring from its head
    heads: np.ndarray           # per pack: where its top card is in packs
    command_order: np.ndarray   # the Command pile: card indices, the next one at command_head
    command_head: np.ndarray    # [1]
    command_kinds: np.ndarray   # per Command card: its kind (rules.C_*)
    command_values: np.ndarray  # and its value
    stats: np.ndarray           # [seat, SEAT_STATS]
    set_sizes: np.ndarray       # sets sold by number of cards, summed over the batch
    bank: np.ndarray            # [2]: what the bank paid out, what it took in, this game
    event_count: np.ndarray     # [1]: events logged (beyond the log's capacity too)
    events: np.ndarray          # [capacity, EVENT_FIELDS]
    params: np.ndarray          # [seat, MAX_PARAMS]: each strategy's parameters
    memory: np.ndarray          # [seat, MEMORY_SIZE]: each strategy's memory
    rngs: np.ndarray            # [RNG_ROWS, 4]: per seat dice, per seat strategy, the deal, tie-breaks


def state_parts(arrays) -> StateParts:
    state, floats = arrays[0], arrays[3]
    cards = int(state[ST_COMMAND_CARDS])
    return StateParts(
        table=arrays[1], packs=arrays[2], heads=state[ST_HEADS:ST_HEADS + len(COLOURS)],
        command_order=state[ST_COMMANDS:ST_COMMANDS + cards], command_head=state[ST_COMMAND_HEAD:ST_COMMAND_HEAD + 1],
        command_kinds=state[ST_COMMANDS + cards:ST_COMMANDS + 2 * cards],
        command_values=state[ST_COMMANDS + 2 * cards:ST_COMMANDS + 3 * cards],
        stats=state[ST_STATS:ST_STATS + MAX_SEATS * N_STATS].reshape(MAX_SEATS, N_STATS),
        set_sizes=state[ST_SET_SIZES:ST_SET_SIZES + MAX_SET + 1], bank=state[ST_BANK_OUT:ST_BANK_IN + 1],
        event_count=state[ST_EVENT_COUNT:ST_EVENT_COUNT + 1], events=arrays[5],
        params=floats[:, :MAX_PARAMS], memory=floats[:, MAX_PARAMS:], rngs=arrays[4])
