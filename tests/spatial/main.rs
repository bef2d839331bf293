//! Integration tests of `torchbridge::ops::spatial` on tch tensors: the
//! distances against direct sums written here, precision for near points
//! far from the origin, squareform both ways, and errors.

mod distance;
