"""The API of DESIGN.md: lint, lint_paths, Report and its records, options and their errors."""

from __future__ import annotations

import json
import os
import pathlib
from pathlib import Path

import pytest

import ra2

from conftest import ROOT

HOST_PATH_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: amf
  namespace: core
spec:
  volumes:
    - name: logs
      hostPath:
        path: /var/log/amf
  containers:
    - name: amf
      image: registry.example.com/amf:1.0
"""

CONTROL_PLANE_POD = """\
apiVersion: v1
kind: Pod
metadata: {name: nef, namespace: core}
spec:
  nodeSelector:
    node-role.kubernetes.io/control-plane: ""
  containers: [{name: nef, image: registry.example.com/nef:1.0}]
"""


def host_path_finding(report: ra2.Report) -> ra2.Finding:
    (finding,) = [f for f in report if f.rule == "ra2.app.007"]
    return finding


def test_finding_attributes_are_the_json_fields() -> None:
    report = ra2.lint(HOST_PATH_POD, filename="pod.yaml")
    f = host_path_finding(report)
    assert (f.rule, f.check, f.severity) == ("ra2.app.007", "host-path", "warning")
    assert f.message == 'volume "logs" mounts host path /var/log/amf'
    assert f.help.endswith(".")
    assert (f.file, f.line, f.column, f.end_line, f.end_column) == ("pod.yaml", 9, 7, 9, 15)
    assert (f.document, f.pointer) == (0, "/spec/volumes/0/hostPath")
    assert (f.object.api_version, f.object.kind, f.object.namespace, f.object.name) == ("v1", "Pod", "core", "amf")
    assert f.object.to_dict() == {"apiVersion": "v1", "kind": "Pod", "namespace": "core", "name": "amf"}
    assert str(f.object) == "Pod core/amf"
    assert f.source_template is None and f.related == []
    assert f.refused_by_api_server is False
    as_json = json.loads(report.to_json())["findings"]
    assert f.to_dict() in as_json
    assert set(f.to_dict()) == {
        "rule", "check", "severity", "message", "help", "file", "line", "column",
        "end_line", "end_column", "document", "object", "pointer",
    }  # fmt: skip
    assert repr(f).startswith("<ra2.Finding ra2.app.007/host-path warning pod.yaml:9:7 ")
    assert str(f) == 'pod.yaml:9:7: warning ra2.app.007/host-path: volume "logs" mounts host path /var/log/amf'


def test_findings_carry_fixes_and_fix_applies_them() -> None:
    report = ra2.lint(HOST_PATH_POD)
    escalation = next(f for f in report if f.check == "privilege-escalation")
    assert escalation.fix == {
        "applicability": "safe",
        "title": "Set allowPrivilegeEscalation: false in the container's securityContext",
        "patch": [{"op": "add", "path": "/spec/containers/0/securityContext", "value": {"allowPrivilegeEscalation": False}}],
    }
    assert escalation.to_dict()["fix"] == escalation.fix
    assert host_path_finding(report).fix is None
    fixed = ra2.fix(HOST_PATH_POD)
    assert fixed == HOST_PATH_POD + "      securityContext:\n        allowPrivilegeEscalation: false\n"
    assert not [f for f in ra2.lint(fixed) if f.check == "privilege-escalation"]
    assert ra2.fix(fixed) == fixed
    unsafe = ra2.fix(HOST_PATH_POD, unsafe_fixes=True)
    assert "readOnlyRootFilesystem: true" in unsafe and "allowPrivilegeEscalation: false" in unsafe


def test_a_refusal_of_the_api_server_is_flagged() -> None:
    pod = HOST_PATH_POD.replace("path: /var/log/amf", "path: /var/log/../amf")
    refused = [f for f in ra2.lint(pod) if f.refused_by_api_server]
    assert [(f.rule, f.check) for f in refused] == [("k8s.api", "host-path")]
    assert refused[0].to_dict()["refused_by_api_server"] is True


def test_report_is_a_sized_iterable_of_findings() -> None:
    report = ra2.lint(HOST_PATH_POD)
    assert len(report) == len(report.findings) == sum(report.summary["findings"].values())
    assert list(report) == report.findings
    assert report.findings is not report.findings  # a fresh list each time: mutating it is harmless
    assert report.findings[0] is report.findings[0]  # of the same objects
    assert report.edition == "base"
    assert report.summary["files"] == 1 and report.summary["objects"] == 1
    assert [o.kind for o in report.objects] == ["Pod"]
    assert report.objects[0].profile == "basic"
    assert report.errors == []
    assert repr(report).startswith("<ra2.Report ")
    assert json.loads(report.to_json())["version"] == 1
    assert report.to_dict() == json.loads(report.to_json())


def test_default_filename_and_bytes_input() -> None:
    assert {f.file for f in ra2.lint(HOST_PATH_POD)} == {"<string>"}
    assert ra2.lint(HOST_PATH_POD.encode()).to_json() == ra2.lint(HOST_PATH_POD).to_json()
    assert ra2.lint(bytearray(HOST_PATH_POD.encode())).to_json() == ra2.lint(HOST_PATH_POD).to_json()
    assert {f.file for f in ra2.lint(HOST_PATH_POD, filename=Path("a/b.yaml"))} == {"a/b.yaml"}


def test_findings_compare_by_value() -> None:
    a, b = ra2.lint(HOST_PATH_POD), ra2.lint(HOST_PATH_POD)
    assert a.findings == b.findings
    assert a.objects == b.objects


def test_exit_code_follows_fail_on() -> None:
    assert ra2.lint(HOST_PATH_POD).exit_code == 0  # a warning
    assert ra2.lint(HOST_PATH_POD, config={"fail-on": "warning"}).exit_code == 1
    assert ra2.lint(CONTROL_PLANE_POD).exit_code == 1
    assert ra2.lint(CONTROL_PLANE_POD, config={"fail-on": "never"}).exit_code == 0
    assert ra2.lint("a: [").exit_code == 2


def test_edition_select_ignore() -> None:
    assert host_path_finding(ra2.lint(HOST_PATH_POD, edition="latest")).severity == "error"
    assert {f.rule for f in ra2.lint(HOST_PATH_POD, select=["ra2.app.007"])} == {"ra2.app.007"}
    assert {f.rule for f in ra2.lint(HOST_PATH_POD, select="ra2.app.007, ra2.app.001")} <= {
        "ra2.app.007",
        "ra2.app.001",
    }
    assert "ra2.app.007" not in {f.rule for f in ra2.lint(HOST_PATH_POD, ignore=("ra2.app.007",))}
    assert "ra2.app.007" not in {f.rule for f in ra2.lint(HOST_PATH_POD, ignore="ra2.app.007/host-path")}


def test_config_mapping_and_file(tmp_path: Path) -> None:
    settings = {
        "edition": "latest",
        "severity": {"ra2.app.007": "info"},
        "exemptions": [{"rule": "ra2.app.025", "namespace": "core", "reason": "lab"}],
    }
    from_mapping = ra2.lint(HOST_PATH_POD, config=settings)
    assert from_mapping.edition == "latest"
    assert host_path_finding(from_mapping).severity == "info"
    assert "ra2.app.025" not in {f.rule for f in from_mapping}
    assert from_mapping.summary["suppressed_by_reason"] == {"lab": 1}
    path = tmp_path / "settings.yaml"
    path.write_text("edition: latest\nseverity:\n  ra2.app.007: info\n", encoding="utf-8")
    for config in (path, str(path)):
        assert host_path_finding(ra2.lint(HOST_PATH_POD, config=config)).severity == "info"
    # Keyword options override the config.
    assert ra2.lint(HOST_PATH_POD, config=path, edition="base").edition == "base"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"edition": "newest"}, 'edition: "newest" is not one of "base", "latest"'),
        ({"edition": 3}, 'edition must be "base" or "latest", found int'),
        ({"select": ["ra2.app.07"]}, 'select: unknown rule "ra2.app.07" (did you mean "ra2.app.007"?)'),
        ({"ignore": "ra2.app.007/hostpath"}, 'ignore: unknown rule "ra2.app.007/hostpath"'),
        ({"select": 7}, "select must be a rule id, prefix or id/check, or a list of them, found int"),
        ({"select": ["ra2.app", None]}, "select must be a rule id, prefix or id/check, or a list of them, found NoneType"),
        ({"config": {"edtion": "base"}}, 'config /edtion: unknown key "edtion" (did you mean "edition"?)'),
        ({"config": {"fail-on": "sometimes"}}, 'config /fail-on: "sometimes" is not one of'),
        ({"config": {"exemptions": [{"rule": "ra2.app.007"}]}}, 'config /exemptions/0: missing required key "reason"'),
        (
            {"config": {"params": {"ra2.app.004": {"cluster_domain": 3}}}},
            'config /params/ra2.app.004/cluster_domain: parameter "cluster_domain" of ra2.app.004 must be a string',
        ),
        ({"config": {"select": ["ra2.app", "nope"]}}, 'config /select/1: unknown rule "nope"'),
        ({"config": {"edition": {1, 2}}}, "config must hold only dicts, lists, strings, numbers, booleans and None"),
        ({"config": {"kubernetes-version": float("nan")}}, "config must hold only"),
        ({"config": ["edition"]}, "config must be a mapping of .ra2.yaml keys or the path of a .ra2.yaml file, found list"),
        ({"filename": 3}, "filename must be a string, found int"),
    ],
)
def test_bad_options_raise_value_error(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError) as error:
        ra2.lint(HOST_PATH_POD, **options)  # type: ignore[arg-type]
    assert str(error.value).startswith(message), str(error.value)


def test_bad_config_file_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.ra2.yaml"
    path.write_text("edition: base\nselect: [ra2.app.07]\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r'bad\.ra2\.yaml:2:10: unknown rule "ra2\.app\.07"'):
        ra2.lint(HOST_PATH_POD, config=path)
    path.write_bytes(b"edition: \xff\n")
    with pytest.raises(ValueError, match="is not UTF-8"):
        ra2.lint(HOST_PATH_POD, config=path)


def test_missing_config_file_raises_os_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.yaml"
    with pytest.raises(FileNotFoundError) as error:
        ra2.lint(HOST_PATH_POD, config=missing)
    assert error.value.filename == str(missing)


def test_cyclic_config_is_a_value_error() -> None:
    cyclic: dict[str, object] = {}
    cyclic["params"] = cyclic
    with pytest.raises(ValueError, match="config must hold only"):
        ra2.lint(HOST_PATH_POD, config=cyclic)


def test_wrong_text_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="text must be str or bytes, found int"):
        ra2.lint(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ra2.lint(HOST_PATH_POD, "positional-filename")  # type: ignore[misc]


def test_version_and_docstrings() -> None:
    assert ra2.__version__.count(".") == 2
    assert ra2.__doc__
    for name in ra2.__all__:
        if name == "__version__":
            continue
        value = getattr(ra2, name)
        assert value.__doc__, name
        if isinstance(value, type):
            for attr, member in vars(value).items():
                if not attr.startswith("_"):
                    assert member.__doc__, f"{name}.{attr}"


def test_records_cannot_be_changed() -> None:
    report = ra2.lint(HOST_PATH_POD)
    finding = report.findings[0]
    with pytest.raises(AttributeError):
        finding.rule = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        report.edition = "latest"  # type: ignore[misc]


# ---- paths ---------------------------------------------------------------------------------


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory like a chart's output: manifests, hidden entries, other files."""
    write(tmp_path / "m" / "b.yaml", HOST_PATH_POD)
    write(tmp_path / "m" / "a.yml", CONTROL_PLANE_POD)
    write(tmp_path / "m" / "sub" / "c.json", json.dumps({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "core"}}))
    write(tmp_path / "m" / "sub" / "D.YAML", HOST_PATH_POD)
    write(tmp_path / "m" / ".hidden.yaml", HOST_PATH_POD)
    write(tmp_path / "m" / ".git" / "x.yaml", HOST_PATH_POD)
    write(tmp_path / "m" / "NOTES.txt", "not a manifest")
    write(tmp_path / "m" / "kustomization.yaml", "resources: [b.yaml]\n")
    write(tmp_path / "m" / "sub" / "values.yaml", "replicas: 1\n")
    write(tmp_path / "m" / "sub" / "app.yml", "server: {port: 8080}\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_directories_are_walked_like_the_cli(tree: Path, cli) -> None:  # type: ignore[no-untyped-def]
    report = ra2.lint_paths("m")
    assert sorted({f.file for f in report} | {o.file for o in report.objects}) == [
        "m/a.yml",
        "m/b.yaml",
        "m/sub/D.YAML",
        "m/sub/c.json",
    ]
    # Read but not a Kubernetes object: app.yml; not read at all: kustomization.yaml, values.yaml.
    assert report.summary["files"] == 5
    assert report.summary["skipped"] == 3
    assert report.summary["skipped_by_reason"] == {"Helm values": 1, "kustomize input": 1, "no apiVersion or kind": 1}
    assert not report.errors
    expected, status = cli.lint_json("m", cwd=tree)
    assert report.to_json() == expected
    assert report.exit_code == status


def test_walks_honour_ignore_files_unless_asked_not_to(tree: Path, cli) -> None:  # type: ignore[no-untyped-def]
    # m/ holds a .git directory, so its .gitignore counts (as in ripgrep); .ignore counts anywhere.
    write(tree / "m" / ".gitignore", "sub/\n")
    write(tree / "m" / ".ignore", "a.yml\n")
    walked = ra2.lint_paths("m")
    assert sorted({o.file for o in walked.objects}) == ["m/b.yaml"]
    expected, _ = cli.lint_json("m", cwd=tree)
    assert walked.to_json() == expected
    everything = ra2.lint_paths("m", respect_ignore_files=False)
    assert sorted({o.file for o in everything.objects}) == ["m/a.yml", "m/b.yaml", "m/sub/D.YAML", "m/sub/c.json"]
    expected, _ = cli.lint_json("--no-ignore", "m", cwd=tree)
    assert everything.to_json() == expected


def test_paths_forms(tree: Path) -> None:
    expected = ra2.lint_paths(["m/b.yaml", "m/a.yml"]).to_json()
    assert ra2.lint_paths([Path("m/b.yaml"), pathlib.PurePath("m/a.yml")]).to_json() == expected  # type: ignore[list-item]
    assert ra2.lint_paths(p for p in ["m/b.yaml", "m/a.yml"]).to_json() == expected
    assert ra2.lint_paths("./m/b.yaml").findings == ra2.lint_paths("m/b.yaml").findings
    # Named explicitly, any extension is linted; duplicates are linted once.
    assert ra2.lint_paths(["m/NOTES.txt"]).summary["files"] == 1
    assert ra2.lint_paths(["m/b.yaml", "m/b.yaml"]).summary["files"] == 1
    # Named explicitly, a file that is not a manifest is an error unless skip-non-k8s says otherwise.
    assert ra2.lint_paths(["m/sub/values.yaml"]).errors
    lenient = ra2.lint_paths(["m/sub/values.yaml", "m/sub/app.yml"], config={"skip-non-k8s": True})
    assert (lenient.errors, lenient.summary["skipped"]) == ([], 2)
    empty = ra2.lint_paths([])
    assert (len(empty), empty.summary["files"]) == (0, 0)


def test_unreadable_paths_raise_os_error(tree: Path) -> None:
    with pytest.raises(FileNotFoundError) as error:
        ra2.lint_paths(["m/b.yaml", "missing.yaml"])
    assert error.value.filename == "missing.yaml"
    assert "No such file or directory" in str(error.value)
    with pytest.raises(TypeError, match="paths must be a path"):
        ra2.lint_paths(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="paths must be a path"):
        ra2.lint_paths(["m/b.yaml", 3])  # type: ignore[list-item]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads everything")
def test_permission_denied_is_permission_error(tree: Path) -> None:
    locked = write(tree / "locked" / "x.yaml", HOST_PATH_POD)
    locked.chmod(0)
    try:
        with pytest.raises(PermissionError):
            ra2.lint_paths(str(locked))
    finally:
        locked.chmod(0o644)


def test_invalid_utf8_is_a_report_error_as_in_the_cli(tree: Path, cli) -> None:  # type: ignore[no-untyped-def]
    (tree / "m" / "bad.yaml").write_bytes(b"apiVersion: v1\nkind: \xff\n")
    report = ra2.lint_paths("m")
    (error,) = report.errors
    assert (error.file, error.line, error.column, error.code) == ("m/bad.yaml", 2, 7, "ra2::input::utf8")
    assert report.exit_code == 2
    expected, status = cli.lint_json("m", cwd=tree)
    assert report.to_json() == expected and status == 2


def test_stdin_is_read_for_dash(cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    code = "import ra2, sys; sys.stdout.write(ra2.lint_paths('-').to_json())"
    done = subprocess.run([sys.executable, "-c", code], input=HOST_PATH_POD, capture_output=True, text=True, check=True)
    expected, _ = cli.lint_json("-", stdin=HOST_PATH_POD, cwd=tmp_path)
    assert done.stdout == expected


def test_lint_paths_reads_the_config_file_like_the_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / ".ra2.yaml", "edition: latest\n")
    write(tmp_path / "sub" / "pod.yaml", HOST_PATH_POD)
    monkeypatch.chdir(tmp_path / "sub")
    assert ra2.lint_paths("pod.yaml").edition == "latest", "found in a parent, as ra2 lint finds it"
    assert ra2.lint_paths("pod.yaml", edition="base").edition == "base", "options override it"
    assert ra2.lint_paths("pod.yaml", config={}).edition == "base", "config={}: no file"
    assert ra2.lint("kind: Pod\n").edition == "base", "lint (text) never reads files"
    write(tmp_path / ".ra2.yaml", "edition: latest\nselect: [ra2.app.07]\n")
    with pytest.raises(ValueError, match=r'\.ra2\.yaml:2:10: unknown rule "ra2\.app\.07"'):
        ra2.lint_paths("pod.yaml")


def test_repo_examples_have_profiles() -> None:
    report = ra2.lint_paths(ROOT / "examples")
    profiles = {o.kind: o.profile for o in report.objects}
    assert profiles["Deployment"] == "network-intensive"
    assert profiles["ConfigMap"] is None


def test_related_locations_of_aliases() -> None:
    text = """\
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: Pod
    metadata: {name: a}
    spec:
      containers: [{name: c, image: r/c:1}]
      volumes: [&logs {name: logs, hostPath: {path: /var/log}}]
  - apiVersion: v1
    kind: Pod
    metadata: {name: b}
    spec:
      containers: [{name: c, image: r/c:1}]
      volumes: [*logs]
"""
    findings = [f for f in ra2.lint(text, select="ra2.app.007") if f.object.name == "b"]
    (finding,) = findings
    assert finding.line == 15
    (related,) = finding.related
    assert (related.line, related.column) == (9, 36)  # the anchored hostPath
    assert related.end_line >= related.line and related.end_column > 0
    assert related.message
    assert related.to_dict() == finding.to_dict()["related"][0]
    assert repr(related).startswith("<ra2.Related 9:36 ")


def test_object_info_attributes() -> None:
    text = "# Source: cnf/templates/test.yaml\n" + HOST_PATH_POD.replace(
        "  namespace: core\n", "  namespace: core\n  annotations:\n    helm.sh/hook: test\n"
    )
    (info,) = ra2.lint(text, filename="r.yaml").objects
    assert (info.file, info.document, info.line) == ("r.yaml", 0, 2)
    assert (info.api_version, info.kind, info.namespace, info.name) == ("v1", "Pod", "core", "amf")
    assert (info.profile, info.source_template, info.hook) == ("basic", "cnf/templates/test.yaml", "test")
    assert repr(info) == "<ra2.ObjectInfo Pod core/amf r.yaml:2>"
    error = ra2.lint("a: [", filename="e.yaml").errors[0]
    assert (error.file, error.line, error.document, error.code) == ("e.yaml", 1, 0, "ra2::parse::yaml")
    assert str(error).startswith("e.yaml:1:") and repr(error).startswith("<ra2.LintError e.yaml:1:")
