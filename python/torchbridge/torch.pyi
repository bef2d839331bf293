# ``torchbridge.torch`` mirrors the whole ``torch`` namespace lazily: every
# attribute is the torch object of that name, with callables, submodules and
# classes wrapped so that they accept and return foreign arrays.
from typing import Any

def __getattr__(name: str) -> Any: ...
def __dir__() -> list[str]: ...
