"""``torch.compile`` over torchbridge's routines (issue 18, part 3).

The routines of ``torchbridge/_compile.py`` are torch custom operators with
fake kernels, and Dynamo traces each builtin as a call of its operator: a
function mixing special, fft and linalg routines compiles with
``fullgraph=True``, without a graph break, to the values eager mode gives.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
import torch
import torch._dynamo
from torch._subclasses.fake_tensor import FakeTensorMode

import torchbridge as tb
from torchbridge import _compile, _core

D = torch.float64


def mixed(x, a):
    y = tb.special.erf(x) + tb.special.gammaln(x + 1.0) * tb.special.xlogy(x, x + 2.0)
    z = tb.fft.rfft(y)
    w = tb.fft.irfft(z, n=x.shape[-1])
    s = tb.linalg.solve(a, w[:4])
    return tb.special.expit(s).sum() + tb.fft.dct(x, norm="ortho").sum() + tb.linalg.det(tb.linalg.expm(a / 8))


def _inputs():
    g = torch.Generator().manual_seed(0)
    x = torch.rand(8, dtype=D, generator=g)
    a = torch.rand(4, 4, dtype=D, generator=g) + 4 * torch.eye(4, dtype=D)
    return x, a


def test_no_graph_break():
    torch._dynamo.reset()
    explained = torch._dynamo.explain(mixed)(*_inputs())
    assert explained.graph_break_count == 0, explained.break_reasons
    assert explained.graph_count == 1


def test_fullgraph_equals_eager_through_aot_autograd():
    torch._dynamo.reset()
    x, a = _inputs()
    compiled = torch.compile(mixed, fullgraph=True, backend="aot_eager")
    assert torch.equal(compiled(x, a), mixed(x, a))
    x2 = torch.rand(8, dtype=D)  # a second call with new data reuses the graph
    assert torch.equal(compiled(x2, a), mixed(x2, a))


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # raised inside torch's inductor
def test_fullgraph_with_inductor():
    torch._dynamo.reset()
    x, a = _inputs()
    compiled = torch.compile(mixed, fullgraph=True)
    torch.testing.assert_close(compiled(x, a), mixed(x, a), rtol=1e-13, atol=0)


SPECIAL = sorted(_core.special.UFUNCS)


@pytest.mark.parametrize("name", SPECIAL)
def test_the_fake_kernel_gives_the_real_shape_and_dtype(name):
    _compile.register()
    op = getattr(torch.ops.torchbridge, f"special_{name}").default
    nin = len(_core.special._ufunc_types(name)[0].split("->")[0])
    shapes = [(3, 1), (1, 4), (4,), (1, 1)][:nin]
    for dtype in (torch.float32, torch.float64, torch.int64):
        args = [(torch.rand(s) * 3 + 0.5).to(dtype) for s in shapes]
        try:
            real = op(*args)
        except tb.TorchbridgeError:
            continue  # no loop for this dtype (the fake kernel's TypeError is tested below)
        with FakeTensorMode() as mode:
            fake = op(*(mode.from_tensor(t) for t in args))
        if isinstance(real, tuple):  # a multi-output ufunc
            assert isinstance(fake, tuple) and len(fake) == len(real)
        else:
            fake, real = (fake,), (real,)
        for f, r in zip(fake, real):
            assert (f.shape, f.dtype) == (r.shape, r.dtype), (dtype, f.dtype, r.dtype)


def test_a_dtype_without_a_loop_is_a_type_error_in_the_fake_kernel():
    with pytest.raises(TypeError, match="no loop"):
        _compile._ufunc_dtype("erf", ["d->d"], [torch.complex128])


@pytest.mark.parametrize("name", _compile.FFT)
def test_fft_fake_kernels(name):
    _compile.register()
    op = getattr(torch.ops.torchbridge, f"fft_{name}").default
    x = torch.rand(3, 8, dtype=torch.float32)
    if name in ("ifft", "irfft"):
        x = torch.complex(x, x)
    kwargs = {"n": 6, "axis": 0} if name in ("fft", "ifft", "dct", "dst") else {}
    real = op(x, **kwargs)
    with FakeTensorMode() as mode:
        fake = op(mode.from_tensor(x), **kwargs)
    assert (fake.shape, fake.dtype) == (real.shape, real.dtype)


def test_importing_torchbridge_does_not_load_dynamo():
    code = "import torch, sys, torchbridge; print('torch._dynamo' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    # and once Dynamo loads, the operators exist
    code = "import torchbridge, torch, torch._dynamo; print(hasattr(torch.ops.torchbridge, 'special_erf'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


@pytest.mark.filterwarnings("ignore:Warning. Profiler clears events")
def test_eager_calls_do_not_go_through_the_custom_operators():
    x = torch.rand(5, dtype=D)
    with torch.profiler.profile() as prof:
        tb.special.erf(x)
    assert not any("torchbridge::" in e.name for e in prof.events())


#: a domain inside which each formula of ``_compile._derivatives`` is smooth
DOMAINS = {"logit": (0.1, 0.9), "gammaln": (0.5, 3.0), "digamma": (0.5, 3.0), "entr": (0.1, 1.0)}
DOMAINS.update({name: (0.2, 1.5) for name in ("log1p", "expm1", "i0", "i0e", "xlogy", "xlog1py")})


@pytest.mark.parametrize("name", sorted(_compile._DERIVATIVES))
def test_the_operators_autograd_formula(name):
    """The registered formula against central differences, on the operator itself."""
    _compile.register()
    op = getattr(torch.ops.torchbridge, f"special_{name}").default
    nin = len(_core.special._ufunc_types(name)[0].split("->")[0])
    lo, hi = DOMAINS.get(name, (-2.0, 2.0))
    g = torch.Generator().manual_seed(3)
    args = tuple((torch.rand(5, dtype=D, generator=g) * (hi - lo) + lo).requires_grad_() for _ in range(nin))
    assert torch.autograd.gradcheck(op, args, atol=1e-7, rtol=1e-6)


def test_compiled_backward_equals_eager():
    torch._dynamo.reset()

    def f(x, y):
        return (tb.special.erf(x) + tb.special.gammaln(x + 1) * tb.special.xlogy(x, y) + tb.special.log_ndtr(x)).sum()

    x = torch.rand(6, dtype=D).requires_grad_()
    y = (torch.rand(6, dtype=D) + 1).requires_grad_()
    eager = torch.autograd.grad(f(x, y), (x, y))
    compiled = torch.autograd.grad(torch.compile(f, fullgraph=True, backend="aot_eager")(x, y), (x, y))
    for a, b in zip(eager, compiled):
        torch.testing.assert_close(a, b, rtol=1e-14, atol=1e-15)
