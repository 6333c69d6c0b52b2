//! `ra2 serve`: the RA2 admission webhook over HTTPS (DESIGN.md, `ra2 serve` contract).
//!
//! The decision is `ra2_core::admission::review`, the one the Kubewarden policy, JS and
//! Python `review` make; this crate adds only the transport ([`server`]), the serving
//! certificate and its reload ([`tls`]), the settings and their reload ([`settings`]), the
//! limits ([`limits`]) and the metrics ([`metrics`]).
#![forbid(unsafe_code)]

pub mod limits;
pub mod metrics;
pub mod server;
pub mod settings;
pub mod tls;

pub use limits::Limits;
pub use server::{Options, Server};
