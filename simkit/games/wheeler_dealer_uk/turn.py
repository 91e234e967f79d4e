"""The Wheeler Dealer (UK) engine's turn: a deal (K1), redeeming, selling sets, loans, the inner circle (K3),
the roll and the space landed on (cards, Command cards, charges)."""
from numba import types

from ... import rng
from ...numba_tools import context_helper
from .money import (
    _borrow,
    _from_bank,
    _from_pack_top,
    _pay_bank,
    _pay_players,
    _raise,
    _redeem_step,
    _to_bank,
    _to_pack_bottom,
    _unsold_to_risk,
)
from .rules import (
    C_ADVANCE_TO_BLUE,
    C_BANK_BUYS_BEST,
    C_COLLECT,
    C_COLLECT_FROM_EACH,
    C_DISCARD_CHEAPEST,
    C_FREE_CARD,
    C_MISS_TURN,
    C_MOVE,
    C_PAY,
    C_PAY_CASH_PERCENT,
    C_PAY_EACH,
    C_REDEEM_AT_RISK,
)
from .state import (
    COMMAND_CHAIN,
    E_BANK_BUYS,
    E_BONUS,
    E_BUY,
    E_CANNOT_RAISE,
    E_CARD,
    E_CHARGE,
    E_COMMAND,
    E_DEAL,
    E_DISCARD,
    E_EMPTY_PACK,
    E_ENTER,
    E_FREE_CARD,
    E_MISSED,
    E_RAID,
    E_REFUSED,
    E_ROLL,
    E_SELL,
    E_TURN,
    E_YELLOW_COMMAND,
    PAY_CHARGE,
    PAY_PLAIN,
    PAY_RAID_LOAN,
    PAY_SALE_LOANS,
    S_BLUE_BONUSES,
    S_BOUGHT_FROM_PLAYERS,
    S_CHARGES,
    S_COMMANDS,
    S_EMPTY_PACKS,
    S_FREE_CARDS,
    S_INNER_ROUND,
    S_LONG_SETS,
    S_OFFERS_REFUSED,
    S_RAIDED,
    S_RAIDS,
    S_SALE_LOANS,
    S_SET_CREDITS,
    S_SETS_SOLD,
    S_SOLD_TO_PLAYERS,
    S_SPACE_BUYS,
    S_TURNS,
    ST_COMMAND_CARDS,
    ST_COMMAND_HEAD,
    ST_COMMANDS,
    ST_RECORD,
    ST_SALE_LOANS,
    ST_SET_SIZES,
    WANT_CARD,
    WANT_DEAL,
    I,
    _add_at_risk,
    _add_clean,
    _ask,
    _ask_yes_no,
    _held,
    _illegal,
    _log,
    _risk,
    _rngs,
    _seat,
    _stat,
    _state,
    _table,
)
from .view import (
    BLUE,
    BORROW_FOR_PURCHASE,
    BORROW_VOLUNTARY,
    D_ANSWER,
    D_BORROW,
    D_BUY,
    D_DEAL,
    D_ENTER,
    D_SELL,
    D_YELLOW,
    DEAL_BUY,
    DEAL_RAID,
    F_BANKRUPT,
    F_CARDS,
    F_CASH,
    F_CIRCLE,
    F_MISS,
    F_POSITION,
    F_RISK_CARDS,
    F_SETS,
    H_BLUE_BONUS,
    H_BORROW_ON_SALE,
    H_BUY_MULTIPLE,
    H_COMMODITIES,
    H_DEAL_BOUGHT,
    H_DEAL_USED,
    H_INNER_ENTRY,
    H_INNER_OPEN,
    H_INNER_SPACES,
    H_INNER_WEALTH,
    H_MIN_SET,
    H_ON_SALE,
    H_OUTER_SPACES,
    H_PLAYERS,
    H_RAID_MULTIPLE,
    H_ROUND,
    H_SALE_OPEN,
    H_TURN_SEAT,
    INNER,
    MAX_SET,
    OUTER,
    YELLOW,
    face,
    handlers_charge,
    part_up,
    redeem_cost,
    set_value,
    space,
    total_wealth,
    unpack_deal,
)


