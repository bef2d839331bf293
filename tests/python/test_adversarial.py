"""Adversarial inputs: lying producers, unusual but legal arrays, wrong calls.

Every case runs in a subprocess, so a crash (segfault, abort) fails the cases
it killed instead of the whole test run. One subprocess per category runs all
of the category's cases and reports each outcome as a JSON line; pytest then
asserts case by case. Run a category by hand with

    python tests/python/test_adversarial.py lying      # or legal, calls, lifetimes, huge

Every case asserts, inside the subprocess: a named torchbridge exception (or
the documented exception) or a correct result; the caller's data unchanged;
and, for producers crafted here with ctypes, that torchbridge called the
producer's deleter exactly once for every capsule it consumed and never for a
capsule it did not consume.
"""

from __future__ import annotations

import ctypes
import functools
import gc
import json
import os
import subprocess
import sys
import traceback
from typing import Callable

import numpy as np

# ---------------------------------------------------------------------------
# Case registry (shared by pytest and the subprocess runner)
# ---------------------------------------------------------------------------

CASES: dict[str, dict[str, Callable[[], None]]] = {}


def case(category: str) -> Callable[[Callable[[], None]], Callable[[], None]]:
    def register(fn: Callable[[], None]) -> Callable[[], None]:
        CASES.setdefault(category, {})[fn.__name__] = fn
        return fn

    return register


def _tb():
    import torchbridge

    return torchbridge


def expect_raises(cls, fn, *args, match: str | None = None, **kwargs):
    """Calls fn and returns the exception, which must be an instance of `cls`."""
    try:
        result = fn(*args, **kwargs)
    except cls as err:
        if match is not None and match not in str(err):
            raise AssertionError(f"{type(err).__name__} without {match!r}: {err}") from err
        return err
    except BaseException as err:
        raise AssertionError(
            f"expected {_names(cls)}, got {type(err).__module__}.{type(err).__name__}: {err}"
        ) from err
    raise AssertionError(f"expected {_names(cls)}, got a result: {result!r:.200}")


def _names(cls) -> str:
    return " or ".join(c.__name__ for c in cls) if isinstance(cls, tuple) else cls.__name__


def same(a, b):
    """Exact equality, NaN equal to NaN, for the caller's-data-unchanged checks."""
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    assert np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"), "data changed"


def erf_reference(x: np.ndarray) -> np.ndarray:
    import scipy.special as sc

    return sc.erf(x)


def close(got, want, rtol=1e-15):
    got = np.asarray(got)
    want = np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True)


# ---------------------------------------------------------------------------
# Producers crafted with ctypes
# ---------------------------------------------------------------------------


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", DELETER),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", DELETER)]


READ_ONLY = 1
VERSIONED = b"dltensor_versioned"
LEGACY = b"dltensor"

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype = ctypes.c_char_p
_capsule_name.argtypes = [ctypes.py_object]

#: Every struct crafted so far, by address: its parts stay alive until the
#: end of the process (a use after release then reads poison, not freed memory).
RECORDS: dict[int, "Record"] = {}
#: Capsule names must outlive their capsules.
_NAMES: list[bytes] = []


class Record:
    def __init__(self, struct, parts, array, poison):
        self.struct = struct
        self.parts = parts
        self.array = array
        self.poison = poison
        self.calls = 0
        self.capsule = None
        self.name = b""


@DELETER
def _deleter(address):
    record = RECORDS[address]
    record.calls += 1
    if record.poison and record.calls == 1:
        # Anything still reading this memory after its release now sees NaN.
        record.array[...] = np.nan


def dl_dtype(dtype: np.dtype) -> tuple[int, int]:
    code = {"b": 6, "i": 0, "u": 1, "f": 2, "c": 5}[dtype.kind]
    return code, dtype.itemsize * 8


