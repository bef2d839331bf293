"""``torchbridge.torch``: the whole ``torch`` namespace, on any array.

Every callable reachable from the ``torch`` module works on foreign arrays::

    import numpy as np, torchbridge as tb
    x = np.linspace(-3, 3, 7)
    tb.torch.special.erfcx(x)                         # numpy in, numpy out
    tb.torch.cumsum(x, dim=0)
    tb.torch.linalg.eigh(a)                           # a named tuple of numpy arrays
    tb.torch.nn.functional.conv1d(s, w, padding=2)
    tb.torch.Tensor.unfold(x, 0, 5, 1)                # torch.Tensor methods too

Array arguments (NumPy, JAX, array-api, CuPy, any ``__dlpack__`` producer;
positional, keyword, inside lists, tuples and dicts) are viewed zero-copy as
torch tensors; all arrays of one call must come from one library
(``MixedContainersError`` otherwise). Tensor results, also inside tuples,
lists, dicts and named tuples such as ``torch.return_types``, come back in the
caller's array type on the same device; other results pass through. A call
without any array argument is plain torch (``tb.torch.arange(3)`` is a
``torch.Tensor``). ``dtype=`` also accepts numpy dtypes.

Writes: a function that writes into an argument (a name ending in ``_`` such
as ``add_`` or ``normal_``, in-place dunders like ``__iadd__`` and
``__setitem__``, ``out=``, ``inplace=True``) writes straight into a writable
caller array (zero-copy) and returns the caller's own array object; into
read-only memory (numpy ``writeable=False``, JAX arrays) it raises
``InvalidArgumentError`` instead of writing into a copy. Any other function
sees read-only inputs as copies, so it can never modify them.

The ``torch`` package is imported on first use of this namespace, not by
``import torchbridge`` (``torchbridge.ops`` needs no Python torch at all).
"""

import builtins as _builtins
import sys as _sys
import types as _types

from . import _core as _tb_core
from ._apply import convert_results, numpy_container, numpy_result, numpy_views

_torch_module = None


def _torch():
    global _torch_module
    if _torch_module is None:
        import torch

        _torch_module = torch
    return _torch_module


#: id(real object) -> (real object, proxy); the real object is held so its id stays unique.
_proxies = {}

#: Module attributes that belong to this module, not to torch.
_OWN = frozenset({"__path__", "__file__", "__spec__", "__loader__", "__package__", "__builtins__", "__cached__"})


def _wrap(value, qualname, name):
    """The proxy for a torch module, class or callable; other values as they are."""
    if isinstance(value, _types.ModuleType):
        kind = _Module
    elif isinstance(value, type):
        kind = _Class
    elif callable(value):
        kind = _Function
    else:
        return value
    key = (id(value), name)
    found = _proxies.get(key)
    if found is not None and found[0] is value:
        return found[1]
    proxy = kind(value, qualname, name)
    _proxies[key] = (value, proxy)
    return proxy


def _is_foreign_array(value, torch):
    if isinstance(value, torch.Tensor):
        return True
    if isinstance(value, (str, bytes, int, float, complex, bool, type)) or value is None:
        return False
    return hasattr(type(value), "__dlpack__")


def _collect(value, torch, found):
    if isinstance(value, (list, tuple)):
        for item in value:
            _collect(item, torch, found)
    elif isinstance(value, dict):
        for item in value.values():
            _collect(item, torch, found)
    elif _is_foreign_array(value, torch):
        found[id(value)] = value


def _substitute(value, views, torch):
    if isinstance(value, list):
        return [_substitute(v, views, torch) for v in value]
    if isinstance(value, tuple):
        items = [_substitute(v, views, torch) for v in value]
        if hasattr(value, "_fields"):
            return type(value)(*items)
        return tuple(items) if type(value) is tuple else type(value)(items)
    if isinstance(value, dict):
        return {k: _substitute(v, views, torch) for k, v in value.items()}
    view = views.get(id(value))
    return value if view is None else view


#: Dunders that write into ``self``.
_WRITING_DUNDERS = frozenset(
    f"__i{op}__"
    for op in (
        "add", "sub", "mul", "matmul", "truediv", "floordiv", "div", "mod", "pow",
        "and", "or", "xor", "lshift", "rshift",
    )
) | {"__setitem__"}


def _writes_first_argument(name, kwargs):
    if name.startswith("__") and name.endswith("__"):
        return name in _WRITING_DUNDERS
    return name.endswith("_") or kwargs.get("inplace") is True


