"""The type stubs agree with the report's JSON Schema (`ra2-core/schemas/report.schema.json`), the
one source of the report's shape: every schema field is a property of the Python class that
carries it (snake_case), every property is a schema field, and a field that may be absent or
null is `... | None` in the stubs while a field that is always there is not.

`test_stubs.py` checks the stubs against the runtime module; together the two tie the runtime
to the schema."""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from conftest import ROOT

SCHEMA = json.loads((ROOT / "ra2-core" / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
STUBS = ast.parse((ROOT / "ra2-py" / "python" / "ra2" / "_ra2.pyi").read_text(encoding="utf-8"))

# Schema definition -> the stub class that carries it.
CLASSES = {
    "objectRef": "ObjectRef",
    "related": "Related",
    "finding": "Finding",
    "error": "LintError",
    "object": "ObjectInfo",
}

# Fields in the schema that a Python class does not carry, and why.
NOT_IN_PYTHON = {
    # Mapping findings onto chart templates reads the chart from disk: `ra2 lint` only.
    ("finding", "template"),
    # Constants of the JSON envelope, written by `Report.to_json()`/`to_dict()`.
    ("report", "version"),
    ("report", "tool"),
}

# Python-only members, and why.
PYTHON_ONLY = {
    # Every class converts to the JSON contract's dict.
    "to_dict",
    # What `ra2 lint` would exit with: the CLI's verdict, computed in the core.
    "exit_code",
    # Report's renderers.
    "to_json",
    "to_sarif",
    "to_junit",
}


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    return resolve(SCHEMA["$defs"][ref.removeprefix("#/$defs/")])


def scalar(schema: dict[str, Any]) -> bool:
    """A string, number or enum field (arrays become lists, `const: true` flags booleans)."""
    schema = resolve(schema)
    if "enum" in schema:
        return True
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return bool({"string", "integer", "number"} & set(kinds))


def nullable(schema: dict[str, Any]) -> bool:
    schema = resolve(schema)
    kinds = schema.get("type")
    return (isinstance(kinds, list) and "null" in kinds) or None in schema.get("enum", [])


def definition(name: str) -> dict[str, Any]:
    return SCHEMA if name == "report" else SCHEMA["$defs"][name]


def stub_class(name: str) -> ast.ClassDef:
    (node,) = [n for n in STUBS.body if isinstance(n, ast.ClassDef) and n.name == name]
    return node


def properties(node: ast.ClassDef) -> dict[str, str]:
    """A stub class's properties and methods: name -> return annotation as written."""
    return {
        n.name: ast.unparse(n.returns) if n.returns else ""
        for n in node.body
        if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")
    }


def check_class(schema_name: str, class_name: str) -> None:
    schema = definition(schema_name)
    required = set(schema.get("required", []))
    fields = {snake(k): v for k, v in schema["properties"].items() if (schema_name, k) not in NOT_IN_PYTHON}
    optional = {snake(k) for k in schema["properties"] if k not in required}
    stubbed = properties(stub_class(class_name))

    assert set(fields) == set(stubbed) - PYTHON_ONLY, class_name
    for name, field in fields.items():
        if not scalar(field):
            continue
        may_be_missing = name in optional or nullable(field)
        assert ("None" in stubbed[name]) == may_be_missing, (
            f"{class_name}.{name} is `{stubbed[name]}` but the schema says it "
            + ("may be absent or null" if may_be_missing else "is always there")
        )


def test_classes_match_the_schema() -> None:
    for schema_name, class_name in CLASSES.items():
        check_class(schema_name, class_name)
    check_class("report", "Report")


def typed_dict(name: str) -> dict[str, str]:
    node = stub_class(name)
    return {
        n.target.id: ast.unparse(n.annotation)
        for n in node.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }


def test_summary_matches_the_schema() -> None:
    schema = SCHEMA["$defs"]["summary"]
    keys = typed_dict("_Summary")
    assert set(keys) == set(schema["properties"])
    for name in schema["properties"]:
        assert keys[name].startswith("NotRequired[") == (name not in schema["required"]), name
    counts = schema["properties"]["findings"]
    assert set(typed_dict("_SeverityCounts")) == set(counts["properties"]) == set(counts["required"])


def test_the_check_can_fail() -> None:
    """A field the stubs lack, or a wrong optionality, is caught."""
    finding = stub_class("Finding")
    saved = list(finding.body)
    try:
        finding.body = [n for n in finding.body if not (isinstance(n, ast.FunctionDef) and n.name == "pointer")]
        try:
            check_class("finding", "Finding")
        except AssertionError:
            pass
        else:
            raise AssertionError("a missing property went unnoticed")
    finally:
        finding.body = saved
    related = definition("related")
    related["required"].remove("message")
    try:
        try:
            check_class("related", "Related")
        except AssertionError:
            pass
        else:
            raise AssertionError("a wrong optionality went unnoticed")
    finally:
        related["required"].append("message")
