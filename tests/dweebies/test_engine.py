"""The Dweebies engine end to end: conservation in checking mode, what a seat sees (D7), illegal moves,
results, deck options (D1), the D9 rule options (re-derived from the event log by an independent
Python reading of the rules) and the replay."""
import re
from pathlib import Path

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games import get_game
from simkit.strategy import Seat, parse_lineup, registered

from ..golden import assert_golden
from . import toy_strategies as toys

GAME = get_game("dweebies")
GOLDEN = Path(__file__).with_name("golden_replay.txt")


def play(lineup, n_games=60, seed=3, sets=(), check=True):
    seats = parse_lineup("dweebies", lineup)
    prepared = GAME.prepare(GAME.rules(sets=list(sets)), len(seats))
    return prepared, GAME.simulate(prepared, seats, seed, 0, n_games, check=check)


def per_seat(columns, name, n):
    return np.asarray(columns[name]).reshape(-1, n)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("sets", [(), ("deck.copies_split=[12, 6, 6, 3]",), ("deck.copies_split=[7, 14, 5, 1]",),
                                  ("deck.copies=[3, 3, 3, 3, 3, 3]", "game.hand_size=3")],
                         ids=["default", "split-12-6-6-3", "split-7-14-5-1", "custom-18"])
def test_cards_conserved_in_check_mode(players, sets):
    names = sorted(registered("dweebies"))
    lineup = [names[(players + i) % len(names)] for i in range(players)]
    prepared, columns = play(lineup, 80, seed=players, sets=sets)
    cards = int(prepared.copies.sum())
    collected = per_seat(columns, "collected", players).sum(axis=1)
    left = per_seat(columns, "left_on_table", players)[:, 0]
    assert (collected + left == cards).all()          # the hands and the pile are empty at the end
    assert (per_seat(columns, "turns", players)[:, 0] == cards).all()


def test_a_strategy_that_writes_on_its_table_does_not_compile():
    from simkit.strategy import DecisionError, Strategy

    with pytest.raises(DecisionError, match="decision place: writes to its read-only argument 'table'"):
        Strategy.build("dweebies", "scribbler", place=toys.scribbler)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_seat_sees_what_d7_promises(players):
    play([toys.SPY] + ["greedy-defensive", "random", "pair-keeper", "greedy", "line-shortener"][: players - 1],
         100, seed=7)


def test_illegal_actions_are_replaced_by_random_legal_ones():
    _, columns = play([toys.CHEAT, "greedy", "random"], 30)
    illegal = per_seat(columns, "illegal_actions", 3)
    assert (illegal[:, 0] == 18).all() and illegal[:, 1:].sum() == 0   # 54 turns, a third of them the cheat's


def test_result_columns_are_consistent():
    _, columns = play(list(GAME.default_lineup), 200)
    n = 4
    collected, collections = per_seat(columns, "collected", n), per_seat(columns, "collections", n)
    largest, lines = per_seat(columns, "largest_collection", n), per_seat(columns, "lines_collected", n)
    assert (largest <= collected).all() and (collections <= lines).all() and (lines <= 2 * collections).all()
    assert (collected >= 2 * collections).all() and (largest >= 2 * (collections > 0)).all()
    winner = per_seat(columns, "winner", n)
    assert (winner == (collected == collected.max(axis=1, keepdims=True))).all()   # ties share the win
    splits = per_seat(columns, "splits", n)[:, 0]
    assert (splits == per_seat(columns, "splits_caused", n).sum(axis=1)).all()
    assert (per_seat(columns, "reconnections", n).sum(axis=1) <= splits).all()
    sizes = columns["_totals"]["collection_sizes"]
    assert sizes.sum() == collections.sum() and (np.arange(sizes.size) * sizes).sum() == collected.sum()


def test_ties_share_the_win():
    _, columns = play(["random", "random"], 400, seed=1)
    collected = per_seat(columns, "collected", 2)
    tied = collected[:, 0] == collected[:, 1]
    assert tied.any() and per_seat(columns, "winner", 2)[tied].all()


