"""Small Numba tools the engines share."""
import numba
from numba import carray, njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.typed import List


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


@njit(cache=True)
def function_list(functions):
    """A typed list of first-class functions from a tuple of them (all of one signature). One pointer to pass
    around instead of a tuple that helpers would receive by value; built in a cached function because
    typed-list operations called from Python compile on every start."""
    result = List()
    for i in range(len(functions)):
        result.append(functions[i])
    return result


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


def readonly_array(dtype, ndim: int):
    """The Numba type of a read-only array argument (what a strategy may read but not write)."""
    return types.Array(dtype, ndim, "A", readonly=True)


if numba.config.DISABLE_JIT:  # the interpreter: a view that refuses writes
    def readonly(array):
        view = array.view()
        view.flags.writeable = False
        return view
else:
    @intrinsic
    def readonly(typingctx, array):
        """The same array typed read-only, without a copy: a strategy handed it cannot write to it (a write
        is a typing error when the strategy compiles), so no strategy can corrupt the state it is shown."""
        if not isinstance(array, types.Array):
            return None

        def codegen(context, builder, signature, args):
            if context.enable_nrt:      # the result is a new reference (kernels compiled without NRT count nothing)
                context.nrt.incref(builder, signature.args[0], args[0])
            return args[0]
        return array.copy(readonly=True, layout="A")(array), codegen


def function_from_addresses(signature):
    """An intrinsic ``(wrapper, object, jit) -> function``: a first-class function of ``signature`` rebuilt from
    its three addresses (numba.experimental.function_type's model: the cfunc wrapper, the Python object,
    the body in Numba's calling convention; ``_get_wrapper_address``/``id``/``_get_jit_address``). Lets
    compiled code call a function it finds in an array, where a typed list would cost a reference count."""
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
