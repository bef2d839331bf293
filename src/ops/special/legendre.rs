//! The Legendre functions of the first kind and the spherical harmonics
//! (SciPy's multi-ufuncs of `scipy/special/_multiufuncs.py` over xsf's
//! `legendre.h` and `sph_harm.h`): [`sph_harm_y`], [`sph_legendre_p`],
//! [`assoc_legendre_p`], [`legendre_p`], each with its derivatives up to
//! order `diff_n` (0, 1 or 2), and the ufunc kernel of `lpmv` (specfun's
//! LPMV: integer order, real degree).
//!
//! The kernels (`csrc/legendre.cpp`, `csrc/legendre_math.h`) run xsf's
//! normalized recurrences, three-term in the degree n at fixed order m from
//! the diagonal P_|m|^|m| computed in normalized form, so that n and m in the
//! thousands neither overflow nor lose accuracy (SciPy forms the recurrence
//! coefficients in C `int`, which overflows from n of about 650 on: its
//! results there are nan or wrong, torchbridge's agree with mpmath). The
//! derivatives come out of the same recurrences as truncated Taylor jets (xsf's
//! dual numbers), with SciPy's special values at the poles theta = 0, pi and
//! at z = +-1.
//!
//! Types as SciPy's: the degree and order take int64 (`q`) loops, the
//! argument float64 (float32 and float16 too, computed and returned as
//! float64, as SciPy's loop search does; complex for `assoc_legendre_p`),
//! the result is the loop's dtype (complex for `sph_harm_y`). Every array
//! argument is an array to SciPy (its wrappers call `np.asarray`): no
//! Python literal is weak here. A degree or order outside int32, or a degree
//! above 2^24 with |m| <= n, gives nan (SciPy wraps the int64 to int, then
//! iterates). The kernels are scalar C++ loops on the CPU; input on another
//! device goes there and back. They are not differentiable by autograd.

use tch::{Device, Kind, Tensor};

use super::loops::Loop;
use crate::ffi::legendre::{legendre_cpu, LegendreKind};
use crate::ops::numpy::{broadcast, can_cast_safe, cast, same_device};
use crate::{dlpack, DType, Error, Result};

/// SciPy's loops of `sph_harm_y` (`q` written `l`: both int64 here).
pub const SPH_HARM_Y_TYPES: &[&str] = &["lldd->D", "llff->F"];
/// SciPy's loops of `sph_legendre_p`.
pub const SPH_LEGENDRE_P_TYPES: &[&str] = &["lld->d", "llf->f"];
/// SciPy's loops of `assoc_legendre_p` (the fourth input is the branch cut).
pub const ASSOC_LEGENDRE_P_TYPES: &[&str] = &["lldl->d", "llfl->f", "llDl->D", "llFl->F"];
/// SciPy's loops of `legendre_p`.
pub const LEGENDRE_P_TYPES: &[&str] = &["ld->d", "lf->f"];

const DEGREE_ORDER_REAL: &str = "an integer degree n and order m (bool or integer up to int64) and real angles";
const DEGREE_ORDER_COMPLEX: &str =
    "an integer degree n and order m (bool or integer up to int64), a real or complex z and an integer branch_cut";
const DEGREE_REAL: &str = "an integer degree n (bool or integer up to int64) and real z";

fn code_dtype(code: char) -> Option<DType> {
    match code {
        'd' => Some(DType::Float64),
        'f' => Some(DType::Float32),
        'D' => Some(DType::Complex128),
        'F' => Some(DType::Complex64),
        'l' => Some(DType::Int64),
        _ => None,
    }
}

/// The loop NumPy picks for these generalized ufuncs: the first of `types`
/// every input casts to safely. (No exact-match preference: SciPy's loops
/// take `q` for the degree, which NumPy's int64 `l` arrays never match
/// exactly, so float32 angles run the float64 loop, as in SciPy.)
fn linear_search(types: &[&str], dtypes: &[DType]) -> Option<Loop> {
    types.iter().find_map(|t| {
        let (ins, out) = t.split_once("->")?;
        let inputs = ins.chars().map(code_dtype).collect::<Option<Vec<DType>>>()?;
        let fits =
            inputs.len() == dtypes.len() && inputs.iter().zip(dtypes).all(|(&to, &from)| can_cast_safe(from, to));
        fits.then(|| Some(Loop { inputs, output: code_dtype(out.chars().next()?)? })).flatten()
    })
}

