"""Level Two's Wheeler-Dealer cards: the draw (step 4), saved cards (used when drawn or in step 5) and what
each card does (Tax Audit, Bamboozles, Taxi Service, Move Any Player, Master Key, money cards)."""
from ... import rng
from ...numba_tools import context_helper, inlined
from .auctions import _sell_card
from .board import _land, _place, _visit_owned
from .money import R_AUCTION_MIN, _pay
from .rules import R_DECK_SIZE, R_PARK_SQUARE, R_SCHOOL_SQUARE, RULE_DATA
from .state import (
    DECK_ROW,
    E_AUDIT,
    E_BAMBOOZLE,
    E_CARD,
    E_CARD_DISCARDED,
    E_CARD_SAVED,
    E_CARD_USED,
    E_COLLECT,
    E_EXTRA_TURN,
    E_MASTER_KEY,
    E_MOVED,
    EXTRA_DICE_ROW,
    N_STATS,
    S_BAMBOOZLES,
    S_BAMBOOZLES_WON,
    S_CARDS_USED,
    S_CASH_BAMBOOZLES,
    S_TAX_AUDITS,
    ST_EXTRA,
    ST_STATS,
    USED_AS_COMBO,
    USED_CANCEL_AUDIT,
    USED_DRAWN,
    B,
    I,
    _add_cash,
    _alive,
    _card_kind,
    _cash,
    _count,
    _decide,
    _deck,
    _die,
    _illegal,
    _log,
    _on_school,
    _out,
    _public,
    _rngs,
    _rules,
    _set_owner,
    _state,
    _table,
    _transfer,
    none,
)
from .view import (
    A_COMBO_MOVE_SQUARE,
    A_COMBO_SEAT,
    A_COMBO_SQUARE,
    A_COMBO_USE,
    A_KEY_DESTINATION,
    A_MOVE_SEAT,
    A_MOVE_SQUARE,
    A_STAKE,
    A_TARGET,
    A_TAXI_SQUARE,
    B_KIND,
    B_PROPERTY,
    CARD_DRAWN,
    CARD_MASTER_KEY_AUDIT,
    CK_BAMBOOZLE,
    CK_COLLECT,
    CK_COLLECT_FROM_EACH,
    CK_COLLECT_PER_PIP,
    CK_COMBO,
    CK_EASY_COME,
    CK_EXTRA_TURN,
    CK_MASTER_KEY,
    CK_MOVE_ANY,
    CK_PAY,
    CK_PAY_PERCENT,
    CK_TAX_AUDIT,
    CK_TAXI,
    CK_UNDERHANDED,
    COMBO_BAMBOOZLE,
    COMBO_DISCARD,
    COMBO_MOVE,
    COMBO_TAXI,
    D_BAMBOOZLE,
    D_CARD,
    K_AMOUNT,
    K_KIND,
    K_PERCENT,
    KEY_SCHOOL,
    KEY_TAX_AUDIT,
    P_COST,
    PUB_CARD_ROW,
    PUB_CARD_TYPES,
    PUB_CARDS_LEFT,
    PUB_LAST_CARD_DRAWN,
    PUB_PLAYERS,
    PUB_PROPERTIES,
    PUB_SQUARE_ROW,
    PUB_SQUARES,
    S_POSITION,
    SQ_PROPERTY,
    bamboozle_stake_ok,
    bamboozle_target_ok,
    can_bamboozle,
    left_slot,
    occupied,
    owner_slot,
    saved_slot,
    seat_slot,
)

# The rule options this module plays: their slots in the rule vector (rules.RULE_DATA declares them).
R_AUDIT_PER_PIP = RULE_DATA.slot("tax_audit.stake_per_pip")
R_BAMBOOZLE_CASH = RULE_DATA.slot("bamboozle.cash_stake")
R_LAST_PLAYER_STANDING = RULE_DATA.slot("game.last_player_standing")
R_LEVEL = RULE_DATA.slot("game.level")

# ---- what the cards do --------------------------------------------------------------------------------


@inlined
def _master_key_type(ctx):
    public, table = _public(ctx), _table(ctx)
    for t in range(public[PUB_CARD_TYPES]):
        if table[public[PUB_CARD_ROW] + t, K_KIND] == CK_MASTER_KEY:
            return t
    return -1


