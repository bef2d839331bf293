//! `scipy.spatial.distance` (SciPy 1.17) on `tch::Tensor`s.
//!
//! [`cdist`] and [`pdist`] take a [`Metric`] (SciPy's names and aliases,
//! [`Metric::parse`]) and its [`Params`] (`p`, `w`, `V`, `VI`), compute in
//! float64 and return float64, as SciPy does for every input dtype (bool and
//! integers included; complex is refused). The metrics follow SciPy's C
//! kernels term by term: `jaccard`, `rogerstanimoto`, `russellrao`,
//! `sokalsneath` and `yule` read their input as booleans (`x != 0`); `dice`
//! and `hamming` compare the values themselves.
//!
//! How they are computed:
//!
//! * `euclidean`, `sqeuclidean`, `seuclidean` and `mahalanobis` expand the
//!   squared distance into matrix products (`|x|^2 + |y|^2 - 2 x.y` on the
//!   points centred on their mean). Where that expansion cancels (the
//!   squared distance is small against the terms it is the difference of:
//!   near-duplicate points) or meets a non-finite value, the pair is
//!   recomputed directly from its difference, so every pair matches SciPy's
//!   direct sum to about 1e-13 relative in float64.
//! * `cosine`, `correlation` and the boolean metrics are matrix products
//!   (counts of 0/1 values are exact in float64).
//! * `cityblock`, `chebyshev`, `minkowski`, `braycurtis` use libtorch's
//!   `cdist` kernel; `canberra`, `hamming`, `jensenshannon` and weighted
//!   `dice` broadcast over blocks of rows (bounded memory).
//!
//! [`pdist`] is the upper triangle of `cdist(X, X)`, except for unweighted
//! `euclidean` and `sqeuclidean` on the CPU without autograd: there each
//! pair's sum is computed directly, as SciPy does, into the condensed vector
//! (`pdist_host`). [`squareform`] converts
//! both ways; [`dm_problem`] and [`y_problem`] are SciPy's `is_valid_dm` and
//! `is_valid_y` checks. The single-pair functions ([`pair`], [`jensenshannon`])
//! follow SciPy's Python definitions (those differ from the `cdist` kernels
//! for non-boolean input of the boolean metrics, as in SciPy).

use tch::{Device, Kind, Tensor};

use crate::ops::autograd::records_grad;
use crate::ops::numpy::cast;
use crate::{dlpack, DType, Error, Result};

/// The metrics of `scipy.spatial.distance.cdist`/`pdist` (SciPy 1.17.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Bray-Curtis: `sum|u - v| / sum|u + v|`.
    Braycurtis,
    /// Canberra: `sum |u - v| / (|u| + |v|)`.
    Canberra,
    /// Chebyshev: `max |u - v|`.
    Chebyshev,
    /// City block (Manhattan): `sum |u - v|`.
    Cityblock,
    /// Correlation: the cosine distance of the centred rows.
    Correlation,
    /// Cosine: `1 - u.v / (|u| |v|)`.
    Cosine,
    /// Dice dissimilarity.
    Dice,
    /// Euclidean: `sqrt(sum (u - v)^2)`.
    Euclidean,
    /// Hamming: the fraction of entries that differ.
    Hamming,
    /// Jaccard dissimilarity (on `x != 0`).
    Jaccard,
    /// Jensen-Shannon distance of the rows normalised to sum 1.
    Jensenshannon,
    /// Mahalanobis: `sqrt((u - v) VI (u - v))`.
    Mahalanobis,
    /// Minkowski: `(sum |u - v|^p)^(1/p)`.
    Minkowski,
    /// Rogers-Tanimoto dissimilarity (on `x != 0`).
    Rogerstanimoto,
    /// Russell-Rao dissimilarity (on `x != 0`).
    Russellrao,
    /// Standardised euclidean: `sqrt(sum (u - v)^2 / V)`.
    Seuclidean,
    /// Sokal-Sneath dissimilarity (on `x != 0`).
    Sokalsneath,
    /// Squared euclidean: `sum (u - v)^2`.
    Sqeuclidean,
    /// Yule dissimilarity (on `x != 0`).
    Yule,
}

impl Metric {
    /// Every metric, in SciPy's order.
    pub const ALL: [Metric; 19] = [
        Metric::Braycurtis,
        Metric::Canberra,
        Metric::Chebyshev,
        Metric::Cityblock,
        Metric::Correlation,
        Metric::Cosine,
        Metric::Dice,
        Metric::Euclidean,
        Metric::Hamming,
        Metric::Jaccard,
        Metric::Jensenshannon,
        Metric::Mahalanobis,
        Metric::Minkowski,
        Metric::Rogerstanimoto,
        Metric::Russellrao,
        Metric::Seuclidean,
        Metric::Sokalsneath,
        Metric::Sqeuclidean,
        Metric::Yule,
    ];

    /// SciPy's canonical name.
    pub fn name(self) -> &'static str {
        self.aliases()[0]
    }

    /// SciPy's names for the metric (`_METRIC_INFOS[...].aka`), the canonical one first.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Metric::Braycurtis => &["braycurtis"],
            Metric::Canberra => &["canberra"],
            Metric::Chebyshev => &["chebyshev", "chebychev", "cheby", "cheb", "ch"],
            Metric::Cityblock => &["cityblock", "cblock", "cb", "c"],
            Metric::Correlation => &["correlation", "co"],
            Metric::Cosine => &["cosine", "cos"],
            Metric::Dice => &["dice"],
            Metric::Euclidean => &["euclidean", "euclid", "eu", "e"],
            Metric::Hamming => &["hamming", "matching", "hamm", "ha", "h"],
            Metric::Jaccard => &["jaccard", "jacc", "ja", "j"],
            Metric::Jensenshannon => &["jensenshannon", "js"],
            Metric::Mahalanobis => &["mahalanobis", "mahal", "mah"],
            Metric::Minkowski => &["minkowski", "mi", "m", "pnorm"],
            Metric::Rogerstanimoto => &["rogerstanimoto"],
            Metric::Russellrao => &["russellrao"],
            Metric::Seuclidean => &["seuclidean", "se", "s"],
            Metric::Sokalsneath => &["sokalsneath"],
            Metric::Sqeuclidean => &["sqeuclidean", "sqe", "sqeuclid"],
            Metric::Yule => &["yule"],
        }
    }

    /// The metric SciPy's `metric.lower()` names, or `None`.
    pub fn parse(name: &str) -> Option<Metric> {
        let lower = name.to_lowercase();
        Metric::ALL.into_iter().find(|m| m.aliases().contains(&lower.as_str()))
    }

    /// The metric for a `cdist`/`pdist` argument, or SciPy's ValueError.
    pub fn from_scipy(name: &str) -> Result<Metric> {
        Metric::parse(name)
            .ok_or_else(|| Error::InvalidArgument(format!("Unknown Distance Metric: {}", name.to_lowercase())))
    }

    /// The keyword arguments SciPy's kernel for this metric takes besides `out`.
    pub fn keywords(self) -> &'static [&'static str] {
        match self {
            Metric::Minkowski => &["p", "w"],
            Metric::Seuclidean => &["V"],
            Metric::Mahalanobis => &["VI"],
            Metric::Jensenshannon => &[],
            _ => &["w"],
        }
    }

    /// Whether the `cdist` kernel reads its input as booleans (`x != 0`).
    fn booleanised(self) -> bool {
        matches!(
            self,
            Metric::Jaccard | Metric::Rogerstanimoto | Metric::Russellrao | Metric::Sokalsneath | Metric::Yule
        )
    }
}

/// The options of a metric (SciPy's `**kwargs`); `None`: SciPy's default.
#[derive(Debug, Default)]
pub struct Params {
    /// Minkowski's `p` (default 2).
    pub p: Option<f64>,
    /// Weights, one per feature (non-negative).
    pub w: Option<Tensor>,
    /// `seuclidean`'s variances (default: the sample variance of the points, ddof 1).
    pub v: Option<Tensor>,
    /// `mahalanobis`'s inverse covariance (default: from the points, which must outnumber the features).
    pub vi: Option<Tensor>,
}

