//! How many of libtorch's intra-op threads one call runs with.
//!
//! libtorch's OpenMP threads meet at a barrier at the end of every parallel
//! loop. When another process keeps a core busy, one of the team waits a
//! scheduler slice (milliseconds) at each barrier, and a composite of dozens
//! of loops pays it dozens of times: `special.erf` on 1e5 elements took
//! 3.5-7 ms a call beside one busy process on this project's 2-core machine,
//! against 0.12 ms quiet and 0.2 ms on one thread (DESIGN's "threads under
//! load"). So every call that goes through the Python layer's one compute
//! path (`python::container::compute`) first fits its team, on the calling
//! thread only, and restores it when done ([`TeamGuard`]):
//!
//! - a call on fewer than [`SERIAL_BELOW`] input elements runs serially
//!   (libtorch's elementwise loops would anyway: their grain is 32768; what
//!   is left, small reductions, BLAS and LAPACK on small matrices, gains
//!   nothing from a second thread and loses most under load);
//! - a larger call runs with the cores the rest of the machine leaves free,
//!   shared among this process's calls running at the same moment (two
//!   Python threads computing at once get half each, instead of two full
//!   teams fighting over the same cores), at least 1;
//! - never more than the thread's own team: what `torch.set_num_threads`
//!   (or `torchbridge.set_num_threads`, `OMP_NUM_THREADS`) set is a ceiling,
//!   and it is what the thread has again after the call.
//!
//! The team is the calling thread's OpenMP `nthreads-var` (which is what
//! `at::get_num_threads()` reads there) and MKL's thread-local count
//! (`csrc/threads.cpp`); other threads and the process-wide default keep
//! theirs.
//!
//! The free cores are read from Linux's `/proc`: the cores this process may
//! use ([`std::thread::available_parallelism`]: affinity and cgroup quota)
//! less the machine's runnable tasks (`/proc/loadavg`'s fourth field) that
//! are not this process's own running threads (`/proc/self/task/*/stat`: the
//! caller itself, the team's spinning workers and this process's other
//! computing threads are not competition; the last are shared out instead).
//! A reading is reused for [`REFRESH`], so a call pays it (tens of
//! microseconds) at most once per that time. Where `/proc` cannot be read,
//! all the process's cores count as free.
//!
//! `TORCHBRIDGE_FIT_THREADS=0` turns the fitting off (every call runs with
//! the thread's team, as libtorch alone would).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::ffi::threads as ffi;

/// Calls on fewer input elements than this run on one thread.
pub(crate) const SERIAL_BELOW: usize = 32_768;

/// Elementwise calls (`special`'s ufuncs) on fewer elements than this skip
/// [`fit`]: nothing they run goes parallel below it (libtorch's elementwise
/// and reduction grain is 32768; the finest of torchbridge's own kernels,
/// hyp2f1's, splits from 128 elements), so fitting would change nothing and
/// costs its OpenMP and MKL calls each way, 25 ns of a one-element call.
pub(crate) const ELEMENTWISE_UNFITTED_BELOW: usize = 64;

/// How long a reading of the machine's load is reused.
pub(crate) const REFRESH: Duration = Duration::from_millis(50);

/// This process's calls that hold a fitted team of their own now.
static ACTIVE: AtomicUsize = AtomicUsize::new(0);

/// Restores the calling thread's team when dropped (see [`fit`]).
#[must_use = "the team is restored when the guard drops"]
pub(crate) struct TeamGuard {
    /// The team and MKL thread-local count to put back, where changed.
    restore: Option<(i32, i32)>,
    /// Whether this call is counted in [`ACTIVE`].
    counted: bool,
    /// The team this call runs with (0: libtorch's OpenMP runtime not found).
    team: i32,
}

impl TeamGuard {
    /// The team this call runs with (0 where the runtime was not found).
    pub(crate) fn team(&self) -> i32 {
        self.team
    }
}

