//! The morphology of `scipy.ndimage._morphology` (see
//! `crate::ops::ndimage::morphology`).

use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyList, PyString, PyTuple};
use tch::Tensor;

use super::super::container::{wrap, Library};
use super::super::signal::{map, map_tuple, Device};
use super::filters::{axes_ref, footprint_arg, output_arg, warn_size_ignored, weights_arg, Axes, Floats, Ints, Modes};
use crate::ops::ndimage::filters::{Footprint, Mode, PerAxis};
use crate::ops::ndimage::morphology::{self as ops, Binary, Grey, Structure};
use crate::{DType, Error};

/// What the binary routines' docstrings end with.
macro_rules! binary_note {
    () => {
        concat!(
            "torchbridge: composites of libtorch ops on the input's device, the result in\n\
             the caller's array type: every structure position is a view of the input padded\n\
             with ``border_value``, folded with ``logical_and`` (erosion) or ``logical_or``\n\
             (dilation, with the reflected structure, as SciPy computes it); repeated passes\n\
             stop at ``iterations`` or, for ``iterations < 1``, when a pass changes nothing.\n\
             The values are SciPy's. ``brute_force`` is accepted (both of SciPy's paths give\n\
             the same result). ``output`` may be ``None`` or a dtype; an array to write into\n\
             raises ``UnsupportedParameterError`` (a ``NotImplementedError``). SciPy's\n\
             ``RuntimeError`` for a structure of another rank, an empty structure or a mask\n\
             of another shape is a ``ValueError`` (``InvalidArgumentError``) here.\n\n",
            device_note!()
        )
    };
}

/// What the grey routines' docstrings end with.
macro_rules! grey_note {
    () => {
        concat!(
            "torchbridge: composites of libtorch ops on the input's device, the result in\n\
             the caller's array type. A box (``size``, an all-true ``footprint``) is the\n\
             separable minimum/maximum filter; another footprint or a ``structure`` follows\n\
             SciPy's C loop one comparison at a time (the first position in float64, the\n\
             others in the input's type, so integer sums wrap as SciPy's do, and a NaN is\n\
             kept only where SciPy keeps it). Every boundary mode is SciPy's index map.\n\
             ``output`` may be ``None`` or a dtype; an array to write into raises\n\
             ``UnsupportedParameterError`` (a ``NotImplementedError``).\n\n",
            device_note!()
        )
    };
}

/// `iterations`: an integer (SciPy's `operator.index`).
fn iterations_arg(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyString>() {
        return Err(pyo3::exceptions::PyTypeError::new_err("iterations parameter should be an integer"));
    }
    obj.call_method0("__index__")
        .and_then(|i| i.extract::<i64>())
        .map_err(|_| pyo3::exceptions::PyTypeError::new_err("iterations parameter should be an integer"))
}

/// A structure argument (nonzero: in it); `None` stays `None`.
fn structure_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Footprint>> {
    footprint_arg(obj)
}

/// A grey structure (its values, float64).
fn grey_structure_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Structure>> {
    let Some(obj) = obj.filter(|o| !o.is_none()) else { return Ok(None) };
    let (values, shape) = weights_arg(obj)?;
    Ok(Some(Structure { shape, values }))
}

/// The arrays a binary routine computes on: the input and, if given, the mask.
fn with_mask<'a, 'py>(input: &'a Bound<'py, PyAny>, mask: Option<&'a Bound<'py, PyAny>>) -> Vec<&'a Bound<'py, PyAny>> {
    let mut arrays = vec![input];
    arrays.extend(mask.filter(|m| !m.is_none()));
    arrays
}

/// Which binary routine.
#[derive(Clone, Copy)]
enum BinaryOp {
    Erosion,
    Dilation,
    Opening,
    Closing,
}