def _check_writable(qualname, name, args, kwargs, torch):
    targets = {}
    if args and _writes_first_argument(name, kwargs):
        _collect(args[0], torch, targets)
    if kwargs.get("out") is not None:
        _collect(kwargs["out"], torch, targets)
    targets = [t for t in targets.values() if not isinstance(t, torch.Tensor)]
    if not targets:
        return
    for reason in _tb_core.aten.unwritable(targets):
        if reason is not None:
            from .errors import InvalidArgumentError

            raise InvalidArgumentError(
                f"{qualname} writes into its argument, {reason}; torchbridge never writes into memory "
                "it may not write (and will not write into a hidden copy): pass a writable array or "
                "use the out-of-place function"
            )


def _numpy_dtype_to_torch(value, torch):
    numpy = _sys.modules.get("numpy")
    if numpy is None:
        return value
    if isinstance(value, numpy.dtype) or (isinstance(value, type) and issubclass(value, numpy.generic)):
        found = getattr(torch, numpy.dtype(value).name, None)
        if isinstance(found, torch.dtype):
            return found
    return value


#: type -> whether its instances are foreign arrays (``None``: a leaf that is not an array, such as a
#: number; absent: a container or a type not seen yet, which takes the general path).
_leaf_types = {int: None, float: None, complex: None, bool: None, str: None, type(None): None}


def _leaf_kind(cls, torch):
    """The ``_leaf_types`` entry for ``cls``, learned on first sight; ``False`` for containers."""
    kind = _leaf_types.get(cls, False)
    if kind is False and not issubclass(cls, (list, tuple, dict)):
        kind = _leaf_types[cls] = True if _is_foreign_array_type(cls, torch) else None
    return kind


def _is_foreign_array_type(cls, torch):
    return issubclass(cls, torch.Tensor) or (not issubclass(cls, type) and hasattr(cls, "__dlpack__"))


#: ``_call_positional``'s answer where the general path must run.
_GENERAL = object()


def _call_positional(fn, args, torch):
    """``_call`` for the common case: positional arguments that are arrays or plain values (no
    containers, no keywords, a function that writes into nothing). ``_GENERAL`` where that does not hold."""
    positions = []
    for i, arg in enumerate(args):
        kind = _leaf_types.get(type(arg), False)
        if kind is False:
            kind = _leaf_kind(type(arg), torch)
            if kind is False:
                return _GENERAL
        if kind:
            positions.append(i)
    if not positions:
        return fn(*args)
    views = numpy_views([args[i] for i in positions], torch)
    if views is not None:  # exact writable ndarrays: torch's own zero-copy views (see ``_apply``)
        if len(positions) == len(args):
            result = fn(*views)
        else:
            call_args = list(args)
            for i, view in zip(positions, views):
                call_args[i] = view
            result = fn(*call_args)
        if type(result) is torch.Tensor:
            for position, view in zip(positions, views):
                if result is view:
                    return args[position]
            return numpy_result(result)
        return convert_results(result, numpy_container(), torch, {id(t): args[i] for i, t in zip(positions, views)})
    if len(positions) == len(args):
        tensors, container = _tb_core.torch_views(list(args))
        result = fn(*tensors)
    else:
        tensors, container = _tb_core.torch_views([args[i] for i in positions])
        call_args = list(args)
        for i, tensor in zip(positions, tensors):
            call_args[i] = tensor
        result = fn(*call_args)
    if container.is_torch:
        return result
    if type(result) is torch.Tensor:
        for position, tensor in zip(positions, tensors):
            if result is tensor:  # a function returning its argument (``contiguous`` on a contiguous one)
                return args[position]
        return container.wrap(result)
    return convert_results(result, container, torch, {id(t): args[i] for i, t in zip(positions, tensors)})


def _call(fn, qualname, name, args, kwargs):
    torch = _torch_module or _torch()
    if not kwargs and not _writes_first_argument(name, kwargs):
        result = _call_positional(fn, args, torch)
        if result is not _GENERAL:
            return result
    if "dtype" in kwargs:
        kwargs["dtype"] = _numpy_dtype_to_torch(kwargs["dtype"], torch)
    found = {}
    _collect(args, torch, found)
    _collect(kwargs, torch, found)
    if not found:
        return fn(*args, **kwargs)
    arrays = list(found.values())
    _check_writable(qualname, name, args, kwargs, torch)
    tensors, container = _tb_core.torch_views(arrays)
    by_id = {id(a): t for a, t in zip(arrays, tensors)}
    result = fn(*_substitute(args, by_id, torch), **_substitute(kwargs, by_id, torch))
    if container.is_torch:
        return result
    originals = {id(t): a for a, t in zip(arrays, tensors)}
    return convert_results(result, container, torch, originals)