/// Elements one broadcast block may hold (64 MiB of float64).
const BLOCK_ELEMENTS: i64 = 1 << 23;

fn f64_input(x: &Tensor) -> Result<Tensor> {
    let dtype = dlpack::dtype_of(x)?;
    if dtype.is_complex() {
        return Err(Error::NotImplemented(format!(
            "{dtype} input: SciPy refuses it ('Unsupported dtype') or discards the imaginary part; \
             torchbridge accepts bool, integer and real floating-point input"
        )));
    }
    cast(x, DType::Float64)
}

fn zeros(shape: &[i64], device: Device) -> Result<Tensor> {
    Ok(Tensor::f_zeros(shape, (Kind::Double, device))?)
}

fn scalar(value: f64, device: Device) -> Result<Tensor> {
    Ok(Tensor::from(value).f_to_device(device)?)
}

/// The number of elements of `t` as an integer count (shape product).
fn rows(t: &Tensor) -> i64 {
    t.size()[0]
}

/// SciPy's weight checks: 1-d, one per feature, non-negative; as float64.
fn weights(w: &Tensor, n: i64) -> Result<Tensor> {
    let w = f64_input(w)?;
    if w.dim() != 1 || w.size()[0] != n {
        let len = w.size().first().copied().unwrap_or(1);
        return Err(Error::InvalidArgument(format!("Weights must have same size as input vector. {len} vs. {n}.")));
    }
    if w.f_lt(0.0)?.f_any()?.f_int64_value(&[])? != 0 {
        return Err(Error::InvalidArgument("Input weights should be all non-negative".into()));
    }
    Ok(w)
}

/// The pairwise distances between the rows of `xa` and of `xb` (`scipy.spatial.distance.cdist`):
/// a float64 `(mA, mB)` tensor.
pub fn cdist(xa: &Tensor, xb: &Tensor, metric: Metric, params: &Params) -> Result<Tensor> {
    if xa.dim() != 2 {
        return Err(Error::InvalidArgument("XA must be a 2-dimensional array.".into()));
    }
    if xb.dim() != 2 {
        return Err(Error::InvalidArgument("XB must be a 2-dimensional array.".into()));
    }
    if xa.size()[1] != xb.size()[1] {
        return Err(Error::InvalidArgument(
            "XA and XB must have the same number of columns (i.e. feature dimension.)".into(),
        ));
    }
    let a = f64_input(xa)?;
    let b = f64_input(xb)?;
    let stacked = || -> Result<Tensor> { Ok(Tensor::f_cat(&[&a, &b], 0)?) };
    pairwise(&a, &b, metric, params, rows(&a) + rows(&b), &stacked)
}

/// The condensed pairwise distances between the rows of `x` (`scipy.spatial.distance.pdist`):
/// a float64 vector of `m (m - 1) / 2` entries, pairs `(i, j)`, `i < j`, in row-major order.
pub fn pdist(x: &Tensor, metric: Metric, params: &Params) -> Result<Tensor> {
    if x.dim() != 2 {
        return Err(Error::InvalidArgument(format!(
            "A 2-dimensional array must be passed. (Shape was {}).",
            shape_text(&x.size())
        )));
    }
    let a = f64_input(x)?;
    let m = rows(&a);
    let plain = params.w.is_none() && a.device() == Device::Cpu && !records_grad(&a);
    match metric {
        Metric::Euclidean if plain => return pdist_host(&a, false),
        Metric::Sqeuclidean if plain => return pdist_host(&a, true),
        _ => {}
    }
    let stacked = || -> Result<Tensor> { Ok(a.shallow_clone()) };
    let full = pairwise(&a, &a, metric, params, m, &stacked)?;
    condensed(&full, m)
}

/// Points per block of [`pdist_host`]: the lanes of its accumulators.
const LANES: usize = 16;
/// Rows `i` a thread of [`pdist_host`] takes at a time.
const TILE: usize = 32;
/// Multiply-adds per extra thread of [`pdist_host`] (a thread start costs
/// tens of microseconds).
const WORK_PER_THREAD: usize = 1 << 22;

/// `pdist` `euclidean` (or `sqeuclidean`, `squared`) of the float64 CPU
/// points `x` without weights, as SciPy computes it: each pair's sum of
/// squared differences directly, in the features' order (no Gram-matrix
/// expansion, hence nothing to correct), straight into the condensed vector.
/// The points are transposed into blocks of [`LANES`] so that the pairs of
/// one row with a block's points vectorise (each lane one pair's sequential
/// sum); the rows go by tiles of [`TILE`] over the calling thread's libtorch
/// team when the work is large.
fn pdist_host(x: &Tensor, squared: bool) -> Result<Tensor> {
    let (m, n) = (x.size()[0] as usize, x.size()[1] as usize);
    let pairs = m * m.saturating_sub(1) / 2;
    let mut out = vec![0.0f64; pairs];
    if pairs > 0 {
        let mut xv = vec![0.0f64; m * n];
        x.f_copy_data(&mut xv, m * n)?;
        let mp = m.div_ceil(LANES) * LANES;
        let mut xt = vec![0.0f64; n * mp]; // (n, mp): the points as columns, zeros past m
        if n > 0 {
            for (j, row) in xv.chunks_exact(n).enumerate() {
                for (k, &v) in row.iter().enumerate() {
                    xt[k * mp + j] = v;
                }
            }
        }
        // the condensed vector cut at tile boundaries (row i's pairs start at `start(i)`)
        let start = |i: usize| i * m - i * (i + 1) / 2;
        let mut tiles = Vec::new();
        let mut rest = out.as_mut_slice();
        for i0 in (0..m - 1).step_by(TILE) {
            let i1 = (i0 + TILE).min(m - 1);
            let (tile, tail) = rest.split_at_mut(start(i1) - start(i0));
            tiles.push((i0, i1, tile));
            rest = tail;
        }
        let team = usize::try_from(crate::threads::current_team()).unwrap_or(1).max(1);
        let threads = team.min(pairs * n.max(1) / WORK_PER_THREAD + 1).min(tiles.len());
        let work = |i0: usize, i1: usize, tile: &mut [f64]| {
            pdist_tile(&xv, &xt, m, n, mp, i0, i1, squared, tile, start(i0), &start)
        };
        if threads <= 1 {
            for (i0, i1, tile) in tiles {
                work(i0, i1, tile);
            }
        } else {
            // the tiles taken in turn (the first rows have the most pairs)
            let queue = std::sync::Mutex::new(tiles.into_iter());
            let next = || queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).next();
            std::thread::scope(|scope| {
                for _ in 1..threads {
                    scope.spawn(|| {
                        while let Some((i0, i1, tile)) = next() {
                            work(i0, i1, tile);
                        }
                    });
                }
                while let Some((i0, i1, tile)) = next() {
                    work(i0, i1, tile);
                }
            });
        }
    }
    Ok(Tensor::f_from_slice(&out)?)
}

/// [`pdist_host`]'s rows `i0..i1`: their pairs into `tile` (the condensed
/// vector from `offset`, row `i`'s pairs at `start(i)`), block by block of
/// points so that a block's columns of `xt` stay in cache over the tile.
#[allow(clippy::too_many_arguments)]
fn pdist_tile(
    xv: &[f64],
    xt: &[f64],
    m: usize,
    n: usize,
    mp: usize,
    i0: usize,
    i1: usize,
    squared: bool,
    tile: &mut [f64],
    offset: usize,
    start: &dyn Fn(usize) -> usize,
) {
    for jb in ((i0 + 1) / LANES * LANES..mp).step_by(LANES) {
        // the rows with a pair in this block: i < j for some j in jb..jb + LANES
        for i in i0..i1.min(jb + LANES - 1) {
            let mut acc = [0.0f64; LANES];
            let xi = &xv[i * n..(i + 1) * n];
            for (k, &xik) in xi.iter().enumerate() {
                let col: &[f64; LANES] = xt[k * mp + jb..k * mp + jb + LANES].try_into().expect("LANES columns");
                for (sum, &xjk) in acc.iter_mut().zip(col) {
                    let d = xik - xjk;
                    *sum += d * d;
                }
            }
            let first = jb.max(i + 1);
            let last = (jb + LANES).min(m);
            let base = start(i) - offset;
            for j in first..last {
                let v = acc[j - jb];
                tile[base + j - i - 1] = if squared { v } else { v.sqrt() };
            }
        }
    }
}

