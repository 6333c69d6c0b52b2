//! The `/metrics` page: Prometheus text format, every name prefixed `ra2_`.
//!
//! Requests are counted by kind, operation and verdict; latency goes into one histogram;
//! in-flight requests, reloads (by what and outcome) and errors (by reason) are kept beside.
//! Plain atomics and one mutex-guarded map: a request touches the map once.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the latency buckets, in seconds.
pub const BUCKETS: [f64; 12] = [
    0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

/// All counters of one server.
#[derive(Debug, Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, String, String), u64>>,
    buckets: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_nanos: AtomicU64,
    in_flight: AtomicU64,
    reloads: Mutex<BTreeMap<(String, String), u64>>,
    errors: Mutex<BTreeMap<String, u64>>,
    /// Connections served, by the protocol ALPN chose (`h2`, `http/1.1`).
    connections: Mutex<BTreeMap<String, u64>>,
}

/// Decrements the in-flight gauge when dropped.
#[derive(Debug)]
pub struct InFlight<'a>(&'a Metrics);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

fn bump<K: Ord>(map: &Mutex<BTreeMap<K, u64>>, key: K) {
    let mut map = map.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    *map.entry(key).or_insert(0) += 1;
}

impl Metrics {
    /// Counts a request in flight until the guard drops.
    pub fn start(&self) -> InFlight<'_> {
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        InFlight(self)
    }

    /// Counts one judged AdmissionReview.
    pub fn request(&self, kind: &str, operation: &str, verdict: &str, took: Duration) {
        bump(
            &self.requests,
            (kind.to_owned(), operation.to_owned(), verdict.to_owned()),
        );
        self.observe(took);
    }

    /// Adds a latency observation.
    pub fn observe(&self, took: Duration) {
        let seconds = took.as_secs_f64();
        for (bucket, bound) in self.buckets.iter().zip(BUCKETS) {
            if seconds <= bound {
                bucket.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// Counts a reload of `what` (`certificate` or `config`) with its outcome (`ok`, `error`).
    pub fn reload(&self, what: &str, outcome: &str) {
        bump(&self.reloads, (what.to_owned(), outcome.to_owned()));
    }

    /// Counts a connection served with `protocol` (`h2` or `http/1.1`).
    pub fn connection(&self, protocol: &str) {
        bump(&self.connections, protocol.to_owned());
    }

    /// Counts an error answered or met, by reason (`bad_request`, `body_too_large`, `timeout`,
    /// `tls_handshake`, ...).
    pub fn error(&self, reason: &str) {
        bump(&self.errors, reason.to_owned());
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(2048);
        out.push_str("# HELP ra2_admission_requests_total AdmissionReviews judged, by kind, operation and verdict.\n");
        out.push_str("# TYPE ra2_admission_requests_total counter\n");
        for ((kind, operation, verdict), n) in lock(&self.requests).iter() {
            let _ = writeln!(
                out,
                "ra2_admission_requests_total{{kind=\"{}\",operation=\"{}\",verdict=\"{}\"}} {n}",
                escape(kind),
                escape(operation),
                escape(verdict)
            );
        }
        out.push_str("# HELP ra2_admission_duration_seconds Time to read, judge and answer an AdmissionReview.\n");
        out.push_str("# TYPE ra2_admission_duration_seconds histogram\n");
        for (bucket, bound) in self.buckets.iter().zip(BUCKETS) {
            let _ = writeln!(
                out,
                "ra2_admission_duration_seconds_bucket{{le=\"{bound}\"}} {}",
                bucket.load(Ordering::Relaxed)
            );
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "ra2_admission_duration_seconds_bucket{{le=\"+Inf\"}} {count}");
        #[allow(clippy::cast_precision_loss)] // nanoseconds summed stay far below 2^53 for years
        let sum = self.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        let _ = writeln!(out, "ra2_admission_duration_seconds_sum {sum}");
        let _ = writeln!(out, "ra2_admission_duration_seconds_count {count}");
        out.push_str("# HELP ra2_in_flight_requests Requests being answered now.\n");
        out.push_str("# TYPE ra2_in_flight_requests gauge\n");
        let _ = writeln!(out, "ra2_in_flight_requests {}", self.in_flight.load(Ordering::Relaxed));
        out.push_str("# HELP ra2_reloads_total Certificate and config reloads, by outcome.\n");
        out.push_str("# TYPE ra2_reloads_total counter\n");
        for ((what, outcome), n) in lock(&self.reloads).iter() {
            let _ = writeln!(
                out,
                "ra2_reloads_total{{what=\"{}\",outcome=\"{}\"}} {n}",
                escape(what),
                escape(outcome)
            );
        }
        out.push_str("# HELP ra2_connections_total TLS connections served, by the HTTP version ALPN chose.\n");
        out.push_str("# TYPE ra2_connections_total counter\n");
        for (protocol, n) in lock(&self.connections).iter() {
            let _ = writeln!(out, "ra2_connections_total{{protocol=\"{}\"}} {n}", escape(protocol));
        }
        out.push_str("# HELP ra2_errors_total Requests and connections that failed, by reason.\n");
        out.push_str("# TYPE ra2_errors_total counter\n");
        for (reason, n) in lock(&self.errors).iter() {
            let _ = writeln!(out, "ra2_errors_total{{reason=\"{}\"}} {n}", escape(reason));
        }
        out
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A label value in the text format: backslash, quote and newline escaped.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_requests_latency_reloads_and_errors() {
        let m = Metrics::default();
        {
            let _guard = m.start();
            assert!(m.render().contains("ra2_in_flight_requests 1\n"));
        }
        m.request("Pod", "CREATE", "denied", Duration::from_micros(300));
        m.request("Pod", "CREATE", "denied", Duration::from_millis(3));
        m.request("Deployment", "UPDATE", "allowed", Duration::from_secs(2));
        m.reload("certificate", "ok");
        m.error("bad_request");
        m.connection("h2");
        m.connection("h2");
        let text = m.render();
        assert!(text.contains("ra2_in_flight_requests 0\n"), "{text}");
        assert!(
            text.contains("ra2_admission_requests_total{kind=\"Pod\",operation=\"CREATE\",verdict=\"denied\"} 2\n")
        );
        assert!(text.contains("verdict=\"allowed\"} 1\n"));
        assert!(
            text.contains("ra2_admission_duration_seconds_bucket{le=\"0.0005\"} 1\n"),
            "{text}"
        );
        assert!(text.contains("ra2_admission_duration_seconds_bucket{le=\"0.005\"} 2\n"));
        assert!(text.contains("ra2_admission_duration_seconds_bucket{le=\"1\"} 2\n"));
        assert!(text.contains("ra2_admission_duration_seconds_bucket{le=\"+Inf\"} 3\n"));
        assert!(text.contains("ra2_admission_duration_seconds_count 3\n"));
        assert!(text.contains("ra2_reloads_total{what=\"certificate\",outcome=\"ok\"} 1\n"));
        assert!(text.contains("ra2_errors_total{reason=\"bad_request\"} 1\n"));
        assert!(text.contains("ra2_connections_total{protocol=\"h2\"} 2\n"));
        // Every sample line's metric name carries the prefix.
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            assert!(line.starts_with("ra2_"), "{line}");
        }
    }

    #[test]
    fn label_values_are_escaped() {
        let m = Metrics::default();
        m.request("K\"ind\n", "CREATE", "allowed", Duration::ZERO);
        assert!(m.render().contains("kind=\"K\\\"ind\\n\""));
    }
}
