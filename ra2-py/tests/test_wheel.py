"""The built wheel, installed as a user installs it: `pip install` of the file that
`maturin build --release` wrote ($RA2_WHEEL, set by scripts/test) into a fresh virtualenv, with
no index and nothing from this checkout on the path. The README's Python example and `python -m
ra2` run there, from a directory outside the checkout.

Without $RA2_WHEEL these tests are skipped (a failure when RA2_REQUIRE_WHEEL=1)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT, Cli


@pytest.fixture(scope="module")
def wheel() -> Path:
    given = os.environ.get("RA2_WHEEL")
    if not given:
        assert os.environ.get("RA2_REQUIRE_WHEEL") != "1", "RA2_REQUIRE_WHEEL=1 but no RA2_WHEEL"
        pytest.skip("no built wheel (RA2_WHEEL); scripts/test builds one with maturin build --release")
    path = Path(given)
    assert path.is_file(), path
    return path


@pytest.fixture(scope="module")
def fresh_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtualenv with the wheel installed (offline: no index, no dependencies)."""
    env_dir = tmp_path_factory.mktemp("wheel") / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-index", "--no-deps", str(wheel)],
        check=True,
    )
    return python


def run(python: Path, *args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    # No PYTHONPATH or the like from the test run: only what the virtualenv holds.
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON") and k != "VIRTUAL_ENV"}
    return subprocess.run(
        [str(python), *args], cwd=cwd, input=stdin, capture_output=True, text=True, encoding="utf-8", env=env
    )


def test_the_wheel_is_abi3_and_carries_the_stubs(wheel: Path) -> None:
    # maturin names an abi3 wheel `...-cp39-abi3-<platform>.whl`: one wheel for CPython 3.9 on.
    assert re.fullmatch(r"ra2-[0-9.]+-cp39-abi3-[A-Za-z0-9_.]+\.whl", wheel.name), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    for member in ("ra2/__init__.py", "ra2/__main__.py", "ra2/_ra2.pyi", "ra2/py.typed"):
        assert member in names, (member, names)
    assert any(re.fullmatch(r"ra2/_ra2\.(abi3\.so|pyd)", n) for n in names), names


def test_imported_from_the_virtualenv_not_the_checkout(fresh_python: Path, tmp_path: Path) -> None:
    done = run(fresh_python, "-c", "import ra2, ra2._ra2; print(ra2.__file__); print(ra2._ra2.__file__); print(ra2.__version__)", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    package, extension, version = done.stdout.splitlines()
    env_dir = fresh_python.parent.parent
    for path in (package, extension):
        assert Path(path).resolve().is_relative_to(env_dir.resolve()), path
        assert not Path(path).resolve().is_relative_to(ROOT.resolve()), path
    cargo_toml = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    assert f'version = "{version}"' in cargo_toml


def readme_python_example() -> str:
    """The first Python block of the README's "From Python" section, as printed there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## From Python\n", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "no Python example in the README's From Python section"
    return match.group(1)


@pytest.mark.parametrize(("bundle", "passes"), [("conformant", True), ("broken", False)])
def test_the_readme_example(fresh_python: Path, tmp_path: Path, bundle: str, passes: bool) -> None:
    # The example lints `deploy/` of the working directory.
    shutil.copytree(EXAMPLES / bundle, tmp_path / "deploy")
    done = run(fresh_python, "-c", readme_python_example(), cwd=tmp_path)
    if passes:
        assert done.returncode == 0, done.stdout + done.stderr
    else:
        # Its assertion fails, after printing each finding as file:line:column severity rule.
        assert done.returncode == 1, done.stdout + done.stderr
        assert "AssertionError" in done.stderr
        assert re.search(r"^deploy/cnf\.yaml:\d+:\d+ (error|warning) ra2\.app\.007/host-path /", done.stdout, re.M), done.stdout


@pytest.mark.parametrize(
    "args",
    [["--format", "json", "deploy"], ["deploy/broken/cnf.yaml"], ["--format", "sarif", "deploy"], ["--no-such-flag"]],
    ids=lambda a: " ".join(a),
)
def test_python_m_ra2_is_ra2_lint(fresh_python: Path, cli: Cli, tmp_path: Path, args: list[str]) -> None:
    shutil.copytree(EXAMPLES, tmp_path / "deploy")
    expected = cli.run("lint", *args, cwd=tmp_path)
    got = run(fresh_python, "-m", "ra2", *args, cwd=tmp_path)
    assert (got.returncode, got.stdout) == (expected.returncode, expected.stdout), got.stderr
    assert got.returncode in ((2,) if args == ["--no-such-flag"] else (1,))


def test_python_m_ra2_reads_stdin(fresh_python: Path, tmp_path: Path) -> None:
    text = (EXAMPLES / "conformant" / "cnf.yaml").read_text(encoding="utf-8")
    done = run(fresh_python, "-m", "ra2", "--format", "json", "-", cwd=tmp_path, stdin=text)
    assert done.returncode == 0, done.stderr
    assert '"findings":[]' in done.stdout.replace(" ", "").replace("\n", "")


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
