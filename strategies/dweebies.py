"""Shipped Dweebies strategies (the families of docs/rules/dweebies.md, "Strategies").

``scorer`` is one parametrised family: every legal (Dweebie, cell) pair gets

    score = cards collected now (D9: lines of at least game.min_line cards; on a split table only if
                           the card joins it into one group)
            - defend     x the most the next player could then collect (one ply, D7: over the cards
                           this seat has not seen; weighted by the chance they hold one if ``expected``)
            - shorten    x the longest line the card leaves, when it collects nothing
            - keep_pairs   when it plays one of two or more copies held without collecting

and the best pair is played (ties at random). Under game.collect = "may" a pair that would collect is
also scored as placed without collecting (no cards now, the lines it leaves, the reply it offers), and
the collection is declined when that scores strictly higher; greedy therefore always collects.
Its presets are greedy, greedy-defensive, line-shortener and pair-keeper. ``random`` is the D8
baseline (it never declines).
"""
import numpy as np
from numba import njit

from simkit import rng
from simkit.games.dweebies.table import (EMPTY, gain, joins_table, line_ends, one_group, qualifies, run_from,
                                         touches_card)
from simkit.games.dweebies.view import (COLLECT_MAY, PUB_BOTTOM, PUB_COLLECT, PUB_DWEEBIES, PUB_LEFT, PUB_LEGAL,
                                        PUB_MIN_LINE, PUB_ON_TABLE, PUB_RIGHT, PUB_SEAT, PUB_SIDE, PUB_SPLIT,
                                        PUB_TOP, hand_size_of, next_seat, pack_move, random_move, unseen,
                                        unseen_total)
from simkit.strategy import Param, Strategy, preset, register

P_DEFEND, P_EXPECTED, P_SHORTEN, P_KEEP_PAIRS = range(4)
TOP = 6  # best opponent replies kept: a move changes at most five cells' prospects (its own and four line ends)

# memory layout (scratch, rewritten every decision)
M_WEIGHT = 0        # per Dweebie: how much an opponent's collection with it counts
M_THREAT = 64       # per legal cell: the most the next player could collect there now
M_TOP = 1000        # indices of the TOP best cells in M_THREAT


@njit(cache=True)
def _weights(hand, public, params, memory):
    """memory[M_WEIGHT + d]: 1 for a Dweebie the next player may hold (worst case), or the chance they hold one."""
    dweebies = public[PUB_DWEEBIES]
    opponent = next_seat(public)
    pool = unseen_total(hand, public)
    held = hand_size_of(public, opponent) if opponent >= 0 else 0
    for d in range(dweebies):
        left = unseen(hand, public, d)
        if left <= 0 or held == 0:
            memory[M_WEIGHT + d] = 0.0
        elif params[P_EXPECTED] == 0.0:
            memory[M_WEIGHT + d] = 1.0
        else:  # 1 - C(pool - left, held) / C(pool, held)
            none = 1.0
            for i in range(held):
                none *= max(0.0, (pool - left - i) / (pool - i))
            memory[M_WEIGHT + d] = 1.0 - none


@njit(cache=True)
def _reply(ends, memory, min_line):
    """The next player's best weighted collection at a cell whose lines end as ``ends``."""
    best = 0.0
    if ends[1] != EMPTY:
        best = memory[M_WEIGHT + ends[1]] * gain(ends, ends[1], min_line)
    if ends[3] != EMPTY:
        best = max(best, memory[M_WEIGHT + ends[3]] * gain(ends, ends[3], min_line))
    return best


@njit(cache=True)
def _end_after(table, cell, outward, cards, far):
    """Row or column prospects at ``cell``, the empty end beyond a line of ``cards`` cards ending in ``far``:
    (cards, far) if the cell ends that line, (0, EMPTY) if a card lies beyond it too (a middle)."""
    if table[cell + outward] != EMPTY:
        return 0, EMPTY
    return cards, far


@njit(cache=True)
def _threat_at_end(table, side, cell, outward, cards, far, along_rows, memory, min_line):
    """The reply at a line end changed by a placement; its other axis is untouched by the move."""
    here, far_here = _end_after(table, cell, outward, cards, far)
    row, row_end, column, column_end = line_ends(table, side, cell)
    if along_rows:
        return _reply((here, far_here, column, column_end), memory, min_line)
    return _reply((row, row_end, here, far_here), memory, min_line)


