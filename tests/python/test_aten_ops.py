"""torchbridge.ops: ATen operators by name, checked against torch.ops.aten on torch tensors."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable

import jax.numpy as jnp
import numpy as np
import pytest
import torch
from conftest import LIBRARIES, library_type, to_library, to_numpy

import torchbridge as tb
import torchbridge.ops
from torchbridge.errors import (
    DtypeError,
    InputTypeError,
    InvalidArgumentError,
    MixedContainersError,
    TorchError,
)


@dataclass(frozen=True)
class Special:
    """A non-array argument written differently for torchbridge and for torch."""

    ours: Any
    theirs: Callable[[], Any]


def DT(ours: Any, name: str) -> Special:
    return Special(ours, lambda: getattr(torch, name))


def LAYOUT(name: str) -> Special:
    return Special(name, lambda: getattr(torch, name))


def MF(name: str) -> Special:
    return Special(name, lambda: getattr(torch, name))


DEVICE_CPU = Special("cpu", lambda: torch.device("cpu"))


@dataclass
class Case:
    name: str  # what torchbridge is called with
    args: Callable[[SimpleNamespace], tuple]
    kwargs: Callable[[SimpleNamespace], dict] = field(default=lambda d: {})
    overload: str | None = None  # the overload torch is called with, when `name` has none


def _data(rng: np.random.Generator) -> SimpleNamespace:
    spd = rng.standard_normal((4, 4))
    return SimpleNamespace(
        x=rng.standard_normal(12),
        y=rng.standard_normal(12),
        a=rng.standard_normal((4, 4)),
        b=rng.standard_normal((4, 3)),
        x2=rng.standard_normal((3, 4)),
        x3=rng.standard_normal((2, 3, 4)),
        spd=spd @ spd.T + 4 * np.eye(4),
        idx=np.array([3, 0, 7]),
        idx2=np.array([[0, 3], [1, 1], [2, 0]]),
        src2=rng.standard_normal((3, 2)),
        mask=rng.standard_normal(12) > 0,
        xnan=np.array([np.nan, np.inf, -np.inf, 1.5]),
        edges=np.array([-1.0, 0.0, 0.5, 1.0]),
        ints=np.array([1, 1, 2, 2, 2, 3, 1]),
        sig=rng.standard_normal((1, 2, 16)),
        w=rng.standard_normal((3, 2, 5)),
        img=rng.standard_normal((1, 2, 6, 6)),
        p=rng.uniform(0.01, 0.99, 12),
        c=rng.standard_normal((4, 3)),
    )


CASES = [
    Case("aten::erf", lambda d: (d.x,), overload="default"),
    Case("aten::add.Tensor", lambda d: (d.x, d.y), lambda d: {"alpha": 2}),
    Case("aten::add", lambda d: (d.x, 2.5), overload="Scalar"),
    Case("aten::sub.Tensor", lambda d: (d.x, d.y)),
    Case("aten::mul", lambda d: (d.x, 3), overload="Scalar"),
    Case("aten::div.Tensor_mode", lambda d: (d.x, d.y), lambda d: {"rounding_mode": "floor"}),
    Case("aten::pow.Tensor_Scalar", lambda d: (d.x, 2)),
    Case("aten::clamp", lambda d: (d.x, -0.5, 0.5), overload="default"),
    Case("aten::clamp.default", lambda d: (d.x, None, 0.5)),
    Case("aten::sum.dim_IntList", lambda d: (d.x2, [1], True), lambda d: {"dtype": DT("float32", "float32")}),
    Case("aten::sum", lambda d: (d.x,), lambda d: {"dtype": DT(np.float32, "float32")}, overload="default"),
    Case("aten::mean.dim", lambda d: (d.x2, [0])),
    Case("aten::std.correction", lambda d: (d.x2, [1]), lambda d: {"correction": 0, "keepdim": True}),
    Case("aten::var_mean.correction", lambda d: (d.x2, [0]), lambda d: {"correction": 1}),
    Case("aten::cumsum", lambda d: (d.x, 0), overload="default"),
    Case(
        "aten::cumprod", lambda d: (d.x, 0), lambda d: {"dtype": DT(np.dtype("float32"), "float32")}, overload="default"
    ),
    Case("aten::cat", lambda d: ([d.x, d.y],), overload="default"),
    Case("aten::cat", lambda d: ([d.x2, d.x2], 1), overload="default"),
    Case("aten::stack", lambda d: ([d.x, d.y], 1), overload="default"),
    Case("aten::sort", lambda d: (d.x,), lambda d: {"descending": True}, overload="default"),
    Case("aten::sort.stable", lambda d: (d.x,), lambda d: {"stable": True, "dim": 0}),
    Case("aten::max", lambda d: (d.x2, 1), overload="dim"),
    Case("aten::min", lambda d: (d.x,), overload="default"),
    Case("aten::topk", lambda d: (d.x, 3), lambda d: {"largest": False}, overload="default"),
    Case("aten::kthvalue", lambda d: (d.x, 2), overload="default"),
    Case("aten::linalg_eigh", lambda d: (d.spd,), lambda d: {"UPLO": "U"}, overload="default"),
    Case("aten::linalg_svd", lambda d: (d.b,), lambda d: {"full_matrices": False}, overload="default"),
    Case("aten::linalg_qr", lambda d: (d.a,), lambda d: {"mode": "reduced"}, overload="default"),
    Case("aten::linalg_solve", lambda d: (d.spd, d.b), overload="default"),
    Case("aten::linalg_vector_norm", lambda d: (d.x2, 3.0, [0]), overload="default"),
    Case("aten::mm", lambda d: (d.a, d.b), overload="default"),
    Case("aten::addmm", lambda d: (d.c, d.a, d.b), lambda d: {"beta": 0.5, "alpha": 2}, overload="default"),
    Case("aten::transpose.int", lambda d: (d.a, 0, 1)),
    Case("aten::permute", lambda d: (d.x3, [2, 0, 1]), overload="default"),
    Case("aten::reshape", lambda d: (d.x2, [-1]), overload="default"),
    Case("aten::flip", lambda d: (d.x2, [0, 1]), overload="default"),
    Case("aten::roll", lambda d: (d.x, [2]), overload="default"),
    Case("aten::index_select", lambda d: (d.x, 0, d.idx), overload="default"),
    Case("aten::gather", lambda d: (d.x2, 1, d.idx2), overload="default"),
    Case("aten::index.Tensor", lambda d: (d.x, [d.idx])),
    Case("aten::index.Tensor", lambda d: (d.x2, [None, d.idx[:2]])),
    Case("aten::where.self", lambda d: (d.mask, d.x, d.y)),
    Case("aten::masked_fill.Scalar", lambda d: (d.x, d.mask, 0.0)),
    Case("aten::scatter_add", lambda d: (d.x2, 1, d.idx2, d.src2), overload="default"),
    Case("aten::index_add", lambda d: (d.x, 0, d.idx, d.y[:3]), lambda d: {"alpha": 2}, overload="default"),
    Case("aten::lerp.Scalar", lambda d: (d.x, d.y, 0.3)),
    Case("aten::full", lambda d: ([2, 3], 1.5), lambda d: {"dtype": DT("float32", "float32")}, overload="default"),
    Case("aten::zeros", lambda d: ([3],), lambda d: {"dtype": DT(int, "int64")}, overload="default"),
    Case(
        "aten::arange.start_step",
        lambda d: (0, 10, 2),
        lambda d: {"dtype": DT("float64", "float64"), "layout": LAYOUT("strided"), "device": DEVICE_CPU},
    ),
    Case("aten::linspace", lambda d: (0.0, 1.0, 5), overload="default"),
    Case("aten::eye", lambda d: (3,), overload="default"),
    Case("aten::zeros_like", lambda d: (d.x3,), lambda d: {"memory_format": MF("preserve_format")}, overload="default"),
    Case("aten::to.dtype", lambda d: (d.x, DT("float32", "float32"))),
    Case("aten::_to_copy", lambda d: (d.x,), lambda d: {"dtype": DT(np.float32, "float32")}, overload="default"),
    Case("aten::round.decimals", lambda d: (d.x,), lambda d: {"decimals": 2}),
    Case("aten::nan_to_num", lambda d: (d.xnan, 0.0, 1.0, -1.0), overload="default"),
    Case("aten::bucketize.Tensor", lambda d: (d.x, d.edges), lambda d: {"right": True}),
    Case("aten::searchsorted.Tensor", lambda d: (d.edges, d.x), lambda d: {"side": "left"}),
    Case("aten::histc", lambda d: (d.x, 5), overload="default"),
    Case("aten::diff", lambda d: (d.x, 2), overload="default"),
    Case(
        "aten::unique_consecutive",
        lambda d: (d.ints,),
        lambda d: {"return_inverse": True, "return_counts": True},
        overload="default",
    ),
    Case("aten::split.Tensor", lambda d: (d.x, 5)),
    Case("aten::unbind.int", lambda d: (d.x2,)),
    Case("aten::chunk", lambda d: (d.x, 3), overload="default"),
    Case("aten::conv1d", lambda d: (d.sig, d.w, None, [1], [2]), overload="default"),
    # an int broadcasts to SymInt[1] (torch.ops itself wants the list)
    Case("aten::conv1d", lambda d: (d.sig, d.w), lambda d: {"padding": Special(2, lambda: [2])}, overload="default"),
    Case("aten::avg_pool1d", lambda d: (d.sig, [3]), overload="default"),
    Case("aten::max_pool2d_with_indices", lambda d: (d.img, [2, 2]), overload="default"),
    Case("aten::softmax.int", lambda d: (d.x2, 1)),
    Case("aten::log_softmax.int", lambda d: (d.x2, 1, DT("float32", "float32"))),
    Case("aten::gelu", lambda d: (d.x,), lambda d: {"approximate": "tanh"}, overload="default"),
    Case("aten::leaky_relu", lambda d: (d.x, 0.2), overload="default"),
    Case("aten::einsum", lambda d: ("ij,jk->ik", [d.a, d.b]), overload="default"),
    Case("aten::tensordot", lambda d: (d.a, d.b, [1], [0]), overload="default"),
    Case("aten::complex", lambda d: (d.x, d.y), overload="default"),
    Case("aten::fft_rfft", lambda d: (d.x,), lambda d: {"n": 16, "norm": "ortho"}, overload="default"),
    Case("aten::fft_fftn", lambda d: (d.x2,), lambda d: {"dim": [0, 1]}, overload="default"),
    Case("aten::special_erfcx", lambda d: (d.x,), overload="default"),
    Case("aten::special_xlog1py", lambda d: (d.p, d.p), overload="default"),
    Case("aten::polygamma", lambda d: (1, d.p), overload="default"),
    Case("aten::isclose", lambda d: (d.x, d.x, 1e-5, 1e-8, True), overload="default"),
    Case("aten::allclose", lambda d: (d.x, d.y), overload="default"),
    Case("aten::equal", lambda d: (d.x, d.x), overload="default"),
    Case("aten::_local_scalar_dense", lambda d: (d.x[:1],), overload="default"),
    Case("aten::sym_size.int", lambda d: (d.x2, 1)),
    Case("aten::dist", lambda d: (d.x, d.y, 3), overload="default"),
    Case("aten::tril", lambda d: (d.a, -1), overload="default"),
    Case("aten::triu_indices", lambda d: (3, 3, 1), overload="default"),
    Case("aten::median", lambda d: (d.x2, 1), overload="dim"),
    Case("aten::nanmedian", lambda d: (d.xnan,), overload="default"),
    Case("aten::logsumexp", lambda d: (d.x2, [1]), overload="default"),
    Case("aten::expand", lambda d: (d.x[:1], [4]), overload="default"),  # zero strides (JAX needs a copy)
    Case("aten::unfold", lambda d: (d.x, 0, 5, 1), overload="default"),  # overlapping strides
    Case("aten::cross", lambda d: (d.b.T, d.c.T), lambda d: {"dim": 0}, overload="default"),
]


def _ids() -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for case in CASES:
        n = seen[case.name] = seen.get(case.name, 0) + 1
        out.append(case.name if n == 1 else f"{case.name}#{n}")
    return out


def _prepare(value: Any, convert: Callable[[np.ndarray], Any], side: str) -> Any:
    if isinstance(value, np.ndarray):
        return convert(value)
    if isinstance(value, Special):
        return value.ours if side == "ours" else value.theirs()
    if isinstance(value, list):
        return [_prepare(v, convert, side) for v in value]
    if isinstance(value, tuple):
        return tuple(_prepare(v, convert, side) for v in value)
    return value


def _torch_op(case: Case):
    name = case.name.split("::", 1)[1]
    base, _, overload = name.partition(".")
    overload = case.overload or overload or "default"
    return getattr(getattr(torch.ops.aten, base), overload)


def _compare(got: Any, expected: Any, lib: str) -> None:
    if isinstance(expected, torch.Tensor):
        assert isinstance(got, library_type(lib)), type(got)
        want = expected.resolve_conj().numpy()
        have = to_numpy(got)
        assert (have.dtype, have.shape) == (want.dtype, want.shape)
        np.testing.assert_allclose(have, want, rtol=1e-12, atol=1e-14)
    elif isinstance(expected, (tuple, list)):
        assert type(got) is type(expected) and len(got) == len(expected), (type(got), got)
        for g, e in zip(got, expected):
            _compare(g, e, lib)
    else:
        assert type(got) is type(expected) and got == expected, (got, expected)


def test_at_least_fifty_distinct_operators():
    assert len({case.name.split(".")[0] for case in CASES}) >= 50


@pytest.mark.parametrize("lib", LIBRARIES)
@pytest.mark.parametrize("case", CASES, ids=_ids())
def test_matches_torch_ops(case: Case, lib: str, rng):
    d = _data(rng)
    args = _prepare(case.args(d), lambda a: to_library(lib, a), "ours")
    kwargs = {k: _prepare(v, lambda a: to_library(lib, a), "ours") for k, v in case.kwargs(d).items()}
    got = tb.ops.call(case.name, *args, **kwargs)
    targs = _prepare(case.args(d), lambda a: torch.from_numpy(np.array(a)), "theirs")
    tkwargs = {k: _prepare(v, lambda a: torch.from_numpy(np.array(a)), "theirs") for k, v in case.kwargs(d).items()}
    expected = _torch_op(case)(*targs, **tkwargs)
    flat = _flatten(case.args(d)) + _flatten(list(case.kwargs(d).values()))
    has_arrays = any(isinstance(v, np.ndarray) for v in flat)
    _compare(got, expected, lib if has_arrays else "numpy")


def _flatten(values) -> list:
    out = []
    for v in values:
        out.extend(_flatten(v) if isinstance(v, (list, tuple)) else [v])
    return out


class TestNamespace:
    def test_attribute_access_and_overloads(self, rng):
        x = rng.standard_normal(5)
        np.testing.assert_array_equal(tb.ops.aten.add.Tensor(x, x, alpha=2), 3 * x)
        np.testing.assert_array_equal(tb.ops.aten.erf.default(x), tb.ops.aten.erf(x))
        assert tb.ops.aten.add.overloads()[:2] == ["Tensor", "Scalar"]
        schema = "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
        assert tb.ops.aten.add.Tensor.schema == schema
        assert tb.ops.aten.erf.default.name == "aten::erf"
        assert tb.ops.aten.add is tb.ops.aten.add
        assert "linalg_eigh" in dir(tb.ops.aten)
        assert any(s.startswith("aten::add.Scalar(") for s in tb.ops.aten.add.schemas())

    def test_schema_and_listing(self):
        add = "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"
        assert tb.ops.schema("aten::add.Tensor") == add
        assert tb.ops.schema("aten::erf") == "aten::erf(Tensor self) -> Tensor"
        assert tb.ops.schema("erf") == "aten::erf(Tensor self) -> Tensor"
        with pytest.raises(InvalidArgumentError, match="no default overload"):
            tb.ops.schema("aten::add")
        assert tb.ops.overloads("aten::max")[0] == ""
        ops = tb.ops.operators("aten")
        assert len(ops) > 1000 and "aten::erf" in ops

    def test_other_namespaces(self):
        assert "aten::erf" not in tb.ops.operators("quantized")
        assert tb.ops.quantized is tb.ops.quantized
        with pytest.raises(AttributeError, match="no operator namespace"):
            tb.ops.no_such_namespace  # noqa: B018

    def test_lists_come_back_as_lists(self, rng):
        x = rng.standard_normal(6)
        parts = tb.ops.aten.split.Tensor(x, 4)
        assert isinstance(parts, list) and [p.shape for p in parts] == [(4,), (2,)]

    def test_in_place_on_writable_numpy_writes_through(self):
        x = np.zeros(3)
        out = tb.ops.aten.add_.Scalar(x, 2.0)
        np.testing.assert_array_equal(x, 2.0)
        assert np.shares_memory(out, x)
        target = np.empty(3)
        tb.ops.aten.mul.out(np.arange(3.0), np.arange(3.0), out=target)
        np.testing.assert_array_equal(target, [0.0, 1.0, 4.0])

    def test_in_place_on_read_only_memory_is_refused(self):
        x = np.zeros(3)
        x.flags.writeable = False
        with pytest.raises(InvalidArgumentError, match="writes into argument 'self'"):
            tb.ops.aten.add_(x, 2.0)
        with pytest.raises(InvalidArgumentError, match="writes into argument 'out'"):
            tb.ops.aten.mul(np.ones(3), np.ones(3), out=x)
        with pytest.raises(InvalidArgumentError, match="read-only"):
            tb.ops.aten.mul_(jnp.ones(3), 2)
        np.testing.assert_array_equal(x, 0.0)
        # reading read-only memory is fine
        np.testing.assert_array_equal(tb.ops.aten.add(x, 1.0), 1.0)


class TestErrors:
    def test_too_many_arguments(self):
        x = np.ones(2)
        with pytest.raises(InvalidArgumentError) as info:
            tb.ops.aten.erf(x, x)
        assert "aten::erf(Tensor self) -> Tensor" in str(info.value)
        assert "at most 1 positional argument(s), 2 given" in str(info.value)

    def test_wrong_type(self):
        with pytest.raises(InvalidArgumentError) as info:
            tb.ops.call("aten::add.Tensor", np.ones(2), "a")
        msg = str(info.value)
        assert "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor" in msg
        assert "argument 'other' (position 1) must be Tensor, not str 'a'" in msg

    def test_missing_unknown_and_duplicate_arguments(self):
        x = np.ones(2)
        with pytest.raises(InvalidArgumentError, match="missing required argument 'other'"):
            tb.ops.aten.add.Tensor(x)
        with pytest.raises(InvalidArgumentError, match="unexpected keyword argument 'bogus'"):
            tb.ops.aten.erf.default(x, bogus=1)
        with pytest.raises(InvalidArgumentError, match="multiple values for argument 'self'"):
            tb.ops.aten.erf.default(x, self=x)

    def test_no_overload_fits(self):
        with pytest.raises(InvalidArgumentError) as info:
            tb.ops.aten.add(np.ones(2), "a")
        msg = str(info.value)
        assert msg.startswith("no overload of aten::add accepts (Tensor, str)")
        assert "aten::add.Tensor(" in msg and "aten::add.Scalar(" in msg

    def test_unknown_names(self):
        with pytest.raises(AttributeError, match="did you mean erf"):
            tb.ops.aten.erff  # noqa: B018
        with pytest.raises(AttributeError, match="no overload 'Nope'"):
            tb.ops.aten.add.Nope  # noqa: B018
        with pytest.raises(InvalidArgumentError, match="unknown operator aten::nope"):
            tb.ops.call("aten::nope", np.ones(1))
        with pytest.raises(InvalidArgumentError, match="has no overload"):
            tb.ops.call("aten::add.Nope", np.ones(1))
        with pytest.raises(InvalidArgumentError, match="invalid operator name"):
            tb.ops.call("not an op!")

    def test_bad_values(self):
        with pytest.raises(InputTypeError, match="list argument"):
            tb.ops.aten.sum(np.ones(2), [0, "a"])
        with pytest.raises(DtypeError):
            tb.ops.aten.sum(np.ones(2), dtype=np.dtype("datetime64[s]"))
        with pytest.raises(InputTypeError):
            tb.ops.aten.erf(object())
        with pytest.raises(InvalidArgumentError, match="int64"):
            tb.ops.aten.full([2], 2**70)

    def test_libtorch_errors(self):
        with pytest.raises(TorchError, match="aten::mm"):
            tb.ops.aten.mm(np.ones((2, 3)), np.ones((4, 5)))

    def test_mixed_libraries(self):
        with pytest.raises(MixedContainersError):
            tb.ops.aten.add(np.ones(2), jnp.ones(2))
        with pytest.raises(MixedContainersError):
            tb.ops.aten.cat([np.ones(2), torch.ones(2)])


_NO_TORCH = """
import sys
import numpy as np
import torchbridge as tb
import torchbridge.ops
x = np.linspace(-1.0, 1.0, 5)
y = tb.ops.aten.erf(x)
z = tb.special.erf(x)
w = tb.ops.call("aten::linalg_eigh", np.eye(3), UPLO="U")
assert np.allclose(y, z) and isinstance(w, tuple)
print("torch" in sys.modules)
"""


def test_ops_never_import_torch():
    out = subprocess.run([sys.executable, "-c", _NO_TORCH], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out
