"""The per-call fast paths of a numpy call (src/dlpack/numpy_array.rs): an
exact ndarray viewed without a DLPack descriptor, results built over the
result's memory with a capsule owning it, 0-d ufunc results made numpy
scalars directly. Each layout the fast paths decline must still give what
the general path gives."""

from __future__ import annotations

import gc
import sys
import weakref

import numpy as np
import pytest
import scipy.special as ss

import torchbridge as tb


def _layouts():
    base = np.linspace(-2.0, 2.0, 24)
    yield "1-d", base
    yield "0-d", np.array(0.25)
    yield "empty", np.empty(0)
    yield "empty 2-d", np.empty((3, 0))
    yield "strided", base[::3]
    yield "negative strides", base[::-2]
    yield "fortran", np.asfortranarray(base.reshape(4, 6))
    yield "broadcast (zero strides)", np.broadcast_to(base[:1], (5, 3))
    ro = base.copy()
    ro.flags.writeable = False
    yield "read-only", ro
    yield "many dims (heap buffers)", base[:1].reshape((1,) * 20)
    yield "float32", base.astype(np.float32)
    yield "int", np.arange(-3, 4)
    yield "bool", np.array([True, False])


@pytest.mark.parametrize("name,x", list(_layouts()), ids=[n for n, _ in _layouts()])
def test_every_layout_gives_scipys_values(name, x):
    got = tb.special.erf(x)
    want = ss.erf(x)
    assert type(got) is type(want)
    assert np.shape(got) == np.shape(want)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_allclose(got, want, rtol=1e-6 if np.asarray(want).dtype == np.float32 else 1e-15)


def test_byte_swapped_input_is_refused_as_before():
    x = np.linspace(-1, 1, 5).astype(">f8")
    with pytest.raises(tb.DtypeError, match="native byte order"):
        tb.special.erf(x)  # declined by the fast path, explained by the DLPack route


def test_misaligned_complex_is_copied_and_correct():
    raw = np.zeros(8 * 9 + 8, dtype=np.uint8)
    z = np.frombuffer(raw.data, dtype=np.complex128, count=4, offset=8)
    z[:] = [0.5 + 0.5j, 1 - 1j, -2j, 3]
    np.testing.assert_allclose(tb.special.erf(z), ss.erf(z), rtol=1e-13)


def test_read_only_input_is_never_written():
    x = np.linspace(0, 1, 10)
    x.flags.writeable = False
    before = x.copy()
    tb.special.erf(x)
    tb.apply(lambda t: t + 1, x)
    np.testing.assert_array_equal(x, before)


def test_zero_dimensional_results_are_numpy_scalars():
    for x, kind in [(np.array(0.5), np.float64), (np.float32(0.5), np.float32), (0.5, np.float64)]:
        got = tb.special.erf(x)
        assert type(got) is kind
        assert got == ss.erf(x)
    # not a ufunc: a 0-d array stays a 0-d array
    got = tb.apply(lambda t: t * 2, np.array(1.5))
    assert isinstance(got, np.ndarray) and got.shape == () and got == 3.0


def test_results_own_their_memory_and_outlive_everything():
    x = np.linspace(0, 1, 1000)
    y = tb.special.erf(x)
    assert y.flags.writeable and y.base is not None
    del x
    gc.collect()
    y[0] = 7.0  # the memory is still there, and writable
    assert y[0] == 7.0
    np.testing.assert_allclose(y[1:], ss.erf(np.linspace(0, 1, 1000))[1:], rtol=1e-15)


def test_views_of_the_input_keep_the_input_alive_exactly_once():
    released = []
    x = np.arange(10.0)
    weakref.finalize(x, released.append, "x")
    before = sys.getrefcount(x)
    v = tb.apply(lambda t: t[2:], x)
    assert np.shares_memory(v, x)
    del x
    gc.collect()
    assert released == []
    del v
    gc.collect()
    assert released == ["x"]
    assert before >= 2


def test_conjugate_and_negative_views_are_resolved_for_numpy():
    torch = pytest.importorskip("torch")
    z = np.array([1 + 2j, -3 - 4j])
    np.testing.assert_array_equal(tb.apply(lambda t: t.conj(), z), np.conj(z))
    np.testing.assert_array_equal(tb.apply(lambda t: torch._neg_view(t), z), -z)
    w = tb.apply(lambda t: t.conj().imag, z)
    np.testing.assert_array_equal(w, -z.imag)


def test_torch_inputs_keep_their_autograd_behaviour():
    torch = pytest.importorskip("torch")
    t = torch.tensor([0.25, 0.5], dtype=torch.float64, requires_grad=True)
    y = tb.special.erf(t)
    assert y.requires_grad
    y.sum().backward()
    want = 2 / np.sqrt(np.pi) * np.exp(-t.detach().numpy() ** 2)
    np.testing.assert_allclose(t.grad.numpy(), want, rtol=1e-14)
    with torch.no_grad():
        assert not tb.special.erf(t).requires_grad


