//! The `ra2` command's library: input discovery and the output renderers, kept apart from
//! `main` so that tests render exactly what users see.

pub mod render;
