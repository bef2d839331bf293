//! `torchbridge.special`: `scipy.special` routines on any array.
//!
//! Ufuncs take SciPy's positional arguments and `out=None`; the other ufunc
//! keywords (`where`, `dtype`, `casting`, ...) are refused by name. SciPy's
//! Python-level functions (`logsumexp`, `softmax`, `zeta`, `polygamma`, ...)
//! keep SciPy's exact signatures. Python `int`/`float` literals take part in
//! the loop selection as NumPy's weak scalars.

use pyo3::prelude::*;
use pyo3::types::{PyComplex, PyDict, PyFloat, PyInt, PyTuple};
use tch::Tensor;

use super::container::{classify, compute, import, import_all, wrap, Library};
use super::errors::Class;
use super::placement::on_device;
use crate::ops::special::{self as sp, FactorialExtend, Operand};
use crate::{dlpack, ops, Result};

/// SciPy's ufuncs take `out` and ufunc keywords; say plainly which are not supported.
fn reject_ufunc_options(
    routine: &str,
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<()> {
    if out.is_some_and(|out| !out.is_none()) {
        return Err(Class::UnsupportedParameter
            .err(format!("special.{routine}: out= is not supported; use the returned array")));
    }
    if let Some(kwargs) = kwargs.filter(|k| !k.is_empty()) {
        let names: Vec<String> = kwargs.keys().iter().map(|k| k.to_string()).collect();
        return Err(Class::UnsupportedParameter
            .err(format!("special.{routine}: ufunc keyword(s) {} are not supported", names.join(", "))));
    }
    Ok(())
}

/// How NumPy sees `obj` in a ufunc call: a Python `int`, `float` or `complex`
/// literal (not a NumPy scalar, not a bool) is weak.
fn operand_of(obj: &Bound<'_, PyAny>, tensor: &Tensor) -> Result<Operand> {
    if obj.is_exact_instance_of::<PyInt>() {
        Ok(Operand::PyInt)
    } else if obj.is_exact_instance_of::<PyFloat>() {
        Ok(Operand::PyFloat)
    } else if obj.is_exact_instance_of::<PyComplex>() {
        Ok(Operand::PyComplex)
    } else {
        Ok(Operand::Array(dlpack::dtype_of(tensor)?))
    }
}

fn unary(
    py: Python<'_>,
    routine: &str,
    x: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
    op: fn(&Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(routine, out, kwargs)?;
    let arg = classify(x)?;
    let tensor = import(&arg)?.tensor;
    let result = compute(py, tensor.numel(), move || op(&tensor))?;
    wrap(py, &arg.library, result, true)
}

/// Imports both arguments of a binary ufunc and casts them to the loop NumPy
/// would pick (weak literals included), so that `op` finds it by exact match.
fn binary_inputs(routine: &str, x1: &Bound<'_, PyAny>, x2: &Bound<'_, PyAny>) -> PyResult<(Vec<Tensor>, Library)> {
    let (tensors, library) = import_all(&[x1, x2])?;
    let operands = [operand_of(x1, &tensors[0])?, operand_of(x2, &tensors[1])?];
    let cast = sp::cast_to_loop(routine, &[&tensors[0], &tensors[1]], &operands)?;
    Ok((cast, library))
}

fn binary(
    py: Python<'_>,
    routine: &str,
    x1: &Bound<'_, PyAny>,
    x2: &Bound<'_, PyAny>,
    out: Option<&Bound<'_, PyAny>>,
    kwargs: Option<&Bound<'_, PyDict>>,
    op: fn(&Tensor, &Tensor) -> Result<Tensor>,
) -> PyResult<Py<PyAny>> {
    reject_ufunc_options(routine, out, kwargs)?;
    let (tensors, library) = binary_inputs(routine, x1, x2)?;
    let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
    let result = compute(py, elements, move || op(&tensors[0], &tensors[1]))?;
    wrap(py, &library, result, true)
}

macro_rules! unary_routines {
    ($($name:ident: $doc:literal),* $(,)?) => {
        $(
            #[doc = $doc]
            #[pyfunction]
            #[pyo3(signature = (x, /, out = None, *, device = None, **kwargs))]
            fn $name(
                py: Python<'_>,
                x: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                device: Option<&Bound<'_, PyAny>>,
                kwargs: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<Py<PyAny>> {
                on_device(device, || unary(py, stringify!($name), x, out, kwargs, ops::special::$name))
            }
        )*
        const UNARY: &[&str] = &[$(stringify!($name)),*];
        fn add_unary(module: &Bound<'_, PyModule>) -> PyResult<()> {
            $(module.add_function(wrap_pyfunction!($name, module)?)?;)*
            Ok(())
        }
    };
}

macro_rules! binary_routines {
    ($($name:ident: $doc:literal),* $(,)?) => {
        $(
            #[doc = $doc]
            #[pyfunction]
            #[pyo3(signature = (x1, x2, /, out = None, *, device = None, **kwargs))]
            fn $name(
                py: Python<'_>,
                x1: &Bound<'_, PyAny>,
                x2: &Bound<'_, PyAny>,
                out: Option<&Bound<'_, PyAny>>,
                device: Option<&Bound<'_, PyAny>>,
                kwargs: Option<&Bound<'_, PyDict>>,
            ) -> PyResult<Py<PyAny>> {
                on_device(device, || binary(py, stringify!($name), x1, x2, out, kwargs, ops::special::$name))
            }
        )*
        const BINARY: &[&str] = &[$(stringify!($name)),*];
        fn add_binary(module: &Bound<'_, PyModule>) -> PyResult<()> {
            $(module.add_function(wrap_pyfunction!($name, module)?)?;)*
            Ok(())
        }
    };
}

unary_routines!(
    erf: "The error function, computed by libtorch (`scipy.special.erf`).",
    erfc: "The complementary error function `1 - erf(x)` (`scipy.special.erfc`).",
    erfcx: "The scaled complementary error function `exp(x**2) * erfc(x)` (`scipy.special.erfcx`).",
    erfinv: "The inverse of the error function on [-1, 1] (`scipy.special.erfinv`).",
    erfcinv: "The inverse of the complementary error function on [0, 2] (`scipy.special.erfcinv`).",
    expit: "The logistic sigmoid `1 / (1 + exp(-x))` (`scipy.special.expit`).",
    logit: "The logit `log(p / (1 - p))` (`scipy.special.logit`).",
    log_expit: "The logarithm of the logistic sigmoid (`scipy.special.log_expit`).",
    gamma: "The gamma function, real input (`scipy.special.gamma`).",
    gammaln: "The logarithm of the absolute value of the gamma function (`scipy.special.gammaln`).",
    loggamma: "The principal branch of log(gamma(x)), real input: nan for x < 0 (`scipy.special.loggamma`).",
    digamma: "The digamma function psi = gamma'/gamma, real input (`scipy.special.digamma`, alias `psi`).",
    i0: "The modified Bessel function of the first kind of order 0 (`scipy.special.i0`).",
    i0e: "The exponentially scaled modified Bessel function of order 0 (`scipy.special.i0e`).",
    i1: "The modified Bessel function of the first kind of order 1 (`scipy.special.i1`).",
    i1e: "The exponentially scaled modified Bessel function of order 1 (`scipy.special.i1e`).",
    j0: "The Bessel function of the first kind of order 0 (`scipy.special.j0`).",
    j1: "The Bessel function of the first kind of order 1 (`scipy.special.j1`).",
    y0: "The Bessel function of the second kind of order 0 (`scipy.special.y0`).",
    y1: "The Bessel function of the second kind of order 1 (`scipy.special.y1`).",
    k0: "The modified Bessel function of the second kind of order 0 (`scipy.special.k0`).",
    k0e: "The exponentially scaled modified Bessel function K0 (`scipy.special.k0e`).",
    k1: "The modified Bessel function of the second kind of order 1 (`scipy.special.k1`).",
    k1e: "The exponentially scaled modified Bessel function K1 (`scipy.special.k1e`).",
    ndtr: "The standard normal cumulative distribution function (`scipy.special.ndtr`).",
    ndtri: "The inverse of the standard normal CDF (`scipy.special.ndtri`).",
    log_ndtr: "The logarithm of the standard normal CDF (`scipy.special.log_ndtr`).",
    entr: "Elementwise entropy `-x log(x)` (`scipy.special.entr`).",
    expm1: "`exp(x) - 1`, real input (`scipy.special.expm1`).",
    exp2: "`2**x` (`scipy.special.exp2`).",
    exp10: "`10**x` (`scipy.special.exp10`).",
    log1p: "`log(1 + x)`, real input (`scipy.special.log1p`).",
    cbrt: "The real cube root (`scipy.special.cbrt`).",
    cosm1: "`cos(x) - 1`, accurate near the multiples of 2 pi (`scipy.special.cosm1`).",
    exprel: "The relative error exponential `(exp(x) - 1) / x` (`scipy.special.exprel`).",
    sindg: "The sine of an angle in degrees (`scipy.special.sindg`).",
    cosdg: "The cosine of an angle in degrees (`scipy.special.cosdg`).",
);

binary_routines!(
    gammainc: "The regularized lower incomplete gamma function P(a, x) (`scipy.special.gammainc`).",
    gammaincc: "The regularized upper incomplete gamma function Q(a, x) (`scipy.special.gammaincc`).",
    beta: "The beta function (`scipy.special.beta`).",
    betaln: "The logarithm of the absolute value of the beta function (`scipy.special.betaln`).",
    binom: "Binomial coefficients for real arguments (`scipy.special.binom`).",
    xlogy: "`x * log(y)`, 0 where x == 0 (`scipy.special.xlogy`).",
    xlog1py: "`x * log1p(y)`, 0 where x == 0 (`scipy.special.xlog1py`).",
    rel_entr: "Elementwise relative entropy `x log(x / y)` (`scipy.special.rel_entr`).",
    kl_div: "Elementwise Kullback-Leibler divergence `x log(x / y) - x + y` (`scipy.special.kl_div`).",
    huber: "The Huber loss huber(delta, r) (`scipy.special.huber`).",
    pseudo_huber: "The pseudo-Huber loss pseudo_huber(delta, r) (`scipy.special.pseudo_huber`).",
    eval_chebyt: "The Chebyshev polynomial of the first kind T_n(x) (`scipy.special.eval_chebyt`).",
    eval_chebyu: "The Chebyshev polynomial of the second kind U_n(x) (`scipy.special.eval_chebyu`).",
    eval_hermite: "The physicists' Hermite polynomial H_n(x), integer n (`scipy.special.eval_hermite`).",
    eval_hermitenorm: "The probabilists' Hermite polynomial He_n(x), integer n (`scipy.special.eval_hermitenorm`).",
    eval_laguerre: "The Laguerre polynomial L_n(x) (`scipy.special.eval_laguerre`).",
    eval_legendre: "The Legendre polynomial P_n(x) (`scipy.special.eval_legendre`).",
    boxcox: "The Box-Cox transformation boxcox(x, lmbda) (`scipy.special.boxcox`).",
    inv_boxcox: "The inverse Box-Cox transformation inv_boxcox(y, lmbda) (`scipy.special.inv_boxcox`).",
    boxcox1p: "The Box-Cox transformation of 1 + x (`scipy.special.boxcox1p`).",
    inv_boxcox1p: "The inverse of boxcox1p (`scipy.special.inv_boxcox1p`).",
    chdtr: "The chi-square cumulative distribution function chdtr(v, x) (`scipy.special.chdtr`).",
    chdtrc: "The chi-square survival function chdtrc(v, x) (`scipy.special.chdtrc`).",
    pdtr: "The Poisson cumulative distribution function pdtr(k, m) (`scipy.special.pdtr`).",
    pdtrc: "The Poisson survival function pdtrc(k, m) (`scipy.special.pdtrc`).",
);

/// Riemann or Hurwitz zeta function (`scipy.special.zeta`): `zeta(x)` is
/// Riemann's, `zeta(x, q)` the Hurwitz zeta function `sum_k (k + q)**-x`.
#[pyfunction]
#[pyo3(signature = (x, q = None, out = None))]
fn zeta(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    q: Option<&Bound<'_, PyAny>>,
    out: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    match q.filter(|q| !q.is_none()) {
        None => unary(py, "zeta", x, out, None, ops::special::zeta),
        Some(q) => {
            reject_ufunc_options("zeta", out, None)?;
            let (tensors, library) = binary_inputs("hurwitz_zeta", x, q)?;
            let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
            let result = compute(py, elements, move || ops::special::hurwitz_zeta(&tensors[0], &tensors[1]))?;
            wrap(py, &library, result, true)
        }
    }
}

/// The polygamma function psi^(n)(x) (`scipy.special.polygamma`); like SciPy,
/// the result is an array (0-d for scalars), float32 only for two float32 inputs.
#[pyfunction]
#[pyo3(signature = (n, x))]
fn polygamma(py: Python<'_>, n: &Bound<'_, PyAny>, x: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let (tensors, library) = import_all(&[n, x])?;
    let elements = tensors.iter().map(|t| t.numel()).max().unwrap_or(0);
    let result = compute(py, elements, move || ops::special::polygamma(&tensors[0], &tensors[1]))?;
    wrap(py, &library, result, false)
}

/// The log of the multivariate gamma function of dimension `d`
/// (`scipy.special.multigammaln`).
#[pyfunction]
#[pyo3(signature = (a, d))]
fn multigammaln(py: Python<'_>, a: &Bound<'_, PyAny>, d: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let dimension = d
        .extract::<f64>()
        .ok()
        .filter(|v| v.is_finite() && v.floor() == *v)
        .ok_or_else(|| Class::InvalidArgument.err("d should be a positive integer (dimension)"))?;
    let arg = classify(a)?;
    let tensor = import(&arg)?.tensor;
    let result = compute(py, tensor.numel(), move || ops::special::multigammaln(&tensor, dimension as i64))?;
    wrap(py, &arg.library, result, true)
}

/// The array part of `factorial` (scalars are handled in `special.py`).
#[pyfunction]
#[pyo3(signature = (n, exact, extend))]
fn _factorial_array(py: Python<'_>, n: &Bound<'_, PyAny>, exact: bool, extend: &str) -> PyResult<Py<PyAny>> {
    let arg = classify(n)?;
    let tensor = import(&arg)?.tensor;
    let dtype = dlpack::dtype_of(&tensor)?;
    if dtype == crate::DType::Bool {
        return Err(Class::InvalidArgument.err(format!(
            "Unsupported data type for `n` in factorial: {dtype}\nPermitted data types are integers and \
             floating point numbers, as well as complex numbers if `extend='complex' is passed."
        )));
    }
    if dtype.is_complex() && extend != "complex" {
        return Err(Class::InvalidArgument.err(
            "In order to use non-integer arguments, you must opt into this by passing `extend='complex'`. \
             Note that this changes the result for all negative arguments (which by default return 0).",
        ));
    }
    if exact && (dtype.is_float() || dtype.is_complex()) {
        return Err(
            Class::InvalidArgument.err(format!("`exact=True` only supports integers, cannot use data type {dtype}"))
        );
    }
    if tensor.numel() == 0 {
        return Ok(arg.array.clone().unbind());
    }
    let complex = extend == "complex";
    let result = compute(py, tensor.numel(), move || {
        if exact {
            ops::special::factorial_exact(&tensor)
        } else if complex {
            factorial_complex(&tensor)
        } else {
            ops::special::factorial(&tensor, FactorialExtend::Zero)
        }
    })?;
    wrap(py, &arg.library, result, false)
}

/// `gamma(n + 1)` in the dtype SciPy's `_gamma1p` gets (n + 1 keeps n's dtype;
/// then gamma's loop), nan at n = -1.
fn factorial_complex(n: &Tensor) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(n)?;
    let plus_one = if dtype.kind().is_some() && dtype != crate::DType::Bool {
        n.f_add_scalar(1)?
    } else {
        n.f_to_kind(tch::Kind::Int64)?.f_add_scalar(1)?
    };
    let value = ops::special::gamma(&plus_one)?;
    let at_minus_one = n.f_to_kind(tch::Kind::Double)?.f_eq(-1.0)?;
    Ok(value.f_masked_fill(&at_minus_one, f64::NAN)?)
}

/// The normalized sinc `sin(pi x) / (pi x)` with `numpy.sinc`'s semantics
/// (SciPy has no sinc).
#[pyfunction]
#[pyo3(signature = (x))]
fn sinc(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
    let arg = classify(x)?;
    let tensor = import(&arg)?.tensor;
    let result = compute(py, tensor.numel(), move || ops::special::sinc(&tensor))?;
    wrap(py, &arg.library, result, true)
}

/// NumPy's `axis`: `None`, an int, or a sequence of ints.
fn parse_axis(axis: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Vec<i64>>> {
    let Some(axis) = axis.filter(|a| !a.is_none()) else {
        return Ok(None);
    };
    if let Ok(single) = axis.extract::<i64>() {
        return Ok(Some(vec![single]));
    }
    axis.extract::<Vec<i64>>().map(Some).map_err(|_| {
        Class::InputType.err(format!(
            "axis must be None, an integer or a tuple of integers, got {}",
            axis.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))
    })
}

/// `log(sum(b * exp(a)))` over `axis`, with SciPy's signature and semantics
/// (`scipy.special.logsumexp`): a NumPy scalar for a full reduction of NumPy
/// input, `(result, sign)` with `return_sign=True`.
#[pyfunction]
#[pyo3(signature = (a, axis = None, b = None, keepdims = false, return_sign = false))]
fn logsumexp(
    py: Python<'_>,
    a: &Bound<'_, PyAny>,
    axis: Option<&Bound<'_, PyAny>>,
    b: Option<&Bound<'_, PyAny>>,
    keepdims: bool,
    return_sign: bool,
) -> PyResult<Py<PyAny>> {
    let axis = parse_axis(axis)?;
    let b = b.filter(|b| !b.is_none());
    let (mut tensors, library) = match b {
        Some(b) => import_all(&[a, b])?,
        None => import_all(&[a])?,
    };
    if let Some(b_obj) = b {
        // a weak literal weight takes a's floating dtype (SciPy's xp_promote)
        if !matches!(operand_of(b_obj, &tensors[1])?, Operand::Array(_)) {
            let dtype = sp::logsumexp_dtype(&[dlpack::dtype_of(&tensors[0])?])?;
            let kind = dtype.kind().expect("a floating dtype");
            tensors[1] = tensors[1].f_to_kind(kind).map_err(crate::Error::from)?;
        }
    }
    let elements = tensors[0].numel();
    let (out, sign) = compute(py, elements, move || {
        ops::special::logsumexp(&tensors[0], axis.as_deref(), tensors.get(1), keepdims, return_sign)
    })?;
    let out = wrap(py, &library, out, true)?;
    match sign {
        Some(sign) => {
            let sign = wrap(py, &library, sign, true)?;
            Ok(PyTuple::new(py, [out, sign])?.into_any().unbind())
        }
        None => Ok(out),
    }
}

/// The softmax over `axis` (all axes for None), `scipy.special.softmax`.
#[pyfunction]
#[pyo3(signature = (x, axis = None))]
fn softmax(py: Python<'_>, x: &Bound<'_, PyAny>, axis: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    let axis = parse_axis(axis)?;
    let arg = classify(x)?;
    let tensor = import(&arg)?.tensor;
    let result = compute(py, tensor.numel(), move || ops::special::softmax(&tensor, axis.as_deref()))?;
    wrap(py, &arg.library, result, true)
}

/// The logarithm of the softmax over `axis`, `scipy.special.log_softmax`.
#[pyfunction]
#[pyo3(signature = (x, axis = None))]
fn log_softmax(py: Python<'_>, x: &Bound<'_, PyAny>, axis: Option<&Bound<'_, PyAny>>) -> PyResult<Py<PyAny>> {
    let axis = parse_axis(axis)?;
    let arg = classify(x)?;
    let tensor = import(&arg)?.tensor;
    let result = compute(py, tensor.numel(), move || ops::special::log_softmax(&tensor, axis.as_deref()))?;
    wrap(py, &arg.library, result, true)
}

/// SciPy's loop strings for one of this module's ufuncs (for tests and docs).
#[pyfunction]
fn _ufunc_types(name: &str) -> Option<Vec<&'static str>> {
    sp::ufunc_types(name).map(|t| t.to_vec())
}

/// Adds the `special` submodule to `_core`.
pub(crate) fn register(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let module = super::submodule(parent, "special")?;
    add_unary(&module)?;
    add_binary(&module)?;
    for function in [
        wrap_pyfunction!(zeta, &module)?,
        wrap_pyfunction!(polygamma, &module)?,
        wrap_pyfunction!(multigammaln, &module)?,
        wrap_pyfunction!(_factorial_array, &module)?,
        wrap_pyfunction!(sinc, &module)?,
        wrap_pyfunction!(logsumexp, &module)?,
        wrap_pyfunction!(softmax, &module)?,
        wrap_pyfunction!(log_softmax, &module)?,
        wrap_pyfunction!(_ufunc_types, &module)?,
    ] {
        module.add_function(function)?;
    }
    module.add("_UNARY", UNARY.to_vec())?;
    module.add("_BINARY", BINARY.to_vec())?;
    super::attach(parent, &module)
}
