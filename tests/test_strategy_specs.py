"""Line-up specs (simkit/strategy.py): names, parameters, labels, user strategies, and the W7 baseline."""
import textwrap

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.strategy import MAX_PARAMS, Seat, Strategy, parse_lineup, parse_seat, registered

EXPECTED = {"collector", "hair-trigger", "threshold", "patient", "never-stop", "bluffer", "blocker", "small-first",
            "contrarian", "random"}


def test_registered_strategies():
    shipped = registered("wheedle")
    assert EXPECTED <= set(shipped)
    for name, strategy in shipped.items():
        assert strategy.name == name and strategy.game == "wheedle"
        assert set(strategy.decisions) == {"act", "accept"}
        assert strategy.doc
        assert len(strategy.params) <= MAX_PARAMS


def test_presets_share_the_collector_family():
    shipped = registered("wheedle")
    assert list(shipped["threshold"].params) == list(shipped["collector"].params)
    assert shipped["never-stop"].params["stop"] != shipped["hair-trigger"].params["stop"]
    assert shipped["random"].params == {"accept": 0.5}


def test_parse_name_and_parameters():
    seat = parse_seat("wheedle", "threshold:points=30")
    assert seat.strategy is registered("wheedle")["threshold"]
    assert seat.overrides == {"points": 30.0}
    assert seat.values["points"] == 30.0
    assert seat.label == "threshold:points=30"
    vector = seat.vector()
    assert vector[list(seat.strategy.params).index("points")] == 30.0
    assert vector.shape == (MAX_PARAMS,)


def test_label_omits_default_values_and_keeps_fractions():
    default = registered("wheedle")["threshold"].params["points"]
    assert parse_seat("wheedle", f"threshold:points={default:g}").label == "threshold"
    assert parse_seat("wheedle", f"threshold:points={default + 1:g}").label == f"threshold:points={default + 1:g}"
    assert parse_seat("wheedle", "random:accept=0.25").label == "random:accept=0.25"
    assert parse_seat("wheedle", " hair-trigger ").label == "hair-trigger"


def test_several_parameters():
    seat = parse_seat("wheedle", "collector:stop=1:points=25:protect=2")
    assert seat.overrides == {"stop": 1.0, "points": 25.0, "protect": 2.0}
    assert seat.label == "collector:stop=1:points=25:protect=2"


@pytest.mark.parametrize("spec, message", [
    ("nosuch", "unknown strategy 'nosuch'"),
    ("threshold:pointz=3", "unknown parameter 'pointz'"),
    ("threshold:points=abc", "KEY=NUMBER"),
    ("threshold:points=", "KEY=NUMBER"),
    ("", "empty strategy"),
    ("nosuchmodule_xyz:thing", "cannot import module"),
    ("simkit.strategies.wheedle:nope", "not a simkit Strategy"),
    ("simkit.strategies.wheedle:np", "not a simkit Strategy"),
])
def test_bad_specs(spec, message):
    with pytest.raises(SimkitError, match=message):
        parse_seat("wheedle", spec)


def test_unknown_strategy_lists_the_shipped_ones():
    with pytest.raises(SimkitError) as exc:
        parse_seat("wheedle", "nosuch")
    assert all(name in str(exc.value) for name in EXPECTED)


def test_parse_lineup_forms():
    strategy = registered("wheedle")["blocker"]
    seats = parse_lineup("wheedle", ["random", strategy, Seat(strategy, {"protect": 3.0}), "threshold:points=9"])
    assert [s.label for s in seats] == ["random", "blocker", "blocker:protect=3", "threshold:points=9"]
    assert [s.label for s in parse_lineup("wheedle", "random,blocker")] == ["random", "blocker"]
    with pytest.raises(SimkitError, match="empty"):
        parse_lineup("wheedle", "random,,blocker")


