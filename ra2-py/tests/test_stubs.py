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


def test_every_runtime_name_has_a_stub() -> None:
    functions, classes = stub_items()
    runtime = {n for n in dir(native) if not n.startswith("__")}
    typing_only = {"SeverityCounts", "Summary"}
    assert runtime == set(functions) | (set(classes) - typing_only)


def test_classes_have_the_same_members() -> None:
    _, classes = stub_items()
    for name, node in classes.items():
        if name in {"SeverityCounts", "Summary"}:
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
