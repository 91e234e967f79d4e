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
from simkit.catalogue import ParamOrder
from simkit.games.dweebies.table import (
    EMPTY,
    axis_end,
    collect_gain,
    collection_size,
    count_groups,
    gain,
    joins_table,
    legal_cells_into,
    line_ends,
    one_group,
    play_card,
    qualifies,
    run_from,
    touches_card,
)
from simkit.games.dweebies.view import (
    COLLECT_MAY,
    PUB_BOTTOM,
    PUB_CARDS,
    PUB_COLLECT,
    PUB_DWEEBIES,
    PUB_LEFT,
    PUB_LEGAL,
    PUB_MIN_LINE,
    PUB_ON_TABLE,
    PUB_PLAYERS,
    PUB_RIGHT,
    PUB_SEAT,
    PUB_SIDE,
    PUB_SPLIT,
    PUB_SPLIT_RULE,
    PUB_TOP,
    SPLIT_SHORTEST_LINK,
    collected_by,
    collected_copies,
    copies_of,
    deal_unseen,
    hand_size_of,
    move_cell,
    move_collects,
    move_dweebie,
    next_seat,
    next_to_play,
    pack_move,
    random_move,
    unseen,
    unseen_total,
)
from simkit.strategy import Param, Strategy, preset, register

from .dweebies_value import expert_policy_move, value_workspace

# the scorer's parameter vector, in order (_PARAMS below declares each one)
SCORER_ORDER = ParamOrder("defend expected shorten keep_pairs")
P_DEFEND, P_EXPECTED, P_SHORTEN, P_KEEP_PAIRS = SCORER_ORDER.indices()
TOP = 6  # best opponent replies kept: a move changes at most five cells' prospects (its own and four line ends)

# memory layout (scratch, rewritten every decision)
M_WEIGHT = 0        # per Dweebie: how much an opponent's collection with it counts
M_THREAT = 64       # per legal cell: the most the next player could collect there now
M_CHANGED = 500     # _threat_after_collecting: the window cells a collection changes
CHANGED_ROOM = 460
M_KINDS = 960       # the Dweebies in hand, ascending (at most game.hand_size <= 20; the legal cells of a connected
                    # table, at most 2 x 216 + 2, end before it)
M_TOP = 1000        # indices of the TOP best cells in M_THREAT


@njit(cache=True, _nrt=False)
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


@njit(cache=True, _nrt=False)
def _reply(ends, memory, min_line):
    """The next player's best weighted collection at a cell whose lines end as ``ends``."""
    best = 0.0
    if ends[1] != EMPTY:
        best = memory[M_WEIGHT + ends[1]] * gain(ends, ends[1], min_line)
    if ends[3] != EMPTY:
        best = max(best, memory[M_WEIGHT + ends[3]] * gain(ends, ends[3], min_line))
    return best


@njit(cache=True, _nrt=False)
def _threat_at_end(outward_open, ends, cards, far, along_rows, memory, min_line):
    """The reply at a line end changed by a placement (``ends``: its line_ends before the move; its other
    axis is untouched by the move): along the changed axis the cell ends the new line of ``cards`` cards
    ending in ``far`` if the cell beyond it is empty (``outward_open``), else it lies in a line's middle."""
    here, far_here = (cards, far) if outward_open else (0, EMPTY)
    if along_rows:
        return _reply((here, far_here, ends[2], ends[3]), memory, min_line)
    return _reply((ends[0], ends[1], here, far_here), memory, min_line)


