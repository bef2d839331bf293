"""`scipy.stats._discrete_distns`: the discrete distributions
``poisson(mu)``, ``binom(n, p)`` and ``nbinom(n, p)``, with SciPy's
methods and ``loc`` (see ``_distn_infrastructure``); their formulas are the
compiled ``torchbridge.ops`` code of ``src/ops/stats/discrete_distns.rs``.
"""

from __future__ import annotations

from typing import Any

from ._distn_infrastructure import rv_discrete

__all__: list[str] = ["binom", "nbinom", "poisson"]


class poisson_gen(rv_discrete):
    """A Poisson discrete random variable."""


class binom_gen(rv_discrete):
    """A binomial discrete random variable."""

    def _get_support(self, *shapes: Any) -> tuple[Any, Any]:
        return self.a, shapes[0]  # [0, n]


class nbinom_gen(rv_discrete):
    """A negative binomial discrete random variable."""


poisson = poisson_gen("poisson", ("mu",), a=0)
binom = binom_gen("binom", ("n", "p"), a=0)
nbinom = nbinom_gen("nbinom", ("n", "p"), a=0)
