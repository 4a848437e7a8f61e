//! The PNG writer: the SVG rendered by resvg at the chosen resolution, with a pHYs chunk so that
//! print software places it at its intended physical size.

use super::DiagramError;
use resvg::{tiny_skia, usvg};
use std::sync::Arc;

/// The largest image rendered, in pixels (about 400 MB of RGBA).
const MAX_PIXELS: u64 = 100_000_000;

/// The pixel dimensions of an SVG of `width × height` CSS pixels rendered at `dpi`.
pub(crate) fn pixel_size(width: f32, height: f32, dpi: f32) -> (u32, u32) {
    let scale = dpi / 96.0;
    (
        (width * scale).round().max(1.0) as u32,
        (height * scale).round().max(1.0) as u32,
    )
}

/// Renders an SVG document to PNG bytes at `dpi`.
pub(crate) fn render(svg: &str, dpi: f32) -> Result<Vec<u8>, DiagramError> {
    render_with_fonts(svg, dpi, crate::export::fonts::database())
}

pub(crate) fn render_with_fonts(
    svg: &str,
    dpi: f32,
    fonts: Arc<usvg::fontdb::Database>,
) -> Result<Vec<u8>, DiagramError> {
    if !(super::options::DPI_RANGE.contains(&dpi)) {
        return Err(DiagramError::Dpi(dpi));
    }
    let options = usvg::Options {
        fontdb: fonts,
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| DiagramError::Svg(e.to_string()))?;
    let (width, height) = pixel_size(tree.size().width(), tree.size().height(), dpi);
    if width as u64 * height as u64 > MAX_PIXELS {
        return Err(DiagramError::TooLarge { width, height });
    }
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(DiagramError::TooLarge { width, height })?;
    let scale = dpi / 96.0;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let png = pixmap
        .encode_png()
        .map_err(|e| DiagramError::Png(e.to_string()))?;
    Ok(with_resolution(png, dpi))
}

/// Inserts a pHYs chunk (pixels per metre) right after IHDR. IHDR is always the first chunk and
/// 13 bytes long, so it ends at byte 8 + 4 + 4 + 13 + 4 = 33.
fn with_resolution(png: Vec<u8>, dpi: f32) -> Vec<u8> {
    const IHDR_END: usize = 33;
    if png.len() < IHDR_END || png.get(12..16) != Some(b"IHDR") {
        return png;
    }
    let per_metre = (dpi / 0.0254).round() as u32;
    let mut chunk = Vec::with_capacity(21);
    chunk.extend_from_slice(&9u32.to_be_bytes());
    chunk.extend_from_slice(b"pHYs");
    chunk.extend_from_slice(&per_metre.to_be_bytes());
    chunk.extend_from_slice(&per_metre.to_be_bytes());
    chunk.push(1); // unit: metre
    let crc = crc32(&chunk[4..]);
    chunk.extend_from_slice(&crc.to_be_bytes());
    let mut out = Vec::with_capacity(png.len() + chunk.len());
    out.extend_from_slice(&png[..IHDR_END]);
    out.extend_from_slice(&chunk);
    out.extend_from_slice(&png[IHDR_END..]);
    out
}

/// The CRC-32 of PNG chunks (ISO 3309, reflected polynomial 0xEDB88320).
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= byte as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">
<rect width="40" height="20" fill="#ffffff"/><text x="2" y="15" font-family="sans-serif" font-size="12">a1</text></svg>"##;

    #[test]
    fn crc_matches_the_png_reference_value() {
        // The CRC of an IEND chunk type, present at the end of every PNG.
        assert_eq!(crc32(b"IEND"), 0xAE42_6082);
    }

    #[test]
    fn renders_without_any_font() {
        let empty = Arc::new(usvg::fontdb::Database::new());
        let png = render_with_fonts(SVG, 192.0, empty).unwrap();
        let decoded = tiny_skia::Pixmap::decode_png(&png).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (80, 40));
    }

    #[test]
    fn resolution_chunk_is_written_and_decodable() {
        let png = render(SVG, 300.0).unwrap();
        assert_eq!(&png[37..41], b"pHYs");
        assert_eq!(
            u32::from_be_bytes([png[41], png[42], png[43], png[44]]),
            11811
        );
        assert!(tiny_skia::Pixmap::decode_png(&png).is_ok());
    }

    #[test]
    fn absurd_resolutions_are_refused() {
        for dpi in [0.0, -5.0, f32::NAN, 1e9] {
            assert!(
                matches!(render(SVG, dpi), Err(DiagramError::Dpi(_))),
                "{dpi}"
            );
        }
    }
}
