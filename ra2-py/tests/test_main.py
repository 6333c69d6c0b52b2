"""`python -m ra2` behaves like `ra2 lint`: same flags, output and exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, Cli


def python_m(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ra2", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "json", "examples"],
        ["--format", "json", "--edition", "latest", "examples/broken/cnf.yaml"],
        ["--format", "json", "--fail-on", "never", "examples"],
        ["--format", "json", "--fail-on", "info", "examples/conformant"],
        ["--format", "json", "--select", "ra2.app.007,ra2.app.009", "--ignore", "ra2.app.009/privileged-device", "examples"],
        ["--format", "json", "--config", "ra2-py/tests/data/strict.ra2.yaml", "examples"],
        ["--format", "text", "examples"],
        ["--format", "sarif", "examples"],
        ["examples/conformant"],
        ["missing.yaml"],
        ["--select", "ra2.ap", "examples"],
        ["--edition", "newest", "examples"],
        ["--config", "ra2-cli/tests/data/configs/bad.ra2.yaml", "examples"],
        ["--no-such-flag"],
    ],
    ids=lambda a: " ".join(a),
)
def test_same_output_and_status_as_ra2_lint(cli: Cli, args: list[str]) -> None:
    expected = cli.run("lint", *args)
    got = python_m(*args)
    assert got.returncode == expected.returncode, got.stderr
    assert got.stdout == expected.stdout
    if args != ["--no-such-flag"]:  # clap names the program in usage errors
        assert got.stderr == expected.stderr


def test_stdin(cli: Cli) -> None:
    text = (ROOT / "examples" / "broken" / "cnf.yaml").read_text(encoding="utf-8")
    expected = cli.run("lint", "--format", "json", "-", stdin=text)
    got = python_m("--format", "json", "-", stdin=text)
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout)
    assert got.returncode == 1


def test_help_and_version() -> None:
    assert "python -m ra2" in python_m("--help").stdout
    done = python_m("--version")
    assert done.returncode == 0 and done.stdout.startswith("python -m ra2 ")


def test_config_is_looked_up_like_the_cli(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / ".ra2.yaml").write_text("edition: latest\n", encoding="utf-8")
    (tmp_path / "pod.yaml").write_text((ROOT / "examples" / "broken" / "cnf.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    expected = cli.run("lint", "--format", "json", "pod.yaml", cwd=tmp_path)
    got = python_m("--format", "json", "pod.yaml", cwd=tmp_path)
    assert '"edition": "latest"' in got.stdout
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout)
