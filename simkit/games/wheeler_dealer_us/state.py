"""The Wheeler-Dealer (US) engine's state, and the moves every part of the engine makes on it: the layout of a
batch's arrays (make_context, named for Python by state_parts), the context the engine's helpers take, the
per-seat counters and the event log, asking a strategy (_decide), the dice, and every change of cash and
titles (so that the holdings versions strategies read stay right)."""
from typing import NamedTuple

import numpy as np
from numba import njit, types

from ... import rng
from ...guard import deciding
from ...numba_tools import (
    EVENT_FIELDS,
    append_event,
    array_at,
    function_addresses,
    function_from_addresses,
    inlined,
    readonly_c,
    store_addresses,
    view,
)
from ...strategy import MAX_PARAMS
from . import SEAT_STATS
from .rules import RULE_SIZE
from .view import (
    DECISION_NAMES,
    DECISION_SIGNATURE,
    K_KIND,
    MAX_BLOCK,
    MAX_SEATS,
    MEMORY_SIZE,
    OUT_SIZE,
    P_BLOCK,
    PUB_BLOCKS,
    PUB_CARD_ROW,
    PUB_CARD_TYPES,
    PUB_COMMODITIES,
    PUB_HOLDINGS_VERSION,
    PUB_PLAYERS,
    PUB_PROPERTIES,
    PUB_SEAT,
    PUB_SQUARES,
    PUB_TURN,
    Q_KIND,
    QUERY_SIZE,
    S_ALIVE,
    S_CASH,
    S_ON_SCHOOL,
    TABLE_COLUMNS,
    debt_slot,
    owner_slot,
    public_length,
    seat_slot,
)

# ---- the per-seat counters and the event log --------------------------------------------------------

# the per-seat counters' places: SEAT_STATS, the result columns in order, is declared with their meanings in
# __init__.py; a counter a later module alone counts has its place named there (docs/architecture.md)
S_BOUGHT = SEAT_STATS.index("bought")
S_AUCTIONS_WON = SEAT_STATS.index("auctions_won")
S_DECLINED_THEN_WON = SEAT_STATS.index("declined_then_won")
S_POACHES = SEAT_STATS.index("poaches")
S_POACHED = SEAT_STATS.index("poached")
S_LOANS = SEAT_STATS.index("loans")
S_REPAID = SEAT_STATS.index("repaid")
S_DEALS_OFFERED = SEAT_STATS.index("deals_offered")
S_DEALS_ACCEPTED = SEAT_STATS.index("deals_accepted")
S_RENT_PAID = SEAT_STATS.index("rent_paid")
S_RENT_RECEIVED = SEAT_STATS.index("rent_received")
S_EXCHANGE_PROFIT = SEAT_STATS.index("exchange_profit")
S_BANKRUPT_TURN = SEAT_STATS.index("bankrupt_turn")
S_TURNS = SEAT_STATS.index("turns_played")
S_CARDS_USED = SEAT_STATS.index("cards_used")
S_BUMPS = SEAT_STATS.index("bumps")
S_BAMBOOZLES_WON = SEAT_STATS.index("bamboozles_won")
S_ILLEGAL = SEAT_STATS.index("illegal_actions")
S_DOUBLES_BONUSES = SEAT_STATS.index("doubles_bonuses")
S_PARK_VISITS = SEAT_STATS.index("park_visits")
S_CITY_HALL_VISITS = SEAT_STATS.index("city_hall_visits")
S_SCHOOL_STAYS = SEAT_STATS.index("school_stays")
S_TRADE_FAIR_VISITS = SEAT_STATS.index("trade_fair_visits")
S_TAX_AUDITS = SEAT_STATS.index("tax_audits")
S_BAMBOOZLES = SEAT_STATS.index("bamboozles")
S_CASH_BAMBOOZLES = SEAT_STATS.index("cash_bamboozles")
N_STATS = len(SEAT_STATS)
END_CLOCK, END_LAST_PLAYER, END_TURN_LIMIT = 0, 1, 2

# event log for replays (numba_tools.append_event): [turn, seat, kind, a, b, c, d]
EVENT_KINDS = ("turn", "missed", "invest", "move", "doubles", "buy", "auction", "no_bid", "rent", "own_income",
               "poach", "park", "city_hall", "school", "card", "borrow", "repay", "deal", "sale", "bankrupt",
               "bump", "audit", "bamboozle", "moved", "extra_turn", "pay", "collect", "end", "illegal",
               "card_saved", "card_used", "master_key", "deal_terms", "card_discarded")
