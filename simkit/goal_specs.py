"""Design goals and constraints as written (``--goal``, ``--constraint``): read and checked in plain Python
(no numpy or pandas), so that the command line refuses a bad one before the library loads (simkit.cli.early)
with the very functions ``simkit.analysis.design`` calls. An expression may use numbers, fields, arithmetic,
comparisons, subscripts by a constant and the functions FUNCTION_NAMES (simkit.analysis.goals evaluates it
over the balance card's facts), within simkit.limits' bounds."""
from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass

from .errors import SimkitError
from .limits import MAX_CONSTANT, MAX_EXPONENT, MAX_EXPRESSION_CHARS, MAX_EXPRESSION_NODES

FUNCTION_NAMES = ("abs", "sqrt", "log", "exp", "min", "max")     # simkit.analysis.goals.FUNCTIONS
NAMED_GOALS = ("seat-balance", "length=TARGET", "spread", "spread=max", "decisive", "min:EXPR", "max:EXPR")


def _check_expression(text: str, where: str) -> ast.Expression:
    """Parse an expression over the fields: numbers, names, arithmetic, comparisons, subscripts by a constant
    and the functions in FUNCTION_NAMES; anything else (attributes, lambdas, comprehensions) is refused."""
    if len(text) > MAX_EXPRESSION_CHARS:
        raise SimkitError(f"{where}: the expression is {len(text):,} characters long; the limit is {MAX_EXPRESSION_CHARS:,}")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise SimkitError(f"{where}: {text.strip()[:80]!r} is not an expression ({exc.msg})") from None
    except (RecursionError, MemoryError):
        raise SimkitError(f"{where}: the expression is nested too deeply") from None
    _check_bounds(tree, where)
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Load, ast.Constant, ast.Subscript, ast.Call,
               ast.operator, ast.unaryop, ast.IfExp, ast.Compare, ast.cmpop, ast.Tuple)
    for node in ast.walk(tree):
        if not isinstance(node, allowed):
            raise SimkitError(f"{where}: {type(node).__name__.lower()} is not allowed in an expression; use "
                              "numbers, fields, + - * / ** and " + ", ".join(FUNCTION_NAMES))
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in FUNCTION_NAMES):
            raise SimkitError(f"{where}: only the functions {', '.join(FUNCTION_NAMES)} may be called")
        if isinstance(node, ast.Call) and node.keywords:
            raise SimkitError(f"{where}: functions take no keyword arguments here")
    return tree


def _constant(node) -> float | None:
    """The value of a number written in an expression, with its sign (None: not a plain number)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _constant(node.operand)
        return None if inner is None else (-inner if isinstance(node.op, ast.USub) else inner)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    return None


def _check_bounds(tree, where: str) -> None:
    """Operators and constants are bounded (simkit.limits): at most MAX_EXPRESSION_NODES nodes, numbers up to
    MAX_CONSTANT, and a power's exponent a written number of at most MAX_EXPONENT, so no expression can run
    for minutes (``9**9**9**9``) or build huge integers."""
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_EXPRESSION_NODES:
        raise SimkitError(f"{where}: the expression has {len(nodes)} parts; the limit is {MAX_EXPRESSION_NODES}")
    for node in nodes:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
                and not isinstance(node.value, bool) and not abs(node.value) <= MAX_CONSTANT:
            raise SimkitError(f"{where}: the number {node.value:.3g} is beyond the limit of {MAX_CONSTANT:g}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            exponent = _constant(node.right)
            if exponent is None or abs(exponent) > MAX_EXPONENT:
                raise SimkitError(f"{where}: a power's exponent must be a number from -{MAX_EXPONENT} to "
                                  f"{MAX_EXPONENT}, not {ast.unparse(node.right)[:40]}")


def _names(tree) -> set[str]:
    calls = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and id(n) not in calls}


def expression_names(expression: str, where: str) -> set[str]:
    """The fields an expression reads."""
    return _names(_check_expression(expression, where))


@dataclass(frozen=True)
class Goal:
    """One objective: an expression over the fields, minimised or maximised; ``column`` names it in tables
    (a name with ``win`` or ``share`` in it is shown as a percentage)."""

    text: str
    expression: str
    direction: str        # "minimize" | "maximize"
    column: str
    meaning: str
    rate: bool = False    # a share or a difference of win rates: shown as a percentage

    @property
    def sign(self) -> int:
        """+1 when smaller is better."""
        return 1 if self.direction == "minimize" else -1


@dataclass(frozen=True)
class Constraint:
    """``expression <= bound`` or ``expression >= bound``; its value (expression - bound, or bound -
    expression) is at most 0 when met, as Optuna's constraints take it."""

    text: str
    expression: str
    op: str
    bound: float
    column: str
    rate: bool = False

    def slack(self, value):
        return value - self.bound if self.op == "<=" else self.bound - value