@njit(cache=True)
def _threat_after_collecting(table, public, cell, dweebie, memory):
    """The next player's best reply after this seat places ``dweebie`` on ``cell`` and collects: the lines
    are taken off a copy of the table's occupied window (the table shown is read-only; the placed card
    leaves with them). A table left split offers no reply (nobody collects until it is joined; a one-card
    link that joins and collects at once is not looked for)."""
    side = public[PUB_SIDE]
    min_line = public[PUB_MIN_LINE]
    if public[PUB_ON_TABLE] == 0:
        return 0.0
    row, row_end, column, column_end = line_ends(table, side, cell)
    # the window: every card, a ring of the empty cells a reply may use, and a ring the line scans stop in
    top, left = public[PUB_TOP] - 2, public[PUB_LEFT] - 2
    height, width = public[PUB_BOTTOM] + 3 - top, public[PUB_RIGHT] + 3 - left
    window = np.empty(height * width, np.int64)
    for r in range(height):
        for c in range(width):
            window[r * width + c] = table[(top + r) * side + left + c]
    here = (cell // side - top) * width + cell % side - left
    for cards, far, step in ((row, row_end, 1), (column, column_end, width)):
        if qualifies(cards, far, dweebie, min_line):
            if window[here + step] == EMPTY:
                step = -step
            for k in range(1, cards + 1):
                window[here + k * step] = EMPTY
    best = 0.0
    if one_group(window, width, 1, height - 2, 1, width - 2, -1):
        for r in range(1, height - 1):
            for x in range(r * width + 1, r * width + width - 1):
                if window[x] == EMPTY and touches_card(window, width, x):
                    best = max(best, _reply(line_ends(window, width, x), memory, min_line))
    return best


@njit(cache=True)
def score_moves(hand, public, table, legal, params, memory, rng_state):
    """The scorer family's choice (see the module doc)."""
    side = public[PUB_SIDE]
    n_legal = public[PUB_LEGAL]
    dweebies = public[PUB_DWEEBIES]
    min_line = public[PUB_MIN_LINE]
    may_decline = public[PUB_COLLECT] == COLLECT_MAY
    split = public[PUB_SPLIT] != 0
    # rows and columns that hold every card and every legal cell (for the reconnection test of a split table)
    top, bottom = public[PUB_TOP] - 1, public[PUB_BOTTOM] + 1
    left_col, right_col = public[PUB_LEFT] - 1, public[PUB_RIGHT] + 1
    defend = params[P_DEFEND]
    if defend != 0.0 and (split or next_seat(public) in (-1, public[PUB_SEAT])):
        defend = 0.0  # nobody collects on a split table before it is joined; no opponent left to defend against
    if defend != 0.0:
        _weights(hand, public, params, memory)
        for t in range(TOP):
            memory[M_TOP + t] = -1
        for i in range(n_legal):
            threat = _reply(line_ends(table, side, legal[i]), memory, min_line)
            memory[M_THREAT + i] = threat
            for t in range(TOP):  # insert into the descending list of the best few
                j = int(memory[M_TOP + t])
                if j < 0 or threat > memory[M_THREAT + j]:
                    for u in range(TOP - 1, t, -1):
                        memory[M_TOP + u] = memory[M_TOP + u - 1]
                    memory[M_TOP + t] = i
                    break
    best_score = -1e18
    best_move = -1
    ties = 0
    for i in range(n_legal):
        x = legal[i]
        left, end_left = run_from(table, x, -1)
        right, end_right = run_from(table, x, 1)
        up, end_up = run_from(table, x, -side)
        down, end_down = run_from(table, x, side)
        row, row_end, column, column_end = line_ends(table, side, x)
        longest = max(left + right + 1, up + down + 1)
        edges = (x - left - 1, x + right + 1, x - (up + 1) * side, x + (down + 1) * side)
        unchanged = 0.0
        if defend != 0.0:
            for t in range(TOP):
                j = int(memory[M_TOP + t])
                if j < 0:
                    break
                c = legal[j]
                if c != x and c != edges[0] and c != edges[1] and c != edges[2] and c != edges[3]:
                    unchanged = memory[M_THREAT + j]
                    break
        for d in range(dweebies):
            if hand[d] == 0:
                continue
            got = gain((row, row_end, column, column_end), d, min_line)
            if got > 0 and split and not joins_table(table, side, x, top, bottom, left_col, right_col):
                got = 0   # a card that leaves the table split collects nothing (D5)
            # the card left on the table (no collection, or one declined): the lines it leaves, the reply
            kept = 0.0
            if got == 0 or may_decline:
                kept = -params[P_SHORTEN] * longest
                if hand[d] >= 2:
                    kept -= params[P_KEEP_PAIRS]
                if defend != 0.0:
                    span = left + right + 1
                    height = up + down + 1
                    # the far end of a line through the new card: the run beyond it, or the card itself
                    far_left, far_right = end_left if left > 0 else d, end_right if right > 0 else d
                    far_up, far_down = end_up if up > 0 else d, end_down if down > 0 else d
                    kept -= defend * max(
                        unchanged,
                        _threat_at_end(table, side, edges[0], -1, span, far_right, True, memory, min_line),
                        _threat_at_end(table, side, edges[1], 1, span, far_left, True, memory, min_line),
                        _threat_at_end(table, side, edges[2], -side, height, far_down, False, memory, min_line),
                        _threat_at_end(table, side, edges[3], side, height, far_up, False, memory, min_line))
            score = kept
            move = pack_move(d, x)
            if got > 0:
                score = float(got)
                if defend != 0.0:
                    score -= defend * _threat_after_collecting(table, public, x, d, memory)
                if may_decline and kept > score:   # game.collect = "may": decline only when that is better
                    score = kept
                    move = pack_move(d, x, False)
            if score > best_score:
                best_score = score
                best_move = move
                ties = 1
            elif score == best_score:
                ties += 1
                if rng.below(rng_state, ties) == 0:
                    best_move = move
    return best_move


@njit(cache=True)
def random_place(hand, public, table, legal, params, memory, rng_state):
    """D8: uniform over the distinct (Dweebie in hand, legal cell) pairs."""
    return random_move(hand, legal, public[PUB_LEGAL], rng_state)


_PARAMS = {
    "defend": Param(0.0, 0.0, 5.0, doc="weight of the next player's best reply (cards it could collect after this "
                                       "move) subtracted from the move's score"),
    "expected": Param(0, kind="bool", doc="weigh each reply by the chance the next player holds that Dweebie "
                                          "(0: assume it holds any card this seat has not seen)"),
    "shorten": Param(0.0, 0.0, 5.0, doc="penalty per card of the longest line a move leaves when it collects "
                                        "nothing"),
    "keep_pairs": Param(0.0, 0.0, 10.0, doc="penalty, in cards, for playing one of two or more copies of a Dweebie "
                                            "without collecting"),
}

scorer = register(Strategy.build(
    "dweebies", "scorer", place=score_moves, params=_PARAMS,
    doc="Scores every legal move: cards collected now - defend x the next player's best reply (expected=1: "
        "weighted by the chance they hold the card) - shorten x the longest line left - keep_pairs for "
        "breaking a pair; plays the best, ties at random."))


preset(scorer, "greedy", "Collects the most cards it can now; otherwise any card, ties at random.")
preset(scorer, "greedy-defensive", "Collects the most now minus the most the next player could collect with a card "
                            "it has not seen (one ply, worst case).", defend=1.0)
preset(scorer, "line-shortener", "The published tip: collect when it can, otherwise keep lines short (plays where "
                          "the longest line it leaves is shortest).", shorten=1.0)
preset(scorer, "pair-keeper", "Collects the most now; otherwise plays a single before breaking up two or more copies "
                       "of one Dweebie, keeping pairs to set up and take lines later.", keep_pairs=1.5)
register(Strategy.build("dweebies", "random", place=random_place,
                        doc="D8 baseline: uniform over the distinct (Dweebie in hand, legal cell) pairs."))
