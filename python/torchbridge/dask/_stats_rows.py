"""The chunking table's ``stats`` rows (see :mod:`._table`).

The moments and what is formed from them (``moment``, ``skew``,
``kurtosis``, ``describe``, ``sem``, ``variation``, the trimmed ``t*``
statistics, ``zscore``/``zmap``) are reductions with mergeable partials
(:mod:`._moments`); the order statistics (``iqr``, ``median_abs_deviation``,
``mode``, ``rankdata``, ``trim_mean``) need a whole axis sorted at once.
"""

from __future__ import annotations

from . import _moments
from ._chunking import Chunking, Unsupported
from ._moments import PartialMoments

_MOMENTS = (
    "a statistic along an axis: chunked partial moments with SciPy's two-pass accuracy are not built yet; "
    "compute it eagerly (or rechunk the axis to one chunk and map_blocks)"
)
_ORDER = "an order statistic: the whole axis must be sorted at once; compute it eagerly"
_TEST = (
    "a correlation or test statistic over whole axis-slices (moments, ranks or pairwise comparisons of "
    "every value): chunked partial statistics are not built yet; compute it eagerly"
)
_ELEMENTWISE = "an elementwise transformation: no chunking row is built yet; use map_blocks with the given lmbda"

#: ``name`` -> the chunking class of ``torchbridge.stats.{name}``.
ROWS: dict[str, Chunking] = {
    **{
        name: Unsupported(_MOMENTS)
        for name in (
            "gmean", "hmean", "pmean", "entropy",
        )
    },
    **{
        name: PartialMoments(getattr(_moments, name))
        for name in (
            "skew", "kurtosis", "moment", "describe", "sem", "variation", "tmean", "tvar", "tstd", "tsem", "tmin",
            "tmax",
        )
    },
    "zscore": PartialMoments(_moments.zmap),
    "zmap": PartialMoments(_moments.zmap),
    **{name: Unsupported(_ORDER) for name in ("iqr", "median_abs_deviation", "trim_mean", "mode", "rankdata")},
    **{
        name: Unsupported(_TEST)
        for name in (
            "pearsonr", "spearmanr", "kendalltau", "linregress", "ttest_1samp", "ttest_ind", "ttest_rel",
            "chisquare", "power_divergence", "f_oneway", "mannwhitneyu", "wilcoxon", "ks_1samp", "ks_2samp",
            "theilslopes",
        )
    },
    "differential_entropy": Unsupported(_ORDER),
    "binned_statistic": Unsupported(
        "binned statistics need the bin edges from the whole of x first (or given edges) and a reduction per bin "
        "across chunks: not built yet; compute it eagerly"
    ),
    **{name: Unsupported(_ELEMENTWISE) for name in ("boxcox", "yeojohnson")},
}