(E_TURN, E_MISSED, E_INVEST, E_MOVE, E_DOUBLES, E_BUY, E_AUCTION, E_NO_BID, E_RENT, E_OWN_INCOME, E_POACH,
 E_PARK, E_CITY_HALL, E_SCHOOL, E_CARD, E_BORROW, E_REPAY, E_DEAL, E_SALE, E_BANKRUPT, E_BUMP, E_AUDIT,
 E_BAMBOOZLE, E_MOVED, E_EXTRA_TURN, E_PAY, E_COLLECT, E_END, E_ILLEGAL, E_CARD_SAVED, E_CARD_USED,
 E_MASTER_KEY, E_DEAL_TERMS, E_CARD_DISCARDED) = range(len(EVENT_KINDS))
# E_CARD_USED's b: how the card is used (the Combo Platter: USED_AS_COMBO + its use, COMBO_*)
USED_DRAWN, USED_CANCEL_AUDIT, USED_SKIP_SCHOOL, USED_STEP5, USED_AS_COMBO = 0, 1, 2, 5, 10

# ---- the context: a batch's arrays, and the views of them the helpers take ----------------------------

# The engine's larger helpers get one explicit signature each (numba_tools.context_helper); only the small ones
# are inlined (numba_tools.inlined).
I = types.int64
B = types.boolean
none = types.none
_I64 = types.Array(types.int64, 1, "C")
# A batch's arrays (make_context): (state, table, fns, floats, rngs, events).
#   state:  int64, the engine's private fields (ST_*), then the public table (view.py), then the deck,
#           the landings per square, Exchange investments and wins per seat and commodity, a scratch
#           flag per property and per card type (_tried), the properties of each block (block_members);
#           make_context writes where each of these regions starts into the ST_*_AT fields, the one place
#           the layout is computed (the kernel and state_parts read them)
#   table:  the rule data (view.py); fns: per decision and seat, the addresses of a first-class function
#           (numba_tools.function_addresses)
#   floats: per seat, the strategy's parameters then its memory; rngs: per seat dice, per seat strategy,
#           tie-breaks, the deck; events: the replay log
# Every engine helper takes ``ctx``, the state alone, which holds the other arrays' addresses (ST_*_ADDRESS):
# numba_tools' engine context, the one the UK engine uses too.
# The helpers are compiled without reference counting: the kernel's caller keeps every array alive and
# the engine allocates nothing, and with it each array cost a runtime call in and out of every helper.
# (each run of fields starts where the one before ends)
ST_BANK, ST_EVENT_COUNT, ST_MODE, ST_PUBLIC_LEN, ST_DECK_SIZE = range(5)
(ST_TABLE_ADDRESS, ST_TABLE_ROWS, ST_FNS_ADDRESS, ST_FLOATS_ADDRESS, ST_RNGS_ADDRESS, ST_EVENTS_ADDRESS,
 ST_EVENT_CAPACITY) = range(ST_DECK_SIZE + 1, ST_DECK_SIZE + 8)
(ST_DECK_AT, ST_LANDINGS_AT, ST_INVEST_AT, ST_WON_AT, ST_TRIED_AT, ST_MEMBERS_AT) = range(ST_EVENT_CAPACITY + 1,
                                                                                          ST_EVENT_CAPACITY + 7)
# a game between two goes (engine.GameState): the seat whose go is next, and how the game ended (END_*, -1 while
# it goes on)
ST_NEXT_SEAT, ST_END = ST_MEMBERS_AT + 1, ST_MEMBERS_AT + 2
MODE_RECORD, MODE_CHECK = 1, 2
ST_QUERY = 24
ST_OUT = ST_QUERY + QUERY_SIZE
ST_RULES = ST_OUT + OUT_SIZE
ST_EXTRA = ST_RULES + RULE_SIZE
ST_STATS = ST_EXTRA + MAX_SEATS
ST_PUBLIC = ST_STATS + MAX_SEATS * N_STATS
# random streams: per seat its movement dice, strategy, Exchange rolls and other dice (income, rent, Park,
# School, audits, cards, Bamboozles, bumps), so that a change that adds or removes one roll of a kind leaves
# the paired game's other rolls where they were (common random numbers); then tie-breaks and the deck
DICE_ROW, STRATEGY_ROW, TIE_ROW, DECK_ROW = 0, MAX_SEATS, 2 * MAX_SEATS, 2 * MAX_SEATS + 1
EXCHANGE_ROW, EXTRA_DICE_ROW = 2 * MAX_SEATS + 2, 3 * MAX_SEATS + 2
RNG_ROWS = 4 * MAX_SEATS + 2


