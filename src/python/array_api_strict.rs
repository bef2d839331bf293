//! array-api-strict's arrays without the DLPack protocol: its `Array` wraps a
//! numpy ndarray (`_array`), so the per-call path reads that ndarray directly
//! (numpy's fast import) and builds results the way its own `from_dlpack`
//! does, `Array._new(ndarray, device=None)`, minus the per-call cost.
//!
//! Measured on a 1-element array (2-core machine): its `__dlpack__` checks the
//! library's flags and parses NumPy's version on every call (about 9 us), its
//! `from_dlpack` does the same plus `_new`, which compares the dtype against
//! each supported one in Python (about 7 us): `special.erf` took 9x the numpy
//! call. The result built here is the object `_new(ndarray, None)` builds,
//! with the same three attributes (`_array`, `_dtype`, `_device`): the dtype
//! and the device (`CPU_DEVICE`, what `from_dlpack` without `device=` gives,
//! whatever device the input was on) are learned from one real `_new` call per
//! NumPy dtype and reused. Anything unexpected goes the general way.

use std::sync::Mutex;

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// The namespace's module name (`__array_namespace__().__name__`).
pub(crate) const NAME: &str = "array_api_strict";

/// By NumPy dtype: the `_dtype` and `_device` that `_new(ndarray, None)` sets.
type ByDtype = Mutex<Vec<(Py<PyAny>, Py<PyAny>, Py<PyAny>)>>;

/// What building a result needs, looked up on first use.
struct Strict {
    array_type: Py<PyType>,
    /// `object.__new__` (the type's own `__new__` refuses direct construction).
    object_new: Py<PyAny>,
    /// Whether `Array`'s state is exactly the three slots set here: a version
    /// that adds state keeps `_new` on every call.
    three_slots: bool,
    by_dtype: ByDtype,
}

fn strict(py: Python<'_>) -> PyResult<&Strict> {
    static STRICT: PyOnceLock<Strict> = PyOnceLock::new();
    STRICT.get_or_try_init(py, || {
        let array_type = py.import("array_api_strict._array_object")?.getattr("Array")?.cast_into::<PyType>()?;
        let object_new = py.import("builtins")?.getattr("object")?.getattr("__new__")?;
        let slots: Vec<String> = array_type.getattr("__slots__").and_then(|s| s.extract()).unwrap_or_default();
        let mut slots: Vec<&str> = slots.iter().map(String::as_str).filter(|s| *s != "__weakref__").collect();
        slots.sort_unstable();
        let three_slots = slots == ["_array", "_device", "_dtype"];
        Ok(Strict {
            array_type: array_type.unbind(),
            object_new: object_new.unbind(),
            three_slots,
            by_dtype: Mutex::default(),
        })
    })
}

/// The ndarray inside `obj` (an array of the array-api-strict namespace),
/// when `obj` is exactly its `Array` and holds an exact ndarray; `None` otherwise.
pub(crate) fn inner<'py>(obj: &Bound<'py, PyAny>, ndarray: &Bound<'py, PyType>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = obj.py();
    if !obj.get_type().is(strict(py)?.array_type.bind(py)) {
        return Ok(None);
    }
    let Ok(array) = obj.getattr(intern!(py, "_array")) else { return Ok(None) };
    Ok(array.get_type().is(ndarray).then_some(array))
}

/// `array` (an exact ndarray) as the `Array` that `Array._new(array, None)`
/// returns, which is what the namespace's `from_dlpack(array)` returns.
pub(crate) fn build<'py>(array: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = array.py();
    let strict = strict(py)?;
    let dtype = array.getattr(intern!(py, "dtype"))?;
    let known = {
        let found = strict.by_dtype.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        found
            .iter()
            .find(|(numpy_dtype, ..)| numpy_dtype.bind(py).is(&dtype))
            .map(|(_, xp_dtype, device)| (xp_dtype.clone_ref(py), device.clone_ref(py)))
    };
    let array_type = strict.array_type.bind(py);
    let Some((xp_dtype, device)) = known else {
        // The first result of this dtype: the library's own constructor (which
        // also raises its own error for a dtype it does not support).
        let made = array_type.call_method1(intern!(py, "_new"), (&array, py.None()))?;
        if strict.three_slots && made.get_type().is(array_type) && made.getattr(intern!(py, "_array"))?.is(&array) {
            let xp_dtype = made.getattr(intern!(py, "_dtype"))?.unbind();
            let device = made.getattr(intern!(py, "_device"))?.unbind();
            let mut found = strict.by_dtype.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            found.push((dtype.unbind(), xp_dtype, device));
        }
        return Ok(made);
    };
    let made = strict.object_new.bind(py).call1((array_type,))?;
    made.setattr(intern!(py, "_array"), array)?;
    made.setattr(intern!(py, "_dtype"), xp_dtype)?;
    made.setattr(intern!(py, "_device"), device)?;
    Ok(made)
}
