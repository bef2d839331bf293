//! The device table: DLPack `DLDevice` <-> [`Device`] <-> `tch::Device`.

use dlpark::ffi::{DLDevice, DLDeviceType};

use crate::{Error, Result};

/// Where a tensor's memory lives, as far as torchbridge handles it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Device {
    /// Host memory (also pinned CUDA host memory, which the CPU addresses directly).
    Cpu,
    /// Memory on CUDA device `n` (also CUDA managed memory on that device).
    Cuda(usize),
}

impl Device {
    /// Maps a DLPack device; anything but CPU and CUDA memory is an error.
    pub fn from_dlpack(device: DLDevice) -> Result<Device> {
        let DLDevice { device_type: DLDeviceType(kind), device_id } = device;
        let unsupported = || Error::UnsupportedDevice { device_type: kind, device_id };
        match DLDeviceType(kind) {
            DLDeviceType::CPU | DLDeviceType::CUDAHOST => Ok(Device::Cpu),
            // libtorch keeps the ordinal in c10::DeviceIndex (an i8): a larger
            // one would wrap to another device, so it is refused here.
            DLDeviceType::CUDA | DLDeviceType::CUDAMANAGED => match i8::try_from(device_id) {
                Ok(index) if index >= 0 => Ok(Device::Cuda(index as usize)),
                _ => Err(unsupported()),
            },
            _ => Err(unsupported()),
        }
    }

    /// The DLPack device libtorch is given for this memory.
    pub fn to_dlpack(self) -> DLDevice {
        match self {
            Device::Cpu => DLDevice::CPU,
            // Ordinals come from an i32 or from libtorch, so they fit.
            Device::Cuda(index) => DLDevice::cuda(i32::try_from(index).unwrap_or(i32::MAX)),
        }
    }

    /// The libtorch device.
    pub fn to_tch(self) -> tch::Device {
        match self {
            Device::Cpu => tch::Device::Cpu,
            Device::Cuda(index) => tch::Device::Cuda(index),
        }
    }

    /// The device of a libtorch tensor.
    pub fn from_tch(device: tch::Device) -> Result<Device> {
        match device {
            tch::Device::Cpu => Ok(Device::Cpu),
            tch::Device::Cuda(index) => Ok(Device::Cuda(index)),
            other => Err(Error::InvalidArgument(format!(
                "libtorch device {other:?} is not exchanged by torchbridge; accepted: cpu, cuda"
            ))),
        }
    }
}

impl std::fmt::Display for Device {
    /// `cpu` or `cuda:N`, as torch spells devices.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Cuda(index) => write!(f, "cuda:{index}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_cpu_cuda_and_rejects_the_rest() {
        assert_eq!(Device::from_dlpack(DLDevice::CPU).unwrap(), Device::Cpu);
        assert_eq!(Device::from_dlpack(DLDevice::cuda(1)).unwrap(), Device::Cuda(1));
        let metal = Device::from_dlpack(DLDevice::metal(0)).unwrap_err();
        assert!(matches!(metal, Error::UnsupportedDevice { device_type: 8, device_id: 0 }));
        let negative = DLDevice { device_type: DLDeviceType::CUDA, device_id: -1 };
        assert!(Device::from_dlpack(negative).is_err());
        assert!(Device::from_dlpack(DLDevice::cuda(128)).is_err());
    }

    #[test]
    fn displays_as_torch_spells_devices() {
        assert_eq!(Device::Cpu.to_string(), "cpu");
        assert_eq!(Device::Cuda(3).to_string(), "cuda:3");
    }
}
