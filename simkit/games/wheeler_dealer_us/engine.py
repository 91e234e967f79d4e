"""The Wheeler-Dealer (US) engine: a batch of games in one Numba kernel (the rules as it plays them, with
the decisions U1-U16: docs/rules/wheeler-dealer-us.md).

The table everyone sees (U12) is the engine's state itself, the ``public`` vector of view.py; hidden
are only the deck order and the random streams. Each seat has its own dice stream, so a strategy
change alters other seats' dice only through what it changes on the board (common random numbers).
Strategies arrive as a table of first-class function addresses, decision-major (decision * MAX_SEATS +
seat).
"""
import functools

import numba
import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from ... import rng
from ...numba_tools import readonly
from ...numba_tools import unmanaged as _unmanaged
from .rules import (RULE_SIZE, R_AUCTION_INCREMENT, R_AUCTION_MIN, R_AUDIT_PER_PIP, R_BAMBOOZLE_CASH,
                    R_CITY_HALL_PERCENT, R_DEALS_PER_TURN, R_DECK_SIZE, R_DOUBLES_BONUS, R_LAST_PLAYER_STANDING,
                    R_LEVEL, R_MAX_TURNS, R_MIN_INVEST, R_PARK_PER_PIP, R_PARK_SQUARE, R_SCHOOL_PER_PIP,
                    R_SCHOOL_SQUARE, R_START_CASH, R_TRADE_FAIR_EXTRA)
from ...strategy import MAX_PARAMS
from .view import (CARD_DRAWN, CARD_MASTER_KEY_AUDIT, CARD_MASTER_KEY_SCHOOL, CARD_STEP5, CK_BAMBOOZLE, CK_COLLECT,
                   CK_COLLECT_FROM_EACH, CK_COLLECT_PER_PIP, CK_COMBO, CK_EASY_COME, CK_EXTRA_TURN, CK_MASTER_KEY,
                   CK_MOVE_ANY, CK_PAY, CK_PAY_PERCENT, CK_TAXI, CK_TAX_AUDIT, CK_UNDERHANDED, DEAL_BUY, DEAL_SELL,
                   DEAL_SWAP, DECISION_NAMES, DECISION_SIGNATURE, D_BAMBOOZLE, D_BID, D_BORROW_ON, D_BUMP, D_BUY,
                   D_CARD, D_DEAL_ANSWER, D_DEAL_OFFER, D_FINANCE, D_INVEST, D_POACH, D_RAISE, K_AMOUNT, K_KIND,
                   K_PERCENT, MAX_BLOCK, MAX_MONEY, MAX_SEATS, MEMORY_SIZE, OUT_SIZE, PUB_ACTIVE,
                   PUB_AUCTION_INCREMENT, PUB_AUCTION_MIN, PUB_AUDIT_PER_PIP, PUB_BAMBOOZLE_CASH, PUB_BLOCKS,
                   PUB_CARDS_LEFT, PUB_CARD_ROW, PUB_CARD_TYPES, PUB_CITY_HALL_PERCENT, PUB_COMMODITIES,
                   PUB_COMMODITY_ROW, PUB_HOLDINGS_VERSION, PUB_LAST_CARD_DRAWN, PUB_LEVEL, PUB_MIN_INVEST,
                   PUB_PARK_PER_PIP, PUB_PARK_SQUARE, PUB_PLAYERS, PUB_PROPERTIES, PUB_SCHOOL_PER_PIP,
                   PUB_SCHOOL_SQUARE, PUB_SEAT, PUB_SQUARES, PUB_SQUARE_ROW, PUB_TRADE_FAIR_EXTRA, PUB_TURN, P_BLOCK,
                   P_BLOCK_SIZE, P_COST, P_INCOME, P_LOAN, P_PAYOFF, QUERY_SIZE, Q_KIND, Q_PROPERTY, RAISE_BORROW,
                   RAISE_EXCHANGE, RAISE_GIVE_UP, RAISE_SELL, RAISE_SELL_CARD, SQ_CITY_HALL, SQ_PARK, SQ_PROPERTY,
                   SQ_SCHOOL, SQ_TRADE_FAIR, S_ALIVE, S_CASH, S_EXTRA_EXCHANGE, S_MISSES_TURN, S_ON_SCHOOL,
                   S_POSITION, TABLE_COLUMNS, X_INVEST, X_MASK, X_RETURN, debt_slot, left_slot, owner_slot,
                   public_length, saved_slot, seat_slot)

# per-seat counters
(S_BOUGHT, S_AUCTIONS_WON, S_DECLINED_THEN_WON, S_POACHES, S_POACHED, S_LOANS, S_REPAID, S_DEALS_OFFERED,
 S_DEALS_ACCEPTED, S_RENT_PAID, S_RENT_RECEIVED, S_EXCHANGE_PROFIT, S_BANKRUPT_TURN, S_TURNS, S_CARDS_USED,
 S_BUMPS, S_BAMBOOZLES_WON, S_ILLEGAL) = range(18)
SEAT_STATS = ("bought", "auctions_won", "declined_then_won", "poaches", "poached", "loans", "repaid",
              "deals_offered", "deals_accepted", "rent_paid", "rent_received", "exchange_profit", "bankrupt_turn",
              "turns_played", "cards_used", "bumps", "bamboozles_won", "illegal_actions")
N_STATS = len(SEAT_STATS)
END_CLOCK, END_LAST_PLAYER, END_TURN_LIMIT = 0, 1, 2

# event log for replays: [turn, seat, kind, a, b, c, d]
EVENT_FIELDS = 7
(E_TURN, E_MISSED, E_INVEST, E_MOVE, E_DOUBLES, E_BUY, E_AUCTION, E_NO_BID, E_RENT, E_OWN_INCOME, E_POACH, E_PARK,
 E_CITY_HALL, E_SCHOOL, E_CARD, E_BORROW, E_REPAY, E_DEAL, E_SALE, E_BANKRUPT, E_BUMP, E_AUDIT, E_BAMBOOZLE,
 E_MOVED, E_EXTRA_TURN, E_PAY, E_COLLECT, E_END, E_ILLEGAL, E_CARD_SAVED, E_CARD_USED, E_MASTER_KEY,
 E_DEAL_TERMS, E_CARD_DISCARDED) = range(34)
# E_CARD_USED's b: how the card is used (the Combo Platter: USED_AS_COMBO + its mode)
USED_DRAWN, USED_CANCEL_AUDIT, USED_SKIP_SCHOOL, USED_STEP5, USED_AS_COMBO = 0, 1, 2, 5, 10

# The engine's larger helpers get one explicit signature each: called with literal constants (event
# kinds, zeros), Numba would otherwise compile a specialisation per combination of literal values (over
# a hundred for the logger alone; minutes of compilation). Only the small helpers are inlined
# (``_inline``): inlining the larger ones gained under 10% and made the first compilation take minutes.
I = types.int64
B = types.boolean
none = types.none
_I64 = types.Array(types.int64, 1, "C")
_I64M = types.Array(types.int64, 2, "C")
_U64M = types.Array(types.uint64, 2, "C")
_F64M = types.Array(types.float64, 2, "C")
# A batch's arrays (make_context): (state, table, fns, floats, rngs, events).
#   state:  int64, the engine's private fields (ST_*), then the public table (view.py), then the deck,
#           the landings per square, Exchange investments and wins per seat and commodity, a scratch
#           flag per property and per card type (_tried), the properties of each block (block_members)
#   table:  the rule data (view.py); fns: per decision and seat, the three addresses of a first-class
#           function (see _decision_function), not a typed list, whose reference count and item lookup
#           cost about 20 ns a decision
#   floats: per seat, the strategy's parameters then its memory; rngs: per seat dice, per seat strategy,
#           tie-breaks, the deck; events: the replay log
# Every engine helper takes ``ctx``: under the JIT the state alone, which holds the other arrays' addresses
# (ST_*_ADDRESS), so a helper call passes one array (7 words) rather than six (50: about 15 ns a call).
# The helpers are compiled without reference counting: the kernel's caller keeps every array alive and
# the engine allocates nothing, and with it each array cost a runtime call in and out of every helper.
# The interpreter (NUMBA_DISABLE_JIT) passes the tuple of arrays instead.
_FUNCTION = types.FunctionType(DECISION_SIGNATURE)
CTX = _I64
ST_BANK, ST_EVENT_COUNT, ST_MODE, ST_PUBLIC_LEN, ST_DECK_SIZE = range(5)
(ST_TABLE_ADDRESS, ST_TABLE_ROWS, ST_FNS_ADDRESS, ST_FLOATS_ADDRESS, ST_RNGS_ADDRESS, ST_EVENTS_ADDRESS,
 ST_EVENT_CAPACITY) = range(5, 12)
MODE_RECORD, MODE_CHECK = 1, 2
ST_QUERY = 16
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


def state_size(public_len, deck_size, squares, commodities, properties, card_types, blocks):
    return (ST_PUBLIC + public_len + deck_size + squares + 2 * MAX_SEATS * commodities + properties + card_types
            + blocks * MAX_BLOCK)


_inline = njit(inline="always", cache=True)


