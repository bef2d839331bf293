//! THE table of `torchbridge.special`'s ufuncs, declared once: each row names
//! the ufunc, SciPy's loop strings (`scipy.special.<name>.types`), what it
//! accepts (in words, for the dtype error), how its kernel runs, the kernel,
//! and its docstring. `special_ufuncs!` hands the table to a macro of the
//! caller's; this module expands it into the [`Ufunc`] entries ([`ALL`]) and
//! the public ops functions (`ops::special::erf`, ...), and the Python
//! bindings expand it into one `#[pyfunction]` per ufunc and the names of
//! `torchbridge.special.__all__` that are ufuncs.
//!
//! Kernels run one of two ways: `float64` kernels compute on the inputs cast
//! to the loop's dtypes with floating loops widened to float64, then round
//! once to the loop's output dtype (`loops::unary`); `direct`
//! kernels take the caller's tensors and the row (erf, erfc, expit, logit and
//! gammaln keep libtorch's float32 kernels; the polynomials resolve their
//! integer-degree loops themselves).
//!
//! The `*_multi` groups are SciPy's ufuncs with several outputs (`sici`:
//! `"d->dd"`, `airy`: `"d->dddd"`, ...): each row also gives `nout`, their
//! kernels compute on float64 and return one tensor per output
//! (`loops::unary_multi`, `loops::binary_multi`), each rounded to the loop's
//! output dtype; the ops functions return them as a `Vec`, the Python
//! bindings as a tuple of the caller's arrays.
//!
//! The `*_internal` groups are loops used by routines that are not ufuncs in
//! torchbridge's Python face: `psi` (the face's `psi` is `digamma` itself),
//! `zeta`/`hurwitz_zeta`, SciPy's `_riemann_zeta`/`_zeta` behind the
//! Python-level `zeta(x, q=None)`, and `spherical_jn` ... `spherical_kn_d`,
//! SciPy's `_spherical_jn` ... `_spherical_kn_d` behind the Python-level
//! `spherical_jn(n, z, derivative=False)` and its siblings.

use tch::Tensor;

use super::helpers::guarded;
use super::loops;
use crate::Result;

/// One SciPy ufunc: its loop strings and what it accepts, in words.
#[derive(Debug)]
pub struct Ufunc {
    /// SciPy's name.
    pub name: &'static str,
    /// `special.<name>`, as errors name it.
    pub qualified: &'static str,
    /// The number of inputs.
    pub nin: usize,
    /// The number of outputs (SciPy's `nout`: 1, or 2 and 4 for the
    /// multi-output rows, whose ops return one tensor per output).
    pub nout: usize,
    /// SciPy's loop strings, in SciPy's order (`"dd->d"`, ...).
    pub types: &'static [&'static str],
    /// What the ufunc accepts, for [`crate::Error::DtypeNotAccepted`].
    pub accepts: &'static str,
    /// The docstring.
    pub doc: &'static str,
    /// The kernel runs through the float64 loop (`loops`: casts, the kernel,
    /// the rounding: several libtorch ops a call), not `direct`ly.
    pub float64: bool,
}

const REAL: &str = "bool, integer and real floating-point input";
const COMPLEX: &str = "bool, integer, floating-point and complex input";
const REAL2: &str = "bool, integer and real floating-point inputs";
const REAL3: &str = REAL2;
const DEGREE: &str = "an integer degree n (bool or integer up to int64) and real x";
const POLY: &str = "a degree n (integer, or real with integral values) and real or complex x";
const BESSEL_COMPLEX: &str = "a real order v (bool, integer or real floating-point) and a real or complex z";
const SPHERICAL: &str = "an integer order n and real or complex z";
const PARAMETRIC: &str = "a degree n (integer, or real with integral values), real parameters and real or complex x";
const HYPER_COMPLEX: &str = "bool, integer and real floating-point parameters and a real or complex z";