def parse_goal(text: str, number: int) -> Goal:
    """A ``--goal``: seat-balance, length=TARGET, spread[=min|max], decisive, min:EXPR or max:EXPR."""
    raw = str(text).strip()
    if len(raw) > MAX_EXPRESSION_CHARS:
        raise SimkitError(f"--goal: {len(raw):,} characters; the limit is {MAX_EXPRESSION_CHARS:,}")
    where = f"--goal {raw}"
    name, sep, arg = raw.partition("=")
    name, arg = name.strip(), arg.strip()
    if raw.startswith(("min:", "max:")):
        expression = raw[4:].strip()
        if not expression:
            raise SimkitError(f"{where}: give an expression after {raw[:4]}")
        _check_expression(expression, where)
        return Goal(raw, expression, "minimize" if raw.startswith("min:") else "maximize", f"goal_{number}",
                    f"{raw[:3]}imise {expression}")
    if name == "seat-balance" and not sep:
        return Goal(raw, "seat_advantage", "minimize", "largest_win_advantage",
                    "the largest seat advantage (win rate minus the average seat's), minimised", True)
    if name == "length" and sep:
        try:
            target = float(arg)
        except ValueError:
            raise SimkitError(f"{where}: TARGET must be a number (a median length in the game's length "
                              "unit)") from None
        if not math.isfinite(target) or target <= 0:
            raise SimkitError(f"{where}: TARGET must be a positive number")
        label = f"{target:g}".replace(".", "_").replace("-", "m")
        return Goal(raw, f"abs(length - {target!r})", "minimize", f"length_off_{label}",
                    f"the median game length's distance from {target:g}, minimised")
    if name == "spread" and arg in ("", "min", "max") and (sep or not arg):
        direction = "maximize" if arg == "max" else "minimize"
        return Goal(raw, "spread", direction, "win_spread",
                    f"the win-rate gap between the best and the worst strategy, {direction[:-1]}ed", True)
    if name == "decisive" and not sep:
        return Goal(raw, "decisive", "maximize", "decisive_share", "the share of games not stopped at a limit, "
                    "maximised", True)
    raise SimkitError(f"{where}: unknown goal; allowed: {', '.join(NAMED_GOALS)}")


def parse_constraint(text: str, number: int) -> Constraint:
    """A ``--constraint``: ``EXPR<=NUMBER`` or ``EXPR>=NUMBER`` (e.g. ``length<=80``, ``bankrupt>=0.1``)."""
    raw = str(text).strip()
    if len(raw) > MAX_EXPRESSION_CHARS:
        raise SimkitError(f"--constraint: {len(raw):,} characters; the limit is {MAX_EXPRESSION_CHARS:,}")
    where = f"--constraint {raw}"
    match = re.fullmatch(r"(.+?)\s*(<=|>=|<|>)\s*([-+0-9.eE]+)\s*", raw)
    if not match:
        raise SimkitError(f"{where}: expected EXPR<=NUMBER or EXPR>=NUMBER, e.g. length<=80 or bankrupt>=0.1")
    expression, op, bound = match.groups()
    try:
        value = float(bound)
    except ValueError:
        raise SimkitError(f"{where}: {bound!r} is not a number") from None
    _check_expression(expression, where)
    return Constraint(raw, expression.strip(), "<=" if op.startswith("<") else ">=", value, f"constraint_{number}")


def parse_goals(goal, constraint=()) -> tuple[list[Goal], list[Constraint]]:
    """``design``'s goals (one or a list, at least one, no two the same) and constraints (one or a list), in the
    order they are checked: shared by ``simkit.analysis.design`` and the command line's early check."""
    goal_items = [goal] if isinstance(goal, str) else list(goal or [])
    if not goal_items:
        raise SimkitError("design needs at least one --goal; allowed: seat-balance, length=TARGET, spread, "
                          "spread=max, decisive, min:EXPR, max:EXPR")
    goals = [parse_goal(text, i + 1) for i, text in enumerate(goal_items)]
    if len({g.column for g in goals}) != len(goals):
        raise SimkitError("--goal: the same goal is given twice")
    constraint_items = [constraint] if isinstance(constraint, str) else list(constraint or [])
    return goals, [parse_constraint(text, i + 1) for i, text in enumerate(constraint_items)]
