//! The closure API: tch code on zero-copy views of borrowed ndarray arrays.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ndarray::{array, s, Array1, Array2, ArrayD, Axis};
use tch::{Kind, TchError, Tensor};
use torchbridge::closure::InputArray;
use torchbridge::{to_ndarray, with_tensors, with_tensors_mut, Error};

#[test]
fn matmul_on_views_is_zero_copy_in() {
    let a = Array2::<f64>::from_shape_fn((3, 4), |(i, j)| (i * 4 + j) as f64);
    let b = Array2::<f64>::from_shape_fn((4, 2), |(i, j)| i as f64 - j as f64);
    let (pa, pb) = (a.as_ptr() as usize, b.as_ptr() as usize);
    let product = with_tensors(&[a.view().into_dyn(), b.view().into_dyn()], |ts| {
        assert_eq!(ts[0].data_ptr() as usize, pa);
        assert_eq!(ts[1].data_ptr() as usize, pb);
        ts[0].f_matmul(&ts[1])
    })
    .unwrap();
    let product: ArrayD<f64> = to_ndarray(&product).unwrap();
    assert_eq!(product, a.dot(&b).into_dyn());
}

#[test]
fn strided_views_keep_their_layout() {
    let a = Array2::<f32>::from_shape_fn((4, 6), |(i, j)| (10 * i + j) as f32);
    let every_other = a.slice(s![.., ..;2]);
    let t = a.t();
    let (p, q) = (every_other.as_ptr() as usize, t.as_ptr() as usize);
    let sums = with_tensors(&[every_other.into_dyn(), t.into_dyn()], |ts| {
        assert_eq!((ts[0].data_ptr() as usize, ts[0].stride()), (p, vec![6, 2]));
        assert_eq!((ts[1].data_ptr() as usize, ts[1].stride()), (q, vec![1, 6]));
        Ok::<_, TchError>((ts[0].f_sum(Kind::Double)?, ts[1].f_sum_dim_intlist(0, false, Kind::Float)?))
    })
    .unwrap();
    assert_eq!(sums.0.double_value(&[]), every_other.sum() as f64);
    let col: ArrayD<f32> = to_ndarray(&sums.1).unwrap();
    assert_eq!(col, a.sum_axis(Axis(1)).into_dyn());
}

#[test]
fn mixed_element_types_through_dyn() {
    let data = array![10.0f64, 20.0, 30.0, 40.0];
    let index = array![3i64, 0];
    let inputs: [&dyn InputArray; 2] = [&data, &index];
    let picked = with_tensors(&inputs, |ts| ts[0].f_index_select(0, &ts[1])).unwrap();
    assert_eq!(to_ndarray::<f64>(&picked).unwrap(), array![40.0, 10.0].into_dyn());
}

#[test]
fn tuples_and_plain_values_come_back() {
    let a = array![[2.0f64, 1.0], [1.0, 2.0]];
    let (w, _v) = with_tensors(&[a.view()], |ts| ts[0].f_linalg_eigh("L")).unwrap();
    let w = to_ndarray::<f64>(&w).unwrap();
    assert!((w[0] - 1.0).abs() < 1e-12 && (w[1] - 3.0).abs() < 1e-12);
    let total: f64 = with_tensors(&[a.view()], |ts| ts[0].f_sum(Kind::Double)?.f_double_value(&[])).unwrap();
    assert_eq!(total, 6.0);
}

#[test]
fn mutable_views_write_through() {
    let mut a = Array2::<f64>::zeros((3, 4));
    let ptr = a.as_ptr() as usize;
    with_tensors_mut(&mut [a.view_mut()], |ts| {
        assert_eq!(ts[0].data_ptr() as usize, ptr);
        ts[0].f_fill_(1.5).map(|_| ())
    })
    .unwrap();
    assert!(a.iter().all(|&v| v == 1.5));
    // a strided mutable view: only its elements change
    {
        let mut column = a.slice_mut(s![.., 1]);
        with_tensors_mut(&mut [column.view_mut()], |ts| ts[0].f_mul_scalar_(4.0).map(|_| ())).unwrap();
    }
    assert_eq!(a.column(1).to_vec(), [6.0, 6.0, 6.0]);
    assert_eq!(a.column(0).to_vec(), [1.5, 1.5, 1.5]);
}

#[test]
fn negative_strides_are_copied_in_and_written_back() {
    let base = Array1::<f64>::from_iter((0..6).map(f64::from));
    let reversed = base.slice(s![..;-1]);
    let got = with_tensors(&[reversed], |ts| {
        assert_ne!(ts[0].data_ptr() as usize, base.as_ptr() as usize); // copied: torch has no negative strides
        ts[0].f_cumsum(0, Kind::Double)
    })
    .unwrap();
    assert_eq!(to_ndarray::<f64>(&got).unwrap(), array![5.0, 9.0, 12.0, 14.0, 15.0, 15.0].into_dyn());

    let mut a = Array1::<f64>::from_iter((0..6).map(f64::from));
    a.invert_axis(Axis(0));
    with_tensors_mut(&mut [a.view_mut()], |ts| {
        let ramp = Tensor::arange(6, (Kind::Double, tch::Device::Cpu));
        ts[0].f_add_(&ramp).map(|_| ())
    })
    .unwrap();
    assert_eq!(a, array![5.0, 5.0, 5.0, 5.0, 5.0, 5.0]); // 5-k + k
}