@intrinsic
def _matrix(typingctx, address, rows, columns, dtype):
    """A C-ordered rows x columns view of the memory at an integer address, without a reference count
    (numba.carray, an overload, cannot return an array it made in code compiled without one)."""
    array_type = types.Array(dtype.dtype, 2, "C")

    def codegen(context, builder, signature, args):
        item = context.get_data_type(array_type.dtype)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(item))
        array = make_array(array_type)(context, builder)
        populate_array(array, data=builder.inttoptr(args[0], item.as_pointer()),
                       shape=cgutils.pack_array(builder, [args[1], args[2]]),
                       strides=cgutils.pack_array(builder, [builder.mul(args[2], itemsize), itemsize]),
                       itemsize=itemsize, meminfo=None)
        return array._getvalue()
    return array_type(types.int64, types.int64, types.int64, dtype), codegen


@intrinsic
def _view(typingctx, array, start, length):
    """array[start:start + length] for a 1-d C array, without a reference count and without the slice's
    clamping of its bounds (the engine's parts of its state are in range by construction)."""
    def codegen(context, builder, signature, args):
        source = make_array(array)(context, builder, value=args[0])
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(array.dtype)))
        view = make_array(array)(context, builder)
        populate_array(view, data=builder.gep(source.data, [args[1]]), shape=cgutils.pack_array(builder, [args[2]]),
                       strides=cgutils.pack_array(builder, [itemsize]), itemsize=itemsize, meminfo=None)
        return view._getvalue()
    return array(array, types.intp, types.intp), codegen


@intrinsic
def _decision_function(typingctx, c_addr, py_addr, jit_addr):
    """A first-class decision function from its three addresses (numba.experimental.function_type's
    FunctionModel: cfunc wrapper, Python object, Numba-convention body)."""
    def codegen(context, builder, signature, args):
        function = cgutils.create_struct_proxy(_FUNCTION)(context, builder)
        function.c_addr = builder.inttoptr(args[0], cgutils.voidptr_t)
        function.py_addr = builder.inttoptr(args[1], cgutils.voidptr_t)
        function.jit_addr = builder.inttoptr(args[2], cgutils.voidptr_t)
        return function._getvalue()
    return _FUNCTION(types.int64, types.int64, types.int64), codegen


@functools.lru_cache(maxsize=64)
def function_addresses(functions):
    """The fns table (see CTX) for a tuple of compiled decision functions; the interpreter takes the
    functions themselves. Kept per line-up (looking the addresses up took about 2 ms a chunk); the cache
    holds the functions, and so keeps them alive while any kernel runs on their table."""
    if numba.config.DISABLE_JIT:
        return list(functions)
    from numba.experimental.function_type import _get_jit_address, _get_wrapper_address

    return np.array([[_get_wrapper_address(f, DECISION_SIGNATURE), id(f), _get_jit_address(f, DECISION_SIGNATURE)]
                     for f in functions], np.int64)


if numba.config.DISABLE_JIT:  # the interpreter keeps the arrays (benchmarks compare against it)
    def kernel_context(arrays):
        return arrays

    def _state(ctx):
        return ctx[0]

    def _table(ctx):
        return ctx[1]

    def _fns(ctx):
        return ctx[2]

    def _floats(ctx):
        return ctx[3]

    def _rngs(ctx):
        return ctx[4]

    def _events(ctx):
        return ctx[5]

    def _decision_at(fns, index):
        return fns[index]

    def _part(array, start, length):
        return array[start:start + length]
else:
    def kernel_context(arrays):
        """What the engine's helpers take (see CTX), for the arrays of make_context."""
        return arrays[0]

    @_inline
    def _state(ctx):
        return ctx

    @_inline
    def _table(ctx):
        return _matrix(ctx[ST_TABLE_ADDRESS], ctx[ST_TABLE_ROWS], TABLE_COLUMNS, np.int64)

    @_inline
    def _fns(ctx):
        return _matrix(ctx[ST_FNS_ADDRESS], len(DECISION_NAMES) * MAX_SEATS, 3, np.int64)

    @_inline
    def _floats(ctx):
        return _matrix(ctx[ST_FLOATS_ADDRESS], MAX_SEATS, MAX_PARAMS + MEMORY_SIZE, np.float64)

    @_inline
    def _rngs(ctx):
        return _matrix(ctx[ST_RNGS_ADDRESS], RNG_ROWS, 4, np.uint64)

    @_inline
    def _events(ctx):
        return _matrix(ctx[ST_EVENTS_ADDRESS], ctx[ST_EVENT_CAPACITY], EVENT_FIELDS, np.int64)

    @_inline
    def _decision_at(fns, index):
        return _decision_function(fns[index, 0], fns[index, 1], fns[index, 2])

    @_inline
    def _part(array, start, length):
        return _view(array, start, length)


@_inline
def _public(ctx):
    state = _state(ctx)
    return _part(state, ST_PUBLIC, state[ST_PUBLIC_LEN])


@_inline
def _rules(ctx):
    return _part(_state(ctx), ST_RULES, RULE_SIZE)


@_inline
def _deck(ctx):
    state = _state(ctx)
    return _part(state, ST_PUBLIC + state[ST_PUBLIC_LEN], state[ST_DECK_SIZE])


@_inline
def _out(ctx):
    return _part(_state(ctx), ST_OUT, OUT_SIZE)


@_inline
def _landings_at(ctx):
    state = _state(ctx)
    return ST_PUBLIC + state[ST_PUBLIC_LEN] + state[ST_DECK_SIZE]


@_inline
def _invest_at(ctx, seat, commodity):
    state = _state(ctx)
    commodities = state[ST_PUBLIC + PUB_COMMODITIES]
    return _landings_at(ctx) + state[ST_PUBLIC + PUB_SQUARES] + seat * commodities + commodity


@_inline
def _won_at(ctx, seat, commodity):
    return _invest_at(ctx, seat, commodity) + MAX_SEATS * _state(ctx)[ST_PUBLIC + PUB_COMMODITIES]


@_inline
def _tried(ctx):
    """A flag per property, then per card type: offered for sale in the current raise (raises never nest)."""
    state = _state(ctx)
    start = _won_at(ctx, MAX_SEATS, 0)
    return _part(state, start, state[ST_PUBLIC + PUB_PROPERTIES] + state[ST_PUBLIC + PUB_CARD_TYPES])


@_inline
def _members(ctx):
    state = _state(ctx)
    start = _won_at(ctx, MAX_SEATS, 0) + state[ST_PUBLIC + PUB_PROPERTIES] + state[ST_PUBLIC + PUB_CARD_TYPES]
    return _part(state, start, state[ST_PUBLIC + PUB_BLOCKS] * MAX_BLOCK)


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


@_inline
def _held_in_block(public, members, seat, block):
    count = 0
    for i in range(block * MAX_BLOCK, block * MAX_BLOCK + MAX_BLOCK):
        prop = members[i]
        if prop < 0:
            break
        count += public[owner_slot(prop)] == seat
    return count


@_inline
def _rent_multiple(public, table, members, prop):
    """view.rent_multiple over the property's block only."""
    holder = public[owner_slot(prop)]
    block = table[prop, P_BLOCK]
    held, any_debt = 0, False
    for i in range(block * MAX_BLOCK, block * MAX_BLOCK + MAX_BLOCK):
        other = members[i]
        if other < 0:
            break
        if public[owner_slot(other)] == holder:
            held += 1
            any_debt = any_debt or public[debt_slot(public, other)] != 0
    if held == table[prop, P_BLOCK_SIZE] and any_debt:
        held -= 1
    return table[prop, P_INCOME + held - 1]


def _typed(ret, *args):
    return njit(ret(CTX, *args), cache=True, _nrt=False)


@_inline
def _log(ctx, seat, kind, a, b, c, d):
    state, events = _state(ctx), _events(ctx)
    if state[ST_MODE] & MODE_RECORD:
        i = state[ST_EVENT_COUNT]
        if i < events.shape[0]:
            events[i, 0] = _public(ctx)[PUB_TURN]
            events[i, 1] = seat
            events[i, 2] = kind
            events[i, 3] = a
            events[i, 4] = b
            events[i, 5] = c
            events[i, 6] = d
        state[ST_EVENT_COUNT] = i + 1


@_inline
def _decide(ctx, decision, seat, a, b, c, d, e):
    state = _state(ctx)
    public = _public(ctx)
    query = _part(state, ST_QUERY, QUERY_SIZE)
    out = _part(state, ST_OUT, OUT_SIZE)
    public[PUB_SEAT] = seat
    query[0] = decision
    query[1] = a
    query[2] = b
    query[3] = c
    query[4] = d
    query[5] = e
    for i in range(OUT_SIZE):  # a constant count: stores, not a call to memset
        state[ST_OUT + i] = 0
    floats = _floats(ctx)[seat]
    function = _decision_at(_fns(ctx), decision * MAX_SEATS + seat)
    return function(readonly(public), readonly(_table(ctx)), readonly(query), readonly(_part(floats, 0, MAX_PARAMS)),
                    _part(floats, MAX_PARAMS, MEMORY_SIZE), _rngs(ctx)[STRATEGY_ROW + seat], out)


@_inline
def _die(ctx, row):
    """One die from a stream row (DICE_ROW, EXCHANGE_ROW or EXTRA_DICE_ROW + seat)."""
    return 1 + rng.below(_rngs(ctx)[row], 6)


