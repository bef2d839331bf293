"""``python -m torchbridge.dask``: prints the chunking table (Markdown), as the README shows it."""

from . import chunking_table

print(chunking_table(), end="")
