"""Readable turn-by-turn text of one recorded Wheeler Dealer (UK) game (the rules as played:
docs/rules/wheeler-dealer-uk.md). Each event line is the turn's seat's unless it names another seat first
(a raided owner repaying its loan, a payer of collect_from_each_player, a bankrupt creditor...)."""
from __future__ import annotations

from . import state as S
from .rules import COMMAND_KINDS
from .view import COLOURS, DECISION_NAMES, H_TURN_LIMIT

_CIRCLES = ("outer", "inner")
_BORROW_FOR = ("before rolling", "to pay for a purchase", "to make a payment", "to pay for redeeming",
               "to redeem for the Command card")


def an(name: str) -> str:
    return ("an " if name[:1].upper() in "AEIO" else "a ") + name   # "a Uranium"


def format_replay(prepared, seats, seed, game, out) -> str:
    names = prepared.commodities
    label = [f"seat {p} ({seat.label})" for p, seat in enumerate(seats)]

    def who(seat):
        return label[seat] if seat >= 0 else "nobody"

    def winners():
        won = [p for p in range(prepared.n_players) if out["winner"][0, p]]
        if len(won) == 1:
            return f"{label[won[0]]} wins"
        return " and ".join(label[p] for p in won) + " share the win"

    lines = [f"Wheeler Dealer (UK), game {game} of seed {seed}, {prepared.n_players} players, level {prepared.level}"]
    lines += _dealt_hands(prepared, out["events"], label, names)
    turn_seat = -1
    for ev in out["events"]:
        rnd, seat, kind, a, b, c, d = (int(x) for x in ev)
        if kind == S.E_DEALT:
            continue
        if kind == S.E_TURN:
            turn_seat = seat
            lines.append(f"round {rnd + 1}, {who(seat)} on {_CIRCLES[d]} space {c}: cash {a:,}, total wealth {b:,}")
            continue
        actor = "   " if seat == turn_seat or seat < 0 else f"   {who(seat)} "
        if kind == S.E_MISSED:
            text = "misses this turn"
        elif kind == S.E_DEAL:
            text = f"buys {an(names[b])} from {who(a)} for {c:,}"
        elif kind == S.E_REFUSED:
            text = f"offers {who(a)} {c:,} for {an(names[b])}: refused"
        elif kind == S.E_RAID:
            text = f"buys {who(a)}'s At Risk {names[b]} for {c:,} (the owner must sell; the card arrives clean)"
        elif kind == S.E_REDEEM:
            text = f"redeems an At Risk {names[a]} for {b:,}"
        elif kind == S.E_SELL:
            text = f"sells a set of {b} {names[a]} to the bank for {c:,}"
            if d:
                text += f" ({d} of them borrowed on for the sale)"
        elif kind == S.E_LOAN and d:
            text = (f"borrows {b:,} on {an(names[a])} of the set to be sold this turn ({_BORROW_FOR[c]}): "
                    "no At Risk zone, repaid from the sale")
        elif kind == S.E_LOAN:
            text = f"takes an At Risk loan of {b:,} on {an(names[a])} ({_BORROW_FOR[c]})"
        elif kind == S.E_LOAN_TO_RISK:
            text = f"did not sell the {b} {names[a]} borrowed on for a sale: they go to the At Risk zone"
        elif kind == S.E_CANNOT_RAISE:
            if c == S.WANT_DEAL:
                text = f"wants {who(d)}'s {names[a]} for {b:,} but cannot raise the money: no deal"
            elif c == S.WANT_CARD:
                text = f"wants the {names[a]} but cannot raise {b:,}"
            else:
                text = f"wants to redeem an At Risk {names[a]} but cannot raise {b:,}: stops redeeming"
        elif kind == S.E_ENTER:
            text = "announces and enters the inner circle"
        elif kind == S.E_ROLL:
            text = ("moves (Command card)" if d else f"rolls {a}") + f" to {_CIRCLES[c]} space {b}"
        elif kind == S.E_CARD:
            text = f"turns {an(names[a])} (face {b:,})"
        elif kind == S.E_BUY:
            text = f"buys it for {b:,}"
        elif kind == S.E_CHARGE:
            text = f"declines it: Handlers Charge {b:,}, the card goes to the bottom of its pack"
        elif kind == S.E_EMPTY_PACK:
            text = f"the {COLOURS[a]} pack is empty: nothing happens (K6)"
        elif kind == S.E_BONUS:
            text = f"blue space: bonus {a:,} and a Command card"
        elif kind == S.E_YELLOW_COMMAND:
            text = "takes a Command card instead of a yellow card"
        elif kind == S.E_COMMAND:
            value = f" {COLOURS[b]}" if COMMAND_KINDS[a] == "free_card" else (f" {b:,}" if b else "")
            text = f"Command card: {COMMAND_KINDS[a]}{value}"
        elif kind == S.E_PAY:
            text = _payment(a, b, c, d, who, names)
            if text is None:
                continue
        elif kind == S.E_FREE_CARD:
            text = f"takes a free {names[a]}"
        elif kind == S.E_DISCARD:
            text = f"discards {an(names[a])} (face {b:,}) to the bottom of its pack"
        elif kind == S.E_BANK_BUYS:
            text = f"sells {an(names[a])} to the bank for {b:,}"
        elif kind == S.E_FORFEIT:
            text = f"forfeits an At Risk {names[a]} to the bottom of its pack"
        elif kind == S.E_BANKRUPT:
            text = "goes BANKRUPT: its cards go to the bottom of their packs"
            if a:
                text += f", its last {a:,} credits to the bank"
        elif kind == S.E_ILLEGAL:
            text = f"answers '{DECISION_NAMES[a]}' with {b}, which is refused: the default is played"
        elif kind == S.E_END and seat == S.LAST_ONES_OUT:
            lines.append("== Game over: the last players went bankrupt in the same turn and share the win")
            continue
        elif kind == S.E_END and a == S.END_TURN_LIMIT:
            lines.append(f"== Game over: {int(prepared.table[H_TURN_LIMIT]):,} rounds played, the turn limit "
                         f"(game.turn_limit): the richest player left wins; {winners()}")
            continue
        elif kind == S.E_END:
            why = ("reaches the level's target", "is the last player left")[a]
            lines.append(f"== Game over: {who(seat)} {why}")
            continue
        else:
            text = f"(event {kind})"
        lines.append(actor + text)
    lines += ["", "== Final"]
    for p in range(prepared.n_players):
        mark = "  WINNER" if out["winner"][0, p] else ""
        state = "bankrupt" if out["bankrupt"][0, p] else f"wealth {out['wealth'][0, p]:,}, cash {out['cash'][0, p]:,}"
        lines.append(f"   {label[p]}: {state}{mark}")
    if out["events_lost"]:
        lines.append(f"   ({out['events_lost']} events beyond the log's capacity were not recorded)")
    return "\n".join(lines)