/// The inputs of one call: cast to the loop NumPy picks (integers as int64,
/// floating as float64, complex as complex128), on one device, broadcast,
/// then contiguous on the CPU; with the loop and the device to return to.
struct Prepared {
    host: Vec<Tensor>,
    chosen: Loop,
    device: Device,
}

fn prepare(
    routine: &'static str,
    types: &[&str],
    accepted: &'static str,
    inputs: &[&Tensor],
    diff_n: i64,
) -> Result<Prepared> {
    if !(0..=2).contains(&diff_n) {
        return Err(Error::InvalidArgument(format!(
            "diff_n is currently only implemented for orders 0, 1, and 2, received: {diff_n}."
        )));
    }
    let dtypes = inputs.iter().map(|t| dlpack::dtype_of(t)).collect::<Result<Vec<DType>>>()?;
    let Some(chosen) = linear_search(types, &dtypes) else {
        // name the first argument that fits no loop in its position
        let fits_somewhere = |i: usize| {
            types.iter().any(|t| t.chars().nth(i).and_then(code_dtype).is_some_and(|to| can_cast_safe(dtypes[i], to)))
        };
        let offending = (0..dtypes.len()).find(|&i| !fits_somewhere(i)).map_or(dtypes[0], |i| dtypes[i]);
        return Err(Error::DtypeNotAccepted { routine, dtype: offending, accepted });
    };
    let wide = chosen
        .inputs
        .iter()
        .map(|&d| {
            if d.is_float() {
                DType::Float64
            } else if d.is_complex() {
                DType::Complex128
            } else {
                d
            }
        })
        .collect::<Vec<_>>();
    let tensors = inputs.iter().zip(&wide).map(|(t, &d)| cast(t, d)).collect::<Result<Vec<_>>>()?;
    let tensors = broadcast(same_device(tensors)?)?;
    let device = tensors.first().map_or(Device::Cpu, |t| t.device());
    let host = tensors
        .iter()
        .map(|t| Ok(t.f_detach()?.f_to_device(Device::Cpu)?.f_contiguous()?))
        .collect::<Result<Vec<Tensor>>>()?;
    Ok(Prepared { host, chosen, device })
}

/// `t` (a kernel's result) back on `device`, in the loop's output dtype.
fn finish(t: Tensor, device: Device, output: DType) -> Result<Tensor> {
    let t = if device == Device::Cpu { t } else { t.f_to_device(device)? };
    cast(&t, output)
}

fn run(p: &Prepared, kind: LegendreKind, diff_n: i64, norm: bool) -> Result<Tensor> {
    let refs: Vec<&Tensor> = p.host.iter().collect();
    legendre_cpu(&refs, kind, diff_n, norm)
}

/// The spherical harmonic `Y_n^m(theta, phi)` (`scipy.special.sph_harm_y`:
/// theta polar, phi azimuthal, the Condon-Shortley phase included) and, for
/// `diff_n` 1 and 2, its gradient `[dY/dtheta, dY/dphi]` (shape `(..., 2)`)
/// and Hessian (`(..., 2, 2)`), as SciPy returns them (one tensor per item of
/// SciPy's tuple; just the value for `diff_n = 0`), complex128.
pub fn sph_harm_y(n: &Tensor, m: &Tensor, theta: &Tensor, phi: &Tensor, diff_n: i64) -> Result<Vec<Tensor>> {
    let p = prepare("special.sph_harm_y", SPH_HARM_Y_TYPES, DEGREE_ORDER_REAL, &[n, m, theta, phi], diff_n)?;
    let out = run(&p, LegendreKind::SphHarmY, diff_n, false)?;
    let k = diff_n + 1;
    let at = |i: i64, j: i64| out.f_select(0, i * k + j);
    let mut results = vec![at(0, 0)?];
    if diff_n >= 1 {
        results.push(Tensor::f_stack(&[at(1, 0)?, at(0, 1)?], -1)?);
    }
    if diff_n >= 2 {
        let top = Tensor::f_stack(&[at(2, 0)?, at(1, 1)?], -1)?;
        let bottom = Tensor::f_stack(&[at(1, 1)?, at(0, 2)?], -1)?;
        results.push(Tensor::f_stack(&[top, bottom], -2)?);
    }
    results.into_iter().map(|t| finish(t, p.device, p.chosen.output)).collect()
}

