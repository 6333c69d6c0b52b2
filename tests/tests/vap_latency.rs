//! An A/B benchmark of the exported policies' admission latency on one real kube-apiserver
//! (issue 33): each set of policies is applied in turn, several rounds, and a typical Pod's
//! server-side dry run is timed (`Cluster::median_dry_run`: the median of 200 after 20 to warm
//! up), as is no policy at all. Only run when asked:
//!
//! ```sh
//! RA2_VAP_AB='main=/tmp/main.yaml,new=/tmp/new.yaml' RA2_VAP_AB_ROUNDS=3 \
//!   cargo test -p ra2-tests --test vap_latency -- --nocapture
//! ```
//!
//! Each value is a file of `ra2 export vap` (YAML). Without `RA2_VAP_AB` the test compares the
//! build's export of the latest edition with none.

use std::fmt::Write as _;
use std::time::Duration;

use ra2_core::Config;
use ra2_core::export::vap;
use ra2_testkit::Cluster;

const NAMESPACE: &str = "ab";

fn apply(cluster: &Cluster, yaml: &str) {
    let out = cluster.kubectl(
        &[
            "delete",
            "validatingadmissionpolicies,validatingadmissionpolicybindings",
            "-l",
            "app.kubernetes.io/managed-by=ra2",
        ],
        None,
    );
    assert!(out.success, "{}", out.stderr);
    if !yaml.trim().is_empty() {
        let out = cluster.kubectl(&["apply", "--server-side", "-f", "-"], Some(yaml));
        assert!(out.success, "kubectl apply: {}", out.stderr);
    }
    // The policies are in force once the API server's informers have them (a canary that
    // every set denies: a privileged container), and its type checking has settled.
    let canary = serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "privileged", "namespace": NAMESPACE},
        "spec": {"containers": [{"name": "c", "image": "registry.example/app:1.0", "securityContext": {"privileged": true}}]}});
    for _ in 0..100 {
        if cluster.dry_run(&canary).accepted == yaml.trim().is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_secs(2));
}

#[test]
fn vap_admission_latency_a_b() {
    let sets: Vec<(String, String)> = if let Ok(spec) = std::env::var("RA2_VAP_AB") {
        spec.split(',')
            .map(|pair| {
                let (name, path) = pair.split_once('=').expect("NAME=FILE");
                (name.to_owned(), std::fs::read_to_string(path).expect(path))
            })
            .collect()
    } else {
        if std::env::var("RA2_VAP_AB_DEFAULT").is_err() {
            eprintln!(
                "vap_latency: skipped (set RA2_VAP_AB, or RA2_VAP_AB_DEFAULT=1 for the build's export against none)"
            );
            return;
        }
        let config = Config::from_yaml("edition: latest\n", "ab").expect("config");
        let (policies, _) = vap::generate(&config).expect("export");
        vec![("latest".to_owned(), vap::to_yaml(&policies))]
    };
    let rounds: usize = std::env::var("RA2_VAP_AB_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(3);
    let Some(cluster) = Cluster::start_or_skip("vap_latency") else {
        return;
    };
    cluster.create_namespace(NAMESPACE);
    let pod = ra2_testkit::typical_pod(NAMESPACE);
    for (name, yaml) in &sets {
        assert!(yaml.contains("ValidatingAdmissionPolicy"), "{name}: no policies");
    }
    for round in 1..=rounds {
        let mut line = format!("vap_latency: round {round}:");
        for (name, yaml) in sets.iter().map(|(n, y)| (n.as_str(), y.as_str())).chain([("none", "")]) {
            apply(&cluster, yaml);
            let verdict = cluster.dry_run(&pod);
            assert!(
                verdict.accepted,
                "{name}: the typical Pod is refused: {}",
                verdict.message
            );
            let _ = write!(line, " {name} {:.2?}", cluster.median_dry_run(&pod));
            if round == 1
                && let Ok(dir) = std::env::var("RA2_VAP_AB_PPROF")
            {
                profile(&cluster, &pod, &format!("{dir}/{name}.pprof"));
            }
        }
        eprintln!("{line}");
    }
}

/// A CPU profile of kube-apiserver (its /debug/pprof, with `RA2_APISERVER_PROFILING=1`) over
/// ten seconds of dry runs of `pod`, written to `path` (read with `go tool pprof`).
fn profile(cluster: &Cluster, pod: &serde_json::Value, path: &str) {
    let stop = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                cluster.dry_run(pod);
            }
        });
        let out = std::process::Command::new("curl")
            .args(["-sk", "-o", path, "-H", "Authorization: Bearer ra2-testkit-admin-token"])
            .arg(format!("{}/debug/pprof/profile?seconds=10", cluster.url))
            .status();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        assert!(matches!(out, Ok(s) if s.success()), "curl {path}: {out:?}");
    });
}
