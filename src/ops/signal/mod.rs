//! `scipy.signal`: convolution, filtering, resampling, filter design and
//! responses, spectral analysis, windows and waveforms on `tch::Tensor`s,
//! with SciPy's semantics.
//!
//! The files follow SciPy's private modules: [`signaltools`]
//! (`_signaltools.py`: convolution and correlation, the linear and order
//! filters, detrend, hilbert, resample, resample_poly, decimate),
//! [`spectral_py`] (`_spectral_py.py`: welch, csd, spectrogram, stft, istft,
//! lombscargle), [`filter_design`] (`_filter_design.py`: the IIR designs,
//! the zpk/tf/sos conversions, freqz), [`fir_filter_design`]
//! (`_fir_filter_design.py`), [`upfirdn`] (`_upfirdn.py`), [`savitzky_golay`],
//! [`windows`] (`windows/_windows.py`), [`waveforms`] (`_waveforms.py`),
//! `arraytools` (`_arraytools.py`: the edge extensions). Arrays are computed
//! on with composites of libtorch ops on the input's device (libtorch has no
//! signal-processing kernels of its own besides convolution and the FFT);
//! filter designs, a few dozen coefficients, in float64 on the host. Nothing
//! here goes through NumPy.

mod arraytools;
pub mod filter_design;
pub mod fir_filter_design;
pub mod savitzky_golay;
pub mod signaltools;
pub mod spectral_py;
pub mod upfirdn;
pub mod waveforms;
pub mod windows;
