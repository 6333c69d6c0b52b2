//! The repository's pre-commit hook (`.pre-commit-hooks.yaml`, id `ra2`), tried as a user's
//! repository would use it: `pre-commit try-repo` on this checkout, which clones it, builds the
//! hook with pre-commit's `language: rust` (`cargo install --bins --path .` at the root: the
//! root package `ra2-pre-commit`) and runs it in a scratch git repository, once on a conformant
//! manifest (the hook passes) and once on a broken one (it fails and shows the findings).
//!
//! pre-commit comes from `RA2_PRE_COMMIT` (scripts/pre-commit-tool installs it from PyPI);
//! without it the test is skipped, and fails when `RA2_REQUIRE_PRE_COMMIT=1`. The hook's build
//! uses `RA2_PRE_COMMIT_TARGET` as cargo's target directory when set (scripts/test keeps it
//! under target/, so the second try-repo reuses the compiled dependencies, and a later run all
//! but this repository's crates).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=ra2 test", "-c", "user.email=ra2@example.invalid"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn try_repo(pre_commit: &str, scratch: &Path, file: &str) -> (Output, String) {
    let mut command = Command::new(pre_commit);
    command
        .args(["try-repo", workspace().to_str().unwrap(), "ra2", "--files", file])
        .current_dir(scratch)
        .env("NO_COLOR", "1")
        .env("PRE_COMMIT_COLOR", "never")
        // pre-commit's own build command and the release profile, unoptimised: whether the hook
        // installs and runs does not depend on optimisation, and this halves the build.
        .env("CARGO_PROFILE_RELEASE_OPT_LEVEL", "0")
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "256");
    if let Some(target) = std::env::var_os("RA2_PRE_COMMIT_TARGET") {
        command.env("CARGO_TARGET_DIR", target);
    }
    let out = command.output().expect("pre-commit runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, text)
}

#[test]
fn the_hook_builds_itself_and_lints_a_repository() {
    let Some(pre_commit) = std::env::var("RA2_PRE_COMMIT").ok().filter(|p| !p.is_empty()) else {
        assert!(
            std::env::var("RA2_REQUIRE_PRE_COMMIT").as_deref() != Ok("1"),
            "RA2_REQUIRE_PRE_COMMIT=1 but no RA2_PRE_COMMIT"
        );
        eprintln!("SKIPPED: no pre-commit (RA2_PRE_COMMIT; scripts/pre-commit-tool installs it)");
        return;
    };
    let scratch = std::env::temp_dir().join(format!("ra2-pre-commit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(scratch.join("deploy")).unwrap();
    let examples = workspace().join("examples");
    std::fs::copy(examples.join("conformant/cnf.yaml"), scratch.join("deploy/good.yaml")).unwrap();
    std::fs::copy(examples.join("broken/cnf.yaml"), scratch.join("deploy/bad.yaml")).unwrap();
    git(&scratch, &["init", "-q"]);
    git(&scratch, &["add", "."]);
    git(&scratch, &["commit", "-q", "-m", "manifests"]);

    let (out, text) = try_repo(&pre_commit, &scratch, "deploy/good.yaml");
    assert!(out.status.success(), "the conformant manifest passes:\n{text}");
    assert!(
        text.contains("ra2 (Anuket RA2 conformance)") && text.contains("Passed"),
        "{text}"
    );

    let (out, text) = try_repo(&pre_commit, &scratch, "deploy/bad.yaml");
    assert_eq!(
        out.status.code(),
        Some(1),
        "the broken manifest fails the hook:\n{text}"
    );
    assert!(text.contains("Failed"), "{text}");
    assert!(
        text.contains("ra2.app.007/host-path"),
        "the findings are shown:\n{text}"
    );
    assert!(text.contains("deploy/bad.yaml:208:11"), "on their lines:\n{text}");
    std::fs::remove_dir_all(&scratch).unwrap();
}
