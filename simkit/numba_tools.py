"""Small Numba tools the engines share: uncounted and read-only views, the event log's writer, and the engine
context (one int64 vector that finds a batch's arrays and decision functions by their addresses)."""
import functools

import numba
import numpy as np
from numba import carray, njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array

from . import numba_cache  # noqa: F401  (installs the cache's locators before the kernels below)


@intrinsic
def _voidptr(typingctx, address):
    """An integer address as a void pointer (for numba.carray)."""
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)
    return types.voidptr(types.intp), codegen


if numba.config.DISABLE_JIT:  # the interpreter keeps the arrays (benchmarks compare against it)
    def unmanaged(array):
        return array
else:
    @njit(inline="always", cache=True)
    def unmanaged(array):
        """A view of ``array`` without a reference count. Every array a helper binds costs an atomic
        increment and decrement of its count; a kernel's caller keeps the arrays alive, so an engine can
        work on uncounted views (measured in the US engine: a logging call 38 ns -> 2 ns). Only for arrays
        that outlive the kernel call."""
        return carray(_voidptr(array.ctypes.data), array.shape, array.dtype)


if numba.config.DISABLE_JIT:  # the interpreter (benchmarks compare against it) has no intrinsics
    def trailing_zeros(value):
        """The index of the lowest set bit of ``value`` (not 0)."""
        value = int(value)
        return (value & -value).bit_length() - 1
else:
    from numba.cpython.unsafe.numbers import trailing_zeros  # noqa: F401  (for bit-mask walks)


# The event log an engine keeps for replays: a fixed-capacity int64 array [capacity, EVENT_FIELDS], one row an
# event: when (the game's clock: its turn or round), who (a seat, -1 for none), what (the game's E_* kind),
# and four arguments whose meaning the game documents with its kinds.
EVENT_FIELDS = 7
EV_TIME, EV_SEAT, EV_KIND, EV_A, EV_B, EV_C, EV_D = range(EVENT_FIELDS)


@njit(inline="always", cache=True)
def append_event(events, count, time, seat, kind, a, b, c, d):
    """Write an event as row ``count`` of the log ``events`` and return the new count. Past the log's
    capacity nothing is written but the count still grows, so a replay can say how many events it lost."""
    if count < events.shape[0]:
        events[count, EV_TIME] = time
        events[count, EV_SEAT] = seat
        events[count, EV_KIND] = kind
        events[count, EV_A] = a
        events[count, EV_B] = b
        events[count, EV_C] = c
        events[count, EV_D] = d
    return count + 1


def uncounted(signature, inline: bool = False):
    """Decorator: compile a helper or decision once, for an explicit signature, cached, and without reference
    counting. For code that allocates nothing: with counting, every array argument of a call that is not
    inlined costs a call into the runtime and back. ``inline``: inline it where it is called (a small check in
    a loop, whose usual early answer then costs no call)."""
    return njit(signature, cache=True, _nrt=False, inline="always" if inline else "never")


def inlined(func):
    """Decorator: an engine's small helper, compiled into each caller (cached). Only small ones: inlining the
    larger helpers of the US engine gained under 10% and made its first compilation take minutes."""
    return njit(inline="always", cache=True)(func)


def readonly_array(dtype, ndim: int, layout: str = "A"):
    """The Numba type of a read-only array argument (what a strategy may read but not write): of any layout
    ("A", what ``readonly`` shows), or C-ordered ("C", what ``readonly_c`` shows)."""
    return types.Array(dtype, ndim, layout, readonly=True)


if numba.config.DISABLE_JIT:  # the interpreter: a view that refuses writes
    def readonly(array):
        view = array.view()
        view.flags.writeable = False
        return view

    readonly_c = readonly
else:
    def _readonly(layout):
        def as_readonly(typingctx, array):
            if not isinstance(array, types.Array) or (layout == "C" and array.layout != "C"):
                return None

            def codegen(context, builder, signature, args):
                if context.enable_nrt:      # the result is a new reference (kernels compiled without NRT count nothing)
                    context.nrt.incref(builder, signature.args[0], args[0])
                return args[0]
            return array.copy(readonly=True, layout=layout)(array), codegen
        return as_readonly

    @intrinsic
    def readonly(typingctx, array):
        """The same array typed read-only, without a copy: a strategy handed it cannot write to it (a write
        is a typing error when the strategy compiles), so no strategy can corrupt the state it is shown."""
        return _readonly("A")(typingctx, array)

    @intrinsic
    def readonly_c(typingctx, array):
        """readonly for a C-ordered array, typed C-ordered still: code compiled for it indexes it without
        reading strides (in the UK game's strategies, loops over every commodity, about 10% of a batch)."""
        return _readonly("C")(typingctx, array)