/// The entries above the diagonal of the square `full`, row by row.
fn condensed(full: &Tensor, m: i64) -> Result<Tensor> {
    if m < 2 {
        return zeros(&[0], full.device());
    }
    // each row's part right of the diagonal, concatenated: one copy of the result, where a gather
    // by computed indices (triu_indices, index_select) or a masked_select costs several passes
    let parts = (0..m - 1)
        .map(|i| full.f_select(0, i)?.f_narrow(0, i + 1, m - 1 - i))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok(Tensor::f_cat(&parts, 0)?)
}

/// Python's tuple text of a shape: `(6,)`, `(2, 3)`.
fn shape_text(shape: &[i64]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!("({})", shape.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")),
    }
}

fn pairwise(
    a: &Tensor,
    b: &Tensor,
    metric: Metric,
    params: &Params,
    observations: i64,
    stacked: &dyn Fn() -> Result<Tensor>,
) -> Result<Tensor> {
    let self_pairs = observations == rows(a) && a.data_ptr() == b.data_ptr();
    let n = a.size()[1];
    let (ma, mb) = (rows(a), rows(b));
    let device = a.device();
    let w = match &params.w {
        Some(w) if metric.keywords().contains(&"w") => Some(weights(w, n)?),
        Some(_) => {
            return Err(Error::InvalidArgument(format!("metric '{}' takes no weights `w`", metric.name())));
        }
        None => None,
    };
    match metric {
        Metric::Minkowski => {
            if let Some(p) = params.p {
                if p.is_nan() || p <= 0.0 {
                    return Err(Error::InvalidArgument("p must be greater than 0".into()));
                }
            }
        }
        Metric::Seuclidean => {
            if let Some(v) = &params.v {
                if v.dim() != 1 {
                    return Err(Error::InvalidArgument("Variance vector V must be one-dimensional.".into()));
                }
                if v.size()[0] != n {
                    return Err(Error::InvalidArgument(
                        "Variance vector V must be of the same dimension as the vectors on which the distances are computed."
                            .into(),
                    ));
                }
            }
        }
        Metric::Mahalanobis if params.vi.is_none() && observations <= n => {
            let m = observations;
            return Err(Error::InvalidArgument(format!(
                "The number of observations ({m}) is too small; the covariance matrix is singular. For \
                 observations with {n} dimensions, at least {} observations are required.",
                n + 1
            )));
        }
        _ => {}
    }
    if ma == 0 || mb == 0 {
        return zeros(&[ma, mb], device);
    }
    let w = w.as_ref();
    match metric {
        Metric::Euclidean => {
            let mut d = sq_euclidean_scaled(a, b, w, self_pairs)?;
            let _ = d.f_sqrt_()?;
            Ok(d)
        }
        Metric::Sqeuclidean => sq_euclidean_scaled(a, b, w, self_pairs),
        Metric::Seuclidean => {
            let v = match &params.v {
                Some(v) => f64_input(v)?.f_to_device(device)?,
                None => numpy_var(&stacked()?)?,
            };
            seuclidean(a, b, &v, self_pairs)
        }
        Metric::Mahalanobis => {
            let vi = match &params.vi {
                Some(vi) => f64_input(vi)?.f_to_device(device)?,
                None => {
                    let x = stacked()?;
                    let cov =
                        x.transposed()?.f_cov(1, None::<&Tensor>, None::<&Tensor>)?.f_reshape([n, n].as_slice())?;
                    let (inverse, info) = Tensor::f_linalg_inv_ex(&cov, false)?;
                    if info.f_ne(0)?.f_any()?.f_int64_value(&[])? != 0 {
                        return Err(Error::LinAlg("Singular matrix".into()));
                    }
                    inverse.transposed()?.f_contiguous()?
                }
            };
            if vi.size() != [n, n] {
                return Err(Error::InvalidArgument(format!(
                    "VI must be a square matrix of shape ({n}, {n}); got shape {}",
                    shape_text(&vi.size())
                )));
            }
            Ok(sq_mahalanobis(a, b, &vi)?.f_sqrt()?)
        }
        Metric::Cityblock => Ok(Tensor::f_cdist(&scaled(a, w, 1.0)?, &scaled(b, w, 1.0)?, 1.0, None)?),
        Metric::Chebyshev => chebyshev(a, b, w),
        Metric::Minkowski => {
            let p = params.p.unwrap_or(2.0);
            if p.is_infinite() {
                chebyshev(a, b, w)
            } else if p == 2.0 {
                Ok(sq_euclidean_scaled(a, b, w, self_pairs)?.f_sqrt()?)
            } else {
                Ok(Tensor::f_cdist(&scaled(a, w, 1.0 / p)?, &scaled(b, w, 1.0 / p)?, p, None)?)
            }
        }
        Metric::Braycurtis => {
            let (sa, sb) = (scaled(a, w, 1.0)?, scaled(b, w, 1.0)?);
            let num = Tensor::f_cdist(&sa, &sb, 1.0, None)?;
            let den = Tensor::f_cdist(&sa, &sb.f_neg()?, 1.0, None)?;
            Ok(num.f_div(&den)?)
        }
        Metric::Cosine => cosine(a, b, w),
        Metric::Correlation => {
            let (ca, cb) = match w {
                None => (centred_rows(a, None)?, centred_rows(b, None)?),
                Some(w) => (centred_rows(a, Some(w))?, centred_rows(b, Some(w))?),
            };
            cosine(&ca, &cb, w)
        }
        Metric::Canberra => blocked(a, b, &|x, y| {
            let num = x.f_sub(y)?.f_abs()?;
            let den = x.f_abs()?.f_add(&y.f_abs()?)?;
            let den = den.f_add(&den.f_eq(0.0)?.f_to_kind(Kind::Double)?)?;
            let term = num.f_div(&den)?;
            let term = match w {
                Some(w) => term.f_mul(w)?,
                None => term,
            };
            Ok(term.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Double)?)
        }),
        Metric::Hamming => {
            let total = match w {
                Some(w) => w.f_sum(Kind::Double)?,
                None => scalar(n as f64, device)?,
            };
            let counts = blocked(a, b, &|x, y| {
                let ne = x.f_ne_tensor(y)?.f_to_kind(Kind::Double)?;
                let ne = match w {
                    Some(w) => ne.f_mul(w)?,
                    None => ne,
                };
                Ok(ne.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Double)?)
            })?;
            Ok(counts.f_div(&total)?)
        }
        Metric::Jensenshannon => jensenshannon_pairs(a, b),
        Metric::Dice => dice(a, b, w),
        _ => boolean(a, b, metric, w, n),
    }
}

/// `np.var(x, axis=0, ddof=1)` as NumPy computes it (two passes: the mean,
/// then the squared deviations), so that SciPy's default `V` is matched
/// where its rounding shows (large offsets).
fn numpy_var(x: &Tensor) -> Result<Tensor> {
    let m = rows(x);
    let mean = x.f_sum_dim_intlist([0i64].as_slice(), true, Kind::Double)?.f_div_scalar(m as f64)?;
    let dev = x.f_sub(&mean)?;
    Ok(dev.f_mul(&dev)?.f_sum_dim_intlist([0i64].as_slice(), false, Kind::Double)?.f_div_scalar((m - 1) as f64)?)
}

/// `x` with each column scaled by `w ** power` (unchanged without weights).
fn scaled(x: &Tensor, w: Option<&Tensor>, power: f64) -> Result<Tensor> {
    match w {
        None => Ok(x.shallow_clone()),
        Some(w) if power == 1.0 => Ok(x.f_mul(w)?),
        Some(w) if power == 0.5 => Ok(x.f_mul(&w.f_sqrt()?)?),
        Some(w) => Ok(x.f_mul(&w.f_pow_tensor_scalar(power)?)?),
    }
}