_decision_function = function_from_addresses(DECISION_SIGNATURE)


@inlined
def _state(ctx):
    return ctx


@inlined
def _table(ctx):
    return array_at(ctx[ST_TABLE_ADDRESS], ctx[ST_TABLE_ROWS], TABLE_COLUMNS, np.int64)


@inlined
def _fns(ctx):
    return array_at(ctx[ST_FNS_ADDRESS], len(DECISION_NAMES) * MAX_SEATS, 3, np.int64)


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
def _decision_at(fns, index):
    return _decision_function(fns[index, 0], fns[index, 1], fns[index, 2])


@inlined
def _part(array, start, length):
    return view(array, start, length)


@inlined
def _public(ctx):
    state = _state(ctx)
    return _part(state, ST_PUBLIC, state[ST_PUBLIC_LEN])


@inlined
def _rules(ctx):
    return _part(_state(ctx), ST_RULES, RULE_SIZE)


@inlined
def _deck(ctx):
    state = _state(ctx)
    return _part(state, state[ST_DECK_AT], state[ST_DECK_SIZE])


@inlined
def _out(ctx):
    return _part(_state(ctx), ST_OUT, OUT_SIZE)


@inlined
def _landings_at(ctx):
    return _state(ctx)[ST_LANDINGS_AT]


@inlined
def _invest_at(ctx, seat, commodity):
    state = _state(ctx)
    return state[ST_INVEST_AT] + seat * state[ST_PUBLIC + PUB_COMMODITIES] + commodity


@inlined
def _won_at(ctx, seat, commodity):
    state = _state(ctx)
    return state[ST_WON_AT] + seat * state[ST_PUBLIC + PUB_COMMODITIES] + commodity


@inlined
def _tried(ctx):
    """A flag per property, then per card type: offered for sale in the current raise (raises never nest)."""
    state = _state(ctx)
    return _part(state, state[ST_TRIED_AT], state[ST_PUBLIC + PUB_PROPERTIES] + state[ST_PUBLIC + PUB_CARD_TYPES])


@inlined
def _members(ctx):
    state = _state(ctx)
    return _part(state, state[ST_MEMBERS_AT], state[ST_PUBLIC + PUB_BLOCKS] * MAX_BLOCK)


@njit(cache=True)
def block_members(table, properties, blocks):
    """The properties of each block, MAX_BLOCK slots a block, -1 after the last: a block's holdings are
    then counted over its own properties rather than over the whole board."""
    members = np.full(blocks * MAX_BLOCK, -1, np.int64)
    for prop in range(properties):
        at = table[prop, P_BLOCK] * MAX_BLOCK
        while members[at] >= 0:
            at += 1
        members[at] = prop
    return members


@inlined
def _held_in_block(public, members, seat, block):
    count = 0
    for i in range(block * MAX_BLOCK, block * MAX_BLOCK + MAX_BLOCK):
        prop = members[i]
        if prop < 0:
            break
        count += public[owner_slot(prop)] == seat
    return count


# ---- the log, strategies' decisions, dice ---------------------------------------------------------------


@inlined
def _log(ctx, seat, kind, a, b, c, d):
    """An event (E_*) of the game turn being played, when recording (numba_tools.append_event)."""
    state = _state(ctx)
    if state[ST_MODE] & MODE_RECORD:
        state[ST_EVENT_COUNT] = append_event(_events(ctx), state[ST_EVENT_COUNT], _public(ctx)[PUB_TURN], seat,
                                             kind, a, b, c, d)


