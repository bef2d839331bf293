//! `device=`: where a call computes when the caller chooses, and the explicit
//! copies that choice costs.
//!
//! Without `device=`, a call computes where its arrays live (Python scalars and
//! lists follow the arrays; arrays on two devices are an error). With it, every
//! input is copied to that device (no copy when already there), the call
//! computes there, and each result is copied back to the device the caller's
//! arrays live on, since results come back in the caller's own container on
//! the caller's device. The choice lives in a thread-local scope for the length
//! of one call, so that routines written in Python (several `_core` calls) and
//! routines written in Rust share one mechanism.

use std::cell::Cell;

use pyo3::prelude::*;
use pyo3::types::PyString;
use tch::Tensor;

use super::errors::Class;
use crate::{cuda_device_count, Device};

/// A device the caller asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Requested {
    Cpu,
    /// `"cuda"` names no ordinal: the inputs' CUDA device, else cuda:0.
    Cuda(Option<usize>),
}

#[derive(Clone, Copy, Debug)]
struct Scope {
    requested: Requested,
    /// The device chosen, once the first input resolved a bare `"cuda"`.
    compute: Option<Device>,
    /// Where the caller's arrays live (the first array's device).
    home: Option<Device>,
}

thread_local! {
    static SCOPE: Cell<Option<Scope>> = const { Cell::new(None) };
}

const ACCEPTED: &str = "accepted: None, 'cpu', 'cuda', 'cuda:N' or a torch.device";

fn no_such_device(device: &Bound<'_, PyAny>) -> PyErr {
    let visible = cuda_device_count();
    let why = if visible == 0 {
        "libtorch sees no CUDA device in this process (no GPU or driver visible, or a CPU-only libtorch)".to_string()
    } else {
        format!("libtorch sees {visible} CUDA device(s): cuda:0 to cuda:{}", visible - 1)
    };
    Class::Device.err(format!("device={device:?} cannot be used: {why}"))
}

/// Parses a `device=` value and checks that libtorch can reach it.
fn parse(device: &Bound<'_, PyAny>) -> PyResult<Requested> {
    let (kind, index): (String, Option<i64>) = if let Ok(text) = device.cast::<PyString>() {
        let text = text.to_cow()?.trim().to_ascii_lowercase();
        match text.split_once(':') {
            None => (text, None),
            Some((kind, index)) => {
                let index = index.parse::<i64>().map_err(|_| {
                    Class::Device.err(format!("device={device:?}: the ordinal is not an integer; {ACCEPTED}"))
                })?;
                (kind.to_string(), Some(index))
            }
        }
    } else if let (Ok(kind), Ok(index)) = (device.getattr("type"), device.getattr("index")) {
        // torch.device (and look-alikes): `type` and an optional `index`.
        let kind = kind
            .extract::<String>()
            .map_err(|_| Class::Device.err(format!("device={device:?} has a non-string `type`; {ACCEPTED}")))?;
        (kind, index.extract::<Option<i64>>()?)
    } else {
        let type_name = device.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        return Err(Class::Device.err(format!("device= got {type_name} {device:?}; {ACCEPTED}")));
    };
    match (kind.as_str(), index) {
        ("cpu", None | Some(0)) => Ok(Requested::Cpu),
        ("cuda", None) => {
            if cuda_device_count() == 0 {
                return Err(no_such_device(device));
            }
            Ok(Requested::Cuda(None))
        }
        ("cuda", Some(index)) => {
            let index = usize::try_from(index)
                .map_err(|_| Class::Device.err(format!("device={device:?}: negative ordinal; {ACCEPTED}")))?;
            if index >= cuda_device_count() {
                return Err(no_such_device(device));
            }
            Ok(Requested::Cuda(Some(index)))
        }
        _ => Err(Class::Device.err(format!("device={device:?} is not a device torchbridge computes on; {ACCEPTED}"))),
    }
}

/// Restores the enclosing scope when a call ends, however it ends.
struct Restore(Option<Scope>);

impl Drop for Restore {
    fn drop(&mut self) {
        SCOPE.with(|scope| scope.set(self.0));
    }
}

/// Runs `call` computing on `device` (`None` or Python `None`: where the data is).
pub(crate) fn on_device<T>(device: Option<&Bound<'_, PyAny>>, call: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    let Some(device) = device.filter(|d| !d.is_none()) else {
        return call();
    };
    let requested = parse(device)?;
    let outer = SCOPE.with(|scope| scope.replace(Some(Scope { requested, compute: None, home: None })));
    let _restore = Restore(outer);
    call()
}

/// Whether this call computes where the caller chose (`device=` given).
pub(crate) fn chosen() -> bool {
    SCOPE.with(|scope| scope.get().is_some())
}

/// Moves an imported input to the chosen device, recording where the caller's
/// arrays live (`weak`: a Python scalar or list, which has no home of its own).
/// Without `device=`, returns the tensor as it is.
pub(crate) fn place(tensor: Tensor, weak: bool) -> PyResult<Tensor> {
    let Some(mut scope) = SCOPE.with(|scope| scope.get()) else {
        return Ok(tensor);
    };
    let here = Device::from_tch(tensor.device())?;
    if !weak {
        match scope.home {
            None => scope.home = Some(here),
            Some(home) if home != here => return Err(mixed_devices(home, here)),
            Some(_) => {}
        }
    }
    let target = *scope.compute.get_or_insert(match scope.requested {
        Requested::Cpu => Device::Cpu,
        Requested::Cuda(Some(index)) => Device::Cuda(index),
        Requested::Cuda(None) => match here {
            Device::Cuda(index) => Device::Cuda(index),
            Device::Cpu => Device::Cuda(0),
        },
    });
    SCOPE.with(|cell| cell.set(Some(scope)));
    move_to(tensor, target)
}

/// With `device=`: where results go back to (host memory when every input
/// was a Python value). `None` without `device=`.
pub(crate) fn home() -> Option<Device> {
    SCOPE.with(|scope| scope.get()).map(|scope| scope.home.unwrap_or(Device::Cpu))
}

/// Moves a result back to where the caller's arrays live (host memory when
/// every input was a Python value). Without `device=`, returns it as it is.
pub(crate) fn send_home(tensor: Tensor) -> PyResult<Tensor> {
    match home() {
        Some(home) => move_to(tensor, home),
        None => Ok(tensor),
    }
}

/// The one copy between devices: a no-op when `tensor` is already there.
pub(crate) fn move_to(tensor: Tensor, target: Device) -> PyResult<Tensor> {
    if Device::from_tch(tensor.device())? == target {
        return Ok(tensor);
    }
    Ok(tensor.f_to_device(target.to_tch()).map_err(crate::Error::from)?)
}

pub(crate) fn mixed_devices(first: Device, second: Device) -> PyErr {
    Class::Device.err(format!(
        "arrays on two devices in one call ({first} and {second}); move them to one \
         device, or pass device= to compute on one (copying the others there)"
    ))
}
