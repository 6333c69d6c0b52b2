//! The YAML reader against libyaml: for every document of the corpus and of `tests/fixtures`, the
//! tree the YAML reader builds equals the one libyaml's events build (nodes, values, spans, key
//! spans, scalar styles, duplicate-key problems), and the lint reports are identical. Generated
//! documents of the shapes Helm, kustomize and kubectl write (and shapes around them) check the
//! same. Prints how many chunks the reader took and how many went to libyaml.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};

use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, TestRunner};
use ra2_core::doc::{Limits, read_chunk_yaml, read_yaml_chunk};
use ra2_core::source::{Chunk, chunks, strip_bom};

/// Compares the two readers on one chunk; returns whether the YAML reader took it.
fn same_tree(name: &str, chunk: Chunk<'_>) -> bool {
    let reference = read_chunk_yaml(chunk, false, Limits::default());
    let Some(ours) = read_yaml_chunk(chunk, Limits::default()) else {
        return false;
    };
    assert!(
        reference.error.is_none(),
        "{name}: the YAML reader read what libyaml refused: {:?}\n{}",
        reference.error,
        chunk.text
    );
    assert_eq!(ours.docs.len(), reference.docs.len(), "{name}");
    for (a, b) in ours.docs.iter().zip(&reference.docs) {
        assert_eq!(a.outline(), b.outline(), "{name}: trees differ\n{}", chunk.text);
        assert_eq!(a.problems, b.problems, "{name}");
        assert_eq!(a.root_is_null(), b.root_is_null(), "{name}");
    }
    true
}

/// Both readers on a whole file: every chunk's tree, and (with `reports`) the report.
fn check(name: &str, text: &str, reports: bool) -> (usize, usize) {
    let (body, bom) = strip_bom(text);
    let all = chunks(body, bom, 0);
    let taken = all.iter().filter(|c| same_tree(name, **c)).count();
    if reports {
        assert_eq!(
            ra2_tests::report_json(name, text, false),
            ra2_tests::report_json(name, text, true),
            "{name}: reports differ"
        );
    }
    (taken, all.len())
}

#[test]
fn fixtures_read_the_same() {
    let mut taken = 0;
    let mut total = 0;
    let mut stack = vec![ra2_tests::root().join("tests").join("fixtures")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixtures").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                let (t, n) = check(&path.display().to_string(), &text, true);
                taken += t;
                total += n;
            }
        }
    }
    eprintln!(
        "fixtures: the YAML reader took {taken} of {total} chunks, libyaml read {}",
        total - taken
    );
    assert!(
        taken * 10 >= total * 8,
        "the YAML reader took only {taken} of {total} chunks"
    );
}

#[test]
fn corpus_reads_the_same() {
    let Some(files) = ra2_tests::corpus_files() else {
        eprintln!("skipping: ../shared/corpus is not beside the checkout");
        return;
    };
    let mut taken = 0;
    let mut total = 0;
    let mut bytes_taken = 0;
    let mut bytes = 0;
    for (name, text) in &files {
        if strip_bom(text).0.trim_start().starts_with(['{', '[']) {
            continue;
        }
        let (body, bom) = strip_bom(text);
        for chunk in chunks(body, bom, 0) {
            bytes += chunk.text.len();
            if same_tree(name, chunk) {
                taken += 1;
                bytes_taken += chunk.text.len();
            }
            total += 1;
        }
        assert_eq!(
            ra2_tests::report_json(name, text, false),
            ra2_tests::report_json(name, text, true),
            "{name}: reports differ"
        );
    }
    eprintln!(
        "corpus: the YAML reader took {taken} of {total} chunks ({bytes_taken} of {bytes} bytes), libyaml read {}",
        total - taken
    );
    assert!(
        taken * 10 >= total * 9,
        "the YAML reader took only {taken} of {total} chunks"
    );
}

#[test]
fn handwritten_shapes_read_the_same() {
    let cases = [
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  hostNetwork: false\n  hostNetwork: true\n  containers:\n  - name: a\n    image: r/a:1\n",
        "# Source: chart/templates/x.yaml\n---\napiVersion: v1\nkind: ConfigMap\ndata:\n  a.sh: |\n    #!/bin/sh\n    echo \"hi\"\n\n  b: >-\n    folded\n    text\n  c: \"\\u00e9\\t\"\n  d: 'it''s'\n  e: [1, two, \"3\"]\n  f: {}\n",
        "a: 010\nb: 0x1F\nc: yes\nd: ~\ne: 1e3\nf: .inf\n1: int key\ntrue: bool key\n",
        "~: null key\n",
        "<<: {a: 1}\nb: 2\n",
        "- a\n- - b\n  - c\n- d: e\n  f:\n  - g\n",
    ];
    for (i, text) in cases.iter().enumerate() {
        check(&format!("case{i}.yaml"), text, true);
    }
    // Many keys (the builder indexes large mappings), with duplicates.
    let keys: String = (0..60).fold(String::new(), |mut keys, i| {
        let _ = writeln!(keys, "  k{}: {i}", i % 40);
        keys
    });
    assert_eq!(
        check("many.yaml", &format!("kind: ConfigMap\ndata:\n{keys}"), true),
        (1, 1)
    );
}

