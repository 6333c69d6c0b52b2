//! The JSON reader against libyaml: for every JSON document of the corpus, and for every corpus
//! YAML document re-serialized as JSON by serde_json (pretty and compact, alone, as a stream and
//! wrapped in a `kind: List`), the tree the JSON reader builds equals the one libyaml's events
//! build (nodes, spans, scalar styles, duplicate-key problems), and the lint reports are
//! identical (findings, pointers, lines and columns, errors). Generated JSON must actually take
//! the JSON path, so a reader that silently gave up everywhere would fail here.

use ra2_core::doc::{Limits, read_chunk_yaml, read_json_chunk};
use ra2_core::source::{Chunk, chunks, strip_bom};

/// Compares the two readers on one chunk; returns whether the JSON reader took it.
fn same_tree(name: &str, chunk: Chunk<'_>) -> bool {
    let reference = read_chunk_yaml(chunk, true, Limits::default());
    let Some(doc) = read_json_chunk(chunk, Limits::default()) else {
        return false;
    };
    assert!(
        reference.error.is_none(),
        "{name}: JSON reader read what libyaml refused"
    );
    assert_eq!(reference.docs.len(), 1, "{name}");
    let yaml = &reference.docs[0];
    assert_eq!(doc.outline(), yaml.outline(), "{name}: trees differ");
    assert_eq!(doc.problems, yaml.problems, "{name}");
    true
}

/// Both readers on a whole file: every chunk's tree, and the report.
fn check(name: &str, text: &str) -> (usize, usize) {
    let (body, bom) = strip_bom(text);
    let mut taken = 0;
    let all = chunks(body, bom, 0);
    for chunk in &all {
        taken += usize::from(same_tree(name, *chunk));
    }
    assert_eq!(
        ra2_tests::report_json(name, text, false),
        ra2_tests::report_json(name, text, true),
        "{name}: reports differ"
    );
    (taken, all.len())
}

#[test]
fn handwritten_json_reads_the_same() {
    let cases = [
        "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"hostNetwork\":false,\"hostNetwork\":true,\"containers\":[{\"name\":\"a\",\"image\":\"r/a:1\"}]}}",
        "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"Pod\",\n  \"metadata\": {\"name\": \"caf\\u00e9-é\", \"labels\": {\"a\\/b\": \"\\\"q\\\"\"}},\n  \"spec\": {\"volumes\": [{\"name\": \"h\", \"hostPath\": {\"path\": \"/var/lib/x\"}}], \"containers\": [{\"name\": \"a\", \"image\": \"r/a:1.0\", \"resources\": {\"limits\": {\"cpu\": 1.5e0, \"memory\": 1e9}}}]}\n}\n",
        "{\"kind\": \"List\", \"apiVersion\": \"v1\", \"items\": [{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"a\"}}, 3, null]}",
        "[1, 2]",
        "{\"apiVersion\": \"v1\"}",
        "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"c\"}}\n---\n{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"c\"}}\n",
    ];
    let mut taken = 0;
    for (i, text) in cases.iter().enumerate() {
        taken += check(&format!("case{i}.json"), text).0;
    }
    assert_eq!(taken, 7, "every handwritten case takes the JSON path");
    // Many keys (the builder indexes large mappings), with duplicates.
    let keys: Vec<String> = (0..60).map(|i| format!("\"k{}\": {i}", i % 40)).collect();
    let text = format!(
        "{{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":{{{}}}}}",
        keys.join(",")
    );
    assert_eq!(check("many.json", &text), (1, 1));
    // Too deep: the JSON reader hands over, and libyaml's path words the error.
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    assert_eq!(check("deep.json", &deep), (0, 1));
}

#[test]
fn corpus_json_reads_the_same() {
    let Some(files) = ra2_tests::corpus_files() else {
        eprintln!("skipping: ../shared/corpus is not beside the checkout");
        return;
    };
    // Corpus files that are JSON as the linter sees them (first chunk opens with `{` or `[`).
    let mut json_files = 0;
    for (name, text) in &files {
        if strip_bom(text).0.trim_start().starts_with(['{', '[']) {
            json_files += 1;
            check(name, text);
        }
    }
    assert!(json_files >= 5, "the corpus has JSON files ({json_files})");

    // Every YAML document of the corpus, re-serialized by serde_json.
    let mut taken = 0;
    let mut total = 0;
    let mut generated = 0;
    for (name, text) in &files {
        let (body, _) = strip_bom(text);
        let values: Vec<serde_json::Value> = chunks(body, 0, 0)
            .into_iter()
            .filter_map(|c| ra2_core::yaml_to_json(c.text).ok())
            .filter(|v| !v.is_null())
            .collect();
        if values.is_empty() {
            continue;
        }
        for value in &values {
            // Trees of each document alone; the reports below cover the same texts.
            for (style, json) in [
                ("compact", serde_json::to_string(value).expect("serializable")),
                ("pretty", serde_json::to_string_pretty(value).expect("serializable")),
            ] {
                let chunk = chunks(&json, 0, 0)[0];
                taken += usize::from(same_tree(&format!("{name} ({style})"), chunk));
                total += 1;
                generated += 1;
            }
        }
        // The whole file as one stream of pretty JSON documents, and as a compact List: trees
        // and reports.
        let stream: Vec<String> = values
            .iter()
            .map(|v| serde_json::to_string_pretty(v).expect("serializable"))
            .collect();
        let (t, n) = check(&format!("{name} (stream)"), &stream.join("\n---\n"));
        taken += t;
        total += n;
        let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": values});
        let (t, n) = check(
            &format!("{name} (List)"),
            &serde_json::to_string(&list).expect("serializable"),
        );
        taken += t;
        total += n;
    }
    assert!(generated > 1000, "{generated} generated documents");
    // libyaml and JSON disagree only on rare texts (keys over 1000 bytes, surrogate escapes,
    // line-break characters in strings); those go to libyaml.
    assert!(
        taken * 100 >= total * 99,
        "the JSON reader took only {taken} of {total} chunks"
    );
}
