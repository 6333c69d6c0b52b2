//! ra2 in WebAssembly: one thin layer over `ra2_core` ([`api`]) and its two faces, the
//! browser/Node module (`web`, wasm-bindgen, built for wasm32-unknown-unknown) and the Kubewarden
//! admission policy ([`policy`], a waPC guest built for wasm32-wasip1).
//!
//! The faces only move data across their boundary: text and JSON in, the JSON output contract
//! or an admission response out. Everything they decide is plain Rust here or in `ra2_core`,
//! so it is unit-tested natively.
// A panic would trap the module (a dead policy instance, a RuntimeError in JS): as in ra2-core,
// no unwrap, expect, panic or unchecked indexing outside tests.
#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)
)]

pub mod api;
pub mod policy;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod web;

#[cfg(all(target_arch = "wasm32", target_os = "wasi"))]
mod wapc;
