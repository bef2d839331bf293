//! The `scipy.stats._binned_statistic` functions: `binned_statistic`, packed
//! in SciPy's `BinnedStatisticResult` (`torchbridge.stats._binned_statistic`).

use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use super::stats_py::Arg;
use super::{index, reduce, Device};
use crate::ops::stats::binned_statistic::{self as ops, BinStatistic, Bins};
use crate::ops::stats::stats_py::Reduced;
use crate::Error;

/// Compute a binned statistic for one or more sets of data.
///
/// torchbridge takes the bin edges by SciPy's rules (``np.linspace`` over ``range`` or the
/// data's extent, widened by 0.5 each side when empty; or the given edges),
/// computed on the host from two scalars; the bin numbers by
/// ``searchsorted`` (NumPy's ``digitize``, values on the last edge in the
/// last bin by SciPy's rounding test) and the statistics by scatter
/// reductions over the bins, all libtorch ops on the data's device:
/// ``"mean"``, ``"std"`` (about each bin's mean, two passes), ``"median"``
/// (one sort grouped by bin), ``"count"``, ``"sum"``, ``"min"``, ``"max"``.
/// ``values`` may be one sample or a 2-d stack of them (a statistic per
/// row). A ``BinnedStatisticResult`` (``statistic`` float64, ``bin_edges``
/// in ``x``'s floating dtype, ``binnumber`` int64). A callable ``statistic``
/// raises ``UnsupportedParameterError`` (it would run Python per bin).
///
#[doc = device_note!()]
#[pyfunction]
#[pyo3(signature = (x, values, statistic = None, bins = None, range = None, *, device = None), text_signature = "(x, values, statistic='mean', bins=10, range=None, *, device=None)")]
#[allow(clippy::too_many_arguments)]
fn binned_statistic(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    values: &Bound<'_, PyAny>,
    statistic: Arg<'_, '_>,
    bins: Arg<'_, '_>,
    range: Arg<'_, '_>,
    device: Device<'_, '_>,
) -> PyResult<Py<PyAny>> {
    let statistic = match statistic {
        None => BinStatistic::Mean,
        Some(s) => match s.cast::<PyString>() {
            Ok(name) => BinStatistic::from_scipy(&name.to_cow()?)?,
            Err(_) if s.is_callable() => {
                let name = s.getattr("__name__").map(|n| n.to_string()).unwrap_or_else(|_| s.to_string());
                return Err(Error::NotImplemented(format!(
                    "binned_statistic statistic={name} (a callable): torchbridge computes the built-in statistics \
                     'mean', 'std', 'median', 'count', 'sum', 'min', 'max' only"
                ))
                .into());
            }
            Err(_) => return Err(Error::InvalidArgument(format!("invalid statistic {}", s.repr()?)).into()),
        },
    };
    let count = match bins {
        None => Some(10),
        Some(b) => index(b).ok(),
    };
    let range = match range.filter(|r| !r.is_none()) {
        None => None,
        Some(r) => {
            let items: Vec<Bound<'_, PyAny>> = r.try_iter()?.collect::<PyResult<_>>()?;
            let pair = if items.len() == 1 { items[0].try_iter()?.collect::<PyResult<Vec<_>>>()? } else { items };
            if pair.len() != 2 {
                return Err(
                    Error::InvalidArgument(format!("range given for {} dimensions; 1 required", pair.len())).into()
                );
            }
            let (lo, hi): (f64, f64) = (pair[0].extract()?, pair[1].extract()?);
            if hi < lo {
                return Err(Error::InvalidArgument("In range, start must be <= stop".into()).into());
            }
            Some((lo, hi))
        }
    };
    let mut arrays = vec![x, values];
    if count.is_none() {
        arrays.extend(bins);
    }
    let v = reduce(py, device, &arrays, move |t| {
        let bins = match count {
            Some(c) => Bins::Count(c),
            None => Bins::Edges(t[2].shallow_clone()),
        };
        let (s, e, b) = ops::binned_statistic(&t[0], &t[1], statistic, bins, range)?;
        Ok(Reduced { values: vec![s, e, b], warnings: vec![] })
    })?;
    let class = py.import("torchbridge.stats._binned_statistic")?.getattr("BinnedStatisticResult")?;
    Ok(class.call1(PyTuple::new(py, v)?)?.unbind())
}

/// Adds the functions to `module`.
pub(super) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(binned_statistic, module)?)?;
    Ok(())
}
