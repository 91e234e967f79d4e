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