# ---- the engine context: one int64 vector through which a kernel's helpers find every array of a batch --------
# An engine keeps a batch in a few arrays: its private int64 ``state`` vector, and others (rule tables, the
# strategies' floats, random streams, the event log, the table of decision functions). Its helpers all take
# ``ctx``, which is the state vector alone: ``make_context`` stores the other arrays' addresses in state fields
# (store_addresses), and each helper rebuilds the array it needs as an uncounted view (array_at, view).
# A helper call then passes one array (7 words) rather than a tuple of six (50 words, and a reference count
# each): about 15 ns a call in the US engine. Decision functions are found the same way: a row of three
# addresses each (function_addresses), made a first-class function again where it is called
# (function_from_addresses), not a typed list, whose reference count and item lookup cost about 20 ns a decision.
# The caller keeps every array alive while the kernel runs. The interpreter (NUMBA_DISABLE_JIT, which
# ``simkit bench`` times) looks the arrays and functions up by those addresses instead.
_BY_ADDRESS: dict = {}   # the interpreter: address -> array or function


if numba.config.DISABLE_JIT:
    def array_at(address, rows, columns, dtype):
        return _BY_ADDRESS[address]

    def vector_at(address, length, dtype):
        return _BY_ADDRESS[address]

    def view(array, start, length):
        return array[start:start + length]
else:
    def _array_at(context, builder, array_type, address, shape):
        item = context.get_data_type(array_type.dtype)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(item))
        strides = [itemsize]
        for extent in reversed(shape[1:]):
            strides.insert(0, builder.mul(extent, strides[0]))
        array = make_array(array_type)(context, builder)
        populate_array(array, data=builder.inttoptr(address, item.as_pointer()),
                       shape=cgutils.pack_array(builder, shape), strides=cgutils.pack_array(builder, strides),
                       itemsize=itemsize, meminfo=None)
        return array._getvalue()

    @intrinsic
    def array_at(typingctx, address, rows, columns, dtype):
        """The C-ordered rows x columns array of ``dtype`` at an integer address (store_addresses), without a
        reference count (numba.carray, an overload, cannot return an array it made in code compiled without one)."""
        array_type = types.Array(dtype.dtype, 2, "C")

        def codegen(context, builder, signature, args):
            return _array_at(context, builder, array_type, args[0], [args[1], args[2]])
        return array_type(types.int64, types.int64, types.int64, dtype), codegen

    @intrinsic
    def vector_at(typingctx, address, length, dtype):
        """The vector of ``length`` items of ``dtype`` at an integer address, as array_at."""
        array_type = types.Array(dtype.dtype, 1, "C")

        def codegen(context, builder, signature, args):
            return _array_at(context, builder, array_type, args[0], [args[1]])
        return array_type(types.int64, types.int64, dtype), codegen

    @intrinsic
    def view(typingctx, array, start, length):
        """array[start:start + length] for a 1-d C array, without a reference count and without the slice's
        clamping of its bounds (an engine's parts of its state are in range by construction)."""
        def codegen(context, builder, signature, args):
            source = make_array(array)(context, builder, value=args[0])
            itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(array.dtype)))
            result = make_array(array)(context, builder)
            populate_array(result, data=builder.gep(source.data, [args[1]]),
                           shape=cgutils.pack_array(builder, [args[2]]), strides=cgutils.pack_array(builder, [itemsize]),
                           itemsize=itemsize, meminfo=None)
            return result._getvalue()
        return array(array, types.intp, types.intp), codegen


CTX = types.Array(types.int64, 1, "C")   # the Numba type of ``ctx``: the state vector


def context_helper(restype, *args):
    """Decorator: an engine helper ``helper(ctx, *args) -> restype`` (``types.none``: returns nothing), compiled
    once for that explicit signature and uncounted (it allocates nothing). Called with literal constants (event
    kinds, contexts, zeros), Numba would otherwise compile a specialisation for every combination of values
    (over a hundred for the US engine's logger alone; minutes of compilation). The US and UK engines' helpers
    are all made so."""
    return uncounted(restype(CTX, *args))


def kernel_context(arrays):
    """What an engine's helpers take, ``ctx``, for the arrays of its make_context: the state vector, first."""
    return arrays[0]


def store_addresses(state, fields, arrays) -> None:
    """Write each array's address into ``state[field]`` (array_at finds it there). Each array must be
    C-contiguous and kept alive by the caller while a kernel runs on ``state``."""
    for field, array in zip(fields, arrays):
        if not array.flags.c_contiguous:
            raise ValueError("store_addresses: the array must be C-contiguous")
        address = array.ctypes.data
        if numba.config.DISABLE_JIT:
            _BY_ADDRESS[address] = array
        state[field] = address


