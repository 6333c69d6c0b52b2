//! The lint worker: one thread that lints the documents marked dirty, off the main loop. A
//! burst of changes costs one lint: the worker waits until no change has come for the debounce
//! interval (at most [`MAX_DELAY`] in all), and a document changed again while it was being
//! linted has its result dropped (the newer text is linted next), so no stale diagnostics are
//! published.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::diagnostics::{analyse, lint};
use crate::server::{Shared, publish};
use crate::workspace::Kind;

/// The longest a lint waits for a stream of changes to pause.
const MAX_DELAY: Duration = Duration::from_millis(500);

/// Runs until the server shuts down.
pub(crate) fn run(shared: &Shared) {
    loop {
        let Some(batch) = next_batch(shared) else { return };
        for (uri, version, name, text) in batch {
            let config = lock(shared).workspace.config.clone();
            let report = lint(&name, &text, &config);
            let analysis = analyse(&uri, version, &name, &text, report);
            let mut state = lock(shared);
            let Some(doc) = state.docs.get_mut(&uri) else { continue };
            // Changed (or closed and reopened) since: the newer text is dirty already.
            if doc.version != version || !Arc::ptr_eq(&doc.text, &text) {
                continue;
            }
            publish(&shared.sender, &uri, Some(version), analysis.diagnostics.clone());
            doc.analysis = Some(Arc::new(analysis));
        }
    }
}

type Batch = Vec<(lsp_types::Url, i32, String, Arc<str>)>;

/// Waits for dirty documents and for changes to pause; takes them (`None`: shut down).
fn next_batch(shared: &Shared) -> Option<Batch> {
    let mut state = lock(shared);
    while state.dirty.is_empty() && !state.shutdown {
        state = shared
            .wake
            .wait(state)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
    }
    let start = Instant::now();
    loop {
        if state.shutdown {
            return None;
        }
        let seen = state.changes;
        let left = MAX_DELAY.saturating_sub(start.elapsed());
        if left.is_zero() || shared.debounce.is_zero() {
            break;
        }
        let (next, _) = shared
            .wake
            .wait_timeout(state, shared.debounce.min(left))
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        state = next;
        if state.changes == seen {
            break;
        }
    }
    let dirty = std::mem::take(&mut state.dirty);
    let batch = dirty
        .into_iter()
        .filter_map(|uri| {
            let doc = state.docs.get(&uri)?;
            (doc.kind == Kind::Manifest).then(|| (uri.clone(), doc.version, doc.name.clone(), doc.text.clone()))
        })
        .collect();
    Some(batch)
}

pub(crate) fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, crate::server::State> {
    shared.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