#[test]
fn escaped_views_in_the_result_become_copies() {
    let mut a = Array2::<f64>::from_shape_fn((2, 3), |(i, j)| (3 * i + j) as f64);
    let ptr = a.as_ptr() as usize;
    let same = with_tensors(&[a.view()], |ts| Ok::<_, TchError>(ts[0].shallow_clone())).unwrap();
    let row = with_tensors(&[a.view()], |ts| ts[0].f_narrow(0, 1, 1)).unwrap();
    let both = with_tensors(&[a.view()], |ts| Ok::<_, TchError>(vec![ts[0].f_reshape([6])?, ts[0].f_neg()?])).unwrap();
    for t in [&same, &row, &both[0]] {
        assert_ne!(t.data_ptr() as usize, ptr, "a view of the borrowed array escaped");
    }
    // the borrow is over: the array can be written, and the copies keep the old values
    a.fill(-1.0);
    assert_eq!(to_ndarray::<f64>(&same).unwrap(), array![[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]].into_dyn());
    assert_eq!(to_ndarray::<f64>(&row).unwrap(), array![[3.0, 4.0, 5.0]].into_dyn());
    assert_eq!(to_ndarray::<f64>(&both[0]).unwrap(), array![0.0, 1.0, 2.0, 3.0, 4.0, 5.0].into_dyn());
    assert_eq!(to_ndarray::<f64>(&both[1]).unwrap()[[1, 2]], -5.0);
}

#[test]
fn autograd_graphs_that_save_inputs_are_cut() {
    let a = array![1.0f64, 2.0, 3.0];
    let squared = with_tensors(&[a.view()], |ts| {
        let x = ts[0].shallow_clone().set_requires_grad(true);
        x.f_mul(&x) // MulBackward saves x, a view of `a`
    })
    .unwrap();
    assert!(!squared.requires_grad());
    assert_eq!(to_ndarray::<f64>(&squared).unwrap(), array![1.0, 4.0, 9.0].into_dyn());
}

#[test]
fn writes_into_read_only_inputs_are_reported() {
    let a = array![1.0f64, 2.0];
    let err = with_tensors(&[a.view()], |ts| ts[0].shallow_clone().f_add_scalar_(1.0).map(|_| ())).unwrap_err();
    assert!(matches!(&err, Error::InvalidArgument(m) if m.contains("with_tensors_mut")), "{err}");
}

#[test]
fn closure_errors_propagate() {
    let a = Array2::<f64>::zeros((2, 3));
    let err = with_tensors(&[a.view()], |ts| ts[0].f_matmul(&ts[0])).unwrap_err();
    assert!(matches!(err, Error::Torch(_)), "{err}");
}

#[test]
fn empty_arrays() {
    let a = Array2::<f32>::zeros((0, 3));
    let t = with_tensors(&[a.view()], |ts| ts[0].f_sum_dim_intlist(0, false, Kind::Float)).unwrap();
    assert_eq!(to_ndarray::<f32>(&t).unwrap(), array![0.0f32, 0.0, 0.0].into_dyn());
}

#[test]
fn panics_do_not_leave_views_behind() {
    let mut a = array![1.0f64, 2.0, 3.0];
    let caught = catch_unwind(AssertUnwindSafe(|| {
        let _ = with_tensors(&[a.view()], |ts| -> Result<Tensor, TchError> {
            let _view = ts[0].f_narrow(0, 0, 2)?; // alive while unwinding starts
            panic!("boom inside the closure");
        });
    }));
    assert!(caught.is_err());
    // the borrow ended cleanly: the array is ours again
    a[0] = 10.0;
    assert_eq!(a, array![10.0, 2.0, 3.0]);
    let mut b = array![1.0f64, 2.0];
    let caught = catch_unwind(AssertUnwindSafe(|| {
        with_tensors_mut(&mut [b.view_mut()], |ts| -> Result<(), TchError> {
            let _ = ts[0].f_mul_scalar_(3.0)?;
            panic!("after writing");
        })
    }));
    assert!(caught.is_err());
    assert_eq!(b, array![3.0, 6.0]); // zero-copy: the write happened before the panic
}

/// The child half of `stashed_views_abort_the_process`: stores a view outside
/// the closure, which must abort the process.
#[test]
#[ignore = "run by stashed_views_abort_the_process in a child process"]
fn stash_child() {
    if std::env::var_os("TORCHBRIDGE_STASH_CHILD").is_none() {
        return;
    }
    let a = array![1.0f64, 2.0];
    let mut stash = Vec::new();
    let _ = with_tensors(&[a.view()], |ts| {
        stash.push(ts[0].shallow_clone());
        Ok::<_, TchError>(())
    });
    println!("NOT ABORTED {}", stash.len());
}

#[test]
fn stashed_views_abort_the_process() {
    let exe = std::env::current_exe().unwrap();
    let output = std::process::Command::new(exe)
        .args(["stash_child", "--exact", "--ignored", "--nocapture", "--test-threads=1"])
        .env("TORCHBRIDGE_STASH_CHILD", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success(), "child survived: {stdout}");
    assert!(!stdout.contains("NOT ABORTED"), "{stdout}");
    assert!(stderr.contains("aborting the process"), "{stderr}");
}