class ContextGame:
    """One game of an engine built on the context (make_context's arrays, one game's worth), stopped between two
    turns, to be copied and played on: the US and UK engines' GameState. Each engine says which arrays a game
    writes (``written``: index in the arrays -> the state's address field; the state itself is always copied),
    where the state keeps the seat to play next and how the game ended (-1 while it goes on), the kernel that
    plays on for a budget of turns (``play_on(ctx, turns) -> over``) and how its finished row is read
    (``result``)."""

    written: tuple = ()          # ((index in the arrays, ST_*_ADDRESS field), ...)
    next_seat_field: int
    end_field: int
    play_on = None               # the engine's kernel, a staticmethod

    def __init__(self, arrays):
        self.arrays = arrays

    def copy(self):
        """An independent copy: playing it on changes nothing in this one."""
        arrays = [self.arrays[0].copy(), *self.arrays[1:]]
        for index, field in self.written:
            arrays[index] = self.arrays[index].copy()
        store_addresses(arrays[0], [field for _, field in self.written], [arrays[i] for i, _ in self.written])
        return type(self)(tuple(arrays))

    @property
    def over(self) -> bool:
        return bool(self.arrays[0][self.end_field] >= 0)

    @property
    def next_seat(self) -> int:
        """The seat whose turn comes next."""
        return int(self.arrays[0][self.next_seat_field])

    def step(self, turns: int = -1) -> bool:
        """Play on for at most ``turns`` turns (-1: to the end of the game); True once the game is over."""
        if self.over:
            return True
        return bool(self.play_on(kernel_context(self.arrays), int(turns)))

    def _check_over(self):
        if not self.over:
            raise ValueError("GameState.result: the game is not over; step it to its end first")


@functools.lru_cache(maxsize=64)
def function_addresses(signature, functions) -> np.ndarray:
    """The [function, 3] int64 table of a tuple of compiled functions of ``signature``: the three addresses
    of each (numba.experimental.function_type's model: the cfunc wrapper, the Python object, the body in
    Numba's calling convention), which function_from_addresses turns back into a function. Kept per tuple
    (looking the addresses up took about 2 ms a chunk); the cache holds the functions, and so keeps them
    alive while any kernel runs on their table."""
    if numba.config.DISABLE_JIT:
        for function in functions:
            _BY_ADDRESS[id(function)] = function
        return np.array([[0, id(function), 0] for function in functions], np.int64).reshape(len(functions), 3)
    from numba.experimental.function_type import _get_jit_address, _get_wrapper_address

    return np.array([[_get_wrapper_address(f, signature), id(f), _get_jit_address(f, signature)] for f in functions],
                    np.int64).reshape(len(functions), 3)


def function_from_addresses(signature):
    """An intrinsic ``(wrapper, object, jit) -> function``: a first-class function of ``signature`` rebuilt from
    its three addresses (a row of function_addresses). Lets compiled code call a function it finds in an
    array, where a typed list would cost a reference count."""
    if numba.config.DISABLE_JIT:
        return lambda wrapper, obj, jit: _BY_ADDRESS[obj]
    function_type = types.FunctionType(signature)

    @intrinsic
    def from_addresses(typingctx, wrapper, obj, jit):
        def codegen(context, builder, sig, args):
            function = cgutils.create_struct_proxy(function_type)(context, builder)
            function.c_addr = builder.inttoptr(args[0], cgutils.voidptr_t)
            function.py_addr = builder.inttoptr(args[1], cgutils.voidptr_t)
            function.jit_addr = builder.inttoptr(args[2], cgutils.voidptr_t)
            return function._getvalue()
        return function_type(types.int64, types.int64, types.int64), codegen
    return from_addresses


# ---- read-only means read-only: the two routes by which compiled code could still write to a read-only view ----
# Numba refuses ``view[i] = v`` (and every view, ufunc ``out=`` or in-place operator) on an array typed read-only,
# but ``view.flat[i] = v`` and ``np.nditer(view)`` write through it unchecked. Neither is needed to read an array
# (index it, or iterate ``view.ravel()``), so both are refused for read-only arrays where the code is typed: a
# strategy that uses them fails to compile, in one line, like any other write to what the engine shows it.
def _close_readonly_routes() -> None:
    from numba.core.errors import NumbaTypeError
    from numba.core.typing.arraydecl import ArrayAttribute
    from numba.core.typing.npydecl import NdIter

    if getattr(ArrayAttribute, "_simkit_closed", False):
        return
    flat, nditer = ArrayAttribute.resolve_flat, NdIter.generic

    def resolve_flat(self, ary):
        if not ary.mutable:
            raise NumbaTypeError(f".flat of a read-only array ({ary}) could write to it")
        return flat(self, ary)

    def generic(self, args, kws):
        arrays = args[0] if args and isinstance(args[0], types.BaseTuple) else args[:1]
        if any(isinstance(a, types.Array) and not a.mutable for a in arrays):
            raise NumbaTypeError("np.nditer over a read-only array could write to it")
        return nditer(self, args, kws)

    ArrayAttribute.resolve_flat, NdIter.generic = resolve_flat, generic
    ArrayAttribute._simkit_closed = True


if not numba.config.DISABLE_JIT:
    _close_readonly_routes()
