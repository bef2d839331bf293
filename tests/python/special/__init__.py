"""torchbridge.special against scipy.special, in files named after SciPy's modules
and the kernel families of src/ops/special/; the shared case table is ``cases``."""
