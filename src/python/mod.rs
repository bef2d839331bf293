//! The Python extension module `torchbridge._core` (feature `python`).
//!
//! A thin layer: it parses arguments, classifies the caller's array library,
//! calls the pyo3-free core, and maps [`crate::Error`] to exceptions.

mod array_api_strict;
mod aten;
mod bridge;
mod container;
mod errors;
mod exported;
mod fft;
mod linalg;
mod ndimage;
mod placement;
mod signal;
mod spatial;
mod special;
mod stats;

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Build-time and run-time facts for `torchbridge.info()`.
#[pyfunction]
fn build_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let info = PyDict::new(py);
    info.set_item("torchbridge", env!("CARGO_PKG_VERSION"))?;
    info.set_item("libtorch", env!("TORCHBRIDGE_TORCH_VERSION"))?;
    info.set_item("libtorch_lib", crate::LIBTORCH_LIB)?;
    info.set_item("torch_threads", tch::get_num_threads())?;
    info.set_item("cuda_available", crate::cuda_available())?;
    info.set_item("cuda_devices", crate::cuda_device_count())?;
    info.set_item("gil_release_min_elements", container::GIL_RELEASE_MIN_ELEMENTS)?;
    info.set_item("thread_fitting", crate::threads::enabled())?;
    info.set_item("serial_below_elements", crate::threads::SERIAL_BELOW)?;
    Ok(info)
}

/// Sets libtorch's intra-op thread count (`torch.set_num_threads` without torch).
#[pyfunction]
fn set_num_threads(threads: i32) -> PyResult<()> {
    if threads < 1 {
        return Err(errors::Class::InvalidArgument.err(format!("threads must be at least 1, got {threads}")));
    }
    tch::set_num_threads(threads);
    Ok(())
}

/// What the thread policy does on the calling thread for a call on
/// `elements` input elements, without computing anything: its team before,
/// during and after the call, the cores other work leaves free and the cores
/// this process may use (``torchbridge``'s compute path fits every call this
/// way; see ``torchbridge.set_num_threads``).
#[pyfunction]
fn thread_plan(py: Python<'_>, elements: usize) -> PyResult<Bound<'_, PyDict>> {
    let before = crate::threads::current_team();
    let (during, chosen) = {
        let guard = crate::threads::fit(elements);
        (crate::threads::current_team(), guard.team())
    };
    let after = crate::threads::current_team();
    let plan = PyDict::new(py);
    plan.set_item("before", before)?;
    plan.set_item("team", during)?;
    plan.set_item("chosen", chosen)?;
    plan.set_item("after", after)?;
    plan.set_item("free_cores", crate::threads::free_cores())?;
    plan.set_item("cores", crate::threads::cores())?;
    plan.set_item("serial_below", crate::threads::SERIAL_BELOW)?;
    plan.set_item("enabled", crate::threads::enabled())?;
    Ok(plan)
}

/// A new submodule `torchbridge._core.<name>`. Its functions take that
/// dotted name as their `__module__`, so that pickle finds them by reference
/// once [`attach`] has registered the module in `sys.modules`.
fn submodule<'py>(parent: &Bound<'py, PyModule>, name: &str) -> PyResult<Bound<'py, PyModule>> {
    PyModule::new(parent.py(), &format!("torchbridge._core.{name}"))
}

/// Adds `module` (made by [`submodule`]) to `parent` under its last name and
/// to `sys.modules` under its full one.
fn attach(parent: &Bound<'_, PyModule>, module: &Bound<'_, PyModule>) -> PyResult<()> {
    let full = module.name()?;
    let full = full.to_cow()?;
    let short = full.rsplit('.').next().unwrap_or(&full);
    parent.add(short, module)?;
    parent.py().import("sys")?.getattr("modules")?.set_item(full.as_ref(), module)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<exported::DlpackTensor>()?;
    m.add_class::<bridge::Container>()?;
    m.add_function(wrap_pyfunction!(bridge::torch_views, m)?)?;
    m.add_class::<bridge::ProxyCall>()?;
    m.add_function(wrap_pyfunction!(bridge::numpy_call, m)?)?;
    m.add_function(wrap_pyfunction!(build_info, m)?)?;
    m.add_function(wrap_pyfunction!(set_num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(thread_plan, m)?)?;
    special::register(m)?;
    fft::register(m)?;
    linalg::register(m)?;
    ndimage::register(m)?;
    signal::register(m)?;
    spatial::register(m)?;
    stats::register(m)?;
    aten::register(m)?;
    Ok(())
}
