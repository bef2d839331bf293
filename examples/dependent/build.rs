fn main() {
    // The rpath to libtorch and, where libtorch has CUDA, the libtorch_cuda link.
    torchbridge_build::link_libtorch();
}
