"""Bad input gets a clear exception naming what was wrong: never a crash."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import torch

import torchbridge as tb


@pytest.mark.parametrize(
    ("array", "named"),
    [
        (np.array([object(), 1], dtype=object), "object"),
        (np.array(["a", "b"]), "<U1"),
        (np.array([b"a"]), "|S1"),
        (np.array(["2026-12-01"], dtype="datetime64[D]"), "datetime64[D]"),
        (np.array([1, 2], dtype="timedelta64[s]"), "timedelta64[s]"),
        (np.arange(3.0).astype(">f8"), ">f8"),
        (np.arange(3.0).astype(np.longdouble), "float128"),
        (np.zeros(2, dtype=[("a", "f8")]), "[('a', '<f8')]"),
    ],
)
def test_unsupported_numpy_dtypes_raise_dtype_error_naming_it(array, named):
    with pytest.raises(tb.DtypeError, match=r"dtype " + __import__("re").escape(named)) as info:
        tb.special.erf(array)
    assert isinstance(info.value, TypeError)
    assert "accepted: bool" in str(info.value)
    # A dtype with no numbers is also the ValueError scipy.linalg raises for it.
    holds_numbers = array.dtype.kind in "biufc"
    assert isinstance(info.value, tb.NonNumericDtypeError) is (not holds_numbers)
    assert isinstance(info.value, ValueError) is (not holds_numbers)
    with pytest.raises(tb.DtypeError):
        tb.apply(lambda t: t, array)


@pytest.mark.parametrize("array", [np.array([object(), 1], dtype=object), np.array(["a", "b"]), np.array([b"ab"])])
def test_non_numeric_dtypes_raise_what_scipy_raises(array):
    """SciPy's class for the same bad input is an ancestor of torchbridge's."""
    import scipy.linalg
    import scipy.special

    for ours, theirs, arg in [
        (tb.special.erf, scipy.special.erf, array),
        (tb.linalg.inv, scipy.linalg.inv, array.reshape(1, -1)[:, :1]),
    ]:
        with pytest.raises(Exception) as scipys:
            theirs(arg)
        with pytest.raises(tb.NonNumericDtypeError) as ours_raised:
            ours(arg)
        assert isinstance(ours_raised.value, type(scipys.value)), (scipys.value, ours_raised.value)


@pytest.mark.parametrize("value", [None, "text", {"a": 1}, object(), b"bytes"])
def test_non_arrays_raise_input_type_error(value):
    with pytest.raises(tb.InputTypeError, match="expected an array") as info:
        tb.special.expit(value)
    assert isinstance(info.value, TypeError)


def test_mixed_libraries_raise_type_error_naming_both():
    with pytest.raises(tb.MixedContainersError, match=r"numpy.*torch") as info:
        tb.apply(torch.add, np.ones(3), torch.ones(3))
    assert isinstance(info.value, TypeError)


def test_consumed_capsule_and_lying_producers():
    class Consumed:
        def __init__(self):
            self.capsule = np.ones(3).__dlpack__(max_version=(1, 0))
            np.from_dlpack(_Holder(self.capsule)) if False else None

        def __dlpack__(self, **kwargs):
            return self.capsule

        def __dlpack_device__(self):
            return (1, 0)

    producer = Consumed()
    tb.special.erf(producer)  # first use consumes the capsule
    with pytest.raises(tb.DLPackError, match="already been consumed"):
        tb.special.erf(producer)

    class Raises:
        def __dlpack__(self, **kwargs):
            raise RuntimeError("producer failed")

        def __dlpack_device__(self):
            return (1, 0)

    with pytest.raises(tb.DLPackError, match="producer failed") as info:
        tb.special.erf(Raises())
    assert isinstance(info.value.__cause__, RuntimeError)

    class NotACapsule:
        def __dlpack__(self, **kwargs):
            return 42

        def __dlpack_device__(self):
            return (1, 0)

    with pytest.raises(tb.DLPackError):
        tb.special.erf(NotACapsule())

    class WrongDevice:
        def __dlpack__(self, **kwargs):
            return np.ones(3).__dlpack__(max_version=(1, 0))

        def __dlpack_device__(self):
            return (8, 0)  # Metal

    # The claimed device is refused before the producer exports anything.
    with pytest.raises(tb.DeviceError, match="unsupported device: DLPack device type 8"):
        tb.special.erf(WrongDevice())


class _Holder:
    def __init__(self, capsule):
        self.capsule = capsule


def test_errors_are_catchable_by_the_root_class():
    with pytest.raises(tb.TorchbridgeError):
        tb.special.erf("x")
    with pytest.raises(tb.TorchbridgeError):
        tb.special.erf(np.array(["x"]))


def test_set_num_threads_validates():
    with pytest.raises(tb.InvalidArgumentError):
        tb.set_num_threads(0)


def test_bad_inputs_do_not_crash_the_interpreter():
    """Every bad case again in a fresh process: a segfault or abort fails here."""
    script = textwrap.dedent(
        """
        import numpy as np, torchbridge as tb
        cases = [None, "s", np.array([object()]), np.arange(3.0).astype(">f8"),
                 np.array(["2026-12-01"], dtype="datetime64[D]"), np.ones((0, 3))[:, ::-1],
                 np.ones(()), np.ones((1,) * 32), np.broadcast_to(np.ones(1), (10**6,)),
                 np.frombuffer(bytes(17), dtype=np.float64, count=2, offset=1)]
        caught = 0
        for case in cases:
            for fn in (tb.special.erf, lambda a: tb.apply(lambda t: t + 1, a)):
                try:
                    fn(case)
                except tb.TorchbridgeError:
                    caught += 1
        print("caught", caught)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "caught 10", done.stdout
