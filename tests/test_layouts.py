"""Index constants follow their declarations: the public headers' and per-seat fields' places follow their names,
and each rule vector's slots follow the rule data (the allowed values its rules.toml declares) and what prepare
derives. Numba reads a module's own constants, so each module writes them out once; these tests keep them in
step with the names they stand for."""
import importlib
import json
import subprocess
import sys

import pytest

from simkit.games import get_game
from simkit.strategy import param_indices

LAYOUTS = [   # (module, names tuple, prefix of its constants, the rule layout the names follow, if any)
    ("simkit.games.wheeler_dealer_us.view", "PUBLIC_FIELDS", "PUB_", None),
    ("simkit.games.wheeler_dealer_us.view", "SEAT_FIELD_NAMES", "S_", None),
    ("simkit.games.wheeler_dealer_uk.view", "HEADER_FIELDS", "H_", "RULE_DATA"),
    ("simkit.games.wheeler_dealer_uk.view", "SEAT_FIELD_NAMES", "F_", None),
    ("simkit.games.dweebies.view", "PUBLIC_FIELDS", "PUB_", None),
    ("simkit.games.wheedle.view", "PUBLIC_FIELDS", "PUB_", None),
    ("simkit.games.wheeler_dealer_us.state", "SEAT_STATS", "S_", None),
    ("simkit.games.wheeler_dealer_uk.state", "SEAT_STATS", "S_", None),
]


@pytest.mark.parametrize("module_name, names, prefix, after", LAYOUTS)
def test_field_constants_are_their_names_places(module_name, names, prefix, after):
    import importlib

    module = importlib.import_module(module_name)
    declared = getattr(module, names)
    first = getattr(module, after).size if after else 0   # the UK header's names follow its rule vector
    expected = {name: first + place for name, place in param_indices(declared, prefix).items()}
    # a counter's constant may shorten its name (S_TURNS for turns_played): compare where the name matches
    written = {name: getattr(module, name) for name in expected if hasattr(module, name)}
    assert len(written) >= len(declared) - 6, f"{module_name}.{names}: most fields should have their constant"
    assert written == {name: expected[name] for name in written}


# (module, names tuple, prefix): every int constant with the prefix is a declared name's place and every name has one
NAMED_CODES = [
    ("simkit.games.wheeler_dealer_us.view", "PROPERTY_COLUMNS", "P_"),
    ("simkit.games.wheeler_dealer_us.view", "COMMODITY_COLUMNS", "X_"),
    ("simkit.games.wheeler_dealer_us.view", "CARD_COLUMNS", "K_"),
    ("simkit.games.wheeler_dealer_us.view", "SQUARE_COLUMNS", "B_"),
    ("simkit.games.wheeler_dealer_us.view", "SQUARE_KINDS", "SQ_"),
    ("simkit.games.wheeler_dealer_us.view", "DECISION_NAMES", "D_"),
    ("simkit.games.wheeler_dealer_uk.view", "DECISION_NAMES", "D_"),
    ("simkit.games.wheeler_dealer_us.state", "EVENT_KINDS", "E_"),
    ("simkit.games.wheeler_dealer_uk.state", "EVENT_KINDS", "E_"),
    ("simkit.games.wheedle.engine", "EVENT_KINDS", "E_"),
    ("simkit.games.dweebies.engine", "EVENT_KINDS", "E_"),
    ("simkit.games.dweebies.view", "COLLECT_RULES", "COLLECT_"),
    ("simkit.games.dweebies.view", "SPLIT_RULES", "SPLIT_"),
]


@pytest.mark.parametrize("module_name, names, prefix", NAMED_CODES)
def test_codes_are_their_names_places(module_name, names, prefix):
    """A table column, a decision or an event kind is declared once by name; its constant is the name's place, and
    no constant of that kind stands outside the declaration (a decision's function slot, a column a strategy reads
    and a replay's event kind all follow the tuple)."""
    module = importlib.import_module(module_name)
    written = {name: value for name, value in vars(module).items()
               if name.startswith(prefix) and isinstance(value, int) and not isinstance(value, bool)}
    assert written == param_indices(getattr(module, names), prefix)


def test_the_us_table_and_the_uk_packs_follow_their_declarations():
    from simkit.games.wheeler_dealer_uk import view as uk
    from simkit.games.wheeler_dealer_us import view as us

    assert us.TABLE_COLUMNS == len(us.PROPERTY_COLUMNS) - 1 + us.MAX_BLOCK   # the income column runs on, one per k
    assert us.PROPERTY_COLUMNS[-1] == "income" and us.SQUARE_KINDS[1:] == us.CORNER_KINDS
    assert (uk.RED, uk.GREEN, uk.YELLOW, uk.BLUE) == (*(uk.COLOURS.index(c) for c in ("red", "green", "yellow")),
                                                      uk.PACKS)
    assert uk.SPACE_CODES == "".join(c[0].upper() for c in uk.COLOURS) + "B"


