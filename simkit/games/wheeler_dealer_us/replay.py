"""Readable turn-by-turn text of one recorded Wheeler-Dealer (US) game: every roll, payment and decision (the
rules it follows: docs/rules/wheeler-dealer-us.md)."""
from __future__ import annotations

from . import state as e
from .cards import R_BAMBOOZLE_CASH
from .view import (
    COMBO_BAMBOOZLE,
    COMBO_MOVE,
    COMBO_TAXI,
    D_BAMBOOZLE,
    D_BID,
    D_BORROW_ON,
    D_BUMP,
    D_BUY,
    D_CARD,
    D_DEAL_ANSWER,
    D_DEAL_OFFER,
    D_FINANCE,
    D_INVEST,
    D_POACH,
    D_RAISE,
    DEAL_BUY,
    DEAL_SELL,
    DEAL_SWAP,
    DECISION_NAMES,
)

_DEALS = {DEAL_BUY: "to buy", DEAL_SELL: "to sell", DEAL_SWAP: "to swap"}
_ENDS = {e.END_CLOCK: "the last Wheeler-Dealer card was drawn", e.END_LAST_PLAYER: "one player is left",
         e.END_TURN_LIMIT: "the turn limit (game.max_turns) was reached"}


_DEFAULTS = {D_FINANCE: "asked again", D_INVEST: "the cheapest stake, or none if optional", D_BUY: "not bought",
             D_BID: "no bid", D_POACH: "no poach", D_DEAL_OFFER: "no offer", D_DEAL_ANSWER: "refused",
             D_RAISE: "asked again", D_BUMP: "no bump", D_CARD: "not used", D_BAMBOOZLE: "the engine's default",
             D_BORROW_ON: "the first title it may borrow on"}
_USES = {e.USED_CANCEL_AUDIT: " to cancel the Tax Audit", e.USED_SKIP_SCHOOL: " to skip the turn missed at School",
         e.USED_STEP5: " (step five)", e.USED_AS_COMBO + COMBO_TAXI: " as a Taxi Service",
         e.USED_AS_COMBO + COMBO_BAMBOOZLE: " as a Bamboozle", e.USED_AS_COMBO + COMBO_MOVE: " as a Move Any Player"}


def _money(value) -> str:
    return f"-${-int(value):,}" if value < 0 else f"${int(value):,}"


