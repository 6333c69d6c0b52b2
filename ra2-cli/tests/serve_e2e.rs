//! `ra2 serve` called by a real kube-apiserver (ra2-testkit) through a
//! ValidatingWebhookConfiguration, driven with kubectl: every assertion is on what kubectl
//! printed or on what exists afterwards.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ra2_testkit::{Cluster, free_port, https_get, webhook_configuration};
use serde_json::json;

/// `ra2 serve` as a child process, stopped on drop.
struct Serve {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Serve {
    fn start(dir: &Path, cert: &Path, key: &Path) -> Serve {
        let port = free_port();
        let log = dir.join("serve.log");
        let config = dir.join(".ra2.yaml");
        std::fs::write(&config, "fail-on: error\n").unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_ra2"))
            .args(["serve", "--listen", &format!("127.0.0.1:{port}"), "--access-log"])
            .arg("--config")
            .arg(&config)
            .arg("--cert")
            .arg(cert)
            .arg("--key")
            .arg(key)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(30), "ra2 serve did not listen");
            std::thread::sleep(Duration::from_millis(20));
        }
        Serve { child, port, log }
    }

    fn url(&self) -> String {
        format!("https://127.0.0.1:{}", self.port)
    }

    fn signal(&self, name: &str) {
        let sent = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }

    /// SIGTERM, then the exit status.
    fn terminate(&mut self) -> std::process::ExitStatus {
        self.signal("TERM");
        self.child.wait().unwrap()
    }

    /// Waits until the log says `what`.
    fn wait_log(&self, what: &str) {
        let started = Instant::now();
        loop {
            let log = std::fs::read_to_string(&self.log).unwrap_or_default();
            if log.contains(what) {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no {what:?} in the log: {log}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn write_pair(cluster: &Cluster, cert: &Path, key: &Path) {
    // Written beside and renamed into place, as a Secret volume update does.
    let (c, k) = cluster.authority.issue("ra2-serve");
    let (cert_new, key_new) = (cert.with_extension("crt.new"), key.with_extension("key.new"));
    std::fs::write(&cert_new, c).unwrap();
    std::fs::write(&key_new, k).unwrap();
    std::fs::rename(&cert_new, cert).unwrap();
    std::fs::rename(&key_new, key).unwrap();
}

const PRIVILEGED_POD: &str = "\
apiVersion: v1
kind: Pod
metadata: {name: privileged, namespace: e2e}
spec:
  containers:
  - name: app
    image: registry.example/app:1.0
    securityContext: {privileged: true}
";

const WARNED_POD: &str = "\
apiVersion: v1
kind: Pod
metadata: {name: warned, namespace: e2e}
spec:
  containers:
  - name: app
    image: registry.example/app:1.0
";

fn deployment(name: &str, privileged: bool) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}, namespace: e2e}}
spec:
  replicas: 1
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
      containers:
      - name: app
        image: registry.example/app:1.0
        securityContext: {{privileged: {privileged}}}
"
    )
}

const BAD_CRONJOB: &str = "\
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly, namespace: e2e}
spec:
  schedule: '0 3 * * *'
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: job
            image: registry.example/job:1.0
            securityContext: {privileged: true}
";

fn assert_denied_by_ra2(out: &ra2_testkit::Output, what: &str) {
    assert!(!out.success, "{what} was admitted: {}", out.stdout);
    assert!(out.stderr.contains("denied the request"), "{what}: {}", out.stderr);
    assert!(out.stderr.contains("ra2.app.009"), "{what}: {}", out.stderr);
    assert!(
        out.stderr.contains("securityContext/privileged"),
        "{what}: {}",
        out.stderr
    );
    assert!(out.stderr.contains("is privileged"), "{what}: {}", out.stderr);
}

