"""Shared helpers: the repository layout and the `ra2` binary the Python face is compared with."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = ROOT.parent / "shared" / "corpus"
EXAMPLES = ROOT / "examples"
CLI_DATA = ROOT / "ra2-cli" / "tests" / "data"


def fixture_paths() -> list[Path]:
    """Every rule fixture, sorted."""
    return sorted(FIXTURES.glob("*.yaml"))


@pytest.fixture(scope="session")
def ra2_bin() -> Path:
    """The CLI binary: $RA2_BIN, else `cargo build -p ra2-cli` (a no-op when it is up to date)."""
    given = os.environ.get("RA2_BIN")
    if given:
        return Path(given)
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("no cargo to build the ra2 CLI (set RA2_BIN)")
    subprocess.run([cargo, "build", "-q", "-p", "ra2-cli"], cwd=ROOT, check=True)
    metadata = subprocess.run(
        [cargo, "metadata", "--no-deps", "--format-version", "1"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    target = Path(json.loads(metadata.stdout)["target_directory"])
    exe = target / "debug" / ("ra2.exe" if os.name == "nt" else "ra2")
    assert exe.is_file(), exe
    return exe


class Cli:
    """Runs `ra2` in the repository root."""

    def __init__(self, exe: Path) -> None:
        self.exe = exe

    def run(self, *args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.exe), *args],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            text=True,
            encoding="utf-8",
        )

    def lint_json(self, *args: str, stdin: str | None = None, cwd: Path = ROOT) -> tuple[str, int]:
        """`ra2 lint --no-config --format json ARGS`: (stdout without the final newline, status)."""
        done = self.run("lint", "--no-config", "--format", "json", *args, stdin=stdin, cwd=cwd)
        assert done.returncode in (0, 1, 2), done.stderr
        return done.stdout.removesuffix("\n"), done.returncode

    def json(self, *args: str) -> Any:
        done = self.run(*args)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)


@pytest.fixture(scope="session")
def cli(ra2_bin: Path) -> Cli:
    return Cli(ra2_bin)


@pytest.fixture
def in_root(monkeypatch: pytest.MonkeyPatch) -> Path:
    """Run the test in the repository root, so relative paths name files as the CLI does."""
    monkeypatch.chdir(ROOT)
    return ROOT
