//! `scipy.linalg` counterparts: solvers, decompositions, matrix functions and
//! special matrices, on `tch::Tensor`s.
//!
//! Conventions, as SciPy 1.17 has them:
//!
//! - **dtypes.** Decompositions compute in the LAPACK type SciPy picks
//!   ([`lapack_kind`]: bool, 8/16-bit integers, float16 and float32 give
//!   float32; 32/64-bit integers and float64 give float64; complex stays
//!   complex). `solve`, `expm` and the trigonometric matrix functions follow
//!   NumPy's `result_type` instead ([`cdsz_kind`]: every integer gives
//!   float64). Special-matrix constructors keep their input's dtype.
//! - **batches.** Leading dimensions are a batch, as SciPy's
//!   `_apply_over_batch` treats them (libtorch's linear algebra is batched
//!   natively). Right-hand sides `b` are 1-D vectors or `(..., N, K)` stacks.
//! - **singular input.** Where SciPy raises `numpy.linalg.LinAlgError` these
//!   routines return [`Error::LinAlg`](crate::Error::LinAlg); the Python layer raises
//!   `torchbridge.LinAlgError` (a `numpy.linalg.LinAlgError`) for it.
//! - **non-finite input.** With `check_finite`, NaN or infinity raises
//!   [`Error::InvalidArgument`](crate::Error::InvalidArgument) ("array must not contain infs or NaNs").
//!
//! The files follow SciPy's private modules: [`basic`] (`_basic.py`),
//! [`decomp`], [`decomp_cholesky`], [`decomp_lu`], [`decomp_qr`],
//! [`decomp_svd`], [`decomp_polar`], [`matfuncs`], [`special_matrices`],
//! [`misc`], [`procrustes`], [`array_utils`] (`_cythonized_array_utils`),
//! with the LAPACK ports in `lapack/`. Every routine is re-exported here, so
//! `torchbridge::ops::linalg::<routine>` is its path.

pub mod array_utils;
pub mod basic;
pub mod decomp;
pub mod decomp_cholesky;
pub mod decomp_cossin;
pub mod decomp_ldl;
pub mod decomp_lu;
pub mod decomp_polar;
pub mod decomp_qr;
pub mod decomp_qz;
pub mod decomp_schur;
pub mod decomp_svd;
pub mod decomp_update;
pub(crate) mod dtypes;
mod host;
mod lapack;
pub mod matfuncs;
pub mod matfuncs_inv_ssq;
pub mod matfuncs_sqrtm;
pub mod misc;
pub mod procrustes;
mod shapes;
pub mod sketches;
mod small;
pub mod solvers;
pub mod special_matrices;

