"""Readable move-by-move text of one recorded Wheedle game."""
from __future__ import annotations

from . import engine
from .rules import R_FALSE_STOP, R_FALSE_STOP_ENDS_ROUND, R_FALSE_STOPPER_CARDS_SCORED, R_STOP_BONUS
from .view import FALSE_STOP, GOOD_STOP, NO_STOP, OFFER, STOP, SWAP, cards_scored


def _cards(names, k, company):
    return f"{k} {names[company]}" if k > 0 else "nothing"


def _company(names, c):
    c = int(c)
    return names[c] if 0 <= c < len(names) else f"company {c} (no such company)"


def _refused(names, kind, give, k, want, m) -> str:
    """What a refused action tried, in words (E_ILLEGAL logs the action's kind and its four answer entries)."""
    if kind == OFFER:   # a count of 0 leaves its company entry unused
        def part(count, company):
            return f"{int(count)} {_company(names, company)}" if count else "nothing"
        return f"offer of {part(k, give)} for {part(m, want)}"
    if kind == SWAP:
        return f"swap of 1 {_company(names, give)} with the centre"
    if kind == STOP:
        return "stop"
    return f"action of unknown kind {int(kind)}"


def _hand(names, row):
    parts = [f"{row[c]} {names[c]}" for c in range(len(names)) if row[c]]
    return ", ".join(parts) if parts else "(empty)"


def _score_entries(prepared, hand, centre, seat, stopper, stopped_good, w4_false_stops) -> list[str]:
    """A seat's round score as its own entries: cards (or W8's nothing), the stop bonus or penalty, W4 penalties."""
    v = prepared.vector
    part = NO_STOP if seat != stopper else GOOD_STOP if stopped_good else FALSE_STOP
    stop = {NO_STOP: 0, GOOD_STOP: int(v[R_STOP_BONUS]), FALSE_STOP: int(v[R_FALSE_STOP])}[part]
    cards = int(engine.seat_round_points(hand, centre, prepared.counts, v, part)) - stop
    if cards_scored(part, v[R_FALSE_STOPPER_CARDS_SCORED]):
        entries = [f"cards {cards:+d}"]
    else:
        entries = ["cards earn nothing (W8)"] + ([f"bankrupt cards {cards:+d}"] if cards else [])
    if part != NO_STOP:
        entries.append(f"stop bonus {stop:+d}" if stopped_good else f"false stop {stop:+d}")
    if w4_false_stops:
        entries.append(f"false stop during the round (W4) {w4_false_stops * int(v[R_FALSE_STOP]):+d}")
    return entries


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
        w4_false_stops = [0] * n
        stopped_good = False
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
                stopped_good = True
                lines.append(f"{tick} {label[who]} STOPS showing majorities")
            elif kind == engine.E_FALSE_STOP:
                text = f"{tick} {label[who]} STOPS without majorities (false stop)"
                if not prepared.vector[R_FALSE_STOP_ENDS_ROUND]:
                    w4_false_stops[who] += 1
                    text += f": {int(prepared.vector[R_FALSE_STOP]):+d} now, trading goes on (W4)"
                lines.append(text)
            elif kind == engine.E_ILLEGAL:  # EV_GIVE holds the kind tried, the next four its answer entries
                tried = _refused(names, give, k, want, m, other)
                lines.append(f"{tick} {label[who]} tried an illegal {tried}; refused, played as a pass")
            elif kind == engine.E_STALEMATE:  # logged after the last tick, with the round's tick count
                lines.append(f"   nobody stopped within {int(ev[engine.EV_TICK])} ticks: stalemate (W5)")
        stopper = out["round_stopper"][0, rnd]
        lines.append(f"   end of round {rnd + 1}: centre {names[trace[rnd, 1, n, 0]]} goes bankrupt; "
                     f"{out['round_ticks'][0, rnd]} ticks" + ("" if stopper >= 0 else ", stalemate"))
        centre = int(trace[rnd, 1, n, 0])
        for p in range(n):
            entries = _score_entries(prepared, trace[rnd, 1, p], centre, p, stopper, stopped_good, w4_false_stops[p])
            lines.append(f"   {label[p]}: {_hand(names, trace[rnd, 1, p])} -> {', '.join(entries)} = "
                         f"{out['round_points'][0, p, rnd]:+d} points")
    lines += ["", "== Final scores"]
    for p in range(n):
        mark = "  WINNER" if out["winner"][0, p] else ""
        lines.append(f"   {label[p]}: {out['points'][0, p]} points{mark}")
    if out["events_lost"]:
        lines.append(f"   ({out['events_lost']} events beyond the log's capacity were not recorded)")
    return "\n".join(lines)
