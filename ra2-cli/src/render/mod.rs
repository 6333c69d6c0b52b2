//! Output renderers. Each turns a [`ra2_core::Report`] into text; none does I/O.

pub mod text;
