//! The Kolmogorov-Smirnov distributions (SciPy's `scipy/stats/_ksstats.py`,
//! the `kolmogorov`/`smirnov` functions of `scipy.special` and the exact
//! two-sample counts of `_stats_py`/`_stats_pythran`), evaluated on the host
//! in `f64`.
//!
//! These are scalar functions of a statistic and one or two sample sizes:
//! the KS tests compute their statistics on the device, one per slice, and
//! evaluate the p-values here (one call per slice; the data never leaves the
//! device). They follow SciPy's algorithms and case splits:
//!
//! - [`smirnov`]: the one-sided statistic's survival function
//!   `P(D+_n >= d)` by the Birnbaum-Tingey (Smirnov) lower sum, each term
//!   from logarithms (SciPy sums the same terms in double-double arithmetic;
//!   the two agree to about `1e-13` relative for `n` up to 1e4, a few
//!   `1e-12` for 1e5), with SciPy's special cases (`d <= 1/n`,
//!   `d >= 1 - 1/n`, underflow, the `n > 1e6` approximation).
//! - [`kolmogorov`]: the limiting two-sided distribution's survival function.
//! - [`kolmogn`]: the two-sided one-sample statistic `D_n` (SciPy's
//!   `kstwo`): Ruben-Gambino at the ends, the Durbin matrix (Marsaglia, Tsang
//!   and Wang), Pomeranz's recursion, Pelz-Good, `2 smirnov` in the tail,
//!   chosen as Simard and L'Ecuyer (2011) and SciPy choose.
//! - [`ks_2samp_exact`]: the exact two-sample p-value (Hodges' lattice paths;
//!   Viehmann's recursion for `1 - p`), or `None` where SciPy's computation
//!   overflows and it falls back to the asymptotic one.

use std::f64::consts::PI;

const EP128: f64 = 3.402_823_669_209_385e38; // 2**128
const EM128: f64 = 2.938_735_877_055_719e-39; // 2**-128
const LOG_2PI: f64 = 1.837_877_066_409_345_5;
const MIN_LOG: f64 = -708.396_418_532_264_1;

/// `ln(k!) - (k + 1/2) ln k + k - ln(2 pi)/2` (the Stirling error), accurate
/// to a few ulps of `ln(k!)`'s own size.
fn stirlerr(k: f64) -> f64 {
    if k < 16.0 {
        let mut lf = 0.0;
        let mut i = 2.0;
        while i <= k {
            lf += f64::ln(i);
            i += 1.0;
        }
        if k == 0.0 {
            return 0.0;
        }
        return lf - (k + 0.5) * k.ln() + k - 0.5 * LOG_2PI;
    }
    let r = 1.0 / k;
    let r2 = r * r;
    r * (1.0 / 12.0 - r2 * (1.0 / 360.0 - r2 * (1.0 / 1260.0 - r2 * (1.0 / 1680.0 - r2 / 1188.0))))
}

/// `ln C(n, k)` for integers `0 <= k <= n`, without the cancellation of three
/// `lgamma`s: the Stirling errors plus positive logarithmic terms.
pub fn ln_binom(n: f64, k: f64) -> f64 {
    if k == 0.0 || k == n {
        return 0.0;
    }
    let m = n - k;
    stirlerr(n) - stirlerr(k) - stirlerr(m) + k * (n / k).ln() + m * (n / m).ln() + 0.5 * (n / (k * m)).ln()
        - 0.5 * LOG_2PI
}

/// SciPy's `special.binom(n, k)` for integers `0 <= k <= n`: the product for
/// `min(k, n - k) < 20` as SciPy takes it, else `exp(ln C(n, k))` (infinite
/// where it overflows).
pub fn binom(n: f64, k: f64) -> f64 {
    if k < 0.0 || k > n {
        return 0.0;
    }
    let kx = if k > n / 2.0 { n - k } else { k };
    if kx < 20.0 {
        let (mut num, mut den) = (1.0f64, 1.0f64);
        let mut i = 1.0;
        while i <= kx {
            num *= i + n - kx;
            den *= i;
            if num.abs() > 1e50 {
                num /= den;
                den = 1.0;
            }
            i += 1.0;
        }
        return num / den;
    }
    ln_binom(n, kx).exp()
}

/// `(floor(n x), n x - floor(n x))`, the remainder exact (an FMA residual).
fn mod_nx(n: i64, x: f64) -> (i64, f64, f64) {
    let nf = n as f64;
    let hi = nf * x;
    let lo = nf.mul_add(x, -hi);
    let mut fl = hi.floor();
    let mut alpha = (hi - fl) + lo;
    if alpha < 0.0 {
        fl -= 1.0;
        alpha += 1.0;
    }
    if alpha >= 1.0 {
        fl += 1.0;
        alpha -= 1.0;
    }
    (fl as i64, alpha, hi)
}