def craft(
    array: np.ndarray,
    *,
    name: bytes = VERSIONED,
    legacy: bool = False,
    version=(1, 3),
    flags: int = 0,
    device=(1, 0),
    edit=None,
    poison: bool = False,
    deleter: bool = True,
):
    """A capsule describing `array`'s memory, built field by field with ctypes.

    `edit(tensor, keep)` may then change any DLTensor field (`keep` holds
    ctypes arrays it allocates). The capsule has no destructor: `check_deleters`
    plays the producer's part afterwards and calls the deleter of every capsule
    nobody consumed, as a real capsule destructor would.
    """
    struct = DLManagedTensor() if legacy else DLManagedTensorVersioned()
    if not legacy:
        struct.version.major, struct.version.minor = version
        struct.flags = flags
    if deleter:
        struct.deleter = _deleter
    shape = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
    strides = (ctypes.c_int64 * max(array.ndim, 1))(*[s // array.itemsize for s in array.strides])
    tensor = struct.dl_tensor
    tensor.data = array.ctypes.data
    tensor.device.device_type, tensor.device.device_id = device
    tensor.ndim = array.ndim
    tensor.dtype.code, tensor.dtype.bits = dl_dtype(array.dtype)
    tensor.dtype.lanes = 1
    tensor.shape = shape
    tensor.strides = strides
    parts: list = [shape, strides]
    if edit is not None:
        edit(tensor, parts.append)
    address = ctypes.addressof(struct)
    record = Record(struct, parts, array, poison)
    RECORDS[address] = record
    _NAMES.append(name)
    record.capsule = _capsule_new(address, name, None)
    record.name = name
    return record.capsule, record


def set_layout(shape, strides):
    def edit(tensor, keep):
        tensor.ndim = len(shape)
        s = (ctypes.c_int64 * max(len(shape), 1))(*shape)
        t = (ctypes.c_int64 * max(len(strides), 1))(*strides)
        keep(s)
        keep(t)
        tensor.shape = s
        tensor.strides = t

    return edit


def check_deleters(records, *, consumed_expected: bool | None = True):
    """Each consumed capsule released exactly once, each other one never.

    The capsules that nobody consumed are then released here, as their
    destructor would. `consumed_expected` (when not None) also asserts whether
    torchbridge consumed them.
    """
    collect()
    if any(r.calls == 0 and _capsule_name(r.capsule).startswith(b"used_") for r in records):
        gc.collect()  # something may be held by an older cycle: a full collection decides
    for record in records:
        name = _capsule_name(record.capsule)
        consumed = name is not None and name.startswith(b"used_") and not record.name.startswith(b"used_")
        if consumed:
            assert record.calls == 1, f"consumed capsule released {record.calls} times"
        else:
            assert record.calls == 0, f"deleter of an unconsumed capsule called {record.calls} times"
            if record.struct.deleter:
                record.struct.deleter(ctypes.addressof(record.struct))
        if consumed_expected is not None:
            assert consumed == consumed_expected, f"capsule {name!r} consumed={consumed}"


def collect():
    """Frees the young cycles a case made (a full collection takes ~40 ms with
    torch loaded; the checks fall back to one when the young ones are not enough)."""
    gc.collect(1)


class Producer:
    """A producer whose __dlpack__ returns a fresh crafted capsule per call."""

    def __init__(self, array, device=(1, 0), capsule_device=None, **craft_options):
        self.array = array
        self.device = device
        self.capsule_device = capsule_device or device
        self.options = craft_options
        self.records: list[Record] = []

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        capsule, record = craft(self.array, device=self.capsule_device, **self.options)
        self.records.append(record)
        return capsule

    def __dlpack_device__(self):
        return self.device


def both_paths(producer_factory, check):
    """Runs `check` on tb.special.erf and on tb.apply with fresh producers."""
    tb = _tb()
    for call in (tb.special.erf, lambda p: tb.apply(lambda t: t + 0, p)):
        producer = producer_factory()
        check(call, producer)


# ---------------------------------------------------------------------------
# Producers that lie
# ---------------------------------------------------------------------------


def _tb_errors():
    import importlib

    return importlib.import_module("torchbridge.errors")


class _Lazy:
    """An exception class looked up in torchbridge.errors in the subprocess."""

    def __init__(self, name):
        self.name = name


def _resolve(error):
    return getattr(_tb_errors(), error.name) if isinstance(error, _Lazy) else error


def lying_case(case_name, error, edit=None, **options):
    def run():
        x = np.linspace(-2, 2, 6)
        before = x.copy()
        cls = _resolve(error)
        consumed = options.pop("consumed", True)
        match = options.pop("match", None)

        def check(call, producer):
            expect_raises(cls, call, producer, match=match)
            check_deleters(producer.records, consumed_expected=consumed)

        both_paths(lambda: Producer(x, edit=edit, **dict(options)), check)
        same(x, before)

    run.__name__ = case_name
    case("lying")(run)


DLPackError = _Lazy("DLPackError")
DtypeError = _Lazy("DtypeError")
DeviceError = _Lazy("DeviceError")


def _field(path, value):
    def edit(tensor, keep):
        target = tensor
        *parents, last = path.split(".")
        for part in parents:
            target = getattr(target, part)
        setattr(target, last, value)

    return edit


lying_case("negative_dimension", DLPackError, set_layout([-1, 3], [3, 1]), match="negative")
lying_case("huge_dimensions_overflow_the_element_count", DLPackError, set_layout([2**62, 2**62], [1, 1]))
lying_case("huge_dimension_overflows_the_byte_count", DLPackError, set_layout([2**61], [1]))
lying_case("strides_overflow_the_span", DLPackError, set_layout([4], [2**62]), match="spans more memory")
lying_case("two_axes_overflow_the_span", DLPackError, set_layout([3, 2], [2**61, 1]))
lying_case("maximal_stride", DLPackError, set_layout([2], [2**63 - 1]))
lying_case("negative_stride_overflows_the_origin", DLPackError, set_layout([3], [-(2**62)]))
lying_case("minimal_stride", DLPackError, set_layout([2, 1], [1, -(2**63)]))
lying_case("negative_stride_wraps_the_address_space", DLPackError, set_layout([2, 3], [-(2**59 - 1), 1]))
lying_case("null_data_with_elements", DLPackError, _field("data", None), match="null data")
lying_case("null_shape_pointer", DLPackError, _field("shape", None))
lying_case("negative_ndim", DLPackError, _field("ndim", -1))
lying_case("unknown_dtype_code", DtypeError, _field("dtype.code", 99), match="code 99")
lying_case("four_lanes", DtypeError, _field("dtype.lanes", 4), match="4 lanes")
lying_case("zero_lanes", DLPackError, _field("dtype.lanes", 0))
lying_case("zero_bits", DLPackError, _field("dtype.bits", 0))
lying_case("float128", DtypeError, _field("dtype.bits", 128))
lying_case("opaque_handle", DtypeError, _field("dtype.code", 3))
lying_case("future_major_version", DLPackError, version=(2, 0), match="major version")
lying_case("past_major_version", DLPackError, version=(0, 9), match="major version")
lying_case("current_version_without_strides", DLPackError, _field("strides", None))
lying_case("byte_offset_beyond_the_address_space", DLPackError, _field("byte_offset", 2**63))
lying_case("unsupported_device_in_both", DeviceError, device=(8, 0))
lying_case("capsule_says_cuda_device_says_cpu", DLPackError, capsule_device=(2, 0), match="device changed")
lying_case("capsule_says_cpu_device_says_cuda_host", DLPackError, device=(3, 0), capsule_device=(1, 0),
           match="device changed")
lying_case("capsule_says_cuda_device_says_cpu", DLPackError, device=(1, 0), capsule_device=(2, 0),
           match="device changed")
# A claimed device is checked before the producer is asked for anything: an
# unsupported one, or CUDA where libtorch sees none, consumes no capsule.
lying_case("device_says_metal", DeviceError, device=(8, 0), consumed=False, match="unsupported device")
lying_case("negative_device_id", DLPackError, device=(1, -1))
lying_case("wrong_capsule_name", DLPackError, name=b"not_a_dltensor", consumed=False)
lying_case("capsule_named_as_consumed", DLPackError, name=b"used_dltensor_versioned", consumed=False,
           match="already been consumed")
lying_case("legacy_name_on_a_legacy_struct_of_the_wrong_dtype", DtypeError, _field("dtype.code", 77),
           legacy=True, name=LEGACY)


@case("lying")
def future_minor_version_is_accepted():
    tb = _tb()
    x = np.linspace(-2, 2, 6)
    p = Producer(x, version=(1, 99))
    close(tb.special.erf(p), erf_reference(x))
    check_deleters(p.records)


@case("lying")
def pre_1_2_version_without_strides_means_row_major():
    tb = _tb()
    x = np.arange(6.0).reshape(2, 3)
    p = Producer(x, version=(1, 1), edit=_field("strides", None))
    close(tb.apply(lambda t: t * 2, p), x * 2)
    check_deleters(p.records)


@case("lying")
def legacy_producer_without_keywords():
    tb = _tb()
    x = np.linspace(-1, 1, 5)

    class Legacy:
        records = []

        def __dlpack__(self):
            capsule, record = craft(x, legacy=True, name=LEGACY)
            self.records.append(record)
            return capsule

    p = Legacy()
    close(tb.special.erf(p), erf_reference(x))
    close(tb.apply(lambda t: t * 3, p), x * 3)
    check_deleters(p.records)


@case("lying")
def null_data_for_an_empty_tensor_is_fine():
    tb = _tb()
    x = np.empty((0, 3))
    p = Producer(x, edit=_field("data", None))
    r = tb.special.erf(p)
    assert r.shape == (0, 3) and r.dtype == np.float64
    check_deleters(p.records)


@case("lying")
def null_deleter_means_the_producer_keeps_ownership():
    tb = _tb()
    x = np.linspace(-2, 2, 6)
    p = Producer(x, deleter=False)
    close(tb.special.erf(p), erf_reference(x))
    gc.collect()
    assert all(r.calls == 0 for r in p.records)


@case("lying")
def misaligned_byte_offset_is_copied():
    tb = _tb()
    raw = np.zeros(8 * 7, dtype=np.uint8)
    values = np.array([1.5, -2.25, 3.0, 1e300, -0.0, 5e-324])
    raw[1:49] = values.view(np.uint8)
    # data at an 8-aligned base, byte_offset 1: every element misaligned.
    p = Producer(raw, edit=lambda t, keep: (
        set_layout([6], [1])(t, keep),
        setattr(t.dtype, "code", 2), setattr(t.dtype, "bits", 64),
        setattr(t, "byte_offset", 1)))
    r = tb.apply(lambda t: t.clone(), p)
    assert r.tobytes() == values.tobytes()
    check_deleters(p.records)


@case("lying")
def crafted_negative_strides_are_copied_in_logical_order():
    tb = _tb()
    x = np.arange(12.0)
    before = x.copy()

    def reverse(tensor, keep):
        set_layout([3, 4], [-4, -1])(tensor, keep)
        tensor.data = x.ctypes.data + 11 * 8

    p = Producer(x, edit=reverse)
    r = tb.apply(lambda t: t.add_(100), p)  # writes land in the copy only
    same(r, x[::-1].reshape(3, 4) + 100)
    same(x, before)
    check_deleters(p.records)


@case("lying")
def read_only_flag_is_honoured_by_apply():
    tb = _tb()
    x = np.linspace(-2, 2, 6)
    before = x.copy()
    p = Producer(x, flags=READ_ONLY)
    r = tb.apply(lambda t: t.mul_(10), p)  # fn writes: it must get a copy
    same(x, before)
    close(r, before * 10)
    close(tb.special.erf(p), erf_reference(before))
    check_deleters(p.records)


@case("lying")
def sixty_five_dimensions_reach_numpy_s_limit():
    tb = _tb()
    x = np.array([0.5])
    p = Producer(x, edit=set_layout([1] * 65, [1] * 65))
    # libtorch takes 65 dimensions; NumPy (the result's library for a bare
    # producer) holds at most 64 and refuses the result: RuntimeError from
    # numpy.from_dlpack, ValueError from NumPy's C API.
    err = expect_raises((RuntimeError, ValueError), tb.special.erf, p)
    assert "dim" in str(err), err
    assert tb.apply(lambda t: t.sum().item(), p) == 0.5
    check_deleters(p.records)


@case("lying")
def same_capsule_returned_twice():
    tb = _tb()
    x = np.linspace(-2, 2, 6)
    capsule, record = craft(x)

    class Reuses:
        def __dlpack__(self, **kwargs):
            return capsule

        def __dlpack_device__(self):
            return (1, 0)

    close(tb.special.erf(Reuses()), erf_reference(x))
    expect_raises(_resolve(DLPackError), tb.special.erf, Reuses(), match="already been consumed")
    expect_raises(_resolve(DLPackError), tb.apply, lambda t: t, Reuses(), match="already been consumed")
    check_deleters([record])


def _misbehaving(name, dlpack, error, match=None, device=lambda self: (1, 0)):
    def run():
        tb = _tb()
        cls = type(name, (), {"__dlpack__": dlpack, "__dlpack_device__": device})
        for call in (tb.special.erf, lambda p: tb.apply(lambda t: t, p)):
            err = expect_raises(_resolve(error), call, cls(), match=match)
            if isinstance(err, _resolve(DLPackError)):
                assert str(err).startswith("cannot import"), err

    run.__name__ = name
    case("lying")(run)


def _raise(exc):
    def dlpack(self, **kwargs):
        raise exc

    return dlpack


_misbehaving("dlpack_returns_none", lambda self, **kw: None, DLPackError, match="neither dltensor")
_misbehaving("dlpack_returns_an_int", lambda self, **kw: 42, DLPackError)
_misbehaving("dlpack_returns_an_array", lambda self, **kw: np.ones(3), DLPackError)
_misbehaving("dlpack_raises_runtime_error", _raise(RuntimeError("producer failed")), DLPackError,
             match="producer failed")
_misbehaving("dlpack_raises_type_error", _raise(TypeError("bad keyword")), DLPackError, match="bad keyword")
_misbehaving("dlpack_raises_memory_error", _raise(MemoryError("no memory")), DLPackError)
_misbehaving("dlpack_is_not_callable", 5, DLPackError, match="not callable")
_misbehaving("dlpack_device_raises", lambda self, **kw: np.ones(3).__dlpack__(**kw), DLPackError,
             match="nodev", device=_raise(RuntimeError("nodev")))
_misbehaving("dlpack_device_wrong_length", lambda self, **kw: np.ones(3).__dlpack__(**kw), DLPackError,
             device=lambda self: (1,))
_misbehaving("dlpack_device_id_overflows", lambda self, **kw: np.ones(3).__dlpack__(**kw), DLPackError,
             device=lambda self: (1, 2**40))
_misbehaving("keyboard_interrupt_propagates", _raise(KeyboardInterrupt()), KeyboardInterrupt)
_misbehaving("system_exit_propagates", _raise(SystemExit(3)), SystemExit)


@case("lying")
def dlpack_device_returning_garbage_falls_back_to_legacy():
    tb = _tb()
    x = np.linspace(-2, 2, 5)

    class Garbage:
        def __dlpack__(self, **kwargs):
            return x.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return "cpu"

    close(tb.special.erf(Garbage()), erf_reference(x))


@case("lying")
def array_namespace_that_raises_propagates_unchanged():
    tb = _tb()

    class BadNamespace:
        def __array_namespace__(self):
            raise RuntimeError("no namespace")

        def __dlpack__(self, **kwargs):
            return np.ones(3).__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return (1, 0)

    expect_raises(RuntimeError, tb.special.erf, BadNamespace(), match="no namespace")


@case("lying")
def cuda_capsule_over_host_memory_without_cuda():
    import torch

    tb = _tb()
    if torch.cuda.is_available():
        # With a GPU, CUDA kernels would read host memory through a device
        # pointer: a lie DLPack cannot detect (see the README, "Safety and guarantees").
        return
    x = np.linspace(-2, 2, 6)
    before = x.copy()
    p = Producer(x, device=(2, 0))
    expect_raises(_resolve(_Lazy("TorchbridgeError")), tb.special.erf, p)
    same(x, before)
    check_deleters(p.records)


# ---------------------------------------------------------------------------
# Unusual but legal arrays
# ---------------------------------------------------------------------------


def legal(name, make, *, zero_copy: bool, library="numpy", write=True, special=True):
    """Registers a case: erf and apply on `make()` match NumPy/SciPy, the
    caller's array is unchanged, and the tensor apply's fn sees shares the
    caller's memory iff `zero_copy` (read-only memory is copied for apply)."""

    def run():
        tb = _tb()
        x = make()
        as_np = to_numpy
        before = as_np(x).copy()
        if special:
            got = as_np(tb.special.erf(x))
            ref = before.astype(got.dtype) if before.dtype.kind in "biu" else before
            with np.errstate(all="ignore"):
                want = erf_reference(ref)
            close(got, want, rtol=1e-6 if got.dtype == np.float32 else 1e-15)
        doubled = tb.apply(lambda t: t * 2, x)
        same(as_np(doubled), before * 2)
        seen = {}

        def identity(t):
            seen["ptr"] = t.data_ptr()
            seen["shape"] = tuple(t.shape)
            return t

        same(as_np(tb.apply(identity, x)), before)
        assert seen["shape"] == before.shape
        pointer = data_pointer(x)
        if zero_copy and before.size:
            assert seen["ptr"] == pointer, "expected a zero-copy view"
        elif before.size:
            assert seen["ptr"] != pointer, "expected a copy"
        # A write by fn reaches the caller only through a writable zero-copy view.
        if write and before.size and before.dtype.kind == "f":
            tb.apply(lambda t: t.add_(1), x)
            if zero_copy:
                same(as_np(x), before + 1)
                _restore(x, before)
        same(as_np(x), before)

    run.__name__ = name
    case("legal")(run)


def _restore(x, before):
    import torch

    if isinstance(x, torch.Tensor):
        x.detach().copy_(torch.from_numpy(before))
    else:
        np.asarray(x)[...] = before


def data_pointer(x):
    import torch

    if isinstance(x, np.ndarray):
        return x.__array_interface__["data"][0]
    if isinstance(x, torch.Tensor):
        return x.data_ptr()
    return x.unsafe_buffer_pointer()


def to_numpy(x):
    import torch

    if isinstance(x, torch.Tensor):
        return x.detach().resolve_conj().resolve_neg().numpy()
    if hasattr(x, "_array"):  # array_api_strict
        return np.asarray(x._array)
    return np.asarray(x)


def _as_strided(base, shape, strides):
    return np.lib.stride_tricks.as_strided(base, shape=shape, strides=strides)


def _unaligned(n=64, writable=True):
    raw = b"\0" + np.linspace(-3, 3, n).tobytes()
    x = np.frombuffer(bytearray(raw) if writable else raw, dtype=np.float64, count=n, offset=1)
    assert not x.flags.aligned and x.flags.writeable == writable
    return x


def _complex_at_8_mod_16():
    buf = np.zeros(2 * 64 + 2)
    off = 8 if buf.ctypes.data % 16 == 0 else 0
    z = np.frombuffer(buf, dtype=np.complex128, count=64, offset=off)
    z[:] = np.arange(64) * (1 - 2j)
    assert z.ctypes.data % 16 == 8 and z.flags.aligned  # aligned for NumPy, not for libtorch
    return _as_strided(z, (4, 1, 4, 3, 3), tuple(16 * s for s in (3, 4, 0, 1, 0)))


def _memmap(mode):
    import tempfile

    path = os.path.join(tempfile.mkdtemp(), "data.f64")
    np.linspace(-2, 2, 4096).tofile(path)
    return np.memmap(path, dtype=np.float64, mode=mode, shape=(64, 64))


legal("zero_size_with_odd_strides", lambda: np.ones((0, 3))[:, ::-1], zero_copy=True)
legal("zero_size_as_strided", lambda: _as_strided(np.ones(4), (3, 0, 2), (-8, 800, 8)), zero_copy=True)
legal("zero_dimensional", lambda: np.array(0.75), zero_copy=True)
legal("thirty_two_dimensions", lambda: np.linspace(-1, 1, 32).reshape((2,) * 5 + (1,) * 27), zero_copy=True)
legal("sixty_four_dimensions", lambda: np.full((1,) * 64, 0.3), zero_copy=True)
legal("broadcast_zero_strides", lambda: np.broadcast_to(np.linspace(-1, 1, 7), (500, 7)), zero_copy=False)
legal("broadcast_scalar_to_a_million", lambda: np.broadcast_to(np.array(0.25), (1000, 1000)), zero_copy=False)
legal("writable_zero_strides", lambda: _as_strided(np.linspace(-1, 1, 7), (50, 7), (0, 8)), zero_copy=True,
      write=False)
legal("negative_strides", lambda: np.linspace(-3, 3, 100)[::-1], zero_copy=False)
legal("negative_strides_2d", lambda: np.linspace(-3, 3, 120).reshape(10, 12)[::-2, ::3], zero_copy=False)
legal("negative_stride_on_a_length_one_axis", lambda: np.linspace(-1, 1, 6).reshape(1, 6)[::-1], zero_copy=True)
legal("unaligned_writable", _unaligned, zero_copy=False)
legal("unaligned_read_only", lambda: _unaligned(writable=False), zero_copy=False)
legal("complex128_at_8_mod_16", _complex_at_8_mod_16, zero_copy=False, special=False)
legal("complex64_at_4_mod_8", lambda: _complex64_at_4_mod_8(), zero_copy=False, special=False)
legal("fortran_order", lambda: np.asfortranarray(np.linspace(-2, 2, 60).reshape(6, 10)), zero_copy=True)
legal("transposed_view", lambda: np.linspace(-2, 2, 60).reshape(6, 10).T, zero_copy=True)
legal("stepped_view", lambda: np.linspace(-2, 2, 600).reshape(20, 30)[1::3, 2::7], zero_copy=True)
legal("read_only", lambda: _read_only(np.linspace(-2, 2, 50)), zero_copy=False)
legal("memmap_read_write", lambda: _memmap("r+"), zero_copy=True)
legal("memmap_read_only", lambda: _memmap("r"), zero_copy=False)
legal("float32_strided", lambda: np.linspace(-2, 2, 90, dtype=np.float32)[::3], zero_copy=True)
legal("int16_input", lambda: np.arange(-5, 5, dtype=np.int16), zero_copy=True)
legal("bool_input", lambda: np.array([True, False, True]), zero_copy=True)
legal("torch_expanded", lambda: _torch(lambda t: t.linspace(-1, 1, 5, dtype=t.float64).expand(4, 5)),
      zero_copy=True, library="torch", write=False)
legal("torch_channels_last", lambda: _torch(
    lambda t: t.linspace(-1, 1, 120, dtype=t.float64).reshape(2, 3, 4, 5).to(memory_format=t.channels_last)),
      zero_copy=True, library="torch")
legal("torch_requires_grad", lambda: _torch(lambda t: t.linspace(-1, 1, 5, dtype=t.float64).requires_grad_()),
      zero_copy=True, library="torch", write=False)


def _complex64_at_4_mod_8():
    buf = np.zeros(2 * 64 + 2, dtype=np.float32)
    off = 4 if buf.ctypes.data % 8 == 0 else 0
    z = np.frombuffer(buf, dtype=np.complex64, count=64, offset=off)
    z[:] = np.arange(64) * (1 + 0.5j)
    assert z.ctypes.data % 8 == 4 and z.flags.aligned
    return z[::3]


def _read_only(x):
    x.flags.writeable = False
    return x


def _torch(make):
    import torch

    return make(torch)


@case("legal")
def byte_swapped_is_a_dtype_error():
    tb = _tb()
    x = np.linspace(-1, 1, 5).astype(">f8")
    before = x.copy()
    expect_raises(_resolve(DtypeError), tb.special.erf, x, match=">f8")
    expect_raises(_resolve(DtypeError), tb.apply, lambda t: t, x)
    same(x, before)


@case("legal")
def memmap_write_through_apply_reaches_the_file():
    tb = _tb()
    m = _memmap("r+")
    tb.apply(lambda t: t.fill_(7.0), m)
    m.flush()
    assert np.all(np.fromfile(m.filename, dtype=np.float64) == 7.0)


@case("legal")
def jax_arrays_are_never_written():
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp

    tb = _tb()
    x = jnp.linspace(-2, 2, 50)
    before = np.asarray(x).copy()
    r = tb.apply(lambda t: t.add_(1), x)
    assert isinstance(r, jax.Array)
    same(np.asarray(x), before)
    same(np.asarray(r), before + 1)
    close(np.asarray(tb.special.erf(x)), erf_reference(before))


@case("legal")
def torch_conjugate_and_negative_views_give_resolved_values():
    import torch

    tb = _tb()
    z = torch.tensor([1 + 2j, -3 - 4j], dtype=torch.complex128)
    r = tb.apply(lambda t: t * 1, z.conj())
    assert torch.equal(r, torch.tensor([1 - 2j, -3 + 4j], dtype=torch.complex128))
    # z.conj().imag is a view with torch's negative bit set; torch's DLPack
    # export ignores that bit, so the import must resolve it.
    negative = z.conj().imag
    assert negative.is_neg()
    close(tb.special.erf(negative).numpy(), erf_reference(np.array([-2.0, 4.0])))
    close(tb.special.expit(negative).numpy(), 1 / (1 + np.exp([2.0, -4.0])), rtol=1e-15)
    # The conjugate bit on the import path (Container.wrap, which apply uses).
    _, container = tb._core.torch_views([np.ones(1)])
    same(container.wrap(z.conj()), np.array([1 - 2j, -3 + 4j]))
    assert z.conj().is_conj() and not z.is_conj()


@case("legal")
def torch_tensors_without_dlpack_memory_are_dlpack_errors():
    import torch

    tb = _tb()
    expect_raises(_resolve(DLPackError), tb.special.erf, torch.ones(3, device="meta"), match="meta")
    expect_raises(_resolve(DLPackError), tb.special.erf, torch.ones(3).to_sparse())


@case("legal")
def array_api_strict_input():
    import array_api_strict as xp

    tb = _tb()
    x = xp.asarray(np.linspace(-2, 2, 9))
    r = tb.special.erf(x)
    assert type(r) is type(x)
    close(np.asarray(r._array), erf_reference(np.linspace(-2, 2, 9)))


# ---------------------------------------------------------------------------
# Huge: 1e9 booleans (1 GB) stay zero-copy
# ---------------------------------------------------------------------------


@case("huge")
def a_billion_booleans_stay_zero_copy():
    import resource

    tb = _tb()
    x = np.empty(10**9, dtype=bool)
    x[:] = False  # make all 1 GB resident, so that only a copy can raise the peak
    x[::1_000_003] = True
    expected = int(np.count_nonzero(x))
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    view = tb.apply(lambda t: t, x)
    assert view.__array_interface__["data"][0] == x.__array_interface__["data"][0]
    assert tb.apply(lambda t: t.data_ptr(), x) == x.__array_interface__["data"][0]
    # count_nonzero reads every byte through the view (t.sum() would first
    # cast 1e9 booleans to int64: 8 GB in torch, nothing to do with the import).
    total = tb.apply(lambda t: t.count_nonzero(), x)
    assert int(total) == expected
    view[0] = False  # a write through the result reaches the caller's memory
    assert not x[0]
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    assert grown_mb < 500, f"peak RSS grew by {grown_mb:.0f} MB: a copy of the 1 GB input was made"


# ---------------------------------------------------------------------------
# Wrong calls
# ---------------------------------------------------------------------------

BAD_VALUES = {
    "none": None,
    "text": "text",
    "bytes": b"bytes",
    "dict": {"a": 1},
    "set": {1, 2},
    "object": object(),
    "function": len,
    "generator": (i for i in range(3)),
}


@case("calls")
def wrong_types_for_the_array_argument():
    for routine in _special_routines():
        for label, value in BAD_VALUES.items():
            err = expect_raises(_resolve(_Lazy("InputTypeError")), routine, value, match="expected an array")
            assert isinstance(err, TypeError), label


def _unary_ufunc_names():
    """torchbridge.special's routines that are one-input ufuncs in SciPy."""
    import scipy.special as sc

    tb = _tb()
    return [
        name
        for name in tb.special.__all__
        if isinstance(getattr(sc, name, None), np.ufunc) and getattr(sc, name).nin == 1
    ]


def _special_routines():
    tb = _tb()
    return [getattr(tb.special, name) for name in _unary_ufunc_names()]


@case("calls")
def unsupported_dtypes_in_lists_and_scalars():
    tb = _tb()
    for value in (["a", "b"], 10**30, [b"x"], np.array(["2026-12-01"], dtype="datetime64[D]")):
        expect_raises(_resolve(DtypeError), tb.special.erf, value)


@case("calls")
def ragged_lists_raise_numpy_s_value_error():
    tb = _tb()
    # NumPy refuses to make an array of them (ValueError, as scipy.special does).
    expect_raises(ValueError, tb.special.erf, [[1.0, 2.0], [3.0]], match="inhomogeneous")


@case("calls")
def out_and_ufunc_keywords_are_refused_and_nothing_is_written():
    Unsupported = _resolve(_Lazy("UnsupportedParameterError"))
    x = np.linspace(-1, 1, 5)
    before = x.copy()
    for routine in _special_routines():
        expect_raises(Unsupported, routine, x, out=x, match="out=")
        expect_raises(Unsupported, routine, x, x, match="out=")  # positional out, as SciPy's ufuncs
        expect_raises(Unsupported, routine, x, where=x > 0, match="where")
        expect_raises(Unsupported, routine, x, dtype=np.float32, match="dtype")
        expect_raises(TypeError, routine, x, axis=0, match="axis")  # not a ufunc option: a TypeError, as NumPy's
        expect_raises(TypeError, routine)
    same(x, before)


@case("calls")
def mixed_containers_are_refused():
    import array_api_strict as xp
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import torch

    tb = _tb()
    Mixed = _resolve(_Lazy("MixedContainersError"))
    arrays = {"numpy": np.ones(3), "torch": torch.ones(3, dtype=torch.float64), "jax": jnp.ones(3),
              "array_api_strict": xp.ones(3)}
    for a in arrays:
        for b in arrays:
            if a != b:
                err = expect_raises(Mixed, tb.apply, lambda u, v: u + v, arrays[a], arrays[b])
                assert a in str(err) and b in str(err), err
    # Python scalars and lists follow the one real array's library.
    r = tb.apply(lambda u, v, w: u + v + w, torch.ones(2, dtype=torch.float64), 1.0, [2.0, 3.0])
    assert isinstance(r, torch.Tensor) and r.tolist() == [4.0, 5.0]


@case("calls")
def mixed_devices_fail_inside_fn_with_torch_s_error():
    import torch

    tb = _tb()
    # torch tensors reach fn as they are; torch itself refuses the mix.
    expect_raises(RuntimeError, tb.apply, torch.add, torch.ones(3), torch.ones(3, device="meta"), match="device")


@case("calls")
def apply_wrong_calls():
    tb = _tb()
    x = np.arange(4.0)
    before = x.copy()
    expect_raises(TypeError, tb.apply, 5, x, match="not callable")
    expect_raises(ZeroDivisionError, tb.apply, lambda t: 1 / 0, x)
    expect_raises(IndexError, tb.apply, lambda t: t.sum(dim=7), x)  # an out-of-range axis, torch's error
    assert tb.apply(lambda t: "text", x) == "text"
    assert tb.apply(lambda: 3) == 3
    expect_raises(_resolve(_Lazy("InputTypeError")), tb.apply, lambda t: t, object())
    same(x, before)


@case("calls")
def every_parameter_of_every_routine_rejects_bad_values_cleanly():
    """Each exported routine, each parameter given bad values of every kind:
    an exception a caller can catch (TypeError, ValueError, IndexError,
    KeyError, NotImplementedError, OverflowError, a warning, or a
    TorchbridgeError), never a crash, a panic, a SystemError or a bare
    RuntimeError from torch."""
    import inspect

    tb = _tb()
    # A warning (raised as an error here) about an odd value is a clean outcome
    # too, and so is KeyError: SciPy raises it for unknown option strings
    # (scipy.linalg.inv(a, assume_a="text")), and torchbridge follows SciPy.
    allowed = (TypeError, ValueError, LookupError, NotImplementedError, OverflowError, Warning,
               _resolve(_Lazy("TorchbridgeError")))
    failures = []
    bad = list(BAD_VALUES.values()) + [-(10**30), 10**30, float("nan"), -1, 2**63, np.ones((2, 2, 2)),
                                        np.array(["x"]), [1, [2]]]
    good = np.linspace(0.1, 0.9, 8)
    checked = 0
    for module in (tb.special, getattr(tb, "fft", None), getattr(tb, "linalg", None)):
        for name in getattr(module, "__all__", []):
            routine = getattr(module, name)
            try:
                params = list(inspect.signature(routine).parameters.values())
            except (TypeError, ValueError):
                params = []
            for index, param in enumerate(params):
                if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                    continue
                for value in bad:
                    if index == 0:
                        args, kwargs = [value], {}
                    elif param.kind == param.POSITIONAL_ONLY:
                        args, kwargs = [good] * index + [value], {}
                    else:
                        args, kwargs = [good], {param.name: value}
                    try:
                        routine(*args, **kwargs)
                    except allowed:
                        pass
                    except BaseException as err:
                        failures.append(
                            f"{module.__name__}.{name}({param.name}={value!r:.40}) raised "
                            f"{type(err).__module__}.{type(err).__name__}: {str(err)[:120]}"
                        )
                    checked += 1
    assert not failures, f"{len(failures)} uncatchable outcomes:\n" + "\n".join(failures[:40])
    assert checked >= 5 * len(bad), checked


@case("calls")
def nan_and_inf_everywhere():
    import scipy.special as sc

    tb = _tb()
    edges = {
        np.float64: [np.nan, np.inf, -np.inf, -0.0, 0.0, 1e308, -1e308, 5e-324, -5e-324, 1.0],
        np.float32: [np.nan, np.inf, -np.inf, -0.0, 0.0, 3e38, -3e38, 1e-45, -1e-45, 1.0],
    }
    for dtype, values in edges.items():
        x = np.array(values, dtype=dtype)
        before = x.copy()
        special_inputs = ~np.isfinite(x)  # NaN and +-inf inputs must map exactly as SciPy's
        for name in _unary_ufunc_names():
            gots = getattr(tb.special, name)(x)
            with np.errstate(all="ignore"):
                wants = getattr(sc, name)(x)
            # (the multi-output ufuncs, sici ... airye: each output alike)
            pairs = zip(gots, wants) if isinstance(wants, tuple) else [(gots, wants)]
            for got, want in pairs:
                assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
                assert np.array_equal(got[special_inputs], want[special_inputs], equal_nan=True), (name, got, want)
                # Finite inputs (huge, subnormal, signed zeros) give no NaN where SciPy gives none.
                assert not np.any(np.isnan(got) & ~np.isnan(want)), (name, got, want)
        same(x, before)
    # Every routine of every family survives NaN and inf input.
    import warnings

    for module in (getattr(tb, "fft", None), getattr(tb, "linalg", None)):
        for name in getattr(module, "__all__", []):
            for fill in (np.nan, np.inf, -np.inf):
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")  # e.g. SciPy's LinAlgWarning on NaN input
                        getattr(module, name)(np.full((4, 4), fill))
                except (TypeError, ValueError, IndexError, NotImplementedError, ArithmeticError,
                        _resolve(_Lazy("TorchbridgeError"))):
                    pass  # a clean refusal (e.g. linalg on non-finite input) is fine; a crash is not
    r = tb.apply(lambda t: t.sum(), np.array([1.0, np.nan, np.inf]))
    assert np.isnan(r)


# ---------------------------------------------------------------------------
# Lifetimes
# ---------------------------------------------------------------------------


@case("lifetimes")
def results_survive_deletion_of_their_inputs():
    import array_api_strict as xp
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import torch

    tb = _tb()
    base = np.linspace(-2, 2, 10_000)  # above the size at which the GIL is released
    makers = {
        "numpy": lambda: base.copy(),
        "torch": lambda: torch.from_numpy(base.copy()),
        "jax": lambda: jnp.asarray(base),
        "array_api_strict": lambda: xp.asarray(base.copy()),
    }
    for lib, make in makers.items():
        x = make()
        r1 = tb.special.erf(x)
        r2 = tb.apply(lambda t: t * 2, x)
        r3 = tb.apply(lambda t: t, x)  # for numpy and torch a view of x's memory
        del x
        gc.collect()
        for r, want in ((r1, erf_reference(base)), (r2, base * 2), (r3, base)):
            assert type(r).__module__.split(".")[0] in (lib, "jaxlib", "numpy"), (lib, type(r))
            close(to_numpy(r), want)


@case("lifetimes")
def inputs_survive_deletion_of_their_results():
    import torch

    tb = _tb()
    x = np.linspace(-2, 2, 10_000)
    before = x.copy()
    for _ in range(3):
        r = tb.apply(lambda t: t, x)
        v = tb.apply(lambda t: t[::2], x)
        t = torch.from_dlpack(tb._core.torch_views([x])[0][0])
        del r, v, t
        gc.collect()
    same(x, before)
    close(tb.special.erf(x), erf_reference(before))


@case("lifetimes")
def crafted_producer_is_released_after_compute_and_results_do_not_alias_it():
    tb = _tb()
    x = np.linspace(-2, 2, 20_000)
    before = x.copy()
    p = Producer(x, poison=True)
    r = tb.special.erf(p)
    gc.collect()
    assert [rec.calls for rec in p.records] == [1], "input not released after the computation"
    # The deleter filled x with NaN: r must not read x's memory.
    close(r, erf_reference(before))
    x[...] = before


@case("lifetimes")
def crafted_producer_lives_exactly_as_long_as_its_views():
    tb = _tb()
    x = np.linspace(-2, 2, 20_000)
    before = x.copy()
    p = Producer(x, poison=True)
    v = tb.apply(lambda t: t[10:], p)  # a view of the producer's memory
    gc.collect()
    assert [rec.calls for rec in p.records] == [0], "released while a view lives"
    same(v, before[10:])
    w = v[::2]  # a numpy view of the view keeps it alive too
    del v
    gc.collect()
    assert [rec.calls for rec in p.records] == [0], "released while a numpy view of the result lives"
    same(w, before[10::2])
    del w
    gc.collect()
    assert [rec.calls for rec in p.records] == [1], "not released once after the last view"
    assert np.isnan(x).all(), "the deleter ran (poison written)"


@case("lifetimes")
def producers_are_released_when_fn_raises():
    import weakref

    tb = _tb()
    released = []
    x = np.linspace(-2, 2, 100)
    weakref.finalize(x, released.append, "x")
    p = Producer(np.linspace(-2, 2, 100))

    def boom(*tensors):
        raise ValueError("boom")

    expect_raises(ValueError, tb.apply, boom, x, match="boom")
    expect_raises(ValueError, tb.apply, boom, p, match="boom")
    del x
    gc.collect()
    assert released == ["x"], "a view leaked when fn raised"
    check_deleters(p.records)


# ---------------------------------------------------------------------------
# Subprocess runner
# ---------------------------------------------------------------------------


def _run_category(category: str, names: list[str]) -> None:
    import warnings

    import torchbridge  # noqa: F401  (import cost outside the cases)

    for name, fn in CASES[category].items():
        if names and name not in names:
            continue
        print(json.dumps({"start": name}), flush=True)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                fn()
                outcome = {"case": name, "ok": True}
            except BaseException as err:
                outcome = {
                    "case": name,
                    "ok": False,
                    "error": f"{type(err).__name__}: {err}",
                    "traceback": traceback.format_exc()[-3000:],
                }
        collect()
        print(json.dumps(outcome), flush=True)


if __name__ == "__main__":
    _run_category(sys.argv[1], sys.argv[2:])
    sys.exit(0)


# ---------------------------------------------------------------------------
# pytest side
# ---------------------------------------------------------------------------

import pytest  # noqa: E402

TIMEOUT_S = {"huge": 240}


_PROCESSES: dict[str, subprocess.Popen] = {}


def _spawn(category: str, names: list[str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), category, *names],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
    )


def _finish(process: subprocess.Popen, timeout: float) -> tuple[dict, str | None, str]:
    """Waits for a runner; returns its outcomes, the case it started last, and how it ended."""
    try:
        stdout, stderr = process.communicate(timeout=timeout)
        code = process.returncode
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
        code = "timeout"
    outcomes, started = {}, None
    for line in stdout.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if "start" in record:
                started = record["start"]
            else:
                outcomes[record["case"]] = record
    return outcomes, started, f"exit code {code}; stderr tail:\n{stderr[-3000:]}"


@functools.lru_cache(maxsize=None)
def category_results(category: str) -> dict:
    """Outcomes by case for a category. All categories start at once, each in
    a fresh interpreter; when one dies, the case it was running is recorded as
    the crash and the cases after it run again in a new interpreter."""
    if not _PROCESSES:
        for name in CASES:
            _PROCESSES[name] = _spawn(name, [])
    timeout = TIMEOUT_S.get(category, 180)
    outcomes, started, ending = _finish(_PROCESSES[category], timeout)
    while not ending.startswith("exit code 0"):
        if started is None or started in outcomes:
            break  # died outside any case (start-up or shutdown): reported by the exit test
        outcomes[started] = {"case": started, "ok": False, "crashed": True,
                             "error": f"the interpreter died or hung in this case ({ending})", "traceback": ""}
        remaining = [n for n in CASES[category] if n not in outcomes]
        if not remaining:
            break
        more, started, ending = _finish(_spawn(category, remaining), timeout)
        outcomes.update(more)
    outcomes["__ending__"] = ending
    return outcomes


@pytest.mark.parametrize(
    ("category", "name"), [(category, name) for category, cases in CASES.items() for name in cases]
)
def test_case(category, name):
    outcomes = category_results(category)
    if name not in outcomes:
        pytest.fail(f"{category}/{name} did not report ({outcomes['__ending__']})")
    outcome = outcomes[name]
    assert outcome["ok"], f"{outcome['error']}\n{outcome['traceback']}"


def test_every_category_process_exits_cleanly():
    """Interpreter shutdown after the cases (capsules, deleters, libtorch) is clean too."""
    for category in CASES:
        outcomes = category_results(category)
        assert outcomes["__ending__"].startswith("exit code 0"), outcomes["__ending__"]
        assert set(outcomes) - {"__ending__"} == set(CASES[category])
