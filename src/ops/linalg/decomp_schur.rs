//! `scipy.linalg._decomp_schur`: `schur` and `rsf2csf`.
//!
//! libtorch has no Schur decomposition: the matrices are copied to the host
//! (an explicit copy for CUDA input, and back), reduced to Hessenberg form
//! by Householder reflections and iterated to Schur form by LAPACK's
//! small-matrix QR algorithms, ported (`lapack/hqr.rs`): Francis' double
//! shift for the real Schur form, the single shift for the complex one, in
//! float64/complex128 whatever the input precision.

use tch::{Kind, Tensor};

use super::dtypes::*;
use super::host;
use super::lapack::{gehrd, lahqr_complex, lahqr_real, trexc_complex, Dense, Scalar, C64};
use super::shapes::*;
use super::{invalid, not_implemented, CheckFinite};
use crate::ops::dtype;
use crate::ops::numpy::check_finite_all;
use crate::{Error, Result};

/// `schur`'s `output`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SchurOutput {
    /// `'real'` (`'r'`): quasi-upper-triangular `T` for real input.
    #[default]
    Real,
    /// `'complex'` (`'c'`): upper triangular `T`.
    Complex,
}

impl std::str::FromStr for SchurOutput {
    type Err = Error;

    fn from_str(output: &str) -> Result<SchurOutput> {
        match output {
            "real" | "r" => Ok(SchurOutput::Real),
            "complex" | "c" => Ok(SchurOutput::Complex),
            _ => Err(invalid("argument must be 'real', or 'complex'")),
        }
    }
}

/// `schur`'s `sort`: which eigenvalues `(re, im)` go to the leading block.
pub enum SchurSort<'a> {
    /// `'lhp'`: `re < 0`.
    Lhp,
    /// `'rhp'`: `re >= 0`.
    Rhp,
    /// `'iuc'`: `|z| <= 1`.
    Iuc,
    /// `'ouc'`: `|z| > 1`.
    Ouc,
    /// A predicate on `(re, im)` (SciPy's callable).
    Custom(&'a (dyn Fn(f64, f64) -> Result<bool> + Sync)),
}

impl SchurSort<'_> {
    fn select(&self, re: f64, im: f64) -> Result<bool> {
        Ok(match self {
            SchurSort::Lhp => re < 0.0,
            SchurSort::Rhp => re >= 0.0,
            SchurSort::Iuc => re.hypot(im) <= 1.0,
            SchurSort::Ouc => re.hypot(im) > 1.0,
            SchurSort::Custom(f) => f(re, im)?,
        })
    }
}

/// The options of [`schur`].
#[derive(Default)]
pub struct SchurOptions<'a> {
    /// `output`.
    pub output: SchurOutput,
    /// `sort` (`None`: no reordering).
    pub sort: Option<SchurSort<'a>>,
    /// `check_finite`.
    pub check_finite: CheckFinite,
}

/// `a = Z T Z^H` ([`schur`]'s result).
pub struct Schur {
    /// `T`: (quasi-)upper triangular.
    pub t: Tensor,
    /// `Z`: unitary.
    pub z: Tensor,
    /// `sdim` per matrix of the batch when sorted: how many eigenvalues satisfy the condition.
    pub sdim: Option<Vec<i64>>,
}

/// A matrix's complex Schur form `(T, Z)` on the host.
pub(crate) type SchurPair = (Dense<C64>, Dense<C64>);

fn not_found() -> Error {
    Error::LinAlg("Schur form not found. Possibly ill-conditioned.".into())
}

/// The real Schur form of one real matrix: `(T, Z)`.
pub(crate) fn real_schur_host(a: &Dense<f64>) -> Result<(Dense<f64>, Dense<f64>)> {
    let mut t = a.clone();
    let mut z = Dense::identity(a.n);
    gehrd(&mut t, Some(&mut z));
    lahqr_real(&mut t, &mut z).map_err(|_| not_found())?;
    Ok((t, z))
}

/// The complex Schur form of one complex matrix: `(T, Z)`.
pub(crate) fn complex_schur_host(a: &Dense<C64>) -> Result<(Dense<C64>, Dense<C64>)> {
    let mut t = a.clone();
    let mut z = Dense::identity(a.n);
    gehrd(&mut t, Some(&mut z));
    lahqr_complex(&mut t, &mut z).map_err(|_| not_found())?;
    Ok((t, z))
}

