"""Readable move-by-move text of one recorded Dweebies game, with the table drawn after every move.

The table is rebuilt from the engine's own records (placements and the runs it collected), so the text
shows what the engine did; a reader checks each collection and reconnection against the rules.
"""
from __future__ import annotations

from collections import Counter

from . import engine
from .table import grid_side

E = engine


def _draw(table: dict, side: int, placed: int | None, marked=()) -> list[str]:
    """The table's bounding box as text: a letter per card, [X] the card just placed, * a legal link cell."""
    shown = set(table) | set(marked)
    if not shown:
        return ["      (table empty)"]
    rows = [cell // side for cell in shown]
    cols = [cell % side for cell in shown]
    lines = []
    for r in range(min(rows), max(rows) + 1):
        text = []
        for c in range(min(cols), max(cols) + 1):
            cell = r * side + c
            if cell == placed:
                text.append(f"[{table[cell]}]")
            elif cell in table:
                text.append(f" {table[cell]} ")
            elif cell in marked:
                text.append(" * ")
            else:
                text.append(" . ")
        lines.append("      " + "".join(text).rstrip())
    return lines


def _where(side: int, cell: int) -> str:
    """A cell as row and column from the centre (where the first card goes); a cell off the grid by its number."""
    if not 0 <= cell < side * side:
        return f"cell {cell} (off the table)"
    return f"row {cell // side - side // 2:+d}, column {cell % side - side // 2:+d}"


def _hand(names: str, hand: Counter) -> str:
    return " ".join(names[d] * hand[d] for d in sorted(hand) if hand[d]) or "(empty)"


def _collection(taken: list, end: str) -> str:
    """One turn's collection: a line, or a row and a column sharing the placed card (D4: counted once)."""
    if len(taken) == 1:
        (axis, cards), = taken
        return f"   collects a {axis} of {len(cards.split())}: {cards} (both ends {end})"
    (axis_a, cards_a), (axis_b, cards_b) = taken
    size_a, size_b = len(cards_a.split()), len(cards_b.split())
    return (f"   collects a {axis_a} of {size_a} ({cards_a}) and a {axis_b} of {size_b} ({cards_b}): "
            f"{size_a + size_b - 1} cards, the placed {end} counted once")


def format_replay(prepared, seats, seed, game, out) -> str:
    names = prepared.names
    n = prepared.n_players
    side = grid_side(int(prepared.copies.sum()))
    label = [f"seat {p} ({seat.label})" for p, seat in enumerate(seats)]
    deck = ", ".join(f"{names[d]} x{k}" for d, k in enumerate(prepared.copies))
    split_rule = ("a split table is joined by a shortest link" if prepared.split_rule == "shortest_link"
                  else "any cell next to a card while the table is split")
    lines = [f"Dweebies, game {game} of seed {seed}, {n} players, hands of {prepared.hand_size}",
             f"Deck ({int(prepared.copies.sum())} cards): {deck}",
             f"Rules (D9): lines of {prepared.min_line} or more cards collect (game.min_line), collecting is "
             f"{'compulsory' if prepared.collect == 'must' else 'optional'} (game.collect), {split_rule} "
             "(game.split_rule)",
             "Table: a letter per Dweebie, [X] the card just placed"
             + (", * the cells a split table allows next (D5)." if prepared.split_rule == "shortest_link" else ".")]
    hands = [Counter() for _ in range(n)]
    table: dict[int, str] = {}
    events = out["events"]
    turns = sorted(set(int(t) for t in events[:, E.EV_TURN]))
    for turn in turns:
        placed = None
        links = []
        taken = []   # (row or column, cards) of each line this turn's card collects
        for ev in events[events[:, E.EV_TURN] == turn]:
            kind, seat, d, cell = int(ev[E.EV_KIND]), int(ev[E.EV_SEAT]), int(ev[E.EV_DWEEBIE]), int(ev[E.EV_CELL])
            a, b = int(ev[E.EV_A]), int(ev[E.EV_B])
            if kind == E.E_DEAL:
                hands[seat][d] += 1
            elif kind == E.E_LINK_CELL:
                if not links:
                    lines.append(f"   the table is in {b} groups: the shortest link needs {a} card(s), so the "
                                 "next card goes on a * cell (D5, D6)")
                links.append(cell)
            elif kind == E.E_STILL_SPLIT:
                lines.append(f"   the table is in {b} groups: nobody collects until it is one group again; the next "
                             "card may go on any cell next to a card (game.split_rule = \"free\")")
            elif kind == E.E_ILLEGAL:
                shown = names[d] if 0 <= d < len(names) else f"#{d}"
                declining = " declining to collect under game.collect = \"must\"" if a else ""
                lines.append(f"   {label[seat]} tried an illegal move ({shown} at {_where(side, cell)}{declining}); "
                             "the engine plays a random legal move instead (D8)")
            elif kind == E.E_PLACE:
                if links:
                    lines.extend(_draw(table, side, None, links))
                lines.append(f"turn {turn + 1}: {label[seat]} holds {_hand(names, hands[seat])}, places {names[d]} "
                             f"at {_where(side, cell)}" + ((" on the link" if prepared.split_rule ==
                                                                     "shortest_link" else " on the split table")
                                                                    if b else "")
                             + f" ({a} legal cell(s))")
                hands[seat][d] -= 1
                table[cell] = names[d]
                placed = cell
            elif kind == E.E_RECONNECT:
                lines.append("   the table is one group again, so the card may collect")
            elif kind == E.E_COLLECT:
                step = (a - cell) // (b - 1)
                run = [cell + k * step for k in range(b)]
                taken.append(("row" if abs(step) == 1 else "column", " ".join(table[x] for x in run)))
                for x in run[1:]:
                    del table[x]
                if len(taken) == 1:   # a second line of the same card follows at once (D4)
                    lines.append("")
                lines[-1] = _collection(taken, table[cell])
            elif kind == E.E_DECLINE:
                lines.append(f"   could collect {a} cards but declines (game.collect = \"may\")")
            elif kind == E.E_SPLIT:
                lines.append(f"   the collection splits the table into {a} groups")
            elif kind == E.E_EMPTIED:
                lines.append("   the table is empty; the next card starts it in the centre")
            elif kind == E.E_DRAW:
                hands[seat][d] += 1
                lines.append(f"   draws {names[d]}")
        if placed is None:
            continue
        collected = any(ev[E.EV_KIND] == E.E_COLLECT for ev in events[events[:, E.EV_TURN] == turn])
        if collected:  # the placed card leaves with its lines (D4: once)
            del table[placed]
        lines.extend(_draw(table, side, None if collected else placed))
    lines += ["", "== Final"]
    stats = out["stats"][0]
    for p in range(n):
        mark = "  WINNER" if out["winner"][0, p] else ""
        lines.append(f"   {label[p]}: collected {stats[p, E.S_COLLECTED]} cards in {stats[p, E.S_COLLECTIONS]} "
                     f"collection(s){mark}")
    lines.append(f"   {out['game'][0, E.G_LEFT]} card(s) left on the table; {out['game'][0, E.G_SPLITS]} split(s)")
    if out["events_lost"]:
        lines.append(f"   ({out['events_lost']} events beyond the log's capacity were not recorded)")
    return "\n".join(lines)