@njit(cache=True)
def _threat_after_collecting(table, public, legal, cell, dweebie, memory):
    """The next player's best reply after this seat places ``dweebie`` on ``cell`` and collects: the lines
    are taken off a copy of the table's occupied window (the table shown is read-only; the placed card
    leaves with them). A table left split offers no reply (nobody collects until it is joined; a one-card
    link that joins and collects at once is not looked for).

    Only the cells the collection changes are looked at again: the emptied ones and, from each of them and
    from ``cell``, the first empty cell beyond the cards in each direction (the only cells whose lines or
    neighbours change). Every other cell a reply may use is a legal cell of the table as it is (on a
    connected table every empty cell next to a card is legal), whose reply memory[M_THREAT + i] holds."""
    side = public[PUB_SIDE]
    min_line = public[PUB_MIN_LINE]
    n_legal = public[PUB_LEGAL]
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
    memory[M_CHANGED] = here
    emptied = 1
    for cards, far, step in ((row, row_end, 1), (column, column_end, width)):
        if qualifies(cards, far, dweebie, min_line):
            if window[here + step] == EMPTY:
                step = -step
            for k in range(1, cards + 1):
                window[here + k * step] = EMPTY
                if emptied < CHANGED_ROOM:
                    memory[M_CHANGED + emptied] = here + k * step
                emptied += 1
    if not one_group(window, width, 1, height - 2, 1, width - 2, -1):
        return 0.0
    best = 0.0
    if 5 * emptied > CHANGED_ROOM:   # too long a collection to list what it changes: every cell looked at
        for r in range(1, height - 1):
            for x in range(r * width + 1, r * width + width - 1):
                if window[x] == EMPTY and touches_card(window, width, x):
                    best = max(best, _reply(line_ends(window, width, x), memory, min_line))
        return best
    changed = emptied
    for j in range(emptied):
        x = int(memory[M_CHANGED + j])
        for step in (1, -1, width, -width):
            y = x + step
            while window[y] != EMPTY:
                y += step
            memory[M_CHANGED + changed] = y
            changed += 1
    for j in range(changed):
        x = int(memory[M_CHANGED + j])
        r, c = x // width, x % width
        if 1 <= r <= height - 2 and 1 <= c <= width - 2 and window[x] == EMPTY and touches_card(window, width, x):
            best = max(best, _reply(line_ends(window, width, x), memory, min_line))
    for i in range(n_legal):
        x = (legal[i] // side - top) * width + legal[i] % side - left
        unchanged = True
        for j in range(changed):
            if memory[M_CHANGED + j] == x:
                unchanged = False
                break
        if unchanged:
            best = max(best, memory[M_THREAT + i])
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
    kinds = 0
    for d in range(dweebies):
        if hand[d] > 0:
            memory[M_KINDS + kinds] = d
            kinds += 1
    best_score = -1e18
    best_move = -1
    ties = 0
    for i in range(n_legal):
        x = legal[i]
        left, end_left = run_from(table, x, -1)
        right, end_right = run_from(table, x, 1)
        up, end_up = run_from(table, x, -side)
        down, end_down = run_from(table, x, side)
        row, row_end = axis_end(left, end_left, right, end_right)      # line_ends(table, side, x) from the runs
        column, column_end = axis_end(up, end_up, down, end_down)
        longest = max(left + right + 1, up + down + 1)
        edges = (x - left - 1, x + right + 1, x - (up + 1) * side, x + (down + 1) * side)
        unchanged = 0.0
        left_open = right_open = up_open = down_open = False
        ends_left = ends_right = ends_up = ends_down = (0, EMPTY, 0, EMPTY)
        if defend != 0.0:
            # what each of the four line ends offers beside its changed axis does not depend on the card
            left_open, ends_left = table[edges[0] - 1] == EMPTY, line_ends(table, side, edges[0])
            right_open, ends_right = table[edges[1] + 1] == EMPTY, line_ends(table, side, edges[1])
            up_open, ends_up = table[edges[2] - side] == EMPTY, line_ends(table, side, edges[2])
            down_open, ends_down = table[edges[3] + side] == EMPTY, line_ends(table, side, edges[3])
            for t in range(TOP):
                j = int(memory[M_TOP + t])
                if j < 0:
                    break
                c = legal[j]
                if c != x and c != edges[0] and c != edges[1] and c != edges[2] and c != edges[3]:
                    unchanged = memory[M_THREAT + j]
                    break
        for k in range(kinds):
            d = int(memory[M_KINDS + k])
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
                        _threat_at_end(left_open, ends_left, span, far_right, True, memory, min_line),
                        _threat_at_end(right_open, ends_right, span, far_left, True, memory, min_line),
                        _threat_at_end(up_open, ends_up, height, far_down, False, memory, min_line),
                        _threat_at_end(down_open, ends_down, height, far_up, False, memory, min_line))
            score = kept
            move = pack_move(d, x)
            if got > 0:
                score = float(got)
                if defend != 0.0:
                    score -= defend * _threat_after_collecting(table, public, legal, x, d, memory)
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