@_inline
def _illegal(ctx, seat, decision):
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_ILLEGAL] += 1
    _log(ctx, seat, E_ILLEGAL, decision, 0, 0, 0)


# ---- money ---------------------------------------------------------------------------------------


@_inline
def _cash(public, seat):
    return public[seat_slot(seat, S_CASH)]


@_inline
def _add_cash(ctx, seat, amount, from_bank):
    """Move ``amount`` into a seat's cash; from_bank: the bank pays it (or, negative, receives it)."""
    _state(ctx)[ST_PUBLIC + seat_slot(seat, S_CASH)] += amount
    if from_bank:
        _state(ctx)[ST_BANK] += amount


@_inline
def _transfer(ctx, payer, amount, creditor):
    _add_cash(ctx, payer, -amount, creditor < 0)
    if creditor >= 0:
        _add_cash(ctx, creditor, amount, False)


@_inline
def _alive(public, seat):
    return public[seat_slot(seat, S_ALIVE)] != 0


@_inline
def _on_school(public, seat):
    return public[seat_slot(seat, S_ON_SCHOOL)] != 0


@_inline
def _holdings_changed(public, seat):
    if seat >= 0:
        public[PUB_HOLDINGS_VERSION + seat] += 1


@_inline
def _set_owner(public, prop, seat):
    """Every change of titles and debts goes through here and _set_debt: they move the holdings version
    of each seat concerned (view.holdings_version)."""
    _holdings_changed(public, public[owner_slot(prop)])
    public[owner_slot(prop)] = seat
    _holdings_changed(public, seat)


@_inline
def _set_debt(public, prop, debt_ridden):
    public[debt_slot(public, prop)] = debt_ridden
    _holdings_changed(public, public[owner_slot(prop)])


@_typed(B, I, I)
def _borrow(ctx, seat, prop):
    public, table = _public(ctx), _table(ctx)
    if prop < 0 or prop >= public[PUB_PROPERTIES] or public[owner_slot(prop)] != seat or public[debt_slot(public, prop)]:
        return False
    _set_debt(public, prop, 1)
    _add_cash(ctx, seat, table[prop, P_LOAN], True)
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_LOANS] += 1
    _log(ctx, seat, E_BORROW, prop, table[prop, P_LOAN], 0, 0)
    return True


@_typed(B, I, I)
def _repay(ctx, seat, prop):
    public, table = _public(ctx), _table(ctx)
    if (prop < 0 or prop >= public[PUB_PROPERTIES] or public[owner_slot(prop)] != seat
            or not public[debt_slot(public, prop)] or _cash(public, seat) < table[prop, P_PAYOFF]):
        return False
    _set_debt(public, prop, 0)
    _add_cash(ctx, seat, -table[prop, P_PAYOFF], True)
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_REPAID] += 1
    _log(ctx, seat, E_REPAY, prop, table[prop, P_PAYOFF], 0, 0)
    return True


@_inline
def _loans_available(public, table, seat):
    """What borrowing on every title of the seat that is not debt-ridden would raise."""
    total = 0
    for prop in range(public[PUB_PROPERTIES]):
        if public[owner_slot(prop)] == seat and not public[debt_slot(public, prop)]:
            total += table[prop, P_LOAN]
    return total


@_typed(none, I, I)
def _forced_borrowing(ctx, seat, amount):
    """U13: nobody goes bankrupt (or misses a purchase it wants) while it could still borrow; the
    strategy orders the properties (a refused answer: the first one it may borrow on, for that step).
    U16: a debtor that could not reach ``amount`` even by borrowing on every title borrows nothing."""
    public = _public(ctx)
    if _cash(public, seat) >= amount:
        return
    if _cash(public, seat) + _loans_available(public, _table(ctx), seat) < amount:
        return
    n = public[PUB_PROPERTIES]
    for _ in range(n):  # each pass borrows on one title, and the loans cover the amount
        if _cash(public, seat) >= amount:
            return
        prop = _decide(ctx, D_BORROW_ON, seat, amount - _cash(public, seat), 0, 0, 0, 0)
        if not _borrow(ctx, seat, prop):
            _illegal(ctx, seat, D_BORROW_ON)
            for other in range(n):
                if _borrow(ctx, seat, other):
                    break


@_inline
def _owns_any(public, seat):
    for prop in range(public[PUB_PROPERTIES]):
        if public[owner_slot(prop)] == seat:
            return True
    return False


@_inline
def _card_kind(ctx, card_type):
    return _table(ctx)[_public(ctx)[PUB_CARD_ROW] + card_type, K_KIND]


@_typed(B, I, I, B)
def _bamboozle_target_ok(ctx, seat, target, underhanded):
    """Another player's title, the player not on School, and (unless underhanded) not in a block it
    holds whole."""
    public, table = _public(ctx), _table(ctx)
    if target < 0 or target >= public[PUB_PROPERTIES]:
        return False
    victim = public[owner_slot(target)]
    if victim < 0 or victim == seat or not _alive(public, victim) or _on_school(public, victim):
        return False
    block = table[target, P_BLOCK]
    return underhanded or _held_in_block(public, _members(ctx), victim, block) < table[target, P_BLOCK_SIZE]


@_typed(B, I, I)
def _bamboozle_stake_ok(ctx, seat, mine):
    """One of the seat's titles; -1 (cash) only when it owns none and has the cash stake."""
    public = _public(ctx)
    if _owns_any(public, seat):
        return 0 <= mine < public[PUB_PROPERTIES] and public[owner_slot(mine)] == seat
    return mine == -1 and _cash(public, seat) >= _rules(ctx)[R_BAMBOOZLE_CASH]


@_typed(B, I, B)
def _can_bamboozle(ctx, seat, underhanded):
    """Whether the seat has a stake and an eligible target for a Bamboozle now."""
    public = _public(ctx)
    if not _owns_any(public, seat) and _cash(public, seat) < _rules(ctx)[R_BAMBOOZLE_CASH]:
        return False
    for prop in range(public[PUB_PROPERTIES]):
        if _bamboozle_target_ok(ctx, seat, prop, underhanded):
            return True
    return False


@_typed(types.UniTuple(I, 2), I, I, I, I, B, I, B)
def _sealed_bids(ctx, prop, card_type, seller, reserve, bankrupt_sale, school_bidder, must_use):
    """U3, U14: every eligible player states a private maximum; the highest pays the second-highest plus
    the increment (at most its own maximum, at least the reserve), ties broken at random. ``prop`` -1: a
    Wheeler-Dealer card of ``card_type`` (``must_use``: a drawn Bamboozle the buyer uses at once, so only
    players who could use it bid, and one owning no title keeps the cash it must stake). Players on School
    bid only on a bankrupt's property or as the creditor of the seller (``school_bidder``). A bid outside
    0..the bidder's limit is refused and counted. Returns (winner or -1, price)."""
    public, rules = _public(ctx), _rules(ctx)
    best, second, winner, ties = -1, -1, -1, 0
    for seat in range(public[PUB_PLAYERS]):
        if seat == seller or not _alive(public, seat):
            continue
        if _on_school(public, seat) and not bankrupt_sale and seat != school_bidder:
            continue
        limit = _cash(public, seat)
        if must_use:
            if not _owns_any(public, seat):
                limit -= rules[R_BAMBOOZLE_CASH]
            if limit < reserve or not _can_bamboozle(ctx, seat, _card_kind(ctx, card_type) == CK_UNDERHANDED):
                continue
        bid = _decide(ctx, D_BID, seat, prop, 1 if bankrupt_sale else 0, seller, card_type, 1 if must_use else 0)
        if bid < 0 or bid > limit:
            _illegal(ctx, seat, D_BID)
            continue
        if bid < reserve:
            continue
        if bid > best:
            second, best, winner, ties = best, bid, seat, 1
        elif bid == best:
            ties += 1
            second = bid
            if rng.below(_rngs(ctx)[TIE_ROW], ties) == 0:  # reservoir choice: uniform among the tied
                winner = seat
        elif bid > second:
            second = bid
    if winner < 0:
        return -1, 0
    price = reserve if second < 0 else max(reserve, second + rules[R_AUCTION_INCREMENT])
    return winner, min(price, best)


@_typed(I, I, I, I, B, I)
def _auction(ctx, prop, seller, reserve, bankrupt_sale, school_bidder):
    """A property by sealed bids (_sealed_bids). Returns the winner or -1. ``seller`` -1: the bank sells,
    and an unsold property goes back to the bank debt-free; else the price goes to the seller, and an
    unsold property stays with it."""
    public = _public(ctx)
    winner, price = _sealed_bids(ctx, prop, 0, seller, reserve, bankrupt_sale, school_bidder, False)
    if winner < 0:
        if seller < 0:
            _set_owner(public, prop, -1)
            _set_debt(public, prop, 0)
        _log(ctx, seller, E_NO_BID, prop, seller, 0, 0)
        return -1
    _transfer(ctx, winner, price, seller)
    _set_owner(public, prop, winner)
    if seller >= 0:
        _log(ctx, winner, E_SALE, prop, seller, price, 0)
    else:
        _log(ctx, winner, E_AUCTION, prop, price, 0, 0)
    _state(ctx)[ST_STATS + (winner) * N_STATS + S_AUCTIONS_WON] += 1
    return winner