impl Drop for TeamGuard {
    fn drop(&mut self) {
        if let Some((team, mkl)) = self.restore {
            let _ = ffi::set_thread_team(team, mkl);
        }
        if self.counted {
            ACTIVE.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

/// Fits the calling thread's libtorch team for a call on `elements` input
/// elements, until the guard drops (see the module docs).
pub(crate) fn fit(elements: usize) -> TeamGuard {
    let Some(team) = ffi::thread_team() else {
        return TeamGuard { restore: None, counted: false, team: 0 };
    };
    if team <= 1 || !enabled() {
        return TeamGuard { restore: None, counted: false, team };
    }
    let (chosen, counted) = if elements < SERIAL_BELOW {
        (1, false)
    } else {
        let active = ACTIVE.fetch_add(1, Ordering::AcqRel) + 1;
        (choose(team, free_cores(), active), true)
    };
    let mut guard = TeamGuard { restore: None, counted, team };
    if chosen < team {
        if let Some(mkl) = ffi::set_thread_team(chosen, chosen) {
            guard.restore = Some((team, mkl));
            guard.team = chosen;
        }
    }
    guard
}

/// The team of a large call: the free cores shared among `active` calls,
/// at least 1, at most the thread's `team`.
fn choose(team: i32, free: usize, active: usize) -> i32 {
    let share = free / active.max(1);
    i32::try_from(share).unwrap_or(i32::MAX).clamp(1, team)
}

/// Whether fitting is on (`TORCHBRIDGE_FIT_THREADS` unset, or not `0`), read once.
pub(crate) fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var("TORCHBRIDGE_FIT_THREADS").map_or(true, |v| v.trim() != "0"))
}

/// The cores this process may use.
pub(crate) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// When the last reading was taken, in nanoseconds since [`epoch`] (0: never).
static READ_AT: AtomicU64 = AtomicU64::new(0);
/// The free cores at the last reading.
static FREE: AtomicUsize = AtomicUsize::new(0);
/// Whether a thread is taking a reading now (the others reuse the last one).
static READING: AtomicBool = AtomicBool::new(false);

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// The cores this process may use that other processes' runnable tasks do
/// not take (0 to [`cores`]), from a reading at most [`REFRESH`] old.
pub(crate) fn free_cores() -> usize {
    let now = (epoch().elapsed().as_nanos() as u64).max(1);
    let last = READ_AT.load(Ordering::Acquire);
    let fresh = last != 0 && now.saturating_sub(last) < REFRESH.as_nanos() as u64;
    if fresh {
        return FREE.load(Ordering::Acquire);
    }
    if READING.compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire).is_err() {
        // another thread is reading: its predecessor's value, or all cores at first
        return if last != 0 { FREE.load(Ordering::Acquire) } else { cores() };
    }
    let free = read_free_cores().unwrap_or_else(cores);
    FREE.store(free, Ordering::Release);
    READ_AT.store(now, Ordering::Release);
    READING.store(false, Ordering::Release);
    free
}

/// A fresh reading of [`free_cores`]; `None` where `/proc` cannot be read.
fn read_free_cores() -> Option<usize> {
    let runnable = runnable_tasks()?;
    let own = own_running_threads()?;
    Some(cores().saturating_sub(runnable.saturating_sub(own)))
}

/// The machine's runnable tasks now: `/proc/loadavg`'s `running/total` field.
fn runnable_tasks() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    parse_runnable(&text)
}

fn parse_runnable(loadavg: &str) -> Option<usize> {
    loadavg.split_whitespace().nth(3)?.split('/').next()?.parse().ok()
}

/// This process's threads in state `R` (running or runnable) now.
fn own_running_threads() -> Option<usize> {
    let mut running = 0;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let Ok(task) = task else { continue };
        let Ok(stat) = std::fs::read_to_string(task.path().join("stat")) else {
            continue; // the thread ended meanwhile
        };
        running += usize::from(task_state(&stat) == Some('R'));
    }
    Some(running)
}

/// The state letter of a `/proc/.../stat` line: "pid (comm) S ...", where
/// comm may hold any character, so the state follows the last ')'.
fn task_state(stat: &str) -> Option<char> {
    stat.rsplit_once(')').and_then(|(_, rest)| rest.trim_start().chars().next())
}

/// The calling thread's libtorch team now (0: the runtime was not found).
pub(crate) fn current_team() -> i32 {
    ffi::thread_team().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_calls_share_the_free_cores() {
        assert_eq!(choose(2, 2, 1), 2); // quiet: the whole team
        assert_eq!(choose(2, 1, 1), 1); // one core busy elsewhere
        assert_eq!(choose(2, 0, 1), 1); // all busy: still one
        assert_eq!(choose(2, 2, 2), 1); // two calls at once: one each
        assert_eq!(choose(8, 16, 1), 8); // never above the thread's team
        assert_eq!(choose(16, 13, 3), 4);
    }

    #[test]
    fn proc_formats() {
        assert_eq!(parse_runnable("0.44 1.20 1.56 2/116 22237\n"), Some(2));
        assert_eq!(parse_runnable("garbage"), None);
        assert_eq!(task_state("12 (python3 (x) y) R 1 2 3"), Some('R'));
        assert_eq!(task_state("12 (pt_main_thread) S 1"), Some('S'));
    }

    #[test]
    fn readings_are_bounded() {
        // this test's thread is running while it reads
        assert!(own_running_threads().unwrap() >= 1);
        assert!(runnable_tasks().unwrap() >= 1);
        assert!(free_cores() <= cores());
    }

    #[test]
    fn small_calls_run_serially_and_restore() {
        let Some(before) = ffi::thread_team() else { return };
        {
            let guard = fit(SERIAL_BELOW - 1);
            let during = ffi::thread_team().unwrap();
            if before > 1 && enabled() {
                assert_eq!(during, 1);
                assert_eq!(guard.team(), 1);
            } else {
                assert_eq!(during, before);
            }
        }
        assert_eq!(ffi::thread_team(), Some(before));
        {
            let guard = fit(SERIAL_BELOW * 10);
            let during = ffi::thread_team().unwrap();
            assert!(during >= 1 && during <= before);
            assert_eq!(guard.team(), during);
        }
        assert_eq!(ffi::thread_team(), Some(before));
    }
}
