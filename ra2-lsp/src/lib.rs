//! ra2-lsp: `ra2 lsp`, the language server. RA2 findings as diagnostics while a manifest is
//! edited, hover text from the catalogue (`ra2 explain`), code actions from the fixes `ra2 lint
//! --fix` applies, and the findings of a rendered Helm chart on its templates' own lines.
//!
//! The engine runs in-process; the protocol is rust-analyzer's lsp-server (synchronous: stdio
//! or in-memory channels) and lsp-types. The main loop only keeps documents and answers cheap
//! requests; linting runs on a worker thread ([`worker`]) that coalesces bursts of changes and
//! drops results for text that has changed since; fixes and Helm renders run on threads of
//! their own. The server claims nothing but diagnostics, hover and code actions (no completion,
//! formatting or symbols), under the source `ra2`, so it runs beside yaml-language-server.

// Bad input never brings the server down: no unwrap, expect or panic outside tests.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod actions;
mod diagnostics;
mod helm;
mod position;
mod server;
mod worker;
mod workspace;

pub use server::{Options, serve};

/// `ra2 lsp`: serves the protocol on standard input and output until the client exits.
pub fn run_stdio(options: &Options) -> Result<(), String> {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    serve(connection, options)?;
    io_threads.join().map_err(|e| format!("the connection failed: {e}"))
}
