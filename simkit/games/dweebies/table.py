"""The Dweebies table: lines, collections, groups and the keep-together rule (D3-D6, D9), as
docs/rules/dweebies.md describes them.

The engine and the strategies share this code, so a strategy that looks ahead sees exactly what the
engine will do; functions that depend on a rule option take it as an argument (``min_line``: the fewest
cards a collected line may have, ``game.min_line``). The table is a flat int64 grid of ``side * side`` cells holding a Dweebie number or
EMPTY. Its side is ``2 * cards + 3`` with the first card in the centre: every card is placed next to
another, so none ever lies further than ``cards`` cells from the centre, the border rows and columns
stay empty, and walks along a line stop there without bounds checks.
"""
import numpy as np
from numba import njit

from ... import numba_cache  # noqa: F401  (installs the cache's locators before the kernels below)

EMPTY = -1


@njit(cache=True, _nrt=False)
def grid_side(cards):
    return 2 * cards + 3


@njit(cache=True, _nrt=False)
def run_from(grid, cell, step):
    """The unbroken run of cards starting next to ``cell`` in direction ``step`` (+-1 along a row,
    +-side along a column): (how many cards, the Dweebie at its far end or EMPTY)."""
    count = 0
    end = EMPTY
    x = cell + step
    while grid[x] != EMPTY:
        end = grid[x]
        count += 1
        x += step
    return count, end


@njit(cache=True, _nrt=False)
def axis_end(before, end_before, after, end_after):
    """The line a card would end along one axis (D3) given the runs beside it on that axis (run_from each
    way): (cards beside it, far-end Dweebie); (0, EMPTY) when the cell has no neighbour on that axis or sits
    between two runs (the middle of a line)."""
    if before > 0 and after == 0:
        return before, end_before
    if after > 0 and before == 0:
        return after, end_after
    return 0, EMPTY


@njit(cache=True, _nrt=False)
def _axis_end(grid, cell, step):
    """axis_end of the runs beside ``cell`` along ``step``."""
    before, end_before = run_from(grid, cell, -step)
    after, end_after = run_from(grid, cell, step)
    return axis_end(before, end_before, after, end_after)


@njit(cache=True, _nrt=False)
def line_ends(grid, side, cell):
    """What a card on the empty ``cell`` would end: (row cards, row far end, column cards, column far end)."""
    row, row_end = _axis_end(grid, cell, 1)
    column, column_end = _axis_end(grid, cell, side)
    return row, row_end, column, column_end


@njit(cache=True, _nrt=False)
def qualifies(cards, far, dweebie, min_line):
    """True if a line of ``cards`` cards beside the placed ``dweebie`` (plus the placed card) is collected:
    its far end matches (D3) and the whole line has at least ``min_line`` cards (D9)."""
    return cards > 0 and cards + 1 >= min_line and far == dweebie


@njit(cache=True, _nrt=False, inline="always")
def collection_size(row_taken, column_taken):
    """The cards a placement collects, what a seat scores (D3, D4): the other cards of its collected row and
    column lines and the placed card once; 0 when no line is collected. Engine, view and strategies count so."""
    taken = row_taken + column_taken
    return taken + 1 if taken > 0 else 0


@njit(cache=True, _nrt=False)
def gain(ends, dweebie, min_line):
    """Cards collected by placing ``dweebie`` where ``line_ends`` gave ``ends`` on a connected table
    (collection_size of the lines that qualify; D9: lines of at least ``min_line`` cards)."""
    row, row_end, column, column_end = ends
    return collection_size(row if qualifies(row, row_end, dweebie, min_line) else 0,
                           column if qualifies(column, column_end, dweebie, min_line) else 0)


@njit(cache=True, _nrt=False)
def collect_gain(grid, side, cell, dweebie, min_line):
    """Cards collected by placing ``dweebie`` on the empty ``cell`` of a connected table."""
    return gain(line_ends(grid, side, cell), dweebie, min_line)


@njit(cache=True, _nrt=False)
def count_groups(grid, side, cells, n, label, stack):
    """Label the cards on ``cells[:n]`` by 4-connected group (``label[cell]``); returns the number of groups."""
    for i in range(n):
        label[cells[i]] = -1
    groups = 0
    for i in range(n):
        if label[cells[i]] >= 0:
            continue
        label[cells[i]] = groups
        stack[0] = cells[i]
        top = 1
        while top > 0:
            top -= 1
            x = stack[top]
            for step in (1, -1, side, -side):
                y = x + step
                if grid[y] != EMPTY and label[y] < 0:
                    label[y] = groups
                    stack[top] = y
                    top += 1
        groups += 1
    return groups