/// `smirnov(n, d)`: `P(D+_n >= d)`, the survival function of the one-sided
/// one-sample KS statistic (SciPy's `scipy.special.smirnov`, `ksone.sf`).
pub fn smirnov(n: i64, x: f64) -> f64 {
    if !(n > 0 && (0.0..=1.0).contains(&x)) {
        return f64::NAN;
    }
    if n == 1 {
        return 1.0 - x;
    }
    if x == 0.0 {
        return 1.0;
    }
    if x == 1.0 {
        return 0.0;
    }
    let nf = n as f64;
    let (nxfl, alpha, nx) = mod_nx(n, x);
    if nxfl == 0 || (nxfl == 1 && alpha == 0.0) {
        // x <= 1/n: cdf = x (1 + x)^(n-1)
        let cdf = x * ((nf - 1.0) * x.ln_1p()).exp();
        return (1.0 - cdf).clamp(0.0, 1.0);
    }
    if -2.0 * nf * x * x < MIN_LOG {
        return 0.0;
    }
    if nxfl >= n - 1 {
        return (nf * (-x).ln_1p()).exp().clamp(0.0, 1.0);
    }
    if n > 1_000_000 {
        let logp = -(6.0 * nf * x + 1.0).powi(2) / 18.0 / nf;
        let sf = if logp < -std::f64::consts::LN_2 { logp.exp() } else { 1.0 + logp.exp_m1() };
        return sf.clamp(0.0, 1.0);
    }
    // The lower sum: sf = x * sum_{v=0}^{n - nxfl - 1} C(n,v) (x+v/n)^(v-1) (1-x-v/n)^(n-v)
    let n_terms = n - nxfl; // v = 0 ..= n - nxfl - 1
    let vmid = n / 2;
    let mut sum = 0.0f64;
    let mut comp = 0.0f64; // Kahan compensation
    let nx_lo = (nf.mul_add(x, -nx)) + 0.0;
    for v in 0..n_terms {
        let vf = v as f64;
        // a = x + v/n, b = 1 - a, from n x exactly
        let a_num = vf + nx + nx_lo;
        let a = a_num / nf;
        let ln_a = a.ln();
        let ln_b = if a < 0.5 { (-a).ln_1p() } else { ((((nf - vf) - nx) - nx_lo) / nf).ln() };
        let term = (ln_binom(nf, vf) + (vf - 1.0) * ln_a + (nf - vf) * ln_b).exp();
        if term.is_finite() && term != 0.0 {
            let y = term - comp;
            let t = sum + y;
            comp = (t - sum) - y;
            sum = t;
            if 4.0 * ((n_terms - v) as f64) * term < f64::EPSILON * sum && v != n_terms - 1 && v > 0 {
                break;
            }
        } else if v > vmid {
            break;
        }
    }
    (x * sum).clamp(0.0, 1.0)
}

/// `kolmogorov(y)`: the survival function of the limiting distribution of
/// `sqrt(n) D_n` (SciPy's `scipy.special.kolmogorov`, `kstwobign.sf`).
pub fn kolmogorov(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x <= PI / (8.0f64 * (708.0 + 38.0)).sqrt() {
        return 1.0;
    }
    let sf = if x <= 0.82 {
        let w = (2.0 * PI).sqrt() / x;
        let logu8 = -PI * PI / (x * x);
        let u = (logu8 / 8.0).exp();
        let p = if u == 0.0 {
            (logu8 / 8.0 + w.ln()).exp()
        } else {
            let u8 = logu8.exp();
            let u8cub = u8.powi(3);
            let mut p = 1.0;
            p = 1.0 + u8cub * p;
            p = 1.0 + u8 * u8 * p;
            p = 1.0 + u8 * p;
            w * u * p
        };
        1.0 - p
    } else {
        let v = (-2.0 * x * x).exp();
        let vsq = v * v;
        let v3 = v.powi(3);
        let mut p = 1.0;
        p = 1.0 - v3 * v3 * v * p;
        p = 1.0 - v3 * vsq * p;
        p = 1.0 - v3 * p;
        2.0 * v * p
    };
    sf.clamp(0.0, 1.0)
}

/// `ln(n!) - n ln n` by Stirling's series (SciPy's `_log_nfactorial_div_n_pow_n`).
fn log_nfactorial_div_n_pow_n(n: f64) -> f64 {
    const C: [f64; 8] = [
        -2.955_065_359_477_124e-2,
        6.410_256_410_256_41e-3,
        -1.917_526_917_526_917_6e-3,
        8.417_508_417_508_417e-4,
        -5.952_380_952_380_953e-4,
        7.936_507_936_507_937e-4,
        -2.777_777_777_777_778e-3,
        8.333_333_333_333_333e-2,
    ];
    let rn = 1.0 / n;
    let z = rn / n;
    let poly = C.iter().fold(0.0, |acc, &c| acc * z + c);
    n.ln() / 2.0 - n + LOG_2PI / 2.0 + rn * poly
}