# ---- a turn -------------------------------------------------------------------------------------
@context_helper(types.none, I, I)
def _deal(ctx, seat, answer):
    """K1: one deal before rolling: buy a clean card from a player at 3 x face (the seller may refuse) or
    raid an At Risk card at 2 x face (the owner must sell and repays its loan + 10% from the price)."""
    table, state = _table(ctx), _state(ctx)
    if answer < 0:   # the decoding below would give a negative commodity
        _illegal(ctx, seat, D_DEAL, answer)
        return
    kind, other, c = unpack_deal(answer)
    if (kind not in (DEAL_BUY, DEAL_RAID) or other == seat or other >= table[H_PLAYERS] or c >= table[H_COMMODITIES]
            or table[_seat(table, other, F_BANKRUPT)] != 0
            or table[(_held(table, other, c) if kind == DEAL_BUY else _risk(table, other, c))] == 0):
        _illegal(ctx, seat, D_DEAL, answer)
        return
    table[H_DEAL_USED] = 1
    price = face(table, c) * (table[H_BUY_MULTIPLE] if kind == DEAL_BUY else table[H_RAID_MULTIPLE])
    if kind == DEAL_BUY and _ask_yes_no(ctx, D_ANSWER, other, 0, c, price, 0, seat) == 0:
        state[_stat(state, seat, S_OFFERS_REFUSED)] += 1
        _log(ctx, seat, E_REFUSED, other, c, price, 0)
        return
    if table[_seat(table, seat, F_CASH)] < price and not _raise(ctx, seat, price, BORROW_FOR_PURCHASE, c):
        _log(ctx, seat, E_CANNOT_RAISE, c, price, WANT_DEAL, other)
        return
    table[_seat(table, seat, F_CASH)] -= price
    table[_seat(table, other, F_CASH)] += price
    _add_clean(table, seat, c, 1)
    table[H_DEAL_BOUGHT] = 1
    if kind == DEAL_BUY:
        _add_clean(table, other, c, -1)
        state[_stat(state, seat, S_BOUGHT_FROM_PLAYERS)] += 1
        state[_stat(state, other, S_SOLD_TO_PLAYERS)] += 1
        _log(ctx, seat, E_DEAL, other, c, price, 0)
    else:   # the card arrives clean; the owner clears the loan from the price
        _add_at_risk(table, other, c, -1)
        state[_stat(state, seat, S_RAIDS)] += 1
        state[_stat(state, other, S_RAIDED)] += 1
        _log(ctx, seat, E_RAID, other, c, price, 0)
        _pay_bank(ctx, other, redeem_cost(table, c), PAY_RAID_LOAN, c)


@context_helper(types.none, I, I)
def _turn_card(ctx, seat, pack):
    """Turn the top card of a pack: buy it at face value or pay the Handlers Charge (K6: empty pack, nothing)."""
    table, state = _table(ctx), _state(ctx)
    c = _from_pack_top(ctx, pack)
    if c < 0:
        state[_stat(state, seat, S_EMPTY_PACKS)] += 1
        _log(ctx, seat, E_EMPTY_PACK, pack, 0, 0, 0)
        return
    price = face(table, c)
    charge = handlers_charge(table, c)
    _log(ctx, seat, E_CARD, c, price, 0, 0)
    if _ask_yes_no(ctx, D_BUY, seat, 0, c, price, charge, -1) != 0:
        if table[_seat(table, seat, F_CASH)] >= price or _raise(ctx, seat, price, BORROW_FOR_PURCHASE, c):
            _to_bank(ctx, seat, price)
            _add_clean(table, seat, c, 1)
            state[_stat(state, seat, S_SPACE_BUYS)] += 1
            _log(ctx, seat, E_BUY, c, price, 0, 0)
            return
        _log(ctx, seat, E_CANNOT_RAISE, c, price, WANT_CARD, -1)
    _to_pack_bottom(ctx, c)
    state[_stat(state, seat, S_CHARGES)] += 1
    _log(ctx, seat, E_CHARGE, c, charge, 0, 0)
    _pay_bank(ctx, seat, charge, PAY_CHARGE, c)


@context_helper(I, I, I)
def _pick_card(ctx, seat, dearest):
    """The seat's cheapest (or dearest) clean card, ties at random (K7); -1 if it holds none."""
    table, rngs = _table(ctx), _rngs(ctx)
    best, ties = -1, 0
    for c in range(table[H_COMMODITIES]):
        if table[_held(table, seat, c)] == 0:
            continue
        if best < 0 or (face(table, c) > face(table, best) if dearest else face(table, c) < face(table, best)):
            best, ties = c, 1
        elif face(table, c) == face(table, best):
            ties += 1
            if rng.below(rngs[2 * table[H_PLAYERS] + 1], ties) == 0:
                best = c
    return best


