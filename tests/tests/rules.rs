//! Every rule, one test each, named by its id: its catalogue examples fail and pass as documented
//! (in each of its editions), its fixtures' `# expect:` markers match its findings exactly, its
//! findings read well, and its text output is snapshotted. `cargo test ra2.app.009` runs one rule
//! (`cargo test -p ra2-tests --test rules -- --list` lists them); the whole-catalogue checks are
//! the `catalogue::` tests. A custom harness (libtest-mimic) names the tests at run time from the
//! registry, so a new rule is tested without a line of code here.

use std::collections::{BTreeMap, BTreeSet};
use std::process::ExitCode;

use libtest_mimic::{Arguments, Failed, Trial};
use ra2_core::catalogue::{self, RuleDoc};
use ra2_core::rules::RULES;
use ra2_tests::{Fixture, fixtures, only_rule, render_text, root};

fn main() -> ExitCode {
    let args = Arguments::from_args();
    // The whole-catalogue checks, each a test named `catalogue::<function>` (they panic on failure).
    let whole: [(&str, fn()); 5] = [
        (
            "files_are_valid_and_match_their_names",
            catalogue_files_are_valid_and_match_their_names,
        ),
        (
            "registry_catalogue_and_fixtures_match_one_to_one",
            registry_catalogue_and_fixtures_match_one_to_one,
        ),
        (
            "the_conformant_example_is_clean_in_both_editions",
            the_conformant_example_is_clean_in_both_editions,
        ),
        (
            "coverage_table_and_the_unchecked_list_agree",
            coverage_table_and_the_unchecked_list_agree,
        ),
        (
            "the_rule_files_table_matches_the_registry",
            the_rule_files_table_matches_the_registry,
        ),
    ];
    let mut trials: Vec<Trial> = whole
        .into_iter()
        .map(|(name, check)| {
            Trial::test(format!("catalogue::{name}"), move || {
                check();
                Ok(())
            })
        })
        .collect();
    let mut by_rule: BTreeMap<String, Vec<Fixture>> = BTreeMap::new();
    for fixture in fixtures() {
        by_rule.entry(fixture.id.clone()).or_default().push(fixture);
    }
    let ids: BTreeSet<&str> = RULES
        .iter()
        .map(|r| r.id)
        .chain(by_rule.keys().map(String::as_str))
        .collect();
    let ids: Vec<String> = ids.into_iter().map(str::to_owned).collect();
    for id in ids {
        let fixtures = by_rule.remove(&id).unwrap_or_default();
        trials.push(Trial::test(id.clone(), move || rule(&id, &fixtures)));
    }
    libtest_mimic::run(&args, trials).exit_code()
}

/// One rule: every check of this file for it. Problems are collected, so one run shows them all.
fn rule(id: &str, fixtures: &[Fixture]) -> Result<(), Failed> {
    let mut problems = Vec::new();
    if let Some(doc) = catalogue::get(id) {
        catalogue_examples_fail_and_pass_as_documented(doc, &mut problems);
        fixes_fix_the_failing_examples(doc, &mut problems);
    }
    for fixture in fixtures {
        fixture_fires_exactly_where_marked(fixture, &mut problems);
        findings_use_a_declared_check_and_read_well(fixture, &mut problems);
    }
    if !problems.is_empty() {
        return Err(problems.join("\n").into());
    }
    // Last: a changed snapshot panics (insta writes the `.snap.new` to review), which the
    // harness reports as this rule's failure.
    for fixture in fixtures {
        let report = only_rule(&fixture.lint(), &fixture.id);
        let rendered = render_text(&report, &fixture.file_name(), &fixture.text);
        insta::assert_snapshot!(fixture.name.clone(), rendered);
    }
    Ok(())
}

fn catalogue_schema() -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("rules").join("schema.json")).expect("rules/schema.json");
    let schema: serde_json::Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::validator_for(&schema).expect("schema compiles")
}

