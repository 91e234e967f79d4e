"""Save, and later compare, whole result datasets and replays of fixed seeds: the check that a refactoring
changed no behaviour (every column of every game bit-identical, every replay the same text).

    python tools/datasets.py save DIR [--game NAME ...] [--games N]
    python tools/datasets.py compare DIR [--game NAME ...]

``save`` plays each game's cases below (several line-ups, each level, both checking modes, a few rule
changes) and writes one .npz of all result columns per case, plus the replay text of a few games; ``compare``
plays them again and reports every case, column or replay that differs. Exit status 1 when any does. The
games are played by the tree this script is in (simkit, and the strategies and reports beside it), so
``python OTHER_TREE/tools/datasets.py save DIR`` keeps another tree's baseline.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))     # this tree's simkit, whatever is installed

from simkit.games import all_games  # noqa: E402  (after putting this tree first on sys.path)
from simkit.runner import make_batch  # noqa: E402  (after putting this tree first on sys.path)
from simkit.strategy import parse_lineup  # noqa: E402  (after putting this tree first on sys.path)

# game -> (line-ups, rule changes each is played under (on top of every level), games to replay)
CASES = {
    "wheeler-dealer-us": (
        [None, ["random"] * 4, ["dealer", "best-return", "cautious", "investor", "random", "kelly"],
         ["builder", "dealer"], ["random", "poacher", "dealer"],
         ["investor:swaps=1:premium=2:borrow_rule=2", "builder", "cautious:invest_rule=2", "random", "dealer"]],
        [(), ("game.last_player_standing=true", "game.max_turns=400"), ("game.start_cash=20000",),
         ("game.deals_per_turn=4", "game.auction_increment=1")],
        (0, 1, 7),
    ),
    "wheeler-dealer-uk": (
        [None, ["random"] * 3, ["raider", "set-at-3", "yellow-hunter", "commander", "hold-for-5", "cautious"],
         ["expert", "random"]],
        [(), ("game.borrow_on_sale=false", "game.turn_limit=50"),
         ("game.start_cash=2000", "game.at_risk_buy_multiple=0", "game.set_multiple_rule=size")],
        (0, 1),
    ),
    "wheedle": (
        [None, ["random"] * 4, ["patient", "bluffer", "contrarian", "small-first", "tuned"],
         ["never-stop", "blocker", "hair-trigger", "threshold", "bluffer",
          "collector:targets=2:offer_size=3:revise_after=2:protect=2"],
         ["hair-trigger", "patient"], ["bluffer", "random", "blocker"]],
        [(), ("options.false_stop_ends_round=false", "scoring.false_stopper_cards=scored"),
         ("options.gifts_allowed=false", "options.bankrupt_majority_scores=true", "options.max_ticks=50")],
        (0, 1),
    ),
    "dweebies": (
        [None, ["random"] * 3, ["greedy", "pair-keeper"],
         ["greedy-defensive", "line-shortener", "scorer:defend=2:expected=1:shorten=0.5:keep_pairs=1", "greedy",
          "random"],
         ["pair-keeper", "greedy-defensive", "scorer:defend=1:expected=1", "line-shortener", "greedy", "random"],
         ["rollout:samples=2", "greedy-defensive"],
         ["rollout:samples=2:depth=2:policy=0:halving=1:margin=0", "greedy", "line-shortener"]],
        [(), ("game.min_line=3",), ("game.collect=may",), ("game.split_rule=free", "game.collect=may")],
        (0, 1),
    ),
}


def _cases(game_name: str):
    game = all_games()[game_name]
    lineups, changes, replays = CASES[game_name]
    levels = [(f"game.level={level}",) for level in game.levels] or [()]
    for i, lineup in enumerate(lineups):
        for level in levels:
            for j, change in enumerate(changes):
                sets = level + change
                for check in (False, True):
                    name = f"{game_name}-l{i}-{'-'.join(s.replace('=', '_') for s in level) or 'base'}-r{j}-c{int(check)}"
                    yield name, lineup, sets, check, replays if not check and j == 0 else ()


def _flatten(columns: dict) -> dict:
    flat = {}
    for key, value in columns.items():
        if isinstance(value, dict):
            for sub, array in value.items():
                flat[f"{key}.{sub}"] = np.asarray(array)
        else:
            flat[key] = np.asarray(value)
    return flat


def _play(game_name, lineup, sets, check, replays, games, seed=2026):
    batch = make_batch(game_name, games, lineup, seed, sets=list(sets))
    columns = _flatten(batch.play(0, games, check=check))
    texts = {}
    for g in replays:
        seats = parse_lineup(game_name, list(lineup) if lineup else list(batch.game.default_lineup))
        texts[g] = batch.game.replay(batch.prepared, seats, seed, g)
    return columns, texts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("save", "compare"))
    parser.add_argument("dir", type=Path)
    parser.add_argument("--game", action="append", choices=sorted(CASES))
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    differences = 0
    for game_name in args.game or ["wheeler-dealer-us"]:
        for name, lineup, sets, check, replays in _cases(game_name):
            path = args.dir / f"{name}.npz"
            if args.mode == "save":
                columns, texts = _play(game_name, lineup, sets, check, replays, args.games)
                np.savez_compressed(path, **columns)
                for g, text in texts.items():
                    (args.dir / f"{name}-replay{g}.txt").write_text(text)
                digest = hashlib.sha256(b"".join(columns[k].tobytes() for k in sorted(columns))).hexdigest()[:12]
                print(f"saved {name}: {len(columns)} columns, {digest}")
                continue
            saved = dict(np.load(path))
            games = len(np.unique(saved["game"]))
            columns, texts = _play(game_name, lineup, sets, check, replays, games)
            bad = sorted(set(saved) ^ set(columns)) or ([] if list(saved) == list(columns) else ["column order"])
            bad += [k for k in sorted(set(saved) & set(columns))
                    if saved[k].dtype != columns[k].dtype or not np.array_equal(saved[k], columns[k])]
            for g, text in texts.items():
                if (args.dir / f"{name}-replay{g}.txt").read_text() != text:
                    bad.append(f"replay {g}")
            differences += bool(bad)
            print(f"{'DIFFERS' if bad else 'same'} {name}" + (f": {', '.join(bad)}" if bad else ""), flush=True)
    if args.mode == "compare":
        print("all identical" if not differences else f"{differences} cases differ")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