def test_the_headers_end_where_their_fields_do():
    from simkit.games.wheedle import view as wheedle
    from simkit.games.wheeler_dealer_uk import view as uk
    from simkit.games.wheeler_dealer_us import view as us

    assert uk.HEADER == uk.RULE_DATA.size + len(uk.HEADER_FIELDS) and uk.SEAT_FIELDS == len(uk.SEAT_FIELD_NAMES)
    assert us.PUB_HOLDINGS_VERSION == len(us.PUBLIC_FIELDS) and us.PUB_HEADER == us.PUB_HOLDINGS_VERSION + us.MAX_SEATS
    assert us.SEAT_FIELDS == len(us.SEAT_FIELD_NAMES)
    assert wheedle.PUB_HEADER == len(wheedle.PUBLIC_FIELDS) == wheedle.PUB_FALSE_STOPPER_CARDS_SCORED + 1


def test_us_rule_vector_is_the_rule_data_then_what_prepare_derives():
    import importlib

    from simkit.games.wheeler_dealer_us import rules

    game = get_game("wheeler-dealer-us")
    # each option's slot is named in the engine module that plays it, the derived ones in rules.py; a slot is
    # named once (the modules after it import that name)
    named, where = {}, {}
    for module_name in ("rules", "state", "auctions", "money", "board", "cards", "engine"):
        module = importlib.import_module(f"simkit.games.wheeler_dealer_us.{module_name}")
        for name, value in vars(module).items():
            if name.startswith("R_") and name not in named:
                named[name], where[name] = value, module_name
    assert {name for name in vars(rules) if name.startswith("R_")} == \
        {"R_MIN_INVEST", "R_DECK_SIZE", "R_PARK_SQUARE", "R_SCHOOL_SQUARE"}
    assert len(set(named.values())) == len(named), "two R_ names for one slot"
    assert set(named.values()) <= set(range(rules.RULE_SIZE))
    unread = {rules.RULE_DATA.keys[slot] for slot in set(range(rules.RULE_DATA.size)) - set(named.values())}
    assert unread == {"game.players_min", "game.players_max"}   # checked by prepare, read by no kernel
    assert rules.RULE_SIZE == rules.RULE_DATA.size + len(rules.DERIVED)
    defaults = game.default_rules
    for level in (1, 2):
        changed = game.rules(sets=[f"game.level={level}", "game.start_cash=1234", "game.last_player_standing=true"])
        vector = game.prepare(changed, 4).vector
        assert [vector[rules.RULE_DATA.slot(key)] for key in rules.RULE_DATA.keys] == \
            [allowed.code(changed) for allowed in rules.RULE_DATA.allowed.values()]
        assert (vector[named["R_LEVEL"]], vector[named["R_START_CASH"]], vector[named["R_LAST_PLAYER_STANDING"]]) == (level, 1234, 1)
    vector = game.prepare(defaults, 4).vector
    assert vector[rules.R_MIN_INVEST] == defaults["game"]["min_investment"]
    assert vector[rules.R_DECK_SIZE] == defaults["game"]["deck_size"]
    corners = {corner["kind"]: corner["square"] for corner in defaults["corner"]}
    assert (vector[rules.R_PARK_SQUARE], vector[rules.R_SCHOOL_SQUARE]) == (corners["park"], corners["school"])


@pytest.mark.parametrize("name, view_module", [("wheeler-dealer-us", "simkit.games.wheeler_dealer_us.view"),
                                               ("wheeler-dealer-uk", "simkit.games.wheeler_dealer_uk.view"),
                                               ("dweebies", "simkit.games.dweebies.rules")])
def test_the_player_counts_the_rule_data_allows_fit_the_engine(name, view_module):
    import importlib

    from simkit.rules import RuleLayout

    allowed = RuleLayout(get_game(name).rules_path).allowed["game.players_max"]
    assert allowed.high <= importlib.import_module(view_module).MAX_SEATS


def test_the_uk_set_sizes_the_rule_data_allows_fit_the_engine():
    from simkit.games.wheeler_dealer_uk import rules, view

    assert rules.RULE_DATA.allowed["game.min_set"].high <= view.MAX_SET


def test_dweebies_words_are_the_views_codes():
    from simkit.games.dweebies import rules, view

    assert rules.RULE_DATA.allowed["game.collect"].words == view.COLLECT_RULES
    assert rules.RULE_DATA.allowed["game.split_rule"].words == view.SPLIT_RULES


# (game package, the state module, the first constant laid out after the seats' counters)
COUNTED_STATES = [("wheeler_dealer_us", "state", "ST_PUBLIC"), ("wheeler_dealer_uk", "state", "ST_SET_SIZES")]


