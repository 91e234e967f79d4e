"""The rollout family (strategies/dweebies.py): legal moves under every option, determinisations that deal
exactly the cards a seat has not seen (checked against the engine's own deal), reproducible games, the
incremental scoring equal to full continuations, and a hand-built position whose best move it finds."""
import functools

import numpy as np
import pytest

import simkit.strategies.dweebies as shipped
from simkit import rng
from simkit.games import get_game
from simkit.games.dweebies import engine as E
from simkit.games.dweebies import view as V
from simkit.games.dweebies.play import _kernel_inputs
from simkit.games.dweebies.rules import SYMBOLS
from simkit.games.dweebies.table import grid_side, legal_cells, play_card
from simkit.strategy import parse_lineup, parse_seat

from .harness import Table, decide

GAME = get_game("dweebies")
CHEAP = "rollout:samples=3"       # the search itself, at a budget the suite can afford


def _play(lineup, n_games, seed=3, sets=(), check=True):
    seats = parse_lineup("dweebies", lineup)
    prepared = GAME.prepare(GAME.rules(sets=list(sets)), len(seats))
    return GAME.simulate(prepared, seats, seed, 0, n_games, check=check)


@pytest.mark.parametrize("sets", [(), ("game.min_line=3",), ("game.collect='may'",), ("game.split_rule='free'",),
                                  ("game.min_line=3", "game.collect='may'", "game.split_rule='free'")],
                         ids=["default", "min_line-3", "may", "free", "all"])
def test_rollout_plays_only_legal_moves_under_every_option(sets):
    lineups = [[CHEAP, "greedy-defensive"], [CHEAP + ":depth=3", "random", CHEAP + ":halving=1"],
               [CHEAP + ":policy=0:depth=2", "greedy", "pair-keeper", CHEAP]]
    for lineup in lineups:
        columns = _play(lineup, 6, sets=sets)
        assert np.asarray(columns["illegal_actions"]).sum() == 0, lineup
        assert (np.asarray(columns["turns"]) == 54).all()


def test_rollout_declines_only_where_the_rules_let_it():
    columns = _play([CHEAP, "greedy"], 20, sets=("game.collect='may'",))
    assert np.asarray(columns["illegal_actions"]).sum() == 0
    columns = _play([CHEAP, "greedy"], 5)
    assert np.asarray(columns["declined"]).sum() == 0       # no decline is offered under "must"


def _decision_points(lineup, seed, game):
    """Every decision of one recorded game, rebuilt from its event log alone: (the placement's event row, every
    hand, the pile's cards, the Dweebies placed so far, the deck) just before the card is placed."""
    seats = parse_lineup("dweebies", lineup)
    prepared = GAME.prepare(GAME.rules(), len(seats))
    functions, params = _kernel_inputs(seats)
    events = E.play_batch(seed, game, 1, prepared, functions, params, record=True,
                          event_capacity=100_000)["events"]
    n, dweebies = len(seats), prepared.copies.size
    hands = np.zeros((n, dweebies), np.int64)
    pile = prepared.copies.copy()
    placed = np.zeros(dweebies, np.int64)
    for row in events:
        kind, seat, d = row[E.EV_KIND], row[E.EV_SEAT], row[E.EV_DWEEBIE]
        if kind in (E.E_DEAL, E.E_DRAW):
            hands[seat, d] += 1
            pile[d] -= 1
        elif kind == E.E_PLACE:
            yield row, hands.copy(), pile.copy(), placed.copy(), prepared.copies
            hands[seat, d] -= 1
            placed[d] += 1


def _shown(seat, hands, pile, placed, copies):
    """The hand and public vector a seat is shown, as far as determinisation reads them (D7): sizes, the pile's
    size, the deck's makeup and the Dweebies seen (every placed card, on the table or collected)."""
    n, dweebies = hands.shape
    public = np.zeros(V.public_length(n, dweebies), np.int64)
    public[V.PUB_SEAT], public[V.PUB_PLAYERS], public[V.PUB_DWEEBIES] = seat, n, dweebies
    public[V.PUB_PILE] = pile.sum()
    base = V.PUB_HEADER
    public[base:base + n] = hands.sum(axis=1)
    public[base + 2 * n:base + 2 * n + dweebies] = copies
    public[base + 2 * n + dweebies:base + 2 * n + 2 * dweebies] = placed    # collected or still on the table
    return hands[seat].copy(), public