@_typed(I, I, I, I, B, I)
def _sell_card(ctx, seller, card_type, reserve, must_use, school_bidder):
    """U14: a Wheeler-Dealer card sold by sealed bids; the price goes to the seller. A drawn Bamboozle
    (``must_use``) is not among the seller's saved cards; a saved card moves to the buyer's. Returns the
    buyer or -1 (a saved card then stays with the seller)."""
    public = _public(ctx)
    winner, price = _sealed_bids(ctx, -1, card_type, seller, reserve, False, school_bidder, must_use)
    if winner < 0:
        _log(ctx, seller, E_NO_BID, -1, seller, card_type, 1 if must_use else 0)
        return -1
    _transfer(ctx, winner, price, seller)
    if not must_use:
        public[saved_slot(public, seller, card_type)] -= 1
        public[saved_slot(public, winner, card_type)] += 1
    _log(ctx, winner, E_SALE, -1, seller, price, card_type)
    return winner


# ---- the Exchange ----------------------------------------------------------------------------------


@_typed(none, I, B, I)
def _invest(ctx, seat, optional, short):
    """One investment; ``short`` > 0: an extra one to raise money (U6), still that many dollars short. A
    refused answer: an optional investment is declined, a compulsory one is the cheapest stake."""
    public, table = _public(ctx), _table(ctx)
    row = public[PUB_COMMODITY_ROW]
    choice = _decide(ctx, D_INVEST, seat, 1 if optional else 0, 1 if short > 0 else 0, short, 0, 0)
    if choice == -1 and optional:
        return
    cash = _cash(public, seat)
    if choice < 0 or choice >= public[PUB_COMMODITIES] or table[row + choice, X_INVEST] > cash:
        _illegal(ctx, seat, D_INVEST)
        if optional:
            return
        choice = -1
        for c in range(public[PUB_COMMODITIES]):
            if table[row + c, X_INVEST] <= cash and (choice < 0 or table[row + c, X_INVEST] < table[row + choice, X_INVEST]):
                choice = c
        if choice < 0:
            return
    stake = table[row + choice, X_INVEST]
    _add_cash(ctx, seat, -stake, True)
    total = _die(ctx, EXCHANGE_ROW + seat) + _die(ctx, EXCHANGE_ROW + seat)
    _state(ctx)[_invest_at(ctx, seat, choice)] += 1
    won = (table[row + choice, X_MASK] >> total) & 1
    if won:
        _add_cash(ctx, seat, table[row + choice, X_RETURN], True)
        _state(ctx)[_won_at(ctx, seat, choice)] += 1
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_EXCHANGE_PROFIT] += table[row + choice, X_RETURN] - stake
    else:
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_EXCHANGE_PROFIT] -= stake
    _log(ctx, seat, E_INVEST, choice, total, won, stake)


# ---- squares ---------------------------------------------------------------------------------------


@_typed(none, I, I, I)
def _raise_money(ctx, seat, amount, creditor):
    """U6: the strategy borrows, sells properties and saved cards to players (U14, each once a raise) and
    may make its one extra Exchange investment of the turn. U16: a refused answer is counted and the
    strategy asked again; it is asked at most twice as often as there can be steps."""
    public, rules = _public(ctx), _rules(ctx)
    n = public[PUB_PROPERTIES]
    tried = _tried(ctx)
    tried[:] = 0
    steps = 0
    most = 2 * n + public[PUB_CARD_TYPES] + 2
    for _ in range(2 * most):
        short = amount - _cash(public, seat)
        if short <= 0:
            return
        action = _decide(ctx, D_RAISE, seat, short, creditor, steps, 0, 0)
        out = _out(ctx)
        item, reserve = out[0], out[1]
        if action == RAISE_GIVE_UP:
            return
        done = False
        if action == RAISE_BORROW:
            done = _borrow(ctx, seat, item)
        elif action == RAISE_SELL:
            if (0 <= reserve <= MAX_MONEY and 0 <= item < n and public[owner_slot(item)] == seat
                    and not tried[item]):
                tried[item] = 1
                _auction(ctx, item, seat, max(reserve, rules[R_AUCTION_MIN]), False, creditor)
                done = True
        elif action == RAISE_SELL_CARD:
            if (0 <= reserve <= MAX_MONEY and 0 <= item < public[PUB_CARD_TYPES]
                    and public[saved_slot(public, seat, item)] > 0 and not tried[n + item]):
                tried[n + item] = 1
                _sell_card(ctx, seat, item, max(reserve, rules[R_AUCTION_MIN]), False, creditor)
                done = True
        elif action == RAISE_EXCHANGE:
            if not public[seat_slot(seat, S_EXTRA_EXCHANGE)] and _cash(public, seat) >= rules[R_MIN_INVEST]:
                public[seat_slot(seat, S_EXTRA_EXCHANGE)] = 1
                _invest(ctx, seat, True, short)
                done = True
        if done:
            steps += 1
        else:
            _illegal(ctx, seat, D_RAISE)


@_typed(none, I, I)
def _bankrupt(ctx, seat, creditor):
    """U6: a player creditor takes everything (debts stay with the properties); the bank takes the cash,
    discards saved cards and auctions each property in square order (U3, U15)."""
    public, table = _public(ctx), _table(ctx)
    _log(ctx, seat, E_BANKRUPT, creditor, _cash(public, seat), 0, 0)
    _transfer(ctx, seat, _cash(public, seat), creditor)
    public[seat_slot(seat, S_ALIVE)] = 0
    public[seat_slot(seat, S_ON_SCHOOL)] = 0
    public[seat_slot(seat, S_MISSES_TURN)] = 0
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_BANKRUPT_TURN] = public[PUB_TURN]
    for t in range(public[PUB_CARD_TYPES]):
        if creditor >= 0:
            public[saved_slot(public, creditor, t)] += public[saved_slot(public, seat, t)]
        public[saved_slot(public, seat, t)] = 0
    for square in range(public[PUB_SQUARES]):  # square order
        prop = table[public[PUB_SQUARE_ROW] + square, Q_PROPERTY]
        if prop >= 0 and public[owner_slot(prop)] == seat:
            if creditor >= 0:
                _set_owner(public, prop, creditor)
            else:
                _set_owner(public, prop, -1)
                _auction(ctx, prop, -1, _rules(ctx)[R_AUCTION_MIN], True, -1)


# ---- auctions (U3, U14) ---------------------------------------------------------------------------


@_typed(B, I, I, I)
def _pay(ctx, payer, amount, creditor):
    """Pay a debt, raising money first if short (U6); returns False if the payer went bankrupt."""
    public = _public(ctx)
    if amount <= 0:
        return True
    if _cash(public, payer) < amount:
        _raise_money(ctx, payer, amount, creditor)
        _forced_borrowing(ctx, payer, amount)
    if _cash(public, payer) >= amount:
        _transfer(ctx, payer, amount, creditor)
        _log(ctx, payer, E_PAY, amount, creditor, 0, 0)
        return True
    _bankrupt(ctx, payer, creditor)
    return False


@_typed(none, I, I, B)
def _place(ctx, seat, square, counts_as_landing):
    public = _public(ctx)
    public[seat_slot(seat, S_POSITION)] = square
    public[seat_slot(seat, S_ON_SCHOOL)] = 1 if square == public[PUB_SCHOOL_SQUARE] else 0
    if counts_as_landing:
        _state(ctx)[_landings_at(ctx) + square] += 1


@_typed(B, I, I, I, B)
def _acquire(ctx, seat, prop, amount, poach):
    """Pay the bank ``amount`` for a property (borrowing if short, U13); False if it can't."""
    public = _public(ctx)
    if _cash(public, seat) < amount:
        _forced_borrowing(ctx, seat, amount)
    if _cash(public, seat) < amount:
        return False
    _add_cash(ctx, seat, -amount, True)
    previous = public[owner_slot(prop)]
    _set_owner(public, prop, seat)
    _set_debt(public, prop, 0)
    if poach:
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_POACHES] += 1
        _state(ctx)[ST_STATS + (previous) * N_STATS + S_POACHED] += 1
        _log(ctx, seat, E_POACH, prop, amount, previous, 0)
    else:
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_BOUGHT] += 1
        _log(ctx, seat, E_BUY, prop, amount, 0, 0)
    return True


@_typed(none, I, I, B)
def _visit_owned(ctx, seat, prop, may_poach):
    """Another player's property: poach a debt-ridden one (U7, before the rent roll), else roll and pay."""
    public, table = _public(ctx), _table(ctx)
    holder = public[owner_slot(prop)]
    if may_poach and public[debt_slot(public, prop)]:
        answer = _decide(ctx, D_POACH, seat, prop, 0, 0, 0, 0)
        if answer == 1:
            if _acquire(ctx, seat, prop, table[prop, P_PAYOFF], True):
                return
        elif answer != 0:
            _illegal(ctx, seat, D_POACH)
    die = _die(ctx, EXTRA_DICE_ROW + seat)
    rent = _rent_multiple(public, table, _members(ctx), prop) * die
    _log(ctx, seat, E_RENT, prop, die, rent, holder)
    paid_before = _cash(public, seat)
    if _pay(ctx, seat, rent, holder):
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_RENT_PAID] += rent
        _state(ctx)[ST_STATS + (holder) * N_STATS + S_RENT_RECEIVED] += rent
    else:
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_RENT_PAID] += paid_before
        _state(ctx)[ST_STATS + (holder) * N_STATS + S_RENT_RECEIVED] += paid_before