def test_the_deal_goes_round_from_seat_zero_d2():
    from simkit.games.dweebies import engine

    seats = parse_lineup("dweebies", ["greedy"] * 3)
    prepared = GAME.prepare(GAME.rules(), 3)
    from simkit.games.dweebies.play import _kernel_inputs

    functions, params = _kernel_inputs(seats)
    out = engine.play_batch(5, 0, 1, prepared, functions, params, record=True,
                            event_capacity=20000)
    deals = out["events"][out["events"][:, engine.EV_KIND] == engine.E_DEAL]
    assert list(deals[:, engine.EV_SEAT]) == [i % 3 for i in range(15)]
    placed = out["events"][out["events"][:, engine.EV_KIND] == engine.E_PLACE]
    assert list(placed[:6, engine.EV_SEAT]) == [0, 1, 2, 0, 1, 2]


@pytest.mark.parametrize("sets, message", [
    (("deck.copies_split=[9, 12, 3, 4]",), "makes 28 Dweebies and 58 cards; a split needs"),
    (("deck.copies_split=[9, 12, 3]",), "four counts"),
    (("deck.copies=[2, 0, 3]",), "at least one copy"),
    (("deck.copies=[1, 2, 3]",), "cannot deal hands of 5 to 4 players"),
    (("game.hand_size=0",), "hand_size"),
    (("game.players_max=3",), "allow 2-3 players, not 4"),
    (("deck.copies='many'",), "is an array"),
    (("deck.copies=[1.5, 2]",), "array of integers"),
    (("game.min_line=4",), "game.min_line = 4 is out of range; allowed 2..3"),
    (("game.min_line=1",), "game.min_line = 1 is out of range; allowed 2..3"),
    (("game.min_line='3'",), "game.min_line must be an integer"),
    (("game.collect='maybe'",), 'game.collect must be "must" or "may", not \'maybe\''),
    (("game.collect=true",), 'game.collect must be "must" or "may", not True'),
    (("game.split_rule='shortest'",), 'game.split_rule must be "shortest_link" or "free", not \'shortest\''),
    (("game.split_rule=1",), 'game.split_rule must be "shortest_link" or "free", not 1'),
])
def test_bad_decks_and_counts_are_refused(sets, message):
    with pytest.raises(SimkitError, match=re.escape(message)):
        GAME.prepare(GAME.rules(sets=list(sets)), 4)


def test_a_custom_deck_plays():
    prepared, columns = play(["greedy", "random"], 50, sets=("deck.copies=[5, 5, 5, 5]",))
    assert prepared.copies.tolist() == [5, 5, 5, 5]
    assert (per_seat(columns, "collected", 2).sum(axis=1) + per_seat(columns, "left_on_table", 2)[:, 0] == 20).all()


def _replay(seed, game, lineup, sets=()):
    seats = parse_lineup("dweebies", lineup)
    return GAME.replay(GAME.prepare(GAME.rules(sets=list(sets)), len(seats)), seats, seed, game)


SINGLE = r"collects a (row|column) of (\d+): ([A-Za-z ]+) \(both ends (\w)\)"
DOUBLE = r"collects a (row) of (\d+) \(([A-Za-z ]+)\) and a (column) of (\d+) \(([A-Za-z ]+)\): (\d+) cards, the placed " \
         r"(\w) counted once"


@pytest.mark.parametrize("seed, game, lineup", [(4, 2, list(GAME.default_lineup)), (1, 6, ["random"] * 4)])
def test_replay_collections_are_real_lines_and_match_the_batch(seed, game, lineup):
    text = _replay(seed, game, lineup)
    singles, doubles = re.findall(SINGLE, text), re.findall(DOUBLE, text)
    assert singles if lineup[0] != "random" else doubles     # the second game has a row and a column at once
    for _, size, cards, end in singles:
        cards = cards.split()
        assert len(cards) == int(size) and cards[0] == cards[-1] == end
    for _, row_size, row, _, column_size, column, total, end in doubles:
        assert int(total) == int(row_size) + int(column_size) - 1
        for size, cards in ((row_size, row.split()), (column_size, column.split())):
            assert len(cards) == int(size) and cards[0] == cards[-1] == end
    _, columns = play(lineup, game + 1, seed=seed, check=False)
    n = len(lineup)
    for p in range(n):
        got = per_seat(columns, "collected", n)[game, p]
        assert re.search(rf"seat {p} \([^)]*\): collected {got} cards", text)
    cards = sum(int(m[1]) for m in singles) + sum(int(m[6]) for m in doubles)
    assert cards == per_seat(columns, "collected", n)[game].sum()
    assert text.count("[") >= 54 - len(singles) - len(doubles)  # the table is drawn after every move