/// `P(D_n <= d)` by the Durbin matrix, Marsaglia-Tsang-Wang's scaling.
fn kolmogn_dmtw(n: i64, d: f64) -> f64 {
    if d >= 1.0 {
        return 1.0;
    }
    let nf = n as f64;
    let nd = nf * d;
    if nd <= 0.5 {
        return 0.0;
    }
    let k = nd.ceil() as usize;
    let h = k as f64 - nd;
    let m = 2 * k - 1;
    let mut hm = vec![0.0f64; m * m];
    let mut v = vec![0.0f64; m];
    let mut w = vec![0.0f64; m];
    let mut fac = 1.0f64;
    for j in 1..=m {
        w[j - 1] = fac;
        fac /= j as f64;
        v[j - 1] = (1.0 - h.powi(j as i32)) * fac;
    }
    let tt = (2.0 * h - 1.0).max(0.0).powi(m as i32) - 2.0 * h.powi(m as i32);
    v[m - 1] = (1.0 + tt) * fac;
    for i in 1..m {
        // H[i-1:, i] = w[:m-i+1]
        for r in (i - 1)..m {
            hm[r * m + i] = w[r - (i - 1)];
        }
    }
    for r in 0..m {
        hm[r * m] = v[r];
    }
    for c in 0..m {
        hm[(m - 1) * m + c] = v[m - 1 - c];
    }
    let matmul = |a: &[f64], b: &[f64]| -> Vec<f64> {
        let mut out = vec![0.0f64; m * m];
        for i in 0..m {
            for l in 0..m {
                let ail = a[i * m + l];
                if ail == 0.0 {
                    continue;
                }
                for j in 0..m {
                    out[i * m + j] += ail * b[l * m + j];
                }
            }
        }
        out
    };
    let mut pw = vec![0.0f64; m * m];
    for i in 0..m {
        pw[i * m + i] = 1.0;
    }
    let mut nn = n;
    let mut expnt: i64 = 0;
    let mut hexpnt: i64 = 0;
    while nn > 0 {
        if nn % 2 == 1 {
            pw = matmul(&pw, &hm);
            expnt += hexpnt;
        }
        hm = matmul(&hm, &hm);
        hexpnt *= 2;
        if hm[(k - 1) * m + (k - 1)].abs() > EP128 {
            for e in hm.iter_mut() {
                *e /= EP128;
            }
            hexpnt += 128;
        }
        nn /= 2;
    }
    let mut p = pw[(k - 1) * m + (k - 1)];
    for i in 1..=n {
        p = i as f64 * p / nf;
        if p.abs() < EM128 {
            p *= EP128;
            expnt -= 128;
        }
    }
    if expnt != 0 {
        p *= 2f64.powi(expnt as i32);
    }
    p.clamp(0.0, 1.0)
}

fn pomeranz_j1j2(i: i64, n: i64, ll: i64, ceilf: i64, roundf: i64) -> (i64, i64) {
    let (j1, j2) = if i == 0 {
        (-ll - ceilf - 1, ll + ceilf - 1)
    } else {
        let (ip1div2, ip1mod2) = ((i + 1).div_euclid(2), (i + 1).rem_euclid(2));
        if ip1mod2 == 0 {
            if ip1div2 == n + 1 {
                (n - ll - ceilf - 1, n + ll + ceilf - 1)
            } else {
                (ip1div2 - 1 - ll - roundf - 1, ip1div2 + ll - 1 + ceilf - 1)
            }
        } else {
            (ip1div2 - 1 - ll - 1, ip1div2 + ll + roundf - 1)
        }
    };
    ((j1 + 2).max(0), j2.min(n))
}

/// `P(D_n <= d)` by Pomeranz's recursion.
fn kolmogn_pomeranz(n: i64, x: f64) -> f64 {
    let nf = n as f64;
    let t = nf * x;
    let ll = t.floor() as i64;
    let f = t - ll as f64;
    let g = f.min(1.0 - f);
    let ceilf = i64::from(f > 0.0);
    let roundf = i64::from(f > 0.5);
    let npwrs = (2 * (ll + 1)) as usize;
    let mut gpower = vec![1.0f64; npwrs];
    let mut twogpower = vec![1.0f64; npwrs];
    let mut onem2gpower = vec![1.0f64; npwrs];
    let (g_n, two_g_n, om2g_n) = (g / nf, 2.0 * g / nf, (1.0 - 2.0 * g) / nf);
    for m in 1..npwrs {
        gpower[m] = gpower[m - 1] * g_n / m as f64;
        twogpower[m] = twogpower[m - 1] * two_g_n / m as f64;
        onem2gpower[m] = onem2gpower[m - 1] * om2g_n / m as f64;
    }
    let mut v0 = vec![0.0f64; npwrs];
    let mut v1 = vec![0.0f64; npwrs];
    v1[0] = 1.0;
    let (mut v0s, mut v1s) = (0i64, 0i64);
    let mut expnt: i64 = 0;
    let (mut j1, mut _j2) = pomeranz_j1j2(0, n, ll, ceilf, roundf);
    for i in 1..(2 * n + 2) {
        let k1 = j1;
        std::mem::swap(&mut v0, &mut v1);
        std::mem::swap(&mut v0s, &mut v1s);
        v1.iter_mut().for_each(|e| *e = 0.0);
        let (nj1, nj2) = pomeranz_j1j2(i, n, ll, ceilf, roundf);
        j1 = nj1;
        _j2 = nj2;
        let pwrs = if i == 1 || i == 2 * n + 1 {
            &gpower
        } else if i % 2 == 1 {
            &twogpower
        } else {
            &onem2gpower
        };
        let ln2 = nj2 - k1 + 1;
        if ln2 > 0 {
            let start = (k1 - v0s).max(0) as usize;
            let end = ((k1 - v0s + ln2).max(0) as usize).min(npwrs);
            let a = &v0[start.min(npwrs)..end.max(start.min(npwrs))];
            let b = &pwrs[..(ln2 as usize).min(npwrs)];
            let conv_start = (nj1 - k1) as usize;
            let conv_len = (nj2 - nj1 + 1).max(0) as usize;
            for (o, slot) in v1.iter_mut().enumerate().take(conv_len) {
                let idx = conv_start + o;
                // full convolution entry idx of a and b
                let mut s = 0.0;
                let lo = idx.saturating_sub(b.len().saturating_sub(1));
                let hi = idx.min(a.len().saturating_sub(1));
                if !a.is_empty() && lo <= hi {
                    for (p, &av) in a.iter().enumerate().take(hi + 1).skip(lo) {
                        s += av * b[idx - p];
                    }
                }
                *slot = s;
            }
            let mx = v1.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            if 0.0 < mx && mx < EM128 {
                v1.iter_mut().for_each(|e| *e *= EP128);
                expnt -= 128;
            }
            v1s = v0s + nj1 - k1;
        }
    }
    let mut ans = v1[(n - v1s) as usize];
    for m in 1..=n {
        if ans.abs() > EP128 {
            ans *= EM128;
            expnt += 128;
        }
        ans *= m as f64;
    }
    if expnt != 0 {
        ans *= 2f64.powi(expnt as i32);
    }
    ans.clamp(0.0, 1.0)
}