@_inline
def _occupied(public, square, except_seat):
    for other in range(public[PUB_PLAYERS]):
        if other != except_seat and _alive(public, other) and public[seat_slot(other, S_POSITION)] == square:
            return True
    return False


# ---- Level Two cards ---------------------------------------------------------------------------------


@_typed(B, I, I)
def _land(ctx, seat, square):
    """Act on the square a token came to rest on. Returns True if the turn ends here (School)."""
    public, table, rules = _public(ctx), _table(ctx), _rules(ctx)
    kind = table[public[PUB_SQUARE_ROW] + square, Q_KIND]
    if kind == SQ_PROPERTY:
        prop = table[public[PUB_SQUARE_ROW] + square, Q_PROPERTY]
        holder = public[owner_slot(prop)]
        if holder < 0:
            cost = table[prop, P_COST]
            bought = False
            answer = _decide(ctx, D_BUY, seat, prop, 0, 0, 0, 0)
            if answer == 1:
                bought = _acquire(ctx, seat, prop, cost, False)
            elif answer != 0:
                _illegal(ctx, seat, D_BUY)
            if not bought:
                winner = _auction(ctx, prop, -1, rules[R_AUCTION_MIN], False, -1)
                if winner == seat:
                    _state(ctx)[ST_STATS + (seat) * N_STATS + S_DECLINED_THEN_WON] += 1
        elif holder == seat:
            die = _die(ctx, EXTRA_DICE_ROW + seat)
            _add_cash(ctx, seat, table[prop, P_INCOME] * die, True)  # U8: the smallest multiple
            _log(ctx, seat, E_OWN_INCOME, prop, die, table[prop, P_INCOME] * die, 0)
        else:
            _visit_owned(ctx, seat, prop, True)
    elif kind == SQ_PARK:
        die = _die(ctx, EXTRA_DICE_ROW + seat)
        _add_cash(ctx, seat, rules[R_PARK_PER_PIP] * die, True)
        _log(ctx, seat, E_PARK, die, rules[R_PARK_PER_PIP] * die, 0, 0)
    elif kind == SQ_CITY_HALL:
        amount = _cash(public, seat) * rules[R_CITY_HALL_PERCENT] // 100
        _add_cash(ctx, seat, -amount, True)
        _log(ctx, seat, E_CITY_HALL, amount, 0, 0, 0)
    elif kind == SQ_SCHOOL:
        die = _die(ctx, EXTRA_DICE_ROW + seat)
        _add_cash(ctx, seat, rules[R_SCHOOL_PER_PIP] * die, True)
        public[seat_slot(seat, S_MISSES_TURN)] = 1
        _log(ctx, seat, E_SCHOOL, die, rules[R_SCHOOL_PER_PIP] * die, 0, 0)
        return True
    elif kind == SQ_TRADE_FAIR:
        if rules[R_TRADE_FAIR_EXTRA]:
            _invest(ctx, seat, True, 0)
    return False


@_inline
def _master_key_type(ctx):
    public, table = _public(ctx), _table(ctx)
    for t in range(public[PUB_CARD_TYPES]):
        if table[public[PUB_CARD_ROW] + t, K_KIND] == CK_MASTER_KEY:
            return t
    return -1


@_typed(B, I)
def _tax_audit(ctx, seat):
    """Stake = die x tax_audit.stake_per_pip; a second die odd pays, even receives; then to Park and act there."""
    rules = _rules(ctx)
    stake = _die(ctx, EXTRA_DICE_ROW + seat) * rules[R_AUDIT_PER_PIP]
    parity = _die(ctx, EXTRA_DICE_ROW + seat)
    _log(ctx, seat, E_AUDIT, stake, parity, 0, 0)
    if parity % 2 == 1:
        if not _pay(ctx, seat, stake, -1):
            return True
    else:
        _add_cash(ctx, seat, stake, True)
    _place(ctx, seat, rules[R_PARK_SQUARE], True)
    return _land(ctx, seat, rules[R_PARK_SQUARE])


@_typed(B, I, B, B)
def _bamboozle(ctx, seat, underhanded, must):
    """Play a Bamboozle (U16: ``must``, a bought one or a Combo Platter played as one, cannot be declined;
    a refused answer then stakes the seat's cheapest title, or the cash, against the first eligible
    target). Returns True if it was played."""
    public, table, rules = _public(ctx), _table(ctx), _rules(ctx)
    n = public[PUB_PROPERTIES]
    answer = _decide(ctx, D_BAMBOOZLE, seat, 1 if underhanded else 0, 1 if must else 0, 0, 0, 0)
    mine, target = _out(ctx)[0], _out(ctx)[1]
    if answer == 0 and not must:
        return False
    legal = _bamboozle_target_ok(ctx, seat, target, underhanded) and _bamboozle_stake_ok(ctx, seat, mine)
    if answer != 1 or not legal:
        _illegal(ctx, seat, D_BAMBOOZLE)
        if not must:
            return False
        mine, target = -1, -1
        for prop in range(n):
            if public[owner_slot(prop)] == seat and (mine < 0 or table[prop, P_COST] < table[mine, P_COST]):
                mine = prop
            if target < 0 and _bamboozle_target_ok(ctx, seat, prop, underhanded):
                target = prop
        if target < 0 or not _bamboozle_stake_ok(ctx, seat, mine):
            return False
    victim = public[owner_slot(target)]
    mine_roll, their_roll = _die(ctx, EXTRA_DICE_ROW + seat), _die(ctx, EXTRA_DICE_ROW + victim)
    _log(ctx, seat, E_BAMBOOZLE, mine, target, mine_roll, their_roll)
    if mine_roll > their_roll:
        _set_owner(public, target, seat)
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_BAMBOOZLES_WON] += 1
    elif their_roll > mine_roll:
        if mine >= 0:
            _set_owner(public, mine, victim)
        else:
            _transfer(ctx, seat, rules[R_BAMBOOZLE_CASH], victim)
        _state(ctx)[ST_STATS + (victim) * N_STATS + S_BAMBOOZLES_WON] += 1
    return True


@_typed(B, I, I, I)
def _taxi_ok(ctx, seat, square, amount):
    """Any square without another token (not the current one), the card's payment affordable."""
    public = _public(ctx)
    return (0 <= square < public[PUB_SQUARES] and square != public[seat_slot(seat, S_POSITION)]
            and not _occupied(public, square, seat) and _cash(public, seat) + amount >= 0)


@_typed(B, I, I, I)
def _taxi(ctx, seat, square, amount):
    """Move (_taxi_ok), pay or collect, act there. Returns True if the turn ends there (School)."""
    _add_cash(ctx, seat, amount, True)
    _log(ctx, seat, E_MOVED, seat, square, amount, 0)
    _place(ctx, seat, square, True)
    return _land(ctx, seat, square)


@_typed(B, I, I, I)
def _move_any_ok(ctx, seat, target, square):
    """Another token (not on School) to a non-corner square without a token."""
    public, table = _public(ctx), _table(ctx)
    return not (target < 0 or target >= public[PUB_PLAYERS] or target == seat or not _alive(public, target)
                or _on_school(public, target) or square < 0 or square >= public[PUB_SQUARES]
                or table[public[PUB_SQUARE_ROW] + square, Q_KIND] != SQ_PROPERTY or _occupied(public, square, -1))


@_typed(none, I, I, I)
def _move_any(ctx, seat, target, square):
    """Move another token (_move_any_ok); it does nothing there."""
    _log(ctx, seat, E_MOVED, target, square, 0, 1)
    _place(ctx, target, square, False)


@_typed(B, I, I)
def _master_key(ctx, seat, destination):
    """Go to the Tax Audit (0) or School (1). Returns True if the turn ends."""
    rules = _rules(ctx)
    _log(ctx, seat, E_MASTER_KEY, destination, 0, 0, 0)
    if destination == 0:
        return _tax_audit(ctx, seat)
    _place(ctx, seat, rules[R_SCHOOL_SQUARE], True)
    return _land(ctx, seat, rules[R_SCHOOL_SQUARE])


@_typed(B, I, I)
def _saved_use_ok(ctx, seat, card_type):
    """Whether out[] holds a legal use, now, of a card that may be saved (checked before it is announced)."""
    out = _out(ctx)
    kind = _card_kind(ctx, card_type)
    if kind == CK_TAXI:
        return _taxi_ok(ctx, seat, out[0], _table(ctx)[_public(ctx)[PUB_CARD_ROW] + card_type, K_AMOUNT])
    if kind == CK_MOVE_ANY:
        return _move_any_ok(ctx, seat, out[0], out[1])
    if kind == CK_MASTER_KEY:
        return out[0] == 0 or out[0] == 1
    return kind == CK_EXTRA_TURN