/// The spherical Legendre function `sph_legendre_p(n, m, theta)` (the
/// normalized `P_n^m(cos theta)` of `Y_n^m` with phi = 0) and its
/// derivatives in theta up to `diff_n`: shape `(diff_n + 1, ...)`, as
/// SciPy's (which keeps that leading axis for `diff_n = 0` too).
pub fn sph_legendre_p(n: &Tensor, m: &Tensor, theta: &Tensor, diff_n: i64) -> Result<Tensor> {
    let p = prepare("special.sph_legendre_p", SPH_LEGENDRE_P_TYPES, DEGREE_ORDER_REAL, &[n, m, theta], diff_n)?;
    finish(run(&p, LegendreKind::SphLegendreP, diff_n, false)?, p.device, p.chosen.output)
}

/// The associated Legendre function `P_n^m(z)` (`scipy.special.assoc_legendre_p`:
/// the branch cut 2, `|z| > 1` on the real axis, or 3, `-1 < z < 1`; with
/// `norm` the normalized one) and its derivatives in z up to `diff_n`:
/// shape `(diff_n + 1, ...)`. Real or complex z.
pub fn assoc_legendre_p(
    n: &Tensor,
    m: &Tensor,
    z: &Tensor,
    branch_cut: &Tensor,
    norm: bool,
    diff_n: i64,
) -> Result<Tensor> {
    let p = prepare(
        "special.assoc_legendre_p",
        ASSOC_LEGENDRE_P_TYPES,
        DEGREE_ORDER_COMPLEX,
        &[n, m, z, branch_cut],
        diff_n,
    )?;
    finish(run(&p, LegendreKind::AssocLegendreP, diff_n, norm)?, p.device, p.chosen.output)
}

/// The Legendre polynomial `P_n(z)` (`scipy.special.legendre_p`) and its
/// derivatives up to `diff_n`: shape `(diff_n + 1, ...)`.
pub fn legendre_p(n: &Tensor, z: &Tensor, diff_n: i64) -> Result<Tensor> {
    let p = prepare("special.legendre_p", LEGENDRE_P_TYPES, DEGREE_REAL, &[n, z], diff_n)?;
    finish(run(&p, LegendreKind::LegendreP, diff_n, false)?, p.device, p.chosen.output)
}

/// The ufunc kernel of `lpmv(m, v, x)` on broadcast float64 tensors.
pub(super) fn lpmv(m: &Tensor, v: &Tensor, x: &Tensor) -> Result<Tensor> {
    let device = x.device();
    let host = [m, v, x]
        .iter()
        .map(|t| Ok(t.f_detach()?.f_to_device(Device::Cpu)?.f_to_kind(Kind::Double)?.f_contiguous()?))
        .collect::<Result<Vec<Tensor>>>()?;
    let refs: Vec<&Tensor> = host.iter().collect();
    let out = legendre_cpu(&refs, LegendreKind::Lpmv, 0, false)?;
    if device == Device::Cpu {
        return Ok(out);
    }
    Ok(out.f_to_device(device)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sph_harm_y_of_degree_one() {
        let n = Tensor::from_slice(&[1i64, 1, 1]);
        let m = Tensor::from_slice(&[-1i64, 0, 1]);
        let theta = Tensor::from_slice(&[0.7f64, 0.7, 0.7]);
        let phi = Tensor::from_slice(&[0.3f64, 0.3, 0.3]);
        let y = sph_harm_y(&n, &m, &theta, &phi, 0).unwrap().remove(0);
        assert_eq!(y.kind(), Kind::ComplexDouble);
        let re = Vec::<f64>::try_from(y.real()).unwrap();
        let c = 0.5 * (3.0 / (2.0 * std::f64::consts::PI)).sqrt() * 0.7f64.sin();
        assert!((re[0] - c * 0.3f64.cos()).abs() < 1e-15);
        assert!((re[2] + c * 0.3f64.cos()).abs() < 1e-15);
        assert!((re[1] - 0.5 * (3.0 / std::f64::consts::PI).sqrt() * 0.7f64.cos()).abs() < 1e-15);
    }

    #[test]
    fn float_degrees_are_refused() {
        let n = Tensor::from_slice(&[1.0f64]);
        let x = Tensor::from_slice(&[0.5f64]);
        assert!(matches!(legendre_p(&n, &x, 0), Err(Error::DtypeNotAccepted { .. })));
        let n = Tensor::from_slice(&[1i64]);
        assert!(matches!(legendre_p(&n, &x, 3), Err(Error::InvalidArgument(_))));
    }
}
