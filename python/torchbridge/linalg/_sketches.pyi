from typing import Any

from .._device import DeviceLike

__all__ = ["clarkson_woodruff_transform"]

def clarkson_woodruff_transform(
    input_matrix: Any, sketch_size: Any, rng: Any = None, *, seed: Any = None, device: DeviceLike = None
) -> Any: ...