def _call_proxy(proxy, args, kwargs):
    """A function proxy's call that its numpy fast path (``_tb_core.ProxyCall``) does not take."""
    return _call(proxy._tb_target, proxy._tb_qualname, proxy._tb_name, args, kwargs)


def _convert_proxy_result(result, view, array):
    """A result of the numpy fast path that is not a ``torch.Tensor`` (tuples, subclasses, others):
    converted, the view itself coming back as the caller's array."""
    return convert_results(result, numpy_container(), _torch_module or _torch(), {id(view): array})


#: Each proxy class's instance layout. ``_Proxy`` holds the methods only and adds no layout of its own,
#: so that ``_Function`` can derive from both it and ``_tb_core.ProxyCall``.
_PROXY_SLOTS = ("_tb_target", "_tb_qualname", "_tb_name", "__dict__")


class _Proxy:
    __slots__ = ()

    def __init__(self, target, qualname, name):
        object.__setattr__(self, "_tb_target", target)
        object.__setattr__(self, "_tb_qualname", qualname)
        object.__setattr__(self, "_tb_name", name)

    def __getattr__(self, attr):
        if attr.startswith("_tb_"):
            raise AttributeError(attr)
        value = getattr(self._tb_target, attr)
        wrapped = _wrap(value, f"{self._tb_qualname}.{attr}", attr)
        if wrapped is not value or not attr.startswith("__"):
            self.__dict__[attr] = wrapped
        return wrapped

    def __setattr__(self, attr, value):
        setattr(self._tb_target, attr, value)
        self.__dict__.pop(attr, None)

    def __delattr__(self, attr):
        delattr(self._tb_target, attr)
        self.__dict__.pop(attr, None)

    def __dir__(self):
        return dir(self._tb_target)

    @property
    def __wrapped__(self):
        return self._tb_target

    @property
    def __doc__(self):
        return getattr(self._tb_target, "__doc__", None)

    def __repr__(self):
        return f"<torchbridge proxy of {self._tb_target!r}>"


class _Module(_Proxy):
    # A torch (sub)module whose callables work on foreign arrays. (No class
    # docstrings on proxies: ``__doc__`` is the wrapped object's.)
    __slots__ = _PROXY_SLOTS
    __doc__ = _Proxy.__dict__["__doc__"]


class _Function(_tb_core.ProxyCall, _Proxy):
    # A torch callable on foreign arrays (its attributes, such as an
    # operator's overloads, are wrapped too). Calling it is ``ProxyCall``'s
    # ``__call__``, in Rust: the commonest call, one exact numpy array and no
    # keywords, takes the numpy fast path (``_apply``'s) there, with no Python
    # frame; every other call goes to ``_call``.
    __slots__ = _PROXY_SLOTS
    __doc__ = _Proxy.__dict__["__doc__"]

    def __new__(cls, target, qualname, name):
        # called without keywords, it writes into no argument (decided once, by its name):
        # only such calls may take the fast path
        pure = not _writes_first_argument(name, {})
        return super().__new__(cls, target, pure, _call_proxy, _convert_proxy_result)

    @property
    def __name__(self):
        return getattr(self._tb_target, "__name__", self._tb_name)


class _Class(_Function):
    # A torch class: its methods work on foreign arrays
    # (``tb.torch.Tensor.unfold(x, 0, 5, 1)``), calling it constructs with
    # converted arguments, and ``isinstance`` checks against it work.
    __slots__ = ()
    __doc__ = _Proxy.__dict__["__doc__"]

    def __instancecheck__(self, instance):
        return isinstance(instance, self._tb_target)

    def __subclasscheck__(self, subclass):
        return issubclass(subclass, self._tb_target)


# Wrapped names that are also builtins (``bool``, ``float``, ``int``, ``complex``, ...): cached here, since
# as module globals they would shadow the builtins this module's own code calls.
_shadowing = {}


def __getattr__(name):
    if name in _OWN:
        raise AttributeError(name)
    if name in _shadowing:
        return _shadowing[name]
    value = _wrap(getattr(_torch(), name), f"torchbridge.torch.{name}", name)
    if hasattr(_builtins, name):
        _shadowing[name] = value
    else:
        globals()[name] = value
    return value


def __dir__():
    return dir(_torch())
