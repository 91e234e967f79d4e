"""Dweebies ``expert``: expectation over the unseen cards for the next seats, then play-outs where a decision
is close.

Every (Dweebie, cell) move is valued one ply deep by ``expert_scores``: the cards it collects now, minus the
following seats' expected best collections (each seat holds a Dweebie with the hypergeometric chance
``hold_chance`` over the cards this seat has not seen), plus this seat's own best follow-up. When the best few
moves lie within ``gap`` cards of each other they are played out on determinisations of the unseen cards
with the rollout family's machinery (strategies/dweebies.py), and the best mean margin is played.
"""
import numpy as np
from numba import njit

from simkit import rng
from simkit.games.dweebies.table import (
    EMPTY,
    axis_end,
    count_groups,
    gain,
    legal_cells_into,
    line_ends,
    play_card,
    run_from,
)
from simkit.games.dweebies.view import (
    COLLECT_MAY,
    PUB_CARDS,
    PUB_COLLECT,
    PUB_DWEEBIES,
    PUB_LEGAL,
    PUB_MIN_LINE,
    PUB_PLAYERS,
    PUB_SEAT,
    PUB_SIDE,
    PUB_SPLIT,
    PUB_SPLIT_RULE,
    SPLIT_SHORTEST_LINK,
    collected_by,
    collected_copies,
    copies_of,
    deal_unseen,
    hand_size_of,
    move_cell,
    move_collects,
    move_dweebie,
    next_to_play,
    pack_move,
    unseen,
    unseen_total,
)
from simkit.strategy import Param, Strategy, register

from .dweebies import MARGIN_TOTAL, _greedy_move, _margin, play_out_turn, playout_scratch, table_window

(X_DEFEND, X_LATER, X_FOLLOW, X_PAIRS, X_CANDIDATES, X_SAMPLES, X_DEPTH, X_GAP, X_POLICY) = range(9)
EXPERT_POLICIES = ("greedy", "expert")
EXPERT_POLICY_GREEDY, EXPERT_POLICY_EXPERT = range(2)
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
                  moves, scores):
    """The expert's one-ply value of every candidate move on a window ``grid`` (side ``span``) holding
    ``cells[:n_on]``: cards collected now - defend x the following seats' expected best collections (the next
    seat's, and `later` times less for each seat after it) + follow x this seat's best follow-up (the largest
    collection it would then hold a card for, weighed by the chance nobody before it holds one) + pairs when a
    card that collects nothing is one of two or more copies held. ``chance[k, d]``: the chance that the k-th
    following seat holds Dweebie d (``hold_chance``). The table is left as it was. Writes local moves
    (pack_move on the window's cells; under game.collect = "may" a collection declined is a move of its own)
    and values; returns how many."""
    dweebies = hand.size
    size = span * span
    cards = cells.size
    defend, follow_weight, pairs = params[X_DEFEND], params[X_FOLLOW], params[X_PAIRS]
    weight = np.empty(OPPONENTS_MAX)
    w = 1.0
    for k in range(n_opp):
        weight[k] = w
        w *= params[X_LATER]
    room = 2 * (4 * cards + 4)
    a_cell, a_dweebie, a_gain = np.empty(room, np.int64), np.empty(room, np.int64), np.empty(room, np.int64)
    b_cell, b_dweebie, b_gain = np.empty(room, np.int64), np.empty(room, np.int64), np.empty(room, np.int64)
    mark = np.zeros(size, np.int64)
    seen = np.zeros(dweebies, np.int64)
    skip = np.empty(5, np.int64)
    left_chance, expected = np.empty(OPPONENTS_MAX), np.empty(OPPONENTS_MAX)
    stamp = 1
    n_a = 0
    if not split and n_on > 0:
        n_a = _scan_entries(grid, span, cells, n_on, mark, stamp, min_line, a_cell, a_dweebie, a_gain)
        _sort_entries(a_cell, a_dweebie, a_gain, n_a)
    scratch = np.empty(size, np.int64)
    scratch_cells = np.empty(cards, np.int64)
    on_table = np.zeros(dweebies, np.int64)
    taken = np.zeros(dweebies, np.int64)
    label = np.full(size, -1, np.int64)
    stack = np.empty(cards, np.int64)
    removed = np.empty(cards, np.int64)
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
                    taken_here = row_taken + column_taken
                    value = float(taken_here + 1) if taken_here > 0 else 0.0
                    if groups <= 1 and n_after > 0:
                        stamp += 1
                        n_b = _scan_entries(scratch, span, scratch_cells, n_after, mark, stamp, min_line,
                                            b_cell, b_dweebie, b_gain)
                        _sort_entries(b_cell, b_dweebie, b_gain, n_b)
                        stamp += 1
                        threat, follow = _outlook(a_cell, a_dweebie, a_gain, 0, skip, 0, b_cell, b_dweebie, b_gain,
                                                  n_b, chance, weight, n_opp, hand, d, seen, stamp, left_chance, expected)
                        value += follow_weight * follow - defend * threat
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
    return count