fn catalogue_files_are_valid_and_match_their_names() {
    let validator = catalogue_schema();
    let mut files: Vec<_> = std::fs::read_dir(root().join("rules"))
        .expect("rules/")
        .map(|e| e.expect("rules/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for path in &files {
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let value = ra2_core::yaml_to_json(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{file} does not match rules/schema.json:\n{}",
            errors.join("\n")
        );
        let id = value["id"].as_str().unwrap_or_default();
        let doc = catalogue::get(id).unwrap_or_else(|| panic!("{file}: rule {id:?} is not in the compiled catalogue"));
        assert_eq!(format!("{}.yaml", doc.id), file, "file name must be the rule id");
        assert!(
            doc.remediation.ends_with('.'),
            "{file}: remediation is a sentence ending with a period"
        );
        assert!(!doc.title.ends_with('.'), "{file}: title has no trailing period");
        for check in doc.checks {
            if let Some(editions) = check.editions {
                assert!(
                    editions.iter().all(|e| doc.editions.contains(e)) && editions.len() < doc.editions.len(),
                    "{file}: check {} lists editions {editions:?}: a narrower set than the rule's {:?}",
                    check.slug,
                    doc.editions
                );
            }
        }
    }
}

fn registry_catalogue_and_fixtures_match_one_to_one() {
    let registry: BTreeSet<&str> = RULES.iter().map(|r| r.id).collect();
    let docs: BTreeSet<&str> = catalogue::all().iter().map(|d| d.id).collect();
    let fixtures: BTreeSet<String> = fixtures().into_iter().map(|f| f.id).collect();
    let fixtures: BTreeSet<&str> = fixtures.iter().map(String::as_str).collect();
    assert_eq!(
        registry, docs,
        "every rule in the registry has a catalogue file and vice versa"
    );
    assert_eq!(
        registry, fixtures,
        "every rule has tests/fixtures/<id>.yaml and vice versa"
    );
}

fn lint_example(doc: &RuleDoc, example: &catalogue::Example, edition: ra2_core::Edition) -> ra2_core::Report {
    ra2_core::lint_str(
        "example.yaml",
        example.manifest,
        &ra2_tests::example_config(doc, example, edition),
    )
}

/// Every fix a rule builds is its check's catalogue `fix` (applicability and title), every
/// check with a catalogue `fix` has one applied on some failing example, and on each failing
/// example `--unsafe-fixes` applies every fix of the rule (none dropped, unless through an
/// alias or because the fixed object shows another rule's finding), the fixed findings are
/// gone, nothing is gained, and a second pass changes nothing.
fn fixes_fix_the_failing_examples(doc: &RuleDoc, problems: &mut Vec<String>) {
    let mut fixed_checks = BTreeSet::new();
    let mut applied_checks = BTreeSet::new();
    for &edition in doc.editions {
        for example in doc.examples.failing {
            let config = ra2_tests::example_config(doc, example, edition);
            let report = ra2_core::lint_str("example.yaml", example.manifest, &config);
            let at = format!("{} [{}] failing example {:?}", doc.id, edition.as_str(), example.title);
            let ours: Vec<&ra2_core::Finding> = report
                .findings
                .iter()
                .filter(|f| f.rule == doc.id && f.fix.is_some())
                .collect();
            for finding in &ours {
                let documented = doc.checks.iter().find(|c| c.slug == finding.check).and_then(|c| c.fix);
                match (documented, &finding.fix) {
                    (Some(d), Some(fix)) if d.applicability == fix.applicability && d.title == fix.title => {
                        fixed_checks.insert(finding.check.clone());
                    }
                    _ => problems.push(format!("{at}: {}'s fix is not its catalogue fix", finding.check)),
                }
            }
            if ours.is_empty() {
                continue;
            }
            let fixed = ra2_core::fix::fix_text("example.yaml", example.manifest, &config, true);
            // Fixing for a run (`ra2 lint --fix`: resuming each relint, the linter handed to the
            // run) fixes and notes the same, and the run reads (and reports) what fixing read.
            let seed = ra2_core::Linter::new(&config).seed();
            let (for_run, linter) = ra2_core::fix::fix_text_for_run(
                &seed,
                "example.yaml",
                example.manifest,
                &config,
                config.skip_non_k8s,
                true,
            );
            if (&for_run.text, &for_run.applied, &for_run.dropped) != (&fixed.text, &fixed.applied, &fixed.dropped) {
                problems.push(format!("{at}: fixing for a run differs from fixing alone"));
            }
            match linter {
                Some(linter) => {
                    let mut run = ra2_core::Linter::new(&config);
                    run.absorb(linter);
                    if run.finish() != ra2_core::lint_str("example.yaml", &fixed.text, &config) {
                        problems.push(format!(
                            "{at}: the linter fixing hands the run did not read the fixed text"
                        ));
                    }
                }
                None => problems.push(format!("{at}: fixing for a run handed over no linter")),
            }
            for dropped in &fixed.dropped {
                // Dropped through an alias, or because the fixed object shows another rule's
                // finding (a misspelt hostPath renamed is a host volume): as the contract says.
                // Such a check must still be applied on some example (below).
                let reveals = dropped
                    .reason
                    .strip_prefix("it would add a finding: ")
                    .is_some_and(|gained| !gained.starts_with(&format!("{}/", doc.id)));
                if dropped.finding.rule == doc.id && !dropped.reason.contains("alias") && !reveals {
                    problems.push(format!(
                        "{at}: the fix of {} was dropped: {}",
                        dropped.finding.check, dropped.reason
                    ));
                }
            }
            applied_checks.extend(
                fixed
                    .applied
                    .iter()
                    .filter(|f| f.rule == doc.id)
                    .map(|f| f.check.clone()),
            );
            // Counted by rule, check and object: a fix that writes a missing securityContext
            // moves the findings about that container's other settings into it.
            // The object by its group: a fix that moves it to the GA version keeps it the same.
            let key = |f: &ra2_core::Finding| (f.rule.clone(), f.check.clone(), ra2_core::fix::same_object(&f.object));
            let mut left: BTreeMap<_, usize> = BTreeMap::new();
            for finding in &report.findings {
                *left.entry(key(finding)).or_default() += 1;
            }
            for applied in &fixed.applied {
                if let Some(n) = left.get_mut(&key(applied)) {
                    *n = n.saturating_sub(1);
                }
            }
            let mut after: BTreeMap<_, usize> = BTreeMap::new();
            for finding in &fixed.report.findings {
                *after.entry(key(finding)).or_default() += 1;
            }
            for (k, n) in &after {
                let expected = left.get(k).copied().unwrap_or_default();
                if *n != expected {
                    problems.push(format!(
                        "{at}: after fixing, {} findings of {}/{} rather than {expected}",
                        n, k.0, k.1
                    ));
                }
            }
            if !fixed.report.errors.is_empty() {
                problems.push(format!("{at}: the fixed text has errors: {:?}", fixed.report.errors));
            }
            let again = ra2_core::fix::fix_text("example.yaml", &fixed.text, &config, true);
            if again.text != fixed.text {
                problems.push(format!("{at}: a second pass changed the fixed text"));
            }
        }
    }
    for check in doc.checks {
        if check.fix.is_some() && !fixed_checks.contains(check.slug) {
            problems.push(format!(
                "{}: check {} has a catalogue fix, but no failing example's finding carries one",
                doc.id, check.slug
            ));
        } else if check.fix.is_some() && !applied_checks.contains(check.slug) {
            problems.push(format!(
                "{}: check {} has a catalogue fix, but no failing example has it applied",
                doc.id, check.slug
            ));
        }
    }
}

fn catalogue_examples_fail_and_pass_as_documented(doc: &RuleDoc, problems: &mut Vec<String>) {
    for &edition in doc.editions {
        for example in doc.examples.failing {
            // A check narrower than its rule (`editions` of a check) is expected only in its
            // editions; an example all of whose checks are elsewhere is not run here.
            let expect: Vec<&str> = example
                .expect
                .iter()
                .copied()
                .filter(|c| doc.check_in_edition(c, edition))
                .collect();
            if expect.is_empty() && !example.expect.is_empty() {
                continue;
            }
            let report = lint_example(doc, example, edition);
            if !report.errors.is_empty() {
                problems.push(format!(
                    "{} [{}] failing example {:?} has read errors: {:?}",
                    doc.id,
                    edition.as_str(),
                    example.title,
                    report.errors
                ));
            }
            let fired: BTreeSet<&str> = report
                .findings
                .iter()
                .filter(|f| f.rule == doc.id)
                .map(|f| f.check.as_str())
                .collect();
            for expected in &expect {
                if !fired.contains(expected) {
                    problems.push(format!(
                        "{} [{}] failing example {:?}: expected check {expected:?}, fired {fired:?}",
                        doc.id,
                        edition.as_str(),
                        example.title
                    ));
                }
            }
        }
        for example in doc.examples.passing {
            let report = lint_example(doc, example, edition);
            if !report.errors.is_empty() {
                problems.push(format!(
                    "{} [{}] passing example {:?} has read errors: {:?}",
                    doc.id,
                    edition.as_str(),
                    example.title,
                    report.errors
                ));
            }
            let fired: Vec<String> = report
                .findings
                .iter()
                .filter(|f| f.rule == doc.id)
                .map(|f| format!("{}:{} {}", f.check, f.line, f.message))
                .collect();
            if !fired.is_empty() {
                problems.push(format!(
                    "{} [{}] passing example {:?} fired: {fired:?}",
                    doc.id,
                    edition.as_str(),
                    example.title
                ));
            }
        }
    }
}

fn fixture_fires_exactly_where_marked(fixture: &Fixture, problems: &mut Vec<String>) {
    let report = fixture.lint();
    for e in &report.errors {
        problems.push(format!(
            "{}: unexpected read error {}:{}: {}",
            fixture.name, e.line, e.column, e.message
        ));
    }
    let actual: BTreeSet<(usize, String, String)> = report
        .findings
        .iter()
        .filter(|f| f.rule == fixture.id)
        .map(|f| (f.line, f.rule.clone(), f.check.clone()))
        .collect();
    for (line, rule, check) in &fixture.expected {
        if rule != &fixture.id {
            continue;
        }
        let hit = actual
            .iter()
            .any(|(l, r, c)| l == line && r == rule && check.as_ref().is_none_or(|ch| ch == c));
        if !hit {
            problems.push(format!(
                "{}:{line}: expected {rule}{} but it did not fire",
                fixture.name,
                check.as_ref().map(|c| format!("/{c}")).unwrap_or_default()
            ));
        }
    }
    for (line, rule, check) in &actual {
        let marked = fixture
            .expected
            .iter()
            .any(|(l, r, c)| l == line && r == rule && c.as_ref().is_none_or(|ch| ch == check));
        if !marked {
            problems.push(format!(
                "{}:{line}: {rule}/{check} fired without an `# expect:` marker",
                fixture.name
            ));
        }
    }
    if !fixture.expected.iter().any(|(_, r, _)| r == &fixture.id) {
        problems.push(format!(
            "{}: fixture has no `# expect: {}` marker",
            fixture.name, fixture.id
        ));
    }
}

fn findings_use_a_declared_check_and_read_well(fixture: &Fixture, problems: &mut Vec<String>) {
    for f in fixture.lint().findings {
        if let Some(doc) = catalogue::get(&f.rule)
            && doc.check(&f.check).is_none()
        {
            problems.push(format!(
                "{}: check {:?} is not declared in rules/{}.yaml",
                fixture.name, f.check, f.rule
            ));
        }
        if f.message.chars().next().is_some_and(char::is_uppercase) {
            problems.push(format!("{}: message starts upper-case: {:?}", fixture.name, f.message));
        }
        if f.message.ends_with('.') {
            problems.push(format!(
                "{}: message has a trailing period: {:?}",
                fixture.name, f.message
            ));
        }
        if !f.help.ends_with('.') {
            problems.push(format!("{}: help is not a full sentence: {:?}", fixture.name, f.help));
        }
    }
}

/// `examples/conformant/` is what the README promises: no finding at all, in either edition.
fn the_conformant_example_is_clean_in_both_editions() {
    let dir = root().join("examples").join("conformant");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/conformant")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for edition in [ra2_core::Edition::Base, ra2_core::Edition::Latest] {
        let config = ra2_core::Config {
            edition,
            ..Default::default()
        };
        for file in &files {
            let text = std::fs::read_to_string(file).expect("example");
            let report = ra2_core::lint_str(&file.display().to_string(), &text, &config);
            let found: Vec<String> = report
                .findings
                .iter()
                .map(|f| format!("{}:{} {}/{} {}", f.file, f.line, f.rule, f.check, f.message))
                .chain(
                    report
                        .errors
                        .iter()
                        .map(|e| format!("{}:{} {}", e.file, e.line, e.message)),
                )
                .collect();
            assert!(found.is_empty(), "[{}] {}", edition.as_str(), found.join("\n"));
        }
    }
}

