"""Readable move-by-move text of one recorded Wheedle game."""
from __future__ import annotations

from . import engine
from .view import OFFER, STOP, SWAP


def _cards(names, k, company):
    return f"{k} {names[company]}" if k > 0 else "nothing"


def _hand(names, row):
    parts = [f"{row[c]} {names[c]}" for c in range(len(names)) if row[c]]
    return ", ".join(parts) if parts else "(empty)"


def format_replay(prepared, seats, seed, game, out) -> str:
    names = prepared.companies
    n = prepared.n_players
    label = [f"seat {p} ({seat.label})" for p, seat in enumerate(seats)]
    trace = out["trace"][0]
    lines = [f"Wheedle, game {game} of seed {seed}, {n} players" +
             ("" if prepared.official else " (house rule: outside the official 4-6 players)")]
    events = out["events"]
    e = 0
    for rnd in range(prepared.rounds):
        dealer = rnd % n
        lines += ["", f"== Round {rnd + 1}: {label[dealer]} deals; centre card {names[trace[rnd, 0, n, 0]]}"]
        lines += [f"   {label[p]}: {_hand(names, trace[rnd, 0, p])}" for p in range(n)]
        while e < len(events) and events[e, engine.EV_ROUND] == rnd:
            ev = events[e]
            e += 1
            kind, who = ev[engine.EV_KIND], ev[engine.EV_SEAT]
            tick = f"  t{ev[engine.EV_TICK]:>4}"
            give, k = ev[engine.EV_GIVE], ev[engine.EV_GIVE_COUNT]
            want, m = ev[engine.EV_WANT], ev[engine.EV_WANT_COUNT]
            other = ev[engine.EV_OTHER]
            if kind == engine.E_PASS:
                lines.append(f"{tick} {label[who]} passes")
            elif kind in (engine.E_OFFER_TAKEN, engine.E_OFFER_UNTAKEN):
                if m == 0:
                    text = f"{tick} {label[who]} offers {_cards(names, k, give)} as a gift"
                elif k == 0:
                    text = f"{tick} {label[who]} asks for {_cards(names, m, want)} for nothing"
                else:
                    text = f"{tick} {label[who]} offers {_cards(names, k, give)} for {_cards(names, m, want)}"
                text += f" -> taken by {label[other]}" if kind == engine.E_OFFER_TAKEN else " -> no taker"
                lines.append(text)
            elif kind == engine.E_SWAP:
                lines.append(f"{tick} {label[who]} swaps 1 {names[give]} for the centre's {names[want]}")
            elif kind == engine.E_GOOD_STOP:
                lines.append(f"{tick} {label[who]} STOPS showing majorities")
            elif kind == engine.E_FALSE_STOP:
                lines.append(f"{tick} {label[who]} STOPS without majorities (false stop)")
            elif kind == engine.E_ILLEGAL:
                tried = {OFFER: "offer", SWAP: "swap", STOP: "stop"}.get(int(give), f"action of kind {give}")
                lines.append(f"{tick} {label[who]} tried an illegal {tried} {list(ev[engine.EV_GIVE_COUNT:])}; "
                             "played as a pass")
            elif kind == engine.E_STALEMATE:
                lines.append(f"{tick} nobody stopped: stalemate (W5)")
        stopper = out["round_stopper"][0, rnd]
        lines.append(f"   end of round {rnd + 1}: centre {names[trace[rnd, 1, n, 0]]} goes bankrupt; "
                     f"{out['round_ticks'][0, rnd]} ticks" + ("" if stopper >= 0 else ", stalemate"))
        for p in range(n):
            lines.append(f"   {label[p]}: {_hand(names, trace[rnd, 1, p])} -> {out['round_points'][0, p, rnd]:+d} points")
    lines += ["", "== Final scores"]
    for p in range(n):
        mark = "  WINNER" if out["winner"][0, p] else ""
        lines.append(f"   {label[p]}: {out['points'][0, p]} points{mark}")
    if out["events_lost"]:
        lines.append(f"   ({out['events_lost']} events beyond the log's capacity were not recorded)")
    return "\n".join(lines)