@inlined
def _decide(ctx, decision, seat, a, b, c, d, e):
    state = _state(ctx)
    public = _public(ctx)
    query = _part(state, ST_QUERY, QUERY_SIZE)
    out = _part(state, ST_OUT, OUT_SIZE)
    public[PUB_SEAT] = seat
    query[Q_KIND] = decision
    query[1] = a  # the decision's arguments, in the order of its Q_* fields (view.py)
    query[2] = b
    query[3] = c
    query[4] = d
    query[5] = e
    for i in range(OUT_SIZE):  # a constant count: stores, not a call to memset
        state[ST_OUT + i] = 0
    floats = _floats(ctx)[seat]
    function = _decision_at(_fns(ctx), decision * MAX_SEATS + seat)
    deciding(seat, decision)
    # every argument C-ordered (view.DECISION_SIGNATURE): views of the state, the table and floats, no copies
    return function(readonly_c(public), readonly_c(_table(ctx)), readonly_c(query),
                    readonly_c(_part(floats, 0, MAX_PARAMS)), _part(floats, MAX_PARAMS, MEMORY_SIZE),
                    _rngs(ctx)[STRATEGY_ROW + seat], out)


@inlined
def _die(ctx, row):
    """One die from a stream row (DICE_ROW, EXCHANGE_ROW or EXTRA_DICE_ROW + seat)."""
    return 1 + rng.below(_rngs(ctx)[row], 6)


@inlined
def _count(ctx, seat, stat):
    """One more of the seat's counter ``stat`` (S_*) this game."""
    _state(ctx)[ST_STATS + seat * N_STATS + stat] += 1


@inlined
def _illegal(ctx, seat, decision):
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_ILLEGAL] += 1
    _log(ctx, seat, E_ILLEGAL, decision, 0, 0, 0)


# ---- cash and titles: every change of them goes through these -----------------------------------------


@inlined
def _cash(public, seat):
    return public[seat_slot(seat, S_CASH)]


@inlined
def _add_cash(ctx, seat, amount, from_bank):
    """Move ``amount`` into a seat's cash; from_bank: the bank pays it (or, negative, receives it)."""
    _state(ctx)[ST_PUBLIC + seat_slot(seat, S_CASH)] += amount
    if from_bank:
        _state(ctx)[ST_BANK] += amount


@inlined
def _transfer(ctx, payer, amount, creditor):
    _add_cash(ctx, payer, -amount, creditor < 0)
    if creditor >= 0:
        _add_cash(ctx, creditor, amount, False)


@inlined
def _alive(public, seat):
    return public[seat_slot(seat, S_ALIVE)] != 0


@inlined
def _on_school(public, seat):
    return public[seat_slot(seat, S_ON_SCHOOL)] != 0


@inlined
def _holdings_changed(public, seat):
    if seat >= 0:
        public[PUB_HOLDINGS_VERSION + seat] += 1


@inlined
def _set_owner(public, prop, seat):
    """Every change of titles and debts goes through here and _set_debt: they move the holdings version
    of each seat concerned (view.holdings_version)."""
    _holdings_changed(public, public[owner_slot(prop)])
    public[owner_slot(prop)] = seat
    _holdings_changed(public, seat)


@inlined
def _set_debt(public, prop, debt_ridden):
    public[debt_slot(public, prop)] = debt_ridden
    _holdings_changed(public, public[owner_slot(prop)])


@inlined
def _card_kind(ctx, card_type):
    return _table(ctx)[_public(ctx)[PUB_CARD_ROW] + card_type, K_KIND]


# ---- a batch's arrays ---------------------------------------------------------------------------------