/// Applies `f` to blocks of rows of `a` (shape `(k, 1, n)`) against all of `b`
/// (`(1, mB, n)`), each giving `(k, mB)`; the blocks stacked.
fn blocked(a: &Tensor, b: &Tensor, f: &dyn Fn(&Tensor, &Tensor) -> Result<Tensor>) -> Result<Tensor> {
    let (ma, mb, n) = (rows(a), rows(b), a.size()[1]);
    let per_row = (mb * n.max(1)).max(1);
    let block = (BLOCK_ELEMENTS / per_row).max(1);
    let bb = b.f_unsqueeze(0)?;
    let mut parts = Vec::new();
    let mut start = 0;
    while start < ma {
        let len = block.min(ma - start);
        let x = a.f_narrow(0, start, len)?.f_unsqueeze(1)?;
        parts.push(f(&x, &bb)?);
        start += len;
    }
    Ok(Tensor::f_cat(&parts, 0)?)
}

/// The relative size below which the expanded squared distance of a pair is
/// recomputed directly: its rounding error (about `sqrt(n)` ulps of the terms)
/// then exceeds 2e-13 of the result.
fn cancellation_threshold(n: i64) -> f64 {
    (4.0 * (n as f64).sqrt() + 8.0) * f64::EPSILON / 2e-13
}

/// Rows whose entries are all finite, as a bool vector.
fn finite_rows(x: &Tensor) -> Result<Tensor> {
    Ok(x.f_isfinite()?.f_all_dim(1, false)?)
}

/// `a` and `b` less the mean of their finite rows (distances are translation invariant).
fn centred(a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor, Tensor, Tensor)> {
    let (ga, gb) = (finite_rows(a)?, finite_rows(b)?);
    let za = a.f_where_self(&ga.f_unsqueeze(1)?, &a.f_zeros_like()?)?;
    let zb = b.f_where_self(&gb.f_unsqueeze(1)?, &b.f_zeros_like()?)?;
    let count = ga.f_sum(Kind::Double)?.f_add(&gb.f_sum(Kind::Double)?)?.f_clamp_min(1.0)?;
    let total = za.f_sum_dim_intlist([0i64].as_slice(), true, Kind::Double)?.f_add(&zb.f_sum_dim_intlist(
        [0i64].as_slice(),
        true,
        Kind::Double,
    )?)?;
    let mean = total.f_div(&count)?;
    Ok((a.f_sub(&mean)?, b.f_sub(&mean)?, ga, gb))
}

/// Recomputes `d2[i, j]` for the flagged pairs with `direct(diff)` (`diff`: `(k, n)` rows `a[i] - b[j]`).
fn recompute(
    d2: &mut Tensor,
    flag: &Tensor,
    a: &Tensor,
    b: &Tensor,
    direct: &dyn Fn(&Tensor) -> Result<Tensor>,
) -> Result<()> {
    let idx = flag.f_nonzero()?;
    let k = idx.size()[0];
    if k == 0 {
        return Ok(());
    }
    let n = a.size()[1].max(1);
    let chunk = (BLOCK_ELEMENTS / n).max(1);
    let mut start = 0;
    while start < k {
        let len = chunk.min(k - start);
        let part = idx.f_narrow(0, start, len)?;
        let (i, j) = (part.f_select(1, 0)?, part.f_select(1, 1)?);
        let diff = a.f_index_select(0, &i)?.f_sub(&b.f_index_select(0, &j)?)?;
        let values = direct(&diff)?;
        let _ = d2.f_index_put_(&[Some(i), Some(j)], &values, false)?;
        start += len;
    }
    Ok(())
}

/// Squared euclidean distances, every pair within about 1e-13 relative of the direct sum.
///
/// One matrix product on the centred points (`|x|^2 + |y|^2 - 2 x.y` in one
/// `addmm`), then the pairs where that cancels (or that involve a non-finite
/// row) recomputed from their differences.
pub fn sq_euclidean(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    sq_euclidean_pairs(a, b, None, false)
}

/// `sum_k s_k (a_k - b_k)^2` for column factors `s` (weights, `1 / V`): the
/// expansion on the scaled points, the cancelling pairs recomputed from the
/// unscaled differences (scaling large offsets would round them away).
fn sq_euclidean_scaled(a: &Tensor, b: &Tensor, s: Option<&Tensor>, self_pairs: bool) -> Result<Tensor> {
    sq_euclidean_pairs(a, b, s, self_pairs)
}

/// [`sq_euclidean`]; `self_pairs`: `b` is `a` and the diagonal is not wanted (`pdist`), left unspecified.
fn sq_euclidean_pairs(raw_a: &Tensor, raw_b: &Tensor, s: Option<&Tensor>, self_pairs: bool) -> Result<Tensor> {
    let (ma, mb, n) = (rows(raw_a), rows(raw_b), raw_a.size()[1]);
    if ma == 0 || mb == 0 || n == 0 {
        return zeros(&[ma, mb], raw_a.device());
    }
    // centre first, then scale: scaling points far from the origin would round their differences away
    let (ca, cb, ga, gb) = centred(raw_a, raw_b)?;
    let (ca, cb) = match s {
        Some(s) => {
            let root = s.f_sqrt()?;
            (ca.f_mul(&root)?, cb.f_mul(&root)?)
        }
        None => (ca, cb),
    };
    let a = raw_a;
    let na = ca.f_mul(&ca)?.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?;
    let nb = cb.f_mul(&cb)?.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?;
    let threshold = cancellation_threshold(n);
    // |x|^2 + |y|^2 - 2 x.y as one product of augmented matrices: [-2x, 1, |x|^2] . [y, |y|^2, 1]
    let ones_a = Tensor::f_ones([ma, 1].as_slice(), (Kind::Double, a.device()))?;
    let ones_b = Tensor::f_ones([mb, 1].as_slice(), (Kind::Double, a.device()))?;
    let left = Tensor::f_cat(&[ca.f_mul_scalar(-2.0)?, ones_a, na.f_unsqueeze(1)?], 1)?;
    let right = Tensor::f_cat(&[cb, nb.f_unsqueeze(1)?, ones_b], 1)?;
    let mut d2 = left.f_mm(&right.transposed()?)?;
    if self_pairs {
        let _ = d2.f_diagonal(0, 0, 1)?.f_fill_(f64::INFINITY)?;
    }
    // Candidates first against the largest terms (one reduction, usually none),
    // then each candidate against its own terms.
    let finite_max = |norms: &Tensor, good: &Tensor| -> Result<f64> {
        max_value(&norms.f_where_self(good, &norms.f_zeros_like()?)?)
    };
    let bound = (finite_max(&na, &ga)? + finite_max(&nb, &gb)?) * threshold;
    // (not `min(d2) <= bound`: a NaN pair, of a non-finite row, would make the minimum NaN and
    // hide every cancelling pair of finite rows)
    let close = d2.f_le(bound)?;
    let mut flag = if all_true(&close.f_logical_not()?)? {
        None
    } else {
        let candidates = close.f_nonzero()?;
        let (i, j) = (candidates.f_select(1, 0)?, candidates.f_select(1, 1)?);
        let own = na.f_index_select(0, &i)?.f_add(&nb.f_index_select(0, &j)?)?.f_mul_scalar(threshold)?;
        let values = d2.f_index(&[Some(i.shallow_clone()), Some(j.shallow_clone())])?;
        let keep = values.f_le_tensor(&own)?;
        let mut flag = Tensor::f_zeros([ma, mb].as_slice(), (Kind::Bool, a.device()))?;
        let _ = flag.f_index_put_(&[Some(i), Some(j)], &keep, false)?;
        Some(flag)
    };
    if !all_true(&ga)? || !all_true(&gb)? {
        let rows_bad = ga.f_logical_not()?.f_unsqueeze(1)?.f_logical_or(&gb.f_logical_not()?.f_unsqueeze(0)?)?;
        flag = Some(match flag {
            Some(f) => f.f_logical_or(&rows_bad)?,
            None => rows_bad,
        });
    }
    let Some(flag) = flag else { return Ok(d2) };
    recompute(&mut d2, &flag, raw_a, raw_b, &|diff| {
        let squares = diff.f_mul(diff)?;
        let squares = match s {
            Some(s) => squares.f_mul(s)?,
            None => squares,
        };
        Ok(squares.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?)
    })?;
    Ok(d2)
}