@pytest.mark.parametrize("players", [2, 4])
def test_determinisation_deals_exactly_the_cards_the_seat_has_not_seen(players):
    """Against the engine's real deal: the other hands get their true sizes, and together with the pile they
    hold exactly the true unseen cards, Dweebie by Dweebie (so nothing beyond the deck's makeup)."""
    lineup = ["greedy-defensive", "random", "greedy", "pair-keeper"][:players]
    state = np.zeros(4, np.uint64)
    differ = 0
    for turn, (row, hands, pile, placed, copies) in enumerate(_decision_points(lineup, 4, players)):
        seat = row[E.EV_SEAT]
        hand, public = _shown(seat, hands, pile, placed, copies)
        truth = pile + hands.sum(axis=0) - hands[seat]
        rng.seed_stream(state, 9, turn, rng.STRATEGY)
        first = None
        for _ in range(5):
            dealt = np.full((players, copies.size), -1, np.int64)
            order = np.full(54, -1, np.int64)
            n_pile = V.deal_unseen(hand, public, state, dealt, order)
            assert n_pile == pile.sum() and (order[n_pile:] == -1).all()
            assert (dealt[seat] == hands[seat]).all()
            assert (dealt.sum(axis=1) == hands.sum(axis=1)).all()
            assert (dealt >= 0).all()
            assert (np.bincount(order[:n_pile], minlength=copies.size) + dealt.sum(axis=0) - dealt[seat] == truth).all()
            first = dealt if first is None else first
            differ += not np.array_equal(first, dealt)
    assert differ > 50           # the unseen cards are dealt at random, not the same way every time


def test_determinisation_deals_a_dweebie_to_a_hand_as_often_as_chance_says():
    """A Dweebie with u of the U unseen copies lands in a hand of h cards h u / U times on average."""
    copies = np.array([4, 3, 2, 1] + [1] * 8, np.int64)
    hands = np.zeros((3, copies.size), np.int64)
    hands[0, [0, 4, 5]] = 1                   # the seat holds one A and two singles
    hands[1, [0, 1, 6, 7, 8]] = 1
    hands[2, [1, 2, 9, 10, 11]] = 1
    placed = np.zeros(copies.size, np.int64)
    placed[0] = 1                             # an A on the table: one A is still unseen
    pile = copies - hands.sum(axis=0) - placed
    hand, public = _shown(0, hands, pile, placed, copies)
    state = np.zeros(4, np.uint64)
    rng.seed_stream(state, 2, 0, rng.STRATEGY)
    dealt = np.empty((3, copies.size), np.int64)
    order = np.empty(20, np.int64)
    draws = 4000
    counts = np.zeros(copies.size)
    for _ in range(draws):
        V.deal_unseen(hand, public, state, dealt, order)
        counts += dealt[1]
    unseen = copies - hand - placed
    expected = draws * 5 * unseen / unseen.sum()
    assert counts[0] == pytest.approx(expected[0], abs=5 * np.sqrt(expected[0]))
    assert counts[1] == pytest.approx(expected[1], abs=5 * np.sqrt(expected[1]))
    assert counts[4] == counts[5] == 0                                       # the seat's own singles


def test_same_seed_same_games():
    lineup = [CHEAP + ":halving=1", "greedy-defensive", CHEAP]
    first, again = _play(lineup, 4, seed=12), _play(lineup, 4, seed=12)
    for key in ("collected", "collections", "largest_collection", "winner"):
        assert np.array_equal(np.asarray(first[key]), np.asarray(again[key])), key
    single = GAME.simulate(GAME.prepare(GAME.rules(), 3), parse_lineup("dweebies", lineup), 12, 2, 1)
    assert np.array_equal(np.asarray(single["collected"]), np.asarray(first["collected"])[6:9])  # game 2 alone
    other = _play(lineup, 4, seed=13)
    assert not np.array_equal(np.asarray(first["collected"]), np.asarray(other["collected"]))