def make_context(prepared, functions, params, event_capacity=0, record=False):
    """Allocate the arrays of one batch (described above ST_BANK) for compiled rules (rules.USRules), the decision functions
    of each seat (``functions[seat][decision]``, in DECISION_NAMES order) and the seats' parameters. The
    caller keeps the arrays alive while the engine runs on ``kernel_context(arrays)``; ``_new_game`` then
    sets up each game in them."""
    table, deck = prepared.table, prepared.deck
    n_props, n_blocks = len(prepared.properties), len(prepared.blocks)
    n_commodities, n_card_types, n_squares = len(prepared.commodities), len(prepared.card_types), len(prepared.squares)
    public_len = public_length(n_props, n_card_types)
    regions = {}
    at = ST_PUBLIC + public_len
    for slot, size in ((ST_DECK_AT, deck.size), (ST_LANDINGS_AT, n_squares), (ST_INVEST_AT, MAX_SEATS * n_commodities),
                       (ST_WON_AT, MAX_SEATS * n_commodities), (ST_TRIED_AT, n_props + n_card_types),
                       (ST_MEMBERS_AT, n_blocks * MAX_BLOCK)):
        regions[slot] = at
        at += size
    state = np.zeros(at, np.int64)
    for slot, start in regions.items():
        state[slot] = start
    state[ST_PUBLIC_LEN] = public_len
    state[ST_DECK_SIZE] = deck.size
    state[ST_MODE] = MODE_RECORD if record else 0
    state[ST_RULES:ST_RULES + RULE_SIZE] = prepared.vector
    public = state[ST_PUBLIC:ST_PUBLIC + public_len]
    public[PUB_PLAYERS] = prepared.n_players
    public[PUB_PROPERTIES] = n_props
    public[PUB_BLOCKS] = n_blocks
    public[PUB_COMMODITIES] = n_commodities
    public[PUB_CARD_TYPES] = n_card_types
    public[PUB_SQUARES] = n_squares
    state[regions[ST_MEMBERS_AT]:] = block_members(table, n_props, n_blocks)
    n_players = len(functions)
    fns = function_addresses(DECISION_SIGNATURE, tuple(functions[min(seat, n_players - 1)][decision]
                                                       for decision in range(len(DECISION_NAMES))
                                                       for seat in range(MAX_SEATS)))
    floats = np.zeros((MAX_SEATS, MAX_PARAMS + MEMORY_SIZE))
    floats[:, :params.shape[1]] = params
    arrays = (state, np.ascontiguousarray(table), fns, floats, np.zeros((RNG_ROWS, 4), np.uint64),
              np.zeros((event_capacity, EVENT_FIELDS), np.int64))
    store_addresses(state, (ST_TABLE_ADDRESS, ST_FNS_ADDRESS, ST_FLOATS_ADDRESS, ST_RNGS_ADDRESS, ST_EVENTS_ADDRESS),
                    arrays[1:])
    state[ST_TABLE_ROWS] = table.shape[0]
    state[ST_EVENT_CAPACITY] = event_capacity
    return arrays


class StateParts(NamedTuple):
    """Named views of a batch's arrays (make_context): the places the kernel reads and writes, for Python
    (the result columns, and tests that set up a position by hand)."""

    public: np.ndarray        # view.py's public table
    deck: np.ndarray          # card type of each card, in drawing order
    landings: np.ndarray      # per square, summed over the batch
    invest: np.ndarray        # [seat, commodity]: Exchange investments made this game
    won: np.ndarray           # [seat, commodity]: and won
    stats: np.ndarray         # [seat, SEAT_STATS]
    extra_turns: np.ndarray   # per seat: extra turns still to play
    bank: np.ndarray          # [1]: the bank's net payments to players this game
    event_count: np.ndarray   # [1]: events logged (beyond the log's capacity too)
    events: np.ndarray        # [capacity, EVENT_FIELDS]
    params: np.ndarray        # [seat, MAX_PARAMS]: each strategy's parameters
    memory: np.ndarray        # [seat, MEMORY_SIZE]: each strategy's memory


def state_parts(arrays) -> StateParts:
    state, floats = arrays[0], arrays[3]
    commodities = int(state[ST_PUBLIC + PUB_COMMODITIES])

    def part(slot, size):
        start = int(state[slot])
        return state[start:start + size]

    return StateParts(
        public=state[ST_PUBLIC:ST_PUBLIC + state[ST_PUBLIC_LEN]], deck=part(ST_DECK_AT, state[ST_DECK_SIZE]),
        landings=part(ST_LANDINGS_AT, state[ST_PUBLIC + PUB_SQUARES]),
        invest=part(ST_INVEST_AT, MAX_SEATS * commodities).reshape(MAX_SEATS, commodities),
        won=part(ST_WON_AT, MAX_SEATS * commodities).reshape(MAX_SEATS, commodities),
        stats=state[ST_STATS:ST_STATS + MAX_SEATS * N_STATS].reshape(MAX_SEATS, N_STATS),
        extra_turns=state[ST_EXTRA:ST_EXTRA + MAX_SEATS], bank=state[ST_BANK:ST_BANK + 1],
        event_count=state[ST_EVENT_COUNT:ST_EVENT_COUNT + 1], events=arrays[5],
        params=floats[:, :MAX_PARAMS], memory=floats[:, MAX_PARAMS:])
