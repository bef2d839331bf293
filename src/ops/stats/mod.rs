//! `scipy.stats` counterparts, in files after SciPy's modules: [`stats_py`]
//! (`scipy.stats._stats_py` and `_entropy`'s `entropy`): the descriptive
//! statistics (moments, means, trimmed statistics, quantile spreads,
//! `mode`), `zscore`/`zmap`, `rankdata`, `entropy`, and the correlations and
//! tests (`pearsonr`, `spearmanr`, `kendalltau`, `linregress`, the t tests,
//! `power_divergence`/`chisquare`, `f_oneway`, `ks_1samp`, `ks_2samp`);
//! [`mannwhitneyu`] (`_mannwhitneyu`), [`morestats`] (`_morestats`:
//! `boxcox`, `yeojohnson` for a given `lmbda`, `wilcoxon`), [`entropy`]
//! (`_entropy`: `differential_entropy`), [`stats_mstats_common`]
//! (`theilslopes`), [`binned_statistic`] (`_binned_statistic`) and
//! [`ksstats`] (`_ksstats` and `scipy.special`'s `smirnov`/`kolmogorov`:
//! the KS distributions, scalar functions evaluated on the host),
//! with SciPy's `axis`/`keepdims`/`nan_policy` semantics (SciPy's
//! `_axis_nan_policy` decorator) in [`stats_py::Layout`]. The
//! distributions (`norm`, ..., `poisson`, `binom`, `nbinom`) are in
//! [`continuous_distns`] and [`discrete_distns`] (the standardised
//! formulas) and [`distn_infrastructure`] (SciPy's `rv_generic` machinery:
//! `loc`/`scale`, parameter checks, support, moments, sampling).
//!
//! Everything is a composite of libtorch ops on the input's device: masked
//! two-pass moments, one sort per reduction for the order statistics and
//! ranks, segment arithmetic (cumulative max/min, scatter) for ties, p-values
//! from `crate::ops::special`; nothing goes through NumPy and nothing loops
//! over slices. Where a p-value is a scalar function of a slice's statistic
//! and size (the KS distributions, the exact signed-rank distribution), the
//! statistics (one per slice) are evaluated on the host. One exception to
//! the composites: on the CPU, `rankdata` (and what ranks through it) sorts
//! by a radix-sort kernel (`csrc/rankdata.cpp`), libtorch's sort being
//! slower than SciPy's whole `rankdata` there.

pub mod binned_statistic;
pub mod continuous_distns;
pub mod discrete_distns;
pub mod distn_infrastructure;
pub mod entropy;
pub mod ksstats;
pub mod mannwhitneyu;
pub mod morestats;
pub mod stats_mstats_common;
pub mod stats_py;