@context_helper(B, I)
def _tax_audit(ctx, seat):
    """Stake = die x tax_audit.stake_per_pip; a second die odd pays, even receives; then to Park and act there."""
    rules = _rules(ctx)
    stake = _die(ctx, EXTRA_DICE_ROW + seat) * rules[R_AUDIT_PER_PIP]
    parity = _die(ctx, EXTRA_DICE_ROW + seat)
    _log(ctx, seat, E_AUDIT, stake, parity, 0, 0)
    _count(ctx, seat, S_TAX_AUDITS)
    if parity % 2 == 1:
        if not _pay(ctx, seat, stake, -1):
            return True
    else:
        _add_cash(ctx, seat, stake, True)
    _place(ctx, seat, rules[R_PARK_SQUARE], True)
    return _land(ctx, seat, rules[R_PARK_SQUARE])


@context_helper(B, I, B, B)
def _bamboozle(ctx, seat, underhanded, must):
    """Play a Bamboozle (U16: ``must``, a bought one or a Combo Platter played as one, cannot be declined;
    a refused answer then stakes the seat's cheapest title, or the cash, against the first eligible
    target). Returns True if it was played."""
    public, table, rules = _public(ctx), _table(ctx), _rules(ctx)
    n = public[PUB_PROPERTIES]
    answer = _decide(ctx, D_BAMBOOZLE, seat, 1 if underhanded else 0, 1 if must else 0, 0, 0, 0)
    mine, target = _out(ctx)[A_STAKE], _out(ctx)[A_TARGET]
    if answer == 0 and not must:
        return False
    legal = bamboozle_target_ok(public, table, seat, target, underhanded) and bamboozle_stake_ok(public, seat, mine)
    if answer != 1 or not legal:
        _illegal(ctx, seat, D_BAMBOOZLE)
        if not must:
            return False
        mine, target = -1, -1
        for prop in range(n):
            if public[owner_slot(prop)] == seat and (mine < 0 or table[prop, P_COST] < table[mine, P_COST]):
                mine = prop
            if target < 0 and bamboozle_target_ok(public, table, seat, prop, underhanded):
                target = prop
        if target < 0 or not bamboozle_stake_ok(public, seat, mine):
            return False
    victim = public[owner_slot(target)]
    mine_roll, their_roll = _die(ctx, EXTRA_DICE_ROW + seat), _die(ctx, EXTRA_DICE_ROW + victim)
    _log(ctx, seat, E_BAMBOOZLE, mine, target, mine_roll, their_roll)
    _count(ctx, seat, S_BAMBOOZLES)
    if mine < 0:
        _count(ctx, seat, S_CASH_BAMBOOZLES)
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


@context_helper(B, I, I, I)
def _taxi_ok(ctx, seat, square, amount):
    """Any square without another token (not the current one), the card's payment affordable."""
    public = _public(ctx)
    return (0 <= square < public[PUB_SQUARES] and square != public[seat_slot(seat, S_POSITION)]
            and not occupied(public, square, seat) and _cash(public, seat) + amount >= 0)


@context_helper(B, I, I, I)
def _taxi(ctx, seat, square, amount):
    """Move (_taxi_ok), pay or collect, act there. Returns True if the turn ends there (School)."""
    _add_cash(ctx, seat, amount, True)
    _log(ctx, seat, E_MOVED, seat, square, amount, 0)
    _place(ctx, seat, square, True)
    return _land(ctx, seat, square)


@context_helper(B, I, I, I)
def _move_any_ok(ctx, seat, target, square):
    """Another token (not on School) to a non-corner square without a token."""
    public, table = _public(ctx), _table(ctx)
    return not (target < 0 or target >= public[PUB_PLAYERS] or target == seat or not _alive(public, target)
                or _on_school(public, target) or square < 0 or square >= public[PUB_SQUARES]
                or table[public[PUB_SQUARE_ROW] + square, B_KIND] != SQ_PROPERTY or occupied(public, square, -1))


@context_helper(none, I, I, I)
def _move_any(ctx, seat, target, square):
    """Move another token (_move_any_ok); it does nothing there."""
    _log(ctx, seat, E_MOVED, target, square, 0, 1)
    _place(ctx, target, square, False)


@context_helper(B, I, I)
def _master_key(ctx, seat, destination):
    """Go to the Tax Audit (KEY_TAX_AUDIT) or School (KEY_SCHOOL). Returns True if the turn ends."""
    rules = _rules(ctx)
    _log(ctx, seat, E_MASTER_KEY, destination, 0, 0, 0)
    if destination == KEY_TAX_AUDIT:
        return _tax_audit(ctx, seat)
    _place(ctx, seat, rules[R_SCHOOL_SQUARE], True)
    return _land(ctx, seat, rules[R_SCHOOL_SQUARE])