def _dealt_hands(prepared, events, label, names) -> list[str]:
    """The start hands (E_DEALT events) with their face values, and each seat's wealth from them: cash plus the
    faces of the cards held."""
    hands = [[] for _ in range(prepared.n_players)]
    for _, seat, kind, c, value, _, _ in events.tolist():
        if kind == S.E_DEALT:
            hands[seat].append((names[c], value))
    cash = int(prepared.start_cash)
    lines = [f"== The deal: each player starts with {cash:,} credits and these cards (face values)"]
    for p, hand in enumerate(hands):
        cards = ", ".join(f"{name} {value:,}" for name, value in sorted(hand))
        faces = sum(value for _, value in hand)
        lines.append(f"   {label[p]}: {cards or 'no cards'}; wealth {cash:,} + {faces:,} = {cash + faces:,}")
    return lines


def _payment(amount, payee, reason, detail, who, names):
    if reason == S.PAY_CHARGE:
        return f"pays the Handlers Charge, {amount:,}, to the bank"
    if reason == S.PAY_RAID_LOAN:
        return f"repays its loan on the {names[detail]} + interest from the price: {amount:,} to the bank"
    if reason == S.PAY_SALE_LOANS:
        return f"repays the loans on the {names[detail]} sold + interest from the sale: {amount:,} to the bank"
    if reason == S.PAY_LAST_CASH:
        return f"pays its last {amount:,} credits to {who(payee)}"
    if payee == S.PAYEE_EACH:
        return f"pays {amount:,} to each other player ({detail:,} in all)"
    return f"pays {amount:,} to " + ("the bank" if payee == S.PAYEE_BANK else who(payee))