def _positions():
    """Seat 0's decisions in a few greedy and random games, shown as the engine shows them."""
    for lineup, seed in ((["greedy-defensive", "greedy"], 5), (["random", "greedy", "random"], 6)):
        n = len(lineup)
        for game in range(2):
            table = Table("")
            collected = np.zeros(n, np.int64)
            for row, hands, pile, _, copies in _decision_points(lineup, seed, game):
                seat, d = row[E.EV_SEAT], row[E.EV_DWEEBIE]
                cards = int(copies.sum())
                side = grid_side(cards)
                legal = np.empty(4 * cards + 4, np.int64)
                table.mark[:] = 0
                n_legal, _ = legal_cells(table.grid, side, table.cells, table.n_on, table.label, table.groups,
                                         table.split, True, table.mark, 1, legal)
                rows = [c // side for c in table.cells[:table.n_on]] or [0]
                cols = [c % side for c in table.cells[:table.n_on]] or [0]
                public = np.zeros(V.public_length(n, copies.size), np.int64)
                header = {V.PUB_SEAT: seat, V.PUB_PLAYERS: n, V.PUB_PILE: pile.sum(), V.PUB_SPLIT: table.split,
                          V.PUB_LEGAL: n_legal, V.PUB_DWEEBIES: copies.size, V.PUB_SIDE: side,
                          V.PUB_ON_TABLE: table.n_on, V.PUB_TOP: min(rows), V.PUB_BOTTOM: max(rows),
                          V.PUB_LEFT: min(cols), V.PUB_RIGHT: max(cols), V.PUB_CARDS: cards, V.PUB_MIN_LINE: 2}
                for key, value in header.items():
                    public[key] = value
                base = V.PUB_HEADER + 2 * n
                public[V.PUB_HEADER:V.PUB_HEADER + n] = hands.sum(axis=1)
                public[V.PUB_HEADER + n:base] = collected
                public[base:base + copies.size] = copies
                public[base + copies.size:base + 2 * copies.size] = table.taken[:copies.size]
                public[base + 2 * copies.size:base + 3 * copies.size] = table.on_table[:copies.size]
                if seat == 0:
                    yield hands[0].copy(), public, table.grid.copy(), legal[:n_legal].copy()
                n_on, table.groups, row_taken, column_taken, _, _ = play_card(
                    table.grid, side, table.cells, table.n_on, table.on_table, table.taken, table.label,
                    table.stack, table.split, d, row[E.EV_CELL], table.removed, 2, True)
                table.n_on = n_on
                collected[seat] += row_taken + column_taken + (1 if row_taken + column_taken else 0)


@functools.cache
def _position_list():
    return list(_positions())


@pytest.mark.parametrize("margin", [0, 1, 2])
def test_incremental_scoring_gives_the_margins_of_full_continuations(margin):
    """The one-turn greedy continuation scored from the cells a card changes equals playing it out in full,
    candidate by candidate, on the same determinisations (two and three players, every margin)."""
    params = parse_seat("dweebies", f"rollout:samples=4:margin={margin}").vector()
    compared = 0
    for k, (hand, public, table, legal) in enumerate(_position_list()):
        results = []
        for incremental in (True, False):
            state = np.zeros(4, np.uint64)
            rng.seed_stream(state, 1, k, rng.STRATEGY)
            candidates, total, _, _ = shipped.rollout_margins(hand, public, table, legal, params, state, incremental)
            results.append((candidates.copy(), total.copy(), state.copy()))
        assert np.array_equal(results[0][0], results[1][0])
        assert np.array_equal(results[0][1], results[1][1]), k
        assert np.array_equal(results[0][2], results[1][2])         # the same random numbers were used
        compared += len(set(results[0][1])) > 1
    assert compared > 40         # positions where the margins tell the moves apart


# K L M N in a row and a hand of P and Q; every card the seat has not seen is a K, so the next player surely
# holds one. A K right of N takes the row (5 cards, 6 once the row is longer); only a card left of K turns
# that end away, leaving a pair under or over K (2 cards).
ROW = ". K L M N"
ROW_COPIES = [7 if s == "K" else 1 if s in "LMNPQ" else 0 for s in SYMBOLS[:27]]


@pytest.mark.parametrize("pile, hand_sizes", [(0, [2, 6]), (1, [2, 5])], ids=["pile-empty", "one-in-pile"])
def test_rollout_finds_the_move_that_turns_a_threat_away(pile, hand_sizes):
    table = Table(ROW)
    copies = ROW_COPIES
    for seed in range(10):
        (symbol, row, col), _ = decide("rollout", table, "PQ", players=2, pile=pile, hand_sizes=hand_sizes,
                                       copies=copies, seed=seed)
        assert (row, col) == (0, 0) and symbol in "PQ"
    greedy = {decide("greedy", table, "PQ", players=2, pile=pile, hand_sizes=hand_sizes, copies=copies,
                     seed=seed)[0] for seed in range(10)}
    assert len(greedy) > 3               # with nothing to collect, greedy plays anywhere


def test_fuzz_campaigns_play_the_rollout_at_its_quick_budget():
    from simkit.errors import SimkitError
    from simkit.fuzz import NumpyPick, draw_case
    from simkit.strategy import Strategy

    drawn = {name for case in range(100) for name in draw_case("dweebies", NumpyPick(0, case)).players}
    assert "rollout:samples=2" in drawn and "rollout" not in drawn and "greedy" in drawn
    with pytest.raises(SimkitError, match="quick setting for unknown parameter 'budget'"):
        Strategy.build("dweebies", "mine", base=shipped.rollout, quick={"budget": 2})
    with pytest.raises(SimkitError, match="samples=0 is not allowed"):
        Strategy.build("dweebies", "mine", base=shipped.rollout, quick={"samples": 0})
