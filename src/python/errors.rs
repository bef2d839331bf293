//! The one mapping from [`Error`] to Python exceptions.
//!
//! The exception classes live in `torchbridge/errors.py` (each derives from
//! `TorchbridgeError` and a built-in such as `TypeError`); this module looks
//! them up once and instantiates them.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

use crate::Error;

/// The exception classes torchbridge raises, by name in `torchbridge.errors`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Class {
    DLPack,
    Dtype,
    NonNumericDtype,
    Device,
    InputType,
    MixedContainers,
    InvalidArgument,
    Axis,
    LinAlg,
    OutOfMemory,
    Torch,
    UnsupportedParameter,
    NotDifferentiable,
}

impl Class {
    const ALL: [Class; 13] = [
        Class::DLPack,
        Class::Dtype,
        Class::NonNumericDtype,
        Class::Device,
        Class::InputType,
        Class::MixedContainers,
        Class::InvalidArgument,
        Class::Axis,
        Class::LinAlg,
        Class::OutOfMemory,
        Class::Torch,
        Class::UnsupportedParameter,
        Class::NotDifferentiable,
    ];

    fn name(self) -> &'static str {
        match self {
            Class::DLPack => "DLPackError",
            Class::Dtype => "DtypeError",
            Class::NonNumericDtype => "NonNumericDtypeError",
            Class::Device => "DeviceError",
            Class::InputType => "InputTypeError",
            Class::MixedContainers => "MixedContainersError",
            Class::InvalidArgument => "InvalidArgumentError",
            Class::Axis => "AxisError",
            Class::LinAlg => "LinAlgError",
            Class::OutOfMemory => "OutOfMemoryError",
            Class::Torch => "TorchError",
            Class::UnsupportedParameter => "UnsupportedParameterError",
            Class::NotDifferentiable => "NotDifferentiableError",
        }
    }

    pub(crate) fn type_object<'py>(self, py: Python<'py>) -> PyResult<&'py Bound<'py, PyType>> {
        static CLASSES: PyOnceLock<Vec<Py<PyType>>> = PyOnceLock::new();
        let classes = CLASSES.get_or_try_init(py, || {
            let module = py.import("torchbridge.errors")?;
            Class::ALL
                .iter()
                .map(|class| Ok(module.getattr(class.name())?.cast_into::<PyType>()?.unbind()))
                .collect::<PyResult<Vec<_>>>()
        })?;
        Ok(classes[self as usize].bind(py))
    }

    /// A new exception of this class with `message`.
    pub(crate) fn err(self, message: impl Into<String>) -> PyErr {
        let message = message.into();
        Python::attach(|py| match self.type_object(py) {
            Ok(class) => PyErr::from_type(class.clone(), message),
            Err(lookup_failed) => lookup_failed,
        })
    }
}

/// The class each [`Error`] variant maps to: one exhaustive match, so a new
/// variant cannot reach Python without a class chosen for it.
fn class_of(err: &Error) -> Class {
    match err {
        Error::UnsupportedDtype { .. } | Error::DtypeNotAccepted { .. } => Class::Dtype,
        Error::UnsupportedDevice { .. } | Error::DeviceUnavailable(_) => Class::Device,
        Error::InvalidTensor(_) => Class::DLPack,
        Error::InvalidArgument(_) => Class::InvalidArgument,
        Error::NotImplemented(_) => Class::UnsupportedParameter,
        Error::AxisOutOfBounds { .. } => Class::Axis,
        Error::LinAlg(_) => Class::LinAlg,
        Error::OutOfMemory(_) => Class::OutOfMemory,
        Error::Torch(_) => Class::Torch,
    }
}

impl From<Error> for PyErr {
    fn from(err: Error) -> PyErr {
        match err {
            // NumPy's AxisError(axis, ndim) sets `.axis` and `.ndim` and words the message itself.
            Error::AxisOutOfBounds { axis, ndim } => Python::attach(|py| match Class::Axis.type_object(py) {
                Ok(class) => PyErr::from_type(class.clone(), (axis, ndim)),
                Err(lookup_failed) => lookup_failed,
            }),
            err => class_of(&err).err(err.to_string()),
        }
    }
}
