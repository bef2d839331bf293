//! Derivatives in closed form, for the routines whose value autograd cannot
//! follow (CPU kernels, Newton iterations) or follows into 0 * inf = nan
//! (a branch the composite does not take). The value is computed without a
//! graph and attached to one autograd node whose backward uses the given
//! derivatives (`csrc/autograd.cpp`).
//!
//! The derivatives are tensor expressions built with autograd on, from the
//! inputs and from the value itself, so second derivatives are exact as
//! well: the value a derivative sees carries its first derivative, and a
//! routine a derivative calls (a derivative's derivative) attaches constant
//! derivatives. The third derivative is not exact.
//!
//! Grad mode off, or no input requiring grad, costs nothing: the value is
//! computed as it would be and no derivative is built.

use std::cell::Cell;

use tch::Tensor;

use crate::ffi::autograd as ffi;
use crate::Result;

/// A routine's input and its derivative as a function of the routine's value
/// (built only when that input records a gradient).
pub(crate) type Partial<'a> = (&'a Tensor, &'a dyn Fn(&Tensor) -> Result<Tensor>);

thread_local! {
    /// Whether a derivative is being built on this thread: then the routines
    /// it calls attach constant derivatives (second order, not beyond).
    static IN_DERIVATIVE: Cell<bool> = const { Cell::new(false) };
}

/// Whether autograd records a gradient for `t` now: it requires grad and
/// grad mode is on (not `torch.no_grad()`, not inference mode). Fast kernels
/// that leave autograd step aside only then.
pub(crate) fn records_grad(t: &Tensor) -> bool {
    t.requires_grad() && ffi::grad_mode_enabled()
}

/// `value()` with the derivatives `partials`: the value computed without a
/// graph and an autograd node whose backward is `grad * conj(d_i)` for each
/// input `x_i` that records a gradient, `d_i` the partial's function of the
/// value. Inputs not listed get no gradient: the torch route then refuses a
/// call where such an input requires grad (`NotDifferentiableError`), never
/// a silently cut result.
pub(crate) fn with_derivatives(value: impl FnOnce() -> Result<Tensor>, partials: &[Partial<'_>]) -> Result<Tensor> {
    let wanted: Vec<&Partial<'_>> = partials.iter().filter(|(x, _)| records_grad(x)).collect();
    if wanted.is_empty() {
        return value();
    }
    let value = tch::no_grad(value)?;
    let inputs: Vec<&Tensor> = wanted.iter().map(|(x, _)| *x).collect();
    let at_value = |v: &Tensor| wanted.iter().map(|(_, d)| d(v)).collect::<Result<Vec<_>>>();
    let constant = tch::no_grad(|| at_value(&value))?;
    if IN_DERIVATIVE.with(Cell::get) {
        return ffi::with_derivatives(&value, &inputs, &constant);
    }
    // the value with its first derivative, for derivatives that read the value
    let first_order = ffi::with_derivatives(&value, &inputs, &constant)?;
    let derivatives = {
        let _inside = InDerivative::enter();
        at_value(&first_order)?
    };
    ffi::with_derivatives(&value, &inputs, &derivatives)
}

/// Marks this thread as building a derivative until dropped (also when the
/// derivative fails or panics, so the thread never stays marked).
struct InDerivative;

impl InDerivative {
    fn enter() -> Self {
        IN_DERIVATIVE.with(|flag| flag.set(true));
        InDerivative
    }
}

impl Drop for InDerivative {
    fn drop(&mut self) {
        IN_DERIVATIVE.with(|flag| flag.set(false));
    }
}

#[cfg(test)]
mod tests {
    use tch::{Kind, Tensor};

    use super::*;

    fn sine(x: &Tensor) -> Result<Tensor> {
        with_derivatives(|| Ok(x.f_sin()?), &[(x, &|_| Ok(x.f_cos()?))])
    }

    #[test]
    fn first_and_second_derivatives_are_the_given_ones() {
        let x = Tensor::from_slice(&[0.3, 1.1, -2.0]).set_requires_grad(true);
        let y = sine(&x).unwrap();
        let g = Tensor::run_backward(&[y.sum(Kind::Double)], &[&x], true, true).remove(0);
        assert!(g.allclose(&x.cos(), 1e-15, 0.0, false));
        let h = Tensor::run_backward(&[g.sum(Kind::Double)], &[&x], false, false).remove(0);
        assert!(h.allclose(&x.sin().neg(), 1e-15, 0.0, false));
    }

    #[test]
    fn without_grad_mode_nothing_is_recorded() {
        let x = Tensor::from_slice(&[0.5]).set_requires_grad(true);
        let y = tch::no_grad(|| sine(&x)).unwrap();
        assert!(!y.requires_grad());
        assert!(records_grad(&x));
        assert!(!tch::no_grad(|| records_grad(&x)));
    }

    #[test]
    fn a_failing_derivative_leaves_the_thread_unmarked() {
        let x = Tensor::from_slice(&[0.5]).set_requires_grad(true);
        let failing = with_derivatives(|| Ok(x.f_sin()?), &[(&x, &|_| Err(crate::Error::Torch("no".into())))]);
        assert!(failing.is_err());
        assert!(!IN_DERIVATIVE.with(Cell::get));
    }
}