fn max_value(t: &Tensor) -> Result<f64> {
    Ok(t.f_max()?.f_double_value(&[])?)
}

fn all_true(t: &Tensor) -> Result<bool> {
    Ok(t.f_all()?.f_int64_value(&[])? != 0)
}

/// Squared Mahalanobis distances `(u - v) VI (u - v)`, cancelling pairs recomputed directly.
fn sq_mahalanobis(a: &Tensor, b: &Tensor, vi: &Tensor) -> Result<Tensor> {
    let n = a.size()[1];
    if n == 0 {
        return zeros(&[rows(a), rows(b)], a.device());
    }
    let (ca, cb, ga, gb) = centred(a, b)?;
    let qa = ca.f_mm(vi)?.f_mul(&ca)?.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?;
    let qb = cb.f_mm(vi)?.f_mul(&cb)?.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?;
    let sym = vi.f_add(&vi.transposed()?)?;
    let cross = ca.f_mm(&sym)?.f_mm(&cb.transposed()?)?;
    let mut d2 = qa.f_unsqueeze(1)?.f_add(&qb.f_unsqueeze(0)?)?.f_sub(&cross)?;
    let scale = qa.f_abs()?.f_unsqueeze(1)?.f_add(&qb.f_abs()?.f_unsqueeze(0)?)?.f_add(&cross.f_abs()?)?;
    let flag = d2
        .f_abs()?
        .f_le_tensor(&scale.f_mul_scalar(cancellation_threshold(n))?)?
        .f_logical_or(&ga.f_logical_not()?.f_unsqueeze(1)?)?
        .f_logical_or(&gb.f_logical_not()?.f_unsqueeze(0)?)?;
    let vit = vi.transposed()?;
    recompute(&mut d2, &flag, a, b, &|diff| {
        Ok(diff.f_mm(&vit)?.f_mul(diff)?.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?)
    })?;
    Ok(d2)
}

fn seuclidean(a: &Tensor, b: &Tensor, v: &Tensor, self_pairs: bool) -> Result<Tensor> {
    let positive = v.f_gt(0.0)?.f_logical_and(&v.f_isfinite()?)?.f_all()?.f_int64_value(&[])? != 0;
    if positive {
        return Ok(sq_euclidean_scaled(a, b, Some(&v.f_reciprocal()?), self_pairs)?.f_sqrt()?);
    }
    // zero, negative or non-finite variances: SciPy's sum of (d * d) / V term by term
    let s = blocked(a, b, &|x, y| {
        let d = x.f_sub(y)?;
        Ok(d.f_mul(&d)?.f_div(v)?.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Double)?)
    })?;
    Ok(s.f_sqrt()?)
}

fn chebyshev(a: &Tensor, b: &Tensor, w: Option<&Tensor>) -> Result<Tensor> {
    match w {
        None => Ok(Tensor::f_cdist(a, b, f64::INFINITY, None)?),
        Some(w) => {
            let kept = w.f_gt(0.0)?.f_nonzero()?.f_reshape([-1i64].as_slice())?;
            if kept.size()[0] == 0 {
                return zeros(&[rows(a), rows(b)], a.device());
            }
            Ok(Tensor::f_cdist(&a.f_index_select(1, &kept)?, &b.f_index_select(1, &kept)?, f64::INFINITY, None)?)
        }
    }
}

/// Rows less their (weighted) mean; weights normalised to sum 1 as SciPy's `correlation` does.
fn centred_rows(x: &Tensor, w: Option<&Tensor>) -> Result<Tensor> {
    let mean = match w {
        None => x.f_mean_dim([1i64].as_slice(), true, Kind::Double)?,
        Some(w) => x.f_mv(&w.f_div(&w.f_sum(Kind::Double)?)?)?.f_unsqueeze(1)?,
    };
    Ok(x.f_sub(&mean)?)
}

/// `1 - u.v / (|u| |v|)`, the cosine clamped to [-1, 1] (SciPy's kernel; weighted: its Python
/// definition with weights normalised to sum 1).
fn cosine(a: &Tensor, b: &Tensor, w: Option<&Tensor>) -> Result<Tensor> {
    let aw = match w {
        None => a.shallow_clone(),
        Some(w) => a.f_mul(&w.f_div(&w.f_sum(Kind::Double)?)?)?,
    };
    let bw = match w {
        None => b.shallow_clone(),
        Some(w) => b.f_mul(&w.f_div(&w.f_sum(Kind::Double)?)?)?,
    };
    let dot = aw.f_mm(&b.transposed()?)?;
    let na = aw.f_mul(a)?.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?;
    let nb = bw.f_mul(b)?.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?;
    let norms = na.f_unsqueeze(1)?.f_mul(&nb.f_unsqueeze(0)?)?.f_sqrt()?;
    let cos = dot.f_div(&norms)?.f_clamp(-1.0, 1.0)?;
    Ok(cos.f_neg()?.f_add_scalar(1.0)?)
}

/// SciPy's `jensenshannon` kernel: the rows normalised to sum 1; `inf` for a
/// row with a negative entry or a zero sum.
fn jensenshannon_pairs(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let bad = |x: &Tensor| -> Result<(Tensor, Tensor)> {
        let sum = x.f_sum_dim_intlist([1i64].as_slice(), true, Kind::Double)?;
        let negative = x.f_lt(0.0)?.f_any_dim(1, false)?;
        let bad = negative.f_logical_or(&sum.f_squeeze_dim(1)?.f_eq(0.0)?)?;
        Ok((x.f_div(&sum)?, bad))
    };
    let (p, bad_a) = bad(a)?;
    let (q, bad_b) = bad(b)?;
    let s = blocked(&p, &q, &|p, q| {
        let m = p.f_add(q)?.f_div_scalar(2.0)?;
        let zero = scalar(0.0, p.device())?;
        let left = p.f_mul(&p.f_div(&m)?.f_log()?)?.f_where_self(&p.f_gt(0.0)?, &zero)?;
        let right = q.f_mul(&q.f_div(&m)?.f_log()?)?.f_where_self(&q.f_gt(0.0)?, &zero)?;
        Ok(left.f_add(&right)?.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Double)?)
    })?;
    let js = s.f_div_scalar(2.0)?.f_sqrt()?;
    let bad = bad_a.f_unsqueeze(1)?.f_logical_or(&bad_b.f_unsqueeze(0)?)?;
    Ok(js.f_masked_fill(&bad, f64::INFINITY)?)
}

/// SciPy's `dice` kernel: unweighted on the values (`ntt = u.v`, the
/// mismatches `u + v - 2 u.v`); weighted on `u != v` and `u != 0 & v != 0`.
fn dice(a: &Tensor, b: &Tensor, w: Option<&Tensor>) -> Result<Tensor> {
    match w {
        None => {
            let ntt = a.f_mm(&b.transposed()?)?;
            let sa = a.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?;
            let sb = b.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?;
            let total = sa.f_unsqueeze(1)?.f_add(&sb.f_unsqueeze(0)?)?;
            let ndiff = total.f_sub(&ntt.f_mul_scalar(2.0)?)?;
            Ok(ndiff.f_div(&ntt.f_mul_scalar(2.0)?.f_add(&ndiff)?)?)
        }
        Some(w) => {
            let nonmatch = blocked(a, b, &|x, y| {
                let ne = x.f_ne_tensor(y)?.f_to_kind(Kind::Double)?.f_mul(w)?;
                Ok(ne.f_sum_dim_intlist([-1i64].as_slice(), false, Kind::Double)?)
            })?;
            let (ba, bb) = (a.f_ne(0.0)?.f_to_kind(Kind::Double)?, b.f_ne(0.0)?.f_to_kind(Kind::Double)?);
            let tt = ba.f_mul(w)?.f_mm(&bb.transposed()?)?;
            Ok(nonmatch.f_div(&tt.f_mul_scalar(2.0)?.f_add(&nonmatch)?)?)
        }
    }
}

