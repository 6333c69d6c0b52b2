//! The `ra2` command's library: the command line, input discovery and the output renderers,
//! kept apart from `main` so that tests render exactly what users see.

pub mod app;
pub mod chart;
pub mod cli;
pub mod input;
pub mod kustomize;
pub mod parallel;
pub mod render;
pub mod settings;
pub mod source_root;
pub mod template_map;