@njit(cache=True, _nrt=False)
def adjacent_cells(grid, side, cells, n, mark, stamp, out):
    """Empty cells next to at least one card (the placements of a connected table); returns how many."""
    count = 0
    for i in range(n):
        for step in (1, -1, side, -side):
            y = cells[i] + step
            if grid[y] == EMPTY and mark[y] != stamp:
                mark[y] = stamp
                out[count] = y
                count += 1
    return count


@njit(cache=True, _nrt=False)
def touches_card(grid, side, cell):
    return (grid[cell + 1] != EMPTY or grid[cell - 1] != EMPTY or grid[cell + side] != EMPTY
            or grid[cell - side] != EMPTY)


@njit(cache=True, _nrt=False)
def link_cells_into(grid, side, cells, n, label, groups, mark, stamp, out, scratch):
    """D5, D6: the legal placements of a split table: empty cells next to a card that lie on a shortest
    path of empty cells joining two nearest groups. Writes them to ``out``; returns (how many, link length),
    the link length being the number of cards that path needs. ``scratch``: int64[4 * grid.size], working
    space (so that nothing is allocated)."""
    top, bottom, left, right = side, -1, side, -1
    for i in range(n):
        r, c = cells[i] // side, cells[i] % side
        top, bottom, left, right = min(top, r), max(bottom, r), min(left, c), max(right, c)
    # one ring of empty cells around the cards is enough: a path leaving it can be clamped onto it
    top, bottom, left, right = top - 1, bottom + 1, left - 1, right + 1
    width = right - left + 1
    area = width * (bottom - top + 1)
    far = 4 * area + 4
    # a cell's distance from each group in turn; of them, only the two smallest are kept (first <= second):
    # the shortest path joining any two groups through a cell is the sum of those two
    dist, queue = scratch[:area], scratch[area:2 * area]
    first, second = scratch[2 * area:3 * area], scratch[3 * area:4 * area]
    for local in range(area):
        first[local] = far
        second[local] = far
    for g in range(groups):
        for local in range(area):
            dist[local] = far
        head, tail = 0, 0
        for i in range(n):
            if label[cells[i]] != g:
                continue
            for step in (1, -1, side, -side):
                y = cells[i] + step
                local = (y // side - top) * width + (y % side - left)
                if grid[y] == EMPTY and dist[local] == far:
                    dist[local] = 1
                    queue[tail] = y
                    tail += 1
        while head < tail:
            x = queue[head]
            head += 1
            dx = dist[(x // side - top) * width + (x % side - left)]
            for step in (1, -1, side, -side):
                y = x + step
                r, c = y // side, y % side
                if r < top or r > bottom or c < left or c > right or grid[y] != EMPTY:
                    continue
                local = (r - top) * width + (c - left)
                if dist[local] == far:
                    dist[local] = dx + 1
                    queue[tail] = y
                    tail += 1
        for local in range(area):
            d = dist[local]
            if d < first[local]:
                second[local] = first[local]
                first[local] = d
            elif d < second[local]:
                second[local] = d
    shortest = far
    for local in range(area):
        shortest = min(shortest, first[local] + second[local] - 1)
    count = 0
    for local in range(area):
        cell = (top + local // width) * side + left + local % width
        if grid[cell] != EMPTY or not touches_card(grid, side, cell):
            continue
        if first[local] + second[local] - 1 == shortest and mark[cell] != stamp:
            mark[cell] = stamp
            out[count] = cell
            count += 1
    return count, shortest


@njit(cache=True)
def link_cells(grid, side, cells, n, label, groups, mark, stamp, out):
    """link_cells_into with its working space allocated."""
    return link_cells_into(grid, side, cells, n, label, groups, mark, stamp, out, np.empty(4 * grid.size, np.int64))


@njit(cache=True, _nrt=False)
def legal_cells_into(grid, side, cells, n_on, label, groups, split, shortest_link, mark, stamp, out, scratch):
    """This turn's legal placements, written to ``out`` and marked ``stamp`` in ``mark``: the centre of an
    empty table; on a split table under game.split_rule = "shortest_link" the cells on a shortest link (D5,
    D6); otherwise every empty cell next to a card (a connected table, or a split one under "free", D9).
    Returns (how many, the link length or 0). The engine and look-ahead strategies both call it; ``scratch``
    is link_cells_into's working space."""
    if n_on == 0:
        centre = (side // 2) * side + side // 2
        out[0] = centre
        mark[centre] = stamp
        return 1, 0
    if split and shortest_link:
        return link_cells_into(grid, side, cells, n_on, label, groups, mark, stamp, out, scratch)
    return adjacent_cells(grid, side, cells, n_on, mark, stamp, out), 0


@njit(cache=True)
def legal_cells(grid, side, cells, n_on, label, groups, split, shortest_link, mark, stamp, out):
    """legal_cells_into with its working space allocated (only for a split table's links)."""
    links = split and shortest_link and n_on > 0
    return legal_cells_into(grid, side, cells, n_on, label, groups, split, shortest_link, mark, stamp, out,
                            np.empty(4 * grid.size if links else 0, np.int64))


@njit(cache=True)
def one_group(grid, side, top, bottom, left, right, extra):
    """True if the cards within rows top..bottom, columns left..right (every card on the table lies there)
    form one 4-connected group, or none: a check for strategies, which have no list of the cards. The cell
    ``extra`` (-1: none) counts as holding a card, so a strategy can test a placement without writing to
    the table it is shown (which is read-only)."""
    width = right - left + 1
    area = width * (bottom - top + 1)
    seen = np.zeros(area, np.bool_)
    stack = np.empty(area, np.int64)
    found = False
    for local in range(area):
        x = (top + local // width) * side + left + local % width
        if (grid[x] == EMPTY and x != extra) or seen[local]:
            continue
        if found:
            return False
        found = True
        seen[local] = True
        stack[0] = x
        depth = 1
        while depth > 0:
            depth -= 1
            y = stack[depth]
            for step in (1, -1, side, -side):
                z = y + step
                if grid[z] != EMPTY or z == extra:
                    near = (z // side - top) * width + z % side - left
                    if not seen[near]:
                        seen[near] = True
                        stack[depth] = z
                        depth += 1
    return True


@njit(cache=True)
def joins_table(grid, side, cell, top, bottom, left, right):
    """True if a card on the empty ``cell`` leaves the table one group (the test a split table's placement
    must pass before it may collect, D5). Rows top..bottom and columns left..right must hold every card
    and ``cell``."""
    return one_group(grid, side, top, bottom, left, right, cell)


@njit(cache=True, _nrt=False)
def play_card(grid, side, cells, n_on, on_table, taken, label, stack, split, dweebie, cell, removed, min_line,
              collect):
    """One placement on a legal empty cell (D3-D5, D9): place, check connectivity if the table was split, then
    collect the row and/or column line of at least ``min_line`` cards that the card ends with a matching
    Dweebie at the other end, unless ``collect`` is False (a player declining under game.collect = "may").

    ``cells[:n_on]`` lists the cards on the table; it and the per-Dweebie counts ``on_table`` and ``taken``
    (collected so far) are updated. Collected cells go to ``removed``: the row
    line's other cards, then the column line's, then the placed card. Returns (cards on the table now,
    groups now, cards taken from the row, cards taken from the column, True if the placement joined a split
    table, cards a collection would have taken had it not been declined). A placed card that collects is in
    neither count: a collection takes collection_size(row, column) cards.
    """
    row, row_end, column, column_end = line_ends(grid, side, cell)
    grid[cell] = dweebie
    cells[n_on] = cell
    n_on += 1
    on_table[dweebie] += 1
    groups = 1
    reconnected = False
    if split:
        groups = count_groups(grid, side, cells, n_on, label, stack)
        if groups > 1:
            return n_on, groups, 0, 0, False, 0
        reconnected = True
    if not collect:
        return n_on, groups, 0, 0, reconnected, gain((row, row_end, column, column_end), dweebie, min_line)
    n_removed = 0
    row_taken, column_taken = 0, 0
    for cards, far, step in ((row, row_end, 1), (column, column_end, side)):
        if qualifies(cards, far, dweebie, min_line):
            if grid[cell + step] == EMPTY:  # the line lies on the other side of the card
                step = -step
            for k in range(1, cards + 1):
                removed[n_removed] = cell + k * step
                n_removed += 1
            if step == 1 or step == -1:
                row_taken = cards
            else:
                column_taken = cards
    if n_removed == 0:
        return n_on, groups, 0, 0, reconnected, 0
    removed[n_removed] = cell
    for k in range(n_removed + 1):
        x = removed[k]
        on_table[grid[x]] -= 1
        taken[grid[x]] += 1
        grid[x] = EMPTY
    kept = 0
    for k in range(n_on):
        if grid[cells[k]] != EMPTY:
            cells[kept] = cells[k]
            kept += 1
    n_on = kept
    groups = count_groups(grid, side, cells, n_on, label, stack) if n_on > 0 else 0
    return n_on, groups, row_taken, column_taken, reconnected, 0
