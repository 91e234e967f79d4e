"""The Dweebies expert's one-ply value of a move (``expert_scores``) and its one-ply choice inside a play-out
(``expert_policy_move``): the cards a move collects now, minus the following seats' expected best collections
(each seat holds a Dweebie with the hypergeometric chance ``hold_chance`` over the cards this seat has not
seen), plus this seat's own follow-up. Kept apart from strategies/dweebies_expert.py so that the play-out loop
shared with ``rollout`` (strategies/dweebies.py) can use it as a default policy without an import cycle.

Everything here works in a workspace allocated once per decision (``value_workspace``), so a play-out that
calls the value every turn allocates nothing.
"""
import numpy as np
from numba import njit

from simkit import rng
from simkit.catalogue import ParamOrder
from simkit.games.dweebies.table import (
    EMPTY,
    axis_end,
    collection_size,
    count_groups,
    gain,
    line_ends,
    play_card,
    run_from,
)
from simkit.games.dweebies.view import pack_move

# the expert's parameter vector, in order (dweebies_expert.py's _EXPERT_PARAMS declares each one)
EXPERT_ORDER = ParamOrder("defend later follow pairs candidates samples depth gap policy link endgame end_samples")
(X_DEFEND, X_LATER, X_FOLLOW, X_PAIRS, X_CANDIDATES, X_SAMPLES, X_DEPTH, X_GAP, X_POLICY, X_LINK, X_ENDGAME,
 X_END_SAMPLES) = EXPERT_ORDER.indices()
OPPONENTS_MAX = 8   # seats a look-ahead weighs (MAX_SEATS - 1 and room to spare)


@njit(cache=True, _nrt=False)
def hold_chance(unseen_copies, pool, held):
    """The chance that a hand of ``held`` cards dealt from the ``pool`` cards a seat has not seen holds at
    least one of a Dweebie with ``unseen_copies`` copies among them (hypergeometric: 1 - C(pool - u, held) /
    C(pool, held))."""
    if unseen_copies <= 0 or held <= 0 or pool <= 0:
        return 0.0
    none = 1.0
    for i in range(held):
        none *= max(0.0, (pool - unseen_copies - i) / (pool - i))
    return 1.0 - none


@njit(cache=True)
def value_workspace(size, cards, dweebies):
    """The working arrays of ``expert_scores`` and ``expert_policy_move`` on a window of ``size`` cells for a
    deck of ``cards`` cards: allocated once per decision and reused by every call (the stamp in ``stamp[0]``
    keeps rising, so ``mark`` and ``seen`` never need clearing; ``count_groups`` relabels the cards it is given
    before reading a label, and ``on_table`` and ``taken`` are back at 0 after every ``play_card``)."""
    room = 2 * (4 * cards + 4)
    moves_room = 2 * dweebies * (4 * cards + 4)
    return (np.empty(OPPONENTS_MAX), np.empty(room, np.int64), np.empty(room, np.int64), np.empty(room, np.int64),
            np.empty(room, np.int64), np.empty(room, np.int64), np.empty(room, np.int64), np.zeros(size, np.int64),
            np.zeros(dweebies, np.int64), np.empty(5, np.int64), np.empty(OPPONENTS_MAX), np.empty(OPPONENTS_MAX),
            np.empty(size, np.int64), np.empty(cards, np.int64), np.zeros(dweebies, np.int64),
            np.zeros(dweebies, np.int64), np.full(size, -1, np.int64), np.empty(cards, np.int64),
            np.empty(cards, np.int64), np.zeros(1, np.int64), np.zeros((OPPONENTS_MAX, dweebies)),
            np.empty(dweebies, np.int64), np.empty(moves_room, np.int64), np.empty(moves_room))