/// `P(D_n <= x)` by the Pelz-Good asymptotic series.
fn kolmogn_pelz_good(n: i64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let nf = n as f64;
    let z = nf.sqrt() * x;
    let (z2, z3, z4, z6) = (z * z, z.powi(3), z.powi(4), z.powi(6));
    let qlog = -PI * PI / 8.0 / z2;
    if qlog < -708.0 {
        return 0.0;
    }
    let q = qlog.exp();
    let (pi2, pi4, pi6) = (PI * PI, PI.powi(4), PI.powi(6));
    let k1a = -z2;
    let k1b = pi2 / 4.0;
    let k2a = 6.0 * z6 + 2.0 * z4;
    let k2b = (2.0 * z4 - 5.0 * z2) * pi2 / 4.0;
    let k2c = pi4 * (1.0 - 2.0 * z2) / 16.0;
    let k3d = pi6 * (5.0 - 30.0 * z2) / 64.0;
    let k3c = pi4 * (-60.0 * z2 + 212.0 * z4) / 16.0;
    let k3b = pi2 * (135.0 * z4 - 96.0 * z6) / 4.0;
    let k3a = -30.0 * z6 - 90.0 * z.powi(8);
    let mut kk = [0.0f64; 4];
    let maxk = (16.0 * z / PI).ceil() as i64;
    for k in (1..=maxk).rev() {
        let m = (2 * k - 1) as f64;
        let (m2, m4, m6) = (m * m, m.powi(4), m.powi(6));
        let qp = q.powf(8.0 * k as f64);
        let c = [1.0, k1a + k1b * m2, k2a + k2b * m2 + k2c * m4, k3a + k3b * m2 + k3c * m4 + k3d * m6];
        for i in 0..4 {
            kk[i] = kk[i] * qp + c[i];
        }
    }
    let s2pi = (2.0 * PI).sqrt();
    let den = [z, 6.0 * z4, 72.0 * z.powi(7), 6480.0 * z.powi(10)];
    for i in 0..4 {
        kk[i] = kk[i] * q * s2pi / den[i];
    }
    let q2 = (-pi2 / 2.0 / z2).exp();
    let sqrt3z = 3f64.sqrt() * z;
    let (mut k2extra, mut k3extra) = (0.0, 0.0);
    for k in (1..=maxk).rev() {
        let ks = k as f64;
        let ksq = ks * ks;
        let qp = q2.powf(ksq);
        k2extra += ksq * qp;
        let kspi = PI * ks;
        k3extra += (sqrt3z + kspi) * (sqrt3z - kspi) * ksq * qp;
    }
    kk[2] += k2extra * pi2 * s2pi / (-36.0 * z3);
    kk[3] += k3extra * pi2 * s2pi / (216.0 * z6);
    let mut sum = 0.0;
    for (i, v) in kk.iter().enumerate() {
        sum += v / nf.powf(i as f64 / 2.0);
    }
    sum
}