@njit(cache=True, _nrt=False)
def random_place(hand, public, table, legal, params, memory, rng_state):
    """D8: uniform over the distinct (Dweebie in hand, legal cell) pairs."""
    return random_move(hand, legal, public[PUB_LEGAL], rng_state)


_PARAMS = SCORER_ORDER.declare({
    "defend": Param(0.0, 0.0, 5.0, doc="weight of the next player's best reply (cards it could collect after this "
                                       "move) subtracted from the move's score"),
    "expected": Param(0, kind="bool", doc="weigh each reply by the chance the next player holds that Dweebie "
                                          "(0: assume it holds any card this seat has not seen)"),
    "shorten": Param(0.0, 0.0, 5.0, doc="penalty per card of the longest line a move leaves when it collects "
                                        "nothing"),
    "keep_pairs": Param(0.0, -10.0, 10.0, doc="penalty, in cards, for playing one of two or more copies of a "
                                              "Dweebie without collecting (below 0: a bonus, playing a copy before "
                                              "a single)"),
})

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
# found by experiments/dweebies-tuned.toml (its fifth search, the first to reach keep_pairs below 0); docs/tuning.md
# has the searches, the four that found nothing better than greedy-defensive, and the validation
preset(scorer, "tuned", "Greedy-defensive tuned by search (experiments/dweebies-tuned.toml) as a best response to "
                        "greedy, line-shortener and pair-keeper: weighs the next player's reply 1.6 times, by the "
                        "chance it holds the card, and plays one of two copies before a single when it collects "
                        "nothing.", defend=1.639, shorten=0.002076, keep_pairs=-0.8378, expected=1)


# ---- rollout: a search-based player (Monte Carlo over determinisations of the unseen cards) ----

# rollout's parameter vector, in order (_ROLLOUT_PARAMS below declares each one)
ROLLOUT_ORDER = ParamOrder("samples depth policy halving margin")
R_SAMPLES, R_DEPTH, R_POLICY, R_HALVING, R_MARGIN = ROLLOUT_ORDER.indices()
POLICIES = ("random", "greedy")
POLICY_RANDOM, POLICY_GREEDY, POLICY_EXPERT = range(3)   # the last: the expert's play-outs only
MARGINS = ("best", "mean", "total")
MARGIN_BEST, MARGIN_MEAN, MARGIN_TOTAL = range(3)


@njit(cache=True, _nrt=False)
def _margin(scores, me, kind):
    """This seat's cards minus the best other seat's, the others' mean, or all the others' cards together."""
    best, together = -scores.sum(), 0
    for p in range(scores.size):
        if p != me:
            best = max(best, scores[p])
            together += scores[p]
    if kind == MARGIN_BEST:
        return float(scores[me] - best)
    if kind == MARGIN_MEAN:
        return scores[me] - together / max(1, scores.size - 1)
    return float(scores[me] - together)


@njit(cache=True, _nrt=False)
def _best_take(ends, hand, min_line):
    """The most a seat holding ``hand`` collects with one card at a cell whose lines end as ``ends`` (connected table)."""
    best = 0
    if ends[1] != EMPTY and hand[ends[1]] > 0:
        best = gain(ends, ends[1], min_line)
    if ends[3] != EMPTY and hand[ends[3]] > 0:
        best = max(best, gain(ends, ends[3], min_line))
    return best


@njit(cache=True)
def _greedy_move(grid, side, hand, legal, n_legal, split, min_line, rng_state):
    """The continuations' fast default policy: the largest collection now (ties at random), else a random move
    (D8). On a split table a card collects only if it joins the table (D5)."""
    best, move, ties = 0, -1, 0
    for i in range(n_legal):
        x = legal[i]
        ends = line_ends(grid, side, x)
        for axis in range(2):
            far = ends[1] if axis == 0 else ends[3]
            if far == EMPTY or hand[far] == 0 or (axis == 1 and far == ends[1]):
                continue
            got = gain(ends, far, min_line)
            if got > 0 and split and not joins_table(grid, side, x, 1, side - 2, 1, side - 2):
                got = 0
            if got > best:
                best, move, ties = got, pack_move(far, x), 1
            elif got == best and got > 0:
                ties += 1
                if rng.below(rng_state, ties) == 0:
                    move = pack_move(far, x)
    if move < 0:
        return random_move(hand, legal, n_legal, rng_state)
    return move


