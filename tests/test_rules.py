"""Rule data: packaged defaults, TOML file and --set overlays (simkit/rules.py), and Wheedle's validation."""
import copy
import re
import tomllib

import pytest

from simkit.errors import SimkitError
from simkit.games import get_game


@pytest.fixture
def write(tmp_path):
    def write_file(text, name="house.toml"):
        path = tmp_path / name
        path.write_text(text)
        return path
    return write_file


def test_defaults_are_the_packaged_toml(game):
    with game.rules_path.open("rb") as handle:
        packaged = tomllib.load(handle)
    assert game.rules() == packaged
    assert [c["cards"] for c in packaged["company"]] == [5, 5, 5, 7, 7, 7, 7, 9, 9]
    assert sum(c["cards"] for c in packaged["company"]) == 61


def test_overlay_does_not_mutate_defaults(game):
    before = copy.deepcopy(game.default_rules)
    rules = game.rules(sets=["scoring.false_stop=-10", "company.0.cards=6", "deal.hand.4=16"])
    rules["options"]["max_ticks"] = 1
    assert game.default_rules == before


def test_toml_file_override(game, write):
    path = write('[scoring]\nfalse_stop = -10\n[options]\ngifts_allowed = false\n')
    rules = game.rules(rules_file=path)
    assert rules["scoring"]["false_stop"] == -10
    assert rules["options"]["gifts_allowed"] is False
    # everything else keeps its default
    assert rules["scoring"]["stop_bonus"] == 5
    assert rules["options"]["max_ticks"] == game.default_rules["options"]["max_ticks"]
    assert rules["company"] == game.default_rules["company"]


def test_toml_file_replaces_company_array(game, write):
    path = write('[[company]]\nname = "A"\ncards = 5\n[[company]]\nname = "B"\ncards = 4\n'
                 '[deal]\nhouse_hand = { 2 = 4, 3 = 3 }\n')
    rules = game.rules(rules_file=path)
    assert rules["company"] == [{"name": "A", "cards": 5}, {"name": "B", "cards": 4}]
    prepared = game.prepare(rules, 2)
    assert prepared.companies == ("A", "B")
    assert list(prepared.counts) == [5, 4]


def test_toml_company_entry_missing_key(game, write):
    path = write('[[company]]\nname = "A"\n')
    with pytest.raises(SimkitError, match="cards"):  # at overlay time or when the game validates
        game.prepare(game.rules(rules_file=path), 2)


def test_set_then_file_order(game, write):
    path = write('[scoring]\nfalse_stop = -10\n')
    rules = game.rules(rules_file=path, sets=["scoring.false_stop=-3"])
    assert rules["scoring"]["false_stop"] == -3  # --set is applied after the file


@pytest.mark.parametrize("assignment, key, expected", [
    ("scoring.false_stop=-10", ("scoring", "false_stop"), -10),
    ("options.max_ticks=1_000", ("options", "max_ticks"), 1000),
    ("options.gifts_allowed=false", ("options", "gifts_allowed"), False),
    ("options.bankrupt_majority_scores=true", ("options", "bankrupt_majority_scores"), True),
    ("options.rounds=players", ("options", "rounds"), "players"),
    ("options.rounds=2", ("options", "rounds"), 2),
    ('company.0.name="Moo Milk"', ("company", 0, "name"), "Moo Milk"),
    ("company.0.name=Moo Milk", ("company", 0, "name"), "Moo Milk"),
    ("company.8.cards=10", ("company", 8, "cards"), 10),
    ("deal.hand.4=16", ("deal", "hand", "4"), 16),
])
def test_set_dotted_keys(game, assignment, key, expected):
    node = game.rules(sets=[assignment])
    for part in key:
        node = node[part]
    assert node == expected and type(node) is type(expected)


def test_set_bool_is_not_a_string(game):
    assert game.rules(sets=["options.gifts_allowed=true"])["options"]["gifts_allowed"] is True


