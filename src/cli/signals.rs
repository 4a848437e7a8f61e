//! Interrupted runs leave nothing behind: on SIGINT, SIGTERM or SIGHUP the temporary files of
//! the outputs being written are removed before the process ends of the signal, as it would have
//! without this (so a shell still sees "killed by SIGINT").
//!
//! A signal handler may do almost nothing safely (no lock, no allocation), so the signals are
//! blocked in every thread and one thread waits for them with `sigwait` and does the work in
//! ordinary code. `kill -9` cannot be caught: what it leaves is removed by the next run that writes
//! the same file (see [`super::output`]).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The temporary files being written, removed if a signal ends the run.
static TEMPORARY: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Records a temporary file to remove if the run is interrupted.
pub fn register(path: &Path) {
    if let Ok(mut files) = TEMPORARY.lock() {
        files.push(path.to_path_buf());
    }
}

/// Forgets a temporary file that was renamed into place or removed.
pub fn unregister(path: &Path) {
    if let Ok(mut files) = TEMPORARY.lock()
        && let Some(at) = files.iter().position(|f| f == path)
    {
        files.swap_remove(at);
    }
}

/// Removes every temporary file still being written.
fn remove_all() {
    // A panic elsewhere while holding the lock leaves the list as it was: still remove the files.
    let files = TEMPORARY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for file in files.iter() {
        let _ = std::fs::remove_file(file);
    }
}

/// Blocks SIGINT, SIGTERM and SIGHUP in this thread (and so in every thread started after) and
/// starts the thread that waits for them. Call first thing in `main`. A signal the process was
/// started ignoring (`nohup`, a background job) stays ignored.
#[cfg(unix)]
pub fn install() {
    // SAFETY: sigset_t is plain data, set up by sigemptyset/sigaddset before use; sigaction with a
    // null new action only reads the current one.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            let mut current: libc::sigaction = std::mem::zeroed();
            let ignored = libc::sigaction(signal, std::ptr::null(), &mut current) == 0
                && current.sa_sigaction == libc::SIG_IGN;
            if !ignored {
                libc::sigaddset(&mut set, signal);
            }
        }
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        set
    };
    let waiter = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || wait_for_signals(set));
    if waiter.is_err() {
        // Without the waiting thread the signals must not stay blocked: the run could not be
        // interrupted at all.
        // SAFETY: as above.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
    }
}

#[cfg(unix)]
fn wait_for_signals(set: libc::sigset_t) {
    loop {
        let mut signal = 0;
        // SAFETY: `set` is an initialised signal set; `signal` a valid place for the answer.
        if unsafe { libc::sigwait(&set, &mut signal) } != 0 {
            continue;
        }
        remove_all();
        // End of the signal as the process would have: its default action, raised in this thread
        // (the only one that no longer blocks it).
        // SAFETY: resetting a signal to its default action and raising it in this thread.
        unsafe {
            libc::signal(signal, libc::SIG_DFL);
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
            libc::raise(signal);
        }
        // Not reached for these signals; if it were, end as a shell reports a signal.
        std::process::exit(128 + signal);
    }
}

/// Elsewhere nothing is caught.
#[cfg(not(unix))]
pub fn install() {}
