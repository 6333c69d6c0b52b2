//! `kind: List` item by item against the List read whole: every corpus document wrapped in a
//! List (as `kubectl get -o json` writes it, with `kind` after `items`; compact JSON with `kind`
//! first; and as `kubectl get -o yaml` writes it) gives the same report read item by item as
//! read as one tree, from a whole file and streamed from standard input. Read item by item, a
//! List larger than the document limit is linted, while an item larger than it fails alone.

use ra2_core::source::{chunks, strip_bom};
use ra2_core::{Config, Linter, Report};

fn lint(name: &str, text: &str, config: &Config, whole: bool) -> Report {
    let mut linter = Linter::new(config);
    if whole {
        linter = linter.with_whole_lists();
    }
    linter.add_file(name, text);
    linter.finish()
}

fn streamed(name: &str, text: &str, config: &Config) -> Report {
    let mut linter = Linter::new(config);
    ra2_input::lint_stream(&mut text.as_bytes(), name, &mut linter, None).expect("reads");
    linter.finish()
}

/// Read whole, a duplicate key anywhere in a List is reported on the List's last object; read
/// item by item, on the item that has it. Everything else is the same.
fn without_duplicate_key_objects(mut report: Report) -> Report {
    for f in &mut report.findings {
        if f.rule == ra2_core::catalogue::YAML_RULE {
            f.object = ra2_core::ObjectRef::default();
        }
    }
    report
}

/// The List `text` read whole (with the default limits) and item by item, with the document
/// limit at `limit` (a YAML List is read item by item only when it is over the limit).
fn same(name: &str, text: &str, limit: Option<usize>) -> usize {
    let mut config = Config::default();
    let whole = without_duplicate_key_objects(lint(name, text, &config, true));
    if let Some(limit) = limit {
        config.limits.max_document_bytes = limit;
    }
    let split = without_duplicate_key_objects(lint(name, text, &config, false));
    if !whole.errors.is_empty() && name.ends_with("(kubectl yaml)") {
        // A List the generator below broke is one error read whole; item by item, each broken
        // item is an error and the others are linted.
        assert!(!split.errors.is_empty(), "{name}");
        return 0;
    }
    assert_eq!(split.errors, whole.errors, "{name}: errors differ");
    assert_eq!(split.findings, whole.findings, "{name}: findings differ");
    assert_eq!(split, whole, "{name}: reports differ");
    let stream = without_duplicate_key_objects(streamed(name, text, &config));
    assert_eq!(stream, whole, "{name}: streamed report differs");
    split.objects.len()
}

/// A YAML document as an item of a block sequence at column 0: `- ` before its first line,
/// two spaces before the others.
fn yaml_item(text: &str) -> Option<String> {
    let body: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("---") && !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    let first = body.first()?;
    // Only block mappings at column 0 (flow documents and top-level scalars are left out).
    if first.starts_with([' ', '{', '[', '-', '"', '\'']) || text.contains('\t') || text.contains('\r') {
        return None;
    }
    let mut out = format!("- {first}\n");
    for line in &body[1..] {
        out.push_str("  ");
        out.push_str(line);
        out.push('\n');
    }
    Some(out)
}

#[test]
fn corpus_lists_read_the_same_item_by_item() {
    let Some(files) = ra2_tests::corpus_files() else {
        eprintln!("skipping: ../shared/corpus is not beside the checkout");
        return;
    };
    let mut objects = 0;
    let mut yaml_lists = 0;
    for (name, text) in &files {
        let (body, _) = strip_bom(text);
        // Lists themselves are left out: a List in a List is an error (tested below).
        let is_list = |v: &serde_json::Value| {
            v["kind"].as_str().is_some_and(ra2_core::list::is_list_kind) && v["items"].is_array()
        };
        let docs: Vec<&str> = chunks(body, 0, 0)
            .into_iter()
            .map(|c| c.text)
            .filter(|c| !ra2_core::yaml_to_json(c).is_ok_and(|v| is_list(&v)))
            .collect();
        let values: Vec<serde_json::Value> = docs
            .iter()
            .filter_map(|c| ra2_core::yaml_to_json(c).ok())
            .filter(|v| !v.is_null())
            .collect();
        if values.is_empty() {
            continue;
        }
        // kubectl's JSON: keys sorted, so `kind` comes after `items`, 4-space indentation.
        let kubectl = serde_json::json!({
            "apiVersion": "v1",
            "items": values,
            "kind": "List",
            "metadata": {"resourceVersion": ""},
        });
        let pretty = serde_json::to_string_pretty(&kubectl).expect("serializable");
        objects += same(&format!("{name} (kubectl json)"), &pretty, None);
        let compact = format!(
            "{{\"kind\":\"PodList\",\"apiVersion\":\"v1\",\"items\":{}}}",
            serde_json::to_string(&values).expect("serializable")
        );
        same(&format!("{name} (compact json)"), &compact, None);
        // kubectl's YAML, when every document is a block mapping.
        let items: Option<Vec<String>> = docs
            .iter()
            .filter(|d| ra2_core::yaml_to_json(d).is_ok_and(|v| !v.is_null()))
            .map(|d| yaml_item(d))
            .collect();
        if let Some(items) = items.filter(|i| !i.is_empty()) {
            let yaml = format!(
                "apiVersion: v1\nitems:\n{}kind: List\nmetadata:\n  resourceVersion: \"\"\n",
                items.concat()
            );
            // Over the limit, so read item by item; each item within it.
            let largest = items.iter().map(String::len).max().unwrap_or_default();
            if largest < yaml.len() {
                same(&format!("{name} (kubectl yaml)"), &yaml, Some(largest));
                yaml_lists += 1;
            }
        }
    }
    assert!(objects > 1000, "the corpus gives many List items ({objects})");
    assert!(yaml_lists > 100, "the corpus gives many YAML Lists ({yaml_lists})");
}