@njit(cache=True, _nrt=False)
def _fill_chances(unseen_copies, pool, sizes, actor, chance):
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
def _best_of(scores, n, rng_state):
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
def _expert_policy(grid, span, cells, n_on, split, moves, n_moves, hands, sizes, actor, copies, on_table, taken,
                   min_line, params, chance, unseen_copies, out_moves, out_scores, rng_state):
    """The expert's one-ply choice for ``actor`` inside a play-out, from what that seat would see there."""
    pool = 0
    for d in range(copies.size):
        unseen_copies[d] = max(0, copies[d] - on_table[d] - taken[d] - hands[actor, d])
        pool += unseen_copies[d]
    n_opp = _fill_chances(unseen_copies, pool, sizes, actor, chance)
    n = expert_scores(grid, span, cells, n_on, split, moves, n_moves, hands[actor], chance, n_opp, min_line, False,
                      params, out_moves, out_scores)
    return out_moves[_best_of(out_scores, n, rng_state)]


@njit(cache=True)
def expert_place(hand, public, table, legal, params, memory, rng_state):
    """The expert's choice: every move valued by ``expert_scores`` from the chances the following seats hold
    each Dweebie (the deck's makeup less what this seat has seen); when the best few lie within ``gap`` of the
    best, they are played out on ``samples`` determinisations of the unseen cards (``view.deal_unseen``) for
    ``depth`` more turns, every seat playing ``policy``, and the one with the best mean margin (own cards
    collected minus the others' together; common random numbers across candidates) is played."""
    n_legal = public[PUB_LEGAL]
    players, dweebies, me = public[PUB_PLAYERS], public[PUB_DWEEBIES], public[PUB_SEAT]
    side, min_line = public[PUB_SIDE], public[PUB_MIN_LINE]
    may_decline = public[PUB_COLLECT] == COLLECT_MAY
    shortest_link = public[PUB_SPLIT_RULE] == SPLIT_SHORTEST_LINK
    samples, depth = int(params[X_SAMPLES]), int(params[X_DEPTH])
    n_search = int(params[X_CANDIDATES])
    # the window: every card, the cells the move and `depth` more turns can fill, the line ends beyond them that
    # expert_scores looks at, and an empty ring that line walks stop in
    margin = (depth + 1 if samples > 0 else 0) + 3
    base_grid, base_cells, base_on_table, n_base, span, top, left = table_window(table, public, legal, margin)
    size = span * span
    cards = public[PUB_CARDS]
    local_legal = np.empty(n_legal, np.int64)
    for i in range(n_legal):
        local_legal[i] = (legal[i] // side - top + margin) * span + legal[i] % side - left + margin
    split = public[PUB_SPLIT] != 0

    unseen_copies = np.empty(dweebies, np.int64)
    for d in range(dweebies):
        unseen_copies[d] = max(0, unseen(hand, public, d))
    sizes = np.empty(players, np.int64)
    for p in range(players):
        sizes[p] = hand_size_of(public, p)
    chance = np.zeros((OPPONENTS_MAX, dweebies))
    n_opp = _fill_chances(unseen_copies, unseen_total(hand, public), sizes, me, chance)
    room = 2 * dweebies * n_legal
    moves = np.empty(room, np.int64)
    scores = np.empty(room)
    n = expert_scores(base_grid, span, base_cells, n_base, split, local_legal, n_legal, hand, chance, n_opp,
                      min_line, may_decline, params, moves, scores)
    choice = _best_of(scores, n, rng_state)

    if samples > 0 and n_search >= 2 and n >= 2:
        # the candidates worth a search: the best few within `gap` of the best
        order = np.argsort(-scores[:n], kind="mergesort")
        n_cand = 0
        while n_cand < min(n_search, n) and scores[order[n_cand]] >= scores[choice] - params[X_GAP]:
            n_cand += 1
        if n_cand >= 2:
            candidates = np.empty(n_cand, np.int64)
            candidates[0] = choice
            k = 1
            for j in range(n):
                if k == n_cand:
                    break
                if order[j] != choice:
                    candidates[k] = order[j]
                    k += 1
            total = np.zeros(n_cand)
            policy = int(params[X_POLICY])
            (grid, cells, on_table, taken, label, mark, link_scratch, stack, removed, ply_moves, dealt, hands, pile,
             play_sizes, scores_now, sample_rng, roll_rng) = playout_scratch(size, cards, players, dweebies)
            copies = np.empty(dweebies, np.int64)
            base_taken = np.empty(dweebies, np.int64)
            for d in range(dweebies):
                copies[d] = copies_of(public, d)
                base_taken[d] = collected_copies(public, d)
            policy_chance = np.zeros((OPPONENTS_MAX, dweebies))
            policy_unseen = np.empty(dweebies, np.int64)
            policy_moves = np.empty(2 * dweebies * (4 * cards + 4), np.int64)
            policy_scores = np.empty(2 * dweebies * (4 * cards + 4))
            stamp = 0
            for _ in range(samples):
                n_pile = deal_unseen(hand, public, rng_state, dealt, pile)
                for w in range(4):
                    sample_rng[w] = rng.next_u64(rng_state)
                for a in range(n_cand):
                    move = moves[candidates[a]]
                    grid[:] = base_grid
                    cells[:n_base] = base_cells[:n_base]
                    on_table[:] = base_on_table
                    taken[:] = base_taken
                    hands[:, :] = dealt
                    for p in range(players):
                        play_sizes[p] = dealt[p].sum()
                        scores_now[p] = collected_by(public, p)
                    roll_rng[:] = sample_rng
                    n_on, now_split, groups = n_base, split, 1
                    if now_split:
                        groups = count_groups(grid, span, cells, n_on, label, stack)
                    drawn = 0
                    actor = me
                    for ply in range(depth + 1):
                        if ply > 0:
                            actor = next_to_play(play_sizes, actor)
                            if actor < 0:
                                break
                            stamp += 1
                            n_moves, _ = legal_cells_into(grid, span, cells, n_on, label, groups, now_split,
                                                          shortest_link, mark, stamp, ply_moves, link_scratch)
                            if policy == EXPERT_POLICY_EXPERT:
                                move = _expert_policy(grid, span, cells, n_on, now_split, ply_moves, n_moves, hands,
                                                      play_sizes, actor, copies, on_table, taken, min_line, params,
                                                      policy_chance, policy_unseen, policy_moves, policy_scores,
                                                      roll_rng)
                            else:
                                move = _greedy_move(grid, span, hands[actor], ply_moves, n_moves, now_split, min_line,
                                                    roll_rng)
                        n_on, groups, drawn = play_out_turn(grid, span, cells, n_on, on_table, taken, label, stack,
                                                            removed, now_split, move, min_line, actor, scores_now,
                                                            hands, play_sizes, pile, drawn, n_pile)
                        now_split = groups > 1
                        actor = (actor + 1) % players
                    total[a] += _margin(scores_now, me, MARGIN_TOTAL)
            choice = candidates[_best_of(total, n_cand, rng_state)]
    move = moves[choice]
    x = move_cell(move)
    cell = (x // span + top - margin) * side + x % span + left - margin
    return pack_move(move_dweebie(move), cell, move_collects(move))


_EXPERT_PARAMS = {
    "defend": Param(1.5, 0.0, 5.0, doc="weight of the following seats' expected best collections (from the chance "
                                       "each holds each Dweebie) subtracted from a move's value"),
    "later": Param(0.5, 0.0, 1.0, doc="weight of each further seat's expected collection relative to the one before "
                                      "it (0: only the next seat)"),
    "follow": Param(0.5, 0.0, 3.0, doc="weight of this seat's best follow-up (the largest collection it then holds "
                                       "a card for, times the chance no following seat holds one)"),
    "pairs": Param(0.8, -5.0, 5.0, doc="bonus, in cards, for playing one of two or more copies held when the card "
                                       "collects nothing"),
    "candidates": Param(4, 0, 16, kind="int", doc="most moves played out in a search (below 2: no search)"),
    "samples": Param(0, 0, 256, kind="int", doc="determinisations of the unseen cards each searched move is played "
                                                "out on (0, the default: no search; the play-outs measured no "
                                                "stronger at 8 and cost 4-5 times as much)"),
    "depth": Param(4, 1, 30, kind="int", doc="turns played after the move in each play-out"),
    "gap": Param(1.0, 0.0, 20.0, doc="search only the moves whose one-ply value lies within gap cards of the best"),
    "policy": Param(EXPERT_POLICY_GREEDY, kind="choice", choices=EXPERT_POLICIES,
                    doc="what every seat plays in the play-outs: greedy (the largest collection now, else random) or "
                        "the expert's own one-ply choice"),
}

expert = register(Strategy.build(
    "dweebies", "expert", place=expert_place, params=_EXPERT_PARAMS,
    doc="Values every move by the cards it collects, the following seats' expected best collections (hypergeometric "
        "chances over the unseen cards) and its own follow-up; with samples > 0 it plays out the closest few on "
        "determinisations of the unseen cards."))