@njit(cache=True)
def table_window(table, public, legal, margin):
    """The table as a small square writable window: every card, ``margin`` empty cells around them (a look-ahead
    must not grow past them, and line walks, link searches and reconnection checks stop in the last ring).
    Returns (grid, cells holding cards, Dweebies on it, how many cards, its side, the shown table's row and
    column at the window's cell (margin, margin)): shown cell r * side + c is window cell
    (r - top + margin) * span + c - left + margin."""
    side, dweebies, cards = public[PUB_SIDE], public[PUB_DWEEBIES], public[PUB_CARDS]
    if public[PUB_ON_TABLE] > 0:
        top, bottom, left, right = public[PUB_TOP], public[PUB_BOTTOM], public[PUB_LEFT], public[PUB_RIGHT]
    else:
        top = bottom = legal[0] // side
        left = right = legal[0] % side
    span = max(bottom - top, right - left) + 1 + 2 * margin
    grid = np.full(span * span, EMPTY, np.int64)
    cells = np.empty(cards, np.int64)
    on_table = np.zeros(dweebies, np.int64)
    n = 0
    for r in range(top, bottom + 1):
        for c in range(left, right + 1):
            dweebie = table[r * side + c]
            if dweebie != EMPTY:
                x = (r - top + margin) * span + c - left + margin
                grid[x] = dweebie
                cells[n] = x
                on_table[dweebie] += 1
                n += 1
    return grid, cells, on_table, n, span, top, left


@njit(cache=True)
def playout_scratch(size, cards, players, dweebies):
    """The working arrays of a play-out on a window of ``size`` cells (rollout's and expert's): (grid, cells,
    on_table, taken, label, mark, link_scratch, stack, removed, moves, dealt, hands, pile, sizes, scores,
    sample_rng, roll_rng). ``label`` starts at -1 and ``mark`` and ``taken`` at 0, as the table's group and
    legal-cell searches and ``play_card`` expect; the rest is written before it is read."""
    return (np.empty(size, np.int64), np.empty(cards, np.int64), np.empty(dweebies, np.int64),
            np.zeros(dweebies, np.int64), np.full(size, -1, np.int64), np.zeros(size, np.int64),
            np.empty(4 * size, np.int64), np.empty(cards, np.int64), np.empty(cards, np.int64),
            np.empty(4 * cards + 4, np.int64), np.empty((players, dweebies), np.int64),
            np.empty((players, dweebies), np.int64), np.empty(cards, np.int64), np.empty(players, np.int64),
            np.empty(players, np.int64), np.empty(4, np.uint64), np.empty(4, np.uint64))


@njit(cache=True, inline="always")
def play_out_turn(grid, span, cells, n_on, on_table, taken, label, stack, removed, split, move, min_line, actor,
                  scores, hands, sizes, pile, drawn, n_pile):
    """One turn of a play-out (rollout's and expert's): ``actor`` plays ``move`` by the engine's rule
    (``play_card``), scores its collection and draws the next card of the determinised ``pile`` if any is
    left. Returns (cards on the table, groups they form, cards drawn so far)."""
    dweebie = move_dweebie(move)
    n_on, groups, row_taken, column_taken, _, _ = play_card(
        grid, span, cells, n_on, on_table, taken, label, stack, split, dweebie, move_cell(move), removed, min_line,
        move_collects(move))
    scores[actor] += collection_size(row_taken, column_taken)
    hands[actor, dweebie] -= 1
    sizes[actor] -= 1
    if drawn < n_pile:
        hands[actor, pile[drawn]] += 1
        sizes[actor] += 1
        drawn += 1
    return n_on, groups, drawn


