"""torchbridge.torch: the torch namespace on foreign arrays, checked against torch itself."""

from __future__ import annotations

import subprocess
import sys
from types import SimpleNamespace

import jax.numpy as jnp
import numpy as np
import pytest
import torch
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb
import torchbridge.torch
from torchbridge.errors import InvalidArgumentError, MixedContainersError


def _data(rng: np.random.Generator) -> SimpleNamespace:
    spd = rng.standard_normal((4, 4))
    return SimpleNamespace(
        x=rng.standard_normal(12),
        y=rng.standard_normal(12),
        p=rng.uniform(0.01, 0.99, 12),
        a=rng.standard_normal((4, 4)),
        b=rng.standard_normal((4, 3)),
        spd=spd @ spd.T + 4 * np.eye(4),
        sig=rng.standard_normal((1, 2, 16)),
        w=rng.standard_normal((3, 2, 5)),
        mask=rng.standard_normal(12) > 0,
        grid=np.linspace(0.0, 1.0, 12),
        edges=np.array([-1.0, 0.0, 0.5, 1.0]),
        q=np.array([0.1, 0.5, 0.9]),
        x32=rng.standard_normal((3, 5)).astype(np.float32),
    )


# name -> f(T, A, d): the call written once for both tb.torch (T = tb.torch, A converts
# numpy to the library under test) and torch itself (T = torch, A makes a torch tensor).
CASES = {
    "special.erfcx": lambda T, A, d: T.special.erfcx(A(d.x)),
    "special.ndtri": lambda T, A, d: T.special.ndtri(A(d.p)),
    "special.i0e": lambda T, A, d: T.special.i0e(A(d.x)),
    "special.xlog1py": lambda T, A, d: T.special.xlog1py(A(d.p), A(d.p)),
    "special.logsumexp": lambda T, A, d: T.special.logsumexp(A(d.a), dim=1),
    "fft.hfft2": lambda T, A, d: T.fft.hfft2(A(d.a)),
    "fft.rfft": lambda T, A, d: T.fft.rfft(A(d.x), n=16, norm="ortho"),
    "fft.fftshift": lambda T, A, d: T.fft.fftshift(A(d.a), dim=0),
    "linalg.matrix_norm": lambda T, A, d: T.linalg.matrix_norm(A(d.a), ord="nuc"),
    "linalg.eigh": lambda T, A, d: T.linalg.eigh(A(d.spd)),
    "linalg.solve": lambda T, A, d: T.linalg.solve(A(d.spd), A(d.b)),
    "linalg.svdvals": lambda T, A, d: T.linalg.svdvals(A(d.b)),
    "linalg.qr": lambda T, A, d: T.linalg.qr(A(d.a)),
    "linalg.inv": lambda T, A, d: T.linalg.inv(A(d.spd)),
    "linalg.det": lambda T, A, d: T.linalg.det(A(d.a)),
    "linalg.slogdet": lambda T, A, d: T.linalg.slogdet(A(d.a)),
    "nn.functional.conv1d": lambda T, A, d: T.nn.functional.conv1d(A(d.sig), A(d.w), padding=2),
    "nn.functional.softmax": lambda T, A, d: T.nn.functional.softmax(A(d.a), dim=-1),
    "nn.functional.pad": lambda T, A, d: T.nn.functional.pad(A(d.sig), (1, 2), mode="reflect"),
    "nn.functional.avg_pool1d": lambda T, A, d: T.nn.functional.avg_pool1d(A(d.sig), 3),
    "nn.functional.normalize": lambda T, A, d: T.nn.functional.normalize(A(d.a), dim=0),
    "cumsum": lambda T, A, d: T.cumsum(A(d.x), dim=0),
    "where": lambda T, A, d: T.where(A(d.mask), A(d.x), A(d.y)),
    "where(keywords)": lambda T, A, d: T.where(condition=A(d.mask), input=A(d.x), other=A(d.y)),
    "Tensor.unfold": lambda T, A, d: T.Tensor.unfold(A(d.x), 0, 5, 1),
    "Tensor.matmul": lambda T, A, d: T.Tensor.matmul(A(d.a), A(d.b)),
    "sort": lambda T, A, d: T.sort(A(d.x), descending=True),
    "topk": lambda T, A, d: T.topk(A(d.x), 3),
    "max(dim)": lambda T, A, d: T.max(A(d.a), dim=0),
    "cat(list)": lambda T, A, d: T.cat([A(d.x), A(d.y)], dim=0),
    "stack(tuple)": lambda T, A, d: T.stack((A(d.x), A(d.y))),
    "einsum": lambda T, A, d: T.einsum("ij,jk->ik", A(d.a), A(d.b)),
    "clamp": lambda T, A, d: T.clamp(A(d.x), min=-0.5, max=0.5),
    "diff": lambda T, A, d: T.diff(A(d.x), n=2),
    "kron": lambda T, A, d: T.kron(A(d.a), A(d.b)),
    "cdist": lambda T, A, d: T.cdist(A(d.a), A(d.b.T)),
    "trapezoid": lambda T, A, d: T.trapezoid(A(d.y), A(d.grid)),
    "atan2": lambda T, A, d: T.atan2(A(d.y), A(d.x)),
    "quantile": lambda T, A, d: T.quantile(A(d.x), A(d.q)),
    "histc": lambda T, A, d: T.histc(A(d.x), bins=5, min=-2, max=2),
    "meshgrid": lambda T, A, d: T.meshgrid(A(d.edges), A(d.q), indexing="ij"),
    "split": lambda T, A, d: T.split(A(d.x), 5),
    "bucketize": lambda T, A, d: T.bucketize(A(d.x), A(d.edges)),
    "polar": lambda T, A, d: T.polar(A(d.p), A(d.x)),
    "std_mean": lambda T, A, d: T.std_mean(A(d.a), dim=0),
    "numel": lambda T, A, d: T.numel(A(d.a)),
    "is_floating_point": lambda T, A, d: T.is_floating_point(A(d.x)),
    "Tensor.tolist": lambda T, A, d: T.Tensor.tolist(A(d.edges)),
    "float32 mean": lambda T, A, d: T.mean(A(d.x32), dim=1, keepdim=True),
}