# The torch route (src/ffi/tensor_impl.rs): the caller's at::Tensor read from its Python object,
# the result wrapped by torch's own THPVariable_Wrap.


def test_torch_results_hold_exactly_one_reference_and_die_with_it():
    torch = pytest.importorskip("torch")
    t = torch.linspace(-2, 2, 7, dtype=torch.float64)
    y = tb.special.erf(t)
    assert type(y) is torch.Tensor
    assert sys.getrefcount(y) == 2  # `y` and getrefcount's argument: no reference leaked
    torch.testing.assert_close(y, torch.special.erf(t), rtol=0, atol=0)
    dead = weakref.ref(y)
    del y
    gc.collect()
    assert dead() is None
    assert sys.getrefcount(t) == 2  # the input's Python object is not retained either


@pytest.mark.parametrize("kind", ["leaf", "non-leaf", "parameter", "view", "detached", "inference"])
def test_torch_inputs_of_every_kind_keep_grad_and_values(kind):
    torch = pytest.importorskip("torch")
    base = torch.tensor([0.25, -0.5, 1.5], dtype=torch.float64)
    if kind == "leaf":
        t = base.clone().requires_grad_()
    elif kind == "non-leaf":
        t = base.clone().requires_grad_() * 2
    elif kind == "parameter":
        t = torch.nn.Parameter(base.clone())
    elif kind == "view":
        t = base.clone().requires_grad_()[1:]
    elif kind == "detached":
        t = base.clone().requires_grad_().detach()
    else:
        with torch.inference_mode():
            t = base.clone()
    y = tb.special.erf(t)
    assert type(y) is torch.Tensor
    assert y.requires_grad == t.requires_grad
    torch.testing.assert_close(y.detach(), torch.special.erf(t.detach()), rtol=0, atol=0)
    if t.requires_grad:
        (g,) = torch.autograd.grad(y.sum(), t)
        want = 2 / np.sqrt(np.pi) * torch.exp(-t.detach() ** 2)
        torch.testing.assert_close(g, want, rtol=1e-14, atol=0)


def test_torch_requires_grad_set_after_a_first_call_is_seen():
    torch = pytest.importorskip("torch")
    t = torch.tensor([0.5], dtype=torch.float64)
    assert not tb.special.erf(t).requires_grad
    t.requires_grad_()
    assert tb.special.erf(t).requires_grad
    t.requires_grad_(False)
    assert not tb.special.erf(t).requires_grad


def _same(got, want):
    assert type(got) is type(want)
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
    elif isinstance(want, dict):
        assert got.keys() == want.keys()
        for key in want:
            _same(got[key], want[key])
    elif isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    else:
        assert got == want


@pytest.mark.parametrize("name,x", list(_layouts()), ids=[n for n, _ in _layouts()])
def test_apply_and_proxy_fast_paths_give_what_the_general_route_gives(name, x):
    # apply with one exact numpy array and the tb.torch proxies called with one such array and no keywords
    # take _core's numpy fast path (numpy_call / ProxyCall); device="cpu" and keyword arguments take the
    # general route. Whatever the layout, both routes must give the same results.
    torch = pytest.importorskip("torch")
    functions = [
        lambda t: t,
        lambda t: t * 2,
        lambda t: (t, t.reshape(-1)[:1]),
        lambda t: {"sum": t.sum().item(), "neg": torch._neg_view(t.to(torch.float64))},
        lambda t: t.to(torch.float64).requires_grad_(True) * 2,
        lambda t: None,
    ]
    for fn in functions:
        _same(tb.apply(fn, x), tb.apply(fn, x, device="cpu"))
    x_float = x.astype(np.float64) if x.dtype.kind in "biu" else x
    if x_float.size and x_float.ndim:
        _same(tb.torch.special.erf(x_float), tb.torch.special.erf(input=x_float))
        _same(tb.torch.sort(x_float.reshape(-1)), tb.torch.sort(input=x_float.reshape(-1)))


def test_proxy_fast_path_returns_the_callers_array_for_its_view():
    x = np.arange(6.0)
    assert tb.torch.Tensor.contiguous(x) is x  # the function returned its argument
    y = tb.torch.Tensor.view(x, 2, 3)  # a new view of the same memory: an array of its own
    assert y is not x and np.shares_memory(y, x)
    assert tb.apply(lambda t: t, x) is not x  # apply: an array over the view, never the caller's own object


def test_proxy_does_not_rewrite_the_callers_keywords():
    keywords = {"dtype": np.float32}
    out = tb.torch.cumsum(np.ones(3), 0, **keywords)
    assert out.dtype == np.float32
    assert keywords == {"dtype": np.float32}