/// The metrics on `x != 0`, from the (weighted) counts `ntt`, `ntf`, `nft`, `nff`.
fn boolean(a: &Tensor, b: &Tensor, metric: Metric, w: Option<&Tensor>, n: i64) -> Result<Tensor> {
    debug_assert!(metric.booleanised());
    if metric == Metric::Yule && w.is_some() {
        // its C++ kernel accumulates the weighted counts in integer variables
        return Err(Error::NotImplemented(
            "cdist/pdist 'yule' with weights w: SciPy 1.17's weighted kernel accumulates the weighted counts in \
             integers, which torchbridge does not reproduce; use distance.yule(u, v, w) per pair"
                .into(),
        ));
    }
    let ba = a.f_ne(0.0)?.f_to_kind(Kind::Double)?;
    let bb = b.f_ne(0.0)?.f_to_kind(Kind::Double)?;
    let (baw, total) = match w {
        Some(w) => (ba.f_mul(w)?, w.f_sum(Kind::Double)?),
        None => (ba.shallow_clone(), scalar(n as f64, a.device())?),
    };
    let bbw = match w {
        Some(w) => bb.f_mul(w)?,
        None => bb.shallow_clone(),
    };
    let ntt = baw.f_mm(&bb.transposed()?)?;
    let sa = baw.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?.f_unsqueeze(1)?;
    let sb = bbw.f_sum_dim_intlist([1i64].as_slice(), false, Kind::Double)?.f_unsqueeze(0)?;
    let ntf = sa.f_sub(&ntt)?;
    let nft = sb.f_sub(&ntt)?;
    let ndiff = ntf.f_add(&nft)?;
    let zero = scalar(0.0, a.device())?;
    Ok(match metric {
        Metric::Jaccard => {
            let nonzero = ndiff.f_add(&ntt)?;
            let ratio = ndiff.f_div(&nonzero)?;
            ratio.f_where_self(&nonzero.f_ne(0.0)?, &zero)?
        }
        Metric::Rogerstanimoto => ndiff.f_mul_scalar(2.0)?.f_div(&ndiff.f_add(&total)?)?,
        Metric::Russellrao => total.f_sub(&ntt)?.f_div(&total)?,
        Metric::Sokalsneath => {
            let twice = ndiff.f_mul_scalar(2.0)?;
            twice.f_div(&twice.f_add(&ntt)?)?
        }
        Metric::Yule => {
            let nff = total.f_sub(&ntt)?.f_sub(&ndiff)?;
            let half_r = ntf.f_mul(&nft)?;
            let ratio = half_r.f_mul_scalar(2.0)?.f_div(&ntt.f_mul(&nff)?.f_add(&half_r)?)?;
            ratio.f_where_self(&half_r.f_ne(0.0)?, &zero)?
        }
        _ => return Err(Error::InvalidArgument(format!("{} is not a boolean metric", metric.name()))),
    })
}

// --------------------------------------------------------------------------- squareform and checks

/// `squareform`'s direction (`force`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Force {
    /// Decide by the input's dimensions (SciPy's `"no"`).
    #[default]
    No,
    /// A condensed vector to its square matrix (`"tomatrix"`).
    ToMatrix,
    /// A square matrix to its condensed vector (`"tovector"`).
    ToVector,
}

impl Force {
    /// SciPy's `force.lower()` values; others behave as `"no"`, as in SciPy.
    pub fn parse(name: &str) -> Force {
        match name.to_lowercase().as_str() {
            "tomatrix" => Force::ToMatrix,
            "tovector" => Force::ToVector,
            _ => Force::No,
        }
    }
}

/// `scipy.spatial.distance.squareform`: a condensed vector to its symmetric
/// matrix (zero diagonal) or a distance matrix to its condensed vector, in
/// the input's dtype. `checks`: the matrix must be a valid distance matrix.
pub fn squareform(x: &Tensor, force: Force, checks: bool) -> Result<Tensor> {
    let s = x.size();
    match force {
        Force::ToMatrix if s.len() != 1 => {
            return Err(Error::InvalidArgument("Forcing 'tomatrix' but input X is not a distance vector.".into()));
        }
        Force::ToVector if s.len() != 2 => {
            return Err(Error::InvalidArgument("Forcing 'tovector' but input X is not a distance matrix.".into()));
        }
        _ => {}
    }
    match s.len() {
        1 => {
            let k = s[0];
            if k == 0 {
                return Ok(Tensor::f_zeros([1i64, 1].as_slice(), (x.kind(), x.device()))?);
            }
            let d = ((k as f64 * 2.0).sqrt()).ceil() as i64;
            if d * (d - 1) != k * 2 {
                return Err(Error::InvalidArgument(
                    "Incompatible vector size. It must be a binomial coefficient n choose 2 for some integer n >= 2."
                        .into(),
                ));
            }
            let idx = Tensor::f_triu_indices(d, d, 1, (Kind::Int64, x.device()))?;
            let (i, j) = (idx.f_select(0, 0)?, idx.f_select(0, 1)?);
            let mut m = Tensor::f_zeros([d, d].as_slice(), (x.kind(), x.device()))?;
            let _ = m.f_index_put_(&[Some(i.shallow_clone()), Some(j.shallow_clone())], x, false)?;
            let _ = m.f_index_put_(&[Some(j), Some(i)], x, false)?;
            Ok(m)
        }
        2 => {
            if s[0] != s[1] {
                return Err(Error::InvalidArgument("The matrix argument must be square.".into()));
            }
            if checks {
                if let Some(problem) = dm_problem(x, 0.0, Some("X"))? {
                    return Err(Error::InvalidArgument(problem));
                }
            }
            let d = s[0];
            if d <= 1 {
                return Ok(Tensor::f_zeros([0i64].as_slice(), (x.kind(), x.device()))?);
            }
            let idx = Tensor::f_triu_indices(d, d, 1, (Kind::Int64, x.device()))?;
            let flat = idx.f_select(0, 0)?.f_mul_scalar(d)?.f_add(&idx.f_select(0, 1)?)?;
            Ok(x.f_reshape([-1i64].as_slice())?.f_index_select(0, &flat)?)
        }
        n => Err(Error::InvalidArgument(format!(
            "The first argument must be one or two dimensional array. A {n}-dimensional array is not permitted"
        ))),
    }
}

fn any(t: &Tensor) -> Result<bool> {
    Ok(t.f_any()?.f_int64_value(&[])? != 0)
}

/// Why `d` is not a valid distance matrix (SciPy's `is_valid_dm` messages), or `None`.
pub fn dm_problem(d: &Tensor, tol: f64, name: Option<&str>) -> Result<Option<String>> {
    let named = |what: &str| match name {
        Some(name) => format!("Distance matrix '{name}' {what}"),
        None => format!("Distance matrix {what}"),
    };
    if d.dim() != 2 {
        return Ok(Some(named("must have shape=2 (i.e. be two-dimensional).")));
    }
    let s = d.size();
    if s[0] != s[1] {
        // SciPy's `D == D.T` cannot broadcast a non-square matrix (nor `D[range(s0), range(s0)]` index it)
        return Ok(Some(format!(
            "operands could not be broadcast together with shapes {} {}",
            shape_text(&s),
            shape_text(&[s[1], s[0]])
        )));
    }
    let diag = d.f_diagonal(0, 0, 1)?;
    if tol == 0.0 {
        if any(&d.f_ne_tensor(&d.transposed()?)?)? {
            return Ok(Some(named("must be symmetric.")));
        }
        if any(&diag.f_ne(0.0)?)? {
            return Ok(Some(named("diagonal must be zero.")));
        }
    } else {
        let shown = format!("{tol:.5}");
        if any(&d.f_sub(&d.transposed()?)?.f_le(tol)?.f_logical_not()?)? {
            return Ok(Some(named(&format!("must be symmetric within tolerance {shown}."))));
        }
        if any(&diag.f_le(tol)?.f_logical_not()?)? {
            return Ok(Some(named(&format!("diagonal must be close to zero within tolerance {shown}."))));
        }
    }
    Ok(None)
}