def format_replay(prepared, seats, seed, game, out) -> str:
    props, squares = prepared.properties, prepared.squares
    goods, cards = prepared.commodities, prepared.card_types
    who = [f"seat {p} ({seat.label})" for p, seat in enumerate(seats)]

    stake = _money(prepared.vector[R_BAMBOOZLE_CASH])

    def prop(i):
        return props[i]

    def item(i, card_type):
        return f"a {cards[card_type]} card" if i < 0 else props[i]

    def no_bid(a, b, c, d):
        if a >= 0:
            return f"nobody bids on {props[a]}; " + (f"{who[b]} keeps it" if b >= 0 else "it stays with the bank")
        return f"nobody buys the {cards[c]} card" + ("" if d else f"; {who[b]} keeps it")

    def party(i):
        return "the bank" if i < 0 else who[i]

    lines = [f"Wheeler-Dealer (US), game {game} of seed {seed}, "
             f"{prepared.n_players} players, Level {prepared.level}"]
    for turn, seat, kind, a, b, c, d in out["events"]:
        p = who[seat] if seat >= 0 else ""
        if kind == e.E_TURN:
            lines += ["", f"== Turn {turn}: {p} on {squares[a]} with {_money(b)}"]
            continue
        if kind == e.E_MISSED:  # not a turn of the count: its token stays on School until its next turn
            lines += ["", f"== {p} misses its turn (School)"]
            continue
        text = {
            e.E_INVEST: lambda: f"{p} invests {_money(d)} in {goods[a]}, rolls {b}: "
                                + ("wins" if c else "loses"),
            e.E_MOVE: lambda: f"{p} rolls {a}+{b} and moves to {squares[c]}",
            e.E_DOUBLES: lambda: f"{p} collects a doubles bonus of {_money(a)}",
            e.E_BUY: lambda: f"{p} buys {prop(a)} for {_money(b)}",
            e.E_AUCTION: lambda: f"{p} wins the auction of {prop(a)} for {_money(b)}",
            e.E_NO_BID: lambda: no_bid(a, b, c, d),
            e.E_RENT: lambda: f"{p} lands on {prop(a)} of {party(d)}, rolls {b}, owes {_money(c)} rent",
            e.E_OWN_INCOME: lambda: f"{p} lands on own {prop(a)}, rolls {b}, collects {_money(c)}",
            e.E_POACH: lambda: f"{p} poaches debt-ridden {prop(a)} from {party(c)}, paying the bank {_money(b)}",
            e.E_PARK: lambda: f"{p} is in the Park, rolls {a}, collects {_money(b)}",
            e.E_CITY_HALL: lambda: f"{p} pays City Hall {_money(a)}",
            e.E_SCHOOL: lambda: f"{p} goes to School, rolls {a}, collects {_money(b)} and misses the next turn",
            e.E_CARD: lambda: f"{p} draws a Wheeler-Dealer card: {cards[a]}",
            e.E_CARD_SAVED: lambda: f"{p} saves {cards[a]}",
            e.E_CARD_USED: lambda: f"{p} uses {cards[a]}" + _USES.get(int(b), ""),
            e.E_CARD_DISCARDED: lambda: f"{p} discards {cards[a]}",
            e.E_BORROW: lambda: f"{p} borrows {_money(b)} on {prop(a)} (now debt-ridden)",
            e.E_REPAY: lambda: f"{p} repays {_money(b)} on {prop(a)}",
            e.E_DEAL: lambda: f"{p} offers {who[a]} a deal {_DEALS.get(int(b), '?')}: gives "
                              f"{prop(c) if c >= 0 else 'no property'}, takes {prop(d) if d >= 0 else 'no property'}",
            e.E_DEAL_TERMS: lambda: f"   with {_money(a)} paid by the offerer -> " + ("accepted" if b else "refused"),
            e.E_SALE: lambda: f"{p} buys {item(a, d)} from {party(b)} for {_money(c)}",
            e.E_BANKRUPT: lambda: f"{p} is BANKRUPT, owing {party(a)}; {_money(b)} cash goes to {party(a)}",
            e.E_BUMP: lambda: f"{p} tries to bump {who[a]} to {squares[b]}, rolls {c}: "
                              + ("bumped" if c % 2 == 0 else "odd, no bump"),
            e.E_AUDIT: lambda: f"{p} is audited: {_money(a)} at stake, rolls {b}: " + ("pays" if b % 2 else "refund"),
            e.E_BAMBOOZLE: lambda: f"{p} bamboozles {prop(b)} with " + (prop(a) if a >= 0 else f"{stake} cash")
                                   + f": rolls {c} against {d}",
            e.E_MOVED: lambda: (f"{p} moves {who[a]} to {squares[b]}" if d == 1 else
                                f"{p} advances to {squares[b]}" if d == 2 else
                                f"{p} takes a taxi to {squares[b]}" + (f" ({_money(c)})" if c else "")),
            e.E_EXTRA_TURN: lambda: f"{p} takes an extra turn",
            e.E_MASTER_KEY: lambda: f"{p} goes to " + ("the Tax Audit" if a == 0 else "School") + " with the Master Key",
            e.E_PAY: lambda: f"{p} pays {_money(a)} to {party(b)}",
            e.E_COLLECT: lambda: f"{p} collects {_money(a)}",
            e.E_ILLEGAL: lambda: f"{p} gave an illegal answer to decision {DECISION_NAMES[a]}; refused "
                                 f"({_DEFAULTS[int(a)]})",
            e.E_END: lambda: f"== Game over: {_ENDS.get(int(a), a)}",
        }.get(int(kind))
        if text is not None:
            lines.append("   " + text() if kind != e.E_END else "\n" + text())
    lines.append("== Net worth (cash + market value - payoffs on debt-ridden titles)")
    for seat in range(prepared.n_players):
        flags = " BANKRUPT" if out["bankrupt"][0, seat] else ""
        flags += "  WINNER" if out["winner"][0, seat] else ""
        lines.append(f"   {who[seat]}: {_money(out['net_worth'][0, seat])} (cash {_money(out['cash'][0, seat])}, "
                     f"{out['properties'][0, seat]} titles, {out['blocks'][0, seat]} whole blocks){flags}")
    lost = out["events_lost"]
    if lost > 0:
        lines.append(f"   ({lost} events beyond the log's capacity were not recorded)")
    return "\n".join(lines)
