//! `scipy.linalg._decomp_cossin`: the cosine-sine decomposition of a
//! unitary (orthogonal) matrix partitioned into four blocks.
//!
//! libtorch and the LAPACK it exports have no `?orcsd`/`?uncsd`: the
//! decomposition is built from SVDs and a QR (Van Loan's construction):
//! the SVD of `X11` gives `U1`, `V1` and the cosines; the columns of
//! `X21 V1` whose sines are large give `U2` by normalization, those whose
//! cosines are large (sines small, where normalizing would lose accuracy)
//! are re-split by an SVD of their `X21` part (rotating `V1` among columns
//! of nearly equal cosines, `U1` then recomputed from `X11`); `U2` is made
//! exactly unitary by a complete QR, and `V2^H` follows from `X12` and
//! `X22` by the rotation that pairs each cosine with its sine. Each step
//! runs on the input's device, one matrix of a batch at a time.

use tch::{Device, Kind, Tensor};

use super::decomp_svd::svd_parts;
use super::dtypes::{cast, lapack_kind, real_kind};
use super::invalid;
use super::shapes::*;
use crate::ops::dtype;
use crate::ops::numpy::{broadcast_shapes, check_finite_all};
use crate::Result;

/// The options of [`cossin`].
#[derive(Clone, Copy, Debug)]
pub struct CosSinOptions {
    /// `swap_sign`: `-S`, `-I` in the bottom-left block instead of the top-right.
    pub swap_sign: bool,
    /// `compute_u`: when false, `u1`, `u2` (and `u`) are empty `(0, 0)`.
    pub compute_u: bool,
    /// `compute_vh`: when false, `v1h`, `v2h` (and `vh`) are empty `(0, 0)`.
    pub compute_vh: bool,
}

impl Default for CosSinOptions {
    fn default() -> CosSinOptions {
        CosSinOptions { swap_sign: false, compute_u: true, compute_vh: true }
    }
}

/// [`cossin`]'s result: the low-level parts and the assembled factors.
pub struct CosSin {
    /// `U1` (`p x p`).
    pub u1: Tensor,
    /// `U2` (`(m-p) x (m-p)`).
    pub u2: Tensor,
    /// The `r = min(p, m-p, q, m-q)` angles in `[0, pi/2]`, increasing.
    pub theta: Tensor,
    /// `V1^H` (`q x q`).
    pub v1h: Tensor,
    /// `V2^H` (`(m-q) x (m-q)`).
    pub v2h: Tensor,
    /// `block_diag(U1, U2)`.
    pub u: Tensor,
    /// The cosine-sine factor (real).
    pub cs: Tensor,
    /// `block_diag(V1^H, V2^H)`.
    pub vh: Tensor,
}