/// Why `y` is not a valid condensed distance matrix (SciPy's `is_valid_y` messages), or `None`.
pub fn y_problem(shape: &[i64], name: Option<&str>) -> Option<String> {
    let named = name.map(|n| format!("'{n}' ")).unwrap_or_default();
    if shape.len() != 1 {
        return Some(format!("Condensed distance matrix {named}must have shape=1 (i.e. be one-dimensional)."));
    }
    let n = shape[0];
    let d = ((n as f64 * 2.0).sqrt()).ceil() as i64;
    if d * (d - 1) != n * 2 {
        return Some(format!(
            "Length n of condensed distance matrix {named}must be a binomial coefficient, i.e. there must be a k \
             such that (k \\choose 2)=n)!"
        ));
    }
    None
}

/// `num_obs_y`: the number of points a condensed matrix of `k` entries has.
pub fn num_obs_y(shape: &[i64]) -> Result<i64> {
    if let Some(problem) = y_problem(shape, Some("Y")) {
        return Err(Error::InvalidArgument(problem));
    }
    let k = shape[0];
    if k == 0 {
        return Err(Error::InvalidArgument(
            "The number of observations cannot be determined on an empty distance matrix.".into(),
        ));
    }
    Ok(((k as f64 * 2.0).sqrt()).ceil() as i64)
}

// --------------------------------------------------------------------------- single pairs

/// The options of a single-pair function.
#[derive(Debug, Default)]
pub struct PairParams {
    /// `minkowski`'s `p`.
    pub p: f64,
    /// Weights.
    pub w: Option<Tensor>,
    /// `seuclidean`'s `V` or `mahalanobis`'s `VI`.
    pub m: Option<Tensor>,
    /// `correlation`'s `centered`.
    pub centered: bool,
}

fn vector(x: &Tensor) -> Result<Tensor> {
    if x.dim() != 1 {
        return Err(Error::InvalidArgument("Input vector should be 1-D.".into()));
    }
    f64_input(x)
}

fn pair_weights(w: &Option<Tensor>) -> Result<Option<Tensor>> {
    match w {
        None => Ok(None),
        Some(w) => {
            let w = vector(w)?;
            if any(&w.f_lt(0.0)?)? {
                return Err(Error::InvalidArgument("Input weights should be all non-negative".into()));
            }
            Ok(Some(w))
        }
    }
}

/// The dtype SciPy's single-pair `metric` returns for `u`, `v` (and weights or not).
fn pair_result_kind(metric: Metric, u: &Tensor, v: &Tensor, weighted: bool) -> Result<Kind> {
    let (du, dv) = (dlpack::dtype_of(u)?, dlpack::dtype_of(v)?);
    let promoted = Tensor::f_empty([0i64].as_slice(), (u.kind(), Device::Cpu))?
        .f_add(&Tensor::f_empty([0i64].as_slice(), (v.kind(), Device::Cpu))?)?
        .kind();
    let floats = du.is_float() && dv.is_float();
    Ok(match metric {
        Metric::Chebyshev if !matches!(promoted, Kind::Bool) => promoted,
        Metric::Cityblock if !weighted && floats => promoted,
        Metric::Cityblock if !weighted && !matches!(promoted, Kind::Bool) => Kind::Int64,
        Metric::Euclidean | Metric::Minkowski | Metric::Sqeuclidean | Metric::Cosine | Metric::Correlation
            if !weighted && floats =>
        {
            promoted
        }
        _ => Kind::Double,
    })
}

/// `scipy.spatial.distance.<metric>(u, v, ...)`: one distance, a 0-d tensor.
pub fn pair(u: &Tensor, v: &Tensor, metric: Metric, params: &PairParams) -> Result<Tensor> {
    let kind = pair_result_kind(metric, u, v, params.w.is_some())?;
    let (a, b) = (vector(u)?, vector(v)?);
    let n = a.size()[0];
    let w = pair_weights(&params.w)?;
    let same = a.size() == b.size();
    let mismatch = || {
        Error::InvalidArgument(format!(
            "operands could not be broadcast together with shapes ({n},) ({},)",
            b.size()[0]
        ))
    };
    if !same && metric != Metric::Hamming {
        return Err(mismatch());
    }
    if let Some(w) = &w {
        if w.size()[0] != n {
            if metric == Metric::Hamming {
                return Err(Error::InvalidArgument("'w' should have the same length as 'u' and 'v'.".into()));
            }
            return Err(Error::InvalidArgument(format!(
                "operands could not be broadcast together with shapes ({},) ({n},)",
                w.size()[0]
            )));
        }
    }
    let device = a.device();
    let sum = |t: &Tensor| -> Result<Tensor> { Ok(t.f_sum(Kind::Double)?) };
    let result = match metric {
        Metric::Minkowski | Metric::Euclidean => {
            let p = if metric == Metric::Euclidean { 2.0 } else { params.p };
            if p.is_nan() || p <= 0.0 {
                return Err(Error::InvalidArgument("p must be greater than 0".into()));
            }
            let one = cdist(
                &a.f_unsqueeze(0)?,
                &b.f_unsqueeze(0)?,
                Metric::Minkowski,
                &Params { p: Some(p), w: w.as_ref().map(|w| w.shallow_clone()), ..Default::default() },
            )?;
            one.f_reshape([0i64; 0].as_slice())?
        }
        Metric::Seuclidean => {
            let var = params.m.as_ref().ok_or_else(|| Error::InvalidArgument("seuclidean needs V".into()))?;
            let var = f64_input(var)?.f_to_device(device)?;
            if var.dim() != 1 || var.size()[0] != n {
                return Err(Error::InvalidArgument("V must be a 1-D array of the same dimension as u and v.".into()));
            }
            let d = a.f_sub(&b)?;
            sum(&d.f_mul(&d)?.f_div(&var)?)?.f_sqrt()?
        }
        Metric::Mahalanobis => {
            let vi = params.m.as_ref().ok_or_else(|| Error::InvalidArgument("mahalanobis needs VI".into()))?;
            let vi = f64_input(vi)?.f_to_device(device)?;
            let vi = if vi.dim() < 2 { vi.f_reshape([1i64, -1].as_slice())? } else { vi };
            let d = a.f_sub(&b)?;
            d.f_unsqueeze(0)?.f_mm(&vi)?.f_squeeze_dim(0)?.f_dot(&d)?.f_sqrt()?
        }
        Metric::Sqeuclidean => {
            let d = a.f_sub(&b)?;
            match &w {
                Some(w) => sum(&d.f_mul(&d)?.f_mul(w)?)?,
                None => sum(&d.f_mul(&d)?)?,
            }
        }
        Metric::Cityblock => {
            let d = a.f_sub(&b)?.f_abs()?;
            match &w {
                Some(w) => sum(&d.f_mul(w)?)?,
                None => sum(&d)?,
            }
        }
        Metric::Chebyshev => {
            let d = a.f_sub(&b)?.f_abs()?;
            let d = match &w {
                Some(w) => d.f_mul(&w.f_gt(0.0)?.f_to_kind(Kind::Double)?)?,
                None => d,
            };
            if n == 0 {
                return Err(Error::InvalidArgument("max() iterable argument is empty".into()));
            }
            d.f_max()?
        }
        Metric::Cosine | Metric::Correlation => {
            let centered = metric == Metric::Correlation && params.centered;
            let w = match &w {
                Some(w) => Some(w.f_div(&sum(w)?)?),
                None => None,
            };
            let (a, b) = if centered {
                let mean = |x: &Tensor| -> Result<Tensor> {
                    match &w {
                        Some(w) => Ok(x.f_dot(w)?),
                        None => Ok(x.f_mean(Kind::Double)?),
                    }
                };
                (a.f_sub(&mean(&a)?)?, b.f_sub(&mean(&b)?)?)
            } else {
                (a.shallow_clone(), b.shallow_clone())
            };
            let (aw, bw) = match &w {
                Some(w) => (a.f_mul(w)?, b.f_mul(w)?),
                None => (a.shallow_clone(), b.shallow_clone()),
            };
            let uv = a.f_dot(&bw)?;
            let uu = a.f_dot(&aw)?;
            let vv = b.f_dot(&bw)?;
            uv.f_div(&uu.f_mul(&vv)?.f_sqrt()?)?.f_neg()?.f_add_scalar(1.0)?.f_clamp(0.0, 2.0)?
        }
        Metric::Hamming => {
            if !same {
                return Err(Error::InvalidArgument("The 1d arrays must have equal lengths.".into()));
            }
            let ne = u.f_ne_tensor(v)?.f_to_kind(Kind::Double)?;
            match &w {
                Some(w) => ne.f_dot(&w.f_div(&sum(w)?)?)?,
                None => ne.f_mean(Kind::Double)?,
            }
        }
        Metric::Jaccard => {
            let (nu, nv) = (a.f_ne(0.0)?, b.f_ne(0.0)?);
            let unequal = nu.f_logical_xor(&nv)?.f_to_kind(Kind::Double)?;
            let nonzero = nu.f_logical_or(&nv)?.f_to_kind(Kind::Double)?;
            let (unequal, nonzero) = match &w {
                Some(w) => (unequal.f_mul(w)?, nonzero.f_mul(w)?),
                None => (unequal, nonzero),
            };
            let (x, y) = (sum(&unequal)?, sum(&nonzero)?);
            x.f_div(&y)?.f_where_self(&y.f_ne(0.0)?, &scalar(0.0, device)?)?
        }
        Metric::Braycurtis => {
            let (dif, tot) = (a.f_sub(&b)?.f_abs()?, a.f_add(&b)?.f_abs()?);
            match &w {
                Some(w) => sum(&dif.f_mul(w)?)?.f_div(&sum(&tot.f_mul(w)?)?)?,
                None => sum(&dif)?.f_div(&sum(&tot)?)?,
            }
        }
        Metric::Canberra => {
            let d = a.f_sub(&b)?.f_abs()?.f_div(&a.f_abs()?.f_add(&b.f_abs()?)?)?;
            let d = match &w {
                Some(w) => d.f_mul(w)?,
                None => d,
            };
            d.f_nansum(None::<&[i64]>, false, Kind::Double)?
        }
        Metric::Jensenshannon => {
            return Err(Error::InvalidArgument("jensenshannon is not a (u, v, w) function".into()));
        }
        Metric::Dice | Metric::Rogerstanimoto | Metric::Russellrao | Metric::Sokalsneath | Metric::Yule => {
            nbool(&a, &b, metric, w.as_ref(), n)?
        }
    };
    Ok(result.f_to_kind(kind)?)
}