#[allow(clippy::too_many_arguments)]
fn binary(
    py: Python<'_>,
    op: BinaryOp,
    input: &Bound<'_, PyAny>,
    structure: Option<&Bound<'_, PyAny>>,
    iterations: &Bound<'_, PyAny>,
    mask: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    border_value: &Bound<'_, PyAny>,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let iterations = iterations_arg(iterations)?;
    let structure = structure_arg(structure)?;
    let output = output_arg(py, output)?;
    let border_value = border_value.is_truthy()?;
    map(py, device, &with_mask(input, mask), move |t| {
        let b = Binary {
            structure: structure.as_ref(),
            iterations,
            mask: t.get(1),
            border_value,
            origin: origin.0,
            axes: axes_ref(&axes),
        };
        match op {
            BinaryOp::Erosion => ops::binary_erosion(&t[0], &b, output),
            BinaryOp::Dilation => ops::binary_dilation(&t[0], &b, output),
            BinaryOp::Opening => ops::binary_opening(&t[0], &b, output),
            BinaryOp::Closing => ops::binary_closing(&t[0], &b, output),
        }
    })
}

/// Generate a binary structure for binary morphological operations.
///
/// The ``3**rank`` boolean array whose elements lie within squared distance
/// ``connectivity`` of the centre (``connectivity < 1`` counts as 1; a 0-d
/// ``True`` for ``rank < 1``), as a NumPy array, as SciPy returns it.
///
/// torchbridge: built on the host (a structure is a few elements), not on a device.
///
/// ``device=None`` (keyword-only): the result is a NumPy array on the host;
/// ``None`` and ``"cpu"`` are accepted, another device raises
/// ``InvalidArgumentError``.
#[pyfunction]
#[pyo3(signature = (rank, connectivity, *, device = None), text_signature = "(rank, connectivity, *, device=None)")]
fn generate_binary_structure(
    py: Python<'_>,
    rank: i64,
    connectivity: i64,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    if let Some(d) = device.filter(|d| !d.is_none()) {
        if d.str()?.to_cow()? != "cpu" {
            return Err(Error::InvalidArgument(format!(
                "generate_binary_structure returns a NumPy array: device must be None or 'cpu', not {}",
                d.repr()?
            ))
            .into());
        }
    }
    let f = ops::generate_binary_structure(rank, connectivity)?;
    let t = ops::footprint_tensor(&f, tch::Device::Cpu)?;
    wrap(py, &Library::NumPy, t, false)
}

/// Iterate a structure by dilating it with itself.
///
/// ``structure`` dilated by itself ``iterations - 1`` times (a copy for
/// fewer than 2 iterations); with ``origin``, also the origin times
/// ``iterations``, as SciPy returns them.
///
/// torchbridge: the dilations by libtorch ops, in the structure's array type.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (structure, iterations, origin = None, *, device = None), text_signature = "(structure, iterations, origin=None, *, device=None)")]
fn iterate_structure(
    py: Python<'_>,
    structure: &Bound<'_, PyAny>,
    iterations: i64,
    origin: Option<Ints>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let out = map(py, device, &[structure], move |t| ops::iterate_structure(&t[0], iterations))?;
    match origin {
        Some(o) if iterations >= 2 => {
            let ndim: usize = out.bind(py).getattr("ndim")?.extract()?;
            let origins: Vec<i64> = o.0.normalize(ndim).map_err(PyErr::from)?.iter().map(|&v| iterations * v).collect();
            Ok(PyTuple::new(py, [out, PyList::new(py, origins)?.into_any().unbind()])?.into_any().unbind())
        }
        _ => Ok(out),
    }
}

/// Multidimensional binary erosion with a given structuring element.
///
/// An element stays true where every position of ``structure`` (by default
/// the axis neighbours) shifted onto it is true, ``iterations`` times
/// (``< 1``: until nothing changes), only within ``mask``, with
/// ``border_value`` beyond the edges.
///
#[doc = binary_note!()]
#[pyfunction]
#[pyo3(signature = (input, structure = None, iterations = None, mask = None, output = None, border_value = None, origin = Ints(PerAxis::Same(0)), brute_force = false, *, axes = None, device = None), text_signature = "(input, structure=None, iterations=1, mask=None, output=None, border_value=0, origin=0, brute_force=False, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn binary_erosion(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    structure: Option<&Bound<'_, PyAny>>,
    iterations: Option<&Bound<'_, PyAny>>,
    mask: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    border_value: Option<&Bound<'_, PyAny>>,
    origin: Ints,
    brute_force: bool,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = brute_force;
    let (one, zero) = defaults(py)?;
    binary(
        py,
        BinaryOp::Erosion,
        input,
        structure,
        iterations.unwrap_or(&one),
        mask,
        output,
        border_value.unwrap_or(&zero),
        origin,
        axes,
        device,
    )
}

