//! Terminal output. The machine-readable renderers, shared with the other faces, are in
//! `ra2_report`.

pub mod text;
