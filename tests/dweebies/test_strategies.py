"""The shipped Dweebies strategies do what their docs say (strategies/dweebies.py; the families in docs/rules/dweebies.md)."""
from collections import Counter

import numpy as np
import pytest

from simkit.games import get_game
from simkit.games.dweebies.rules import SYMBOLS
from simkit.games.dweebies.table import collect_gain, run_from
from simkit.strategy import parse_lineup, registered

from .harness import ORIGIN, SIDE, Table, at, decide, legal_cells

DEFAULT_COPIES = [1] * 9 + [2] * 12 + [3] * 3 + [4] * 3

SHIPPED = sorted(registered("dweebies"))


def test_greedy_takes_the_largest_collection():
    table = Table("""
A B C
. . D""")
    assert decide("greedy", table, "ADKLM")[0] == ("A", 0, 3)     # A B C A (4) beats D D (2)


def test_defensive_plays_the_card_that_sets_nobody_up():
    # next to a lone B any card makes a line of two; C has one copy (held here), Z has four, still unseen
    table = Table("B")
    assert all(decide("greedy-defensive", table, "CZ", seed=s)[0][0] == "C" for s in range(20))
    assert {decide("greedy", table, "CZ", seed=s)[0][0] for s in range(20)} == {"C", "Z"}


def test_line_shortener_keeps_lines_short():
    table = Table("K L M N")
    (symbol, row, col), _ = decide("line-shortener", table, "EFG")
    assert row != 0 and col in (0, 1, 2, 3)   # under or over a card: a line of two, not a row of five


def test_pair_keeper_plays_a_single_before_breaking_a_pair():
    table = Table("K L M N")
    assert all(decide("pair-keeper", table, "PPE", seed=s)[0][0] == "E" for s in range(20))


def test_random_is_uniform_over_distinct_pairs_d8():
    table = Table("K")
    counts = Counter(decide("random", table, "PPE", seed=s)[0] for s in range(4000))
    assert len(counts) == 2 * 4                 # two distinct Dweebies x four cells; the pair counts once
    expected = 4000 / 8
    chi2 = sum((k - expected) ** 2 / expected for k in counts.values())
    assert chi2 < 24.3                          # 7 degrees of freedom, p = 0.001


def test_the_shared_gain_counts_lines_of_min_line_cards():
    from simkit.games.dweebies.table import EMPTY, gain

    d, other = 3, 4
    assert gain((1, d, 0, EMPTY), d, 2) == 2 and gain((1, d, 0, EMPTY), d, 3) == 0     # a pair
    assert gain((2, d, 1, d), d, 3) == 3 and gain((2, d, 1, d), d, 2) == 4           # a row of 3, a column pair
    assert gain((2, other, 3, d), d, 3) == 4


def test_greedy_sees_that_a_card_leaving_the_table_split_collects_nothing():
    table = Table("B . . E")     # a link of two: B next to B would be a pair, but the table stays split
    picks = {decide("greedy", table, "BF", seed=s)[0] for s in range(30)}
    assert len(picks) > 1          # every move scores 0 (the old scorer always played B beside B)
    table = Table("B .\n. E")    # B below B joins the groups, then takes the pair
    assert decide("greedy", table, "BF")[0] == ("B", 1, 0)


def test_greedy_on_a_free_split_table_collects_only_where_the_card_joins_it():
    table = Table("A B . . C")   # A right of B would end A B A, but C stays apart: nothing is collected
    _, legal = decide("greedy", table, "A", split_rule="free")
    assert len(legal) == 10                                                 # every empty cell next to a card
    assert len({decide("greedy", table, "A", seed=s, split_rule="free")[0] for s in range(30)}) > 3
    table = Table("A B .\n. . C")
    assert decide("greedy", table, "A", split_rule="free")[0] == ("A", 0, 2)   # joins and takes A B A


# a collection of three (L G [L]) that uncovers a column B C R U Z whose top end the next player can take
# with one of three unseen Z; every other Dweebie but S has one copy, and S threatens (2, 4) itself
DECLINE_TABLE = """
. A I J K
F E . . .
H . L G .
D M B . N
O . C P S
Q . R . .
T . U . .
V . Z . .
W . . . .
X Y a . ."""
DECLINE_COPIES = [4 if s == "Z" else 2 if s in "LS" else 1 for s in SYMBOLS[:27]]


def test_defensive_may_decline_a_collection_that_uncovers_a_longer_line():
    table = Table(DECLINE_TABLE)

    def picks(name, collect):
        return {decide(name, table, "L", seed=s, collect=collect, copies=DECLINE_COPIES, full=True)[::2]
                for s in range(40)}
    assert picks("greedy", "must") == picks("greedy", "may") == {(("L", 2, 4), True)}   # greedy always takes 3
    must = picks("greedy-defensive", "must")
    assert (("L", 2, 4), True) not in must     # 3 now, 6 for the next player: it plays elsewhere
    may = picks("greedy-defensive", "may")
    assert (("L", 2, 4), False) in may and (("L", 2, 4), True) not in may   # declining there blocks S's line