def _compare(got, expected, lib):
    if isinstance(expected, torch.Tensor):
        assert isinstance(got, library_type(lib)), type(got)
        want = expected.numpy()
        have = to_numpy(got)
        assert have.dtype == want.dtype and have.shape == want.shape
        np.testing.assert_allclose(have, want, rtol=1e-12, atol=1e-14)
    elif isinstance(expected, tuple):
        # the same tuple type: plain tuple, or torch.return_types' named tuples
        assert type(got) is type(expected) and len(got) == len(expected)
        for g, e in zip(got, expected):
            _compare(g, e, lib)
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected)
        for g, e in zip(got, expected):
            _compare(g, e, lib)
    else:
        assert type(got) is type(expected) and got == expected


def test_at_least_thirty_distinct_callables():
    distinct = {name.split("(")[0].strip() for name in CASES}
    assert len(distinct) >= 30, len(distinct)


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(name, lib, rng):
    d = _data(rng)
    case = CASES[name]
    got = case(tb.torch, lambda a: to_library(lib, a), d)
    expected = case(torch, lambda a: torch.from_numpy(np.array(a)), d)
    _compare(got, expected, lib)


def test_torch_inputs_stay_torch(rng):
    x = torch.from_numpy(rng.standard_normal(5))
    out = tb.torch.special.erfcx(x)
    assert type(out) is torch.Tensor
    assert torch.equal(out, torch.special.erfcx(x))


def test_no_arrays_is_plain_torch():
    out = tb.torch.arange(3)
    assert isinstance(out, torch.Tensor) and out.tolist() == [0, 1, 2]
    assert tb.torch.float64 is torch.float64
    assert tb.torch.pi == torch.pi


def test_numpy_dtype_keyword(rng):
    x = rng.standard_normal(6)
    out = tb.torch.cumsum(x, 0, dtype=np.float32)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, np.cumsum(x).astype(np.float32), rtol=1e-6)


def test_proxies_are_cached_and_introspectable():
    assert tb.torch.special is tb.torch.special
    assert tb.torch.special.erf is tb.torch.special.erf
    assert tb.torch.linalg.eigh.__wrapped__ is torch.linalg.eigh
    assert tb.torch.cumsum.__doc__ == torch.cumsum.__doc__
    assert "erfcx" in dir(tb.torch.special)
    assert isinstance(torch.ones(1), tb.torch.Tensor)
    assert not isinstance(np.ones(1), tb.torch.Tensor)
    assert issubclass(torch.nn.Parameter, tb.torch.Tensor)
    with pytest.raises(AttributeError):
        tb.torch.no_such_function  # noqa: B018