/// The defaults 1 and 0 as Python integers.
fn defaults(py: Python<'_>) -> PyResult<(Bound<'_, PyAny>, Bound<'_, PyAny>)> {
    Ok((1i64.into_pyobject(py)?.into_any(), 0i64.into_pyobject(py)?.into_any()))
}

/// Multidimensional binary dilation with the given structuring element.
///
/// An element becomes true where a position of the reflected ``structure``
/// (by default the axis neighbours) shifted onto it is true, ``iterations``
/// times (``< 1``: until nothing changes), only within ``mask``, with
/// ``border_value`` beyond the edges.
///
#[doc = binary_note!()]
#[pyfunction]
#[pyo3(signature = (input, structure = None, iterations = None, mask = None, output = None, border_value = None, origin = Ints(PerAxis::Same(0)), brute_force = false, *, axes = None, device = None), text_signature = "(input, structure=None, iterations=1, mask=None, output=None, border_value=0, origin=0, brute_force=False, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn binary_dilation(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    structure: Option<&Bound<'_, PyAny>>,
    iterations: Option<&Bound<'_, PyAny>>,
    mask: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    border_value: Option<&Bound<'_, PyAny>>,
    origin: Ints,
    brute_force: bool,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = brute_force;
    let (one, zero) = defaults(py)?;
    binary(
        py,
        BinaryOp::Dilation,
        input,
        structure,
        iterations.unwrap_or(&one),
        mask,
        output,
        border_value.unwrap_or(&zero),
        origin,
        axes,
        device,
    )
}

/// Multidimensional binary opening with the given structuring element.
///
/// The erosion, then the dilation, with the same structure, iterations,
/// mask and border.
///
#[doc = binary_note!()]
#[pyfunction]
#[pyo3(signature = (input, structure = None, iterations = None, output = None, origin = Ints(PerAxis::Same(0)), mask = None, border_value = None, brute_force = false, *, axes = None, device = None), text_signature = "(input, structure=None, iterations=1, output=None, origin=0, mask=None, border_value=0, brute_force=False, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn binary_opening(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    structure: Option<&Bound<'_, PyAny>>,
    iterations: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    origin: Ints,
    mask: Option<&Bound<'_, PyAny>>,
    border_value: Option<&Bound<'_, PyAny>>,
    brute_force: bool,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = brute_force;
    let (one, zero) = defaults(py)?;
    binary(
        py,
        BinaryOp::Opening,
        input,
        structure,
        iterations.unwrap_or(&one),
        mask,
        output,
        border_value.unwrap_or(&zero),
        origin,
        axes,
        device,
    )
}

/// Multidimensional binary closing with the given structuring element.
///
/// The dilation, then the erosion, with the same structure, iterations,
/// mask and border.
///
#[doc = binary_note!()]
#[pyfunction]
#[pyo3(signature = (input, structure = None, iterations = None, output = None, origin = Ints(PerAxis::Same(0)), mask = None, border_value = None, brute_force = false, *, axes = None, device = None), text_signature = "(input, structure=None, iterations=1, output=None, origin=0, mask=None, border_value=0, brute_force=False, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn binary_closing(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    structure: Option<&Bound<'_, PyAny>>,
    iterations: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    origin: Ints,
    mask: Option<&Bound<'_, PyAny>>,
    border_value: Option<&Bound<'_, PyAny>>,
    brute_force: bool,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let _ = brute_force;
    let (one, zero) = defaults(py)?;
    binary(
        py,
        BinaryOp::Closing,
        input,
        structure,
        iterations.unwrap_or(&one),
        mask,
        output,
        border_value.unwrap_or(&zero),
        origin,
        axes,
        device,
    )
}

