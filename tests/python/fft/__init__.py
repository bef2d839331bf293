"""torchbridge.fft against scipy.fft, in files named after SciPy's modules
(``_basic``, ``_realtransforms``, ``_helper``) and the cross-cutting checks;
the shared tables and helpers are ``cases``."""
