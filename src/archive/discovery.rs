//! Finding the files to read: the `.sgn` files under the paths given, each folder read once.

use crate::notation::{input_name, is_stdin};
use std::path::{Path, PathBuf};

/// The files [`sgn_files`] found to read, and what it could not read or left out.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct Inputs {
    /// The files to read, in the order given (folders listed in name order).
    pub files: Vec<PathBuf>,
    /// Paths that do not exist or cannot be listed.
    pub errors: Vec<InputError>,
    /// What was left out (not a regular file, a folder already read) and what the user should
    /// know before reading starts (a FIFO waits for a writer).
    pub notes: Vec<String>,
}

/// A path [`sgn_files`] could not read: one that does not exist, a folder that cannot be listed.
#[derive(Debug, thiserror::Error)]
#[error("{}: {}", input_name(path), reason(error))]
#[non_exhaustive]
pub struct InputError {
    /// The path given, or found in a folder.
    pub path: PathBuf,
    /// Why it could not be read.
    #[source]
    pub error: std::io::Error,
}

/// An I/O error as a message names it ("no such file or folder" rather than the system's words).
fn reason(error: &std::io::Error) -> String {
    match error.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".to_string(),
        _ => error.to_string(),
    }
}

/// Every `.sgn` file under the given paths (names in the messages made printable, as
/// [`input_name`] shows them), sorted within each folder. Paths given by name are
/// taken as given (a FIFO or device too, and `-` for standard input); in folders only regular
/// files and links to them are read, and every folder once, whatever the links (so a link loop
/// ends).
pub fn sgn_files(paths: impl IntoIterator<Item = impl AsRef<Path>>) -> Inputs {
    let mut found = Inputs::default();
    let mut folders = Folders::default();
    for path in paths {
        let path = path.as_ref();
        if is_stdin(path) {
            found.files.push(path.to_path_buf());
            continue;
        }
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, &meta, &mut found, &mut folders),
            Ok(meta) => {
                if let Some(kind) = special_kind(&meta).filter(|&k| k == "a FIFO") {
                    found.notes.push(format!(
                        "{} is {kind}: reading waits until a program opens it for writing",
                        input_name(path)
                    ));
                }
                found.files.push(path.to_path_buf());
            }
            Err(error) => found.errors.push(InputError {
                path: path.to_path_buf(),
                error,
            }),
        }
    }
    found
}

/// The folders read so far, by device and inode, with the path each was first read under.
#[derive(Default)]
struct Folders(std::collections::HashMap<(u64, u64), PathBuf>);

impl Folders {
    /// The path `dir` was already read under, or records it as read now.
    fn seen(&mut self, dir: &Path, meta: &std::fs::Metadata) -> Option<PathBuf> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match self.0.entry((meta.dev(), meta.ino())) {
                std::collections::hash_map::Entry::Occupied(first) => Some(first.get().clone()),
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(dir.to_path_buf());
                    None
                }
            }
        }
        #[cfg(not(unix))]
        {
            let _ = (dir, meta);
            None
        }
    }
}

fn walk(dir: &Path, meta: &std::fs::Metadata, found: &mut Inputs, folders: &mut Folders) {
    if let Some(first) = folders.seen(dir, meta) {
        found.notes.push(format!(
            "{}: skipped, the folder {} already read (a link loop or a second link to it)",
            input_name(dir),
            input_name(&first)
        ));
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(error) => {
            found.errors.push(InputError {
                path: dir.to_path_buf(),
                error,
            });
            return;
        }
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let sgn = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("sgn"));
        // Followed through links: a link to a regular file is read, a link to a folder walked.
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => walk(&path, &meta, found, folders),
            Ok(meta) if sgn && meta.is_file() => found.files.push(path),
            Ok(meta) if sgn => found.notes.push(format!(
                "{}: skipped: {}, not a regular file",
                input_name(&path),
                special_kind(&meta).unwrap_or("a special file")
            )),
            Ok(_) => {}
            Err(error) if sgn => found.errors.push(InputError { path, error }),
            Err(_) => {}
        }
    }
}

/// What a file that is neither regular nor a folder is, for messages.
fn special_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        [
            (t.is_fifo(), "a FIFO"),
            (t.is_char_device(), "a character device"),
            (t.is_block_device(), "a block device"),
            (t.is_socket(), "a socket"),
        ]
        .into_iter()
        .find_map(|(is, kind)| is.then_some(kind))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}