@pytest.mark.parametrize("assignment, named, allowed", [
    ("options.foo=1", "options.foo", "max_ticks"),
    ("scoring.stopbonus=1", "scoring.stopbonus", "stop_bonus"),
    ("nosuch=1", "nosuch", "company"),
    ("company.9.cards=5", "company.9", "0..8"),
    ("company.x.cards=5", "company.x", "0..8"),
    ("company.0.shares=5", "company.0.shares", "cards"),
])
def test_set_unknown_key_names_key_and_allowed(game, assignment, named, allowed):
    with pytest.raises(SimkitError) as exc:
        game.rules(sets=[assignment])
    message = str(exc.value)
    assert named in message and allowed in message
    assert "\n" not in message


@pytest.mark.parametrize("assignment", ["options", "=5", "options.max_ticks"])
def test_set_without_value(game, assignment):
    with pytest.raises(SimkitError, match="KEY=VALUE"):
        game.rules(sets=[assignment])


def test_set_on_a_table(game):
    with pytest.raises(SimkitError, match="table"):
        game.rules(sets=["scoring=5"])
    with pytest.raises(SimkitError, match="table"):
        game.rules(sets=["company.0=5"])


def test_file_unknown_key_names_file_key_and_allowed(game, write):
    path = write('[options]\nmax_tick = 5\n')
    with pytest.raises(SimkitError) as exc:
        game.rules(rules_file=path)
    message = str(exc.value)
    assert str(path) in message and "options.max_tick" in message and "max_ticks" in message


def test_file_value_where_table_expected(game, write):
    path = write('options = 5\n')
    with pytest.raises(SimkitError, match="options"):
        game.rules(rules_file=path)


def test_broken_toml(game, write):
    path = write('[options\nmax_ticks = 5\n')
    with pytest.raises(SimkitError, match="not valid TOML") as exc:
        game.rules(rules_file=path)
    assert str(path) in str(exc.value)


def test_missing_file(game, tmp_path):
    with pytest.raises(SimkitError, match="does not exist"):
        game.rules(rules_file=tmp_path / "nope.toml")


def test_directory_as_rules_file(game, tmp_path):
    with pytest.raises(SimkitError, match="directory"):
        game.rules(rules_file=tmp_path)


