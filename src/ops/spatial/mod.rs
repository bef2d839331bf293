//! `scipy.spatial` counterparts. So far [`distance`] (`scipy.spatial.distance`):
//! the pairwise distances `cdist`/`pdist` over SciPy's 19 metrics,
//! `squareform` and the distance-matrix checks, and the single-pair functions.
//!
//! Everything is a composite of libtorch ops on the input's device (matrix
//! products where a metric expands into them, blocked broadcasts where it
//! does not); nothing goes through NumPy.

pub mod distance;