@njit(cache=True)
def play_out(ws, base_grid, base_cells, base_on_table, base_taken, n_base, base_split, base_sizes, base_scores, n_pile,
             sample_rng, span, me, move, depth, policy, min_line, shortest_link, stamp, copies, value_params, value_ws):
    """One play-out of ``move`` by seat ``me`` from the window position ``base_*`` (rollout's and expert's): the
    move, then ``depth`` more turns in which every seat plays ``policy`` (random, greedy, or the expert's one-ply
    choice from ``value_params``, working in ``value_ws``), on the determinisation in ``ws`` (the dealt hands and
    pile of ``playout_scratch``) with the random numbers ``sample_rng``. Leaves the cards each seat holds at the
    end in ``ws``'s scores and the window as it was; returns the stamp of the last legal-cell search."""
    (grid, cells, on_table, taken, label, mark, link_scratch, stack, removed, moves, dealt, hands, pile, sizes,
     scores, _, roll_rng) = ws
    grid[:] = base_grid
    cells[:n_base] = base_cells[:n_base]
    on_table[:] = base_on_table
    taken[:] = base_taken
    hands[:, :] = dealt
    sizes[:] = base_sizes
    scores[:] = base_scores
    roll_rng[:] = sample_rng
    n_on, split, groups = n_base, base_split, 1
    if split:
        groups = count_groups(grid, span, cells, n_on, label, stack)
    drawn = 0
    actor = me
    for ply in range(depth + 1):
        if ply > 0:
            actor = next_to_play(sizes, actor)
            if actor < 0:
                break
            stamp += 1
            n_moves, _ = legal_cells_into(grid, span, cells, n_on, label, groups, split, shortest_link, mark, stamp,
                                          moves, link_scratch)
            if policy == POLICY_GREEDY:
                move = _greedy_move(grid, span, hands[actor], moves, n_moves, split, min_line, roll_rng)
            elif policy == POLICY_EXPERT:
                move = expert_policy_move(grid, span, cells, n_on, split, moves, n_moves, hands, sizes, actor, copies,
                                          on_table, taken, min_line, value_params, value_ws, roll_rng)
            else:
                move = random_move(hands[actor], moves, n_moves, roll_rng)
        n_on, groups, drawn = play_out_turn(grid, span, cells, n_on, on_table, taken, label, stack, removed, split,
                                            move, min_line, actor, scores, hands, sizes, pile, drawn, n_pile)
        split = groups > 1
        actor = (actor + 1) % sizes.size
    grid[:] = base_grid
    return stamp


