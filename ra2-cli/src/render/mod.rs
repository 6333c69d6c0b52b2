//! Output renderers. Each turns a [`ra2_core::Report`] or the catalogue into text; none does I/O.

pub mod catalogue;
pub mod text;