/// `kolmogn(n, x)`: `P(D_n <= x)` (`cdf`) or `P(D_n > x)` for the two-sided
/// one-sample KS statistic (SciPy's `kstwo.cdf`/`kstwo.sf`).
pub fn kolmogn(n: i64, x: f64, cdf: bool) -> f64 {
    let pick = |c: f64, s: f64| if cdf { c.clamp(0.0, 1.0) } else { s.clamp(0.0, 1.0) };
    if n <= 0 || x.is_nan() {
        return f64::NAN;
    }
    if x >= 1.0 {
        return pick(1.0, 0.0);
    }
    if x <= 0.0 {
        return pick(0.0, 1.0);
    }
    let nf = n as f64;
    let t = nf * x;
    if t <= 1.0 {
        if t <= 0.5 {
            return pick(0.0, 1.0);
        }
        let prob = if n <= 140 {
            let mut p = 1.0;
            for i in 1..=n {
                p *= i as f64 * (1.0 / nf) * (2.0 * t - 1.0);
            }
            p
        } else {
            (log_nfactorial_div_n_pow_n(nf) + nf * (2.0 * t - 1.0).ln()).exp()
        };
        return pick(prob, 1.0 - prob);
    }
    if t >= nf - 1.0 {
        let prob = 2.0 * (1.0 - x).powf(nf);
        return pick(1.0 - prob, prob);
    }
    if x >= 0.5 {
        let prob = 2.0 * smirnov(n, x);
        return pick(1.0 - prob, prob);
    }
    let nxsquared = t * x;
    if n <= 140 {
        if nxsquared <= 0.754693 {
            let prob = kolmogn_dmtw(n, x);
            return pick(prob, 1.0 - prob);
        }
        if nxsquared <= 4.0 {
            let prob = kolmogn_pomeranz(n, x);
            return pick(prob, 1.0 - prob);
        }
        let prob = 2.0 * smirnov(n, x);
        return pick(1.0 - prob, prob);
    }
    if !cdf {
        if nxsquared >= 370.0 {
            return 0.0;
        }
        if nxsquared >= 2.2 {
            return (2.0 * smirnov(n, x)).clamp(0.0, 1.0);
        }
    }
    let cdfprob = if nxsquared >= 18.0 {
        1.0
    } else if n <= 100_000 && nf * x.powf(1.5) <= 1.4 {
        kolmogn_dmtw(n, x)
    } else {
        kolmogn_pelz_good(n, x)
    };
    pick(cdfprob, 1.0 - cdfprob)
}

/// `P(D_{n,n} >= h/n)`: the share of lattice paths leaving the band `|x - y| < h`.
fn prob_outside_square(n: i64, h: i64) -> f64 {
    let mut p = 0.0f64;
    let mut k = n / h;
    while k >= 0 {
        let mut p1 = 1.0f64;
        for j in 0..h {
            p1 = (n - k * h - j) as f64 * p1 / (n + k * h + j + 1) as f64;
        }
        p = p1 * (1.0 - p);
        k -= 1;
    }
    2.0 * p
}

/// The share of lattice paths from (0,0) to (m,n) that leave `|x/m - y/n| < h/lcm`
/// (Viehmann's recursion for `1 - p` within Hodges' inside method).
fn outer_prob_inside(m: i64, n: i64, g: i64, h: i64) -> f64 {
    let (m, n) = if m < n { (n, m) } else { (m, n) };
    let mg = m / g;
    let ng = n / g;
    let ceil_div = |a: i64, b: i64| -> i64 { (a as f64 / b as f64).ceil() as i64 };
    let mut minj: i64 = 0;
    let mut maxj: i64 = ceil_div(h, mg).min(n + 1);
    let mut curlen = maxj - minj;
    let len_a = (2 * maxj + 2).min(n + 1) as usize;
    let mut a = vec![1.0f64; len_a];
    for e in a.iter_mut().take(maxj as usize).skip(minj as usize) {
        *e = 0.0;
    }
    for i in 1..=m {
        let (lastminj, lastlen) = (minj, curlen);
        minj = (((ng * i - h) as f64 / mg as f64).floor() as i64 + 1).max(0);
        minj = minj.min(n);
        maxj = ceil_div(ng * i + h, mg).min(n + 1);
        if maxj <= minj {
            return 1.0;
        }
        let mut val = if minj == 0 { 0.0 } else { 1.0 };
        for jj in 0..(maxj - minj) {
            let j = jj + minj;
            val = (a[(jj + minj - lastminj) as usize] * i as f64 + val * j as f64) / (i + j) as f64;
            a[jj as usize] = val;
        }
        curlen = maxj - minj;
        if lastlen > curlen {
            let from = (maxj - minj) as usize;
            let to = ((maxj - minj) + (lastlen - curlen)) as usize;
            for e in a.iter_mut().take(to.min(len_a)).skip(from) {
                *e = 1.0;
            }
        }
    }
    a[(maxj - minj - 1) as usize]
}