@njit(cache=True, _nrt=False)
def _add_entries(grid, span, y, min_line, cell, dweebie, gain_of, n):
    """The collections open at the empty cell ``y`` (one per far-end Dweebie, the best gain each), appended to
    the (cell, dweebie, gain_of) lists from position n; returns the new length."""
    ends = line_ends(grid, span, y)
    for axis in range(2):
        far = ends[1] if axis == 0 else ends[3]
        if far == EMPTY or (axis == 1 and far == ends[1]):
            continue
        g = gain(ends, far, min_line)
        if g > 0:
            cell[n], dweebie[n], gain_of[n] = y, far, g
            n += 1
    return n


@njit(cache=True, _nrt=False)
def _scan_entries(grid, span, cells, n_on, mark, stamp, min_line, cell, dweebie, gain_of):
    """Every collection open on a connected table: for each empty cell next to a card, each far-end Dweebie
    and what a card of it there takes (unsorted); returns how many."""
    n = 0
    for i in range(n_on):
        for step in (1, -1, span, -span):
            y = cells[i] + step
            if grid[y] == EMPTY and mark[y] != stamp:
                mark[y] = stamp
                n = _add_entries(grid, span, y, min_line, cell, dweebie, gain_of, n)
    return n


@njit(cache=True, _nrt=False)
def _scan_joins(grid, span, cells, n_on, label, groups, mark, stamp, min_line, cell, dweebie, gain_of):
    """Every collection a split table of ``groups`` groups (``label``: count_groups' labels of its cards) offers
    whoever joins it: at each empty cell next to a card of every group (only a card that joins the table
    collects, D5), each far-end Dweebie and what a card of it there takes (unsorted); returns how many."""
    n = 0
    if groups > 4:   # no one cell touches five groups
        return 0
    every = (1 << groups) - 1
    for i in range(n_on):
        for step in (1, -1, span, -span):
            y = cells[i] + step
            if grid[y] == EMPTY and mark[y] != stamp:
                mark[y] = stamp
                touched = 0
                for beside in (1, -1, span, -span):
                    if grid[y + beside] != EMPTY:
                        touched |= 1 << label[y + beside]
                if touched == every:
                    n = _add_entries(grid, span, y, min_line, cell, dweebie, gain_of, n)
    return n


@njit(cache=True, _nrt=False)
def _sort_entries(cell, dweebie, gain_of, n):
    """Insertion sort of the first n entries by gain, largest first (the lists are short)."""
    for i in range(1, n):
        c, d, g = cell[i], dweebie[i], gain_of[i]
        j = i - 1
        while j >= 0 and gain_of[j] < g:
            cell[j + 1], dweebie[j + 1], gain_of[j + 1] = cell[j], dweebie[j], gain_of[j]
            j -= 1
        cell[j + 1], dweebie[j + 1], gain_of[j + 1] = c, d, g


@njit(cache=True, _nrt=False)
def _outlook(a_cell, a_dweebie, a_gain, n_a, skip, n_skip, b_cell, b_dweebie, b_gain, n_b, chance, weight, n_opp,
             hand, played, seen, stamp, left, expected):
    """(the following seats' expected best collections, weighted; this seat's best follow-up) from the open
    collections: list a (sorted, cells in ``skip[:n_skip]`` left out) merged with list b (sorted). ``left``
    and ``expected``: working space of OPPONENTS_MAX floats.

    Seat k holds a Dweebie with probability chance[k, d] (independently of the others, an approximation); it
    takes the largest open collection it holds a card for, so its expectation walks the collections from the
    largest, each Dweebie counted at its largest. This seat's follow-up is the largest collection it holds a
    card for (its hand less the one ``played``) times the chance that no following seat holds that Dweebie
    (which would take or spoil it first)."""
    for k in range(n_opp):
        left[k] = 1.0
        expected[k] = 0.0
    follow = 0.0
    i, j = 0, 0
    while True:
        while i < n_a:   # the next collection of list a not left out
            dropped = False
            for s in range(n_skip):
                if a_cell[i] == skip[s]:
                    dropped = True
                    break
            if not dropped:
                break
            i += 1
        if i < n_a and (j >= n_b or a_gain[i] >= b_gain[j]):
            d, g = a_dweebie[i], a_gain[i]
            i += 1
        elif j < n_b:
            d, g = b_dweebie[j], b_gain[j]
            j += 1
        else:
            break
        if hand[d] - (1 if d == played else 0) > 0 and g > follow:
            survive = 1.0
            for k in range(n_opp):
                survive *= 1.0 - chance[k, d]
            follow = max(follow, g * survive)
        if seen[d] == stamp:
            continue
        seen[d] = stamp
        most = 0.0
        for k in range(n_opp):
            expected[k] += g * chance[k, d] * left[k]
            left[k] *= 1.0 - chance[k, d]
            most = max(most, left[k])
        if most < 0.01 and g <= follow:
            break
    threat = 0.0
    for k in range(n_opp):
        threat += weight[k] * expected[k]
    return threat, follow


