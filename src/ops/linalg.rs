//! `scipy.linalg` counterparts: solvers, decompositions, matrix functions and special matrices.