/// A scalar in one of the styles the reader handles (and some it gives up on).
fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9./_-]{1,12}",
        "(yes|no|true|false|null|~|0x1F|010|1e3|-1|\\.inf|1\\.5|''|\"\")",
        "'[a-z '#:\"\\\\]{0,8}'",
        "\"[a-z '#:]{0,6}(\\\\[nt\"\\\\/0 ]|\\\\x4[0-9]|\\\\u00e9)?\"",
        "[a-z]{1,4}( [a-z#:]{1,4}){0,2}",
        "(&a x|\\*a|!!str 1|\\? x)",
        "\\[[a-z0-9, ]{0,8}\\]",
        "\\{[a-z]{1,3}: [a-z0-9]{1,3}\\}",
    ]
}

#[derive(Debug, Clone)]
enum Shape {
    Scalar(String),
    Block(String, String),
    Map(Vec<(String, Shape)>),
    Seq(Vec<Shape>),
}

fn shape() -> impl Strategy<Value = Shape> {
    let leaf = prop_oneof![
        4 => scalar().prop_map(Shape::Scalar),
        1 => ("[|>][-+]?[1-2]?", "( *[a-z #]{0,6}\n){0,4}").prop_map(|(h, b)| Shape::Block(h, b)),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(("[a-z]{1,3}|\"k\"|'q'", inner.clone()), 1..4).prop_map(Shape::Map),
            prop::collection::vec(inner, 1..4).prop_map(Shape::Seq),
        ]
    })
}

/// Writes a shape as block YAML at `indent`, with `step` spaces per level; sequences in
/// mappings indentless when `indentless`.
fn write(shape: &Shape, indent: usize, step: usize, indentless: bool, out: &mut String) {
    let pad = " ".repeat(indent);
    match shape {
        Shape::Scalar(s) => {
            out.push(' ');
            out.push_str(s);
            out.push('\n');
        }
        Shape::Block(header, body) => {
            out.push(' ');
            out.push_str(header);
            out.push('\n');
            for line in body.lines() {
                if !line.trim().is_empty() {
                    out.push_str(&pad);
                    out.push_str(&" ".repeat(step));
                }
                out.push_str(line);
                out.push('\n');
            }
        }
        Shape::Map(entries) => {
            out.push('\n');
            for (k, v) in entries {
                out.push_str(&pad);
                out.push_str(k);
                out.push(':');
                let child = if indentless && matches!(v, Shape::Seq(_)) {
                    indent
                } else {
                    indent + step
                };
                write(v, child, step, indentless, out);
            }
        }
        Shape::Seq(items) => {
            out.push('\n');
            for v in items {
                out.push_str(&pad);
                out.push('-');
                write(v, indent + step, step, indentless, out);
            }
        }
    }
}

/// A generated document: a shape under a `root:` key, maybe after `---`, maybe with comments.
fn document(s: &Shape, step: usize, indentless: bool, comments: bool, marker: bool) -> String {
    let mut text = String::new();
    if marker {
        text.push_str("---\n");
    }
    let mut body = String::new();
    write(
        &Shape::Map(vec![("root".into(), s.clone())]),
        0,
        step,
        indentless,
        &mut body,
    );
    for line in body.trim_start_matches('\n').lines() {
        text.push_str(line);
        if comments && line.ends_with(':') {
            text.push_str(" # c");
        }
        text.push('\n');
    }
    text
}

#[test]
fn generated_documents_read_the_same() {
    let taken = AtomicUsize::new(0);
    let mut runner = TestRunner::new(RunnerConfig::with_cases(3000));
    let strategy = (shape(), 1usize..4, any::<bool>(), any::<bool>(), any::<bool>());
    runner
        .run(&strategy, |(s, step, indentless, comments, marker)| {
            let text = document(&s, step, indentless, comments, marker);
            for chunk in chunks(&text, 0, 0) {
                if same_tree("generated", chunk) {
                    taken.fetch_add(1, Ordering::Relaxed);
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let taken = taken.into_inner();
    eprintln!("generated: the YAML reader took {taken} of 3000 documents");
    // Some shapes are given up on by design (anchors, tags, `?` keys, multi-line text).
    assert!(
        taken >= 600,
        "the YAML reader took only {taken} of 3000 generated documents"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn near_yaml_text_reads_the_same(text in "([a-z]{0,3}|[ ]{0,4}|[-:#'\"|>{}\\[\\],&*!?\\\\\n\t]|\\\\u00e9){0,40}") {
        for chunk in chunks(&text, 0, 0) {
            same_tree("text", chunk);
        }
    }
}