/// Python's repr of a shape tuple.
fn shape_repr(shape: &[i64]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!("({})", shape.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// SciPy's `cossin(X, p, q)` front: `X` checked finite and square, `p`,
/// `q` in range, and split into its four blocks.
pub fn cossin_split(x: &Tensor, p: i64, q: i64) -> Result<[Tensor; 4]> {
    check_finite_all(true, &[x])?;
    let size = x.size();
    let tail = &size[size.len().saturating_sub(2)..];
    if tail.len() < 2 || tail[0] != tail[1] {
        return Err(invalid(format!(
            "Cosine Sine decomposition only supports square matrices, got {}",
            shape_repr(tail)
        )));
    }
    let m = tail[0];
    if p >= m || p <= 0 {
        return Err(invalid(format!("invalid p={p}, 0<p<{m} must hold")));
    }
    if q >= m || q <= 0 {
        return Err(invalid(format!("invalid q={q}, 0<q<{m} must hold")));
    }
    let rows = |start, len| x.f_narrow(-2, start, len);
    let (top, bottom) = (rows(0, p)?, rows(p, m - p)?);
    Ok([
        top.f_narrow(-1, 0, q)?,
        top.f_narrow(-1, q, m - q)?,
        bottom.f_narrow(-1, 0, q)?,
        bottom.f_narrow(-1, q, m - q)?,
    ])
}

/// `scipy.linalg.cossin` of `X = [[X11, X12], [X21, X22]]` given as its
/// four blocks (each at least 2-D; batched over broadcast leading
/// dimensions): `X = U CS V^H` with `U = diag(U1, U2)`, `V^H = diag(V1^H,
/// V2^H)` unitary and `CS` SciPy's cosine-sine layout. Checks the blocks'
/// shapes with SciPy's messages.
pub fn cossin(blocks: [&Tensor; 4], options: &CosSinOptions) -> Result<CosSin> {
    let names = ["x11", "x12", "x21", "x22"];
    let batches: Vec<Vec<i64>> = blocks.iter().map(|b| batch_of(b, 2)).collect();
    let batch = broadcast_shapes(&batches.iter().map(Vec::as_slice).collect::<Vec<_>>())?;
    let dims: Vec<(i64, i64)> = blocks.iter().map(|b| (b.size()[b.dim() - 2], b.size()[b.dim() - 1])).collect();
    for (name, &(_, cols)) in names.iter().zip(&dims) {
        if cols == 0 {
            return Err(invalid(format!("{name} can't be empty")));
        }
    }
    let ((p, q), (mmp, mmq)) = (dims[0], dims[3]);
    if dims[1] != (p, mmq) {
        return Err(invalid(format!(
            "Invalid x12 dimensions: desired {}, got {}",
            shape_repr(&[p, mmq]),
            shape_repr(&[dims[1].0, dims[1].1])
        )));
    }
    if dims[2] != (mmp, q) {
        return Err(invalid(format!(
            "Invalid x21 dimensions: desired {}, got {}",
            shape_repr(&[mmp, q]),
            shape_repr(&[dims[2].0, dims[2].1])
        )));
    }
    if p + mmp != q + mmq {
        return Err(invalid(format!(
            "The subblocks have compatible sizes but don't form a square array (instead they form a {}x{} \
             array). This might be due to missing p, q arguments.",
            p + mmp,
            q + mmq
        )));
    }
    let m = p + mmp;
    let dtypes = blocks.iter().map(|b| dtype(b)).collect::<Result<Vec<_>>>()?;
    let kind = lapack_kind(&dtypes);
    let device = blocks[0].device();
    let count: i64 = batch.iter().product();
    let flat = |b: &Tensor, rows: i64, cols: i64| -> Result<Tensor> {
        let full = concat(&batch, &[rows, cols]);
        Ok(cast(b, kind)?.f_to(device)?.f_broadcast_to(full.as_slice())?.f_reshape([count.max(1), rows, cols])?)
    };
    let xs = [flat(blocks[0], p, q)?, flat(blocks[1], p, mmq)?, flat(blocks[2], mmp, q)?, flat(blocks[3], mmp, mmq)?];
    let mut parts: [Vec<Tensor>; 5] = Default::default();
    for i in 0..count {
        let one = |t: &Tensor| t.f_get(i);
        let [u1, u2, theta, v1h, v2h] =
            cossin_one([&one(&xs[0])?, &one(&xs[1])?, &one(&xs[2])?, &one(&xs[3])?], kind, options.swap_sign)?;
        for (all, part) in parts.iter_mut().zip([u1, u2, theta, v1h, v2h]) {
            all.push(part);
        }
    }
    let r = p.min(q).min(m - p).min(m - q);
    let rkind = real_kind(kind);
    let stack = |v: &[Tensor], core: &[i64], k: Kind| -> Result<Tensor> {
        let shape = concat(&batch, core);
        if v.is_empty() {
            return Ok(Tensor::f_zeros(shape.as_slice(), (k, device))?);
        }
        Ok(Tensor::f_stack(v, 0)?.f_reshape(shape.as_slice())?)
    };
    let empty = || Tensor::f_zeros(concat(&batch, &[0, 0]).as_slice(), (kind, device));
    let u1 = if options.compute_u { stack(&parts[0], &[p, p], kind)? } else { empty()? };
    let u2 = if options.compute_u { stack(&parts[1], &[mmp, mmp], kind)? } else { empty()? };
    let theta = stack(&parts[2], &[r], rkind)?;
    let v1h = if options.compute_vh { stack(&parts[3], &[q, q], kind)? } else { empty()? };
    let v2h = if options.compute_vh { stack(&parts[4], &[mmq, mmq], kind)? } else { empty()? };
    let u = block_diag2(&u1, &u2)?;
    let vh = block_diag2(&v1h, &v2h)?;
    let cs = cs_matrix(&theta, p, q, m, options.swap_sign)?;
    Ok(CosSin { u1, u2, theta, v1h, v2h, u, cs, vh })
}

/// `block_diag(a, b)` over the last two dimensions.
fn block_diag2(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let (sa, sb) = (a.size(), b.size());
    let nd = sa.len();
    let (ra, ca, rb, cb) = (sa[nd - 2], sa[nd - 1], sb[nd - 2], sb[nd - 1]);
    let batch = &sa[..nd - 2];
    let top = Tensor::f_cat(
        &[a.shallow_clone(), Tensor::f_zeros(concat(batch, &[ra, cb]).as_slice(), (a.kind(), a.device()))?],
        -1,
    )?;
    let bottom = Tensor::f_cat(
        &[Tensor::f_zeros(concat(batch, &[rb, ca]).as_slice(), (a.kind(), a.device()))?, b.shallow_clone()],
        -1,
    )?;
    Ok(Tensor::f_cat(&[top, bottom], -2)?)
}

/// SciPy's `CS` from `theta` (`(..., r)`), in `theta`'s kind.
fn cs_matrix(theta: &Tensor, p: i64, q: i64, m: i64, swap_sign: bool) -> Result<Tensor> {
    let r = p.min(q).min(m - p).min(m - q);
    let n11 = p.min(q) - r;
    let n12 = p.min(m - q) - r;
    let n21 = (m - p).min(q) - r;
    let n22 = (m - p).min(m - q) - r;
    let size = theta.size();
    let batch = &size[..size.len() - 1];
    let (kind, device) = (theta.kind(), theta.device());
    let cs = Tensor::f_zeros(concat(batch, &[m, m]).as_slice(), (kind, device))?;
    let c = theta.f_cos()?.f_diag_embed(0, -2, -1)?;
    let s = theta.f_sin()?.f_diag_embed(0, -2, -1)?;
    let put = |rs: i64, cs0: i64, src: &Tensor| -> Result<()> {
        let n = src.size()[src.dim() - 1];
        if n > 0 {
            let mut view = cs.f_narrow(-2, rs, n)?.f_narrow(-1, cs0, n)?;
            view.f_copy_(src)?;
        }
        Ok(())
    };
    let ident = |n: i64, sign: f64| -> Result<Tensor> { Ok(Tensor::f_eye(n, (kind, device))?.f_mul_scalar(sign)?) };
    let (neg, pos) = (-1.0, 1.0);
    put(0, 0, &ident(n11, pos)?)?;
    put(n11 + r, n11 + n21 + n22 + 2 * r, &ident(n12, if swap_sign { pos } else { neg })?)?;
    put(p + n22 + r, n11 + r, &ident(n21, if swap_sign { neg } else { pos })?)?;
    put(p, q, &ident(n22, pos)?)?;
    put(n11, n11, &c)?;
    put(p + n22, n11 + r + n21 + n22, &c)?;
    put(n11, n11 + n21 + n22 + r, &(if swap_sign { s.shallow_clone() } else { s.f_neg()? }))?;
    put(p + n22, n11, &(if swap_sign { s.f_neg()? } else { s.shallow_clone() }))?;
    Ok(cs)
}

/// The host copy of a small real vector.
fn host_vec(t: &Tensor) -> Result<Vec<f64>> {
    let t = t.f_to_kind(Kind::Double)?.f_to(Device::Cpu)?.f_contiguous()?;
    let n = t.numel();
    let mut out = vec![0f64; n];
    t.f_copy_data(&mut out, n)?;
    Ok(out)
}

/// The 2-norm of each column (real kind).
fn column_norms(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_abs()?.f_square()?.f_sum_dim_intlist([0i64].as_slice(), false, None::<Kind>)?.f_sqrt()?)
}

/// One matrix: `[U1, U2, theta, V1^H, V2^H]`.
fn cossin_one(x: [&Tensor; 4], kind: Kind, swap_sign: bool) -> Result<[Tensor; 5]> {
    let [x11, x12, x21, x22] = x;
    let (p, q) = (x11.size()[0], x11.size()[1]);
    let (mmp, mmq) = (x22.size()[0], x22.size()[1]);
    let r = p.min(q).min(mmp).min(mmq);
    let n11 = p.min(q) - r;
    let n12 = p.min(mmq) - r;
    let n22 = mmp.min(mmq) - r;
    let rkind = real_kind(kind);
    let device = x11.device();
    let real_to = |t: Tensor| -> Result<Tensor> { Ok(t.f_to_kind(kind)?) };
    // the SVD of X11: cosines, descending
    let (uu, sv, vh) = svd_parts(x11, true, true, false)?;
    let (uu, vh) = (uu.ok_or_else(|| invalid("svd"))?, vh.ok_or_else(|| invalid("svd"))?);
    let mut c = host_vec(&sv)?;
    c.resize(q as usize, 0.0);
    let k = c.iter().take(p.min(q) as usize).take_while(|&&v| v >= std::f64::consts::FRAC_1_SQRT_2).count() as i64;
    let v = mh(&vh)?;
    let w = x21.f_matmul(&v)?;
    // large sines: U2's columns by normalization
    let wb = w.f_narrow(1, k, q - k)?;
    let sb = column_norms(&wb)?;
    let u2b = wb.f_div(&real_to(sb.shallow_clone())?.f_unsqueeze(0)?)?;
    let mut s_all = vec![0f64; k as usize];
    s_all.extend(host_vec(&sb)?);
    let (v1, u1, ut_sel) = if k > 0 {
        // large cosines: the X21 part of their columns re-split by its SVD
        let wa = w.f_narrow(1, 0, k)?;
        let wa = wa.f_sub(&u2b.f_matmul(&mh(&u2b)?.f_matmul(&wa)?)?)?;
        let (ut, st, vth) = svd_parts(&wa, true, true, false)?;
        let (ut, vth) = (ut.ok_or_else(|| invalid("svd"))?, vth.ok_or_else(|| invalid("svd"))?);
        let mut sa = host_vec(&st)?;
        sa.resize(k as usize, 0.0);
        sa.reverse();
        s_all[..k as usize].copy_from_slice(&sa);
        let va = v.f_narrow(1, 0, k)?.f_matmul(&mh(&vth)?.f_flip([1])?)?;
        let xa = x11.f_matmul(&va)?;
        let ca = column_norms(&xa)?;
        let u1a = xa.f_div(&real_to(ca.shallow_clone())?.f_unsqueeze(0)?)?;
        c[..k as usize].copy_from_slice(&host_vec(&ca)?);
        let v1 = Tensor::f_cat(&[va, v.f_narrow(1, k, q - k)?], 1)?;
        let u1 = Tensor::f_cat(&[u1a, uu.f_narrow(1, k, p - k)?], 1)?;
        (v1, u1, ut.f_narrow(1, 0, k - n11)?.f_flip([1])?)
    } else {
        (v, uu, Tensor::f_zeros([mmp, 0], (kind, device))?)
    };
    // U2 exactly unitary: a complete QR, its columns' phases those of the computed ones
    let cols = Tensor::f_cat(&[u2b, ut_sel], 1)?;
    let kk = q - n11;
    let (qm, rm) = Tensor::f_linalg_qr(&cols, "complete")?;
    let phase = rm.f_diagonal(0, 0, 1)?.f_sgn()?;
    let phase = phase.f_add(&phase.f_eq(0.0)?.f_to_kind(kind)?)?;
    let qc = qm.f_narrow(1, 0, kk)?.f_mul(&phase.f_unsqueeze(0)?)?;
    let nb = q - k;
    let mut u2 =
        Tensor::f_cat(&[qm.f_narrow(1, kk, mmp - kk)?, qc.f_narrow(1, nb, kk - nb)?, qc.f_narrow(1, 0, nb)?], 1)?;
    let angles: Vec<f64> = (n11..n11 + r).map(|i| s_all[i as usize].atan2(c[i as usize])).collect();
    let theta = Tensor::f_from_slice(&angles)?.f_to_kind(rkind)?.f_to(device)?;
    // V2^H: rows from X22 (identity, cosine parts) and X12 (sine, identity parts)
    let t = mh(&u1)?.f_matmul(x12)?;
    let b = mh(&u2)?.f_matmul(x22)?;
    let cth = real_to(theta.f_cos()?)?.f_unsqueeze(1)?;
    let sth = real_to(theta.f_sin()?)?.f_unsqueeze(1)?;
    let middle = cth.f_mul(&b.f_narrow(0, n22, r)?)?.f_sub(&sth.f_mul(&t.f_narrow(0, n11, r)?)?)?;
    let mut v2h = Tensor::f_cat(&[b.f_narrow(0, 0, n22)?, middle, t.f_narrow(0, n11 + r, n12)?.f_neg()?], 0)?;
    if swap_sign {
        u2 = Tensor::f_cat(&[u2.f_narrow(1, 0, n22)?, u2.f_narrow(1, n22, mmp - n22)?.f_neg()?], 1)?;
        v2h = Tensor::f_cat(&[v2h.f_narrow(0, 0, n22)?, v2h.f_narrow(0, n22, mmq - n22)?.f_neg()?], 0)?;
    }
    Ok([u1, u2, theta, mh(&v1)?, v2h])
}
