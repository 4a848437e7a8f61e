//! The fonts text is drawn with: DejaVu Sans, cut down to the characters a diagram or a game
//! printed in Latin script uses (`assets/fonts/`, made by `scripts/make-font-subset.sh`, with its
//! licence), shipped in the binary so PNG and PDF output look the same on every machine; the
//! system's fonts after it for any other character.

use resvg::usvg::fontdb::Database;
use std::sync::{Arc, OnceLock};

/// The family name the SVG writers ask for first.
pub const FAMILY: &str = "DejaVu Sans";

/// The regular face of the shipped subset.
pub const REGULAR: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");
/// The bold face (main-line moves, piece numerals).
pub const BOLD: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold-subset.ttf");
/// The oblique face.
pub const OBLIQUE: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Oblique-subset.ttf");
const SHIPPED: [&[u8]; 3] = [REGULAR, BOLD, OBLIQUE];

/// The shipped faces, then the system's, loaded once.
pub fn database() -> Arc<Database> {
    static FONTS: OnceLock<Arc<Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = Database::new();
            for face in SHIPPED {
                db.load_font_data(face.to_vec());
            }
            db.load_system_fonts();
            db.set_sans_serif_family(FAMILY);
            Arc::new(db)
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_faces_are_found_first() {
        let db = database();
        let first: Vec<String> = db
            .faces()
            .take(3)
            .map(|f| f.families[0].0.clone())
            .collect();
        assert_eq!(first, [FAMILY; 3]);
        for weight in [400, 700] {
            let query = resvg::usvg::fontdb::Query {
                families: &[resvg::usvg::fontdb::Family::Name(FAMILY)],
                weight: resvg::usvg::fontdb::Weight(weight),
                ..Default::default()
            };
            assert!(db.query(&query).is_some(), "weight {weight}");
        }
    }
}