@njit(cache=True)
def expert_scores(grid, span, cells, n_on, split, legal, n_legal, hand, chance, n_opp, min_line, may_decline, params,
                  moves, scores, ws):
    """The expert's one-ply value of every candidate move on a window ``grid`` (side ``span``) holding
    ``cells[:n_on]``: cards collected now - defend x the following seats' expected best collections (the next
    seat's, and `later` times less for each seat after it) + follow x this seat's best follow-up (the largest
    collection it would then hold a card for, weighed by the chance nobody before it holds one) + pairs when a
    card that collects nothing is one of two or more copies held. ``chance[k, d]``: the chance that the k-th
    following seat holds Dweebie d (``hold_chance``). The table is left as it was. Writes local moves
    (pack_move on the window's cells; under game.collect = "may" a collection declined is a move of its own)
    and values; returns how many. ``ws``: the working arrays of ``value_workspace``."""
    dweebies = hand.size
    defend, follow_weight, pairs = params[X_DEFEND], params[X_FOLLOW], params[X_PAIRS]
    link = params[X_LINK] != 0.0
    (weight, a_cell, a_dweebie, a_gain, b_cell, b_dweebie, b_gain, mark, seen, skip, left_chance, expected, scratch,
     scratch_cells, on_table, taken, label, stack, removed, stamp_box) = ws[:20]
    w = 1.0
    for k in range(n_opp):
        weight[k] = w
        w *= params[X_LATER]
    stamp = stamp_box[0] + 1
    n_a = 0
    if not split and n_on > 0:
        n_a = _scan_entries(grid, span, cells, n_on, mark, stamp, min_line, a_cell, a_dweebie, a_gain)
        _sort_entries(a_cell, a_dweebie, a_gain, n_a)
    count = 0
    for i in range(n_legal):
        x = legal[i]
        left, end_left = run_from(grid, x, -1)
        right, end_right = run_from(grid, x, 1)
        up, end_up = run_from(grid, x, -span)
        down, end_down = run_from(grid, x, span)
        ends = (axis_end(left, end_left, right, end_right) + axis_end(up, end_up, down, end_down))
        edges = (x - left - 1, x + right + 1, x - (up + 1) * span, x + (down + 1) * span)
        for d in range(dweebies):
            if hand[d] == 0:
                continue
            got = gain(ends, d, min_line) if n_on > 0 else 0
            for collect in (True, False):
                if not collect and not (may_decline and got > 0):
                    continue
                value = 0.0
                if split or (collect and got > 0):
                    # the whole table after the move, on a scratch copy
                    scratch[:] = grid
                    scratch_cells[:n_on] = cells[:n_on]
                    n_after, groups, row_taken, column_taken, _, _ = play_card(
                        scratch, span, scratch_cells, n_on, on_table, taken, label, stack, split, d, x, removed,
                        min_line, collect)
                    collected = collection_size(row_taken, column_taken)
                    value = float(collected)
                    joined = groups <= 1 and n_after > 0
                    if joined or (link and groups > 1):
                        stamp += 1
                        if joined:
                            n_b = _scan_entries(scratch, span, scratch_cells, n_after, mark, stamp, min_line,
                                                b_cell, b_dweebie, b_gain)
                        else:
                            # a table left split: only a card that joins it collects, so the threat and the
                            # follow-up are the collections at the cells that join every group
                            count_groups(scratch, span, scratch_cells, n_after, label, stack)
                            n_b = _scan_joins(scratch, span, scratch_cells, n_after, label, groups, mark, stamp,
                                              min_line, b_cell, b_dweebie, b_gain)
                        _sort_entries(b_cell, b_dweebie, b_gain, n_b)
                        stamp += 1
                        threat, follow = _outlook(a_cell, a_dweebie, a_gain, 0, skip, 0, b_cell, b_dweebie, b_gain,
                                                  n_b, chance, weight, n_opp, hand, d, seen, stamp, left_chance, expected)
                        value += follow_weight * follow - defend * threat
                    if link and collected == 0 and hand[d] >= 2:
                        value += pairs
                    for k in range(dweebies):   # play_card's per-Dweebie counts are not read here
                        on_table[k] = 0
                        taken[k] = 0
                else:
                    # a card that stays changes only its own cell and the four ends of its lines
                    grid[x] = d
                    n_b = 0
                    for e in range(4):
                        n_b = _add_entries(grid, span, edges[e], min_line, b_cell, b_dweebie, b_gain, n_b)
                    grid[x] = EMPTY
                    _sort_entries(b_cell, b_dweebie, b_gain, n_b)
                    skip[0] = x
                    for e in range(4):
                        skip[e + 1] = edges[e]
                    stamp += 1
                    threat, follow = _outlook(a_cell, a_dweebie, a_gain, n_a, skip, 5, b_cell, b_dweebie, b_gain,
                                              n_b, chance, weight, n_opp, hand, d, seen, stamp, left_chance, expected)
                    value = follow_weight * follow - defend * threat
                    if hand[d] >= 2:
                        value += pairs
                moves[count] = pack_move(d, x, collect)
                scores[count] = value
                count += 1
    stamp_box[0] = stamp
    return count


