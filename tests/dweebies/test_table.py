"""Hand-built tables for every line case (D3, D4), splits and the keep-together rule (D5, D6).

Pictures: a letter is a Dweebie, '.' an empty cell; ``play(symbol, row, col)`` returns (cards collected,
groups left, reconnected) exactly as the engine plays the card (simkit.games.dweebies.table.play_card).
"""
from .harness import Table

X = 23  # the Dweebie drawn as X


def test_line_whose_far_end_matches_is_collected():
    table = Table("A B C")
    assert table.play("A", 0, 3) == (4, 0, False)
    assert table.n_on == 0 and list(table.taken[:3]) == [2, 1, 1] and table.on_table.sum() == 0


def test_lines_are_collected_in_every_direction():
    table = Table("""
. B C A
. . . D
. . . A""")
    assert table.play("A", 0, 0) == (4, 1, False)   # leftwards: A B C A; D and A stay, one group
    assert table.picture(3, 4) == ". . . .\n. . . D\n. . . A"
    table = Table("""
D
E
D""")
    assert table.play("D", 3, 0) == (4, 0, False)    # upwards
    table = Table("""
.
B
C""")
    assert table.play("C", 0, 0) == (3, 0, False)    # downwards


def test_match_in_the_middle_of_a_line_is_not_collected():
    table = Table("B A C")          # the far end is B; the A in the middle does not count
    assert table.play("A", 0, 3) == (0, 1, False)
    assert table.n_on == 4


def test_card_placed_in_the_middle_of_a_line_collects_nothing():
    table = Table("""
A B . A
. C D E""")                         # the gap joins two runs: the card is not at an end, though A ... A match
    assert table.play("A", 0, 2) == (0, 1, False)
    assert table.n_on == 7


def test_lines_of_two_are_collected_and_an_emptied_table_starts_afresh():
    table = Table("E")
    assert table.play("E", 1, 0) == (2, 0, False)
    assert table.n_on == 0


def test_a_different_neighbour_collects_nothing():
    assert Table("E").play("F", 0, 1) == (0, 1, False)


def test_both_lines_at_once_take_the_placed_card_once():
    table = Table("""
X K L
Y . M
. Q X""")
    assert table.play("X", 2, 0) == (5, 1, False)    # column X Y [X] and row [X] Q X
    assert table.taken[X] == 3 and table.n_on == 3


def test_only_the_matching_line_is_taken():
    table = Table("""
X K L
Y . M
. Q R""")
    assert table.play("X", 2, 0) == (3, 1, False)
    assert table.picture(3, 3) == ". K L\n. . M\n. Q R"


def test_diagonals_never_count():
    table = Table("""
A .
B .""")
    assert table.play("A", 1, 1) == (0, 1, False)


def test_collection_that_splits_the_table_into_two_groups():
    table = Table("""
. C .
A B .
. D .""")
    assert table.play("A", 1, 2) == (3, 2, False)
    assert table.split


def test_collection_that_splits_the_table_into_three_groups():
    table = Table("""
. C . E
A B H F .
. D . .""")
    assert table.play("A", 1, 4) == (5, 3, False)


def test_link_cells_must_touch_a_card():
    table = Table("A . . . B")
    assert table.split
    assert table.links() == ([(0, 1), (0, 3)], 3)     # (0, 2) lies on the link but touches no card yet


def test_tied_shortest_links_are_all_legal():
    table = Table("""
A . .
. . B""")
    assert table.links() == ([(0, 1), (0, 2), (1, 0), (1, 1)], 2)


def test_tied_nearest_pairs_of_groups_are_all_legal():
    assert Table("A . B . C").links() == ([(0, 1), (0, 3)], 1)
    assert Table("A . B . . C").links() == ([(0, 1)], 1)    # the farther pair waits


def test_nobody_collects_while_the_table_is_split():
    table = Table("B . . E")
    assert table.play("B", 0, 1) == (0, 2, False)     # B B would be a line of two, but the table is split
    assert table.links() == ([(0, 2)], 1)
    assert table.play("F", 0, 2) == (0, 1, True)


def test_reconnection_then_collecting_again():
    table = Table("""
B C .
. . E""")
    assert table.links() == ([(0, 2), (1, 1)], 1)
    assert table.play("B", 0, 2) == (3, 1, True)      # joins the groups, then collects B C B
    assert table.picture(2, 3) == ". . .\n. . E"
    assert table.play("E", 1, 3) == (2, 0, False)     # and play goes on as on any table


def test_one_group_agrees_with_the_engine_s_group_count():
    from simkit.games.dweebies.table import one_group

    from .harness import SIDE, at

    for picture in ("A B\n. C", "A . B", ". C .\nA . B\n. D .", "A", ""):
        table = Table(picture)
        top, left = divmod(at(-1, -1), SIDE)
        assert one_group(table.grid, SIDE, top, top + 5, left, left + 6, -1) == (table.groups <= 1), picture


# D9: game.min_line = 3 (a line needs a middle card); declining under game.collect = "may"

def test_min_line_three_leaves_a_line_of_two():
    table = Table("E", min_line=3)
    assert table.play("E", 1, 0) == (0, 1, False)
    assert table.n_on == 2
    table = Table("E F", min_line=3)
    assert table.play("E", 0, 2) == (3, 0, False)     # a line of three is taken as before


def test_min_line_three_takes_the_long_line_of_a_double_and_leaves_the_pair():
    table = Table("""
X K L
Y . M
. Q X""", min_line=3)
    assert table.play("X", 2, 0) == (5, 1, False)      # column X Y [X] and row [X] Q X: both of three
    table = Table("""
X K L
Y N M
. X .""", min_line=3)
    assert table.play("X", 2, 0) == (3, 1, False)      # column X Y [X] only: the row [X] X is a pair
    assert table.picture(3, 3) == ". K L\n. N M\n. X ."


def test_min_line_applies_to_the_card_that_joins_a_split_table():
    pair = "B .\n. E"
    assert Table(pair).play("B", 1, 0) == (2, 1, True)                 # joins, then collects the pair B [B]
    assert Table(pair, min_line=3).play("B", 1, 0) == (0, 1, True)     # joins; a pair is not a line
    assert Table("B C .\n. . E", min_line=3).play("B", 0, 2) == (3, 1, True)   # joins, collects B C [B]


def test_a_declined_collection_takes_nothing_and_says_how_much_it_was():
    table = Table("A B C")
    assert table.play("A", 0, 3, collect=False) == (0, 1, False)
    assert table.declined == 4 and table.n_on == 4 and table.taken.sum() == 0
    table = Table("A B C")
    assert table.play("D", 0, 3, collect=False) == (0, 1, False) and table.declined == 0


def test_declining_on_a_split_table_only_counts_once_joined():
    table = Table("B . . E")
    assert table.play("B", 0, 1, collect=False) == (0, 2, False) and table.declined == 0   # still split
    table = Table("B .\n. E")
    assert table.play("B", 1, 0, collect=False) == (0, 1, True) and table.declined == 2
