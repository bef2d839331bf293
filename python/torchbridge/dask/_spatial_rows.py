"""The chunking table's ``spatial.distance`` rows (see :mod:`._table`).

No spatial routine is chunked yet: ``cdist``'s default ``V``/``VI`` and
``pdist``'s pairs need all rows at once, ``squareform`` reorders a whole
matrix, and the single-pair functions and checks take one small problem.
"""

from __future__ import annotations

from ._chunking import Chunking, Unsupported

_WHOLE = "its result needs every row of every input at once (no blockwise form yet); compute it eagerly"
_PAIR = "one pair of vectors is one small problem; compute it eagerly"

#: ``name`` -> the chunking class of ``torchbridge.spatial.distance.{name}``.
ROWS: dict[str, Chunking] = {
    "cdist": Unsupported(_WHOLE),
    "pdist": Unsupported(_WHOLE),
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
