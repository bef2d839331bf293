//! `scipy.fft` counterparts: discrete Fourier, cosine and sine transforms.