#[test]
fn the_api_server_asks_ra2_serve() {
    let Some(cluster) = Cluster::start_or_skip("the_api_server_asks_ra2_serve") else {
        return;
    };
    eprintln!("etcd + kube-apiserver ready in {:?}", cluster.startup);
    let dir = cluster.dir().to_path_buf();
    let (cert, key) = (dir.join("serve.crt"), dir.join("serve.key"));
    write_pair(&cluster, &cert, &key);
    let mut serve = Serve::start(&dir, &cert, &key);
    let ca = cluster.authority.cert_pem();
    cluster.create_namespace("e2e");
    let typical = ra2_testkit::typical_pod("e2e");
    let without = cluster.median_dry_run(&typical);
    let mut config = webhook_configuration("ra2", &format!("{}/validate", serve.url()), &ca, "Fail");
    // DELETE goes to ra2 too, to show that it allows it.
    config["webhooks"][0]["rules"][1]["operations"] = json!(["CREATE", "UPDATE", "DELETE"]);
    let registered = cluster.create(&config, false);
    assert!(registered.accepted, "{}", registered.message);
    // In force once ra2's warnings come back.
    let deadline = Instant::now() + Duration::from_secs(30);
    while cluster.dry_run(&typical).warnings.is_empty() {
        assert!(Instant::now() < deadline, "the webhook never came into force");
        std::thread::sleep(Duration::from_millis(100));
    }
    // Compare with `vap_differential`'s line for the exported policies (same Pod, same harness).
    eprintln!(
        "serve e2e: a typical Pod's server-side dry run takes {:.2?} (median of 200) with ra2 serve as the webhook, {without:.2?} without",
        cluster.median_dry_run(&typical)
    );
    let kubectl = |args: &[&str], stdin: Option<&str>| cluster.kubectl(args, stdin);

    // A privileged Pod: denied, and kubectl prints the rule, the pointer and the message.
    let out = kubectl(&["apply", "-f", "-"], Some(PRIVILEGED_POD));
    assert_denied_by_ra2(&out, "privileged pod");
    assert!(
        out.stderr.contains("admission webhook \"ra2.ra2.dev\""),
        "{}",
        out.stderr
    );
    // kubectl apply --dry-run=server is judged the same way.
    let out = kubectl(&["apply", "--dry-run=server", "-f", "-"], Some(PRIVILEGED_POD));
    assert_denied_by_ra2(&out, "dry-run pod");

    // A Pod with findings below the threshold only: admitted, with the findings as warnings.
    let out = kubectl(&["apply", "-f", "-"], Some(WARNED_POD));
    assert!(out.success, "{}", out.stderr);
    assert!(out.stderr.contains("Warning: ra2.ch.006"), "{}", out.stderr);
    assert!(out.stderr.contains("cpu"), "{}", out.stderr);
    let got = kubectl(&["get", "pod", "warned", "-n", "e2e", "-o", "name"], None);
    assert_eq!(got.stdout.trim(), "pod/warned");

    // Controllers are judged by their template (no controller manager runs here).
    assert_denied_by_ra2(
        &kubectl(&["apply", "-f", "-"], Some(&deployment("web", true))),
        "deployment",
    );
    assert_denied_by_ra2(&kubectl(&["apply", "-f", "-"], Some(BAD_CRONJOB)), "cronjob");
    let none = kubectl(&["get", "deployments,cronjobs", "-n", "e2e", "-o", "name"], None);
    assert_eq!(none.stdout.trim(), "", "{}", none.stdout);

    // UPDATE judges the new object; DELETE is allowed.
    let out = kubectl(&["apply", "-f", "-"], Some(&deployment("api", false)));
    assert!(out.success, "{}", out.stderr);
    assert_denied_by_ra2(
        &kubectl(&["apply", "-f", "-"], Some(&deployment("api", true))),
        "update",
    );
    let kept = kubectl(
        &[
            "get",
            "deployment",
            "api",
            "-n",
            "e2e",
            "-o",
            "jsonpath={.spec.template.spec.containers[0].securityContext.privileged}",
        ],
        None,
    );
    assert_eq!(kept.stdout.trim(), "false", "{}", kept.stderr);
    let out = kubectl(&["delete", "deployment", "api", "-n", "e2e"], None);
    assert!(out.success, "{}", out.stderr);

    // Certificates rotated while the API server keeps calling: no request fails.
    let before = std::fs::read(&cert).unwrap();
    let started = Instant::now();
    let mut calls = 0;
    let mut rotated = 0;
    while started.elapsed() < Duration::from_secs(6) {
        if calls % 10 == 5 {
            write_pair(&cluster, &cert, &key);
            rotated += 1;
        }
        let verdict = cluster.dry_run(&json!({
            "apiVersion": "v1", "kind": "Pod", "metadata": {"name": format!("r{calls}"), "namespace": "e2e"},
            "spec": {"containers": [{"name": "app", "image": "registry.example/app:1.0"}]},
        }));
        assert!(verdict.accepted, "call {calls} during rotation: {}", verdict.message);
        assert!(!verdict.warnings.is_empty(), "call {calls}: no warnings from ra2");
        calls += 1;
    }
    assert!(rotated >= 2 && calls >= 20, "{rotated} rotations in {calls} calls");
    assert_ne!(std::fs::read(&cert).unwrap(), before);
    std::thread::sleep(Duration::from_millis(1500));
    let (status, metrics) = https_get(&format!("{}/metrics", serve.url()), &ca).unwrap();
    assert_eq!(status, 200);
    assert!(
        metrics.contains("ra2_reloads_total{what=\"certificate\",outcome=\"ok\"}"),
        "{metrics}"
    );
    assert!(
        metrics.contains("ra2_admission_requests_total{kind=\"Pod\",operation=\"CREATE\",verdict=\"denied\"} 2"),
        "{metrics}"
    );
    assert!(
        metrics.contains("kind=\"Deployment\",operation=\"DELETE\",verdict=\"allowed\"} 1"),
        "{metrics}"
    );
    // kube-apiserver took HTTP/2, offered by ALPN; this test's own client speaks HTTP/1.1.
    assert!(metrics.contains("ra2_connections_total{protocol=\"h2\"}"), "{metrics}");
    assert!(
        metrics.contains("ra2_connections_total{protocol=\"http/1.1\"}"),
        "{metrics}"
    );

    // SIGHUP reloads the config: fail-on never admits the privileged Pod, with warnings; a bad
    // config is refused and the one in use kept.
    let config = dir.join(".ra2.yaml");
    std::fs::write(&config, "fail-on: never\n").unwrap();
    serve.signal("HUP");
    serve.wait_log("fail-on never)");
    let out = kubectl(&["apply", "--dry-run=server", "-f", "-"], Some(PRIVILEGED_POD));
    assert!(out.success, "{}", out.stderr);
    assert!(out.stderr.contains("Warning: ra2.app.009"), "{}", out.stderr);
    std::fs::write(&config, "fail-on: sometimes\n").unwrap();
    serve.signal("HUP");
    serve.wait_log("kept the old config");
    let out = kubectl(&["apply", "--dry-run=server", "-f", "-"], Some(PRIVILEGED_POD));
    assert!(out.success, "{}", out.stderr);

    // The webhook down: with failurePolicy Fail the API server refuses...
    let status = serve.terminate();
    assert!(status.success(), "ra2 serve exited with {status} on SIGTERM");
    let log = std::fs::read_to_string(&serve.log).unwrap();
    assert!(log.contains("SIGTERM") && log.contains("stopped"), "{log}");
    assert!(log.contains("\"verdict\":\"denied\""), "no access log: {log}");
    let out = kubectl(&["apply", "-f", "-"], Some(&WARNED_POD.replace("warned", "down")));
    assert!(!out.success, "admitted with the webhook down and failurePolicy Fail");
    assert!(out.stderr.contains("failed calling webhook"), "{}", out.stderr);
    // ... and with Ignore it admits.
    let out = kubectl(
        &[
            "patch",
            "validatingwebhookconfiguration",
            "ra2",
            "--type=json",
            "-p",
            r#"[{"op": "replace", "path": "/webhooks/0/failurePolicy", "value": "Ignore"}]"#,
        ],
        None,
    );
    assert!(out.success, "{}", out.stderr);
    let out = kubectl(&["apply", "-f", "-"], Some(&WARNED_POD.replace("warned", "down")));
    assert!(out.success, "{}", out.stderr);
    assert!(!out.stderr.contains("ra2."), "{}", out.stderr);
}