/// Multidimensional binary propagation with the given structuring element.
///
/// The dilation of ``input`` repeated until nothing changes, only within
/// ``mask``: the parts of ``mask`` connected to ``input``.
///
#[doc = binary_note!()]
#[pyfunction]
#[pyo3(signature = (input, structure = None, mask = None, output = None, border_value = None, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, structure=None, mask=None, output=None, border_value=0, origin=0, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn binary_propagation(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    structure: Option<&Bound<'_, PyAny>>,
    mask: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    border_value: Option<&Bound<'_, PyAny>>,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let structure = structure_arg(structure)?;
    let output = output_arg(py, output)?;
    let border_value = match border_value {
        Some(b) => b.is_truthy()?,
        None => false,
    };
    map(py, device, &with_mask(input, mask), move |t| {
        let b = Binary {
            structure: structure.as_ref(),
            iterations: -1,
            mask: t.get(1),
            border_value,
            origin: origin.0,
            axes: axes_ref(&axes),
        };
        ops::binary_propagation(&t[0], &b, output)
    })
}

/// Fill the holes in binary objects.
///
/// The input with every background region not connected (by ``structure``)
/// to the array's border set true.
///
#[doc = binary_note!()]
#[pyfunction]
#[pyo3(signature = (input, structure = None, output = None, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, structure=None, output=None, origin=0, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn binary_fill_holes(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    structure: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let structure = structure_arg(structure)?;
    let output = output_arg(py, output)?;
    map(py, device, &[input], move |t| {
        ops::binary_fill_holes(&t[0], structure.as_ref(), output, &origin.0, axes_ref(&axes))
    })
}

/// Multidimensional binary hit-or-miss transform.
///
/// Where ``structure1`` fits the foreground and ``structure2`` (by default
/// the complement of ``structure1``) fits the background.
///
#[doc = binary_note!()]
#[pyfunction]
#[pyo3(signature = (input, structure1 = None, structure2 = None, output = None, origin1 = Ints(PerAxis::Same(0)), origin2 = None, *, axes = None, device = None), text_signature = "(input, structure1=None, structure2=None, output=None, origin1=0, origin2=None, *, axes=None, device=None)")]
#[allow(clippy::too_many_arguments)]
fn binary_hit_or_miss(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    structure1: Option<&Bound<'_, PyAny>>,
    structure2: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    origin1: Ints,
    origin2: Option<Ints>,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let s1 = structure_arg(structure1)?;
    let s2 = structure_arg(structure2)?;
    let output = output_arg(py, output)?;
    map(py, device, &[input], move |t| {
        ops::binary_hit_or_miss(
            &t[0],
            s1.as_ref(),
            s2.as_ref(),
            output,
            &origin1.0,
            origin2.as_ref().map(|o| &o.0),
            axes_ref(&axes),
        )
    })
}

/// Which grey routine.
#[derive(Clone, Copy)]
enum GreyOp {
    Erosion,
    Dilation,
    Opening,
    Closing,
    Gradient,
    Laplace,
    WhiteTophat,
    BlackTophat,
}

#[allow(clippy::too_many_arguments)]
fn grey(
    py: Python<'_>,
    op: GreyOp,
    input: &Bound<'_, PyAny>,
    size: Option<Ints>,
    footprint: Option<&Bound<'_, PyAny>>,
    structure: Option<&Bound<'_, PyAny>>,
    output: Option<&Bound<'_, PyAny>>,
    mode: Modes,
    cval: f64,
    origin: Ints,
    axes: Option<Axes>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let footprint = footprint_arg(footprint)?;
    let structure = grey_structure_arg(structure)?;
    warn_size_ignored(py, &size, &footprint)?;
    let output: Option<DType> = output_arg(py, output)?;
    map(py, device, &[input], move |t| {
        let g = Grey {
            size: size.map(|s| s.0),
            footprint: footprint.as_ref(),
            structure: structure.as_ref(),
            mode: mode.0,
            cval,
            origin: origin.0,
            axes: axes_ref(&axes),
        };
        let x: &Tensor = &t[0];
        match op {
            GreyOp::Erosion => ops::grey_erosion(x, &g, output),
            GreyOp::Dilation => ops::grey_dilation(x, &g, output),
            GreyOp::Opening => ops::grey_opening(x, &g, output),
            GreyOp::Closing => ops::grey_closing(x, &g, output),
            GreyOp::Gradient => ops::morphological_gradient(x, &g),
            GreyOp::Laplace => ops::morphological_laplace(x, &g),
            GreyOp::WhiteTophat => ops::tophat(x, &g, output, true),
            GreyOp::BlackTophat => ops::tophat(x, &g, output, false),
        }
    })
}