def test_operator_overloads_through_torch_ops(rng):
    x = rng.standard_normal(4)
    np.testing.assert_array_equal(tb.torch.ops.aten.add.Tensor(x, x, alpha=3), 4 * x)


def test_results_view_the_input_memory_zero_copy():
    x = np.arange(10.0)
    windows = tb.torch.Tensor.unfold(x, 0, 4, 2)
    assert isinstance(windows, np.ndarray)
    assert np.shares_memory(windows, x)


def test_mixed_libraries_raise(rng):
    x = rng.standard_normal(3)
    with pytest.raises(MixedContainersError):
        tb.torch.add(x, jnp.asarray(x))
    with pytest.raises(MixedContainersError):
        tb.torch.cat([x, torch.from_numpy(x)])


class TestWrites:
    def test_in_place_method_writes_through_and_returns_the_caller_array(self):
        x = np.zeros(4)
        out = tb.torch.Tensor.add_(x, 1.5)
        assert out is x
        np.testing.assert_array_equal(x, 1.5)

    def test_out_keyword_writes_into_the_caller_array(self):
        x = np.arange(4.0)
        target = np.empty(4)
        out = tb.torch.mul(x, 2, out=target)
        assert out is target
        np.testing.assert_array_equal(target, 2 * x)

    def test_inplace_keyword_and_setitem(self):
        x = np.array([-1.0, 2.0, -3.0])
        tb.torch.nn.functional.relu(x, inplace=True)
        np.testing.assert_array_equal(x, [0.0, 2.0, 0.0])
        tb.torch.Tensor.__setitem__(x, 0, 7.0)
        assert x[0] == 7.0
        tb.torch.nn.init.constant_(x, 3.0)
        np.testing.assert_array_equal(x, 3.0)

    @pytest.mark.parametrize(
        "call",
        [
            lambda x: tb.torch.Tensor.add_(x, 1),
            lambda x: tb.torch.Tensor.__iadd__(x, 1),
            lambda x: tb.torch.Tensor.__setitem__(x, 0, 1.0),
            lambda x: tb.torch.nn.functional.relu(x, inplace=True),
            lambda x: tb.torch.add(np.ones(3), 1, out=x),
            lambda x: tb.torch.nn.init.zeros_(x),
        ],
        ids=["add_", "__iadd__", "__setitem__", "inplace=True", "out=", "init.zeros_"],
    )
    def test_read_only_numpy_raises_and_stays_unchanged(self, call):
        x = np.array([-1.0, 2.0, -3.0])
        x.flags.writeable = False
        with pytest.raises(InvalidArgumentError, match="read-only numpy"):
            call(x)
        np.testing.assert_array_equal(x, [-1.0, 2.0, -3.0])

    def test_jax_arrays_are_never_written(self):
        x = jnp.asarray([1.0, 2.0])
        with pytest.raises(InvalidArgumentError, match="read-only jax"):
            tb.torch.Tensor.mul_(x, 2)
        np.testing.assert_array_equal(np.asarray(x), [1.0, 2.0])

    def test_negative_strides_cannot_be_written(self):
        x = np.arange(4.0)[::-1]
        with pytest.raises(InvalidArgumentError, match="copy"):
            tb.torch.Tensor.add_(x, 1)

    def test_read_only_inputs_are_fine_for_out_of_place_calls(self):
        x = np.array([1.0, 2.0])
        x.flags.writeable = False
        out = tb.torch.Tensor.mul(x, 2)
        np.testing.assert_array_equal(out, [2.0, 4.0])
        np.testing.assert_array_equal(x, [1.0, 2.0])


_LAZY = """
import sys
import torchbridge, torchbridge.torch
before = "torch" in sys.modules
import numpy as np
torchbridge.torch.special.erf(np.zeros(2))
print(before, "torch" in sys.modules)
"""


def test_torch_is_imported_lazily():
    out = subprocess.run([sys.executable, "-c", _LAZY], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"], out


def test_torch_names_that_are_builtins_do_not_break_the_namespace():
    # tb.torch.bool / .float / .int are torch's dtypes; caching them must not shadow the builtins tb.torch uses
    x = np.linspace(-1, 1, 5)
    for name in ("bool", "float", "int", "complex", "str", "type"):
        if hasattr(torch, name):
            getattr(tb.torch, name)
    np.testing.assert_array_equal(tb.torch.cumsum(x, dim=0), np.cumsum(x))
    assert tb.torch.float is tb.torch.float