def test_replay_draws_the_link_cells_of_a_split_table():
    text = _replay(4, 2, ["greedy"] * 4)
    assert "shortest link needs" in text and " * " in text


# a short game under every D9 reading at once: a deck of 22, hands of 3, lines of three, optional
# collecting, free placement while split (the table splits, is rejoined and collected from again)
GOLDEN_OPTIONS = ("deck.copies=[3, 3, 3, 3, 3, 3, 2, 2]", "game.hand_size=3", "game.min_line=3",
                  "game.collect='may'", "game.split_rule='free'")


@pytest.mark.parametrize("path, seed, game, lineup, sets", [
    (GOLDEN, 1, 1, list(GAME.default_lineup), ()),
    (GOLDEN.with_name("golden_replay_options.txt"), 1, 37, ["greedy-defensive", "greedy", "line-shortener"],
     GOLDEN_OPTIONS),
], ids=["default", "d9-options"])
def test_golden_replay(path, seed, game, lineup, sets):
    """A seeded game's full transcript; regenerate with SIMKIT_REGOLD=1 after a deliberate change."""
    assert_golden(path, _replay(seed, game, lineup, sets))


OPTIONS = {"min_line": ("game.min_line=3",), "may": ("game.collect='may'",), "free": ("game.split_rule='free'",),
           "all": ("game.min_line=3", "game.collect='may'", "game.split_rule='free'")}


@pytest.mark.parametrize("options", sorted(OPTIONS))
def test_strategies_see_the_d9_options(options):
    rules = GAME.prepare(GAME.rules(sets=list(OPTIONS[options])), 4)
    checker = Seat(toys.OPTION_CHECKER, {"min_line": rules.min_line, "collect": ["must", "may"].index(rules.collect),
                                         "split_rule": ["shortest_link", "free"].index(rules.split_rule)})
    play([checker, "greedy", checker, "random"], 40, sets=OPTIONS[options])
    with pytest.raises(AssertionError, match="other D9 options"):   # the check can fail
        play([checker, "greedy"], 1, sets=() if options != "min_line" else OPTIONS["may"])


def test_declining_is_counted_and_illegal_under_must():
    _, columns = play([toys.DECLINER, "greedy"], 60, sets=OPTIONS["may"])
    collected, declined = per_seat(columns, "collected", 2), per_seat(columns, "declined", 2)
    assert collected[:, 0].sum() == 0 and declined[:, 0].sum() > 30 and declined[:, 1].sum() == 0
    assert per_seat(columns, "illegal_actions", 2).sum() == 0
    _, columns = play([toys.DECLINER, "greedy"], 60)      # game.collect = "must": every decline is refused
    assert (per_seat(columns, "illegal_actions", 2)[:, 0] == 27).all()
    assert per_seat(columns, "declined", 2).sum() == 0 and per_seat(columns, "collected", 2)[:, 0].sum() > 0


def _events(lineup, sets, game, seed=8):
    from simkit.games.dweebies import engine
    from simkit.games.dweebies.play import _kernel_inputs

    seats = parse_lineup("dweebies", lineup)
    prepared = GAME.prepare(GAME.rules(sets=list(sets)), len(seats))
    functions, params = _kernel_inputs(seats)
    out = engine.play_batch(seed, game, 1, prepared, functions, params, check=True, record=True,
                            event_capacity=200_000)
    assert out["events_lost"] == 0
    return prepared, out["events"]


def _groups(table: dict, side: int) -> int:
    seen, groups = set(), 0
    for start in table:
        if start in seen:
            continue
        groups += 1
        stack = [start]
        seen.add(start)
        while stack:
            x = stack.pop()
            for y in (x + 1, x - 1, x + side, x - side):
                if y in table and y not in seen:
                    seen.add(y)
                    stack.append(y)
    return groups


