"""Where computation happens: ``device=``, the CUDA paths and the stream hand-off.

The first half runs everywhere: ``device="cpu"``, the refusals, and what a
machine without CUDA says. The second half (``gpu`` marker) needs a CUDA
device and skips, with the reason, where there is none: CuPy, JAX-GPU and
torch-CUDA round trips, device pointers, stream ordering, ``device=`` moves,
and each family on CUDA against SciPy on the host copy.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
import scipy.fft as sf
import scipy.linalg as sl
import scipy.special as sc
import torch
from conftest import LIBRARIES, library_type, require_cuda, require_cupy, require_jax_gpu, to_library, to_numpy

import torchbridge as tb

SEED = 20261201
CUDA = torch.cuda.is_available()


@pytest.fixture
def x():
    return np.random.default_rng(SEED).normal(size=1000)


# ---------------------------------------------------------------------------
# device= on any machine
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("device", ["cpu", "CPU", " cpu ", torch.device("cpu")])
def test_device_cpu_computes_the_same_and_returns_the_callers_type(lib, device, x):
    a = to_library(lib, x)
    for routine, args in [
        (tb.special.erf, (a,)),
        (tb.special.xlogy, (2.0, a)),
        (tb.special.logsumexp, (a,)),
        (tb.fft.rfft, (a,)),
        (tb.linalg.norm, (a,)),
    ]:
        got = routine(*args, device=device)
        want = routine(*args)
        if isinstance(want, library_type(lib)):
            assert isinstance(got, library_type(lib)), (routine, type(got))
        np.testing.assert_array_equal(to_numpy(got), to_numpy(want))


def test_every_family_takes_device_on_a_composite(x):
    a = x[:16].reshape(4, 4) + 4 * np.eye(4)
    np.testing.assert_array_equal(tb.linalg.expm(a, device="cpu"), tb.linalg.expm(a))
    np.testing.assert_array_equal(tb.fft.dctn(a, type=3, device="cpu"), tb.fft.dctn(a, type=3))
    assert tb.special.factorial(np.arange(6), exact=True, device="cpu").tolist() == [1, 1, 2, 6, 24, 120]


@pytest.mark.parametrize(
    ("device", "match"),
    [
        ("mps", "not a device torchbridge computes on"),
        ("tpu:0", "not a device torchbridge computes on"),
        ("cpu:1", "not a device torchbridge computes on"),
        ("cuda:x", "the ordinal is not an integer"),
        ("cuda:-1", "negative ordinal"),
        (3.5, "got float"),
        (0, "got int"),
        (["cuda"], "got list"),
    ],
)
def test_bad_device_values_name_what_is_accepted(device, match, x):
    for call in (lambda: tb.special.erf(x, device=device), lambda: tb.fft.fft(x, device=device),
                 lambda: tb.apply(torch.sin, x, device=device)):
        with pytest.raises(tb.DeviceError, match=match) as info:
            call()
        assert "accepted: None, 'cpu', 'cuda', 'cuda:N' or a torch.device" in str(info.value)
        assert isinstance(info.value, ValueError)


def test_a_cuda_ordinal_beyond_the_visible_devices_is_refused(x):
    beyond = torch.cuda.device_count()
    with pytest.raises(tb.DeviceError, match=f"device='cuda:{beyond}' cannot be used"):
        tb.special.erf(x, device=f"cuda:{beyond}")
    with pytest.raises(tb.DeviceError, match="cannot be used"):
        tb.linalg.inv(np.eye(2), device=torch.device("cuda", beyond))


@pytest.mark.skipif(CUDA, reason="checks what a machine without CUDA says; this one has CUDA")
def test_without_cuda_device_cuda_says_so(x):
    assert tb.info()["cuda_available"] is False and tb.info()["cuda_devices"] == 0
    for device in ("cuda", "cuda:0", torch.device("cuda")):
        with pytest.raises(tb.DeviceError, match="libtorch sees no CUDA device"):
            tb.special.erf(x, device=device)
        with pytest.raises(tb.DeviceError, match="libtorch sees no CUDA device"):
            tb.apply(torch.sin, x, device=device)


class _Recorder:
    """A DLPack producer over a numpy array that records how it was asked."""

    def __init__(self, array, device=(1, 0)):
        self.array, self.device, self.calls = array, device, []

    def __dlpack__(self, **kwargs):
        self.calls.append(kwargs)
        return self.array.__dlpack__(max_version=kwargs.get("max_version"))

    def __dlpack_device__(self):
        return self.device


def test_host_memory_is_asked_for_without_a_stream(x):
    producer = _Recorder(x)
    np.testing.assert_array_equal(tb.special.erf(producer), tb.special.erf(x))
    assert len(producer.calls) == 1
    assert producer.calls[0].get("stream") is None  # the array API: None for CPU
    assert producer.calls[0]["max_version"][0] >= 1


@pytest.mark.skipif(CUDA, reason="checks the refusal on a machine without CUDA; this one has CUDA")
def test_cuda_memory_without_cuda_is_refused_before_the_producer_exports(x):
    producer = _Recorder(x, device=(2, 0))
    with pytest.raises(tb.DeviceError, match=r"from cuda:0: cuda:0 is not a CUDA device libtorch sees"):
        tb.special.erf(producer)
    assert producer.calls == []  # never asked: nothing consumed, nothing to release
    managed = _Recorder(x, device=(13, 0))  # CUDA managed memory
    with pytest.raises(tb.DeviceError):
        tb.apply(torch.sin, managed)
    assert managed.calls == []


def test_apply_device_cpu_on_host_data_is_still_zero_copy(x):
    a = x.copy()
    pointer = tb.apply(lambda t: t.data_ptr(), a, device="cpu")
    assert pointer == a.ctypes.data
    tb.apply(lambda t: t.mul_(2), a, device="cpu")
    np.testing.assert_array_equal(a, 2 * x)


def test_apply_device_passes_fn_keywords_and_returns_the_callers_type(x):
    t = torch.from_numpy(x.copy())
    got = tb.apply(torch.add, t, 1.0, device="cpu", alpha=2)
    assert isinstance(got, torch.Tensor) and got.device.type == "cpu"
    np.testing.assert_array_equal(got.numpy(), x + 2.0)
    got = tb.apply(torch.add, x, 1.0, device=torch.device("cpu"), alpha=2)
    assert isinstance(got, np.ndarray)


def test_a_failing_call_leaves_no_device_behind(x):
    with pytest.raises(tb.DtypeError):
        tb.special.erf(np.array(["a"]), device="cpu")
    # The next call, without device=, computes where the data is, as before.
    got = tb.apply(lambda t: t.device.type, x)
    assert got == "cpu"
    assert isinstance(tb.special.erf(x), np.ndarray)


def test_device_scopes_are_per_thread(x):
    errors = []
    want = tb.special.erf(x)

    def worker(device):
        try:
            for _ in range(200):
                got = tb.special.erf(x, device=device) if device else tb.special.erf(x)
                np.testing.assert_array_equal(got, want)
        except Exception as err:  # pragma: no cover - reported below
            errors.append(err)

    threads = [threading.Thread(target=worker, args=(d,)) for d in ("cpu", None, "cpu", None)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


# ---------------------------------------------------------------------------
# On a GPU (marker `gpu`)
# ---------------------------------------------------------------------------


@pytest.mark.gpu
def test_rust_side_sees_the_same_devices_as_torch():
    require_cuda()
    info = tb.info()
    assert info["cuda_available"] is True
    assert info["cuda_devices"] == torch.cuda.device_count()


@pytest.mark.gpu
def test_torch_cuda_round_trip_stays_on_the_device(x):
    require_cuda()
    t = torch.from_numpy(x).cuda()
    got = tb.special.erf(t)
    assert isinstance(got, torch.Tensor) and got.device == t.device
    np.testing.assert_allclose(to_numpy(got), sc.erf(x), rtol=1e-13, atol=1e-300)
    # zero-copy in: the tensor fn sees is the caller's memory
    assert tb.apply(lambda v: v.data_ptr(), t) == t.data_ptr()


@pytest.mark.gpu
def test_cupy_round_trip_is_zero_copy_both_ways(x):
    cupy = require_cupy()
    c = cupy.asarray(x)
    got = tb.special.erf(c)
    assert isinstance(got, cupy.ndarray) and got.device.id == c.device.id
    np.testing.assert_allclose(got.get(), sc.erf(x), rtol=1e-13, atol=1e-300)
    assert tb.apply(lambda v: (v.is_cuda, v.data_ptr()), c) == (True, c.data.ptr)
    # a write through the view is the caller's memory
    tb.apply(lambda v: v.mul_(2), c)
    np.testing.assert_array_equal(c.get(), 2 * x)

    # results come out without a copy: the CuPy array views torch's memory
    def plus_one(v):
        w = v + 1
        return w, w.data_ptr()

    out, pointer = tb.apply(plus_one, c)
    assert isinstance(out, cupy.ndarray) and out.data.ptr == pointer


@pytest.mark.gpu
def test_jax_gpu_round_trip_stays_on_the_device(x):
    device = require_jax_gpu()
    import jax

    a = jax.device_put(x, device)
    got = tb.special.erf(a)
    assert isinstance(got, jax.Array)
    assert got.devices() == {device}
    np.testing.assert_allclose(np.asarray(got), sc.erf(x), rtol=1e-13, atol=1e-300)
    assert tb.apply(lambda v: v.is_cuda, a) is True


@pytest.mark.gpu
def test_large_cuda_arrays_are_not_copied():
    cupy = require_cupy()
    free_before = cupy.cuda.runtime.memGetInfo()[0]
    big = cupy.zeros(2**28, dtype=cupy.float32)  # 1 GiB
    for _ in range(8):
        assert tb.apply(lambda v: v.data_ptr(), big) == big.data.ptr
    assert cupy.cuda.runtime.memGetInfo()[0] >= free_before - 2 * big.nbytes


def _pending_write(cupy, target, value, rounds=400):
    """Queues slow work on CuPy's current stream that ends by writing `value`
    into `target`: a reader not ordered after that stream sees old values."""
    scratch = cupy.ones(2**24, dtype=cupy.float64)
    for _ in range(rounds):
        cupy.multiply(scratch, 1.0000001, out=scratch)
    target[...] = value


@pytest.mark.gpu
def test_import_orders_after_the_producers_stream():
    cupy = require_cupy()
    for trial in range(10):
        x = cupy.zeros(1 << 20, dtype=cupy.float64)
        side = cupy.cuda.Stream(non_blocking=True)
        with side:
            _pending_write(cupy, x, 1.0 + trial)
            # libtorch computes on its own stream; the hand-off must order it
            got = tb.special.erf(x)
        side.synchronize()
        torch.cuda.synchronize()
        np.testing.assert_array_equal(got.get(), np.full(x.size, sc.erf(1.0 + trial)))


@pytest.mark.gpu
def test_export_orders_before_the_consumers_stream():
    cupy = require_cupy()
    side_torch = torch.cuda.Stream()
    for trial in range(10):
        x = cupy.full(1 << 20, 0.5 + trial, dtype=cupy.float64)
        with torch.cuda.stream(side_torch):
            # libtorch queues on its side stream; CuPy then reads on its own
            slow = torch.ones(2**24, dtype=torch.float64, device="cuda")
            for _ in range(400):
                slow.mul_(1.0000001)
            got = tb.special.erf(x)
        consumer = cupy.cuda.Stream(non_blocking=True)
        with consumer:
            doubled = got * 2  # queued on CuPy's stream, right after the export
        consumer.synchronize()
        np.testing.assert_array_equal(doubled.get(), np.full(x.size, 2 * sc.erf(0.5 + trial)))


@pytest.mark.gpu
def test_torch_side_streams_are_honoured():
    require_cuda()
    side = torch.cuda.Stream()
    for trial in range(10):
        with torch.cuda.stream(side):
            x = torch.full((1 << 20,), 0.25 + trial, dtype=torch.float64, device="cuda")
            got = tb.special.erf(x)  # libtorch's current stream is `side` here
            total = got.sum()
        side.synchronize()
        assert total.item() == pytest.approx(x.numel() * sc.erf(0.25 + trial), rel=1e-12)


@pytest.mark.gpu
def test_device_cuda_moves_host_inputs_and_returns_host_results(x):
    require_cuda()
    got = tb.special.erf(x, device="cuda")
    assert isinstance(got, np.ndarray)
    np.testing.assert_allclose(got, sc.erf(x), rtol=1e-13, atol=1e-300)
    seen = tb.apply(lambda t: (t.device.type, t.data_ptr() == x.ctypes.data), x, device="cuda")
    assert seen == ("cuda", False)  # an explicit copy on the GPU
    t = torch.from_numpy(x)
    back = tb.fft.rfft(t, device="cuda:0")
    assert back.device.type == "cpu"
    np.testing.assert_allclose(back.numpy(), sf.rfft(x), rtol=1e-12, atol=1e-12)
    # the caller's arrays are never written through a copy
    before = x.copy()
    tb.apply(lambda t: t.mul_(0), x, device="cuda")
    np.testing.assert_array_equal(x, before)


@pytest.mark.gpu
def test_device_cpu_moves_cuda_inputs_and_returns_cuda_results(x):
    cupy = require_cupy()
    c = cupy.asarray(x)
    got = tb.special.erf(c, device="cpu")
    assert isinstance(got, cupy.ndarray) and got.device.id == c.device.id
    np.testing.assert_allclose(got.get(), sc.erf(x), rtol=1e-13, atol=1e-300)
    assert tb.apply(lambda t: t.device.type, c, device="cpu") == "cpu"
    t = torch.from_numpy(x).cuda()
    assert tb.linalg.norm(t, device="cpu").device == t.device


@pytest.mark.gpu
def test_python_scalars_follow_cuda_arrays_and_mixed_devices_are_refused(x):
    require_cuda()
    t = torch.from_numpy(x).cuda()
    got = tb.special.xlogy(2.0, t)
    assert got.is_cuda
    np.testing.assert_allclose(got.cpu().numpy(), sc.xlogy(2.0, x), rtol=1e-13)
    with pytest.raises(tb.DeviceError, match=r"two devices in one call \(cpu and cuda:0\)"):
        tb.special.xlogy(torch.from_numpy(x), t)
    with pytest.raises(tb.DeviceError, match="two devices"):
        tb.special.xlogy(torch.from_numpy(x), t, device="cuda")


FFT_CASES = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "rfftn", "irfftn",
             "dct", "idct", "dst", "idst", "dctn", "fftshift"]


@pytest.mark.gpu
@pytest.mark.parametrize("lib", ["torch", "cupy"])
@pytest.mark.parametrize("name", FFT_CASES)
def test_fft_on_cuda_matches_scipy(lib, name):
    require_cuda()
    rng = np.random.default_rng(SEED)
    x = rng.normal(size=(6, 40))
    if name in ("fft", "ifft", "fft2", "irfft", "hfft", "irfftn"):
        x = x + 1j * rng.normal(size=x.shape)
    a = require_cupy().asarray(x) if lib == "cupy" else torch.from_numpy(x).cuda()
    got = getattr(tb.fft, name)(a)
    assert type(got) is type(a)
    np.testing.assert_allclose(to_numpy(got), getattr(sf, name)(x), rtol=1e-11, atol=1e-11)


LINALG_CASES = {
    "solve": lambda r: (r.normal(size=(5, 5)) + 5 * np.eye(5), r.normal(size=5)),
    "inv": lambda r: (r.normal(size=(5, 5)) + 5 * np.eye(5),),
    "det": lambda r: (r.normal(size=(5, 5)),),
    "eigvalsh": lambda r: ((lambda m: m @ m.T + np.eye(6))(r.normal(size=(6, 6))),),
    "svdvals": lambda r: (r.normal(size=(7, 4)),),
    "cholesky": lambda r: ((lambda m: m @ m.T + np.eye(6))(r.normal(size=(6, 6))),),
    "expm": lambda r: (r.normal(size=(5, 5)) / 3,),
    "pinv": lambda r: (r.normal(size=(6, 4)),),
    "norm": lambda r: (r.normal(size=(6, 4)),),
}


@pytest.mark.gpu
@pytest.mark.parametrize("lib", ["torch", "cupy"])
@pytest.mark.parametrize("name", sorted(LINALG_CASES))
def test_linalg_on_cuda_matches_scipy(lib, name):
    require_cuda()
    args = LINALG_CASES[name](np.random.default_rng(SEED))
    cupy = require_cupy() if lib == "cupy" else None
    moved = [cupy.asarray(a) if cupy else torch.from_numpy(a).cuda() for a in args]
    got = getattr(tb.linalg, name)(*moved)
    want = getattr(sl, name)(*args)
    if np.ndim(want) > 0:
        assert type(got) is type(moved[0])
    np.testing.assert_allclose(to_numpy(got), want, rtol=1e-10, atol=1e-12)


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["erf", "expit", "gammaln", "ndtr", "j0", "i0e", "log_ndtr"])
def test_special_on_cupy_matches_scipy(name):
    cupy = require_cupy()
    x = np.random.default_rng(SEED).normal(size=4000) * 4
    got = getattr(tb.special, name)(cupy.asarray(x))
    assert isinstance(got, cupy.ndarray)
    np.testing.assert_allclose(got.get(), getattr(sc, name)(x), rtol=1e-12, atol=1e-300)
