"""The Python face gives exactly what the CLI gives: the same JSON, byte for byte, and the same
exit status, on every rule fixture (both editions), the examples, the CLI's test data and the
shared real-world corpus."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

import ra2

from conftest import CLI_DATA, CORPUS, EXAMPLES, ROOT, Cli, fixture_paths

EDITIONS = ["base", "latest"]


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("fixture", fixture_paths(), ids=lambda p: p.stem)
def test_fixture_parity(cli: Cli, in_root: Path, fixture: Path, edition: str) -> None:
    expected, status = cli.lint_json("--edition", edition, rel(fixture))
    from_path = ra2.lint_paths([rel(fixture)], edition=edition)
    assert from_path.to_json() == expected
    assert from_path.exit_code == status
    from_text = ra2.lint(fixture.read_text(encoding="utf-8"), filename=rel(fixture), edition=edition)
    assert from_text.to_json() == expected
    # The objects carry the same data as the JSON.
    parsed = json.loads(expected)
    assert [f.to_dict() for f in from_path] == parsed["findings"]
    assert [e.to_dict() for e in from_path.errors] == parsed["errors"]
    assert [o.to_dict() for o in from_path.objects] == parsed["objects"]
    assert from_path.summary == parsed["summary"]
    assert from_path.to_dict() == parsed


def test_fixture_parity_with_every_fixture_in_one_run(cli: Cli, in_root: Path) -> None:
    paths = [rel(p) for p in fixture_paths()]
    expected, status = cli.lint_json("--edition", "latest", *paths)
    report = ra2.lint_paths(paths, edition="latest")
    assert report.to_json() == expected
    assert report.exit_code == status


@pytest.mark.parametrize(
    "paths",
    [["examples"], ["ra2-cli/tests/data"], ["examples/broken/cnf.yaml", "examples"], ["tests/fixtures"]],
    ids=["examples", "cli-data", "file-then-dir", "fixture-dir"],
)
def test_directory_parity(cli: Cli, in_root: Path, paths: list[str]) -> None:
    assert EXAMPLES.is_dir() and CLI_DATA.is_dir()
    expected, status = cli.lint_json(*paths)
    report = ra2.lint_paths(paths)
    assert report.to_json() == expected
    assert report.exit_code == status


def test_options_parity(cli: Cli, in_root: Path) -> None:
    config = ROOT / "ra2-py" / "tests" / "data" / "strict.ra2.yaml"
    args = ["--config", str(config), "--select", "ra2.app,ra2.ntw.009", "--ignore", "ra2.app.001", "examples"]
    done = cli.run("lint", "--format", "json", *args)
    report = ra2.lint_paths(
        "examples",
        config=config,
        select="ra2.app,ra2.ntw.009",
        ignore=["ra2.app.001"],
    )
    assert report.to_json() == done.stdout.removesuffix("\n")
    assert report.exit_code == done.returncode


def test_strict_mode_parity(cli: Cli, in_root: Path, tmp_path: Path) -> None:
    # strict: true is honoured, not silently ignored: the missing required field is reported as
    # by the CLI. The misspelt key is a refusal every run reports (k8s.api/unknown-field).
    manifest = tmp_path / "web.yaml"
    manifest.write_text(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n"
        "  containers: [{name: web, image: r/web:1}]\n"
        "  volumes:\n  - name: logs\n    hostpath: {path: /var/log/web}\n"
        "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n"
        "  serviceName: db\n  template:\n    metadata: {labels: {app: db}}\n"
        "    spec: {containers: [{name: db, image: r/db:1}]}\n"
    )
    done = cli.run("lint", "--format", "json", "--strict", str(manifest))
    report = ra2.lint_paths(str(manifest), config={"strict": True})
    assert report.to_json() == done.stdout.removesuffix("\n")
    checks = {(f.rule, f.check) for f in report}
    assert ("schema", "missing-field") in checks
    assert ("k8s.api", "unknown-field") in checks
    text = ra2.lint(manifest.read_text(), config={"strict": True})
    assert ("schema", "missing-field") in {(f.rule, f.check) for f in text}
    default = {(f.rule, f.check) for f in ra2.lint(manifest.read_text())}
    assert ("schema", "missing-field") not in default
    assert ("k8s.api", "unknown-field") in default


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not beside the checkout")
def test_corpus_parity(cli: Cli) -> None:
    # One edition: what is compared here is the binding (discovery, reading, conversion), which
    # the edition does not change; ra2-tests lints the corpus in both. The CLI and the library
    # run at the same time: the library releases the GIL, and a subprocess needs none.
    edition = "latest"
    result: dict[str, object] = {}

    def run_cli() -> None:
        result["cli"] = cli.lint_json("--edition", edition, str(CORPUS))

    worker = threading.Thread(target=run_cli)
    worker.start()
    report = ra2.lint_paths(str(CORPUS), edition=edition)
    text = report.to_json()
    worker.join()
    expected, status = result["cli"]  # type: ignore[misc]
    assert report.summary["files"] > 2000
    assert text == expected
    assert report.exit_code == status


def test_rules_parity(cli: Cli) -> None:
    assert ra2.rules() == cli.json("rules", "--format", "json")
    for edition in EDITIONS:
        assert ra2.rules(edition=edition) == cli.json("rules", "--format", "json", "--edition", edition)


def test_version_matches_the_cli(cli: Cli) -> None:
    done = cli.run("--version")
    assert done.stdout.split() == ["ra2", ra2.__version__]
