//! Forked linters absorbed in input order give the report of one linter reading every file in
//! that order, byte for byte, cross-document findings included: the contract `--jobs` and
//! Python's `lint_paths` rely on (ra2_input::parallel).

use ra2_core::{Config, Linter};

fn sequential(config: &Config, files: &[(String, String)]) -> String {
    let mut linter = Linter::new(config);
    for (name, text) in files {
        linter.add_file(name, text);
    }
    linter.finish().to_json()
}

/// Each file in its own fork, absorbed in order; `group` files share a fork.
fn forked(config: &Config, files: &[(String, String)], group: usize) -> String {
    let mut linter = Linter::new(config);
    for batch in files.chunks(group) {
        let mut fork = linter.fork();
        for (name, text) in batch {
            fork.add_file(name, text);
        }
        linter.absorb(fork);
    }
    linter.finish().to_json()
}

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(n, t)| ((*n).to_owned(), (*t).to_owned())).collect()
}

#[test]
fn cross_document_facts_survive_forks() {
    // A NAD in one file makes a pod in another network-intensive; a claim names a class from a
    // third file; a ServiceAccount decides token mounts; duplicate keys in a document with no
    // object refer to the previous object of the run, which lives in another fork.
    let inputs = files(&[
        (
            "pod.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: cnf\n  annotations:\n    k8s.v1.cni.cncf.io/networks: sriov-a\nspec:\n  containers:\n  - name: a\n    image: r/a:1.0\n    resources:\n      limits: {intel.com/sriov: 1, cpu: 2, memory: 1Gi}\n  volumes:\n  - name: d\n    persistentVolumeClaim: {claimName: c}\n",
        ),
        ("dup.yaml", "a: 1\na: 2\n"),
        (
            "nad.yaml",
            "apiVersion: k8s.cni.cncf.io/v1\nkind: NetworkAttachmentDefinition\nmetadata:\n  name: sriov-a\n  namespace: cnf\n  annotations: {k8s.v1.cni.cncf.io/resourceName: intel.com/sriov}\nspec:\n  config: '{\"type\": \"sriov\"}'\n",
        ),
        (
            "pvc.yaml",
            "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c, namespace: cnf}\nspec:\n  storageClassName: local\n  volumeName: pv1\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n",
        ),
        (
            "pv.yaml",
            "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv1}\nspec:\n  hostPath: {path: /data}\n---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: local}\nprovisioner: kubernetes.io/no-provisioner\n",
        ),
        (
            "sa.yaml",
            "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: default, namespace: cnf}\n",
        ),
    ]);
    let config = Config::default();
    let one = sequential(&config, &inputs);
    for group in [1, 2, 4] {
        assert_eq!(forked(&config, &inputs, group), one, "group of {group}");
    }
    // A duplicate key before any object at all.
    let first = files(&[
        ("dup.yaml", "a: 1\na: 2\n"),
        ("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"),
    ]);
    assert_eq!(forked(&config, &first, 1), sequential(&config, &first));
}

#[test]
fn the_corpus_reads_the_same_forked() {
    let Some(files) = ra2_tests::corpus_files() else {
        eprintln!("skipping: ../shared/corpus is not beside the checkout");
        return;
    };
    let config = Config::default();
    let one = sequential(&config, &files);
    assert!(one.len() > 100_000);
    assert_eq!(forked(&config, &files, 1), one, "one fork per file");
    assert_eq!(forked(&config, &files, 97), one, "uneven groups");
}

/// Strict mode's object hook runs in every fork (made again with `ObjectHook::maker`): its
/// findings and its count of skipped kinds add up to one linter's, byte for byte.
#[test]
fn strict_mode_forks_read_like_one_linter() {
    fn strict(linter: Linter<'_>) -> Linter<'_> {
        linter.with_object_hook(Box::new(ra2_strict::Strict::new()))
    }
    let inputs = files(&[
        (
            "deploy.yaml",
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    metadata: {labels: {app: d}}\n    spec: {containers: [{name: a, image: r/a:1}]}\n",
        ),
        (
            "crd.yaml",
            "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {}\n",
        ),
        (
            "pod.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a}]\n",
        ),
        (
            "crd2.yaml",
            "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: v}\n",
        ),
    ]);
    let config = Config::default();
    let mut one = strict(Linter::new(&config));
    assert!(one.can_fork());
    for (name, text) in &inputs {
        one.add_file(name, text);
    }
    let one = one.finish();
    assert!(one.findings.iter().any(|f| f.rule == "schema"), "strict findings");
    assert_eq!(one.summary.strict_skipped, Some(2));
    for group in [1, 2, 3] {
        let mut linter = strict(Linter::new(&config));
        for batch in inputs.chunks(group) {
            let mut fork = linter.fork();
            for (name, text) in batch {
                fork.add_file(name, text);
            }
            linter.absorb(fork);
        }
        assert_eq!(linter.finish().to_json(), one.to_json(), "{group} files a fork");
    }
}