/// The "no" and "n/a" rows of rules/README.md's chapter-4 coverage table are
/// `ra2-core/data/unchecked.yaml` (what `ra2 rules --all` lists), row by row.
fn coverage_table_and_the_unchecked_list_agree() {
    fn expand(ids: &str) -> Vec<String> {
        if let Some((first, last)) = ids.split_once(" to ") {
            let (prefix, from) = first.rsplit_once('.').expect("ra2.x.nnn");
            let to = last.rsplit_once('.').expect("x.nnn").1;
            let (from, to): (u32, u32) = (from.parse().expect("number"), to.parse().expect("number"));
            return (from..=to).map(|n| format!("{prefix}.{n:03}")).collect();
        }
        ids.split(", ")
            .map(|id| {
                if id.starts_with("ra2.") {
                    id.to_owned()
                } else {
                    format!("ra2.{id}")
                }
            })
            .collect()
    }
    let readme = std::fs::read_to_string(root().join("rules").join("README.md")).expect("rules/README.md");
    let rows: Vec<(Vec<String>, String, String)> = readme
        .lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.strip_prefix("| ")?.strip_suffix(" |")?.split(" | ").collect();
            let [ids, checked, reason] = cells.as_slice() else {
                return None;
            };
            if !ids.starts_with("ra2.") || !matches!(*checked, "no" | "n/a") {
                return None;
            }
            let status = if *checked == "no" {
                "not-checkable"
            } else {
                "not-applicable"
            };
            Some((expand(ids), status.to_owned(), (*reason).to_owned()))
        })
        .collect();
    let data: Vec<(Vec<String>, String, String)> = catalogue::unchecked()
        .iter()
        .map(|u| {
            let status = serde_json::to_value(u.status).expect("status");
            (
                u.ids.iter().map(|i| (*i).to_owned()).collect(),
                status.as_str().expect("a string").to_owned(),
                u.reason.to_owned(),
            )
        })
        .collect();
    assert!(rows.len() > 15, "the coverage table was not found: {} rows", rows.len());
    assert_eq!(rows, data);
    for id in data.iter().flat_map(|(ids, _, _)| ids) {
        assert!(
            catalogue::get(id).is_none(),
            "{id} has a rule but is listed as not checked"
        );
    }
}