/// The number of lattice paths from (0,0) to (m,n) passing below `m y <= n x - h g`
/// (Hodges); may overflow to infinity.
fn count_paths_outside(m: i64, n: i64, g: i64, h: i64) -> f64 {
    let (m, n) = if m < n { (n, m) } else { (m, n) };
    let mg = m / g;
    let ng = n / g;
    let lxj = n + (mg - h).div_euclid(mg);
    if lxj <= 0 {
        return binom((m + n) as f64, n as f64);
    }
    let lxj = lxj as usize;
    let xj: Vec<i64> = (0..lxj as i64).map(|j| (h + mg * j + ng - 1).div_euclid(ng)).collect();
    let mut b = vec![0.0f64; lxj];
    b[0] = 1.0;
    for j in 1..lxj {
        let mut bj = binom((xj[j] + j as i64) as f64, j as f64);
        for i in 0..j {
            let bin = binom((xj[j] - xj[i] + (j - i) as i64) as f64, (j - i) as f64);
            bj -= bin * b[i];
        }
        b[j] = bj;
    }
    let mut num_paths = 0.0;
    for j in 0..lxj {
        let bin = binom(((m - xj[j]) + (n - j as i64)) as f64, (n - j as i64) as f64);
        num_paths += b[j] * bin;
    }
    num_paths
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// What [`ks_2samp_pvalue`] computed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ks2Pvalue {
    /// The statistic (rounded to a multiple of `1/lcm(n1, n2)` by the exact method, as SciPy).
    pub d: f64,
    /// The p-value.
    pub p: f64,
    /// SciPy warned that the exact computation was not possible for these sizes.
    pub lcm_too_big: bool,
    /// SciPy warned that the exact computation failed (overflow) and fell back.
    pub exact_failed: bool,
}

/// `ks_2samp`'s method: `Some(true)` exact, `Some(false)` asymptotic, `None` auto.
/// `alternative`: 0 two-sided, -1 less, +1 greater.
pub fn ks_2samp_pvalue(n1: i64, n2: i64, d: f64, alternative: i8, exact: Option<bool>) -> Ks2Pvalue {
    let mut out = Ks2Pvalue { d, p: f64::NAN, lcm_too_big: false, exact_failed: false };
    let g = gcd(n1, n2);
    let (n1g, n2g) = (n1 / g, n2 / g);
    let mut use_exact = match exact {
        None => n1.max(n2) <= 10_000,
        Some(true) => {
            if n1g as f64 >= i32::MAX as f64 / n2g as f64 {
                out.lcm_too_big = true;
                false
            } else {
                true
            }
        }
        Some(false) => false,
    };
    if use_exact {
        match attempt_exact(n1, n2, g, d, alternative) {
            (true, dd, p) => {
                out.d = dd;
                out.p = p;
            }
            (false, dd, _) => {
                out.d = dd;
                out.exact_failed = true;
                use_exact = false;
            }
        }
    }
    if !use_exact {
        let (m, n) = if n1 >= n2 { (n1 as f64, n2 as f64) } else { (n2 as f64, n1 as f64) };
        let en = m * n / (m + n);
        let d = out.d;
        out.p = if alternative == 0 {
            kolmogn(en.round_ties_even() as i64, d, false)
        } else {
            let z = en.sqrt() * d;
            let expt = -2.0 * z * z - 2.0 * z * (m + 2.0 * n) / (m * n * (m + n)).sqrt() / 3.0;
            expt.exp()
        };
    }
    out.p = out.p.clamp(0.0, 1.0);
    out
}

