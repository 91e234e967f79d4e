"""What a process is playing, in a few words of memory that another process can read: the game, the seat and
the decision under way, and a count of decisions begun. Engines call ``deciding(seat, decision)`` just before
each call into a strategy and ``rng.seed_stream`` notes each game as its streams are seeded; each is one or
two stores, which the compiled code makes through a pointer (``simkit_guard_words``, an external symbol given
to LLVM at import, so cached machine code finds it in every process).

Each process points that pointer at words of its own in shared memory (``point_at``): a pool worker at its
slot of the pool's block, the command's own process at the supervisor's (simkit.supervise). The process that
watches them tells a stuck decision (the count has not moved for ``--decision-timeout`` seconds while games are
being played) from a slow one, and names the game, seat and decision of a process that crashed or is stuck.
"""
from __future__ import annotations

import ctypes
import os

import numba
from llvmlite import binding, ir
from numba import types
from numba.extending import intrinsic

WORDS = 8       # per process: the words below, and room to spare
W_DECISIONS, W_SEAT, W_DECISION, W_GAME, W_BUSY = range(5)
DEFAULT_DECISION_TIMEOUT_S = 300.0
_SYMBOL = "simkit_guard_words"

_own = (ctypes.c_int64 * WORDS)()               # until a process is given shared words: its own
_pointer = ctypes.c_void_p(ctypes.addressof(_own))
binding.add_symbol(_SYMBOL, ctypes.addressof(_pointer))
_where = [ctypes.addressof(_own)]


def point_at(address: int) -> None:
    """Make this process's compiled code write its words at ``address`` (WORDS int64s, shared memory)."""
    _pointer.value = address
    _where[0] = address


def words() -> "ctypes.Array":
    """This process's words (W_*)."""
    return (ctypes.c_int64 * WORDS).from_address(_where[0])


def words_at(buffer, offset: int = 0) -> "ctypes.Array":
    """The words in ``buffer`` (an mmap) at byte ``offset``."""
    return (ctypes.c_int64 * WORDS).from_buffer(buffer, offset)


def decision_timeout() -> float:
    """Seconds a decision may run before the command stops (SIMKIT_DECISION_TIMEOUT, or --decision-timeout
    anywhere on a command line; 0: never)."""
    try:
        return max(0.0, float(os.environ.get("SIMKIT_DECISION_TIMEOUT", DEFAULT_DECISION_TIMEOUT_S)))
    except ValueError:
        return DEFAULT_DECISION_TIMEOUT_S


if numba.config.DISABLE_JIT:    # the interpreter: nothing to watch
    def deciding(seat, decision):
        pass

    def note_game(game):
        pass
else:
    _i64 = ir.IntType(64)

    def _words_pointer(builder):
        module = builder.module
        variable = module.globals.get(_SYMBOL)
        if variable is None:
            variable = ir.GlobalVariable(module, _i64.as_pointer(), _SYMBOL)
            variable.linkage = "external"
        return builder.load(variable)

    def _store(builder, base, index, value):
        builder.store(value, builder.gep(base, [ir.Constant(_i64, index)]))

    @intrinsic
    def deciding(typingctx, seat, decision):
        """Note that ``seat`` is about to take ``decision`` (its index in the game's decisions)."""
        def codegen(context, builder, signature, args):
            base = _words_pointer(builder)
            counter = builder.gep(base, [ir.Constant(_i64, W_DECISIONS)])
            builder.store(builder.add(builder.load(counter), ir.Constant(_i64, 1)), counter)
            _store(builder, base, W_SEAT, context.cast(builder, args[0], signature.args[0], types.int64))
            _store(builder, base, W_DECISION, context.cast(builder, args[1], signature.args[1], types.int64))
            return context.get_dummy_value()
        return types.void(seat, decision), codegen

    @intrinsic
    def note_game(typingctx, game):
        """Note that game ``game`` (its global index) is being played."""
        def codegen(context, builder, signature, args):
            _store(builder, _words_pointer(builder), W_GAME,
                   context.cast(builder, args[0], signature.args[0], types.int64))
            return context.get_dummy_value()
        return types.void(game), codegen