def _lines_taken(table: dict, side: int, cell: int, dweebie: int, min_line: int) -> list[list[int]]:
    """The lines (cells beside the placed card) a card on ``cell`` ends with its own Dweebie, read from the rules."""
    taken = []
    for step in (1, side):
        runs = []
        for direction in (-step, step):
            run, x = [], cell + direction
            while x in table:
                run.append(x)
                x += direction
            runs.append(run)
        run = runs[0] or runs[1]
        if bool(runs[0]) != bool(runs[1]) and table[run[-1]] == dweebie and len(run) + 1 >= min_line:
            taken.append(run)
    return taken


@pytest.mark.parametrize("options", sorted(OPTIONS) + ["default"])
def test_every_turn_follows_the_d9_options_re_derived_from_the_event_log(options):
    """Each placement, collection, decline and split of a few games replayed on a Python table: under
    min_line 3 no line of two is taken; under "free" a split table offers every cell next to a card and
    nothing is collected until it is one group; a decline takes nothing."""
    from simkit.games.dweebies import engine as E
    from simkit.games.dweebies.table import grid_side

    sets = OPTIONS.get(options, ())
    lineup = [toys.DECLINER, "greedy", "random", "greedy-defensive"] if "may" in str(sets) else \
        ["greedy", "random", "greedy-defensive"]
    checked = {"collections": 0, "declines": 0, "split_turns": 0}
    for game in range(6):
        prepared, events = _events(lineup, sets, game)
        side = grid_side(int(prepared.copies.sum()))
        table, split = {}, False
        for turn in sorted(set(events[:, E.EV_TURN]) - {-1}):
            rows = events[events[:, E.EV_TURN] == turn]
            kinds = list(rows[:, E.EV_KIND])
            place = rows[kinds.index(E.E_PLACE)]
            dweebie, cell, n_legal = int(place[E.EV_DWEEBIE]), int(place[E.EV_CELL]), int(place[E.EV_A])
            around = {y for x in table for y in (x + 1, x - 1, x + side, x - side) if y not in table}
            assert bool(place[E.EV_B]) == split and cell not in table and (cell in around or not table)
            if not split or prepared.split_rule == "free":
                assert n_legal == (len(around) if table else 1)
            taken = _lines_taken(table, side, cell, dweebie, prepared.min_line)
            table[cell] = dweebie
            joined = _groups(table, side) == 1
            assert (E.E_RECONNECT in kinds) == (split and joined)
            collects = [r for r in rows if r[E.EV_KIND] == E.E_COLLECT]
            if split and not joined:
                checked["split_turns"] += 1
                assert not collects and E.E_DECLINE not in kinds
                continue
            if E.E_DECLINE in kinds:
                assert prepared.collect == "may" and taken and not collects
                assert rows[kinds.index(E.E_DECLINE)][E.EV_A] == len({x for run in taken for x in run}) + 1
                checked["declines"] += 1
                taken = []
            assert sorted(int(r[E.EV_B]) - 1 for r in collects) == sorted(len(run) for run in taken)
            for run in taken:
                checked["collections"] += 1
                assert len(run) + 1 >= prepared.min_line
                for x in run:
                    del table[x]
            if taken:
                del table[cell]
            split = _groups(table, side) > 1
    assert checked["collections"] > 20 and checked["split_turns"] > 0
    assert (checked["declines"] > 0) == ("may" in str(sets))


def test_min_line_three_never_takes_two_cards():
    _, columns = play(list(GAME.default_lineup), 100, sets=OPTIONS["min_line"])
    sizes = columns["_totals"]["collection_sizes"]
    assert sizes[2] == 0 and sizes[3:].sum() > 100
    _, columns = play(list(GAME.default_lineup), 100)
    assert columns["_totals"]["collection_sizes"][2] > 0


def test_a_refused_move_names_its_cell_by_row_and_column():
    # careless_packed answers legal cells with Dweebies not in the hand, and cells anywhere in [-1000, 1000]
    lines = [line for line in _replay(3, 0, [toys.CARELESS_PACKED, "greedy"]).splitlines() if "illegal move" in line]
    shown = re.compile(r"\(\S+ at (row [+-]\d+, column [+-]\d+|cell -?\d+ \(off the table\))[ )]")
    where = [shown.search(line) for line in lines]
    assert lines and all(where), lines[:3]
    assert any(match.group(1).startswith("row") for match in where)