@_typed(B, I, I, I)
def _use_saved(ctx, seat, card_type, how):
    """Announce and play a card that may be saved, its use checked by _saved_use_ok (``how``: USED_DRAWN
    or USED_STEP5). Returns True if the turn ends (School)."""
    out = _out(ctx)
    a, b = out[0], out[1]
    kind = _card_kind(ctx, card_type)
    _state(ctx)[ST_STATS + seat * N_STATS + S_CARDS_USED] += 1
    _log(ctx, seat, E_CARD_USED, card_type, how, 0, 0)
    if kind == CK_TAXI:
        return _taxi(ctx, seat, a, _table(ctx)[_public(ctx)[PUB_CARD_ROW] + card_type, K_AMOUNT])
    if kind == CK_MOVE_ANY:
        _move_any(ctx, seat, a, b)
        return False
    if kind == CK_EXTRA_TURN:
        _state(ctx)[ST_EXTRA + seat] += 1
        _log(ctx, seat, E_EXTRA_TURN, 0, 0, 0, 0)
        return False
    return _master_key(ctx, seat, a)


# ---- the turn -----------------------------------------------------------------------------------------


@_typed(B, I)
def _draw_card(ctx, seat):
    """Step four. Returns True if the turn ends (the player went bankrupt, or a card sent it to School)."""
    public, table, rules, deck = _public(ctx), _table(ctx), _rules(ctx), _deck(ctx)
    size = rules[R_DECK_SIZE]
    position = size - public[PUB_CARDS_LEFT]
    if position >= size:  # only when playing to the last player standing: a fresh pile
        rng.shuffle(_rngs(ctx)[DECK_ROW], deck)
        for t in range(public[PUB_CARD_TYPES]):
            public[left_slot(public, t)] = 0
        for i in range(size):
            public[left_slot(public, deck[i])] += 1
        public[PUB_CARDS_LEFT] = size
        position = 0
    card_type = deck[position]
    public[PUB_CARDS_LEFT] -= 1
    public[left_slot(public, card_type)] -= 1
    if public[PUB_CARDS_LEFT] == 0 and not rules[R_LAST_PLAYER_STANDING]:
        public[PUB_LAST_CARD_DRAWN] = 1
    _log(ctx, seat, E_CARD, card_type, 0, 0, 0)
    if rules[R_LEVEL] < 2:
        return False  # Level One: the deck is only the clock
    row = public[PUB_CARD_ROW] + card_type
    kind = table[row, K_KIND]
    amount = table[row, K_AMOUNT]
    if kind == CK_TAX_AUDIT:
        key = _master_key_type(ctx)
        if key >= 0 and public[saved_slot(public, seat, key)] > 0:
            answer = _decide(ctx, D_CARD, seat, CARD_MASTER_KEY_AUDIT, card_type, 0, 0, 0)
            if answer == 1:
                public[saved_slot(public, seat, key)] -= 1
                _state(ctx)[ST_STATS + seat * N_STATS + S_CARDS_USED] += 1
                _log(ctx, seat, E_CARD_USED, key, USED_CANCEL_AUDIT, 0, 0)
                return False
            if answer != 0:
                _illegal(ctx, seat, D_CARD)
        return _tax_audit(ctx, seat)
    if kind == CK_BAMBOOZLE or kind == CK_UNDERHANDED:
        underhanded = kind == CK_UNDERHANDED
        if _bamboozle(ctx, seat, underhanded, False):
            _state(ctx)[ST_STATS + seat * N_STATS + S_CARDS_USED] += 1
            return False
        # U14: sold when drawn, by sealed bids; U16: the buyer uses it at once
        buyer = _sell_card(ctx, seat, card_type, rules[R_AUCTION_MIN], True, -1)
        if buyer >= 0 and _bamboozle(ctx, buyer, underhanded, True):
            _state(ctx)[ST_STATS + buyer * N_STATS + S_CARDS_USED] += 1
        return False
    if kind == CK_COMBO:
        choice = _decide(ctx, D_CARD, seat, CARD_DRAWN, card_type, 0, 0, 0)
        out = _out(ctx)
        mode, a, b = out[0], out[1], out[2]
        if choice == -1 or (choice == card_type and mode == 3):
            _log(ctx, seat, E_CARD_DISCARDED, card_type, 0, 0, 0)
            return False
        legal = False
        if choice == card_type:
            if mode == 0:
                legal = _taxi_ok(ctx, seat, a, 0)  # a Combo Platter used as a taxi costs nothing
            elif mode == 1:
                legal = _can_bamboozle(ctx, seat, False)
            elif mode == 2:
                legal = _move_any_ok(ctx, seat, a, b)
        if not legal:
            _illegal(ctx, seat, D_CARD)
            _log(ctx, seat, E_CARD_DISCARDED, card_type, 0, 0, 0)
            return False
        _state(ctx)[ST_STATS + seat * N_STATS + S_CARDS_USED] += 1
        _log(ctx, seat, E_CARD_USED, card_type, USED_AS_COMBO + mode, 0, 0)
        if mode == 0:
            return _taxi(ctx, seat, a, 0)
        if mode == 1:
            _bamboozle(ctx, seat, False, True)
        else:
            _move_any(ctx, seat, a, b)
        return False
    if kind == CK_TAXI or kind == CK_MOVE_ANY or kind == CK_EXTRA_TURN or kind == CK_MASTER_KEY:
        choice = _decide(ctx, D_CARD, seat, CARD_DRAWN, card_type, 0, 0, 0)
        if choice == card_type and _saved_use_ok(ctx, seat, card_type):
            return _use_saved(ctx, seat, card_type, USED_DRAWN)
        if choice != -1:
            _illegal(ctx, seat, D_CARD)
        public[saved_slot(public, seat, card_type)] += 1
        _log(ctx, seat, E_CARD_SAVED, card_type, 0, 0, 0)
        return False
    if kind == CK_EASY_COME:
        squares = public[PUB_SQUARES]
        here = public[seat_slot(seat, S_POSITION)]
        for step in range(1, squares + 1):
            square = (here + step) % squares
            prop = table[public[PUB_SQUARE_ROW] + square, Q_PROPERTY]
            if prop >= 0 and public[owner_slot(prop)] >= 0 and public[owner_slot(prop)] != seat:
                _place(ctx, seat, square, True)
                _log(ctx, seat, E_MOVED, seat, square, 0, 2)
                _visit_owned(ctx, seat, prop, True)
                return not _alive(public, seat)
        return False
    if kind == CK_COLLECT:
        _add_cash(ctx, seat, amount, True)
        _log(ctx, seat, E_COLLECT, amount, 0, 0, 0)
        return False
    if kind == CK_PAY:
        return not _pay(ctx, seat, amount, -1)
    if kind == CK_PAY_PERCENT:
        due = _cash(public, seat) * table[row, K_PERCENT] // 100
        return not _pay(ctx, seat, due, -1)
    if kind == CK_COLLECT_PER_PIP:
        total = _die(ctx, EXTRA_DICE_ROW + seat) + _die(ctx, EXTRA_DICE_ROW + seat)
        _add_cash(ctx, seat, amount * total, True)
        _log(ctx, seat, E_COLLECT, amount * total, total, 0, 0)
        return False
    if kind == CK_COLLECT_FROM_EACH:
        for other in range(public[PUB_PLAYERS]):
            if other != seat and _alive(public, other) and not _on_school(public, other):
                _pay(ctx, other, amount, seat)
        return False
    return False


@_typed(none, I)
def _finance(ctx, seat):
    """U13: borrowing and repaying at the start of the turn and after step five; a refused answer is
    counted and the strategy asked again (at most 2 x properties + 2 answers)."""
    public = _public(ctx)
    for _ in range(2 * public[PUB_PROPERTIES] + 2):
        action = _decide(ctx, D_FINANCE, seat, 0, 0, 0, 0, 0)
        prop = _out(ctx)[0]
        if action == 0:
            return
        if action == 1:
            done = _borrow(ctx, seat, prop)
        elif action == 2:
            done = _repay(ctx, seat, prop)
        else:
            done = False
        if not done:
            _illegal(ctx, seat, D_FINANCE)


@_typed(B, I, I, I, I, I, I)
def _deal_ok(ctx, seat, kind, other, mine, theirs, money):
    """U4: a legal offer to one other player in the game and not on School; nothing given for nothing."""
    public, rules = _public(ctx), _rules(ctx)
    n = public[PUB_PROPERTIES]
    if not (0 <= other < public[PUB_PLAYERS]) or other == seat or not _alive(public, other) or _on_school(public, other):
        return False
    if not (-MAX_MONEY <= money <= MAX_MONEY):
        return False
    if kind == DEAL_SELL or kind == DEAL_SWAP:
        if not (0 <= mine < n and public[owner_slot(mine)] == seat):
            return False
    if kind == DEAL_BUY or kind == DEAL_SWAP:
        if not (0 <= theirs < n and public[owner_slot(theirs)] == other):
            return False
    if kind == DEAL_BUY:
        return money >= rules[R_AUCTION_MIN] and _cash(public, seat) >= money
    if kind == DEAL_SELL:
        return -money >= rules[R_AUCTION_MIN] and _cash(public, other) >= -money
    if kind == DEAL_SWAP:
        return (money >= 0 and _cash(public, seat) >= money) or (money < 0 and _cash(public, other) >= -money)
    return False


