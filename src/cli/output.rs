//! Where a command's output goes: standard output, or the file `-o` names. A regular file (or a
//! name not yet taken) is written to a temporary file beside it and renamed over it only when the
//! command succeeds; a character device or FIFO (`/dev/null`, a terminal, a named pipe) is written
//! to directly, never replaced.

use super::CliError;
use salta::notation::input_name;
use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Marks the temporary files of this tool: `.NAME.salta-tmp.HOST.PID.RANDOM`.
const TEMP_MARK: &str = "salta-tmp";

/// A command's output being written; [`Output::commit`] makes it final.
pub struct Output {
    sink: Sink,
}

enum Sink {
    Stdout(BufWriter<io::StdoutLock<'static>>),
    /// A special file given by `-o`, written in place.
    Direct {
        path: PathBuf,
        out: BufWriter<File>,
    },
    /// A temporary file, renamed over `path` by the commit and removed if dropped before.
    Replace {
        path: PathBuf,
        temp: PathBuf,
        out: BufWriter<File>,
        committed: bool,
    },
}

impl Output {
    /// Standard output without `-o` (or with `-o -`), else the file.
    pub fn open(path: Option<&Path>, inputs: &[PathBuf]) -> Result<Output, CliError> {
        match path {
            Some(path) if path != Path::new("-") => Output::create(path, inputs),
            _ => Ok(Output::stdout()),
        }
    }

    pub fn stdout() -> Output {
        Output {
            sink: Sink::Stdout(BufWriter::new(io::stdout().lock())),
        }
    }

    /// The file `path`, which must not be one of the `inputs`.
    pub fn create(path: &Path, inputs: &[PathBuf]) -> Result<Output, CliError> {
        refuse_inputs(path, inputs)?;
        let cannot =
            |e: io::Error| CliError::new(format!("cannot write {}: {e}", input_name(path)));
        // Followed through links: `-o /dev/stdout` is the pipe or terminal it stands for.
        let existing = match fs::metadata(path) {
            Ok(meta) => Some(meta),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(cannot(e)),
        };
        if let Some(meta) = &existing
            && !meta.is_file()
        {
            if !is_stream(meta) {
                return Err(CliError::new(format!(
                    "cannot write {}: it is not a regular file, a character device or a FIFO",
                    input_name(path)
                ))
                .with_help("name a file to write"));
            }
            let file = open_stream(path, meta).map_err(cannot)?;
            return Ok(Output {
                sink: Sink::Direct {
                    path: path.to_path_buf(),
                    out: BufWriter::new(file),
                },
            });
        }
        let names = TempName::new(path);
        let (temp, file) = names.create().map_err(|e| {
            // The file is made in the output's folder, and that is what must be writable.
            CliError::new(format!(
                "cannot write {}: cannot create a file in the folder {}: {e}",
                input_name(path),
                input_name(&names.folder)
            ))
        })?;
        super::signals::register(&temp);
        let output = Output {
            sink: Sink::Replace {
                path: path.to_path_buf(),
                temp: temp.clone(),
                out: BufWriter::new(file),
                committed: false,
            },
        };
        // The replaced file keeps its permissions (those of the file a replaced link led to).
        if let Some(meta) = existing {
            fs::set_permissions(&temp, meta.permissions()).map_err(cannot)?;
        }
        Ok(output)
    }

    pub fn writer(&mut self) -> &mut dyn Write {
        match &mut self.sink {
            Sink::Stdout(out) => out,
            Sink::Direct { out, .. } | Sink::Replace { out, .. } => out,
        }
    }

    /// Whether dropping this output without a commit leaves the target as it was.
    pub fn is_replacing(&self) -> bool {
        matches!(self.sink, Sink::Replace { .. })
    }

    /// The error to report for a failed write.
    pub fn failed(&self, e: io::Error) -> CliError {
        match &self.sink {
            Sink::Stdout(_) => CliError::io("cannot write to standard output", e),
            Sink::Direct { path, .. } | Sink::Replace { path, .. } => {
                CliError::io(&format!("cannot write {}", input_name(path)), e)
            }
        }
    }

