"""Bounds errors that name their array. A strategy that is not simkit's own is compiled with Numba's bounds
checking (simkit.strategy), whose IndexError says only "index is out of bounds". While such a strategy
compiles, ``naming_arrays`` makes every check it plants carry, as its message, which array it guards and
where: the decision's own argument by its role (its memory, random stream, answer buffer or a read-only
argument), or an array of a helper by its name, with the file and line. The message is a constant compiled
into the check, so a run pays nothing more than for the bare check."""
from __future__ import annotations

import re
import threading
from contextlib import contextmanager
from pathlib import Path

from numba.core import cgutils, ir, types
from numba.core.lowering import Lower

PAST_THE_END, BEFORE_THE_START = "index past the end of ", "index before the start of "   # how messages begin
_lowering = threading.local()                # (lowering, instruction) being lowered, innermost last


def argument_roles(signature) -> list[str]:
    """What each argument of a decision is, in words: "memory" (its writable float64 array), "random stream"
    (writable uint64), "answer buffer" (writable int64), "read-only argument" (any other array), "" (a
    scalar)."""
    roles = []
    for arg in signature.args:
        if not isinstance(arg, types.Array):
            roles.append("")
        elif arg.mutable:
            roles.append({"float64": "memory", "uint64": "random stream", "int64": "answer buffer"}
                         .get(str(arg.dtype), "writable argument"))
        else:
            roles.append("read-only argument")
    return roles


def _indexed(instruction):
    """The variable an instruction indexes (a store or a load through ``[]``), or None."""
    if isinstance(instruction, (ir.SetItem, ir.StaticSetItem)):
        return instruction.target
    if isinstance(instruction, ir.Assign) and isinstance(instruction.value, ir.Expr) \
            and instruction.value.op in ("getitem", "static_getitem"):
        return instruction.value.value
    return None


def _source_name(func_ir, variable, depth: int = 4) -> tuple[str, bool]:
    """The source name behind ``variable`` (SSA versions and temporaries followed back to a named array) and
    whether the array is a view made from it (a slice, an attribute)."""
    name, view = variable.name, False
    while name.startswith("$") and depth > 0:
        try:
            made = func_ir.get_definition(name)
        except KeyError:
            return "", view
        if isinstance(made, ir.Expr) and made.op in ("getitem", "static_getitem", "getattr"):
            name, view, depth = made.value.name, True, depth - 1
        else:
            return "", view
    return ("" if name.startswith("$") else re.sub(r"\.\d+$", "", name)), view


def _array_words(lowering, instruction, decision, roles) -> str:
    variable = _indexed(instruction)
    name, view = _source_name(lowering.func_ir, variable) if variable is not None else ("", False)
    in_decision = lowering.func_ir.func_id.func is decision
    arg_names = list(lowering.func_ir.arg_names)
    if not name:
        what = "an array"
    elif in_decision and name in arg_names and roles[arg_names.index(name)]:
        what = f"its {roles[arg_names.index(name)]} {name}"
    elif in_decision:
        what = f"array {name}"
    else:
        what = f"array {name} in {lowering.func_ir.func_id.func_name}"
    if view:
        what = f"a view of {what}"
    loc = instruction.loc
    return f"{what} ({Path(loc.filename).name}, line {loc.line})"


@contextmanager
def naming_arrays(decision, signature):
    """While ``decision`` (a Python function, compiled for ``signature`` inside this block) and the helpers it
    calls compile, each bounds check made raises an IndexError naming its array (PAST_THE_END or
    BEFORE_THE_START, then the array and where)."""
    roles = argument_roles(signature)
    plain_lower, plain_check = Lower.lower_inst, cgutils.do_boundscheck
    stack = _lowering.__dict__.setdefault("stack", [])

    def lower_inst(self, instruction):
        stack.append((self, instruction))
        try:
            return plain_lower(self, instruction)
        finally:
            stack.pop()

    def do_boundscheck(context, builder, index, length, axis=None):
        if not stack:
            return plain_check(context, builder, index, length, axis)
        array = _array_words(*stack[-1], decision, roles)
        for outside, words in ((builder.icmp_signed(">=", index, length), PAST_THE_END),
                               (builder.icmp_signed("<", index, index.type(0)), BEFORE_THE_START)):
            with cgutils.if_unlikely(builder, outside):
                context.call_conv.return_user_exc(builder, IndexError, (words + array,))

    Lower.lower_inst, cgutils.do_boundscheck = lower_inst, do_boundscheck
    try:
        yield
    finally:
        Lower.lower_inst, cgutils.do_boundscheck = plain_lower, plain_check