@_typed(none, I)
def _deals(ctx, seat):
    """U4: up to deals_per_turn offers, each to one other player not on School; nothing owed or given. A
    player whose token still rests on School (U16: until its move) makes none. A refused offer is counted
    and the next one asked."""
    public, rules = _public(ctx), _rules(ctx)
    if _on_school(public, seat):
        return
    for k in range(rules[R_DEALS_PER_TURN]):
        kind = _decide(ctx, D_DEAL_OFFER, seat, k, 0, 0, 0, 0)
        if kind == 0:
            return
        out = _out(ctx)
        other, mine, theirs, money = out[0], out[1], out[2], out[3]
        if not _deal_ok(ctx, seat, kind, other, mine, theirs, money):
            _illegal(ctx, seat, D_DEAL_OFFER)
            continue
        if kind == DEAL_BUY:
            mine = -1
        elif kind == DEAL_SELL:
            theirs = -1
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_DEALS_OFFERED] += 1
        answer = _decide(ctx, D_DEAL_ANSWER, other, seat, kind, mine, theirs, money)
        if answer != 0 and answer != 1:
            _illegal(ctx, other, D_DEAL_ANSWER)
        accepted = answer == 1
        _log(ctx, seat, E_DEAL, other, kind, mine, theirs)
        _log(ctx, seat, E_DEAL_TERMS, money, 1 if accepted else 0, 0, 0)
        if accepted:
            _state(ctx)[ST_STATS + (seat) * N_STATS + S_DEALS_ACCEPTED] += 1
            if mine >= 0:
                _set_owner(public, mine, other)
            if theirs >= 0:
                _set_owner(public, theirs, seat)
            _transfer(ctx, seat, money, other)


@_typed(none, I)
def _bump(ctx, seat):
    """Level Two: the last play of a turn, onto a square with other tokens (not School, not by the
    player who drew the last card)."""
    public, table = _public(ctx), _table(ctx)
    here = public[seat_slot(seat, S_POSITION)]
    if public[PUB_LAST_CARD_DRAWN] or _on_school(public, seat) or not _occupied(public, here, seat):
        return
    answer = _decide(ctx, D_BUMP, seat, 0, 0, 0, 0, 0)
    if answer == 0:
        return
    target, square = _out(ctx)[0], _out(ctx)[1]
    if answer != 1:
        _illegal(ctx, seat, D_BUMP)
        return
    if (target < 0 or target >= public[PUB_PLAYERS] or target == seat or not _alive(public, target)
            or public[seat_slot(target, S_POSITION)] != here or square < 0 or square >= public[PUB_SQUARES]
            or table[public[PUB_SQUARE_ROW] + square, Q_KIND] == SQ_PARK or _occupied(public, square, -1)):
        _illegal(ctx, seat, D_BUMP)
        return
    die = _die(ctx, EXTRA_DICE_ROW + seat)
    _log(ctx, seat, E_BUMP, target, square, die, 0)
    if die % 2 == 0:
        _state(ctx)[ST_STATS + (seat) * N_STATS + S_BUMPS] += 1
        _place(ctx, target, square, True)
        _land(ctx, target, square)


@_typed(B, I, I)
def _pay_check(ctx, seat, amount):
    """Raise cash up to ``amount`` without paying it (the Exchange stake); bankrupt to the bank if impossible."""
    public = _public(ctx)
    _raise_money(ctx, seat, amount, -1)
    _forced_borrowing(ctx, seat, amount)
    if _cash(public, seat) >= amount:
        return True
    _bankrupt(ctx, seat, -1)
    return False


@_typed(none, I)
def _turn(ctx, seat):
    """One full turn (steps 1-6). Returns nothing; bankruptcies and School end it early."""
    public, rules = _public(ctx), _rules(ctx)
    level2 = rules[R_LEVEL] >= 2
    public[PUB_ACTIVE] = seat
    for other in range(public[PUB_PLAYERS]):  # U16: one extra Exchange investment a turn per player
        public[seat_slot(other, S_EXTRA_EXCHANGE)] = 0
    _state(ctx)[ST_STATS + (seat) * N_STATS + S_TURNS] += 1
    _log(ctx, seat, E_TURN, public[seat_slot(seat, S_POSITION)], _cash(public, seat), 0, 0)
    _deals(ctx, seat)
    _finance(ctx, seat)
    # 1. invest, compulsory: raise the smallest stake first (U6)
    if _cash(public, seat) < rules[R_MIN_INVEST]:
        if not _pay_check(ctx, seat, rules[R_MIN_INVEST]):
            return
    _invest(ctx, seat, False, 0)
    # 2. roll and move
    d1, d2 = _die(ctx, DICE_ROW + seat), _die(ctx, DICE_ROW + seat)
    square = (public[seat_slot(seat, S_POSITION)] + d1 + d2) % public[PUB_SQUARES]
    _log(ctx, seat, E_MOVE, d1, d2, square, 0)
    if d1 == d2:
        _add_cash(ctx, seat, rules[R_DOUBLES_BONUS] * (d1 + d2), True)
        _log(ctx, seat, E_DOUBLES, rules[R_DOUBLES_BONUS] * (d1 + d2), 0, 0, 0)
    _place(ctx, seat, square, True)
    # 3. the square
    if _land(ctx, seat, square) or not _alive(public, seat):
        return  # School ends the turn at once, no card
    # 4. draw
    if _draw_card(ctx, seat) or not _alive(public, seat):
        return
    # 5. one saved card
    if level2:
        choice = _decide(ctx, D_CARD, seat, CARD_STEP5, -1, 0, 0, 0)
        if choice != -1:
            if (0 <= choice < public[PUB_CARD_TYPES] and public[saved_slot(public, seat, choice)] > 0
                    and _saved_use_ok(ctx, seat, choice)):
                public[saved_slot(public, seat, choice)] -= 1
                if _use_saved(ctx, seat, choice, USED_STEP5) or not _alive(public, seat):
                    return
            else:
                _illegal(ctx, seat, D_CARD)
    _finance(ctx, seat)
    if level2:
        _bump(ctx, seat)


@njit(cache=True)
def seat_net_worth(public, table, members, seat):
    """Cash + market value (cost x properties held in the block) - payoff of debt-ridden properties."""
    total = _cash(public, seat)
    for block in range(public[PUB_BLOCKS]):
        held, cost = 0, 0
        for i in range(block * MAX_BLOCK, block * MAX_BLOCK + MAX_BLOCK):
            prop = members[i]
            if prop < 0:
                break
            if public[owner_slot(prop)] == seat:
                held += 1
                cost += table[prop, P_COST]
                if public[debt_slot(public, prop)]:
                    total -= table[prop, P_PAYOFF]
        total += held * cost
    return total


@njit(cache=True)
def net_worth_of(public, table, seat):
    """seat_net_worth for a public vector alone (from Python)."""
    return seat_net_worth(public, table, block_members(table, public[PUB_PROPERTIES], public[PUB_BLOCKS]), seat)


@_typed(none, I)
def _check(ctx, start_total):
    public = _public(ctx)
    total = 0
    for seat in range(public[PUB_PLAYERS]):
        total += _cash(public, seat)
        if not _alive(public, seat) and _cash(public, seat) != 0:
            raise AssertionError("wheeler-dealer-us: a bankrupt player holds cash")
    if total != start_total + _state(ctx)[ST_BANK]:
        raise AssertionError("wheeler-dealer-us: money not conserved (players' cash != start + bank's net payments)")
    for prop in range(public[PUB_PROPERTIES]):
        holder = public[owner_slot(prop)]
        if holder >= 0 and not _alive(public, holder):
            raise AssertionError("wheeler-dealer-us: a bankrupt player still holds a title")
        if holder < 0 and public[debt_slot(public, prop)]:
            raise AssertionError("wheeler-dealer-us: an unowned property is debt-ridden")


def make_context(table, rules, deck, fns, params, n_players, n_blocks, n_commodities, n_card_types, n_squares,
                 event_capacity=0, record=False):
    """Allocate the arrays of one batch (see CTX; the caller keeps them alive while the engine runs on
    ``kernel_context(arrays)``); ``_new_game`` then sets up each game in them."""
    n_props = table.shape[0] - n_commodities - n_card_types - n_squares
    public_len = public_length(n_props, n_card_types)
    state = np.zeros(state_size(public_len, deck.size, n_squares, n_commodities, n_props, n_card_types, n_blocks),
                     np.int64)
    state[ST_PUBLIC_LEN] = public_len
    state[ST_DECK_SIZE] = deck.size
    state[ST_MODE] = MODE_RECORD if record else 0
    state[ST_RULES:ST_RULES + RULE_SIZE] = rules
    public = state[ST_PUBLIC:ST_PUBLIC + public_len]
    public[PUB_PLAYERS] = n_players
    public[PUB_PROPERTIES] = n_props
    public[PUB_BLOCKS] = n_blocks
    public[PUB_COMMODITIES] = n_commodities
    public[PUB_CARD_TYPES] = n_card_types
    public[PUB_SQUARES] = n_squares
    members_at = state.size - n_blocks * MAX_BLOCK
    state[members_at:] = block_members(table, n_props, n_blocks)
    floats = np.zeros((MAX_SEATS, MAX_PARAMS + MEMORY_SIZE))
    floats[:, :params.shape[1]] = params
    arrays = (state, np.ascontiguousarray(table), fns, floats, np.zeros((RNG_ROWS, 4), np.uint64),
              np.zeros((event_capacity, EVENT_FIELDS), np.int64))
    if not numba.config.DISABLE_JIT:
        slots = (ST_TABLE_ADDRESS, ST_FNS_ADDRESS, ST_FLOATS_ADDRESS, ST_RNGS_ADDRESS, ST_EVENTS_ADDRESS)
        for slot, array in zip(slots, arrays[1:]):
            state[slot] = array.ctypes.data
    state[ST_TABLE_ROWS] = table.shape[0]
    state[ST_EVENT_CAPACITY] = event_capacity
    return arrays