@njit(cache=True, _nrt=False)
def fill_chances(unseen_copies, pool, sizes, actor, chance):
    """chance[k, d] for the seats after ``actor`` that still hold cards, in turn order (their hands of
    ``sizes[seat]`` cards drawn from the ``pool`` cards ``actor`` has not seen); returns how many seats."""
    players = sizes.size
    n_opp = 0
    for k in range(1, players):
        seat = (actor + k) % players
        if sizes[seat] == 0 or n_opp == OPPONENTS_MAX:
            continue
        for d in range(unseen_copies.size):
            chance[n_opp, d] = hold_chance(unseen_copies[d], pool, sizes[seat])
        n_opp += 1
    return n_opp


@njit(cache=True)
def best_of(scores, n, rng_state):
    """Index of the largest of scores[:n], ties at random."""
    best, choice, ties = -1e18, 0, 0
    for i in range(n):
        if scores[i] > best:
            best, choice, ties = scores[i], i, 1
        elif scores[i] == best:
            ties += 1
            if rng.below(rng_state, ties) == 0:
                choice = i
    return choice


@njit(cache=True)
def expert_policy_move(grid, span, cells, n_on, split, moves, n_moves, hands, sizes, actor, copies, on_table, taken,
                       min_line, params, ws, rng_state):
    """The expert's one-ply choice for ``actor`` inside a play-out, from what that seat would see there (its hand,
    the table, the cards collected); ``ws``: the working arrays of ``value_workspace``."""
    chance, unseen_copies, out_moves, out_scores = ws[20], ws[21], ws[22], ws[23]
    pool = 0
    for d in range(copies.size):
        unseen_copies[d] = max(0, copies[d] - on_table[d] - taken[d] - hands[actor, d])
        pool += unseen_copies[d]
    n_opp = fill_chances(unseen_copies, pool, sizes, actor, chance)
    n = expert_scores(grid, span, cells, n_on, split, moves, n_moves, hands[actor], chance, n_opp, min_line, False,
                      params, out_moves, out_scores, ws)
    return out_moves[best_of(out_scores, n, rng_state)]