def test_module_attr_strategy(tmp_path, clean_sys_path):
    (tmp_path / "specmod_a.py").write_text(textwrap.dedent("""
        from simkit.strategy import Strategy, registered

        def act(hand, public, seen, params, memory, state, action):
            return 0

        mine = Strategy.build("wheedle", "mine", base=registered("wheedle")["hair-trigger"], act=act,
                              params={"extra": 2})
        dweebies = 5
    """))
    clean_sys_path.chdir(tmp_path)
    seat = parse_seat("wheedle", "specmod_a:mine:extra=3:points=21")
    assert seat.strategy.name == "mine"
    assert seat.strategy.module == "specmod_a"
    assert seat.overrides == {"extra": 3.0, "points": 21.0}
    assert seat.label == "mine:extra=3:points=21"
    # accept comes from the base, act is the user's
    assert seat.strategy.decisions["accept"] is registered("wheedle")["hair-trigger"].decisions["accept"]
    assert seat.strategy.decisions["act"].py_func.__module__ == "specmod_a"
    with pytest.raises(SimkitError, match="not a simkit Strategy"):
        parse_seat("wheedle", "specmod_a:dweebies")
    with pytest.raises(SimkitError, match="unknown parameter"):
        parse_seat("wheedle", "specmod_a:mine:nope=1")


def test_build_errors():
    def act(hand, public, seen, params, memory, state, action):
        return 0

    with pytest.raises(SimkitError, match="accept"):
        Strategy.build("wheedle", "half", act=act)
    with pytest.raises(SimkitError, match="unknown decision 'bid'"):
        Strategy.build("wheedle", "odd", base=registered("wheedle")["random"], bid=act)
    with pytest.raises(SimkitError, match="at most"):
        Strategy.build("wheedle", "big", base=registered("wheedle")["random"],
                       params={f"p{i}": i for i in range(MAX_PARAMS)})
    with pytest.raises(SimkitError, match="unknown game"):
        Strategy.build("chess", "x", act=act)


# ---- W7: the random baseline draws uniformly over the distinct legal actions ----

def legal_actions(hand, centre, can_stop, gifts):
    """Independent enumeration of W7's list."""
    n = len(hand)
    gives = [(-1, 0)] + [(c, k) for c in range(n) for k in (1, 2) if hand[c] >= k]
    wants = [(-1, 0)] + [(c, m) for c in range(n) for m in (1, 2)]
    actions = set()
    for g, k in gives:
        for w, m in wants:
            if k + m == 0 or (k > 0 and m > 0 and g == w):
                continue
            if not gifts and (k == 0 or m == 0):
                continue
            actions.add(("offer", g, k, w, m))
    actions |= {("swap", c) for c in range(n) if hand[c] > 0 and c != centre}
    if can_stop:
        actions.add(("stop",))
    actions.add(("pass",))
    return actions


@pytest.mark.parametrize("gifts, can_stop", [(1, 1), (0, 1), (1, 0)])
def test_random_enumerates_w7_actions(gifts, can_stop):
    from simkit.games.wheedle.view import (
        A_GIVE,
        A_GIVE_COUNT,
        A_WANT,
        A_WANT_COUNT,
        OFFER,
        PASS,
        PUB_CAN_STOP,
        PUB_CENTRE,
        PUB_COMPANIES,
        PUB_GIFTS_ALLOWED,
        STOP,
        SWAP,
        public_length,
    )
    from simkit.strategies.wheedle import _random_legal

    hand = np.array([0, 1, 2, 3, 0, 0, 5, 1, 3], np.int64)
    public = np.zeros(public_length(9, 4), np.int64)
    public[PUB_COMPANIES] = 9
    public[PUB_CENTRE] = 6
    public[PUB_CAN_STOP] = can_stop
    public[PUB_GIFTS_ALLOWED] = gifts
    action = np.zeros(5, np.int64)
    count = _random_legal(hand, public, -1, action)
    expected = legal_actions(hand, 6, can_stop, gifts)
    assert count == len(expected)
    drawn = set()
    for i in range(count):
        action[:] = 0
        kind = _random_legal(hand, public, i, action)
        if kind == OFFER:
            drawn.add(("offer", *[int(action[j]) for j in (A_GIVE, A_GIVE_COUNT, A_WANT, A_WANT_COUNT)]))
        elif kind == SWAP:
            drawn.add(("swap", int(action[A_GIVE])))
        elif kind == STOP:
            drawn.add(("stop",))
        else:
            assert kind == PASS
            drawn.add(("pass",))
    assert drawn == expected, "each index is a distinct legal action and every legal action has an index"


