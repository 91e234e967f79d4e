"""Readable turn-by-turn text of one recorded Wheeler Dealer (UK) game."""
from __future__ import annotations

from . import engine as E
from .rules import COMMAND_KINDS
from .view import COLOURS, DECISION_NAMES

_CIRCLES = ("outer", "inner")
_BORROW_FOR = ("before rolling", "to pay for a purchase", "to make a payment")


def format_replay(prepared, seats, seed, game, out) -> str:
    names = prepared.commodities
    label = [f"seat {p} ({seat.label})" for p, seat in enumerate(seats)]

    def who(seat):
        return label[seat] if seat >= 0 else "nobody"

    lines = [f"Wheeler Dealer (UK), game {game} of seed {seed}, {prepared.n_players} players, level {prepared.level}"]
    for ev in out["events"]:
        rnd, seat, kind, a, b, c, d = (int(x) for x in ev)
        if kind == E.E_TURN:
            lines.append(f"round {rnd + 1}, {who(seat)} on {_CIRCLES[d]} space {c}: cash {a:,}, total wealth {b:,}")
        elif kind == E.E_MISSED:
            lines.append("   misses this turn")
        elif kind == E.E_DEAL:
            lines.append(f"   buys a {names[b]} from {who(a)} for {c:,}")
        elif kind == E.E_REFUSED:
            lines.append(f"   offers {who(a)} {c:,} for a {names[b]}: refused")
        elif kind == E.E_RAID:
            lines.append(f"   buys {who(a)}'s At Risk {names[b]} for {c:,}; the owner repays {d:,} to the bank")
        elif kind == E.E_REDEEM:
            lines.append(f"   redeems an At Risk {names[a]} for {b:,}")
        elif kind == E.E_SELL:
            lines.append(f"   sells a set of {b} {names[a]} to the bank for {c:,}")
        elif kind == E.E_LOAN:
            lines.append(f"   takes an At Risk loan of {b:,} on a {names[a]} ({_BORROW_FOR[c]})")
        elif kind == E.E_ENTER:
            lines.append("   announces and enters the inner circle")
        elif kind == E.E_ROLL:
            how = "moves (Command card)" if d else f"rolls {a}"
            lines.append(f"   {how} to {_CIRCLES[c]} space {b}")
        elif kind == E.E_CARD:
            lines.append(f"   turns a {names[a]} (face {b:,})")
        elif kind == E.E_BUY:
            lines.append(f"   buys it for {b:,}")
        elif kind == E.E_CHARGE:
            lines.append(f"   declines: Handlers Charge {b:,}, the card goes to the bottom of its pack")
        elif kind == E.E_EMPTY_PACK:
            lines.append(f"   the {COLOURS[a]} pack is empty: nothing happens (K6)")
        elif kind == E.E_BONUS:
            lines.append(f"   blue space: bonus {a:,} and a Command card")
        elif kind == E.E_YELLOW_COMMAND:
            lines.append("   takes a Command card instead of a yellow card")
        elif kind == E.E_COMMAND:
            value = f" {COLOURS[b]}" if COMMAND_KINDS[a] == "free_card" else (f" {b:,}" if b else "")
            lines.append(f"   Command card: {COMMAND_KINDS[a]}{value}")
        elif kind == E.E_PAY:
            lines.append(f"   pays {a:,} to " + (who(b) if b >= 0 else "the bank" if b == -1 else "each other player"))
        elif kind == E.E_FREE_CARD:
            lines.append(f"   takes a free {names[a]}")
        elif kind == E.E_DISCARD:
            lines.append(f"   discards a {names[a]} (face {b:,}) to the bottom of its pack")
        elif kind == E.E_BANK_BUYS:
            lines.append(f"   the bank buys a {names[a]} for {b:,}")
        elif kind == E.E_FORFEIT:
            lines.append(f"   forfeits an At Risk {names[a]}")
        elif kind == E.E_BANKRUPT:
            lines.append("   BANKRUPT: its cards go to the bottom of their packs")
        elif kind == E.E_ILLEGAL:
            lines.append(f"   (an illegal answer to '{DECISION_NAMES[a]}' was refused)")
        elif kind == E.E_END and seat == E.LAST_ONES_OUT:
            lines.append("== Game over: the last players went bankrupt in the same turn and share the win")
        elif kind == E.E_END:
            why = ("reaches the level's target", "is the last player left", "is the richest at the turn limit")[a]
            lines.append(f"== Game over: {who(seat) if seat >= 0 else 'the richest'} {why}")
    lines += ["", "== Final"]
    for p in range(prepared.n_players):
        mark = "  WINNER" if out["winner"][0, p] else ""
        state = "bankrupt" if out["bankrupt"][0, p] else f"wealth {out['wealth'][0, p]:,}, cash {out['cash'][0, p]:,}"
        lines.append(f"   {label[p]}: {state}{mark}")
    if out["events_lost"]:
        lines.append(f"   ({out['events_lost']} events beyond the log's capacity were not recorded)")
    return "\n".join(lines)
