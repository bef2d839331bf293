"""`scipy.ndimage._measurements`: ``label`` (connected components) and
``find_objects`` (their bounding boxes).

The compiled functions of ``torchbridge._core.ndimage``; ``torchbridge.ndimage``
gives them their public face (see ``torchbridge._dispatch``).
"""

from __future__ import annotations

from .._core.ndimage import find_objects, label

__all__: list[str] = ["find_objects", "label"]
