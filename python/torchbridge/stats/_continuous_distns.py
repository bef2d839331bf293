"""`scipy.stats._continuous_distns`: the continuous distributions
``norm``, ``expon``, ``uniform``, ``laplace``, ``logistic``, ``cauchy``,
``lognorm(s)``, ``gamma(a)``, ``beta(a, b)``, ``t(df)``, ``chi2(df)``,
``f(dfn, dfd)`` and ``weibull_min(c)``, with SciPy's methods and
``loc``/``scale`` (see ``_distn_infrastructure``); their formulas are the
compiled ``torchbridge.ops`` code of ``src/ops/stats/continuous_distns.rs``.
"""

from __future__ import annotations

import numpy as np

from ._distn_infrastructure import rv_continuous

__all__: list[str] = [
    "beta",
    "cauchy",
    "chi2",
    "expon",
    "f",
    "gamma",
    "laplace",
    "logistic",
    "lognorm",
    "norm",
    "t",
    "uniform",
    "weibull_min",
]


class norm_gen(rv_continuous):
    """A normal continuous random variable."""


class expon_gen(rv_continuous):
    """An exponential continuous random variable."""


class uniform_gen(rv_continuous):
    """A uniform continuous random variable."""


class laplace_gen(rv_continuous):
    """A Laplace continuous random variable."""


class logistic_gen(rv_continuous):
    """A logistic (or Sech-squared) continuous random variable."""


class cauchy_gen(rv_continuous):
    """A Cauchy continuous random variable."""


class lognorm_gen(rv_continuous):
    """A lognormal continuous random variable."""


class gamma_gen(rv_continuous):
    """A gamma continuous random variable."""


class beta_gen(rv_continuous):
    """A beta continuous random variable."""


class t_gen(rv_continuous):
    """A Student's t continuous random variable."""


class chi2_gen(rv_continuous):
    """A chi-squared continuous random variable."""


class f_gen(rv_continuous):
    """An F continuous random variable."""


class weibull_min_gen(rv_continuous):
    """Weibull minimum continuous random variable."""


norm = norm_gen("norm")
expon = expon_gen("expon", a=0.0)
uniform = uniform_gen("uniform", a=0.0, b=1.0)
laplace = laplace_gen("laplace")
logistic = logistic_gen("logistic")
cauchy = cauchy_gen("cauchy")
lognorm = lognorm_gen("lognorm", ("s",), a=0.0)
gamma = gamma_gen("gamma", ("a",), a=0.0)
beta = beta_gen("beta", ("a", "b"), a=0.0, b=1.0)
t = t_gen("t", ("df",))
chi2 = chi2_gen("chi2", ("df",), a=0.0)
f = f_gen("f", ("dfn", "dfd"), a=0.0)
weibull_min = weibull_min_gen("weibull_min", ("c",), a=0.0, b=np.inf)
