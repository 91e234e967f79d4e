"""Sealed-bid auctions (U3, U14): the one bidding loop, and what is sold by it: a property (the bank's, a
declined or a bankrupt's one, or a debtor's own) and a Wheeler-Dealer card (a debtor's saved card, or a
drawn Bamboozle)."""
from numba import types

from ... import rng
from ...numba_tools import context_helper
from .rules import RULE_DATA
from .state import (
    E_AUCTION,
    E_NO_BID,
    E_SALE,
    N_STATS,
    S_AUCTIONS_WON,
    ST_STATS,
    TIE_ROW,
    B,
    I,
    _alive,
    _card_kind,
    _decide,
    _illegal,
    _log,
    _on_school,
    _public,
    _rngs,
    _rules,
    _set_debt,
    _set_owner,
    _state,
    _table,
    _transfer,
)
from .view import CK_UNDERHANDED, D_BID, PUB_PLAYERS, auction_limit, can_bamboozle, saved_slot

# The rule options this module plays: their slots in the rule vector (rules.RULE_DATA declares them).
R_AUCTION_INCREMENT = RULE_DATA.slot("game.auction_increment")



@context_helper(types.UniTuple(I, 2), I, I, I, I, B, I, B)
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
        limit = auction_limit(public, seat, must_use)
        if must_use and (limit < reserve or not can_bamboozle(public, _table(ctx), seat,
                                                                _card_kind(ctx, card_type) == CK_UNDERHANDED)):
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


@context_helper(I, I, I, I, B, I)
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


@context_helper(I, I, I, I, B, I)
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