/// SciPy's Python boolean dissimilarities, on the values themselves (`_nbool_correspond_all`).
fn nbool(a: &Tensor, b: &Tensor, metric: Metric, w: Option<&Tensor>, n: i64) -> Result<Tensor> {
    let (na, nb) = (a.f_neg()?.f_add_scalar(1.0)?, b.f_neg()?.f_add_scalar(1.0)?);
    let (aw, naw) = match w {
        Some(w) => (a.f_mul(w)?, na.f_mul(w)?),
        None => (a.shallow_clone(), na.shallow_clone()),
    };
    let sum = |x: &Tensor, y: &Tensor| -> Result<Tensor> { Ok(x.f_mul(y)?.f_sum(Kind::Double)?) };
    let ntt = sum(&aw, b)?;
    let ntf = sum(&aw, &nb)?;
    let nft = sum(&naw, b)?;
    let nff = sum(&naw, &nb)?;
    let ndiff = ntf.f_add(&nft)?;
    Ok(match metric {
        Metric::Dice => ndiff.f_div(&ntt.f_mul_scalar(2.0)?.f_add(&ndiff)?)?,
        Metric::Rogerstanimoto => {
            let r = ndiff.f_mul_scalar(2.0)?;
            r.f_div(&ntt.f_add(&nff)?.f_add(&r)?)?
        }
        Metric::Russellrao => {
            let total = match w {
                Some(w) => w.f_sum(Kind::Double)?,
                None => scalar(n as f64, a.device())?,
            };
            total.f_sub(&ntt)?.f_div(&total)?
        }
        Metric::Sokalsneath => {
            let r = ndiff.f_mul_scalar(2.0)?;
            let denom = ntt.f_add(&r)?;
            if denom.f_double_value(&[])? == 0.0 {
                return Err(Error::InvalidArgument(
                    "Sokal-Sneath dissimilarity is not defined for vectors that are entirely false.".into(),
                ));
            }
            r.f_div(&denom)?
        }
        _ => {
            let half_r = ntf.f_mul(&nft)?;
            if half_r.f_double_value(&[])? == 0.0 {
                scalar(0.0, a.device())?
            } else {
                half_r.f_mul_scalar(2.0)?.f_div(&ntt.f_mul(&nff)?.f_add(&half_r)?)?
            }
        }
    })
}

/// `scipy.spatial.distance.jensenshannon(p, q, base, axis=axis, keepdims=keepdims)`.
pub fn jensenshannon(p: &Tensor, q: &Tensor, base: Option<f64>, axis: i64, keepdims: bool) -> Result<Tensor> {
    let floating = |x: &Tensor| -> Result<Tensor> {
        let dtype = dlpack::dtype_of(x)?;
        if dtype.is_complex() {
            return Err(Error::NotImplemented(format!("jensenshannon of {dtype} input is not implemented")));
        }
        if dtype.is_float() {
            Ok(x.shallow_clone())
        } else {
            cast(x, DType::Float64)
        }
    };
    let (p, q) = (floating(p)?, floating(q)?);
    let ndim = p.dim().max(q.dim()) as i64;
    let ax = if axis < 0 { axis + ndim } else { axis };
    if ndim == 0 || ax < 0 || ax >= ndim {
        return Err(Error::AxisOutOfBounds { axis, ndim: ndim as usize });
    }
    let p = p.f_div(&p.f_sum_dim_intlist([axis].as_slice(), true, None::<Kind>)?)?;
    let q = q.f_div(&q.f_sum_dim_intlist([axis].as_slice(), true, None::<Kind>)?)?;
    let m = p.f_add(&q)?.f_div_scalar(2.0)?;
    let left = rel_entr(&p, &m)?.f_sum_dim_intlist([axis].as_slice(), keepdims, None::<Kind>)?;
    let right = rel_entr(&q, &m)?.f_sum_dim_intlist([axis].as_slice(), keepdims, None::<Kind>)?;
    let mut js = left.f_add(&right)?;
    if let Some(base) = base {
        js = js.f_div_scalar(base.ln())?;
    }
    Ok(js.f_div_scalar(2.0)?.f_sqrt()?)
}

/// `scipy.special.rel_entr(x, y)`: `x log(x / y)` for positive `x`, `y`; 0 where
/// `x == 0 <= y`; `inf` otherwise; NaN propagated.
fn rel_entr(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let device = x.device();
    let zero = Tensor::from(0.0).f_to_kind(x.kind())?.f_to_device(device)?;
    let inf = Tensor::from(f64::INFINITY).f_to_kind(x.kind())?.f_to_device(device)?;
    let value = x.f_mul(&x.f_div(y)?.f_log()?)?;
    let both = x.f_gt(0.0)?.f_logical_and(&y.f_gt(0.0)?)?;
    let zero_case = x.f_eq(0.0)?.f_logical_and(&y.f_ge(0.0)?)?;
    let nan = x.f_isnan()?.f_logical_or(&y.f_isnan()?)?;
    let rest = inf.f_where_self(&zero_case, &zero)?;
    let out = value.f_where_self(&both, &rest)?;
    Ok(x.f_add(y)?.f_where_self(&nan, &out)?)
}

/// The transpose of a matrix (tch names `t` without an `f_` form).
trait Transpose {
    fn transposed(&self) -> Result<Tensor>;
}

impl Transpose for Tensor {
    fn transposed(&self) -> Result<Tensor> {
        Ok(self.f_transpose(0, 1)?)
    }
}