@context_helper(types.boolean, I)
def _command(ctx, seat):
    """Draw a Command card and follow it (the card goes to the bottom of the pile at once). True if the
    token moved, so that it acts on its new space."""
    table, state = _table(ctx), _state(ctx)
    cards = state[ST_COMMAND_CARDS]
    head = state[ST_COMMAND_HEAD]
    card = state[ST_COMMANDS + head]
    state[ST_COMMAND_HEAD] = (head + 1) % cards
    kind, value = state[ST_COMMANDS + cards + card], state[ST_COMMANDS + 2 * cards + card]
    state[_stat(state, seat, S_COMMANDS)] += 1
    _log(ctx, seat, E_COMMAND, kind, value, 0, 0)
    cash_at = _seat(table, seat, F_CASH)
    if kind == C_COLLECT:
        _from_bank(ctx, seat, value)
    elif kind == C_PAY:
        _pay_bank(ctx, seat, value, PAY_PLAIN, 0)
    elif kind == C_PAY_CASH_PERCENT:
        _pay_bank(ctx, seat, part_up(table[cash_at], value * 100), PAY_PLAIN, 0)
    elif kind == C_COLLECT_FROM_EACH:
        for q in range(table[H_PLAYERS]):
            if q != seat and table[_seat(table, q, F_BANKRUPT)] == 0:
                _pay_players(ctx, q, seat, value)
    elif kind == C_PAY_EACH:
        _pay_players(ctx, seat, -1, value)
    elif kind == C_FREE_CARD:   # K7: counts as a purchase on a space
        c = _from_pack_top(ctx, value)
        if c >= 0:
            _add_clean(table, seat, c, 1)
            state[_stat(state, seat, S_FREE_CARDS)] += 1
            _log(ctx, seat, E_FREE_CARD, c, 0, 0, 0)
    elif kind == C_DISCARD_CHEAPEST or kind == C_BANK_BUYS_BEST:
        c = _pick_card(ctx, seat, 1 if kind == C_BANK_BUYS_BEST else 0)
        if c >= 0:
            _add_clean(table, seat, c, -1)
            _to_pack_bottom(ctx, c)
            if kind == C_BANK_BUYS_BEST:
                _from_bank(ctx, seat, face(table, c))
            _log(ctx, seat, E_BANK_BUYS if kind == C_BANK_BUYS_BEST else E_DISCARD, c, face(table, c), 0, 0)
    elif kind == C_MISS_TURN:
        table[_seat(table, seat, F_MISS)] += 1
    elif kind == C_MOVE or kind == C_ADVANCE_TO_BLUE:
        circle = table[_seat(table, seat, F_CIRCLE)]
        spaces = table[H_OUTER_SPACES] if circle == OUTER else table[H_INNER_SPACES]
        at = table[_seat(table, seat, F_POSITION)]
        if kind == C_MOVE:
            at = (at + value) % spaces
        else:
            for step in range(1, spaces + 1):
                if space(table, circle, (at + step) % spaces) == BLUE:
                    at = (at + step) % spaces
                    break
        table[_seat(table, seat, F_POSITION)] = at
        _log(ctx, seat, E_ROLL, 0, at, circle, 1)
        return True
    elif kind == C_REDEEM_AT_RISK:
        if table[_seat(table, seat, F_RISK_CARDS)] > 0:
            _redeem_step(ctx, seat, True)
    return False


@context_helper(types.none, I)
def _act_on_space(ctx, seat):
    table = _table(ctx)
    for _ in range(COMMAND_CHAIN):
        circle = table[_seat(table, seat, F_CIRCLE)]
        colour_here = space(table, circle, table[_seat(table, seat, F_POSITION)])
        take_command = colour_here == BLUE
        if colour_here == BLUE and circle == OUTER:
            _from_bank(ctx, seat, table[H_BLUE_BONUS])
            _state(ctx)[_stat(_state(ctx), seat, S_BLUE_BONUSES)] += 1
            _log(ctx, seat, E_BONUS, table[H_BLUE_BONUS], 0, 0, 0)
        elif colour_here == YELLOW and circle == OUTER and _ask_yes_no(ctx, D_YELLOW, seat, 0, -1, 0, 0, -1) != 0:
            take_command = True
            _log(ctx, seat, E_YELLOW_COMMAND, 0, 0, 0, 0)
        if not take_command:
            _turn_card(ctx, seat, colour_here)
            return
        if not _command(ctx, seat) or table[_seat(table, seat, F_BANKRUPT)] != 0:
            return