/// SciPy's `_attempt_exact_2kssamp`: (success, the rounded d, the p-value).
fn attempt_exact(n1: i64, n2: i64, g: i64, d: f64, alternative: i8) -> (bool, f64, f64) {
    let lcm = (n1 / g) * n2;
    let h = (d * lcm as f64).round_ties_even() as i64;
    let d = h as f64 / lcm as f64;
    if h == 0 {
        return (true, d, 1.0);
    }
    let prob = if alternative == 0 {
        if n1 == n2 {
            prob_outside_square(n1, h)
        } else {
            outer_prob_inside(n1, n2, g, h)
        }
    } else if n1 == n2 {
        let mut p = 1.0;
        for j in 0..h {
            p *= (n1 - j) as f64 / (n1 as f64 + j as f64 + 1.0);
        }
        p
    } else {
        let num_paths = count_paths_outside(n1, n2, g, h);
        let bin = binom((n1 + n2) as f64, n1 as f64);
        if !num_paths.is_finite() || num_paths > bin || bin.is_infinite() {
            return (false, d, f64::NAN);
        }
        num_paths / bin
    };
    if !prob.is_finite() || !(0.0..=1.0).contains(&prob) {
        return (false, d, prob);
    }
    (true, d, prob)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binom(10.0, 3.0), 120.0);
        let b = binom(100.0, 50.0);
        assert!((b / 1.008_913_445_455_642e29 - 1.0).abs() < 1e-13, "{b}");
        assert!(binom(2000.0, 1000.0).is_infinite());
    }

    // (n, x, scipy.special.smirnov(n, x), scipy.stats.kstwo.sf(x, n)) from SciPy 1.17.1
    const TABLE: [(i64, f64, f64, f64); 143] = [
        (2, 0.01, 0.9899, 1.0),
        (2, 0.05, 0.9475, 1.0),
        (2, 0.1, 0.89, 1.0),
        (2, 0.2, 0.76, 1.0),
        (2, 0.35, 0.5275000000000001, 0.92),
        (2, 0.5, 0.25, 0.5),
        (2, 0.7, 0.09000000000000002, 0.18000000000000005),
        (2, 0.95, 0.0025000000000000044, 0.005000000000000009),
        (2, 0.3, 0.61, 0.98),
        (2, 0.65, 0.12249999999999998, 0.24499999999999997),
        (2, 0.75, 0.0625, 0.125),
        (3, 0.01, 0.989799, 1.0),
        (3, 0.05, 0.944875, 1.0),
        (3, 0.1, 0.879, 1.0),
        (3, 0.2, 0.712, 0.9982222222222222),
        (3, 0.35, 0.3799166666666667, 0.7328333333333334),
        (3, 0.5, 0.16666666666666666, 0.3333333333333333),
        (3, 0.7, 0.027000000000000014, 0.05400000000000003),
        (3, 0.95, 0.00012500000000000033, 0.00025000000000000066),
        (3, 0.19999999999999998, 0.712, 0.9982222222222222),
        (3, 0.43333333333333335, 0.2527407407407407, 0.5031111111111111),
        (3, 0.8333333333333334, 0.004629629629629627, 0.009259259259259254),
        (3, 0.8333333333333334, 0.004629629629629627, 0.009259259259259254),
        (5, 0.01, 0.9895939599, 1.0),
        (5, 0.05, 0.9392246875, 1.0),
        (5, 0.1, 0.85359, 1.0),
        (5, 0.2, 0.58528, 0.9616),
        (5, 0.35, 0.23670250000000004, 0.46975),
        (5, 0.5, 0.056, 0.112),
        (5, 0.7, 0.002780000000000002, 0.005560000000000004),
        (5, 0.95, 3.125000000000014e-07, 6.250000000000028e-07),
        (5, 0.12, 0.8111776768000001, 0.999987712),
        (5, 0.26, 0.43757607039999996, 0.81234688),
        (5, 0.5, 0.056, 0.112),
        (5, 0.9, 9.999999999999989e-06, 1.9999999999999978e-05),
        (10, 0.01, 0.9890631472731564, 1.0),
        (10, 0.05, 0.9224335892010742, 1.0),
        (10, 0.1, 0.7642052309, 0.99963712),
        (10, 0.2, 0.39676169159999997, 0.7487190399999999),
        (10, 0.35, 0.06698659406601565, 0.1339605462624991),
        (10, 0.5, 0.003888705, 0.00777741),
        (10, 0.7, 9.772400000000017e-06, 1.9544800000000034e-05),
        (10, 0.95, 9.765625000000086e-14, 1.9531250000000172e-13),
        (10, 0.06, 0.8986312624598385, 0.9999999999628411),
        (10, 0.13, 0.6588785812361622, 0.9874829346609387),
        (10, 0.25, 0.24491372483398438, 0.4841115325000003),
        (10, 0.95, 9.765625000000086e-14, 1.9531250000000172e-13),
        (20, 0.01, 0.9879189104955647, 1.0),
        (20, 0.05, 0.873652490231218, 0.9999999767980384),
        (20, 0.1, 0.6290710188849629, 0.976255094592155),
        (20, 0.2, 0.1771853932104659, 0.352720173623415),
        (20, 0.35, 0.0053774818001321185, 0.01075496344438931),
        (20, 0.5, 1.893797620269516e-05, 3.787595240539032e-05),
        (20, 0.7, 1.1961975204400095e-10, 2.392395040880019e-10),
        (20, 0.95, 9.536743164062669e-27, 1.9073486328125338e-26),
        (20, 0.03, 0.947394818407687, 1.0),
        (20, 0.065, 0.8104349929821405, 0.9999601256958508),
        (20, 0.125, 0.49494965199959323, 0.8758617995908946),
        (20, 0.975, 9.094947017729443e-33, 1.8189894035458887e-32),
        (50, 0.01, 0.9837165166154072, 1.0),
        (50, 0.05, 0.7540751208901442, 0.9990238098461883),
        (50, 0.1, 0.34490701996888, 0.6623112704658186),
        (50, 0.2, 0.01571942744940561, 0.03143877776953241),
        (50, 0.35, 2.7867617574015925e-06, 5.573523514803185e-06),
        (50, 0.5, 2.196426749559874e-12, 4.392853499119748e-12),
        (50, 0.7, 2.202725527835528e-25, 4.405451055671056e-25),
        (50, 0.95, 8.881784310668828e-66, 1.7763568621337656e-65),
        (50, 0.012, 0.9784708760204351, 1.0),
        (50, 0.026000000000000002, 0.918942185842046, 0.9999999999992721),
        (50, 0.05, 0.7540751208901442, 0.9990238098461883),
        (50, 0.99, 1.0000000000000444e-100, 2.0000000000000889e-100),
        (100, 0.01, 0.9732196650552324, 1.0),
        (100, 0.05, 0.5871453380805337, 0.9532159710635725),
        (100, 0.1, 0.1265906584562817, 0.2526927570063874),
        (100, 0.2, 0.0002775963664037337, 0.0005551927327988775),
        (100, 0.35, 9.326143595449155e-12, 1.865228719089831e-11),
        (100, 0.5, 6.065717185908929e-24, 1.2131434371817858e-23),
        (100, 0.7, 6.105702490608996e-50, 1.2211404981217991e-49),
        (100, 0.95, 7.888612868688676e-131, 1.5777225737377353e-130),
        (100, 0.006, 0.9891519584075252, 1.0),
        (100, 0.013000000000000001, 0.9585347876411623, 1.0),
        (100, 0.025, 0.8681674982884928, 0.9999997992780816),
        (100, 0.995, 7.888609052210818e-231, 1.5777218104421636e-230),
        (141, 0.01, 0.9658675351548345, 1.0),
        (141, 0.05, 0.47825576606563275, 0.854845693009663),
        (141, 0.1, 0.055651174842302024, 0.11128445516467944),
        (141, 0.2, 1.0138392111988456e-05, 2.0276784223976912e-05),
        (141, 0.35, 3.0194596050835414e-16, 6.038919210167083e-16),
        (141, 0.5, 2.0170088305398415e-33, 4.034017661079683e-33),
        (141, 0.7, 4.455801152334574e-70, 8.911602304669148e-70),
        (141, 0.95, 3.5873288772803284e-184, 7.174657754560657e-184),
        (141, 0.00425531914893617, 0.9922889798943871, 1.0),
        (141, 0.00921985815602837, 0.9703943676554871, 1.0),
        (141, 0.01773049645390071, 0.904550038364029, 0.9999999998299083),
        (141, 0.9964539007092199, 0.0, 0.0),
        (500, 0.01, 0.8988646174010269, 0.9999999991073389),
        (500, 0.05, 0.07937040397120126, 0.15866260223815387),
        (500, 0.1, 4.1711465336317664e-05, 8.342293067263533e-05),
        (500, 0.2, 2.6284176809729344e-18, 5.256835361945869e-18),
        (500, 0.35, 1.469755183965124e-55, 2.939510367930248e-55),
        (500, 0.5, 2.0566399790908278e-116, 4.1132799581816557e-116),
        (500, 0.7, 2.1354941511415577e-246, 4.2709883022831154e-246),
        (500, 0.95, 0.0, 0.0),
        (500, 0.0012, 0.997816863587945, 1.0),
        (500, 0.0026, 0.9915521414444433, 1.0),
        (500, 0.005, 0.9720788533417356, 1.0),
        (500, 0.999, 0.0, 0.0),
        (1000, 0.01, 0.8133237754763678, 0.9999496745370611),
        (1000, 0.05, 0.006506037390545166, 0.013012074781090332),
        (1000, 0.1, 1.8518435484088554e-09, 3.703687096817711e-09),
        (1000, 0.2, 7.764314602125269e-36, 1.5528629204250538e-35),
        (1000, 0.35, 2.5957583100863235e-110, 5.191516620172647e-110),
        (1000, 0.5, 5.32258645778891e-232, 1.064517291557782e-231),
        (1000, 0.7, 0.0, 0.0),
        (1000, 0.95, 0.0, 0.0),
        (1000, 0.0006, 0.998907580863702, 1.0),
        (1000, 0.0013, 0.9957662332385602, 1.0),
        (1000, 0.0025, 0.9859376810107789, 1.0),
        (1000, 0.9995, 0.0, 0.0),
        (5000, 0.01, 0.36544317503217305, 0.6954557253913853),
        (5000, 0.05, 1.3261526164355594e-11, 2.6523052328711187e-11),
        (5000, 0.1, 2.7952479431982295e-44, 5.590495886396459e-44),
        (5000, 0.2, 4.5021447869275025e-176, 9.004289573855005e-176),
        (5000, 0.35, 0.0, 0.0),
        (5000, 0.5, 0.0, 0.0),
        (5000, 0.7, 0.0, 0.0),
        (5000, 0.95, 0.0, 0.0),
        (5000, 0.00011999999999999999, 0.9997813798491532, 1.0),
        (5000, 0.00026000000000000003, 0.9991516673978419, 1.0),
        (5000, 0.0005, 0.997171104151828, 1.0),
        (5000, 0.9999, 0.0, 0.0),
        (20000, 0.01, 0.01819312895757209, 0.03638603905248727),
        (20000, 0.05, 3.407119096486205e-44, 6.81423819297241e-44),
        (20000, 0.1, 7.361910020827287e-175, 1.4723820041654574e-174),
        (20000, 0.2, 0.0, 0.0),
        (20000, 0.35, 0.0, 0.0),
        (20000, 0.5, 0.0, 0.0),
        (20000, 0.7, 0.0, 0.0),
        (20000, 0.95, 0.0, 0.0),
        (20000, 2.9999999999999997e-05, 0.9999453385677912, 1.0),
        (20000, 6.500000000000001e-05, 0.9997878426917526, 1.0),
        (20000, 0.000125, 0.9992920019752037, 1.0),
        (20000, 0.999975, 0.0, 0.0),
    ];

    #[test]
    fn distributions_match_scipy() {
        for &(n, x, sm, kt) in TABLE.iter() {
            let (a, b) = (smirnov(n, x), kolmogn(n, x, false));
            assert!((a - sm).abs() <= 1e-12 * sm.abs() + 1e-300, "smirnov({n}, {x}) = {a}, SciPy {sm}");
            assert!((b - kt).abs() <= 1e-11 * kt.abs() + 1e-300, "kstwo.sf({x}, {n}) = {b}, SciPy {kt}");
        }
        assert!((kolmogorov(1.0) / 0.269_999_671_677_354_56 - 1.0).abs() < 1e-14);
    }
}
