//! Newlines counted fast: the file positions of the reader and of diagnostics.

/// The bytes [`count_newlines`] counts at a time: fewer than 256, for byte counters, and a
/// multiple of the 64 bytes of its unrolled vector loop, so that no block ends in a byte-at-a-time
/// tail (count_games on 8 MB, callgrind: 174.3 M instructions in all with 192, 174.8 M with 128,
/// 175.9 M with 240, 177.3 M with 255).
const NEWLINE_BLOCK: usize = 192;

/// Newlines in `bytes`: a plain count, which the compiler turns into vector compares; in blocks of
/// [`NEWLINE_BLOCK`] bytes so that per-lane byte counters cannot overflow.
pub(crate) fn count_newlines(bytes: &[u8]) -> usize {
    bytes
        .chunks(NEWLINE_BLOCK)
        .map(|block| {
            block
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add((b == b'\n') as u8)) as usize
        })
        .sum()
}

/// [`count_newlines`], and whether `bytes` holds a NUL byte, in the same pass.
pub(crate) fn newlines_and_nul(bytes: &[u8]) -> (usize, bool) {
    bytes
        .chunks(NEWLINE_BLOCK)
        .fold((0, false), |(newlines, nul), block| {
            let (n, zero) = block.iter().fold((0u8, 0u8), |(n, zero), &b| {
                (n.wrapping_add((b == b'\n') as u8), zero | (b == 0) as u8)
            });
            (newlines + n as usize, nul || zero != 0)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_newlines_in_words_and_tails() {
        let cases: [&[u8]; 4] = [
            b"",
            b"\n",
            b"a\nb\n\n",
            b"0123456\n89\n\n\n\n\n\n\n\nx\x8a\x0a\xff\n",
        ];
        for text in cases {
            let expected = text.iter().filter(|&&b| b == b'\n').count();
            assert_eq!(count_newlines(text), expected, "{text:?}");
        }
    }

    #[test]
    fn newlines_are_counted_across_runs() {
        let mut text = vec![b'x'; 1000];
        for i in (0..1000).step_by(3) {
            text[i] = b'\n';
        }
        let expected = text.iter().filter(|&&b| b == b'\n').count();
        assert_eq!(count_newlines(&text), expected);
        assert_eq!(count_newlines(&[b'\n'; 600]), 600);
        assert_eq!(count_newlines(b""), 0);
    }

    #[test]
    fn newlines_and_nul_bytes_are_found_in_one_pass_as_in_two() {
        let mut text = vec![b'x'; 1000];
        for i in (0..1000).step_by(7) {
            text[i] = b'\n';
        }
        assert_eq!(newlines_and_nul(&text), (count_newlines(&text), false));
        assert_eq!(newlines_and_nul(&[b'\n'; 600]), (600, false));
        assert_eq!(newlines_and_nul(b""), (0, false));
        // A NUL in the first block, on a block's edge, and in the short last block.
        for at in [0, 191, 192, 999] {
            let mut with_nul = text.clone();
            with_nul[at] = 0;
            let newlines = count_newlines(&with_nul);
            assert_eq!(newlines_and_nul(&with_nul), (newlines, true), "NUL at {at}");
        }
    }
}
