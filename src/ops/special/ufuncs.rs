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
//! The `*_internal` groups are loops used by routines that are not ufuncs in
//! torchbridge's Python face: `psi` (the face's `psi` is `digamma` itself),
//! and `zeta`/`hurwitz_zeta`, SciPy's `_riemann_zeta`/`_zeta` behind the
//! Python-level `zeta(x, q=None)`.

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
    /// SciPy's loop strings, in SciPy's order (`"dd->d"`, ...).
    pub types: &'static [&'static str],
    /// What the ufunc accepts, for [`crate::Error::DtypeNotAccepted`].
    pub accepts: &'static str,
    /// The docstring.
    pub doc: &'static str,
}

const REAL: &str = "bool, integer and real floating-point input";
const REAL2: &str = "bool, integer and real floating-point inputs";
const DEGREE: &str = "an integer degree n (bool or integer up to int64) and real x";
const POLY: &str = "a degree n (integer, or real with integral values) and real x";

/// Hands the ufunc table to the macro `$then` (see the module docs).
macro_rules! special_ufuncs {
    ($then:ident) => {
        $then! {
        unary {
            erf: ["d->d", "f->f", "D->D", "F->F"] REAL direct super::erf::erf,
                "The error function, computed by libtorch (`scipy.special.erf`).";
            erfc: ["d->d", "f->f", "D->D", "F->F"] REAL direct super::erf::erfc,
                "The complementary error function `1 - erf(x)` (`scipy.special.erfc`).";
            erfcx: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::erf::erfcx,
                "The scaled complementary error function `exp(x**2) * erfc(x)` (`scipy.special.erfcx`).";
            erfinv: ["f->f", "d->d"] REAL float64 super::erf::erfinv,
                "The inverse of the error function on [-1, 1] (`scipy.special.erfinv`).";
            erfcinv: ["f->f", "d->d"] REAL float64 super::erf::erfcinv,
                "The inverse of the complementary error function on [0, 2] (`scipy.special.erfcinv`).";
            expit: ["d->d", "f->f", "g->g"] REAL direct super::logit::expit,
                "The logistic sigmoid `1 / (1 + exp(-x))` (`scipy.special.expit`).";
            logit: ["d->d", "f->f", "g->g"] REAL direct super::logit::logit,
                "The logit `log(p / (1 - p))` (`scipy.special.logit`).";
            log_expit: ["d->d", "f->f", "g->g"] REAL float64 super::logit::log_expit,
                "The logarithm of the logistic sigmoid (`scipy.special.log_expit`).";
            gamma: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::gamma::gamma,
                "The gamma function, real input (`scipy.special.gamma`).";
            gammaln: ["d->d", "f->f"] REAL direct super::gamma::gammaln,
                "The logarithm of the absolute value of the gamma function (`scipy.special.gammaln`).";
            loggamma: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::gamma::loggamma,
                "The principal branch of log(gamma(x)), real input: nan for x < 0 (`scipy.special.loggamma`).";
            digamma: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::gamma::digamma,
                "The digamma function psi = gamma'/gamma, real input (`scipy.special.digamma`, alias `psi`).";
            i0: ["d->d", "f->f"] REAL float64 super::bessel::i0,
                "The modified Bessel function of the first kind of order 0 (`scipy.special.i0`).";
            i0e: ["d->d", "f->f"] REAL float64 super::bessel::i0e,
                "The exponentially scaled modified Bessel function of order 0 (`scipy.special.i0e`).";
            i1: ["d->d", "f->f"] REAL float64 super::bessel::i1,
                "The modified Bessel function of the first kind of order 1 (`scipy.special.i1`).";
            i1e: ["d->d", "f->f"] REAL float64 super::bessel::i1e,
                "The exponentially scaled modified Bessel function of order 1 (`scipy.special.i1e`).";
            j0: ["d->d", "f->f"] REAL float64 super::bessel::j0,
                "The Bessel function of the first kind of order 0 (`scipy.special.j0`).";
            j1: ["d->d", "f->f"] REAL float64 super::bessel::j1,
                "The Bessel function of the first kind of order 1 (`scipy.special.j1`).";
            y0: ["d->d", "f->f"] REAL float64 super::bessel::y0,
                "The Bessel function of the second kind of order 0 (`scipy.special.y0`).";
            y1: ["d->d", "f->f"] REAL float64 super::bessel::y1,
                "The Bessel function of the second kind of order 1 (`scipy.special.y1`).";
            k0: ["d->d", "f->f"] REAL float64 super::bessel::k0,
                "The modified Bessel function of the second kind of order 0 (`scipy.special.k0`).";
            k0e: ["d->d", "f->f"] REAL float64 super::bessel::k0e,
                "The exponentially scaled modified Bessel function K0 (`scipy.special.k0e`).";
            k1: ["d->d", "f->f"] REAL float64 super::bessel::k1,
                "The modified Bessel function of the second kind of order 1 (`scipy.special.k1`).";
            k1e: ["d->d", "f->f"] REAL float64 super::bessel::k1e,
                "The exponentially scaled modified Bessel function K1 (`scipy.special.k1e`).";
            ndtr: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::erf::ndtr,
                "The standard normal cumulative distribution function (`scipy.special.ndtr`).";
            ndtri: ["f->f", "d->d"] REAL float64 super::erf::ndtri,
                "The inverse of the standard normal CDF (`scipy.special.ndtri`).";
            log_ndtr: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::erf::log_ndtr,
                "The logarithm of the standard normal CDF (`scipy.special.log_ndtr`).";
            entr: ["f->f", "d->d"] REAL float64 super::convex_analysis::entr,
                "Elementwise entropy `-x log(x)` (`scipy.special.entr`).";
            expm1: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::elementary::expm1,
                "`exp(x) - 1`, real input (`scipy.special.expm1`).";
            exp2: ["d->d", "f->f"] REAL float64 super::elementary::exp2,
                "`2**x` (`scipy.special.exp2`).";
            exp10: ["d->d", "f->f"] REAL float64 super::elementary::exp10,
                "`10**x` (`scipy.special.exp10`).";
            log1p: ["d->d", "f->f", "D->D", "F->F"] REAL float64 super::elementary::log1p,
                "`log(1 + x)`, real input (`scipy.special.log1p`).";
            cbrt: ["d->d", "f->f"] REAL float64 super::elementary::cbrt,
                "The real cube root (`scipy.special.cbrt`).";
            sindg: ["d->d", "f->f"] REAL float64 super::elementary::sindg,
                "The sine of an angle in degrees (`scipy.special.sindg`).";
            cosdg: ["d->d", "f->f"] REAL float64 super::elementary::cosdg,
                "The cosine of an angle in degrees (`scipy.special.cosdg`).";
            cosm1: ["d->d", "f->f"] REAL float64 super::elementary::cosm1,
                "`cos(x) - 1`, accurate near the multiples of 2 pi (`scipy.special.cosm1`).";
            exprel: ["d->d", "f->f"] REAL float64 super::elementary::exprel,
                "The relative error exponential `(exp(x) - 1) / x` (`scipy.special.exprel`).";
        }
        binary {
            gammainc: ["dd->d", "ff->f"] REAL2 float64 super::gammainc::gammainc,
                "The regularized lower incomplete gamma function P(a, x) (`scipy.special.gammainc`).";
            gammaincc: ["dd->d", "ff->f"] REAL2 float64 super::gammainc::gammaincc,
                "The regularized upper incomplete gamma function Q(a, x) (`scipy.special.gammaincc`).";
            beta: ["dd->d", "ff->f"] REAL2 float64 super::beta::beta,
                "The beta function (`scipy.special.beta`).";
            betaln: ["dd->d", "ff->f"] REAL2 float64 super::beta::betaln,
                "The logarithm of the absolute value of the beta function (`scipy.special.betaln`).";
            binom: ["ff->f", "dd->d"] REAL2 float64 super::beta::binom,
                "Binomial coefficients for real arguments (`scipy.special.binom`).";
            xlogy: ["dd->d", "ff->f", "DD->D", "FF->F"] REAL2 float64 super::convex_analysis::xlogy,
                "`x * log(y)`, 0 where x == 0 (`scipy.special.xlogy`).";
            xlog1py: ["dd->d", "ff->f", "DD->D", "FF->F"] REAL2 float64 super::convex_analysis::xlog1py,
                "`x * log1p(y)`, 0 where x == 0 (`scipy.special.xlog1py`).";
            rel_entr: ["ff->f", "dd->d"] REAL2 float64 super::convex_analysis::rel_entr,
                "Elementwise relative entropy `x log(x / y)` (`scipy.special.rel_entr`).";
            kl_div: ["ff->f", "dd->d"] REAL2 float64 super::convex_analysis::kl_div,
                "Elementwise Kullback-Leibler divergence `x log(x / y) - x + y` (`scipy.special.kl_div`).";
            huber: ["ff->f", "dd->d"] REAL2 float64 super::convex_analysis::huber,
                "The Huber loss huber(delta, r) (`scipy.special.huber`).";
            pseudo_huber: ["ff->f", "dd->d"] REAL2 float64 super::convex_analysis::pseudo_huber,
                "The pseudo-Huber loss pseudo_huber(delta, r) (`scipy.special.pseudo_huber`).";
            eval_chebyt: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_chebyt,
                "The Chebyshev polynomial of the first kind T_n(x) (`scipy.special.eval_chebyt`).";
            eval_chebyu: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_chebyu,
                "The Chebyshev polynomial of the second kind U_n(x) (`scipy.special.eval_chebyu`).";
            eval_hermite: ["ld->d"] DEGREE direct super::orthogonal::eval_hermite,
                "The physicists' Hermite polynomial H_n(x), integer n (`scipy.special.eval_hermite`).";
            eval_hermitenorm: ["ld->d"] DEGREE direct super::orthogonal::eval_hermitenorm,
                "The probabilists' Hermite polynomial He_n(x), integer n (`scipy.special.eval_hermitenorm`).";
            eval_laguerre: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_laguerre,
                "The Laguerre polynomial L_n(x) (`scipy.special.eval_laguerre`).";
            eval_legendre: ["ld->d", "ff->f", "fF->F", "dd->d", "dD->D"] POLY direct super::orthogonal::eval_legendre,
                "The Legendre polynomial P_n(x) (`scipy.special.eval_legendre`).";
            boxcox: ["ff->f", "dd->d"] REAL2 float64 super::boxcox::boxcox,
                "The Box-Cox transformation boxcox(x, lmbda) (`scipy.special.boxcox`).";
            inv_boxcox: ["ff->f", "dd->d"] REAL2 float64 super::boxcox::inv_boxcox,
                "The inverse Box-Cox transformation inv_boxcox(y, lmbda) (`scipy.special.inv_boxcox`).";
            boxcox1p: ["ff->f", "dd->d"] REAL2 float64 super::boxcox::boxcox1p,
                "The Box-Cox transformation of 1 + x (`scipy.special.boxcox1p`).";
            inv_boxcox1p: ["ff->f", "dd->d"] REAL2 float64 super::boxcox::inv_boxcox1p,
                "The inverse of boxcox1p (`scipy.special.inv_boxcox1p`).";
            chdtr: ["ff->f", "dd->d"] REAL2 float64 super::gammainc::chdtr,
                "The chi-square cumulative distribution function chdtr(v, x) (`scipy.special.chdtr`).";
            chdtrc: ["ff->f", "dd->d"] REAL2 float64 super::gammainc::chdtrc,
                "The chi-square survival function chdtrc(v, x) (`scipy.special.chdtrc`).";
            pdtr: ["ff->f", "dd->d"] REAL2 float64 super::gammainc::pdtr,
                "The Poisson cumulative distribution function pdtr(k, m) (`scipy.special.pdtr`).";
            pdtrc: ["ff->f", "dd->d"] REAL2 float64 super::gammainc::pdtrc,
                "The Poisson survival function pdtrc(k, m) (`scipy.special.pdtrc`).";
        }
        unary_internal {
            psi: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::gamma::psi,
                "The digamma function (`scipy.special.psi`, the same ufunc as `digamma`).";
            zeta: ["d->d", "D->D", "f->f", "F->F"] REAL float64 super::zeta::zeta,
                "Riemann's zeta function (`scipy.special.zeta(x)`, SciPy's `_riemann_zeta` loops).";
        }
        binary_internal {
            hurwitz_zeta: ["ff->f", "Ff->F", "dd->d", "Dd->D"] REAL2 float64 super::zeta::hurwitz_zeta,
                "The Hurwitz zeta function (`scipy.special.zeta(x, q)`, SciPy's `_zeta` loops).";
        }
        }
    };
}
#[cfg_attr(not(feature = "python"), allow(unused_imports))]
pub(crate) use special_ufuncs;