/// The grey routines share SciPy's signature.
// rustfmt re-indents a multi-line attribute inside a macro on every run: the attribute stays on one line.
#[rustfmt::skip]
macro_rules! grey_routine {
    ($name:ident, $op:expr, $summary:literal, $what:literal) => {
        #[doc = $summary]
        #[doc = ""]
        #[doc = $what]
        #[doc = ""]
        #[doc = grey_note!()]
        #[pyfunction]
        #[pyo3(signature = (input, size = None, footprint = None, structure = None, output = None, mode = Modes(PerAxis::Same(Mode::Reflect)), cval = 0.0, origin = Ints(PerAxis::Same(0)), *, axes = None, device = None), text_signature = "(input, size=None, footprint=None, structure=None, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None, device=None)")]
        #[allow(clippy::too_many_arguments)]
        fn $name(
            py: Python<'_>,
            input: &Bound<'_, PyAny>,
            size: Option<Ints>,
            footprint: Option<&Bound<'_, PyAny>>,
            structure: Option<&Bound<'_, PyAny>>,
            output: Option<&Bound<'_, PyAny>>,
            mode: Modes,
            cval: f64,
            origin: Ints,
            axes: Option<Axes>,
            device: Device<'_, '_>,
        ) -> PyResult<Py<PyAny>> {
            grey(py, $op, input, size, footprint, structure, output, mode, cval, origin, axes, device)
        }
    };
}

grey_routine!(grey_erosion, GreyOp::Erosion, "Calculate a greyscale erosion, using either a structuring element, or a footprint corresponding to a flat structuring element.", "The minimum over ``size``, ``footprint`` or ``structure`` of the input minus the structure's values.");
grey_routine!(grey_dilation, GreyOp::Dilation, "Calculate a greyscale dilation, using either a structuring element, or a footprint corresponding to a flat structuring element.", "The maximum over the reflected ``size``, ``footprint`` or ``structure`` of the input plus the structure's values.");
grey_routine!(
    grey_opening,
    GreyOp::Opening,
    "Multidimensional grayscale opening.",
    "The grey erosion, then the grey dilation."
);
grey_routine!(
    grey_closing,
    GreyOp::Closing,
    "Multidimensional grayscale closing.",
    "The grey dilation, then the grey erosion."
);
grey_routine!(
    morphological_gradient,
    GreyOp::Gradient,
    "Multidimensional morphological gradient.",
    "The grey dilation minus the grey erosion, in the input's dtype (SciPy ignores an ``output`` dtype here)."
);
grey_routine!(morphological_laplace, GreyOp::Laplace, "Multidimensional morphological laplace.", "The grey dilation plus the grey erosion minus twice the input, in the input's dtype (SciPy ignores an ``output`` dtype here).");
grey_routine!(
    white_tophat,
    GreyOp::WhiteTophat,
    "Multidimensional white tophat filter.",
    "The input minus its grey opening (``xor`` for booleans)."
);
grey_routine!(
    black_tophat,
    GreyOp::BlackTophat,
    "Multidimensional black tophat filter.",
    "The grey closing minus the input (``xor`` for booleans)."
);

/// A distance transform's result in the caller's array type: the tuple
/// `(distances, indices)` where `both` were asked for, else the one `run`
/// gives.
fn transform_result(
    py: Python<'_>,
    device: Device<'_, '_>,
    input: &Bound<'_, PyAny>,
    both: bool,
    run: impl FnOnce(Vec<Tensor>) -> crate::Result<Vec<Tensor>> + Send,
) -> PyResult<Py<PyAny>> {
    if both {
        return map_tuple(py, device, &[input], run);
    }
    map(py, device, &[input], move |t| {
        run(t)?.pop().ok_or_else(|| Error::InvalidArgument("no result asked for".into()))
    })
}

/// SciPy refuses output arrays for the transforms only after its own checks.
fn transform_outputs(
    return_distances: bool,
    return_indices: bool,
    distances: Option<&Bound<'_, PyAny>>,
    indices: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let distances = distances.is_some_and(|d| !d.is_none());
    let indices = indices.is_some_and(|i| !i.is_none());
    let mut errors = Vec::new();
    if !return_distances && !return_indices {
        errors.push("at least one of return_distances/return_indices must be True");
    }
    if distances && !return_distances {
        errors.push("return_distances must be True if distances is supplied");
    }
    if indices && !return_indices {
        errors.push("return_indices must be True if indices is supplied");
    }
    if !errors.is_empty() {
        return Err(Error::InvalidArgument(errors.join(", ")).into());
    }
    if distances || indices {
        return Err(Error::NotImplemented(
            "distances= or indices= as an array (filled in place) is not implemented; use the results".into(),
        )
        .into());
    }
    Ok(())
}

