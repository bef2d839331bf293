"""torchbridge.linalg against scipy.linalg, in files named after SciPy's
modules (``_basic``, ``_decomp``, ``_decomp_qr``, ``_decomp_svd``,
``_matfuncs``, ``_misc``, ``_special_matrices``) and the checks across every
routine (``routines``, ``batches``, ``libraries``, ``bad_input``); the shared
inputs, tables and helpers are ``cases``."""