/// How a table row's kernel runs (see the module docs).
macro_rules! run_kernel {
    (float64 $ufunc:expr, $kernel:path, $x:expr) => {
        guarded(|| loops::unary($ufunc, $x, $kernel))
    };
    (float64 $ufunc:expr, $kernel:path, $x:expr, $y:expr) => {
        guarded(|| loops::binary($ufunc, $x, $y, $kernel))
    };
    (direct $ufunc:expr, $kernel:path, $($x:expr),+) => {
        guarded(|| $kernel($ufunc, $($x),+))
    };
}

macro_rules! define_ufuncs {
    (
        unary { $($u:ident: [$($ut:literal),*] $uacc:ident $uhow:ident $ukernel:path, $udoc:literal;)* }
        binary { $($b:ident: [$($bt:literal),*] $bacc:ident $bhow:ident $bkernel:path, $bdoc:literal;)* }
        unary_internal { $($ui:ident: [$($uit:literal),*] $uiacc:ident $uihow:ident $uikernel:path, $uidoc:literal;)* }
        binary_internal { $($bi:ident: [$($bit:literal),*] $biacc:ident $bihow:ident $bikernel:path, $bidoc:literal;)* }
    ) => {
        /// One [`Ufunc`] per row of the table, named as the ufunc.
        #[allow(non_upper_case_globals)]
        pub mod table {
            use super::*;
            $(#[doc = $udoc] pub static $u: Ufunc = Ufunc {
                name: stringify!($u), qualified: concat!("special.", stringify!($u)), nin: 1,
                types: &[$($ut),*], accepts: $uacc, doc: $udoc,
            };)*
            $(#[doc = $bdoc] pub static $b: Ufunc = Ufunc {
                name: stringify!($b), qualified: concat!("special.", stringify!($b)), nin: 2,
                types: &[$($bt),*], accepts: $bacc, doc: $bdoc,
            };)*
            $(#[doc = $uidoc] pub static $ui: Ufunc = Ufunc {
                name: stringify!($ui), qualified: concat!("special.", stringify!($ui)), nin: 1,
                types: &[$($uit),*], accepts: $uiacc, doc: $uidoc,
            };)*
            $(#[doc = $bidoc] pub static $bi: Ufunc = Ufunc {
                name: stringify!($bi), qualified: concat!("special.", stringify!($bi)), nin: 2,
                types: &[$($bit),*], accepts: $biacc, doc: $bidoc,
            };)*
        }

        /// Every row of the table.
        pub static ALL: &[&Ufunc] = &[$(&table::$u,)* $(&table::$b,)* $(&table::$ui,)* $(&table::$bi,)*];

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