@context_helper(types.none, I)
def _turn(ctx, seat):
    table, state, rngs = _table(ctx), _state(ctx), _rngs(ctx)
    n = table[H_PLAYERS]
    commodities = table[H_COMMODITIES]
    cash_at = _seat(table, seat, F_CASH)
    table[H_TURN_SEAT] = seat
    state[_stat(state, seat, S_TURNS)] += 1
    if state[ST_RECORD] != 0:
        _log(ctx, seat, E_TURN, table[cash_at], total_wealth(table, seat), table[_seat(table, seat, F_POSITION)],
             table[_seat(table, seat, F_CIRCLE)])
    if table[_seat(table, seat, F_MISS)] > 0:
        table[_seat(table, seat, F_MISS)] -= 1
        _log(ctx, seat, E_MISSED, 0, 0, 0, 0)
        return
    table[H_DEAL_USED] = 0
    table[H_DEAL_BOUGHT] = 0
    # 1. before rolling: one deal, redeeming, selling sets, loans (K1, K2). Until the selling step, loans may
    # be on cards of a set to be sold (K7 borrow_on_sale)
    table[H_SALE_OPEN] = table[H_BORROW_ON_SALE]
    for q in range(n):
        if q != seat and table[_seat(table, q, F_CARDS)] + table[_seat(table, q, F_RISK_CARDS)] > 0:
            answer = _ask(ctx, D_DEAL, seat, 0, -1, 0, 0, -1)
            if answer != 0:
                _deal(ctx, seat, answer)
            break
    if table[H_DEAL_BOUGHT] == 0 and table[_seat(table, seat, F_RISK_CARDS)] > 0:
        _redeem_step(ctx, seat, False)
    table[H_SALE_OPEN] = 0
    min_set = table[H_MIN_SET]
    while table[_seat(table, seat, F_SETS)] > 0:
        answer = _ask(ctx, D_SELL, seat, 0, -1, 0, 0, -1)
        if answer == -1:
            break
        c, cards = answer // (MAX_SET + 1), answer % (MAX_SET + 1)
        if answer < 0 or c >= commodities or cards < min_set or cards > table[_held(table, seat, c)]:
            _illegal(ctx, seat, D_SELL, answer)
            break
        value = set_value(table, c, cards)
        _add_clean(table, seat, c, -cards)
        for _ in range(cards):
            _to_pack_bottom(ctx, c)
        _from_bank(ctx, seat, value)
        state[_stat(state, seat, S_SETS_SOLD)] += 1
        state[_stat(state, seat, S_SET_CREDITS)] += value
        state[ST_SET_SIZES + cards] += 1
        if cards > min_set:
            state[_stat(state, seat, S_LONG_SETS)] += 1
        repaid = min(cards, table[table[H_ON_SALE] + c])   # the cards borrowed on go first
        _log(ctx, seat, E_SELL, c, cards, value, repaid)
        if repaid > 0:
            table[table[H_ON_SALE] + c] -= repaid
            state[ST_SALE_LOANS] -= repaid
            state[_stat(state, seat, S_SALE_LOANS)] += repaid
            _pay_bank(ctx, seat, repaid * redeem_cost(table, c), PAY_SALE_LOANS, c)
            if table[_seat(table, seat, F_BANKRUPT)] != 0:   # a sale worth less than its loans (house multiples)
                return
    if state[ST_SALE_LOANS] > 0:
        _unsold_to_risk(ctx, seat)
    while table[_seat(table, seat, F_CARDS)] > 0:
        c = _ask(ctx, D_BORROW, seat, BORROW_VOLUNTARY, -1, 0, 0, -1)
        if c == -1:
            break
        if c < -1 or c >= commodities or table[_held(table, seat, c)] == 0:
            _illegal(ctx, seat, D_BORROW, c)
            break
        _borrow(ctx, seat, c, BORROW_VOLUNTARY, False)
    # 2. the inner circle (K3)
    circle = table[_seat(table, seat, F_CIRCLE)]
    if circle == OUTER and (table[H_INNER_OPEN] != 0 or total_wealth(table, seat) >= table[H_INNER_WEALTH]):
        if _ask_yes_no(ctx, D_ENTER, seat, 0, -1, 0, 0, -1) != 0:
            circle = INNER
            table[_seat(table, seat, F_CIRCLE)] = INNER
            table[_seat(table, seat, F_POSITION)] = table[H_INNER_ENTRY]
            table[H_INNER_OPEN] = 1
            state[_stat(state, seat, S_INNER_ROUND)] = table[H_ROUND] + 1
            _log(ctx, seat, E_ENTER, 0, 0, 0, 0)
    # 3. roll and move
    dice = rngs[seat]
    roll = 1 + rng.below(dice, 6)
    spaces = table[H_INNER_SPACES]
    if circle == OUTER:
        roll += 1 + rng.below(dice, 6)
        spaces = table[H_OUTER_SPACES]
    at = (table[_seat(table, seat, F_POSITION)] + roll) % spaces
    table[_seat(table, seat, F_POSITION)] = at
    _log(ctx, seat, E_ROLL, roll, at, circle, 0)
    _act_on_space(ctx, seat)
