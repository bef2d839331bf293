"""scipy.linalg._special_matrices: the constructors (compiled; see ``torchbridge._dispatch``)."""

from __future__ import annotations

from .._core import linalg as _compiled

toeplitz = _compiled.toeplitz
circulant = _compiled.circulant
hankel = _compiled.hankel
block_diag = _compiled.block_diag
khatri_rao = _compiled.khatri_rao
companion = _compiled.companion
fiedler = _compiled.fiedler
fiedler_companion = _compiled.fiedler_companion
leslie = _compiled.leslie
convolution_matrix = _compiled.convolution_matrix
hilbert = _compiled.hilbert
invhilbert = _compiled.invhilbert
helmert = _compiled.helmert
dft = _compiled.dft
pascal = _compiled.pascal
invpascal = _compiled.invpascal
_hadamard = _compiled.hadamard

__all__ = [
    "toeplitz",
    "circulant",
    "hankel",
    "block_diag",
    "khatri_rao",
    "companion",
    "fiedler",
    "fiedler_companion",
    "leslie",
    "convolution_matrix",
    "hilbert",
    "invhilbert",
    "helmert",
    "dft",
    "hadamard",
    "pascal",
    "invpascal",
]

# The one Python function here: SciPy's default `dtype=int` is a type, which
# the text signature of a compiled function cannot hold (inspect evaluates
# only literals there), so this def carries the signature.


def hadamard(n, dtype=int, *, device=None):
    """Construct an Hadamard matrix.

    torchbridge: Sylvester's construction (``scipy.linalg.hadamard``), built by
    libtorch and returned as a numpy array of ``dtype``, as SciPy's.

    ``device=None`` (keyword-only): where libtorch builds the matrix before it
    is handed back as numpy (``"cpu"``, ``"cuda"``, ``"cuda:N"`` or a
    ``torch.device``; a device libtorch cannot reach raises ``DeviceError``).
    """
    return _hadamard(n, dtype, device=device)
