//! The CEL cost of `ra2 export vap`'s policies as kube-apiserver charges it (issue 33): each
//! edition's policies are evaluated by `tests/apiserver/vapcost` (k8s.io/apiserver of the test
//! kube-apiserver's release; `scripts/vap-cost`) on a typical Pod, a Pod of 100 containers and
//! 50 init containers with 100 environment variables each, and a network-intensive Deployment of
//! 150 huge-page containers. No variable, validation or message may cost more than 10% of the
//! per-expression limit (1,000,000), nor a policy's evaluation more than 10% of its budget
//! (10,000,000): the budget is far away, and a check that walks the containers once stays so.
//!
//! The Go program is built by `scripts/vap-cost --path` (about a minute, then cached; run by
//! `scripts/test`). Without it the test says it was skipped, unless `RA2_REQUIRE_APISERVER=1`.

use std::path::PathBuf;
use std::process::Command;

use ra2_core::Config;
use ra2_core::export::vap;

fn binary() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("RA2_VAP_COST") {
        return Some(PathBuf::from(path));
    }
    let script = ra2_tests::root().join("scripts").join("vap-cost");
    let out = Command::new(script).args(["--path", "--cached"]).output().ok()?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("RA2_VAP_COST="))
        .map(PathBuf::from)
}

#[test]
fn exported_policies_cost_a_tenth_of_the_api_servers_limits_at_most() {
    let Some(bin) = binary() else {
        assert!(
            std::env::var("RA2_REQUIRE_APISERVER").as_deref() != Ok("1"),
            "RA2_REQUIRE_APISERVER=1 but tests/apiserver/vapcost is not built (run scripts/vap-cost --path)"
        );
        eprintln!("vap_cost: skipped: tests/apiserver/vapcost is not built (run scripts/vap-cost --path)");
        return;
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    for edition in ["base", "latest"] {
        let config =
            Config::from_yaml(&format!("edition: {edition}\n"), "vap-cost").unwrap_or_else(|e| panic!("{e:?}"));
        let (policies, _) = vap::generate(&config).unwrap_or_else(|e| panic!("{edition}: {e:?}"));
        let file = dir.join(format!("vap-cost-{edition}.yaml"));
        std::fs::write(&file, vap::to_yaml(&policies)).expect("write the policies");
        let out = Command::new(&bin)
            .args(["-max-percent", "10", "-top", "3"])
            .arg(&file)
            .output()
            .expect("run vap-cost");
        let stdout = String::from_utf8_lossy(&out.stdout);
        eprintln!("vap_cost: {edition}\n{stdout}");
        assert!(
            out.status.success(),
            "{edition}: over a tenth of a limit, or vap-cost failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