/// rules/README.md's "From a rule id to its files" table: every rule of the registry, with the
/// files of `ra2-core/src/rules/` whose checks it registers (`Rule::new("<id>", &[&file::CHECKS])`
/// in the registry `RULES`).
fn the_rule_files_table_matches_the_registry() {
    let dir = root().join("ra2-core").join("src").join("rules");
    let registry_text = std::fs::read_to_string(dir.join("mod.rs")).expect("ra2-core/src/rules/mod.rs");
    let mut defined: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // The registry's entries, however rustfmt wraps them: `Rule::new(<id>, &[<parts>])`.
    let registry_text: String = registry_text
        .split_once("pub static RULES")
        .and_then(|(_, rest)| rest.split_once("\n];"))
        .map(|(table, _)| table.split_whitespace().collect::<Vec<_>>().join(" "))
        .expect("the RULES table");
    // Each piece after a `Rule::new(` is one entry; the piece before the first is the table's
    // opening. A registry this loop cannot read leaves `defined` short, which the assertion
    // below against RULES reports.
    for entry in registry_text.split("Rule::new(").skip(1) {
        let Some((argument, parts)) = entry
            .split_once(", &[")
            .map(|(a, p)| (a.trim(), p.split(']').next().unwrap_or_default()))
        else {
            panic!("a registry entry without parts: {entry}");
        };
        // A string literal, or a rule file's constant (`api_server::ID`, `const ID: &str = "k8s.api";`).
        let id = if let Some(literal) = argument.strip_prefix('"') {
            literal.trim_end_matches('"').to_owned()
        } else {
            let (module, name) = argument.split_once("::").expect("a module's constant");
            let text = std::fs::read_to_string(dir.join(format!("{module}.rs"))).expect("a rule file");
            text.split_once(&format!("const {name}: &str = \""))
                .and_then(|(_, rest)| rest.split('"').next())
                .unwrap_or_else(|| panic!("{module}.rs: Rule::new({argument}) names no constant there"))
                .to_owned()
        };
        let files = defined.entry(id).or_default();
        for part in parts.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let module = part.trim_start_matches('&').split("::").next().unwrap_or_default();
            files.insert(format!("{module}.rs"));
        }
    }
    let registry: BTreeSet<&str> = RULES.iter().map(|r| r.id).collect();
    let defined_ids: BTreeSet<&str> = defined.keys().map(String::as_str).collect();
    assert_eq!(
        registry, defined_ids,
        "Rule::new lines of the registry in ra2-core/src/rules/mod.rs against RULES"
    );

    let readme = std::fs::read_to_string(root().join("rules").join("README.md")).expect("rules/README.md");
    let table: BTreeMap<String, BTreeSet<String>> = readme
        .lines()
        .filter_map(|line| {
            let (id, files) = line.strip_prefix("| `")?.strip_suffix(" |")?.split_once("` | ")?;
            let files = files
                .split(", ")
                .filter_map(|f| f.strip_prefix("[`")?.split_once('`').map(|(name, _)| name.to_owned()))
                .collect();
            Some((id.to_owned(), files))
        })
        .collect();
    assert_eq!(
        table, defined,
        "rules/README.md's table of rule files (regenerate the rows from RULES in ra2-core/src/rules/mod.rs)"
    );
}