    /// Writes out what is buffered and, for a temporary file, syncs it and renames it into place.
    pub fn commit(self) -> Result<(), CliError> {
        self.close()?.commit()
    }
}

impl Output {
    /// Writes out what is buffered and closes the file, to be committed later with others
    /// ([`Closed::commit`]): a temporary file stays where it is until then (removed if the
    /// `Closed` is dropped).
    pub fn close(mut self) -> Result<Closed, CliError> {
        let closed = match &mut self.sink {
            Sink::Stdout(out) => out.flush().map(|()| Closed { rename: None }),
            Sink::Direct { out, .. } => out.flush().map(|()| Closed { rename: None }),
            Sink::Replace {
                path,
                temp,
                out,
                committed,
            } => out
                .flush()
                .and_then(|()| out.get_ref().sync_all())
                .map(|()| {
                    // The temporary file is the Closed's to remove now.
                    *committed = true;
                    Closed {
                        rename: Some((temp.clone(), path.clone())),
                    }
                }),
        };
        closed.map_err(|e| self.failed(e))
    }
}

/// An output written in full and closed, not yet in place ([`Output::close`]).
pub struct Closed {
    /// The temporary file and the path it is renamed to.
    rename: Option<(PathBuf, PathBuf)>,
}

impl Closed {
    /// Renames the temporary file into place.
    pub fn commit(mut self) -> Result<(), CliError> {
        let Some((temp, path)) = self.rename.take() else {
            return Ok(());
        };
        let renamed = fs::rename(&temp, &path);
        super::signals::unregister(&temp);
        renamed.map_err(|e| {
            let _ = fs::remove_file(&temp);
            CliError::io(&format!("cannot write {}", input_name(&path)), e)
        })
    }
}

impl Drop for Closed {
    fn drop(&mut self) {
        if let Some((temp, _)) = self.rename.take() {
            let _ = fs::remove_file(&temp);
            super::signals::unregister(&temp);
        }
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Sink::Replace {
            temp,
            committed: false,
            ..
        } = &self.sink
        {
            let _ = fs::remove_file(temp);
            super::signals::unregister(temp);
        }
    }
}

/// Opens a character device or FIFO for writing. Opening a FIFO waits for a program to open it for
/// reading: when none has yet, a note says so first (as for a FIFO read from).
fn open_stream(path: &Path, meta: &fs::Metadata) -> io::Result<File> {
    #[cfg(unix)]
    if std::os::unix::fs::FileTypeExt::is_fifo(&meta.file_type()) {
        use std::os::fd::AsRawFd;
        use std::os::unix::fs::OpenOptionsExt;
        // Without a reader, a non-blocking open fails (ENXIO) instead of waiting. With one, the
        // file opened is kept (closing it would end the reader's input) and made blocking again.
        match OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(path)
        {
            Ok(file) => {
                // SAFETY: F_GETFL and F_SETFL on a file descriptor this function owns.
                let flags = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETFL) };
                if flags == -1
                    || unsafe {
                        libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK)
                    } == -1
                {
                    return Err(io::Error::last_os_error());
                }
                return Ok(file);
            }
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => super::warn(format_args!(
                "{} is a FIFO: writing waits until a program opens it for reading",
                input_name(path)
            )),
            Err(e) => return Err(e),
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    OpenOptions::new().write(true).open(path)
}

/// Writes a whole output with `write` and commits it (see [`Output`]).
pub fn write_output(
    path: Option<&Path>,
    inputs: &[PathBuf],
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), CliError> {
    let mut out = Output::open(path, inputs)?;
    write(out.writer()).map_err(|e| out.failed(e))?;
    out.commit()
}

fn refuse_inputs(path: &Path, inputs: &[PathBuf]) -> Result<(), CliError> {
    let canonical = |p: &Path| fs::canonicalize(p).ok();
    if let Some(target) = canonical(path)
        && inputs
            .iter()
            .any(|i| canonical(i).as_ref() == Some(&target))
    {
        return Err(CliError::new(format!(
            "{} is an input file: refusing to write over it",
            input_name(path)
        ))
        .with_help("choose another output file"));
    }
    Ok(())
}

/// A character device or FIFO: written in place. Block devices and folders are refused.
fn is_stream(meta: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        meta.file_type().is_char_device() || meta.file_type().is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// The temporary name of an output: `.NAME.salta-tmp.HOST.PID.RANDOM` in the output's folder.
/// Host and process id let a later run tell a file left by a killed run from one being written.
struct TempName {
    folder: PathBuf,
    /// `.NAME.salta-tmp.HOST.`: every temporary file of this output on this host.
    prefix: String,
}

impl TempName {
    fn new(path: &Path) -> TempName {
        let folder = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "output".into());
        TempName {
            folder,
            prefix: format!(".{name}.{TEMP_MARK}.{}.", host()),
        }
    }

    /// Removes stale temporary files of this output, then creates a new one exclusively: never
    /// through a file or link already there.
    fn create(&self) -> io::Result<(PathBuf, File)> {
        self.remove_stale();
        let mut tries = 0;
        loop {
            let temp = self.folder.join(format!(
                "{}{}.{:016x}",
                self.prefix,
                std::process::id(),
                random()
            ));
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => return Ok((temp, file)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 16 => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }

    /// Removes this output's temporary files left on this host by runs that no longer exist
    /// (killed before they could clean up). Only where process ids can be looked up (Linux).
    fn remove_stale(&self) {
        if !Path::new("/proc/self").exists() {
            return;
        }
        let Ok(entries) = fs::read_dir(&self.folder) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(&self.prefix)) else {
                continue;
            };
            let Some((pid, random)) = rest.split_once('.') else {
                continue;
            };
            let ours = pid.bytes().all(|b| b.is_ascii_digit())
                && !pid.is_empty()
                && random.len() == 16
                && random.bytes().all(|b| b.is_ascii_hexdigit());
            let dead = !Path::new("/proc").join(pid).exists();
            let regular = entry.file_type().is_ok_and(|t| t.is_file());
            if ours && dead && regular {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
}

/// This machine's name, as far as it can be read, fit for a file name.
fn host() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let name: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.is_empty() { "host".into() } else { name }
}

/// 64 unpredictable bits: std's hash keys are seeded from the system's random source.
fn random() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.finish()
}
