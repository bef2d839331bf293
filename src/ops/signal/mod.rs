//! `scipy.signal`: convolution, filtering, spectral analysis, windows and
//! waveforms on `tch::Tensor`s, with SciPy's semantics.
//!
//! The files follow SciPy's private modules: [`signaltools`]
//! (`_signaltools.py`: convolution and correlation, the linear filters,
//! detrend, hilbert), [`spectral_py`] (`_spectral_py.py`: welch, csd,
//! spectrogram, stft, istft), `windows` (`windows/_windows.py`), `waveforms`
//! (`_waveforms.py`), `arraytools` (`_arraytools.py`: the edge extensions). Everything is a composite of libtorch ops on the input's
//! device: libtorch has no signal-processing kernels of its own besides
//! convolution and the FFT, and nothing here goes through NumPy.

mod arraytools;
pub mod fir_filter_design;
pub mod filter_design;
pub mod savitzky_golay;
pub mod signaltools;
pub mod spectral_py;
pub mod upfirdn;
pub mod waveforms;
pub mod windows;