@pytest.mark.parametrize("package, state_module, after", COUNTED_STATES)
def test_a_counter_declared_in_the_games_init_is_laid_out_with_no_other_edit(package, state_module, after):
    """The rule option recipe's counter (docs/architecture.md): a name appended to SEAT_STATS in the game's
    __init__.py is laid out by the state module with no line there (the module that counts it names its place,
    SEAT_STATS.index(name)): a seat's counters grow by one, every other counter keeps its place, and what follows
    the counters moves along. Played out in a fresh interpreter, where the package's tuple is extended first."""
    module = importlib.import_module(f"simkit.games.{package}.{state_module}")
    assert module.SEAT_STATS is importlib.import_module(f"simkit.games.{package}").SEAT_STATS
    constants = sorted(name for name in vars(module) if name.startswith("S_") and isinstance(getattr(module, name), int)
                       and name not in vars(importlib.import_module(f"simkit.games.{package}.view")))
    script = (f"import json, simkit.games.{package} as package\n"
              "package.SEAT_STATS = package.SEAT_STATS + ('added_by_the_recipe',)\n"
              f"from simkit.games.{package} import {state_module} as state\n"
              f"print(json.dumps([state.N_STATS, state.SEAT_STATS.index('added_by_the_recipe'), state.{after}, "
              f"[getattr(state, name) for name in {constants!r}]]))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    n_stats, added, moved, places = json.loads(done.stdout.splitlines()[-1])
    assert (n_stats, added) == (module.N_STATS + 1, module.N_STATS)
    assert moved == getattr(module, after) + module.MAX_SEATS
    assert places == [getattr(module, name) for name in constants] and len(constants) == module.N_STATS


@pytest.mark.parametrize("name, package, sets", [
    ("wheedle", "wheedle", ["scoring.false_stopper_cards=\"scored\"", "options.gifts_allowed=false", "options.rounds=2"]),
    ("dweebies", "dweebies", ["game.collect=\"may\"", "game.min_line=3", "game.split_rule=\"free\""])])
def test_wheedle_and_dweebies_rule_vectors_are_the_rule_data_then_what_prepare_derives(name, package, sets):
    """As the US game's: a slot per declared option, coded as the rule data codes it, then the derived values; so
    an option added later has its slot without a line in rules.py (the engine names it: RULE_DATA.slot)."""
    rules = importlib.import_module(f"simkit.games.{package}.rules")
    game = get_game(name)
    named = {name: value for name, value in vars(rules).items() if name.startswith("R_")}
    assert len(set(named.values())) == len(named), "two R_ names for one slot"
    for changes in ([], sets):
        effective = game.rules(sets=changes)
        vector = game.prepare(effective, 4).vector
        assert list(vector[:rules.RULE_DATA.size]) == [allowed.code(effective)
                                                       for allowed in rules.RULE_DATA.allowed.values()]
        assert len(vector) == rules.RULE_DATA.size + len(getattr(rules, "DERIVED", ()))
    if name == "wheedle":
        assert (vector[rules.R_HAND], vector[rules.R_ROUNDS]) == (15, 2)
        assert (vector[rules.R_GIFTS], vector[rules.R_FALSE_STOPPER_CARDS_SCORED]) == (0, 1)


def test_the_uk_header_opens_with_the_rule_vector_the_rule_data_derives():
    """The UK game's compiled rules are its public table's header, which opens with the rule vector as the other
    games': a slot per declared option, coded as the rule data codes it (a fraction in ten-thousandths), so an
    option added later has its place with no line in view.py or rules.py. The rules strategies read keep their
    names (H_LOAN_BP is game.at_risk_loan_fraction's slot), and rules.py fills none of them by hand."""
    from simkit.games.wheeler_dealer_uk import rules, view

    game = get_game("wheeler-dealer-uk")
    assert rules.RULE_DATA is view.RULE_DATA
    named = {"H_MIN_SET": "game.min_set", "H_BUY_MULTIPLE": "game.buy_from_player_multiple",
             "H_RAID_MULTIPLE": "game.at_risk_buy_multiple", "H_LOAN_BP": "game.at_risk_loan_fraction",
             "H_INTEREST_BP": "game.at_risk_interest", "H_HANDLERS_BP": "game.handlers_charge",
             "H_BLUE_BONUS": "game.blue_outer_bonus", "H_TURN_LIMIT": "game.turn_limit",
             "H_BORROW_ON_SALE": "game.borrow_on_sale"}
    assert {name: getattr(view, name) for name in named} == {name: view.RULE_DATA.slot(key) for name, key in named.items()}
    assert not set(named) & set(vars(rules)) and not {name for name in vars(rules) if name.startswith("R_")}
    sets = ["game.at_risk_loan_fraction=0.3333", "game.at_risk_interest=1.25", "game.handlers_charge=0",
            "game.borrow_on_sale=false", 'game.set_multiple_rule="size"', "game.turn_limit=77"]
    for changes in ([], sets):
        effective = game.rules(sets=changes)
        table = game.prepare(effective, 3).table
        assert list(table[:view.RULE_DATA.size]) == [allowed.code(effective)
                                                     for allowed in view.RULE_DATA.allowed.values()]
    assert (table[view.H_LOAN_BP], table[view.H_INTEREST_BP], table[view.H_HANDLERS_BP]) == (3333, 12500, 0)
    assert (table[view.H_BORROW_ON_SALE], table[view.H_TURN_LIMIT], table[view.H_PLAYERS]) == (0, 77, 3)
    assert table[view.RULE_DATA.slot("game.set_multiple_rule")] == 1