/// Distance transform function by a brute force algorithm.
///
/// The distance from every nonzero element of ``input`` to the nearest zero
/// element (``metric``: ``"euclidean"``, float64, with ``sampling`` the
/// spacing along each axis; ``"taxicab"``/``"cityblock"``/``"manhattan"`` or
/// ``"chessboard"``, uint32, ``sampling`` ignored as SciPy ignores it),
/// and/or (``return_indices``) the index of that zero element, ``(ndim,) +
/// input.shape`` int32.
///
/// torchbridge: a libtorch composite on the input's device: every nonzero
/// element is compared with SciPy's candidates (the zeros next to a nonzero
/// element) in batches of about 2^18 pairs, so memory stays bounded; the
/// squared distances are summed in SciPy's order and ties are broken as
/// SciPy breaks them (the last candidate in C order), so distances and
/// indices are SciPy's. ``distances``/``indices`` as arrays raise
/// ``UnsupportedParameterError``; SciPy's ``RuntimeError`` for an unknown
/// metric is a ``ValueError`` (``InvalidArgumentError``).
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (input, metric = "euclidean".to_string(), sampling = None, return_distances = true, return_indices = false, distances = None, indices = None, *, device = None), text_signature = "(input, metric='euclidean', sampling=None, return_distances=True, return_indices=False, distances=None, indices=None, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn distance_transform_bf(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    metric: String,
    sampling: Option<Floats>,
    return_distances: bool,
    return_indices: bool,
    distances: Option<&Bound<'_, PyAny>>,
    indices: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    transform_outputs(return_distances, return_indices, distances, indices)?;
    let metric = ops::Metric::from_name(&metric)?;
    let both = return_distances && return_indices;
    let run = move |t: Vec<Tensor>| -> crate::Result<Vec<Tensor>> {
        let r = ops::distance_transform_bf(
            &t[0],
            metric,
            sampling.as_ref().map(|s| &s.0),
            return_distances,
            return_indices,
        )?;
        Ok(r.distances.into_iter().chain(r.indices).collect())
    };
    transform_result(py, device, input, both, run)
}

/// Exact Euclidean distance transform.
///
/// The distance from every nonzero element of ``input`` to the nearest
/// zero element, with ``sampling`` the spacing along each axis, and/or
/// (``return_indices``) the index of that zero element, ``(ndim,) +
/// input.shape`` int32.
///
/// torchbridge: on the CPU, SciPy's own separable algorithm (Maurer et al.'s
/// Voronoi transform, one native pass per axis, its lines shared among the
/// call's threads), evaluated in SciPy's floating-point order, so distances
/// and indices are SciPy's. On another device, a separable exact transform
/// of libtorch ops: the nearest zero along the first axis by two scans, then
/// along each further axis the lower envelope of parabolas (Felzenszwalb and
/// Huttenlocher), built for all lines at once; the distances are computed
/// from the feature indices as SciPy computes them, and where several zeros
/// are equally near, the index may be another of them than SciPy's (the
/// distance is the same).
/// ``distances``/``indices`` as arrays raise ``UnsupportedParameterError``.
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (input, sampling = None, return_distances = true, return_indices = false, distances = None, indices = None, *, device = None), text_signature = "(input, sampling=None, return_distances=True, return_indices=False, distances=None, indices=None, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn distance_transform_edt(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    sampling: Option<Floats>,
    return_distances: bool,
    return_indices: bool,
    distances: Option<&Bound<'_, PyAny>>,
    indices: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    transform_outputs(return_distances, return_indices, distances, indices)?;
    let both = return_distances && return_indices;
    let run = move |t: Vec<Tensor>| -> crate::Result<Vec<Tensor>> {
        let r = ops::distance_transform_edt(&t[0], sampling.as_ref().map(|s| &s.0), return_distances, return_indices)?;
        Ok(r.distances.into_iter().chain(r.indices).collect())
    };
    transform_result(py, device, input, both, run)
}