/// Hands the ufunc table to the macro `$then` (see the module docs).
macro_rules! special_ufuncs {
    ($then:ident) => {
        $then! {
        unary {
            erf: ["d->d", "f->f", "D->D", "F->F"] REAL direct super::erf::erf,
                "Returns the error function of complex argument.\n\nThe error function, computed by libtorch for real input; complex input by the Faddeeva-function kernel, CPU only (`scipy.special.erf`).";
            erfc: ["d->d", "f->f", "D->D", "F->F"] REAL direct super::erf::erfc,
                "Complementary error function, ``1 - erf(x)``.\n\nThe complementary error function `1 - erf(x)`; complex input by the Faddeeva-function kernel, CPU only (`scipy.special.erfc`).";
            erfcx: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::erf::erfcx,
                "Scaled complementary error function, ``exp(x**2) * erfc(x)``.\n\nThe scaled complementary error function `exp(x**2) * erfc(x)` ; complex input `w(iz)`, CPU only (`scipy.special.erfcx`).";
            wofz: ["D->D", "F->F"] COMPLEX float64 super::faddeeva::wofz,
                "Faddeeva function\n\nThe Faddeeva function `w(z) = exp(-z**2) erfc(-iz)` (`scipy.special.wofz`): continued fraction for large |z|, Zaghloul and Ali's sums elsewhere; a C++ kernel, CPU only.";
            erfinv: ["f->f", "d->d"] REAL float64 super::erf::erfinv,
                "Inverse of the error function.\n\nThe inverse of the error function on [-1, 1] (`scipy.special.erfinv`).";
            erfcinv: ["f->f", "d->d"] REAL float64 super::erf::erfcinv,
                "Inverse of the complementary error function.\n\nThe inverse of the complementary error function on [0, 2] (`scipy.special.erfcinv`).";
            expit: ["d->d", "f->f", "g->g"] REAL direct super::logit::expit,
                "Expit (a.k.a. logistic sigmoid) ufunc for ndarrays.\n\nThe logistic sigmoid `1 / (1 + exp(-x))` (`scipy.special.expit`).";
            logit: ["d->d", "f->f", "g->g"] REAL direct super::logit::logit,
                "Logit ufunc for ndarrays.\n\nThe logit `log(p / (1 - p))` (`scipy.special.logit`).";
            log_expit: ["d->d", "f->f", "g->g"] REAL float64 super::logit::log_expit,
                "Logarithm of the logistic sigmoid function.\n\nThe logarithm of the logistic sigmoid (`scipy.special.log_expit`).";
            gamma: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::gamma::gamma,
                "gamma function.\n\nThe gamma function (`scipy.special.gamma`); complex input exp(loggamma(z)) by torchbridge's complex xsf kernel, CPU only.";
            gammaln: ["d->d", "f->f"] REAL direct super::gamma::gammaln,
                "Logarithm of the absolute value of the gamma function.\n\nThe logarithm of the absolute value of the gamma function (`scipy.special.gammaln`).";
            loggamma: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::gamma::loggamma,
                "Principal branch of the logarithm of the gamma function.\n\nThe principal branch of log(gamma(x)): nan for real x < 0; complex input SciPy's continuous branch (not log(gamma(z))) by torchbridge's complex xsf kernel, CPU only (`scipy.special.loggamma`).";
            digamma: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::gamma::digamma,
                "The digamma function.\n\nThe digamma function psi = gamma'/gamma (`scipy.special.digamma`, alias `psi`); complex input by torchbridge's complex xsf kernel, CPU only.";
            i0: ["d->d", "f->f"] REAL float64 super::bessel::i0,
                "Modified Bessel function of order 0.\n\nThe modified Bessel function of the first kind of order 0 (`scipy.special.i0`).";
            i0e: ["d->d", "f->f"] REAL float64 super::bessel::i0e,
                "Exponentially scaled modified Bessel function of order 0.\n\nThe exponentially scaled modified Bessel function of order 0 (`scipy.special.i0e`).";
            i1: ["d->d", "f->f"] REAL float64 super::bessel::i1,
                "Modified Bessel function of order 1.\n\nThe modified Bessel function of the first kind of order 1 (`scipy.special.i1`).";
            i1e: ["d->d", "f->f"] REAL float64 super::bessel::i1e,
                "Exponentially scaled modified Bessel function of order 1.\n\nThe exponentially scaled modified Bessel function of order 1 (`scipy.special.i1e`).";
            j0: ["d->d", "f->f"] REAL float64 super::bessel::j0,
                "Bessel function of the first kind of order 0.\n\nThe Bessel function of the first kind of order 0 (`scipy.special.j0`).";
            j1: ["d->d", "f->f"] REAL float64 super::bessel::j1,
                "Bessel function of the first kind of order 1.\n\nThe Bessel function of the first kind of order 1 (`scipy.special.j1`).";
            y0: ["d->d", "f->f"] REAL float64 super::bessel::y0,
                "Bessel function of the second kind of order 0.\n\nThe Bessel function of the second kind of order 0 (`scipy.special.y0`).";
            y1: ["d->d", "f->f"] REAL float64 super::bessel::y1,
                "Bessel function of the second kind of order 1.\n\nThe Bessel function of the second kind of order 1 (`scipy.special.y1`).";
            k0: ["d->d", "f->f"] REAL float64 super::bessel::k0,
                "Modified Bessel function of the second kind of order 0, :math:`K_0`.\n\nThe modified Bessel function of the second kind of order 0 (`scipy.special.k0`).";
            k0e: ["d->d", "f->f"] REAL float64 super::bessel::k0e,
                "Exponentially scaled modified Bessel function K of order 0\n\nThe exponentially scaled modified Bessel function K0 (`scipy.special.k0e`).";
            k1: ["d->d", "f->f"] REAL float64 super::bessel::k1,
                "Modified Bessel function of the second kind of order 1, :math:`K_1(x)`.\n\nThe modified Bessel function of the second kind of order 1 (`scipy.special.k1`).";
            k1e: ["d->d", "f->f"] REAL float64 super::bessel::k1e,
                "Exponentially scaled modified Bessel function K of order 1\n\nThe exponentially scaled modified Bessel function K1 (`scipy.special.k1e`).";
            ndtr: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::erf::ndtr,
                "Cumulative distribution of the standard normal distribution.\n\nThe standard normal cumulative distribution function (`scipy.special.ndtr`); complex input erfc(-z / sqrt 2) / 2 by the Faddeeva-function kernel, CPU only.";
            ndtri: ["f->f", "d->d"] REAL float64 super::erf::ndtri,
                "Inverse of `ndtr` vs x\n\nThe inverse of the standard normal CDF (`scipy.special.ndtri`).";
            log_ndtr: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::erf::log_ndtr,
                "Logarithm of Gaussian cumulative distribution function.\n\nThe logarithm of the standard normal CDF (`scipy.special.log_ndtr`); complex input the principal branch, by the Faddeeva-function kernel, CPU only.";
            entr: ["f->f", "d->d"] REAL float64 super::convex_analysis::entr,
                "Elementwise function for computing entropy.\n\nElementwise entropy `-x log(x)` (`scipy.special.entr`).";
            expm1: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::elementary::expm1,
                "Compute ``exp(x) - 1``.\n\n`exp(x) - 1`; complex input as SciPy's `cexpm1`, accurate next to 0 (`scipy.special.expm1`).";
            exp2: ["d->d", "f->f"] REAL float64 super::elementary::exp2,
                "Compute ``2**x`` element-wise.\n\n`2**x` (`scipy.special.exp2`).";
            exp10: ["d->d", "f->f"] REAL float64 super::elementary::exp10,
                "Compute ``10**x`` element-wise.\n\n`10**x` (`scipy.special.exp10`).";
            log1p: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::elementary::log1p,
                "Calculates log(1 + x) for use when `x` is near zero.\n\n`log(1 + x)`; complex input as SciPy's `clog1p`, accurate where `|1 + z|` is near 1 (`scipy.special.log1p`).";
            cbrt: ["d->d", "f->f"] REAL float64 super::elementary::cbrt,
                "Element-wise cube root of `x`.\n\nThe real cube root (`scipy.special.cbrt`).";
            sindg: ["d->d", "f->f"] REAL float64 super::elementary::sindg,
                "Sine of the angle `x` given in degrees.\n\nThe sine of an angle in degrees (`scipy.special.sindg`).";
            cosdg: ["d->d", "f->f"] REAL float64 super::elementary::cosdg,
                "Cosine of the angle `x` given in degrees.\n\nThe cosine of an angle in degrees (`scipy.special.cosdg`).";
            cosm1: ["d->d", "f->f"] REAL float64 super::elementary::cosm1,
                "cos(x) - 1 for use when `x` is near zero.\n\n`cos(x) - 1`, accurate near the multiples of 2 pi (`scipy.special.cosm1`).";
            exprel: ["d->d", "f->f"] REAL float64 super::elementary::exprel,
                "Relative error exponential, ``(exp(x) - 1)/x``.\n\nThe relative error exponential `(exp(x) - 1) / x` (`scipy.special.exprel`).";
            exp1: ["f->f", "d->d", "F->F", "D->D"] REAL float64 super::expint::exp1,
                "Exponential integral E1.\n\nThe exponential integral E1(x): series below 1, continued fraction above; complex input by torchbridge's complex xsf kernel, CPU only (`scipy.special.exp1`).";
            expi: ["f->f", "d->d", "F->F", "D->D"] REAL float64 super::expint::expi,
                "Exponential integral Ei.\n\nThe exponential integral Ei(x), accurate about its zero at 0.3725; complex input -E1(-z) -+ i pi by torchbridge's complex xsf kernel, CPU only (`scipy.special.expi`).";
            erfi: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::faddeeva::erfi,
                "Imaginary error function, ``-i erf(i z)``.\n\nThe imaginary error function; complex input by the Faddeeva-function kernel, CPU only (`scipy.special.erfi`).";
            dawsn: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::faddeeva::dawsn,
                "Dawson's integral.\n\nDawson's integral: real input by series, Rybicki's sampling sum, asymptotic series; complex input by the Faddeeva-function kernel, CPU only (`scipy.special.dawsn`).";
            spence: ["f->f", "d->d", "F->F", "D->D"] REAL float64 super::spence::spence,
                "Spence's function, also known as the dilogarithm.\n\nSpence's function Li2(1 - x) (`scipy.special.spence`); complex input SciPy's series and reflection by torchbridge's complex xsf kernel, CPU only.";
            zetac: ["d->d", "f->f"] REAL float64 super::zeta::zetac,
                "Riemann zeta function minus 1.\n\n`zeta(x) - 1`, accurate where zeta is near 1 (`scipy.special.zetac`).";
            ellipk: ["d->d", "f->f"] REAL float64 super::ellip::ellipk,
                "Complete elliptic integral of the first kind.\n\nK(m) = R_F(0, 1 - m, 1) (`scipy.special.ellipk`).";
            ellipkm1: ["d->d", "f->f"] REAL float64 super::ellip::ellipkm1,
                "Complete elliptic integral of the first kind around `m` = 1\n\nK(1 - p) = R_F(0, p, 1), accurate for small p (`scipy.special.ellipkm1`).";
            ellipe: ["d->d", "f->f"] REAL float64 super::ellip::ellipe,
                "Complete elliptic integral of the second kind\n\nE(m) = 2 R_G(0, 1 - m, 1) (`scipy.special.ellipe`).";
            kolmogorov: ["f->f", "d->d"] REAL float64 super::kolmogorov::kolmogorov,
                "Complementary cumulative distribution (Survival Function) function of Kolmogorov distribution.\n\nThe Kolmogorov distribution's survival function (`scipy.special.kolmogorov`).";
            kolmogi: ["f->f", "d->d"] REAL float64 super::kolmogorov::kolmogi,
                "Inverse Survival Function of Kolmogorov distribution\n\nThe inverse of kolmogorov (`scipy.special.kolmogi`).";
            rgamma: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::gamma::rgamma,
                "Reciprocal of the gamma function.\n\n1 / Gamma(x), finite where Gamma overflows; complex input exp(-loggamma(z)) by torchbridge's complex xsf kernel, CPU only (`scipy.special.rgamma`).";
            gammasgn: ["d->d", "f->f"] REAL float64 super::gamma::gammasgn,
                "Sign of the gamma function.\n\nThe sign of Gamma(x) (`scipy.special.gammasgn`).";
            ndtri_exp: ["f->f", "d->d"] REAL float64 super::erf::ndtri_exp,
                "Inverse of `log_ndtr` vs x. Allows for greater precision than `ndtri` composed with `numpy.exp` for very small values of y and for y close to 0.\n\nndtri(exp(y)) without underflow (`scipy.special.ndtri_exp`).";
        }
        binary {
            gammainc: ["dd->d", "ff->f"] REAL2 float64 super::gammainc::gammainc,
                "Regularized lower incomplete gamma function.\n\nThe regularized lower incomplete gamma function P(a, x) (`scipy.special.gammainc`).";
            gammaincc: ["dd->d", "ff->f"] REAL2 float64 super::gammainc::gammaincc,
                "Regularized upper incomplete gamma function.\n\nThe regularized upper incomplete gamma function Q(a, x) (`scipy.special.gammaincc`).";
            beta: ["dd->d", "ff->f"] REAL2 float64 super::beta::beta,
                "Beta function.\n\nThe beta function (`scipy.special.beta`).";
            betaln: ["dd->d", "ff->f"] REAL2 float64 super::beta::betaln,
                "Natural logarithm of absolute value of beta function.\n\nThe logarithm of the absolute value of the beta function (`scipy.special.betaln`).";
            binom: ["ff->f", "dd->d"] REAL2 float64 super::beta::binom,
                "Binomial coefficient considered as a function of two real variables.\n\nBinomial coefficients for real arguments (`scipy.special.binom`).";
            xlogy: ["dd->d", "ff->f", "DD->D", "FF->F"] REAL2 float64 super::convex_analysis::xlogy,
                "Compute ``x*log(y)`` so that the result is 0 if ``x = 0``.\n\n`x * log(y)`, 0 where x == 0 (unless y is nan), complex input included (`scipy.special.xlogy`).";
            xlog1py: ["dd->d", "ff->f", "DD->D", "FF->F"] REAL2 float64 super::convex_analysis::xlog1py,
                "Compute ``x*log1p(y)`` so that the result is 0 if ``x = 0``.\n\n`x * log1p(y)`, 0 where x == 0 (unless y is nan), complex input included (`scipy.special.xlog1py`).";
            rel_entr: ["ff->f", "dd->d"] REAL2 float64 super::convex_analysis::rel_entr,
                "Elementwise function for computing relative entropy.\n\nElementwise relative entropy `x log(x / y)` (`scipy.special.rel_entr`).";
            kl_div: ["ff->f", "dd->d"] REAL2 float64 super::convex_analysis::kl_div,
                "Elementwise function for computing Kullback-Leibler divergence.\n\nElementwise Kullback-Leibler divergence `x log(x / y) - x + y` (`scipy.special.kl_div`).";
            huber: ["ff->f", "dd->d"] REAL2 float64 super::convex_analysis::huber,
                "Huber loss function.\n\nThe Huber loss huber(delta, r) (`scipy.special.huber`).";
            pseudo_huber: ["ff->f", "dd->d"] REAL2 float64 super::convex_analysis::pseudo_huber,
                "Pseudo-Huber loss function.\n\nThe pseudo-Huber loss pseudo_huber(delta, r) (`scipy.special.pseudo_huber`).";
            eval_chebyt: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_chebyt,
                "Evaluate Chebyshev polynomial of the first kind at a point.\n\nThe Chebyshev polynomial of the first kind T_n(x) (`scipy.special.eval_chebyt`); complex x by the recurrence for integral n >= 0, else by SciPy's hypergeometric form, CPU only.";
            eval_chebyu: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_chebyu,
                "Evaluate Chebyshev polynomial of the second kind at a point.\n\nThe Chebyshev polynomial of the second kind U_n(x) (`scipy.special.eval_chebyu`); complex x by the recurrence for integral n >= 0, else by SciPy's hypergeometric form, CPU only.";
            eval_hermite: ["ld->d"] DEGREE direct super::orthogonal::eval_hermite,
                "Evaluate physicist's Hermite polynomial at a point.\n\nThe physicists' Hermite polynomial H_n(x), integer n (`scipy.special.eval_hermite`).";
            eval_hermitenorm: ["ld->d"] DEGREE direct super::orthogonal::eval_hermitenorm,
                "Evaluate probabilist's (normalized) Hermite polynomial at a point.\n\nThe probabilists' Hermite polynomial He_n(x), integer n (`scipy.special.eval_hermitenorm`).";
            eval_laguerre: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_laguerre,
                "Evaluate Laguerre polynomial at a point.\n\nThe Laguerre polynomial L_n(x) (`scipy.special.eval_laguerre`); complex x by the recurrence for integral n >= 0, else by SciPy's hypergeometric form, CPU only.";
            eval_legendre: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_legendre,
                "Evaluate Legendre polynomial at a point.\n\nThe Legendre polynomial P_n(x) (`scipy.special.eval_legendre`); complex x by the recurrence for integral n >= 0, else by SciPy's hypergeometric form, CPU only.";
            boxcox: ["ff->f", "dd->d"] REAL2 float64 super::boxcox::boxcox,
                "Compute the Box-Cox transformation.\n\nThe Box-Cox transformation boxcox(x, lmbda) (`scipy.special.boxcox`).";
            inv_boxcox: ["ff->f", "dd->d"] REAL2 float64 super::boxcox::inv_boxcox,
                "Compute the inverse of the Box-Cox transformation.\n\nThe inverse Box-Cox transformation inv_boxcox(y, lmbda) (`scipy.special.inv_boxcox`).";
            boxcox1p: ["ff->f", "dd->d"] REAL2 float64 super::boxcox::boxcox1p,
                "Compute the Box-Cox transformation of 1 + `x`.\n\nThe Box-Cox transformation of 1 + x (`scipy.special.boxcox1p`).";
            inv_boxcox1p: ["ff->f", "dd->d"] REAL2 float64 super::boxcox::inv_boxcox1p,
                "Compute the inverse of the Box-Cox transformation.\n\nThe inverse of boxcox1p (`scipy.special.inv_boxcox1p`).";
            chdtr: ["ff->f", "dd->d"] REAL2 float64 super::gammainc::chdtr,
                "Chi square cumulative distribution function.\n\nThe chi-square cumulative distribution function chdtr(v, x) (`scipy.special.chdtr`).";
            chdtrc: ["ff->f", "dd->d"] REAL2 float64 super::gammainc::chdtrc,
                "Chi square survival function.\n\nThe chi-square survival function chdtrc(v, x) (`scipy.special.chdtrc`).";
            pdtr: ["ff->f", "dd->d"] REAL2 float64 super::gammainc::pdtr,
                "Poisson cumulative distribution function.\n\nThe Poisson cumulative distribution function pdtr(k, m) (`scipy.special.pdtr`).";
            pdtrc: ["ff->f", "dd->d"] REAL2 float64 super::gammainc::pdtrc,
                "Poisson survival function\n\nThe Poisson survival function pdtrc(k, m) (`scipy.special.pdtrc`).";
            gammaincinv: ["dd->d", "ff->f"] REAL2 float64 super::igami::gammaincinv,
                "Inverse to the regularized lower incomplete gamma function.\n\nThe x with P(a, x) = y (`scipy.special.gammaincinv(a, y)`).";
            gammainccinv: ["dd->d", "ff->f"] REAL2 float64 super::igami::gammainccinv,
                "Inverse of the regularized upper incomplete gamma function.\n\nThe x with Q(a, x) = y (`scipy.special.gammainccinv(a, y)`).";
            chdtri: ["ff->f", "dd->d"] REAL2 float64 super::igami::chdtri,
                "Inverse to `chdtrc` with respect to `x`.\n\nThe x with chdtrc(v, x) = p (`scipy.special.chdtri(v, p)`).";
            pdtri: ["ld->d", "ff->f", "dd->d"] REAL2 float64 super::igami::pdtri,
                "Inverse to `pdtr` vs m\n\nThe m with pdtr(k, m) = y (`scipy.special.pdtri(k, y)`).";
            stdtr: ["ff->f", "dd->d"] REAL2 float64 super::incbet::stdtr,
                "Student t distribution cumulative distribution function\n\nStudent's t CDF stdtr(df, t) (`scipy.special.stdtr`).";
            stdtrit: ["ff->f", "dd->d"] REAL2 float64 super::incbi::stdtrit,
                "The `p`-th quantile of the student t distribution.\n\nThe inverse of stdtr in t, stdtrit(df, p) (`scipy.special.stdtrit`).";
            expn: ["ld->d", "ff->f", "dd->d"] REAL2 float64 super::expint::expn,
                "Generalized exponential integral En.\n\nThe generalized exponential integral E_n(x), n truncated to an integer as SciPy (`scipy.special.expn`).";
            ellipkinc: ["dd->d", "ff->f"] REAL2 float64 super::ellip::ellipkinc,
                "Incomplete elliptic integral of the first kind\n\nF(phi | m) through Carlson's R_F (`scipy.special.ellipkinc`).";
            ellipeinc: ["dd->d", "ff->f"] REAL2 float64 super::ellip::ellipeinc,
                "Incomplete elliptic integral of the second kind\n\nE(phi | m) through Carlson's R_F and R_D (`scipy.special.ellipeinc`).";
            elliprc: ["ff->f", "dd->d", "FF->F", "DD->D"] REAL2 float64 super::carlson::elliprc,
                "Degenerate symmetric elliptic integral.\n\nCarlson's R_C(x, y), Cauchy's principal value for real y < 0 (`scipy.special.elliprc`); complex arguments by Carlson's duplication in complex arithmetic with SciPy's domain (nan for x on the negative real axis), a C++ kernel on the CPU (input on another device goes there and back).";
            poch: ["ff->f", "dd->d"] REAL2 float64 super::gamma::poch,
                "Pochhammer symbol.\n\nThe rising factorial Gamma(z + m) / Gamma(z) (`scipy.special.poch`).";
            owens_t: ["ff->f", "dd->d"] REAL2 float64 super::owens_t::owens_t,
                "Owen's T Function.\n\nOwen's T(h, a) by Gauss-Legendre quadrature of its integral, Owen's identity for |a| > 1 (`scipy.special.owens_t`).";
            tklmbda: ["ff->f", "dd->d"] REAL2 float64 super::tukey::tklmbda,
                "Cumulative distribution function of the Tukey lambda distribution.\n\nThe Tukey lambda CDF, its quantile inverted in log space on the smaller tail (`scipy.special.tklmbda(x, lmbda)`).";
            eval_sh_legendre: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_sh_legendre,
                "Evaluate shifted Legendre polynomial at a point.\n\nThe shifted Legendre polynomial P_n(2x - 1) (`scipy.special.eval_sh_legendre`); complex x by the recurrence for integral n >= 0, else by SciPy's hypergeometric form, CPU only.";
            eval_sh_chebyt: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_sh_chebyt,
                "Evaluate shifted Chebyshev polynomial of the first kind at a point.\n\nThe shifted Chebyshev polynomial T_n(2x - 1) (`scipy.special.eval_sh_chebyt`); complex x by the recurrence for integral n >= 0, else by SciPy's hypergeometric form, CPU only.";
            eval_sh_chebyu: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_sh_chebyu,
                "Evaluate shifted Chebyshev polynomial of the second kind at a point.\n\nThe shifted Chebyshev polynomial U_n(2x - 1) (`scipy.special.eval_sh_chebyu`); complex x by the recurrence for integral n >= 0, else by SciPy's hypergeometric form, CPU only.";
            jv: ["ff->f", "dd->d", "fF->F", "dD->D"] REAL2 float64 super::bessel::jv,
                "Bessel function of the first kind of real order and complex argument.\n\nThe Bessel function of the first kind J_v(x), real order: real x gives nan for x < 0 unless v is an integer (`scipy.special.jv`). Complex z (loops `fF->F`, `dD->D`) by torchbridge's complex-argument C++ kernel (I and K by Hankel's expansions, Temme's series or continued fractions, J and Y by rotation, SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            jn: ["ff->f", "dd->d", "fF->F", "dD->D"] REAL2 float64 super::bessel::jv,
                "Bessel function of the first kind of real order and complex argument.\n\nThe Bessel function of the first kind, jv under SciPy's other name (`scipy.special.jn` is `jv`). Complex z (loops `fF->F`, `dD->D`) by torchbridge's complex-argument C++ kernel (I and K by Hankel's expansions, Temme's series or continued fractions, J and Y by rotation, SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            yv: ["ff->f", "dd->d", "fF->F", "dD->D"] REAL2 float64 super::bessel::yv,
                "Bessel function of the second kind of real order and complex argument.\n\nThe Bessel function of the second kind Y_v(x), real order: real x gives nan for x < 0 (`scipy.special.yv`). Complex z (loops `fF->F`, `dD->D`) by torchbridge's complex-argument C++ kernel (I and K by Hankel's expansions, Temme's series or continued fractions, J and Y by rotation, SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            iv: ["ff->f", "dd->d", "fF->F", "dD->D"] REAL2 float64 super::bessel::iv,
                "Modified Bessel function of the first kind of real order.\n\nThe modified Bessel function of the first kind I_v(x), real order: real x gives nan for x < 0 unless v is an integer (`scipy.special.iv`). Complex z (loops `fF->F`, `dD->D`) by torchbridge's complex-argument C++ kernel (I and K by Hankel's expansions, Temme's series or continued fractions, J and Y by rotation, SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            kv: ["ff->f", "dd->d", "fF->F", "dD->D"] REAL2 float64 super::bessel::kv,
                "Modified Bessel function of the second kind of real order `v`\n\nThe modified Bessel function of the second kind K_v(x): real x gives nan for x < 0 (`scipy.special.kv`). Complex z (loops `fF->F`, `dD->D`) by torchbridge's complex-argument C++ kernel (I and K by Hankel's expansions, Temme's series or continued fractions, J and Y by rotation, SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            jve: ["ff->f", "dd->d", "fF->F", "dD->D"] REAL2 float64 super::bessel::jve,
                "Exponentially scaled Bessel function of the first kind of order `v`.\n\njv(v, x) exp(-|imag x|): for real x jv itself with SciPy's special values (`scipy.special.jve`). Complex z (loops `fF->F`, `dD->D`) by torchbridge's complex-argument C++ kernel (I and K by Hankel's expansions, Temme's series or continued fractions, J and Y by rotation, SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            yve: ["ff->f", "dd->d", "fF->F", "dD->D"] REAL2 float64 super::bessel::yve,
                "Exponentially scaled Bessel function of the second kind of real order.\n\nyv(v, x) exp(-|imag x|): for real x yv itself with SciPy's special values (`scipy.special.yve`). Complex z (loops `fF->F`, `dD->D`) by torchbridge's complex-argument C++ kernel (I and K by Hankel's expansions, Temme's series or continued fractions, J and Y by rotation, SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            ive: ["ff->f", "dd->d", "fF->F", "dD->D"] REAL2 float64 super::bessel::ive,
                "Exponentially scaled modified Bessel function of the first kind.\n\niv(v, x) exp(-|real x|), finite where iv overflows (`scipy.special.ive`). Complex z (loops `fF->F`, `dD->D`) by torchbridge's complex-argument C++ kernel (I and K by Hankel's expansions, Temme's series or continued fractions, J and Y by rotation, SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            kve: ["ff->f", "dd->d", "fF->F", "dD->D"] REAL2 float64 super::bessel::kve,
                "Exponentially scaled modified Bessel function of the second kind.\n\nkv(v, x) exp(x), finite where kv underflows (`scipy.special.kve`). Complex z (loops `fF->F`, `dD->D`) by torchbridge's complex-argument C++ kernel (I and K by Hankel's expansions, Temme's series or continued fractions, J and Y by rotation, SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            hankel1: ["fF->F", "dD->D"] BESSEL_COMPLEX float64 super::bessel::hankel1,
                "Hankel function of the first kind\n\nThe Hankel function H1_v(z) = J_v(z) + i Y_v(z), real order v (`scipy.special.hankel1`). Complex z only, as SciPy's loops; torchbridge's complex-argument C++ kernel (K rotated, DLMF 10.27.8, continued across SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            hankel2: ["fF->F", "dD->D"] BESSEL_COMPLEX float64 super::bessel::hankel2,
                "Hankel function of the second kind\n\nThe Hankel function H2_v(z) = J_v(z) - i Y_v(z), real order v (`scipy.special.hankel2`). Complex z only, as SciPy's loops; torchbridge's complex-argument C++ kernel (K rotated, DLMF 10.27.8, continued across SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            hankel1e: ["fF->F", "dD->D"] BESSEL_COMPLEX float64 super::bessel::hankel1e,
                "Exponentially scaled Hankel function of the first kind\n\nhankel1(v, z) exp(-iz), finite where hankel1 over- or underflows (`scipy.special.hankel1e`). Complex z only, as SciPy's loops; torchbridge's complex-argument C++ kernel (K rotated, DLMF 10.27.8, continued across SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            hankel2e: ["fF->F", "dD->D"] BESSEL_COMPLEX float64 super::bessel::hankel2e,
                "Exponentially scaled Hankel function of the second kind\n\nhankel2(v, z) exp(iz), finite where hankel2 over- or underflows (`scipy.special.hankel2e`). Complex z only, as SciPy's loops; torchbridge's complex-argument C++ kernel (K rotated, DLMF 10.27.8, continued across SciPy's branch cut on the negative real axis), not differentiable; input on another device goes to the CPU and back.";
            yn: ["ld->d", "ff->f", "dd->d"] REAL2 float64 super::bessel::yn,
                "Bessel function of the second kind of integer order and real argument.\n\nY_n(x), the order truncated to an integer as SciPy's loops cast it (`scipy.special.yn`).";
            hyp0f1: ["ff->f", "fF->F", "dd->d", "dD->D"] REAL2 float64 super::hypergeometric::hyp0f1,
                "Confluent hypergeometric limit function 0F1.\n\nThe confluent hypergeometric limit function 0F1(; v; x), real x: Gamma(v) x^((1-v)/2) I_(v-1)(2 sqrt x) (J for x < 0), a uniform asymptotic expansion where that over- or underflows (`scipy.special.hyp0f1`); complex z: the power series where it does not cancel, else Gamma(v) b^(1-v) I_(v-1)(2b), b = sqrt(z), from the complex Bessel kernel with the factors as logarithms (finite where 0F1 is, infinite where it overflows; SciPy gives nan where Gamma(v) or AMOS overflows); a C++ kernel on the CPU, input on another device goes there and back.";
            struve: ["dd->d", "ff->f"] REAL2 float64 super::struve::struve,
                "Struve function.\n\nThe Struve function H_v(x) by power series (double-double), Bessel-function series or the large-x expansion, as Cephes' struve.c (`scipy.special.struve`); a C++ kernel on the CPU, input on another device goes there and back.";
            modstruve: ["dd->d", "ff->f"] REAL2 float64 super::struve::modstruve,
                "Modified Struve function.\n\nThe modified Struve function L_v(x), the method of `struve` (`scipy.special.modstruve`); a C++ kernel on the CPU, input on another device goes there and back.";
            smirnov: ["ld->d", "ff->f", "dd->d"] REAL2 float64 super::kolmogorov::smirnov,
                "Kolmogorov-Smirnov complementary cumulative distribution function\n\nThe survival function of the one-sided Kolmogorov-Smirnov statistic D_n+ (`scipy.special.smirnov(n, d)`): Birnbaum and Tingey's sum in extended precision, SciPy's special cases and its approximation for n > 10**6; n truncated to an integer, nan outside 1 .. 2**31 - 1; a C++ kernel, CPU only (input on another device goes to the CPU and back).";
            smirnovi: ["ld->d", "ff->f", "dd->d"] REAL2 float64 super::kolmogorov::smirnovi,
                "Inverse to `smirnov`\n\nThe d with smirnov(n, d) = p (`scipy.special.smirnovi(n, p)`), by the Illinois method on [0, 1], each step one smirnov sum of up to n terms; a C++ kernel, CPU only (input on another device goes to the CPU and back).";
        }
        ternary {
            voigt_profile: ["ddd->d", "fff->f"] REAL3 float64 super::faddeeva::voigt_profile,
                "Voigt profile.\n\nThe Voigt profile `Re w((x + i gamma) / (sqrt(2) sigma)) / (sigma sqrt(2 pi))` (`scipy.special.voigt_profile(x, sigma, gamma)`): a C++ kernel, CPU only.";
            betainc: ["fff->f", "ddd->d"] REAL3 float64 super::incbet::betainc,
                "Regularized incomplete beta function.\n\nThe regularized incomplete beta function I_x(a, b) (`scipy.special.betainc(a, b, x)`).";
            betaincc: ["fff->f", "ddd->d"] REAL3 float64 super::incbet::betaincc,
                "Complement of the regularized incomplete beta function.\n\nThe complement 1 - I_x(a, b), accurate where it is small (`scipy.special.betaincc(a, b, x)`).";
            betaincinv: ["fff->f", "ddd->d"] REAL3 float64 super::incbi::betaincinv,
                "Inverse of the regularized incomplete beta function.\n\nThe x with I_x(a, b) = y (`scipy.special.betaincinv(a, b, y)`).";
            betainccinv: ["fff->f", "ddd->d"] REAL3 float64 super::incbi::betainccinv,
                "Inverse of the complemented regularized incomplete beta function.\n\nThe x with 1 - I_x(a, b) = y (`scipy.special.betainccinv(a, b, y)`).";
            fdtr: ["fff->f", "ddd->d"] REAL3 float64 super::incbet::fdtr,
                "F cumulative distribution function.\n\nThe F distribution's CDF fdtr(dfn, dfd, x) (`scipy.special.fdtr`).";
            fdtrc: ["fff->f", "ddd->d"] REAL3 float64 super::incbet::fdtrc,
                "F survival function.\n\nThe F distribution's survival function fdtrc(dfn, dfd, x) (`scipy.special.fdtrc`).";
            fdtri: ["fff->f", "ddd->d"] REAL3 float64 super::incbi::fdtri,
                "The `p`-th quantile of the F-distribution.\n\nThe inverse of fdtr in x, fdtri(dfn, dfd, p) (`scipy.special.fdtri`).";
            bdtr: ["fff->f", "dld->d", "ddd->d"] REAL3 float64 super::incbet::bdtr,
                "Binomial distribution cumulative distribution function.\n\nThe binomial CDF bdtr(k, n, p) (`scipy.special.bdtr`).";
            bdtrc: ["fff->f", "dld->d", "ddd->d"] REAL3 float64 super::incbet::bdtrc,
                "Binomial distribution survival function.\n\nThe binomial survival function bdtrc(k, n, p) (`scipy.special.bdtrc`).";
            bdtri: ["fff->f", "dld->d", "ddd->d"] REAL3 float64 super::incbi::bdtri,
                "Inverse function to `bdtr` with respect to `p`.\n\nThe p with bdtr(k, n, p) = y (`scipy.special.bdtri(k, n, y)`).";
            nbdtr: ["lld->d", "fff->f", "ddd->d"] REAL3 float64 super::incbet::nbdtr,
                "Negative binomial cumulative distribution function.\n\nThe negative binomial CDF nbdtr(k, n, p) (`scipy.special.nbdtr`).";
            nbdtrc: ["lld->d", "fff->f", "ddd->d"] REAL3 float64 super::incbet::nbdtrc,
                "Negative binomial survival function.\n\nThe negative binomial survival function nbdtrc(k, n, p) (`scipy.special.nbdtrc`).";
            nbdtri: ["lld->d", "fff->f", "ddd->d"] REAL3 float64 super::incbi::nbdtri,
                "Returns the inverse with respect to the parameter `p` of ``y = nbdtr(k, n, p)``, the negative binomial cumulative distribution function.\n\nThe p with nbdtr(k, n, p) = y (`scipy.special.nbdtri(k, n, y)`).";
            elliprf: ["fff->f", "ddd->d", "FFF->F", "DDD->D"] REAL3 float64 super::carlson::elliprf,
                "Completely-symmetric elliptic integral of the first kind.\n\nCarlson's R_F(x, y, z) (`scipy.special.elliprf`); complex arguments by Carlson's duplication in complex arithmetic (nan for an argument on the negative real axis, as SciPy), a C++ kernel on the CPU (input on another device goes there and back).";
            elliprd: ["fff->f", "ddd->d", "FFF->F", "DDD->D"] REAL3 float64 super::carlson::elliprd,
                "Symmetric elliptic integral of the second kind.\n\nCarlson's R_D(x, y, z) (`scipy.special.elliprd`); complex arguments by Carlson's duplication in complex arithmetic (nan for an argument on the negative real axis, as SciPy), a C++ kernel on the CPU (input on another device goes there and back).";
            elliprg: ["fff->f", "ddd->d", "FFF->F", "DDD->D"] REAL3 float64 super::carlson::elliprg,
                "Completely-symmetric elliptic integral of the second kind.\n\nCarlson's R_G(x, y, z) (`scipy.special.elliprg`); complex arguments by the symmetric sum of three R_D (the AGM where one is 0), SciPy's domain, scaled where SciPy's products overflow; a C++ kernel on the CPU (input on another device goes there and back).";
            hyp1f1: ["fff->f", "ffF->F", "ddd->d", "ddD->D"] HYPER_COMPLEX float64 super::hypergeometric::hyp1f1,
                "Confluent hypergeometric function 1F1.\n\nKummer's function M(a, b, x), real x: Kummer's series (long double), Kummer's transformation for x < 0, the large-x expansion and the recurrence in b where the series cancels; complex z by Kummer's series and transformation, the large-|z| expansion and Taylor steps of Kummer's ODE (`scipy.special.hyp1f1`); a C++ kernel on the CPU, input on another device goes there and back.";
            hyperu: ["fff->f", "ddd->d"] REAL3 float64 super::hypergeometric::hyperu,
                "Confluent hypergeometric function U\n\nTricomi's function U(a, b, x) of real arguments (`scipy.special.hyperu`): polynomials where a or a-b+1 is a non-positive integer, the large-x expansion, Kummer's relation to 1F1 for non-integer b, otherwise an integral by double-exponential quadrature with the recurrence in a; nan for x < 0, and at x = inf the limit only where U is x^(1-b) times a polynomial (nan elsewhere, as SciPy); a C++ kernel on the CPU, input on another device goes there and back.";
            wright_bessel: ["ddd->d", "fff->f"] REAL3 float64 super::hypergeometric::wright_bessel,
                "Wright's generalized Bessel function.\n\nWright's generalized Bessel function Phi(a, b; x) = sum x^k / (k! Gamma(a k + b)) for a, b, x >= 0 (`scipy.special.wright_bessel`; nan outside), its positive series summed in long double around its largest term (SciPy also uses asymptotic expansions and an integral); about 1e-16 relative up to x ~ 1e3, 1e-13 at x ~ 1e5; a C++ kernel on the CPU, input on another device goes there and back.";
            log_wright_bessel: ["ddd->d", "fff->f"] REAL3 float64 super::hypergeometric::log_wright_bessel,
                "Natural logarithm of Wright's generalized Bessel function, see `wright_bessel`. This function comes in handy in particular for large values of x.\n\nThe logarithm of Phi(a, b; x) for a, b, x >= 0 (`scipy.special.log_wright_bessel`), from the same long-double series as `wright_bessel`, finite where Phi overflows; a C++ kernel on the CPU, input on another device goes there and back.";
            eval_genlaguerre: ["ldd->d", "fff->f", "ffF->F", "ddd->d", "ddD->D"] PARAMETRIC direct super::orthogonal::eval_genlaguerre,
                "Evaluate generalized Laguerre polynomial at a point.\n\nThe generalized Laguerre polynomial L_n^(alpha)(x) by SciPy's recurrence (`scipy.special.eval_genlaguerre`); complex x by the recurrence for integral n >= 0, else by SciPy's hypergeometric form, CPU only.";
            eval_gegenbauer: ["ldd->d", "fff->f", "ffF->F", "ddd->d", "ddD->D"] PARAMETRIC direct super::orthogonal::eval_gegenbauer,
                "Evaluate Gegenbauer polynomial at a point.\n\nThe Gegenbauer polynomial C_n^(alpha)(x) by SciPy's recurrence (`scipy.special.eval_gegenbauer`); complex x by the recurrence for integral n >= 0, else by SciPy's hypergeometric form, CPU only.";
            lpmv: ["fff->f", "ddd->d"] REAL3 float64 super::legendre::lpmv,
                "Associated Legendre function of integer order and real degree.\n\nThe associated Legendre function P_v^m(x) of integer order m and real degree v, the Condon-Shortley phase included (`scipy.special.lpmv`), by specfun's LPMV as SciPy: hypergeometric series for the degree's fractional part, the recurrence in the degree above; nan for a non-integral m and for the negative m it cannot reflect, +-inf where SciPy reports an overflow (x = -1 with non-integral v); a C++ kernel on the CPU, input on another device goes there and back.";
        }
        quaternary {
            elliprj: ["ffff->f", "dddd->d", "FFFF->F", "DDDD->D"] REAL3 float64 super::carlson::elliprj,
                "Symmetric elliptic integral of the third kind.\n\nCarlson's R_J(x, y, z, p), Cauchy's principal value for real p < 0 (`scipy.special.elliprj`); complex arguments by Carlson's duplication where his sufficient conditions hold (SciPy's rule: nan elsewhere), a C++ kernel on the CPU (input on another device goes there and back).";
            hyp2f1: ["dddd->d", "dddD->D", "ffff->f", "fffF->F"] HYPER_COMPLEX float64 super::hypergeometric::hyp2f1,
                "Gauss hypergeometric function 2F1(a, b; c; z)\n\nThe Gauss hypergeometric function 2F1(a, b; c; x), real x by Cephes' power series and linear transformations; complex z by the series in the least of z, 1 - z, 1/z, z/(z-1), 1/(1-z), 1 - 1/z (limiting forms where c - a - b or a - b is an integer) and Taylor steps of the ODE around exp(+-i pi/3) (`scipy.special.hyp2f1`); a C++ kernel on the CPU, input on another device goes there and back.";
            eval_jacobi: ["lddd->d", "ffff->f", "fffF->F", "dddd->d", "dddD->D"] PARAMETRIC direct super::orthogonal::eval_jacobi,
                "Evaluate Jacobi polynomial at a point.\n\nThe Jacobi polynomial P_n^(alpha, beta)(x) by SciPy's recurrence (`scipy.special.eval_jacobi`); complex x by the recurrence for integral n >= 0, else by SciPy's hypergeometric form, CPU only.";
        }
        unary_multi {
            sici: 2 ["f->ff", "d->dd", "F->FF", "D->DD"] REAL super::sici::sici,
                "Sine and cosine integrals.\n\nThe sine and cosine integrals `(Si(x), Ci(x))` (`scipy.special.sici`): for real x < 0 Ci(x) is its real part Ci(|x|), Ci(0) = -inf; complex z by the power series below |z| = 0.8 and the complex Ei(+-iz) beyond, on the principal branch of log z as SciPy; a C++ kernel, CPU only (input on another device goes to the CPU and back).";
            shichi: 2 ["f->ff", "d->dd", "F->FF", "D->DD"] REAL super::sici::shichi,
                "Hyperbolic sine and cosine integrals.\n\nThe hyperbolic sine and cosine integrals `(Shi(x), Chi(x))` (`scipy.special.shichi`): for real x < 0 Chi(x) is its real part Chi(|x|); complex z by the power series below |z| = 0.8 and the complex Ei(+-z) beyond, as SciPy; a C++ kernel, CPU only (input on another device goes to the CPU and back).";
            fresnel: 2 ["d->dd", "f->ff", "D->DD", "F->FF"] REAL super::fresnel::fresnel,
                "Fresnel integrals.\n\nThe Fresnel integrals `(S(x), C(x))` (`scipy.special.fresnel`, S first as SciPy); complex z by the power series below |z| = 1 and the complex erf (the Faddeeva kernel) beyond; a C++ kernel, CPU only (input on another device goes to the CPU and back).";
            airy: 4 ["f->ffff", "d->dddd", "F->FFFF", "D->DDDD"] REAL super::airy::airy,
                "Airy functions and their derivatives.\n\n`(Ai, Ai', Bi, Bi')` of real or complex x (`scipy.special.airy`): Maclaurin series near 0, Bessel functions of orders 1/3 and 2/3 beyond (complex z: I and K of complex argument, the connection formulas DLMF 9.2.10-11 for |ph z| > pi/3); nan where SciPy's AMOS path gives nan (|x| >= about 2**20, past AMOS's overflow test), Ai, Ai' 0 where it underflows; at x - 0j, x < -1, Ai(x) where SciPy's AMOS returns other values; a C++ kernel, CPU only (input on another device goes to the CPU and back).";
            airye: 4 ["f->ffff", "d->dddd", "F->FFFF", "D->DDDD"] REAL super::airy::airye,
                "Exponentially scaled Airy functions and their derivatives.\n\n`(eAi, eAi', eBi, eBi')` of real x (`scipy.special.airye`): Ai, Ai' times exp(2/3 x**1.5), Bi, Bi' times exp(-2/3 x**1.5) for x > 0; for x < 0 eAi, eAi' are nan and eBi, eBi' are Bi, Bi', as SciPy; complex z: Ai, Ai' times exp(zeta), Bi, Bi' times exp(-|Re zeta|), zeta = 2/3 z**1.5 on the principal branch; a C++ kernel, CPU only (input on another device goes to the CPU and back).";
        }
        binary_multi {
            ellipj: 4 ["dd->dddd", "ff->ffff"] REAL2 super::ellipj::ellipj,
                "Jacobi elliptic functions\n\n`(sn, cn, dn, ph)` of u and the parameter m (`scipy.special.ellipj(u, m)`) by the arithmetic-geometric mean; nan for m outside [0, 1]; a C++ kernel, CPU only (input on another device goes to the CPU and back).";
        }
        unary_internal {
            psi: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::gamma::psi,
                "The digamma function.\n\nThe digamma function (`scipy.special.psi`, the same ufunc as `digamma`); complex input by torchbridge's complex xsf kernel, CPU only.";
            zeta: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::zeta::zeta,
                "Riemann or Hurwitz zeta function.\n\nRiemann's zeta function (`scipy.special.zeta(x)`, SciPy's `_riemann_zeta` loops); complex input by Euler-Maclaurin summation in long double and the reflection for Re z < 0 (torchbridge's complex kernel, CPU only; nan where |Im z| exceeds about 6e6, SciPy from 1e9 for 0 <= Re z < 2.5).";
        }
        binary_internal {
            hurwitz_zeta: ["ff->f", "Ff->F", "dd->d", "Dd->D"] REAL2 float64 super::zeta::hurwitz_zeta,
                "The Hurwitz zeta function (`scipy.special.zeta(x, q)`, SciPy's `_zeta` loops; complex x gives nan + nanj, as SciPy).";
            spherical_jn: ["ld->d", "lD->D", "lf->f", "lF->F"] SPHERICAL float64 super::sph_bessel::jn,
                "The spherical Bessel function j_n(x) (`scipy.special.spherical_jn(n, z)`, SciPy's `_spherical_jn` loops).";
            spherical_yn: ["ld->d", "lD->D", "lf->f", "lF->F"] SPHERICAL float64 super::sph_bessel::yn,
                "The spherical Bessel function y_n(x) (`scipy.special.spherical_yn(n, z)`, SciPy's `_spherical_yn` loops).";
            spherical_in: ["ld->d", "lD->D", "lf->f", "lF->F"] SPHERICAL float64 super::sph_bessel::in_,
                "The modified spherical Bessel function i_n(x) (`scipy.special.spherical_in(n, z)`, SciPy's `_spherical_in` loops).";
            spherical_kn: ["ld->d", "lD->D", "lf->f", "lF->F"] SPHERICAL float64 super::sph_bessel::kn,
                "The modified spherical Bessel function k_n(x) (`scipy.special.spherical_kn(n, z)`, SciPy's `_spherical_kn` loops).";
            spherical_jn_d: ["ld->d", "lD->D", "lf->f", "lF->F"] SPHERICAL float64 super::sph_bessel::jn_d,
                "The derivative of j_n(x) (`scipy.special.spherical_jn(n, z, derivative=True)`, SciPy's `_spherical_jn_d` loops).";
            spherical_yn_d: ["ld->d", "lD->D", "lf->f", "lF->F"] SPHERICAL float64 super::sph_bessel::yn_d,
                "The derivative of y_n(x) (`scipy.special.spherical_yn(n, z, derivative=True)`, SciPy's `_spherical_yn_d` loops).";
            spherical_in_d: ["ld->d", "lD->D", "lf->f", "lF->F"] SPHERICAL float64 super::sph_bessel::in_d,
                "The derivative of i_n(x) (`scipy.special.spherical_in(n, z, derivative=True)`, SciPy's `_spherical_in_d` loops).";
            spherical_kn_d: ["ld->d", "lD->D", "lf->f", "lF->F"] SPHERICAL float64 super::sph_bessel::kn_d,
                "The derivative of k_n(x) (`scipy.special.spherical_kn(n, z, derivative=True)`, SciPy's `_spherical_kn_d` loops).";
        }
        }
    };
}
#[cfg_attr(not(feature = "python"), allow(unused_imports))]
pub(crate) use special_ufuncs;

