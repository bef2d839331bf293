//! CUDA from a Rust binary: device discovery and the stream hand-off API.
//!
//! Everything here runs on any machine: without a GPU the tests check what
//! the API reports instead (and say so on stderr). On a GPU machine this test
//! binary is carried over and run by `.ci/gpu-check`, since libtorch_cuda must
//! be loaded by a plain Rust binary too (build.rs links it `--no-as-needed`).

use tch::{Device as TchDevice, Kind, Tensor};
use torchbridge::dlpack::{export_versioned, import, import_ordered, CudaStream, ManagedDlpack};
use torchbridge::{cuda_available, cuda_device_count, Device, Error};

#[test]
fn the_device_count_is_libtorchs() {
    let count = cuda_device_count();
    assert_eq!(count, usize::try_from(tch::Cuda::device_count()).unwrap());
    assert_eq!(cuda_available(), count > 0);
    // Set by the GPU check so that a binary that cannot see the GPU fails
    // instead of skipping its CUDA tests.
    if std::env::var_os("TORCHBRIDGE_EXPECT_CUDA").is_some() {
        assert!(count > 0, "TORCHBRIDGE_EXPECT_CUDA is set but libtorch sees no CUDA device");
    }
}

#[test]
fn host_memory_has_no_stream() {
    assert!(CudaStream::current_for(Device::Cpu).unwrap().is_none());
}

#[test]
fn a_device_beyond_the_visible_ones_is_a_device_error() {
    let beyond = cuda_device_count();
    let err = CudaStream::current(beyond).unwrap_err();
    let Error::DeviceUnavailable(message) = &err else { panic!("expected DeviceUnavailable, got {err:?}") };
    assert!(
        message.contains(&format!("cuda:{beyond} is not a CUDA device libtorch sees ({beyond} visible)")),
        "{message}"
    );
    assert!(CudaStream::current_for(Device::Cuda(beyond)).is_err());
}

fn cuda_or_skip() -> bool {
    if !cuda_available() {
        eprintln!("skipped: no CUDA device visible to libtorch");
    }
    cuda_available()
}

#[test]
fn the_default_stream_is_the_protocols_legacy_default() {
    if !cuda_or_skip() {
        return;
    }
    let stream = CudaStream::current(0).unwrap();
    assert_eq!(stream, CudaStream::current(0).unwrap());
    assert_eq!(stream.device_index(), 0);
    // libtorch's default stream is CUDA's legacy default (handle 0), which
    // `__dlpack__(stream=...)` spells 1.
    assert_eq!(stream.handle(), 0);
    assert_eq!(stream.dlpack_value(), 1);
    assert!(stream.is_named_by(1));
    assert!(!stream.is_named_by(2));
    stream.synchronize().unwrap();
    // ordering a consumer on the same stream is nothing; on CUDA's per-thread
    // default stream, an event on the device; 0 and negatives name no stream
    stream.order_before(1).unwrap();
    stream.order_before(2).unwrap();
    assert!(matches!(stream.order_before(0), Err(Error::InvalidArgument(_))));
    assert!(matches!(stream.order_before(-7), Err(Error::InvalidArgument(_))));
    stream.synchronize().unwrap();
}

#[test]
fn an_ordered_import_views_the_memory_and_releases_after_the_work() {
    if !cuda_or_skip() {
        return;
    }
    let t = Tensor::f_arange(1 << 20, (Kind::Double, TchDevice::Cuda(0))).unwrap();
    let stream = CudaStream::current(0).unwrap();
    let view = import_ordered(ManagedDlpack::Versioned(export_versioned(&t).unwrap()), stream).unwrap();
    assert_eq!(view.tensor.data_ptr(), t.data_ptr());
    let sum = view.tensor.f_sum(Kind::Double).unwrap();
    drop(view); // waits for the sum's kernels, then releases the export
    let expected = ((1u64 << 20) * ((1 << 20) - 1) / 2) as f64;
    assert_eq!(sum.double_value(&[]), expected);
    let plain = import(ManagedDlpack::Versioned(export_versioned(&t).unwrap())).unwrap();
    assert_eq!(plain.tensor.device(), TchDevice::Cuda(0));
}