const POD: &str = "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"NAME\", \"namespace\": \"ns\"}, \"spec\": {\"hostNetwork\": true, \"containers\": [{\"name\": \"a\", \"image\": \"r/a:1\"}]}}";

fn pod(name: &str) -> String {
    POD.replace("NAME", name)
}

#[test]
fn the_limit_applies_per_item() {
    let big = format!(
        "{{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {{\"name\": \"big\", \"annotations\": {{\"a\": \"{}\"}}}}, \"spec\": {{\"containers\": []}}}}",
        "x".repeat(600)
    );
    let items = [pod("a"), pod("b"), big, pod("c")];
    let text = format!(
        "{{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n        {}\n    ],\n    \"kind\": \"List\"\n}}\n",
        items.join(",\n        ")
    );
    let mut config = Config::default();
    config.limits.max_document_bytes = 500;
    assert!(text.len() > 1000);
    for (how, report) in [
        ("file", lint("dump.json", &text, &config, false)),
        ("stream", streamed("dump.json", &text, &config)),
    ] {
        let names: Vec<_> = report.objects.iter().map(|o| o.name.as_deref().unwrap_or("")).collect();
        assert_eq!(names, ["a", "b", "c"], "{how}");
        assert_eq!(report.errors.len(), 1, "{how}: {:?}", report.errors);
        let error = &report.errors[0];
        assert_eq!(
            (error.code.as_str(), error.line, error.column),
            ("ra2::parse::too-large", 6, 9),
            "{how}"
        );
        assert!(
            error.message.starts_with("item 2 of the List is 7"),
            "{how}: {}",
            error.message
        );
        // Each pod's findings at its own line and pointer in the dump.
        let host_network: Vec<_> = report
            .findings
            .iter()
            .filter(|f| f.check == "host-network")
            .map(|f| (f.line, f.pointer.as_str()))
            .collect();
        assert_eq!(
            host_network,
            [
                (4, "/items/0/spec/hostNetwork"),
                (5, "/items/1/spec/hostNetwork"),
                (7, "/items/3/spec/hostNetwork")
            ],
            "{how}"
        );
    }
    // Read whole, the List is one document over the limit.
    let whole = lint("dump.json", &text, &config, true);
    assert_eq!(whole.errors.len(), 1);
    assert!(whole.objects.is_empty());
}

/// What, the List, and the errors expected (code, line).
type Case<'a> = (&'a str, String, &'a [(&'a str, usize)]);

#[test]
fn bad_lists_fail_with_a_reason_and_the_rest_is_linted() {
    let config = Config::default();
    assert!(pod("a").len() < 190);
    let cases: &[Case<'_>] = &[
        (
            "a malformed item",
            format!(
                "apiVersion: v1\nitems:\n- {}\n- apiVersion: v1\n  kind: Pod\n  metadata: {{name: [}}\n- {}\nkind: List\n",
                pod("a"),
                pod("c")
            ),
            &[("ra2::parse::yaml", 6)],
        ),
        (
            "a nested List",
            format!(
                "{{\"apiVersion\": \"v1\", \"items\": [{}, {{\"apiVersion\": \"v1\", \"kind\": \"List\",\n \"items\": [{}]}}, {}], \"kind\": \"List\"}}",
                pod("a"),
                pod("b"),
                pod("c")
            ),
            &[("ra2::object::nested-list", 2)],
        ),
        (
            "a kind that is not a List",
            format!("apiVersion: v1\nitems:\n- {}\n- {}\nkind: Pod\n", pod("a"), pod("c")),
            &[("ra2::object::not-a-list", 5)],
        ),
        (
            "a broken trailer",
            format!(
                "{{\"apiVersion\": \"v1\", \"items\": [{}, {}],\n \"kind\": \"List\" \"metadata\": {{}}}}",
                pod("a"),
                pod("c")
            ),
            &[("ra2::parse::yaml", 2)],
        ),
    ];
    for (what, text, errors) in cases {
        let name = if text.starts_with('{') {
            "dump.json"
        } else {
            "dump.yaml"
        };
        // A YAML List is read item by item when it is over the limit.
        let mut config = config.clone();
        if name == "dump.yaml" {
            config.limits.max_document_bytes = 200;
        }
        for (how, report) in [
            ("file", lint(name, text, &config, false)),
            ("stream", streamed(name, text, &config)),
        ] {
            let got: Vec<_> = report.errors.iter().map(|e| (e.code.as_str(), e.line)).collect();
            assert_eq!(&got, errors, "{what} ({how}): {:?}", report.errors);
            let names: Vec<_> = report.objects.iter().map(|o| o.name.as_deref().unwrap_or("")).collect();
            assert_eq!(names, ["a", "c"], "{what} ({how})");
        }
    }
}