pub use array_utils::{bandwidth, ishermitian, issymmetric, Bandwidth, SymmetryOptions};
pub use basic::{
    det, inv, lstsq, matmul_toeplitz, matrix_balance, pinv, pinvh, solve, solve_banded, solve_circulant,
    solve_toeplitz, solve_triangular, solveh_banded, BalanceOptions, Balanced, InvOptions, Lstsq, LstsqDriver,
    LstsqOptions, Pinv, PinvOptions, PinvhOptions, Singular, SolveCirculantOptions, SolveOptions,
    SolveTriangularOptions, Solved, SolvehBandedOptions, Structure,
};
pub use decomp::hessenberg;
pub use decomp::{
    cdf2rdf, eig, eig_banded, eigh, eigh_tridiagonal, Eig, EigBandedOptions, EigOptions, Eigh, EighOptions,
    EighTridiagonalOptions, EighType, Subset,
};
pub use decomp_cholesky::{
    cho_factor, cho_solve, cho_solve_banded, cholesky, cholesky_banded, ChoFactor, CholeskyOptions,
};
pub use decomp_cossin::{cossin, cossin_split, CosSin, CosSinOptions};
pub use decomp_ldl::{ldl, Ldl, LdlOptions};
pub use decomp_lu::{lu, lu_factor, lu_solve, Lu, LuFactor, LuOptions, LuSolveOptions};
pub use decomp_polar::{polar, Polar, Side};
pub use decomp_qr::{
    qr, qr_multiply, rq, Qr, QrMode, QrMultiply, QrMultiplyMode, QrMultiplyOptions, QrOptions, QrRaw, Rq,
};
pub use decomp_qz::{eig_generalized, ordqz, qz, Qz, QzOptions, QzOutput, QzSort};
pub use decomp_schur::{rsf2csf, schur, Schur, SchurOptions, SchurOutput, SchurSort};
pub use decomp_svd::{diagsvd, null_space, orth, subspace_angles, svd, NullSpaceOptions, Svd, SvdOptions};
pub use decomp_update::{qr_delete, qr_insert, qr_update, Which};
pub use dtypes::{cdsz_kind, eps, lapack_kind};
pub use matfuncs::{
    coshm, cosm, expm, expm_cond, expm_frechet, matrix_function, sinhm, sinm, tanhm, tanm, ExpmFrechet, MatrixFunction,
};
pub use matfuncs::{funm, signm, Funm};
pub use matfuncs_inv_ssq::{fractional_matrix_power, logm, matrix_power, Logm, Singularity};
pub use matfuncs_sqrtm::{sqrtm, Sqrtm};
pub use misc::{norm, NormOptions, NormOrder};
pub use procrustes::{orthogonal_procrustes, Procrustes};
pub use sketches::clarkson_woodruff_transform;
pub use solvers::{
    solve_continuous_are, solve_continuous_lyapunov, solve_discrete_are, solve_discrete_lyapunov, solve_sylvester,
    AreInput, DiscreteLyapunovMethod, SylvesterSolution,
};
pub use special_matrices::{
    block_diag, circulant, companion, convolution_matrix, dft, fiedler, fiedler_companion, hadamard, hankel, helmert,
    hilbert, invhilbert, invpascal, khatri_rao, leslie, pascal, toeplitz, ConvolutionMode, DftScale, HelmertOptions,
    InvHilbertOptions, PascalKind, PascalOptions,
};

/// SciPy's `check_finite`: refuse NaN and infinity (the default) or leave
/// them to the computation (SciPy's performance hint).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CheckFinite {
    /// `check_finite=True`: a ValueError for non-finite input.
    #[default]
    Yes,
    /// `check_finite=False`.
    No,
}

impl CheckFinite {
    /// From SciPy's boolean keyword.
    pub fn from_flag(check_finite: bool) -> CheckFinite {
        if check_finite {
            CheckFinite::Yes
        } else {
            CheckFinite::No
        }
    }

    /// Whether the check runs.
    pub fn enabled(self) -> bool {
        self == CheckFinite::Yes
    }
}

/// SciPy's `trans`: which system a triangular or LU solve solves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Trans {
    /// `0`/`'N'`: `a x = b`.
    #[default]
    N = 0,
    /// `1`/`'T'`: `a^T x = b`.
    T = 1,
    /// `2`/`'C'`: `a^H x = b`.
    C = 2,
}

impl Trans {
    /// SciPy's integer codes 0, 1, 2.
    pub fn from_code(code: i64) -> Result<Trans, crate::Error> {
        match code {
            0 => Ok(Trans::N),
            1 => Ok(Trans::T),
            2 => Ok(Trans::C),
            other => Err(invalid(format!("trans must be one of 0, 1, 2, 'N', 'T', 'C'; got {other}"))),
        }
    }
}

impl std::str::FromStr for Trans {
    type Err = crate::Error;

    /// SciPy's letter codes `'N'`, `'T'`, `'C'`.
    fn from_str(code: &str) -> Result<Trans, crate::Error> {
        match code {
            "N" => Ok(Trans::N),
            "T" => Ok(Trans::T),
            "C" => Ok(Trans::C),
            other => Err(invalid(format!("trans must be one of 0, 1, 2, 'N', 'T', 'C'; got '{other}'"))),
        }
    }
}

fn invalid(message: impl Into<String>) -> crate::Error {
    crate::Error::InvalidArgument(message.into())
}

fn not_implemented(message: impl Into<String>) -> crate::Error {
    crate::Error::NotImplemented(message.into())
}
