//! The container image of `ra2 serve` (`scripts/image`: an OCI image layout assembled by umoci,
//! no container daemon), as a registry client and a runtime would see it: skopeo reads the
//! layout and copies every blob (checking each digest), the config runs a static binary as a
//! non-root user, the unpacked binary prints the version and answers an AdmissionReview over
//! TLS, assembling again gives the same digest, and the chart pins the image by that digest.
//!
//! `RA2_IMAGE_LAYOUT` names the layout (`scripts/test` builds it); without it the test says so
//! and passes, unless `RA2_REQUIRE_IMAGE=1`.

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ra2_testkit::{Authority, TempDir, free_port, https_post};
use serde_json::{Value, json};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn layout() -> Option<PathBuf> {
    let found = std::env::var_os("RA2_IMAGE_LAYOUT").filter(|v| !v.is_empty());
    if found.is_none() {
        assert!(
            std::env::var("RA2_REQUIRE_IMAGE").as_deref() != Ok("1"),
            "RA2_REQUIRE_IMAGE=1 but RA2_IMAGE_LAYOUT is not set (run scripts/image)"
        );
        eprintln!("SKIPPED: no image layout (set RA2_IMAGE_LAYOUT; scripts/image builds one)");
    }
    found.map(PathBuf::from)
}

fn run(program: &str, args: &[&str]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Whether an ELF64 file has a PT_INTERP program header (asks for a dynamic loader).
fn wants_a_loader(elf: &[u8]) -> bool {
    assert_eq!(&elf[..4], b"\x7fELF", "not an ELF file");
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([elf[at], elf[at + 1]]));
    let phoff = usize::try_from(u64::from_le_bytes(elf[0x20..0x28].try_into().unwrap())).unwrap();
    let (size, count) = (u16_at(0x36), u16_at(0x38));
    (0..count).any(|i| elf[phoff + i * size..phoff + i * size + 4] == 3u32.to_le_bytes())
}

#[test]
fn the_image_runs_ra2_serve_as_built() {
    let Some(layout) = layout() else { return };
    let reference = format!("oci:{}:{VERSION}", layout.display());
    let digest = {
        let index: Value = serde_json::from_str(&std::fs::read_to_string(layout.join("index.json")).unwrap()).unwrap();
        index["manifests"][0]["digest"].as_str().unwrap().to_owned()
    };

    // A registry client reads it: the manifest, the config, and every blob with its digest.
    let inspected: Value = serde_json::from_str(&run("skopeo", &["inspect", &reference])).unwrap();
    assert_eq!(inspected["Digest"], digest.as_str());
    assert_eq!(inspected["Os"], "linux");
    assert_eq!(inspected["Architecture"], "amd64");
    assert_eq!(inspected["Labels"]["org.opencontainers.image.version"], VERSION);
    let config: Value = serde_json::from_str(&run("skopeo", &["inspect", "--config", &reference])).unwrap();
    assert_eq!(
        config["config"]["User"], "65532:65532",
        "non-root, numeric (runAsNonRoot)"
    );
    assert_eq!(config["config"]["Entrypoint"], json!(["/ra2"]));
    assert_eq!(config["config"]["Cmd"][0], "serve");
    assert_eq!(config["created"], "1970-01-01T00:00:00Z");
    let copy = TempDir::new("ra2-image-copy");
    run(
        "skopeo",
        &["copy", "--quiet", &reference, &format!("dir:{}", copy.path().display())],
    );

    // A runtime unpacks it; the binary is static and runs.
    let bundle = TempDir::new("ra2-image-bundle");
    let unpacked = bundle.path().join("bundle");
    run(
        "umoci",
        &[
            "unpack",
            "--rootless",
            "--image",
            &format!("{}:{VERSION}", layout.display()),
            &unpacked.to_string_lossy(),
        ],
    );
    let rootfs = unpacked.join("rootfs");
    let ra2 = rootfs.join("ra2");
    assert!(
        !wants_a_loader(&std::fs::read(&ra2).unwrap()),
        "ra2 in the image is not static"
    );
    assert!(
        std::fs::read_to_string(rootfs.join("etc/passwd"))
            .unwrap()
            .contains(":65532:65532:")
    );
    assert_eq!(
        run(&ra2.to_string_lossy(), &["--version"]).trim(),
        format!("ra2 {VERSION}")
    );
    answers_a_review(&ra2, bundle.path());

    // Assembling again gives the same digest.
    let again = TempDir::new("ra2-image-again");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let second = run(
        &root.join("scripts/image").to_string_lossy(),
        &[&again.path().join("ra2").to_string_lossy()],
    );
    assert_eq!(second.trim(), digest, "scripts/image is not reproducible");

    // The chart pins the image by that digest.
    if let Some(helm) = std::env::var("RA2_HELM").ok().filter(|h| !h.is_empty()) {
        let chart = root.join("deploy/ra2");
        let rendered = run(
            &helm,
            &[
                "template",
                "r",
                &chart.to_string_lossy(),
                "--set",
                &format!("image.digest={digest}"),
            ],
        );
        assert!(
            rendered.contains(&format!("image: ghcr.io/ra2-lint/ra2@{digest}")),
            "{rendered}"
        );
    }
}

/// Runs the image's binary as the image would (`serve` with a certificate) and sends it a
/// privileged Pod.
fn answers_a_review(ra2: &Path, dir: &Path) {
    let authority = Authority::new("ra2-image-test");
    let (cert, key) = authority.issue("ra2");
    std::fs::write(dir.join("tls.crt"), cert).unwrap();
    std::fs::write(dir.join("tls.key"), key).unwrap();
    let port = free_port();
    let mut child = Command::new(ra2)
        .args(["serve", &format!("--listen=127.0.0.1:{port}")])
        .arg(format!("--cert={}", dir.join("tls.crt").display()))
        .arg(format!("--key={}", dir.join("tls.key").display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "ra2 serve did not listen");
        std::thread::sleep(Duration::from_millis(20));
    }
    let review = json!({
        "apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
        "request": {
            "uid": "image-1", "operation": "CREATE", "namespace": "default",
            "kind": {"group": "", "version": "v1", "kind": "Pod"},
            "resource": {"group": "", "version": "v1", "resource": "pods"},
            "object": {
                "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"},
                "spec": {"containers": [{"name": "c", "image": "registry.example/app:1.0",
                                         "securityContext": {"privileged": true}}]},
            },
        },
    });
    let answer = https_post(
        &format!("https://127.0.0.1:{port}/validate"),
        &authority.cert_pem(),
        &review.to_string(),
    );
    let _ = child.kill();
    let _ = child.wait();
    let (status, body) = answer.unwrap();
    assert_eq!(status, 200, "{body}");
    let answer: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(answer["response"]["uid"], "image-1");
    assert_eq!(answer["response"]["allowed"], false, "{body}");
    assert!(body.contains("ra2.app."), "{body}");
}