/// Issue 19: a Burstable Pod asking for the network-intensive profile is refused with
/// ra2.k8s.009 (that profile needs Guaranteed pods), by the real API server's webhook call.
#[test]
fn a_burstable_pod_on_the_network_intensive_profile_is_refused() {
    let Some(cluster) = Cluster::start_or_skip("a_burstable_pod_on_the_network_intensive_profile_is_refused") else {
        return;
    };
    let dir = cluster.dir().to_path_buf();
    let (cert, key) = (dir.join("serve.crt"), dir.join("serve.key"));
    write_pair(&cluster, &cert, &key);
    let serve = Serve::start(&dir, &cert, &key);
    let ca = cluster.authority.cert_pem();
    cluster.register_webhook("ra2", &format!("{}/validate", serve.url()), &ca, "Fail");
    cluster.create_namespace("e2e");
    let pod = "\
apiVersion: v1
kind: Pod
metadata: {name: burst, namespace: e2e}
spec:
  nodeSelector: {anuket.io/profile: network-intensive}
  containers:
  - name: app
    image: registry.example/app:1.0
    resources: {requests: {cpu: 100m, memory: 64Mi}}
";
    let out = cluster.kubectl(&["apply", "-f", "-"], Some(pod));
    assert!(!out.success, "admitted: {}", out.stdout);
    assert!(out.stderr.contains("ra2.k8s.009"), "{}", out.stderr);
}
