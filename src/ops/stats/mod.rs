//! `scipy.stats` counterparts. So far [`stats_py`] (`scipy.stats._stats_py`
//! and `_entropy`): the descriptive statistics (moments, means, trimmed
//! statistics, quantile spreads, `mode`), `zscore`/`zmap`, `rankdata` and
//! `entropy`, with SciPy's `axis`/`keepdims`/`nan_policy` semantics
//! (SciPy's `_axis_nan_policy` decorator) in [`stats_py::Layout`].
//!
//! Everything is a composite of libtorch ops on the input's device: masked
//! two-pass moments, one sort per reduction for the order statistics and
//! ranks, segment arithmetic (cumulative max/min, scatter) for ties; nothing
//! goes through NumPy and nothing loops over slices.

pub mod stats_py;