/// The complex Schur form as SciPy's matrix functions take it: for real
/// input the real Schur form made complex by `rsf2csf`, else the complex one.
pub(crate) fn complex_schur_of(a: &Tensor) -> Result<Vec<(Dense<C64>, Dense<C64>)>> {
    if is_complex_kind(a.kind()) {
        host::complex_mats(a)?.iter().map(complex_schur_host).collect()
    } else {
        host::real_mats(a)?
            .iter()
            .map(|m| {
                let (t, z) = real_schur_host(m)?;
                let (mut t, mut z) = (to_complex(&t), to_complex(&z));
                rsf2csf_host(&mut t, &mut z);
                Ok((t, z))
            })
            .collect()
    }
}

pub(crate) fn to_complex(m: &Dense<f64>) -> Dense<C64> {
    Dense { n: m.n, data: m.data.iter().map(|&v| C64::new(v, 0.0)).collect() }
}

/// `scipy.linalg.schur`: `a = Z T Z^H` for square `(..., n, n)` `a`. Real
/// input and `output = Real` give the real Schur form (2x2 blocks for the
/// complex conjugate pairs, standardized as LAPACK's `?gees` does); complex
/// input or `output = Complex` the complex one. `sort` moves the selected
/// eigenvalues to the leading block (for the complex form; the real form's
/// reordering is not implemented). Schur forms are not unique: `T` and `Z`
/// may differ from LAPACK's by the phases of `Z`'s columns (and, for
/// repeated or clustered eigenvalues, more), `Z T Z^H` does not. Computed in
/// float64/complex128 on the host; float32/complex64 input gives its own
/// dtype back.
pub fn schur(a: &Tensor, options: &SchurOptions<'_>) -> Result<Schur> {
    let n = square("schur", a).map_err(|_| invalid("expected square matrix"))?;
    let kind = schur_kind(dtype(a)?);
    let a = cast(a, kind)?;
    check_finite_all(options.check_finite.enabled(), &[&a])?;
    let complex = is_complex_kind(kind) || options.output == SchurOutput::Complex;
    let out_kind = if complex { complex_kind(kind) } else { kind };
    let batch = batch_of(&a, 2);
    let device = a.device();
    let count: i64 = batch.iter().product();
    if a.numel() == 0 {
        let t = Tensor::f_zeros(concat(&batch, &[n, n]).as_slice(), (out_kind, device))?;
        let sdim = options.sort.as_ref().map(|_| vec![0; count as usize]);
        return Ok(Schur { z: t.f_zeros_like()?, t, sdim });
    }
    if complex {
        let mut ts = Vec::new();
        let mut zs = Vec::new();
        let mut sdims = Vec::new();
        for m in host::complex_mats(&a)? {
            let (mut t, mut z) = complex_schur_host(&m)?;
            if let Some(sort) = &options.sort {
                let mut ks = 0;
                for k in 0..t.n {
                    let v = t.at(k, k);
                    if sort.select(v.re, v.im)? {
                        trexc_complex(&mut t, &mut z, k, ks);
                        ks += 1;
                    }
                }
                sdims.push(ks as i64);
            }
            ts.push(t);
            zs.push(z);
        }
        let t = host::from_complex(&ts, &batch, out_kind, device)?;
        let z = host::from_complex(&zs, &batch, out_kind, device)?;
        return Ok(Schur { t, z, sdim: options.sort.as_ref().map(|_| sdims) });
    }
    if options.sort.is_some() {
        return Err(not_implemented("linalg.schur: sort with output='real' (the real Schur form's reordering)"));
    }
    let mut ts = Vec::new();
    let mut zs = Vec::new();
    for m in host::real_mats(&a)? {
        let (t, z) = real_schur_host(&m)?;
        ts.push(t);
        zs.push(z);
    }
    Ok(Schur {
        t: host::from_real(&ts, &batch, out_kind, device)?,
        z: host::from_real(&zs, &batch, out_kind, device)?,
        sdim: None,
    })
}