@pytest.mark.parametrize("players", [2, 4, 6])
def test_shipped_strategies_make_only_legal_moves(players):
    game = get_game("dweebies")
    prepared = game.prepare(game.rules(), players)
    for name in SHIPPED:
        lineup = [name] + [SHIPPED[(i + SHIPPED.index(name)) % len(SHIPPED)] for i in range(1, players)]
        columns = game.simulate(prepared, parse_lineup("dweebies", lineup), 5, 0, 40, check=True)
        assert columns["illegal_actions"].sum() == 0, name


def test_defence_pays_against_greedy():
    game = get_game("dweebies")
    prepared = game.prepare(game.rules(), 2)
    collected = np.zeros(2)
    for lineup in (["greedy-defensive", "greedy"], ["greedy", "greedy-defensive"]):   # both seats
        columns = game.simulate(prepared, parse_lineup("dweebies", lineup), 9, 0, 1500)
        per_seat = columns["collected"].reshape(-1, 2).mean(axis=0)
        collected += per_seat if lineup[0] == "greedy-defensive" else per_seat[::-1]
    assert collected[0] > collected[1] + 1.0


def _random_position(gen, min_line=2, split_rule="shortest_link"):
    """A table reached by random legal play under the options, and a hand of five."""
    deck = [d for d, k in enumerate(DEFAULT_COPIES) for _ in range(k)]
    gen.shuffle(deck)
    table = Table("", min_line=min_line)
    table.play(SYMBOLS[deck.pop()], 4, 4)
    for _ in range(gen.integers(4, 25)):
        cells, _ = legal_cells(table, split_rule)
        x = cells[gen.integers(len(cells))]
        table.play(SYMBOLS[deck.pop()], (x - ORIGIN) // SIDE, (x - ORIGIN) % SIDE)
    hand = "".join(SYMBOLS[deck.pop()] for _ in range(5))
    return table, hand


def _oracle_scores(table, hand, params, collect="must", split_rule="shortest_link"):
    """The scorer family's move scores by brute force: play every move on a copy (collecting, and under
    collect "may" also declining), then try every reply. Keys: (symbol, row, col, collects)."""
    held = Counter(SYMBOLS.index(s) for s in hand)
    unseen = [DEFAULT_COPIES[d] - table.on_table[d] - held[d] for d in range(27)]
    _, legal = decide("random", table, hand, split_rule=split_rule)
    scores = {}
    for d in held:
        for row, col in legal:
            x = at(row, col)
            for collect_now in ((True, False) if collect == "may" else (True,)):
                copy = Table("", min_line=table.min_line)
                copy.grid[:] = table.grid
                copy.cells[:table.n_on] = table.cells[:table.n_on]
                copy.n_on, copy.groups, copy.on_table[:] = table.n_on, table.groups, table.on_table
                got, groups, _ = copy.play(SYMBOLS[d], row, col, collect=collect_now)
                if not collect_now and not copy.declined:
                    continue   # nothing to decline: the same move as collecting
                score = float(got)
                if got == 0:
                    runs = [run_from(table.grid, x, step)[0] for step in (-1, 1, -SIDE, SIDE)]
                    score -= params["shorten"] * max(runs[0] + runs[1] + 1, runs[2] + runs[3] + 1)
                    score -= params["keep_pairs"] * (held[d] >= 2)
                threat = 0.0
                if params["defend"] and not table.split and groups == 1:
                    cells, _ = legal_cells(copy)
                    threat = max([collect_gain(copy.grid, SIDE, y, s, table.min_line) for y in cells for s in range(27)
                                  if unseen[s] > 0] + [0])
                scores[(SYMBOLS[d], row, col, collect_now)] = score - params["defend"] * threat
    return scores


OPTION_SETS = {"default": {}, "min_line=3": {"min_line": 3}, "may": {"collect": "may"},
               "free": {"split_rule": "free"}, "all": {"min_line": 3, "collect": "may", "split_rule": "free"}}


@pytest.mark.parametrize("options", sorted(OPTION_SETS))
@pytest.mark.parametrize("name", ["greedy", "greedy-defensive", "line-shortener", "pair-keeper"])
def test_scorer_presets_play_a_best_move_by_brute_force(name, options):
    """Under every D9 option the scorer's choice is a best move of an independent brute force, and under
    collect "may" it declines only when declining scores strictly higher than collecting."""
    options = OPTION_SETS[options]
    gen = np.random.default_rng(11)
    params = registered("dweebies")[name].params
    plain = dict(params, defend=0.0, shorten=0.0, keep_pairs=0.0)
    collect, split_rule = options.get("collect", "must"), options.get("split_rule", "shortest_link")
    discriminating = 0
    trials = 40 if not options else 25
    for trial in range(trials):
        table, hand = _random_position(gen, options.get("min_line", 2), split_rule)
        scores = _oracle_scores(table, hand, params, collect, split_rule)
        move, _, collects = decide(name, table, hand, seed=trial, collect=collect, split_rule=split_rule, full=True)
        key = move + (collects,)
        context = (trial, table.picture(9, 9), hand, key)
        assert scores[key] == pytest.approx(max(scores.values())), context
        if not collects:
            assert scores[key] > scores[move + (True,)], context
        best = {m for m, v in scores.items() if v == max(scores.values())}
        greedy = _oracle_scores(table, hand, plain, collect, split_rule)
        discriminating += best != {m for m, v in greedy.items() if v == max(greedy.values())}
    if name != "greedy" and not options:
        assert discriminating >= 3, "the positions barely test what the preset adds to greedy"
