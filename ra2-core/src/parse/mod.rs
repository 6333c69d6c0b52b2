//! Stage 1, reading: text in, spanned document trees out. A stream is cut into documents
//! ([`source`]), each read into a tree of nodes with spans ([`doc`]; JSON straight from its text,
//! [`json`], and the block and flow YAML that Helm, kustomize and kubectl write,
//! [`yaml`]), plain scalars resolved as the API server resolves them ([`scalar`]), `kind: List`
//! cut into items ([`list`]), and every node reachable with its JSON pointer and position
//! ([`view`]).

pub mod doc;
pub(crate) mod json;
pub mod list;
pub mod scalar;
pub mod source;
pub mod view;
pub(crate) mod yaml;