@njit(types.none(CTX, _I64, types.uint64, I), cache=True)
def _new_game(ctx, deck_template, seed, game):
    """Reset every piece of state for game ``game``: the table, the shuffled deck, the streams, the counters."""
    state, rngs = _state(ctx), _rngs(ctx)
    public, rules, deck = _public(ctx), _rules(ctx), _deck(ctx)
    n_players, n_commodities = public[PUB_PLAYERS], public[PUB_COMMODITIES]
    n_props, n_blocks = public[PUB_PROPERTIES], public[PUB_BLOCKS]
    n_card_types, n_squares = public[PUB_CARD_TYPES], public[PUB_SQUARES]
    public[:] = 0
    public[PUB_PLAYERS] = n_players
    public[PUB_LEVEL] = rules[R_LEVEL]
    public[PUB_PROPERTIES] = n_props
    public[PUB_BLOCKS] = n_blocks
    public[PUB_COMMODITIES] = n_commodities
    public[PUB_CARD_TYPES] = n_card_types
    public[PUB_SQUARES] = n_squares
    public[PUB_COMMODITY_ROW] = n_props
    public[PUB_CARD_ROW] = n_props + n_commodities
    public[PUB_SQUARE_ROW] = n_props + n_commodities + n_card_types
    public[PUB_MIN_INVEST] = rules[R_MIN_INVEST]
    public[PUB_AUCTION_MIN] = rules[R_AUCTION_MIN]
    public[PUB_AUCTION_INCREMENT] = rules[R_AUCTION_INCREMENT]
    public[PUB_SCHOOL_SQUARE] = rules[R_SCHOOL_SQUARE]
    public[PUB_PARK_SQUARE] = rules[R_PARK_SQUARE]
    public[PUB_PARK_PER_PIP] = rules[R_PARK_PER_PIP]
    public[PUB_SCHOOL_PER_PIP] = rules[R_SCHOOL_PER_PIP]
    public[PUB_CITY_HALL_PERCENT] = rules[R_CITY_HALL_PERCENT]
    public[PUB_TRADE_FAIR_EXTRA] = rules[R_TRADE_FAIR_EXTRA]
    public[PUB_AUDIT_PER_PIP] = rules[R_AUDIT_PER_PIP]
    public[PUB_BAMBOOZLE_CASH] = rules[R_BAMBOOZLE_CASH]
    public[PUB_CARDS_LEFT] = rules[R_DECK_SIZE]
    for prop in range(n_props):
        public[owner_slot(prop)] = -1
    for seat in range(n_players):
        public[seat_slot(seat, S_CASH)] = rules[R_START_CASH]
        public[seat_slot(seat, S_POSITION)] = rules[R_PARK_SQUARE]
        public[seat_slot(seat, S_ALIVE)] = 1
        rng.seed_stream(rngs[DICE_ROW + seat], seed, game, rng.DICE + seat)
        rng.seed_stream(rngs[STRATEGY_ROW + seat], seed, game, rng.STRATEGY + seat)
        rng.seed_stream(rngs[EXCHANGE_ROW + seat], seed, game, rng.EXCHANGE + seat)
        rng.seed_stream(rngs[EXTRA_DICE_ROW + seat], seed, game, rng.EXTRA_DICE + seat)
    rng.seed_stream(rngs[DECK_ROW], seed, game, rng.DEAL)
    rng.seed_stream(rngs[TIE_ROW], seed, game, rng.TIE_BREAK)
    deck[:] = deck_template
    rng.shuffle(rngs[DECK_ROW], deck)
    for i in range(deck.size):
        public[left_slot(public, deck[i])] += 1
    _floats(ctx)[:, MAX_PARAMS:] = 0.0
    state[ST_BANK] = 0
    state[ST_EXTRA:ST_EXTRA + MAX_SEATS] = 0
    state[ST_STATS:ST_STATS + MAX_SEATS * N_STATS] = 0
    for seat in range(MAX_SEATS):
        state[ST_STATS + seat * N_STATS + S_BANKRUPT_TURN] = -1
    start = _landings_at(ctx) + n_squares
    state[start:start + 2 * MAX_SEATS * n_commodities] = 0


@_typed(B, I)
def _misses_turn(ctx, seat):
    """The turn after a School landing is missed, unless the seat plays a saved Master Key (Level Two).
    U16: the token stays on School, under its restrictions, until its next real turn moves it."""
    public = _public(ctx)
    if not public[seat_slot(seat, S_MISSES_TURN)]:
        return False
    public[seat_slot(seat, S_MISSES_TURN)] = 0
    key = _master_key_type(ctx)
    if _rules(ctx)[R_LEVEL] >= 2 and key >= 0 and public[saved_slot(public, seat, key)] > 0:
        answer = _decide(ctx, D_CARD, seat, CARD_MASTER_KEY_SCHOOL, key, 0, 0, 0)
        if answer == 1:
            public[saved_slot(public, seat, key)] -= 1
            _state(ctx)[ST_STATS + seat * N_STATS + S_CARDS_USED] += 1
            _log(ctx, seat, E_CARD_USED, key, USED_SKIP_SCHOOL, 0, 0)
            return False
        if answer != 0:
            _illegal(ctx, seat, D_CARD)
    _log(ctx, seat, E_MISSED, 0, 0, 0, 0)
    return True


@_typed(I)
def _play_game(ctx):
    """Turns until the card clock, the last player standing or the turn limit; returns how it ended."""
    state, public, rules = _state(ctx), _public(ctx), _rules(ctx)
    n_players = public[PUB_PLAYERS]
    start_total = rules[R_START_CASH] * n_players
    check = (state[ST_MODE] & MODE_CHECK) != 0
    seat = 0  # U10
    while True:
        alive = 0
        for other in range(n_players):
            alive += public[seat_slot(other, S_ALIVE)]
        if alive <= 1:
            return END_LAST_PLAYER
        if public[PUB_TURN] >= rules[R_MAX_TURNS]:
            return END_TURN_LIMIT
        if _alive(public, seat):
            play = not _misses_turn(ctx, seat)
            if play:
                public[PUB_TURN] += 1
                _turn(ctx, seat)
                # extra turns are played at once; none after the last card, none for a player sent to School
                while (state[ST_EXTRA + seat] > 0 and _alive(public, seat) and not public[PUB_LAST_CARD_DRAWN]
                       and not public[seat_slot(seat, S_MISSES_TURN)]):
                    state[ST_EXTRA + seat] -= 1
                    public[PUB_TURN] += 1
                    _turn(ctx, seat)
                state[ST_EXTRA + seat] = 0
                if check:
                    _check(ctx, start_total)
                if public[PUB_LAST_CARD_DRAWN]:
                    return END_CLOCK
        seat = (seat + 1) % n_players


@njit(cache=True)
def _play(ctx, deck_template, seed, first_game, n_games, check, out_net_worth, out_cash, out_props, out_blocks,
          out_debts, out_bankrupt, out_winner, out_stats, out_invest, out_won, out_turns, out_end):
    ctx = _unmanaged(ctx)
    state, table = _state(ctx), _table(ctx)
    public = _public(ctx)
    if check:
        state[ST_MODE] |= MODE_CHECK
    n_players = public[PUB_PLAYERS]
    n_props, n_blocks, n_commodities = public[PUB_PROPERTIES], public[PUB_BLOCKS], public[PUB_COMMODITIES]
    for g in range(n_games):
        _new_game(ctx, deck_template, seed, first_game + g)
        end = _play_game(ctx)
        if check:
            _check(ctx, _rules(ctx)[R_START_CASH] * n_players)
        members = _members(ctx)
        best = -(1 << 62)
        for seat in range(n_players):
            worth = seat_net_worth(public, table, members, seat)
            out_net_worth[g, seat] = worth
            if _alive(public, seat) and worth > best:
                best = worth
        for seat in range(n_players):
            alive_seat = _alive(public, seat)
            out_cash[g, seat] = _cash(public, seat)
            out_bankrupt[g, seat] = not alive_seat
            out_winner[g, seat] = alive_seat and out_net_worth[g, seat] == best  # U15: ties shared
            props, debts, blocks = 0, 0, 0
            for prop in range(n_props):
                if public[owner_slot(prop)] == seat:
                    props += 1
                    debts += public[debt_slot(public, prop)]
            for block in range(n_blocks):
                size = table[members[block * MAX_BLOCK], P_BLOCK_SIZE]
                blocks += _held_in_block(public, members, seat, block) == size
            out_props[g, seat] = props
            out_debts[g, seat] = debts
            out_blocks[g, seat] = blocks
            for k in range(N_STATS):
                out_stats[g, seat, k] = state[ST_STATS + seat * N_STATS + k]
            for c in range(n_commodities):
                out_invest[g, seat, c] = state[_invest_at(ctx, seat, c)]
                out_won[g, seat, c] = state[_won_at(ctx, seat, c)]
        out_turns[g] = public[PUB_TURN]
        out_end[g] = end
        _log(ctx, -1, E_END, end, 0, 0, 0)
    if check:
        state[ST_MODE] &= ~MODE_CHECK
