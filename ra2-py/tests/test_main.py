"""`python -m ra2` behaves like `ra2 lint`: same flags, output and exit codes."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ra2.__main__ as ra2_main
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


# Usage errors: the same exit status (2) and nothing on standard output; the message is
# argparse's, not clap's.
USAGE_ERRORS = [
    ["--no-such-flag"],
    ["--edition", "newest", "examples"],
    ["--format", "yaml", "examples"],
    ["--jobs", "0", "examples"],
    ["--max-depth", "1_000", "examples"],
    ["--config", "x.yaml", "--no-config", "examples"],
    ["--strict", "--strict", "examples"],
    ["--format", "json", "--format", "text", "examples"],
    ["--form", "json", "examples"],
]


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "json", "examples"],
        ["--format", "json", "--edition", "latest", "examples/broken/cnf.yaml"],
        ["--format", "json", "--fail-on", "never", "examples"],
        ["--format", "json", "--fail-on", "info", "examples/conformant"],
        ["--format", "json", "--select", "ra2.app.007,ra2.app.009", "--ignore", "ra2.app.009/privileged-device", "examples"],
        ["--format", "json", "--select", "ra2.app.007", "--select", "ra2.app.009,ra2.app.010", "examples"],
        ["examples/broken", "--format=jsonl", "-j", "1", "examples/conformant", "--max-document-bytes", "+4096"],
        ["--format", "json", "--config", "ra2-py/tests/data/strict.ra2.yaml", "examples"],
        ["--format", "json", "--no-config", "--strict", "--skip-non-k8s", "--max-depth", "3", "examples"],
        ["--format", "text", "examples"],
        ["--format", "sarif", "--category", "py", "--source-root", "examples", "examples"],
        ["--format", "junit", "--", "examples"],
        ["--format", "github", "--stream-after", "0", "examples"],
        ["examples/conformant"],
        ["missing.yaml"],
        ["--select", "ra2.ap", "examples"],
        ["--config", "ra2-cli/tests/data/configs/bad.ra2.yaml", "examples"],
        *USAGE_ERRORS,
    ],
    ids=lambda a: " ".join(a),
)
def test_same_output_and_status_as_ra2_lint(cli: Cli, args: list[str]) -> None:
    expected = cli.run("lint", *args)
    got = python_m(*args)
    assert got.returncode == expected.returncode, got.stderr
    assert got.stdout == expected.stdout
    if args in USAGE_ERRORS:
        assert got.returncode == 2 and got.stderr.startswith("usage: python -m ra2"), got.stderr
    else:
        assert got.stderr == expected.stderr


def clap_flags(cli: Cli, scratch: Path) -> dict[str, list[str] | None]:
    """`ra2 lint`'s visible flags (long, and short as `-x`), each with its possible values (clap
    lists them when refusing a value) or None. The flags are tried in `scratch`: a flag that
    takes any value (`--write-baseline no-such-value`) may write a file there."""
    done = cli.run("lint", "-h")
    assert done.returncode == 0, done.stderr
    flags: dict[str, list[str] | None] = {}
    examples = str(ROOT / "examples")
    for short, long, value in re.findall(r"(?m)^ {2,6}(?:(-\w), )?(--[a-z0-9-]+)( <[A-Z_]+>)?", done.stdout):
        choices = None
        if value:
            refused = cli.run("lint", long, "no-such-value", examples, cwd=scratch).stderr
            listed = re.search(r"\[possible values: ([^\]]*)\]", refused)
            choices = listed.group(1).split(", ") if listed else None
        flags[long] = choices
        if short:
            flags[short] = choices
    return flags


def argparse_flags() -> dict[str, list[str] | None]:
    flags: dict[str, list[str] | None] = {}
    for action in ra2_main.parser()._actions:
        if action.help == argparse.SUPPRESS:
            continue
        for option in action.option_strings:
            flags[option] = list(action.choices) if action.choices else None
    return flags


def test_same_flags_as_ra2_lint(cli: Cli, tmp_path: Path) -> None:
    """The flags of `python -m ra2` (argparse) are those of `ra2 lint` (clap), with the same
    possible values, so that neither drifts from the other."""
    clap = clap_flags(cli, tmp_path)
    assert "--format" in clap and "-j" in clap and "--stream-after" in clap
    assert argparse_flags() == clap


def test_stream_after_is_shared(cli: Cli) -> None:
    """`--stream-after` is in both helps and streams alike in both."""
    assert "--stream-after" in python_m("--help").stdout
    args = ["--format", "jsonl", "--stream-after", "0", "examples"]
    assert python_m(*args).stdout == cli.run("lint", *args).stdout


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