@njit(cache=True)
def rollout_margins(hand, public, table, legal, params, rng_state, incremental=True):
    """The rollout family's search (see ``rollout_place``): (candidate moves, each one's summed margin, the
    candidates still in the race, how many). ``incremental=False`` plays every continuation out in full;
    with True a one-turn greedy continuation of a card that collects nothing is scored from the next seat's
    best take at the few cells the card changes, which gives the same margins (a test checks it) at a
    fraction of the cost."""
    n_legal = public[PUB_LEGAL]
    players, dweebies, me = public[PUB_PLAYERS], public[PUB_DWEEBIES], public[PUB_SEAT]
    side, min_line = public[PUB_SIDE], public[PUB_MIN_LINE]
    may_decline = public[PUB_COLLECT] == COLLECT_MAY
    shortest_link = public[PUB_SPLIT_RULE] == SPLIT_SHORTEST_LINK
    samples, depth, policy = int(params[R_SAMPLES]), int(params[R_DEPTH]), int(params[R_POLICY])
    halving = params[R_HALVING] != 0.0
    versus = int(params[R_MARGIN])

    # candidates: the distinct (Dweebie, cell) pairs, and under game.collect = "may" each collection declined
    n_kinds = 0
    for d in range(dweebies):
        n_kinds += hand[d] > 0
    candidates = np.empty(2 * n_kinds * n_legal, np.int64)
    n_candidates = 0
    for i in range(n_legal):
        for d in range(dweebies):
            if hand[d] > 0:
                candidates[n_candidates] = pack_move(d, legal[i])
                n_candidates += 1
                if may_decline and public[PUB_ON_TABLE] > 0 and collect_gain(table, side, legal[i], d, min_line) > 0:
                    candidates[n_candidates] = pack_move(d, legal[i], False)
                    n_candidates += 1
    candidates = candidates[:n_candidates]
    total = np.zeros(n_candidates)
    alive = np.arange(n_candidates)
    n_alive = n_candidates
    if n_candidates <= 1:
        return candidates, total, alive, n_alive

    # the table as a small square window, with room for the continuations
    margin = depth + 3
    base_grid, base_cells, base_on_table, n_base, span, top, left = table_window(table, public, legal, margin)
    size = span * span
    cards = public[PUB_CARDS]
    base_split = public[PUB_SPLIT] != 0
    local_cells = np.empty(n_candidates, np.int64)
    for i in range(n_candidates):
        x = move_cell(candidates[i])
        local_cells[i] = (x // side - top + margin) * span + x % side - left + margin
    local_legal = np.empty(n_legal, np.int64)
    legal_ends = np.empty((n_legal, 4), np.int64)
    for i in range(n_legal):
        x = (legal[i] // side - top + margin) * span + legal[i] % side - left + margin
        local_legal[i] = x
        legal_ends[i, 0], legal_ends[i, 1], legal_ends[i, 2], legal_ends[i, 3] = line_ends(base_grid, span, x)
    # the one-turn greedy continuation, scored incrementally on a connected, non-empty table: a card that
    # stays changes only its own cell and the four ends of its row and column lines, whose new line ends do
    # not depend on the determinisation
    quick = incremental and depth == 1 and policy == POLICY_GREEDY and not base_split and n_base > 0
    stays = np.zeros(n_candidates, np.bool_)
    edges = np.empty((n_candidates, 4), np.int64)
    edge_ends = np.empty((n_candidates, 4, 4), np.int64)
    if quick:
        for i in range(n_candidates):
            x, dweebie = local_cells[i], move_dweebie(candidates[i])
            if move_collects(candidates[i]) and collect_gain(base_grid, span, x, dweebie, min_line) > 0:
                continue
            stays[i] = True
            edges[i, 0] = x - (run_from(base_grid, x, -1)[0] + 1)
            edges[i, 1] = x + run_from(base_grid, x, 1)[0] + 1
            edges[i, 2] = x - (run_from(base_grid, x, -span)[0] + 1) * span
            edges[i, 3] = x + (run_from(base_grid, x, span)[0] + 1) * span
            base_grid[x] = dweebie
            for e in range(4):
                ends = line_ends(base_grid, span, edges[i, e])
                for f in range(4):
                    edge_ends[i, e, f] = ends[f]
            base_grid[x] = EMPTY

    ws = playout_scratch(size, cards, players, dweebies)
    dealt, pile, sizes, scores, sample_rng = ws[10], ws[12], ws[13], ws[14], ws[15]
    value_ws = value_workspace(1, 1, dweebies)   # the expert policy's; rollout's policies never touch it
    base_sizes = np.empty(players, np.int64)
    base_scores = np.empty(players, np.int64)
    for p in range(players):
        base_scores[p] = collected_by(public, p)
    copies = np.empty(dweebies, np.int64)
    base_taken = np.empty(dweebies, np.int64)
    for d in range(dweebies):
        copies[d] = copies_of(public, d)
        base_taken[d] = collected_copies(public, d)
    top_value = np.empty(TOP, np.int64)   # the next seat's best takes on the table as it is, best first
    top_cell = np.empty(TOP, np.int64)
    stamp = 0

    while True:
        for _ in range(samples):
            n_pile = deal_unseen(hand, public, rng_state, dealt, pile)
            for p in range(players):
                base_sizes[p] = dealt[p].sum()
            for w in range(4):
                sample_rng[w] = rng.next_u64(rng_state)
            sizes[:] = base_sizes
            sizes[me] += -1 if n_pile == 0 else 0
            replier = next_to_play(sizes, (me + 1) % players)
            fast = quick and replier >= 0 and replier != me
            if fast:
                top_value[:] = -1
                for j in range(n_legal):
                    value = _best_take((legal_ends[j, 0], legal_ends[j, 1], legal_ends[j, 2], legal_ends[j, 3]), dealt[replier],
                                       min_line)
                    for t in range(TOP):   # insert into the descending list of the best few
                        if value > top_value[t]:
                            top_value[t + 1:] = top_value[t:TOP - 1].copy()
                            top_cell[t + 1:] = top_cell[t:TOP - 1].copy()
                            top_value[t], top_cell[t] = value, local_legal[j]
                            break
            for a in range(n_alive):
                i = alive[a]
                x, dweebie, collects = local_cells[i], move_dweebie(candidates[i]), move_collects(candidates[i])
                if fast and stays[i]:
                    reply = 0
                    for t in range(TOP):
                        y = top_cell[t]
                        if top_value[t] >= 0 and y != x and y != edges[i, 0] and y != edges[i, 1] \
                                and y != edges[i, 2] and y != edges[i, 3]:
                            reply = top_value[t]
                            break
                    for e in range(4):
                        reply = max(reply, _best_take((edge_ends[i, e, 0], edge_ends[i, e, 1], edge_ends[i, e, 2],
                                                       edge_ends[i, e, 3]), dealt[replier], min_line))
                    scores[:] = base_scores
                    scores[replier] += reply
                    total[i] += _margin(scores, me, versus)
                    continue
                stamp = play_out(ws, base_grid, base_cells, base_on_table, base_taken, n_base, base_split, base_sizes,
                                 base_scores, n_pile, sample_rng, span, me, pack_move(dweebie, x, collects), depth,
                                 policy, min_line, shortest_link, stamp, copies, params, value_ws)
                total[i] += _margin(scores, me, versus)
        if not halving or n_alive <= 2:
            break
        # sequential halving: keep the better half (every survivor has met the same determinisations, so the
        # sums compare); shuffled first so that ties at the cut fall at random
        rng.shuffle(rng_state, alive[:n_alive])
        order = np.argsort(-total[alive[:n_alive]], kind="mergesort")
        kept = alive[:n_alive][order[:(n_alive + 1) // 2]].copy()
        n_alive = kept.size
        alive[:n_alive] = kept
    return candidates, total, alive, n_alive


@njit(cache=True)
def rollout_place(hand, public, table, legal, params, memory, rng_state):
    """The rollout family's choice. For each of ``samples`` determinisations of the unseen cards (the deck's
    makeup minus what this seat has seen, dealt as the other hands and the pile: ``view.deal_unseen``) every
    candidate move is played on a copy of the table, then ``depth`` more turns with every seat playing the
    default ``policy``; the move with the best mean ``margin`` (this seat's cards collected minus the others'
    together, their mean or the best of them, at the end of the continuation) is played, ties at random. Every candidate meets the same
    determinisations and random numbers (common random numbers), so their margins differ only by what
    the moves change. The rules are the engine's own (``table.legal_cells``, ``play_card``, ``next_to_play``).
    With ``halving`` the worse half of the candidates is dropped after each round of ``samples``."""
    candidates, total, alive, n_alive = rollout_margins(hand, public, table, legal, params, rng_state)
    best, choice, ties = -1e18, 0, 0
    for a in range(n_alive):
        i = alive[a]
        if total[i] > best:
            best, choice, ties = total[i], i, 1
        elif total[i] == best:
            ties += 1
            if rng.below(rng_state, ties) == 0:
                choice = i
    return candidates[choice]


_ROLLOUT_PARAMS = ROLLOUT_ORDER.declare({
    "samples": Param(32, 1, 512, kind="int", doc="k: determinisations of the unseen cards; every candidate move is "
                                                 "played out once on each (with halving: per round)"),
    "depth": Param(1, 0, 60, kind="int", doc="turns played after the candidate move in each continuation, every "
                                             "seat in turn (0: the move's own collection only; 1: the next seat's "
                                             "reply)"),
    "policy": Param(POLICY_GREEDY, kind="choice", choices=POLICIES,
                    doc="default policy of every seat in the continuations: random legal moves (D8), or greedy "
                        "(the largest collection now, otherwise random)"),
    "halving": Param(0, kind="bool", doc="sequential halving: after each round of `samples` determinisations drop "
                                         "the worse half of the candidates, until two are left (0: every candidate "
                                         "gets `samples`)"),
    "margin": Param(MARGIN_TOTAL, kind="choice", choices=MARGINS,
                    doc="what a continuation scores: this seat's cards minus the best other seat's, minus the "
                        "others' mean, or minus all the others' cards together (with two players all the same)"),
})

rollout = register(Strategy.build(
    "dweebies", "rollout", place=rollout_place, params=_ROLLOUT_PARAMS, quick={"samples": 2},
    doc="Search: plays every candidate move on `samples` determinisations of the unseen cards, then `depth` more "
        "turns of the default policy for every seat; plays the move with the best mean margin (own cards "
        "collected minus the others', as margin says)."))

register(Strategy.build("dweebies", "random", place=random_place,
                        doc="D8 baseline: uniform over the distinct (Dweebie in hand, legal cell) pairs."))
