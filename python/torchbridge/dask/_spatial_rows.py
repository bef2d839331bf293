"""The chunking table's ``spatial.distance`` rows (see :mod:`._table`).

``cdist`` runs over pairs of row blocks (:mod:`._pairwise`); ``pdist``'s
condensed pairs need all rows at once, ``squareform`` reorders a whole
matrix, and the single-pair functions and checks take one small problem.
"""

from __future__ import annotations

from ._chunking import Chunking, Unsupported
from ._pairwise import RowBlocks

_PAIR = "one pair of vectors is one small problem; compute it eagerly"

#: ``name`` -> the chunking class of ``torchbridge.spatial.distance.{name}``.
ROWS: dict[str, Chunking] = {
    "cdist": RowBlocks(),
    "pdist": Unsupported(
        "its condensed result interleaves every pair of rows (no block of it is a pair of row blocks); use "
        "cdist(X, X) on dask arrays, or compute it eagerly"
    ),
    "squareform": Unsupported("it reorders the whole matrix or vector; compute it eagerly"),
    **{name: Unsupported("a check of the whole array; compute it eagerly")
       for name in ("is_valid_dm", "is_valid_y", "num_obs_dm", "num_obs_y")},
    **{
        name: Unsupported(_PAIR)
        for name in (
            "braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "cosine", "dice", "euclidean",
            "hamming", "jaccard", "jensenshannon", "mahalanobis", "minkowski", "rogerstanimoto", "russellrao",
            "seuclidean", "sokalsneath", "sqeuclidean", "yule",
        )
    },
}
