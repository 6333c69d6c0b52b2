"""The type stubs describe the module as it is: the same names, classes, properties and
parameters."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import ra2
import ra2._ra2 as native

PACKAGE = Path(ra2.__file__).parent
STUBS = ast.parse((PACKAGE / "_ra2.pyi").read_text(encoding="utf-8"))


def test_package_is_typed() -> None:
    assert (PACKAGE / "py.typed").is_file()


def stub_items() -> tuple[dict[str, ast.FunctionDef], dict[str, ast.ClassDef]]:
    functions = {n.name: n for n in STUBS.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in STUBS.body if isinstance(n, ast.ClassDef)}
    return functions, classes


def stub_variables() -> set[str]:
    return {n.target.id for n in STUBS.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}


def test_all_matches() -> None:
    (stub_all,) = [
        ast.literal_eval(n.value)
        for n in STUBS.body
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)
    ]
    assert stub_all == native.__all__


def test_every_runtime_name_has_a_stub() -> None:
    functions, classes = stub_items()
    runtime = {n for n in dir(native) if not n.startswith("__")}
    typing_only = {"_SeverityCounts", "_Summary"}
    declared = set(functions) | (set(classes) - typing_only) | (stub_variables() - {"__version__"})
    assert runtime == declared


def test_classes_have_the_same_members() -> None:
    _, classes = stub_items()
    for name, node in classes.items():
        if name in {"_SeverityCounts", "_Summary"}:
            continue
        declared = {n.name for n in node.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
        actual = {n for n in vars(getattr(native, name)) if not n.startswith("_")}
        assert declared == actual, name


def test_function_parameters_match() -> None:
    functions, _ = stub_items()
    for name, node in functions.items():
        if name.startswith("_"):
            continue
        stub = [a.arg for a in node.args.args] + ["*"] * bool(node.args.kwonlyargs) + [a.arg for a in node.args.kwonlyargs]
        runtime = []
        star = False
        for p in inspect.signature(getattr(native, name)).parameters.values():
            if p.kind is p.KEYWORD_ONLY and not star:
                runtime.append("*")
                star = True
            runtime.append(p.name)
        assert stub == runtime, name


def test_stubtest() -> None:
    """mypy's stubtest: the stubs against the runtime module (when mypy is installed)."""
    import subprocess
    import sys

    import pytest

    pytest.importorskip("mypy.stubtest")
    done = subprocess.run([sys.executable, "-m", "mypy.stubtest", "ra2"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