def test_random_rarely_stops():
    """W7: drawing uniformly over actions (not over types) makes STOP rare at any one tick."""
    from simkit.games.wheedle.view import (
        PUB_CAN_STOP,
        PUB_CENTRE,
        PUB_COMPANIES,
        PUB_GIFTS_ALLOWED,
        STOP,
        public_length,
    )
    from simkit.strategies.wheedle import random_act

    hand = np.array([2, 1, 2, 1, 2, 1, 2, 2, 2], np.int64)
    public = np.zeros(public_length(9, 4), np.int64)
    public[PUB_COMPANIES], public[PUB_CENTRE], public[PUB_CAN_STOP], public[PUB_GIFTS_ALLOWED] = 9, 0, 1, 1
    state = np.zeros(4, np.uint64)
    state[:] = [1, 2, 3, 4]
    kinds = [random_act(hand, public, np.zeros((3, 4, 9), np.int64), np.zeros(16), np.zeros(104), state,
                        np.zeros(5, np.int64)) for _ in range(3000)]
    assert 0 < kinds.count(STOP) / len(kinds) < 0.02


# ---- parameter declarations (Param): range, kind and meaning ----

def _declared():
    from simkit.strategy import Param

    random = registered("wheedle")["random"]
    return Strategy.build("wheedle", "declared", base=random, params={
        "accept": Param(0.5, 0.0, 1.0, doc="chance of accepting a fillable offer"),
        "patience": Param(20, 0, 500, "int", "ticks to wait"),
        "greedy": Param(0, kind="bool", doc="take every gift"),
        "order": Param(1, kind="choice", choices=("closest", "small-first", "uncontested"), doc="target order")})


@pytest.mark.parametrize("spec, message", [
    ("accept=1.5", "parameter accept=1.5 is not allowed; accept is float 0..1 (chance of accepting a fillable offer)"),
    ("patience=2.5", "parameter patience=2.5 is not allowed; patience is int 0..500 (ticks to wait)"),
    ("greedy=2", "parameter greedy=2 is not allowed; greedy is switch 0/1 (take every gift)"),
    ("order=3", "parameter order=3 is not allowed; order is 0 closest, 1 small-first, 2 uncontested (target order)"),
    ("accept=nan", "parameter accept=nan is not allowed"),
])
def test_values_outside_a_declared_parameter_are_refused(spec, message):
    strategy = _declared()
    key, _, value = spec.partition("=")
    with pytest.raises(SimkitError, match="strategy declared: " + message.replace("(", r"\(").replace(")", r"\)")):
        Seat(strategy, {key: float(value)}).vector()


def test_declared_parameters_keep_their_range_in_presets_and_accept_valid_values():
    from simkit.strategy import preset

    strategy = _declared()
    assert Seat(strategy, {"accept": 1.0, "patience": 7, "greedy": 1, "order": 2}).vector()[:4].tolist() == [1, 7, 1, 2]
    child = Strategy.build("wheedle", "child", base=strategy, params={"patience": 40})
    assert child.declared["patience"].high == 500 and child.params["patience"] == 40
    with pytest.raises(SimkitError, match="patience=600 is not allowed"):
        Strategy.build("wheedle", "child", base=strategy, params={"patience": 600})
    with pytest.raises(SimkitError, match="has no parameter 'patiense'"):
        preset(strategy, "typo", "a misspelt parameter", patiense=3)
