"""Type stubs for the Rust extension module ``torchbridge._core``: its
top-level classes and functions. The stubs of its submodules beside this file
are generated from the runtime by ``.ci/stubs.py``."""

from typing import Any, final

from typing_extensions import disjoint_base

from . import aten as aten
from . import fft as fft
from . import linalg as linalg
from . import ndimage as ndimage
from . import signal as signal
from . import spatial_distance as spatial_distance
from . import special as special
from . import stats as stats

__all__ = [
    "__version__",
    "DLPackTensor",
    "Container",
    "torch_views",
    "numpy_call",
    "ProxyCall",
    "build_info",
    "set_num_threads",
    "thread_plan",
    "special",
    "fft",
    "linalg",
    "ndimage",
    "signal",
    "spatial_distance",
    "stats",
    "aten",
]

__version__: str

@final
class DLPackTensor:
    """A libtorch result offered through ``__dlpack__``; consumable many times."""

    def __dlpack__(
        self,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...

@final
class Container:
    """The caller's array library, carried from apply's inputs to its results."""

    @property
    def name(self) -> str: ...
    @property
    def is_torch(self) -> bool: ...
    def wrap(self, tensor: Any) -> Any: ...

def torch_views(arrays: list[Any], device: Any = None) -> tuple[list[Any], Container]: ...
def numpy_call(function: Any, array: Any, kwargs: dict[str, Any] | None, convert: Any, declined: Any) -> Any: ...

@disjoint_base
class ProxyCall:
    """A ``torchbridge.torch`` function proxy's call (``torchbridge.torch._Function`` subclasses it)."""

    def __new__(cls, target: Any, pure: bool, general: Any, convert: Any) -> ProxyCall: ...
    def __call__(self, *args: Any, **kwargs: Any) -> Any: ...

def build_info() -> dict[str, object]: ...
def set_num_threads(threads: int) -> None: ...
def thread_plan(elements: int) -> dict[str, object]: ...
