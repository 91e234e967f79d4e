"""Readable text of one recorded dice race: every roll of every turn, from the engine's own event log."""
from __future__ import annotations

from . import engine

E = engine


def format_replay(prepared, seats, seed: int, game: int, out: dict) -> str:
    target, faces, bust_face = (int(prepared.vector[slot]) for slot in (E.R_TARGET, E.R_FACES, E.R_BUST_FACE))
    bust = f"{bust_face} busts" if bust_face else "no face busts"
    lines = [f"Dice race, game {game} of seed {seed}: {prepared.n_players} players, target {target}, "
             f"a {faces}-sided die, {bust}"]
    lines += [f"  seat {p}: {seat.label}" for p, seat in enumerate(seats)]
    rolls, round_shown = [], -1
    for when, seat, kind, a, b, _, _ in out["events"].tolist():
        if when != round_shown:
            lines.append(f"round {when + 1}")
            round_shown = when
        if kind == E.E_ROLL:
            rolls.append(str(a))
            continue
        if kind == E.E_ILLEGAL:
            rolls.append(f"(answered {a}: illegal, stops)")
            continue
        said = {E.E_BUST: f"busts, loses {a}", E.E_HOLD: f"holds {a}, banked {b}",
                E.E_FINISH: f"reaches the target: {a} this turn, {b} in all"}[kind]
        lines.append(f"  seat {seat} rolls {' '.join(rolls)}: {said}")
        rolls = []
    if out["events_lost"]:
        lines.append(f"({out['events_lost']} events not recorded)")
    points = out["stats"][0, :, E.S_POINTS]
    winners = [p for p in range(prepared.n_players) if out["winner"][0, p]]
    how = "round limit reached; most points" if out["game"][0, E.G_LIMIT_HIT] else "first to the target"
    lines.append(f"WINNER ({how}): " + ", ".join(f"seat {p} ({seats[p].label}) with {points[p]}" for p in winners))
    return "\n".join(lines) + "\n"