/// Whether a row's kernel runs through the float64 loop (see the module docs).
macro_rules! through_float64 {
    (float64) => {
        true
    };
    (direct) => {
        false
    };
}

/// How a table row's kernel runs (see the module docs).
macro_rules! run_kernel {
    (float64 $ufunc:expr, $kernel:path, $x:expr) => {
        guarded(|| loops::unary($ufunc, $x, $kernel))
    };
    (float64 $ufunc:expr, $kernel:path, $x:expr, $y:expr) => {
        guarded(|| loops::binary($ufunc, $x, $y, $kernel))
    };
    (float64 $ufunc:expr, $kernel:path, $x:expr, $y:expr, $z:expr) => {
        guarded(|| loops::ternary($ufunc, $x, $y, $z, $kernel))
    };
    (float64 $ufunc:expr, $kernel:path, $x:expr, $y:expr, $z:expr, $w:expr) => {
        guarded(|| loops::quaternary($ufunc, $x, $y, $z, $w, $kernel))
    };
    (direct $ufunc:expr, $kernel:path, $($x:expr),+) => {
        guarded(|| $kernel($ufunc, $($x),+))
    };
}

macro_rules! define_ufuncs {
    (
        unary { $($u:ident: [$($ut:literal),*] $uacc:ident $uhow:ident $ukernel:path, $udoc:literal;)* }
        binary { $($b:ident: [$($bt:literal),*] $bacc:ident $bhow:ident $bkernel:path, $bdoc:literal;)* }
        ternary { $($t:ident: [$($tt:literal),*] $tacc:ident $thow:ident $tkernel:path, $tdoc:literal;)* }
        quaternary { $($q:ident: [$($qt:literal),*] $qacc:ident $qhow:ident $qkernel:path, $qdoc:literal;)* }
        unary_multi { $($um:ident: $umn:tt [$($umt:literal),*] $umacc:ident $umkernel:path, $umdoc:literal;)* }
        binary_multi { $($bm:ident: $bmn:tt [$($bmt:literal),*] $bmacc:ident $bmkernel:path, $bmdoc:literal;)* }
        unary_internal { $($ui:ident: [$($uit:literal),*] $uiacc:ident $uihow:ident $uikernel:path, $uidoc:literal;)* }
        binary_internal { $($bi:ident: [$($bit:literal),*] $biacc:ident $bihow:ident $bikernel:path, $bidoc:literal;)* }
    ) => {
        /// One [`Ufunc`] per row of the table, named as the ufunc.
        #[allow(non_upper_case_globals)]
        pub mod table {
            use super::*;
            $(#[doc = $udoc] pub static $u: Ufunc = Ufunc {
                name: stringify!($u), qualified: concat!("special.", stringify!($u)), nin: 1, nout: 1,
                types: &[$($ut),*], accepts: $uacc, doc: $udoc, float64: through_float64!($uhow),
            };)*
            $(#[doc = $bdoc] pub static $b: Ufunc = Ufunc {
                name: stringify!($b), qualified: concat!("special.", stringify!($b)), nin: 2, nout: 1,
                types: &[$($bt),*], accepts: $bacc, doc: $bdoc, float64: through_float64!($bhow),
            };)*
            $(#[doc = $tdoc] pub static $t: Ufunc = Ufunc {
                name: stringify!($t), qualified: concat!("special.", stringify!($t)), nin: 3, nout: 1,
                types: &[$($tt),*], accepts: $tacc, doc: $tdoc, float64: through_float64!($thow),
            };)*
            $(#[doc = $qdoc] pub static $q: Ufunc = Ufunc {
                name: stringify!($q), qualified: concat!("special.", stringify!($q)), nin: 4, nout: 1,
                types: &[$($qt),*], accepts: $qacc, doc: $qdoc, float64: through_float64!($qhow),
            };)*
            $(#[doc = $umdoc] pub static $um: Ufunc = Ufunc {
                name: stringify!($um), qualified: concat!("special.", stringify!($um)), nin: 1, nout: $umn,
                types: &[$($umt),*], accepts: $umacc, doc: $umdoc, float64: true,
            };)*
            $(#[doc = $bmdoc] pub static $bm: Ufunc = Ufunc {
                name: stringify!($bm), qualified: concat!("special.", stringify!($bm)), nin: 2, nout: $bmn,
                types: &[$($bmt),*], accepts: $bmacc, doc: $bmdoc, float64: true,
            };)*
            $(#[doc = $uidoc] pub static $ui: Ufunc = Ufunc {
                name: stringify!($ui), qualified: concat!("special.", stringify!($ui)), nin: 1, nout: 1,
                types: &[$($uit),*], accepts: $uiacc, doc: $uidoc, float64: through_float64!($uihow),
            };)*
            $(#[doc = $bidoc] pub static $bi: Ufunc = Ufunc {
                name: stringify!($bi), qualified: concat!("special.", stringify!($bi)), nin: 2, nout: 1,
                types: &[$($bit),*], accepts: $biacc, doc: $bidoc, float64: through_float64!($bihow),
            };)*
        }

        /// Every row of the table.
        pub static ALL: &[&Ufunc] =
            &[
                $(&table::$u,)* $(&table::$b,)* $(&table::$t,)* $(&table::$q,)*
                $(&table::$um,)* $(&table::$bm,)* $(&table::$ui,)* $(&table::$bi,)*
            ];

        $(
            #[doc = $udoc]
            pub fn $u(x: &Tensor) -> Result<Tensor> {
                run_kernel!($uhow &table::$u, $ukernel, x)
            }
        )*
        $(
            #[doc = $bdoc]
            pub fn $b(x: &Tensor, y: &Tensor) -> Result<Tensor> {
                run_kernel!($bhow &table::$b, $bkernel, x, y)
            }
        )*
        $(
            #[doc = $tdoc]
            pub fn $t(x: &Tensor, y: &Tensor, z: &Tensor) -> Result<Tensor> {
                run_kernel!($thow &table::$t, $tkernel, x, y, z)
            }
        )*
        $(
            #[doc = $qdoc]
            pub fn $q(x: &Tensor, y: &Tensor, z: &Tensor, w: &Tensor) -> Result<Tensor> {
                run_kernel!($qhow &table::$q, $qkernel, x, y, z, w)
            }
        )*
        $(
            #[doc = $umdoc]
            ///
            /// Returns one tensor per output, in SciPy's order.
            pub fn $um(x: &Tensor) -> Result<Vec<Tensor>> {
                guarded(|| loops::unary_multi(&table::$um, x, $umkernel))
            }
        )*
        $(
            #[doc = $bmdoc]
            ///
            /// Returns one tensor per output, in SciPy's order.
            pub fn $bm(x: &Tensor, y: &Tensor) -> Result<Vec<Tensor>> {
                guarded(|| loops::binary_multi(&table::$bm, x, y, $bmkernel))
            }
        )*
        $(
            #[doc = $uidoc]
            pub fn $ui(x: &Tensor) -> Result<Tensor> {
                run_kernel!($uihow &table::$ui, $uikernel, x)
            }
        )*
        $(
            #[doc = $bidoc]
            pub fn $bi(x: &Tensor, y: &Tensor) -> Result<Tensor> {
                run_kernel!($bihow &table::$bi, $bikernel, x, y)
            }
        )*
    };
}

special_ufuncs!(define_ufuncs);

/// The row of the ufunc named `name`.
pub fn ufunc(name: &str) -> Option<&'static Ufunc> {
    ALL.iter().copied().find(|u| u.name == name)
}
