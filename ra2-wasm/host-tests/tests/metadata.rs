//! The built policy carries Kubewarden's metadata (`io.kubewarden.metadata`, what `kwctl
//! annotate` writes and a policy-server requires): ra2-wasm/metadata.yml with protocolVersion v1,
//! and the annotated module still runs.

use ra2_host_tests::{Policy, policy_path, read_artefact, root};

#[test]
fn the_built_policy_carries_metadata_yml() {
    let module = read_artefact(&policy_path());
    let section = ra2_annotate::metadata_of(&module)
        .expect("a WebAssembly module")
        .expect("scripts/build-wasm writes the io.kubewarden.metadata section");
    let yaml = std::fs::read_to_string(root().join("ra2-wasm/metadata.yml")).expect("metadata.yml");
    let mut expected = ra2_core::yaml_to_json(&yaml).expect("metadata.yml is YAML");
    expected["protocolVersion"] = "v1".into();
    assert_eq!(section, expected);
    // What the policy says over waPC agrees with the section.
    let policy = Policy::load();
    assert_eq!(policy.call_json("protocol_version", b""), section["protocolVersion"]);
}