def test_non_utf8_file(game, tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes(b'[company]\nname = "Caf\xe9"\n')
    with pytest.raises(SimkitError, match="UTF-8|TOML"):
        game.rules(rules_file=path)


@pytest.mark.parametrize("assignment, named", [("options={foo=1}", "options"), ("scoring={stop_bonus=5}", "scoring"),
                                                ('company=[{name="x"}]', "company")])
def test_set_whole_table_is_checked(game, assignment, named):
    # was a KeyError traceback from prepare(); a SimkitError naming the table is required
    with pytest.raises(SimkitError, match=named):
        game.prepare(game.rules(sets=[assignment]), 4)


# ---- Wheedle's validation (prepare) ----

@pytest.mark.parametrize("n, hand, official", [(2, 30, False), (3, 20, False), (4, 15, True), (5, 12, True),
                                               (6, 10, True)])
def test_player_counts_and_hands(game, n, hand, official):
    from simkit.games.wheedle import engine

    prepared = game.prepare(game.rules(), n)
    assert prepared.official is official
    assert prepared.vector[engine.R_HAND] == hand
    assert prepared.rounds == n  # rounds = "players"


@pytest.mark.parametrize("n", [0, 1, 7, 8])
def test_player_count_out_of_range(game, n):
    with pytest.raises(SimkitError) as exc:
        game.prepare(game.rules(), n)
    message = str(exc.value)
    assert "4, 5, 6" in message and str(n) in message


def test_house_counts_are_declared(game):
    assert game.player_counts == (4, 5, 6)
    assert game.house_player_counts == (2, 3)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_impossible_deck(game, n):
    # 62 cards: 61 = hand * n is impossible for every count
    with pytest.raises(SimkitError, match="company|deal") as exc:
        game.prepare(game.rules(sets=["company.0.cards=6"]), n)
    assert "62" in str(exc.value)


def test_deck_arithmetic_that_fits(game):
    # one more card per player at 4 players: 65 = 16 * 4 + 1
    rules = game.rules(sets=["company.7.cards=13", "deal.hand.4=16"])
    prepared = game.prepare(rules, 4)
    assert prepared.counts.sum() == 65
    with pytest.raises(SimkitError, match="deal.hand.5"):
        game.prepare(rules, 5)


def test_rounds_option(game):
    assert game.prepare(game.rules(sets=["options.rounds=2"]), 5).rounds == 2
    assert game.prepare(game.rules(sets=["options.rounds=players"]), 5).rounds == 5


@pytest.mark.parametrize("assignment, key", [
    ("options.gifts_allowed=3", "options.gifts_allowed"),
    ('options.false_stop_ends_round="no"', "options.false_stop_ends_round"),
    ("options.bankrupt_majority_scores=1", "options.bankrupt_majority_scores"),
    ("options.max_ticks=true", "options.max_ticks"),
    ("options.max_ticks=2.5", "options.max_ticks"),
    ('scoring.stop_bonus="five"', "scoring.stop_bonus"),
    ("company.0.cards=5.0", "company.0.cards"),
    ('company.0.name=""', "company.0.name"),
    ("company.0.name=7", "company.0.name"),
    ("options.rounds=sometimes", "options.rounds"),
    ("deal.hand.4=fifteen", "deal.hand.4"),
])
def test_wrong_types(game, assignment, key):
    rules = game.rules(sets=[assignment])
    with pytest.raises(SimkitError) as exc:
        game.prepare(rules, 4)
    assert key in str(exc.value)


@pytest.mark.parametrize("assignment, key", [
    ("options.max_ticks=0", "options.max_ticks"),
    ("options.max_ticks=-5", "options.max_ticks"),
    ("options.rounds=0", "options.rounds"),
    ("options.rounds=61", "options.rounds"),
    ("company.0.cards=0", "company.0.cards"),
    ("company.0.cards=100", "company.0.cards"),
    ("scoring.stop_bonus=5000", "scoring.stop_bonus"),
    ("scoring.bankrupt=-1001", "scoring.bankrupt"),
    ("deal.hand.4=0", "deal.hand.4"),
])
def test_out_of_range(game, assignment, key):
    with pytest.raises(SimkitError) as exc:
        game.prepare(game.rules(sets=[assignment]), 4)
    assert key in str(exc.value) and "range" in str(exc.value)


def test_duplicate_company_name(game):
    with pytest.raises(SimkitError, match="twice"):
        game.prepare(game.rules(sets=['company.1.name="Airy Dairies"']), 4)


def test_scoring_values_reach_the_kernel(game):
    from simkit.games.wheedle import engine

    rules = game.rules(sets=["scoring.stop_bonus=7", "scoring.false_stop=-9", "scoring.all_cards=3",
                             "scoring.majority=2", "scoring.bankrupt=-4", "options.gifts_allowed=false",
                             "options.false_stop_ends_round=false", "options.bankrupt_majority_scores=true",
                             "options.max_ticks=123", 'scoring.false_stopper_cards="scored"'])
    v = game.prepare(rules, 4).vector
    assert v[engine.R_FALSE_STOPPER_CARDS_SCORED] == 1
    assert game.prepare(game.rules(), 4).vector[engine.R_FALSE_STOPPER_CARDS_SCORED] == 0
    assert (v[engine.R_STOP_BONUS], v[engine.R_FALSE_STOP], v[engine.R_ALL_POINTS], v[engine.R_MAJORITY_POINTS],
            v[engine.R_BANKRUPT_POINTS]) == (7, -9, 3, 2, -4)
    assert (v[engine.R_GIFTS], v[engine.R_FALSE_STOP_ENDS_ROUND], v[engine.R_BANKRUPT_MAJORITY_SCORES],
            v[engine.R_MAX_TICKS]) == (0, 0, 1, 123)


def test_too_many_companies_rejected(game, write):
    companies = "".join(f'[[company]]\nname = "C{i}"\ncards = 5\n' for i in range(25))
    path = write(companies + "[deal]\nhouse_hand = { 2 = 62, 3 = 20 }\n")  # 125 = 62 * 2 + 1
    with pytest.raises(SimkitError, match="compan"):
        game.prepare(game.rules(rules_file=path), 2)


def test_get_game_unknown():
    with pytest.raises(SimkitError, match="wheedle"):
        get_game("chess")


@pytest.mark.parametrize("meaning, words, low, high", [
    ("1..1000000: a round nobody stops ends here", (), 1, 1_000_000),
    ("-1000..1000: per card", (), -1000, 1000),
    ("true | false: an offer may give cards for nothing", (True, False), None, None),
    ('"none" | "scored": a false stopper\'s own cards earn nothing', ("none", "scored"), None, None),
    ('"players" | 1..60: each player deals once', ("players",), 1, 60),
    ("0..die_faces: the face that loses", (), 0, "die_faces"),
])
def test_allowed_values_are_read_from_the_comment_that_opens_with_them(meaning, words, low, high):
    from simkit.rules import Allowed

    assert Allowed.parse("game.x", meaning) == Allowed("game.x", words, low, high)


@pytest.mark.parametrize("meaning", ["players = 1..99 cards, hand x players + 1 = all cards: the deal",
                                     "0..10^9 dollars: each player's cash", "cards per pack colour: dealt",
                                     "no allowed values here"])
def test_a_comment_that_opens_otherwise_declares_no_allowed_values(meaning):
    from simkit.rules import Allowed

    assert Allowed.parse("game.x", meaning) is None


@pytest.mark.parametrize("name", ["wheedle", "dweebies", "wheeler-dealer-us", "wheeler-dealer-uk"])
def test_validation_refuses_a_number_just_outside_the_range_the_rule_data_declares(name):
    """Where a rules.toml comment declares a whole-number range, the game's validation holds to it: the bound
    itself is accepted and one past it refused, naming the key (the docs and the checks say the same)."""
    from simkit.rules import RuleLayout

    game = get_game(name)
    checked = 0
    for key, allowed in RuleLayout(game.rules_path).allowed.items():
        if allowed.low is None or allowed.words or key.split(".")[-1] in ("players_min", "players_max"):
            continue   # the player count's bounds are checked by the player-count tests
        rules = game.default_rules
        low, high = allowed._bound(rules, allowed.low), allowed._bound(rules, allowed.high)
        for good, bad in ((low, low - 1), (high, high + 1)):
            game.prepare(game.rules(sets=[f"{key}={good}"]), min(game.player_counts))
            with pytest.raises(SimkitError, match=re.escape(key)):
                game.prepare(game.rules(sets=[f"{key}={bad}"]), min(game.player_counts))
        checked += 1
    assert checked or name.startswith("wheeler-dealer")


@pytest.mark.parametrize("key, entry, extra", [("game.start_hand", "red", ()),
                                               ("game.set_multiple_colour", "yellow", ()),
                                               ("game.set_multiple_size", "4", ('game.set_multiple_rule="size"',))])
def test_uk_inline_tables_check_each_entry_against_the_rule_data(key, entry, extra):
    """An inline table's comment declares what each entry allows (rules.toml, once); validation reads it there."""
    from simkit.games.wheeler_dealer_uk.rules import RULE_DATA

    game = get_game("wheeler-dealer-uk")
    allowed = RULE_DATA.each[key]
    assert key not in RULE_DATA.allowed and (allowed.low, allowed.high) == (0, 100 if key.endswith("hand") else 1000)
    game.prepare(game.rules(sets=[f"{key}.{entry}={allowed.low}", *extra]), 2)
    with pytest.raises(SimkitError) as caught:
        game.prepare(game.rules(sets=[f"{key}.{entry}={allowed.high + 1}", *extra]), 2)
    assert str(caught.value) == f"rules: {key}.{entry} = {allowed.high + 1} is out of range; allowed 0..{allowed.high}"
