//! Temporary folders and the special files the tests make in them: FIFOs, device nodes (mknod,
//! never the machine's own /dev) and mounts in a private mount namespace. One way each, for
//! every test module; a machine that does not permit one says so, and the test passes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A fresh folder under the system's temporary folder, removed when dropped.
pub(crate) struct TempDir(pub(crate) PathBuf);

impl TempDir {
    pub(crate) fn new(label: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "salta-cli-{label}-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }

    pub(crate) fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    pub(crate) fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.path(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// Every file left in the folder (recursively), relative to it, sorted.
    pub(crate) fn files(&self) -> Vec<String> {
        fn walk(dir: &Path, base: &Path, out: &mut Vec<String>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, base, out);
                } else {
                    out.push(path.strip_prefix(base).unwrap().display().to_string());
                }
            }
        }
        let mut out = Vec::new();
        walk(&self.0, &self.0, &mut out);
        out.sort();
        out
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A device node made in a test folder (`mknod PATH c MAJOR MINOR`), or `None` with the reason
/// printed when this machine does not permit it.
pub(crate) fn device(path: &Path, major: u32, minor: u32) -> Option<PathBuf> {
    let made = Command::new("mknod")
        .arg(path)
        .args(["c", &major.to_string(), &minor.to_string()])
        .stderr(Stdio::piped())
        .output();
    match made {
        Ok(out) if out.status.success() => Some(path.to_path_buf()),
        Ok(out) => {
            eprintln!(
                "skipped: cannot make a device node here: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            );
            None
        }
        Err(e) => {
            eprintln!("skipped: no mknod: {e}");
            None
        }
    }
}

/// A FIFO made at `path` (`mkfifo`).
pub(crate) fn fifo(path: &Path) -> PathBuf {
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    path.to_path_buf()
}

/// Runs `sh -c script` in a private user and mount namespace (`unshare -rm`), where the script
/// may mount (a bind mount made read-only, a tiny tmpfs) as root: its output, or `None` with the
/// reason printed when this machine does not permit one. The script ends by printing
/// `exit $?`, which tells that it ran.
pub(crate) fn in_mount_namespace(script: &str) -> Option<Output> {
    match Command::new("unshare")
        .args(["-rm", "sh", "-c", script])
        .output()
    {
        Ok(run) if String::from_utf8_lossy(&run.stdout).contains("exit ") => Some(run),
        Ok(run) => {
            eprintln!(
                "skipped: no private mount namespace here: {}",
                String::from_utf8_lossy(&run.stderr).trim()
            );
            None
        }
        Err(e) => {
            eprintln!("skipped: no unshare: {e}");
            None
        }
    }
}