/// Distance transform for chamfer type of transforms.
///
/// The number of ``metric`` steps (``"chessboard"``, ``"taxicab"`` /
/// ``"cityblock"`` / ``"manhattan"``, or a ``3**ndim`` structure) from
/// every nonzero element of ``input`` to the nearest zero element, int32
/// (-1 everywhere when there is no zero).
///
/// torchbridge: repeated dilations of the zeros by the metric on the
/// input's device, counting the passes each element stays uncovered.
/// ``return_indices=True`` and ``distances``/``indices`` arrays raise
/// ``UnsupportedParameterError`` (a ``NotImplementedError``).
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (input, metric = None, return_distances = true, return_indices = false, distances = None, indices = None, *, device = None), text_signature = "(input, metric='chessboard', return_distances=True, return_indices=False, distances=None, indices=None, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn distance_transform_cdt(
    py: Python<'_>,
    input: &Bound<'_, PyAny>,
    metric: Option<&Bound<'_, PyAny>>,
    return_distances: bool,
    return_indices: bool,
    distances: Option<&Bound<'_, PyAny>>,
    indices: Option<&Bound<'_, PyAny>>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    transform_outputs(return_distances, return_indices, distances, indices)?;
    let ndim: i64 = py.import("numpy")?.getattr("ndim")?.call1((input,))?.extract()?;
    let metric = match metric.filter(|m| !m.is_none()) {
        None => ops::generate_binary_structure(ndim, ndim)?,
        Some(m) if m.is_instance_of::<PyString>() => {
            let name: String = m.extract()?;
            match name.as_str() {
                "taxicab" | "cityblock" | "manhattan" => ops::generate_binary_structure(ndim, 1)?,
                "chessboard" => ops::generate_binary_structure(ndim, ndim)?,
                _ => return Err(Error::InvalidArgument("invalid metric provided".into()).into()),
            }
        }
        Some(m) => footprint_arg(Some(m))?.ok_or_else(|| Error::InvalidArgument("invalid metric provided".into()))?,
    };
    if metric.shape.iter().any(|&k| k != 3) {
        return Err(Error::InvalidArgument("metric sizes must be equal to 3".into()).into());
    }
    if return_indices {
        return Err(Error::NotImplemented(
            "distance_transform_cdt(return_indices=True) is not implemented; distance_transform_edt gives indices"
                .into(),
        )
        .into());
    }
    map(py, device, &[input], move |t| ops::distance_transform_cdt(&t[0], &metric))
}

/// Adds the morphology to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(generate_binary_structure, module)?)?;
    module.add_function(wrap_pyfunction!(iterate_structure, module)?)?;
    module.add_function(wrap_pyfunction!(binary_erosion, module)?)?;
    module.add_function(wrap_pyfunction!(binary_dilation, module)?)?;
    module.add_function(wrap_pyfunction!(binary_opening, module)?)?;
    module.add_function(wrap_pyfunction!(binary_closing, module)?)?;
    module.add_function(wrap_pyfunction!(binary_propagation, module)?)?;
    module.add_function(wrap_pyfunction!(binary_fill_holes, module)?)?;
    module.add_function(wrap_pyfunction!(binary_hit_or_miss, module)?)?;
    module.add_function(wrap_pyfunction!(grey_erosion, module)?)?;
    module.add_function(wrap_pyfunction!(grey_dilation, module)?)?;
    module.add_function(wrap_pyfunction!(grey_opening, module)?)?;
    module.add_function(wrap_pyfunction!(grey_closing, module)?)?;
    module.add_function(wrap_pyfunction!(morphological_gradient, module)?)?;
    module.add_function(wrap_pyfunction!(morphological_laplace, module)?)?;
    module.add_function(wrap_pyfunction!(white_tophat, module)?)?;
    module.add_function(wrap_pyfunction!(black_tophat, module)?)?;
    module.add_function(wrap_pyfunction!(distance_transform_edt, module)?)?;
    module.add_function(wrap_pyfunction!(distance_transform_bf, module)?)?;
    module.add_function(wrap_pyfunction!(distance_transform_cdt, module)?)
}
