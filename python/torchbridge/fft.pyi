from collections.abc import Sequence
from typing import Any, Literal

from ._device import DeviceLike

__all__ = [
    "fft",
    "ifft",
    "fft2",
    "ifft2",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfft2",
    "irfft2",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "hfft2",
    "ihfft2",
    "hfftn",
    "ihfftn",
    "dct",
    "idct",
    "dst",
    "idst",
    "dctn",
    "idctn",
    "dstn",
    "idstn",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
    "next_fast_len",
    "prev_fast_len",
]

_Norm = Literal["backward", "ortho", "forward"] | None
_Shape = int | Sequence[int] | None
_Axes = int | Sequence[int] | None
_Type = Literal[1, 2, 3, 4]


def fft(x: Any, n: int | None = None, axis: int = -1, norm: _Norm = None, overwrite_x: bool = False,
        workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def ifft(x: Any, n: int | None = None, axis: int = -1, norm: _Norm = None, overwrite_x: bool = False,
         workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def rfft(x: Any, n: int | None = None, axis: int = -1, norm: _Norm = None, overwrite_x: bool = False,
         workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def irfft(x: Any, n: int | None = None, axis: int = -1, norm: _Norm = None, overwrite_x: bool = False,
          workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def hfft(x: Any, n: int | None = None, axis: int = -1, norm: _Norm = None, overwrite_x: bool = False,
         workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def ihfft(x: Any, n: int | None = None, axis: int = -1, norm: _Norm = None, overwrite_x: bool = False,
          workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def fftn(x: Any, s: _Shape = None, axes: _Axes = None, norm: _Norm = None, overwrite_x: bool = False,
         workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def ifftn(x: Any, s: _Shape = None, axes: _Axes = None, norm: _Norm = None, overwrite_x: bool = False,
          workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def fft2(x: Any, s: _Shape = None, axes: _Axes = (-2, -1), norm: _Norm = None, overwrite_x: bool = False,
         workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def ifft2(x: Any, s: _Shape = None, axes: _Axes = (-2, -1), norm: _Norm = None, overwrite_x: bool = False,
          workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def rfftn(x: Any, s: _Shape = None, axes: _Axes = None, norm: _Norm = None, overwrite_x: bool = False,
          workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def irfftn(x: Any, s: _Shape = None, axes: _Axes = None, norm: _Norm = None, overwrite_x: bool = False,
           workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def rfft2(x: Any, s: _Shape = None, axes: _Axes = (-2, -1), norm: _Norm = None, overwrite_x: bool = False,
          workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def irfft2(x: Any, s: _Shape = None, axes: _Axes = (-2, -1), norm: _Norm = None, overwrite_x: bool = False,
           workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def hfftn(x: Any, s: _Shape = None, axes: _Axes = None, norm: _Norm = None, overwrite_x: bool = False,
          workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def ihfftn(x: Any, s: _Shape = None, axes: _Axes = None, norm: _Norm = None, overwrite_x: bool = False,
           workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def hfft2(x: Any, s: _Shape = None, axes: _Axes = (-2, -1), norm: _Norm = None, overwrite_x: bool = False,
          workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def ihfft2(x: Any, s: _Shape = None, axes: _Axes = (-2, -1), norm: _Norm = None, overwrite_x: bool = False,
           workers: int | None = None, *, plan: None = None, device: DeviceLike = None) -> Any: ...
def dct(x: Any, type: _Type = 2, n: int | None = None, axis: int = -1, norm: _Norm = None,
        overwrite_x: bool = False, workers: int | None = None, orthogonalize: bool | None = None, *, device: DeviceLike = None) -> Any: ...
def idct(x: Any, type: _Type = 2, n: int | None = None, axis: int = -1, norm: _Norm = None,
         overwrite_x: bool = False, workers: int | None = None, orthogonalize: bool | None = None, *, device: DeviceLike = None) -> Any: ...
def dst(x: Any, type: _Type = 2, n: int | None = None, axis: int = -1, norm: _Norm = None,
        overwrite_x: bool = False, workers: int | None = None, orthogonalize: bool | None = None, *, device: DeviceLike = None) -> Any: ...
def idst(x: Any, type: _Type = 2, n: int | None = None, axis: int = -1, norm: _Norm = None,
         overwrite_x: bool = False, workers: int | None = None, orthogonalize: bool | None = None, *, device: DeviceLike = None) -> Any: ...
def dctn(x: Any, type: _Type = 2, s: _Shape = None, axes: _Axes = None, norm: _Norm = None,
         overwrite_x: bool = False, workers: int | None = None, *,
         orthogonalize: bool | None = None, device: DeviceLike = None) -> Any: ...
def idctn(x: Any, type: _Type = 2, s: _Shape = None, axes: _Axes = None, norm: _Norm = None,
          overwrite_x: bool = False, workers: int | None = None,
          orthogonalize: bool | None = None, *, device: DeviceLike = None) -> Any: ...
def dstn(x: Any, type: _Type = 2, s: _Shape = None, axes: _Axes = None, norm: _Norm = None,
         overwrite_x: bool = False, workers: int | None = None,
         orthogonalize: bool | None = None, *, device: DeviceLike = None) -> Any: ...
def idstn(x: Any, type: _Type = 2, s: _Shape = None, axes: _Axes = None, norm: _Norm = None,
          overwrite_x: bool = False, workers: int | None = None,
          orthogonalize: bool | None = None, *, device: DeviceLike = None) -> Any: ...
def fftfreq(n: int, d: float = 1.0, *, xp: Any = None, device: Any = None) -> Any: ...
def rfftfreq(n: int, d: float = 1.0, *, xp: Any = None, device: Any = None) -> Any: ...
def fftshift(x: Any, axes: _Axes = None, *, device: DeviceLike = None) -> Any: ...
def ifftshift(x: Any, axes: _Axes = None, *, device: DeviceLike = None) -> Any: ...
def next_fast_len(target: int, real: bool = False) -> int: ...
def prev_fast_len(target: int, real: bool = False) -> int: ...
