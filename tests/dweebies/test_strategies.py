"""The shipped Dweebies strategies do what their docs say (strategies/dweebies.py, spec "Strategy families")."""
from collections import Counter

import numpy as np
import pytest

from simkit.games import get_game
from simkit.strategy import parse_lineup, registered

from simkit.games.dweebies import SYMBOLS
from simkit.games.dweebies.table import adjacent_cells, collect_gain, run_from

from .harness import CARDS, ORIGIN, SIDE, Table, at, decide

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


@pytest.mark.parametrize("players", [2, 4, 6])
def test_shipped_strategies_make_only_legal_moves(players):
    game = get_game("dweebies")
    prepared = game.prepare(game.rules(), players)
    for name in SHIPPED:
        lineup = [name] + [SHIPPED[(i + SHIPPED.index(name)) % len(SHIPPED)] for i in range(1, players)]
        columns = game.simulate(prepared, parse_lineup("dweebies", lineup), 5, 0, 40, check=True)
        assert columns["illegal_moves"].sum() == 0, name


def test_defence_pays_against_greedy():
    game = get_game("dweebies")
    prepared = game.prepare(game.rules(), 2)
    collected = np.zeros(2)
    for lineup in (["greedy-defensive", "greedy"], ["greedy", "greedy-defensive"]):   # both seats
        columns = game.simulate(prepared, parse_lineup("dweebies", lineup), 9, 0, 1500)
        per_seat = columns["collected"].reshape(-1, 2).mean(axis=0)
        collected += per_seat if lineup[0] == "greedy-defensive" else per_seat[::-1]
    assert collected[0] > collected[1] + 1.0


def _random_position(gen):
    """A table reached by random legal-looking play (every card next to another), and a hand of five."""
    deck = [d for d, k in enumerate(DEFAULT_COPIES) for _ in range(k)]
    gen.shuffle(deck)
    table = Table("")
    table.play(SYMBOLS[deck.pop()], 4, 4)
    for _ in range(gen.integers(4, 25)):
        if table.n_on == 0:
            table.play(SYMBOLS[deck.pop()], 4, 4)
            continue
        if table.split:
            cells, _ = table.links()
        else:
            out = np.empty(4 * CARDS, np.int64)
            table.mark[:] = 0
            n = adjacent_cells(table.grid, SIDE, table.cells, table.n_on, table.mark, 1, out)
            cells = [((x - ORIGIN) // SIDE, (x - ORIGIN) % SIDE) for x in out[:n]]
        table.play(SYMBOLS[deck.pop()], *cells[gen.integers(len(cells))])
    hand = "".join(SYMBOLS[deck.pop()] for _ in range(5))
    return table, hand


def _oracle_scores(table, hand, params):
    """The scorer family's move scores by brute force: play every move on a copy, then try every reply."""
    held = Counter(SYMBOLS.index(s) for s in hand)
    unseen = [DEFAULT_COPIES[d] - table.on_table[d] - held[d] for d in range(27)]
    _, legal = decide("random", table, hand)
    scores = {}
    for d in held:
        for row, col in legal:
            x = at(row, col)
            copy = Table("")
            copy.grid[:] = table.grid
            copy.cells[:table.n_on] = table.cells[:table.n_on]
            copy.n_on, copy.groups, copy.on_table[:] = table.n_on, table.groups, table.on_table
            got, groups, _ = copy.play(SYMBOLS[d], row, col)
            score = float(got)
            if got == 0:
                runs = [run_from(table.grid, x, step)[0] for step in (-1, 1, -SIDE, SIDE)]
                score -= params["shorten"] * max(runs[0] + runs[1] + 1, runs[2] + runs[3] + 1)
                score -= params["keep_pairs"] * (held[d] >= 2)
            threat = 0.0
            if params["defend"] and not table.split and groups == 1:
                out = np.empty(4 * CARDS, np.int64)
                copy.mark[:] = 0
                n = adjacent_cells(copy.grid, SIDE, copy.cells, copy.n_on, copy.mark, 1, out)
                threat = max([collect_gain(copy.grid, SIDE, y, s) for y in out[:n] for s in range(27) if unseen[s] > 0]
                             + [0])
            scores[(SYMBOLS[d], row, col)] = score - params["defend"] * threat
    return scores


@pytest.mark.parametrize("name", ["greedy", "greedy-defensive", "line-shortener", "pair-keeper"])
def test_scorer_presets_play_a_best_move_by_brute_force(name):
    gen = np.random.default_rng(11)
    params = registered("dweebies")[name].params
    plain = dict(params, defend=0.0, shorten=0.0, keep_pairs=0.0)
    discriminating = 0
    for trial in range(40):
        table, hand = _random_position(gen)
        scores = _oracle_scores(table, hand, params)
        move, _ = decide(name, table, hand, seed=trial)
        assert scores[move] == pytest.approx(max(scores.values())), (trial, table.picture(9, 9), hand, move)
        best = {m for m, v in scores.items() if v == max(scores.values())}
        greedy = _oracle_scores(table, hand, plain)
        discriminating += best != {m for m, v in greedy.items() if v == max(greedy.values())}
    if name != "greedy":
        assert discriminating >= 3, "the positions barely test what the preset adds to greedy"
