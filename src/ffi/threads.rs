//! Declaration of `csrc/threads.cpp` (the calling thread's libtorch OpenMP
//! team and MKL thread-local count) and its safe wrappers, for the thread
//! policy in `crate::threads`.
//!
//! Both functions act on the calling thread only; nothing here touches
//! another thread's settings or libtorch's process-wide default.

extern "C" {
    fn tb_thread_team() -> i32;
    fn tb_set_thread_team(threads: i32, mkl_threads: i32, mkl_previous: *mut i32) -> i32;
}

/// The calling thread's libtorch team (`at::get_num_threads()` there);
/// `None` where libtorch's OpenMP runtime was not found.
pub(crate) fn thread_team() -> Option<i32> {
    // SAFETY: no arguments; the shim catches every exception and only reads
    // the calling thread's OpenMP settings.
    let team = unsafe { tb_thread_team() };
    (team > 0).then_some(team)
}

/// Sets the calling thread's team to `threads` (>= 1) and MKL's thread-local
/// count to `mkl_threads` (0: MKL's global count). Returns MKL's previous
/// thread-local count (0: none), or `None` when nothing was changed (no
/// OpenMP runtime found, or `threads` < 1).
pub(crate) fn set_thread_team(threads: i32, mkl_threads: i32) -> Option<i32> {
    let mut previous = 0;
    // SAFETY: `previous` is a valid, writable i32 for the call; the shim sets
    // only the calling thread's settings and throws nothing.
    let changed = unsafe { tb_set_thread_team(threads, mkl_threads, &mut previous) };
    (changed == 1).then_some(previous)
}