# ---- saved cards and the draw (step 4) ----------------------------------------------------------------


@context_helper(B, I, I)
def _saved_use_ok(ctx, seat, card_type):
    """Whether out[] holds a legal use, now, of a card that may be saved (checked before it is announced)."""
    out = _out(ctx)
    kind = _card_kind(ctx, card_type)
    if kind == CK_TAXI:
        return _taxi_ok(ctx, seat, out[A_TAXI_SQUARE], _table(ctx)[_public(ctx)[PUB_CARD_ROW] + card_type, K_AMOUNT])
    if kind == CK_MOVE_ANY:
        return _move_any_ok(ctx, seat, out[A_MOVE_SEAT], out[A_MOVE_SQUARE])
    if kind == CK_MASTER_KEY:
        return out[A_KEY_DESTINATION] == KEY_TAX_AUDIT or out[A_KEY_DESTINATION] == KEY_SCHOOL
    return kind == CK_EXTRA_TURN


@context_helper(B, I, I, I)
def _use_saved(ctx, seat, card_type, how):
    """Announce and play a card that may be saved, its use checked by _saved_use_ok (``how``: USED_DRAWN
    or USED_STEP5). Returns True if the turn ends (School)."""
    out = _out(ctx)
    kind = _card_kind(ctx, card_type)
    _state(ctx)[ST_STATS + seat * N_STATS + S_CARDS_USED] += 1
    _log(ctx, seat, E_CARD_USED, card_type, how, 0, 0)
    if kind == CK_TAXI:
        return _taxi(ctx, seat, out[A_TAXI_SQUARE], _table(ctx)[_public(ctx)[PUB_CARD_ROW] + card_type, K_AMOUNT])
    if kind == CK_MOVE_ANY:
        _move_any(ctx, seat, out[A_MOVE_SEAT], out[A_MOVE_SQUARE])
        return False
    if kind == CK_EXTRA_TURN:
        _state(ctx)[ST_EXTRA + seat] += 1
        _log(ctx, seat, E_EXTRA_TURN, 0, 0, 0, 0)
        return False
    return _master_key(ctx, seat, out[A_KEY_DESTINATION])


@context_helper(B, I)
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
        # U17(c): unsold, a usable one must be used (declining it now is refused and the default played);
        # only one that can be neither used nor sold is discarded
        if buyer < 0:
            if can_bamboozle(public, table, seat, underhanded) and _bamboozle(ctx, seat, underhanded, True):
                _state(ctx)[ST_STATS + seat * N_STATS + S_CARDS_USED] += 1
            else:
                _log(ctx, seat, E_CARD_DISCARDED, card_type, 0, 0, 0)
        return False
    if kind == CK_COMBO:
        choice = _decide(ctx, D_CARD, seat, CARD_DRAWN, card_type, 0, 0, 0)
        out = _out(ctx)
        use, square, target, target_square = out[A_COMBO_USE], out[A_COMBO_SQUARE], out[A_COMBO_SEAT], \
            out[A_COMBO_MOVE_SQUARE]
        if choice == -1 or (choice == card_type and use == COMBO_DISCARD):
            _log(ctx, seat, E_CARD_DISCARDED, card_type, 0, 0, 0)
            return False
        legal = False
        if choice == card_type:
            if use == COMBO_TAXI:
                legal = _taxi_ok(ctx, seat, square, 0)  # a Combo Platter used as a taxi costs nothing
            elif use == COMBO_BAMBOOZLE:
                legal = can_bamboozle(public, table, seat, False)
            elif use == COMBO_MOVE:
                legal = _move_any_ok(ctx, seat, target, target_square)
        if not legal:
            _illegal(ctx, seat, D_CARD)
            _log(ctx, seat, E_CARD_DISCARDED, card_type, 0, 0, 0)
            return False
        _state(ctx)[ST_STATS + seat * N_STATS + S_CARDS_USED] += 1
        _log(ctx, seat, E_CARD_USED, card_type, USED_AS_COMBO + use, 0, 0)
        if use == COMBO_TAXI:
            return _taxi(ctx, seat, square, 0)
        if use == COMBO_BAMBOOZLE:
            _bamboozle(ctx, seat, False, True)
        else:
            _move_any(ctx, seat, target, target_square)
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
            prop = table[public[PUB_SQUARE_ROW] + square, B_PROPERTY]
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
