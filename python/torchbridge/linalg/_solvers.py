"""scipy.linalg._solvers: the Sylvester and Lyapunov equations (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

solve_sylvester = _compiled.solve_sylvester
solve_continuous_lyapunov = _compiled.solve_continuous_lyapunov
solve_discrete_lyapunov = _compiled.solve_discrete_lyapunov
solve_continuous_are = _compiled.solve_continuous_are
solve_discrete_are = _compiled.solve_discrete_are

__all__ = [
    "solve_sylvester",
    "solve_continuous_lyapunov",
    "solve_discrete_lyapunov",
    "solve_continuous_are",
    "solve_discrete_are",
]