/// SciPy's `rsf2csf` loop on one matrix: the 2x2 blocks of a real Schur
/// form made upper triangular by Givens rotations (applied to `z` too).
pub(crate) fn rsf2csf_host(t: &mut Dense<C64>, z: &mut Dense<C64>) {
    let n = t.n;
    let eps = f64::EPSILON;
    for m in (1..n).rev() {
        let sub = t.at(m, m - 1);
        if sub.abs() > eps * (t.at(m - 1, m - 1).abs() + t.at(m, m).abs()) {
            // mu = eigvals(T[m-1:m+1, m-1:m+1]) - T[m, m]; the first eigenvalue as LAPACK orders it
            let (a, b, c, d) = (t.at(m - 1, m - 1), t.at(m - 1, m), sub, t.at(m, m));
            let ev = first_eigenvalue(a, b, c, d);
            let mu = ev - d;
            let r = mu.abs().hypot(c.abs());
            let cc = mu.scale(1.0 / r);
            let s = c.scale(1.0 / r);
            // G = [[conj(c), s], [-s, c]]; T[m-1:m+1, m-1:] = G T[...]
            for j in m - 1..n {
                let (x, y) = (t.at(m - 1, j), t.at(m, j));
                *t.at_mut(m - 1, j) = cc.conj() * x + s * y;
                *t.at_mut(m, j) = -s * x + cc * y;
            }
            // T[:m+1, m-1:m+1] = T[...] G^H; Z[:, m-1:m+1] = Z[...] G^H
            let right = |x: C64, y: C64| (x * cc + y * s.conj(), -(x * s.conj()) + y * cc.conj());
            for i in 0..=m {
                let (x, y) = right(t.at(i, m - 1), t.at(i, m));
                *t.at_mut(i, m - 1) = x;
                *t.at_mut(i, m) = y;
            }
            for i in 0..n {
                let (x, y) = right(z.at(i, m - 1), z.at(i, m));
                *z.at_mut(i, m - 1) = x;
                *z.at_mut(i, m) = y;
            }
        }
        *t.at_mut(m, m - 1) = C64::default();
    }
}

/// The first eigenvalue LAPACK's `eigvals` returns for a 2x2 block (the one
/// with the positive imaginary part for a complex pair).
fn first_eigenvalue(a: C64, b: C64, c: C64, d: C64) -> C64 {
    let half = (a + d).scale(0.5);
    let disc = ((a - d).scale(0.5) * (a - d).scale(0.5) + b * c).sqrt();
    let (e1, e2) = (half + disc, half - disc);
    if e1.im > e2.im || (e1.im == e2.im && e1.re >= e2.re) {
        e1
    } else {
        e2
    }
}

/// `scipy.linalg.rsf2csf`: converts a real Schur form `(T, Z)` to the
/// complex one (complex64 for float32 input, else complex128), batched over
/// the leading dimensions. Computed on the host.
pub fn rsf2csf(t: &Tensor, z: &Tensor, check_finite: CheckFinite) -> Result<(Tensor, Tensor)> {
    check_finite_all(check_finite.enabled(), &[t, z])?;
    for (name, x) in [("Z", z), ("T", t)] {
        if x.dim() < 2 || x.size()[x.dim() - 1] != x.size()[x.dim() - 2] {
            return Err(invalid(format!("Input '{name}' must be square.")));
        }
    }
    let (nt, nz) = (t.size()[t.dim() - 1], z.size()[z.dim() - 1]);
    if nt != nz {
        return Err(invalid(format!(
            "Input array shapes must match: Z: {} vs. T: {}",
            shape_tuple(&z.size()[z.dim() - 2..]),
            shape_tuple(&t.size()[t.dim() - 2..])
        )));
    }
    let single = [dtype(t)?, dtype(z)?].iter().all(|d| !needs_double(*d));
    let kind = if single { Kind::ComplexFloat } else { Kind::ComplexDouble };
    let batch = crate::ops::numpy::broadcast_shapes(&[&batch_of(t, 2), &batch_of(z, 2)])?;
    let full = concat(&batch, &[nt, nt]);
    let (t, z) = (t.f_broadcast_to(full.as_slice())?, z.f_broadcast_to(full.as_slice())?);
    let device = t.device();
    if t.numel() == 0 {
        return Ok((
            Tensor::f_zeros(full.as_slice(), (kind, device))?,
            Tensor::f_zeros(full.as_slice(), (kind, device))?,
        ));
    }
    let mut ts = host::complex_mats(&t)?;
    let mut zs = host::complex_mats(&z)?;
    for (t, z) in ts.iter_mut().zip(zs.iter_mut()) {
        rsf2csf_host(t, z);
    }
    Ok((host::from_complex(&ts, &batch, kind, device)?, host::from_complex(&zs, &batch, kind, device)?))
}

fn shape_tuple(s: &[i64]) -> String {
    format!("({}, {})", s[0], s[1])
}
