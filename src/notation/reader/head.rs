//! A file's head judged as git judges text from binary: UTF-16, binary, text whose lines end in
//! CR alone, or text.

use crate::notation::newlines::count_newlines;

pub(super) const BOM: &[u8] = b"\xef\xbb\xbf";
/// How much of a file's head is looked at to tell text from binary (as git decides): always this
/// much, whatever the read chunk, so the verdict does not depend on how the file is read.
pub(super) const SNIFF: usize = 8000;

/// What the head of a file says it is, as git decides text from binary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Head {
    /// Text whose lines end in LF (or CR LF).
    Text,
    /// Text whose lines end in CR alone: more CRs not followed by LF than LFs in the head.
    CrLines,
    /// UTF-16, by its byte-order mark.
    Utf16,
    /// A NUL byte in the head.
    Binary,
}

/// Judges the first [`SNIFF`] bytes of a file (after a UTF-8 byte-order mark).
pub(crate) fn judge_head(bytes: &[u8]) -> Head {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let head = &bytes[..bytes.len().min(SNIFF)];
    if head.starts_with(b"\xff\xfe") || head.starts_with(b"\xfe\xff") {
        Head::Utf16
    } else if head.contains(&0) {
        Head::Binary
    } else if lone_crs(head) > count_newlines(head) {
        Head::CrLines
    } else {
        Head::Text
    }
}

/// The CRs in `bytes` not followed by LF.
fn lone_crs(bytes: &[u8]) -> usize {
    let ending = usize::from(bytes.last() == Some(&b'\r'));
    ending
        + bytes
            .windows(2)
            .filter(|w| w[0] == b'\r' && w[1] != b'\n')
            .count()
}

/// Swaps CR and LF in place: how the lines of a CR-only file are read, and (swapped again) how
/// its bytes are given back as read.
pub(crate) fn swap_cr_lf(bytes: &mut [u8]) {
    for b in bytes {
        *b = match *b {
            b'\r' => b'\n',
            b'\n' => b'\r',
            other => other,
        };
    }
}

/// The bytes of a file a head of [`SNIFF`] bytes are enough to judge.
pub(crate) const HEAD_BYTES: usize = SNIFF + BOM.len();
