"""One renderer for every face: SARIF and JUnit from `ra2 lint --format ...`, from Python's
`Report.to_sarif()`/`to_junit()` and from the JS module's `sarif()`/`junit()` are the same
bytes on the same input (ra2-report renders all three). One difference is by design: the CLI's
SARIF is meant for upload from a repository, so it adds what only a tool that reads the
repository can know: `%SRCROOT%` base ids on its URIs and the `primaryLocationLineHash` of each
finding's line (read from the file). With those removed, the CLI's SARIF is the libraries'.

The JS side runs the built npm package (scripts/build-wasm) in Node; without it, or without
Node, the JS comparison is skipped unless RA2_REQUIRE_WASM=1 (scripts/test sets it)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import ra2

from conftest import EXAMPLES, ROOT, Cli, fixture_paths

NODE_PKG = Path(os.environ.get("RA2_WEB_PKG", ROOT / "ra2-wasm" / "pkg")) / "node" / "ra2_wasm.js"

# Reads [{text, options}] on stdin, writes [{sarif, junit, verdict}] with the JS module.
NODE_SCRIPT = """
const ra2 = require(process.argv[1]);
let input = '';
process.stdin.on('data', (d) => { input += d; });
process.stdin.on('end', () => {
  const out = JSON.parse(input).map(({ text, options }) => {
    const report = ra2.lint(text, options);
    return { sarif: ra2.sarif(report), junit: ra2.junit(report), verdict: ra2.verdict(report, options['fail-on']) };
  });
  process.stdout.write(JSON.stringify(out));
});
"""


def without_upload_fields(sarif: str) -> object:
    """The CLI's SARIF without what only the CLI adds for uploads."""
    log = json.loads(sarif)
    for run in log["runs"]:
        run.pop("originalUriBaseIds", None)
        for location in _artifact_locations(run):
            location.pop("uriBaseId", None)
        for result in run.get("results", []):
            fingerprints = result.get("partialFingerprints", {})
            fingerprints.pop("primaryLocationLineHash", None)
            # Fixes as edits of the file: the CLI reads the files again for them, as for the
            # line hashes; a report rendered in-process has no files to read.
            result.pop("fixes", None)
    return log


def _artifact_locations(value: object) -> list[dict[str, object]]:
    found: list[dict[str, object]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "artifactLocation" and isinstance(item, dict):
                found.append(item)
            found.extend(_artifact_locations(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(_artifact_locations(item))
    return found


def without_identity(fmt: str, text: str) -> str:
    """SARIF without `ra2/v2`: the JS module renders a report that went through JSON, which does
    not carry the list items' names that identity uses, so its `ra2/v2` counts items by index."""
    if fmt != "sarif":
        return text
    return re.sub(r',?\s*"ra2/v2": "[0-9a-f]+(:[0-9]+)?"', "", text)


def same_output(fmt: str, library: str, cli: str) -> bool:
    if fmt == "sarif":
        return json.loads(library) == without_upload_fields(cli)
    return library == cli


def cases() -> list[tuple[str, str]]:
    """(file relative to the root, edition): the examples, a spread of rule fixtures, and a
    file with an unreadable document (tool execution notifications, JUnit errors)."""
    files = sorted(EXAMPLES.rglob("*.yaml"))
    fixtures = fixture_paths()
    files += fixtures[:: max(1, len(fixtures) // 12)]
    rel = [p.relative_to(ROOT).as_posix() for p in files]
    return [(f, e) for f in rel for e in ("base", "latest")]


def js_render(requests: list[dict[str, object]]) -> list[dict[str, object]] | None:
    node = shutil.which("node")
    if node is None or not NODE_PKG.is_file():
        if os.environ.get("RA2_REQUIRE_WASM") == "1":
            pytest.fail(f"RA2_REQUIRE_WASM=1 but no node or no {NODE_PKG}")
        return None
    done = subprocess.run(
        [node, "-e", NODE_SCRIPT, str(NODE_PKG)],
        input=json.dumps(requests),
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    result: list[dict[str, object]] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("fmt", ["sarif", "junit"])
def test_cli_python_and_js_render_the_same_bytes(cli: Cli, in_root: Path, tmp_path: Path, fmt: str) -> None:
    broken = (EXAMPLES / "broken" / "cnf.yaml").read_text(encoding="utf-8") + "---\napiVersion: v1\nkind: [broken\n"
    (tmp_path / "broken.yaml").write_text(broken, encoding="utf-8")
    inputs = [(f, (ROOT / f).read_text(encoding="utf-8"), e) for f, e in cases()]
    inputs.append(("broken.yaml", broken, "latest"))
    expected = []
    for name, text, edition in inputs:
        cwd = tmp_path if name == "broken.yaml" else ROOT
        done = cli.run("lint", "--no-config", "--format", fmt, "--edition", edition, name, cwd=cwd)
        assert done.returncode in (0, 1, 2), done.stderr
        report = ra2.lint(text, filename=name, edition=edition)
        rendered = report.to_sarif() if fmt == "sarif" else report.to_junit()
        assert same_output(fmt, rendered, done.stdout), name
        assert report.exit_code == done.returncode, name
        expected.append((rendered, done.returncode))
    assert any(status == 2 for _, status in expected), "a case with an unreadable document"
    js = js_render([{"text": t, "options": {"filename": n, "edition": e}} for n, t, e in inputs])
    if js is None:
        pytest.skip(f"no node or no {NODE_PKG}: the JS module was not compared")
    for (name, _, _), (text, status), out in zip(inputs, expected, js):
        assert without_identity(fmt, out[fmt]) == without_identity(fmt, text), f"{name}: the JS module's {fmt} differs from Python's"
        assert out["verdict"]["exit_code"] == status, name


def test_paths_render_as_the_cli_does(cli: Cli, in_root: Path) -> None:
    done = cli.run("lint", "--no-config", "--format", "sarif", "examples")
    assert done.returncode in (0, 1), done.stderr
    assert same_output("sarif", ra2.lint_paths(["examples"]).to_sarif(), done.stdout)
