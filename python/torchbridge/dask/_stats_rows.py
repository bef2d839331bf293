"""The chunking table's ``stats`` rows (see :mod:`._table`).

The moments and what is formed from them (``moment``, ``skew``,
``kurtosis``, ``describe``, ``sem``, ``variation``, the trimmed ``t*``
statistics, ``zscore``/``zmap``, the power means, ``entropy``) are
reductions with mergeable partials (:mod:`._moments`); the order statistics
(``iqr``, ``median_abs_deviation``, ``mode``, ``rankdata``, ``trim_mean``,
``differential_entropy``) need a whole axis sorted at once: that axis in one
chunk (:mod:`._order`). The tests and correlations stay unchunked.
"""

from __future__ import annotations

from . import _moments
from ._chunking import Chunking, Unsupported
from ._moments import PartialMoments
from ._order import WholeAxis

_EAGER = "; compute it eagerly (or rechunk the axis to one chunk and map_blocks the eager routine on each block)"
_CORRELATION = (
    "a correlation of paired samples: its result object carries a p-value and methods (confidence_interval) "
    "formed from the whole samples"
)
_RANKS = (
    "a statistic of ranks, of sorted samples or of every pair of values across whole samples: no partials merge to it"
)
_TESTS = (
    "a test of one or more samples: its result object (statistic, p-value, df, confidence_interval) is formed "
    "from the whole samples; not built on dask"
)
_ELEMENTWISE = "an elementwise transformation: no chunking row is built yet; use map_blocks with the given lmbda"

#: ``name`` -> the chunking class of ``torchbridge.stats.{name}``.
ROWS: dict[str, Chunking] = {
    **{
        name: PartialMoments(getattr(_moments, name))
        for name in (
            "skew", "kurtosis", "moment", "describe", "sem", "variation", "tmean", "tvar", "tstd", "tsem", "tmin",
            "tmax", "gmean", "hmean", "pmean", "entropy",
        )
    },
    "zscore": PartialMoments(_moments.zmap),
    "zmap": PartialMoments(_moments.zmap),
    "iqr": WholeAxis("x"),
    "median_abs_deviation": WholeAxis("x"),
    "trim_mean": WholeAxis(),
    "mode": WholeAxis(outputs=2),
    "rankdata": WholeAxis(reduces=False),
    **{name: Unsupported(_CORRELATION + _EAGER) for name in ("pearsonr", "linregress")},
    **{
        name: Unsupported(_RANKS + _EAGER)
        for name in ("spearmanr", "kendalltau", "theilslopes", "mannwhitneyu", "wilcoxon", "ks_1samp", "ks_2samp")
    },
    **{
        name: Unsupported(_TESTS + _EAGER)
        for name in ("ttest_1samp", "ttest_ind", "ttest_rel", "chisquare", "power_divergence", "f_oneway")
    },
    "differential_entropy": WholeAxis("values"),
    "binned_statistic": Unsupported(
        "binned statistics need the bin edges from the whole of x first (or given edges) and a reduction per bin "
        "across chunks: not built yet; compute it eagerly"
    ),
    **{name: Unsupported(_ELEMENTWISE) for name in ("boxcox", "yeojohnson")},
}
