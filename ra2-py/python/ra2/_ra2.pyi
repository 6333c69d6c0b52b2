"""Type stubs of the native module `ra2._ra2` (re-exported by `ra2`)."""

import os
from typing import Any, Iterable, Iterator, Literal, Mapping, TypedDict, Union, final

from typing_extensions import NotRequired

__version__: str
_debug_build: bool
__all__ = [
    "__version__",
    "_debug_build",
    "lint",
    "fix",
    "lint_paths",
    "review",
    "rules",
    "_run",
    "Report",
    "Finding",
    "LintError",
    "ObjectInfo",
    "ObjectRef",
    "Related",
]

_StrPath = Union[str, "os.PathLike[str]"]
"""A path: str or os.PathLike."""

_Severity = Literal["error", "warning", "info"]
"""How serious a finding is."""

_Selectors = Union[str, Iterable[str]]
"""Rule ids, prefixes (`ra2.app`) or `id/check`: a list, or one comma-separated string."""

_ConfigArg = Union[Mapping[str, Any], _StrPath]
"""A mapping of `.ra2.yaml` keys, or the path of a `.ra2.yaml` file."""

class _SeverityCounts(TypedDict):
    """Findings by severity (type-checking only, not importable)."""

    error: int
    warning: int
    info: int

class _Summary(TypedDict):
    """`Report.summary` (type-checking only, not importable)."""

    files: int
    documents: int
    objects: int
    errors: int
    findings: _SeverityCounts
    suppressed: int
    suppressed_by_reason: dict[str, int]
    skipped: int
    skipped_by_reason: dict[str, int]
    strict_skipped: NotRequired[int]
    """Strict mode only: objects of kinds without a schema."""
    strict_skipped_kinds: NotRequired[dict[str, int]]
    """Strict mode only: those objects by kind."""
    baselined: NotRequired[int]
    """With a baseline: findings not reported because the baseline records them."""
    stale: NotRequired[int]
    """With a baseline: recorded findings this run no longer found."""
    fixed: NotRequired[int]
    """With --fix: fixes applied before the report was made."""
    waivers: NotRequired[list[dict[str, Any]]]
    """The waivers in force that silenced findings (source, rule, object or exemption, reason, expires, suppressed)."""

@final
class ObjectRef:
    """The object a finding is about: `Finding.object`."""

    @property
    def api_version(self) -> str | None:
        """`apiVersion` of the object, if it has one."""
    @property
    def kind(self) -> str | None:
        """`kind` of the object."""
    @property
    def namespace(self) -> str | None:
        """`metadata.namespace`, if set."""
    @property
    def name(self) -> str | None:
        """`metadata.name`, if set."""
    def to_dict(self) -> dict[str, str]:
        """The JSON shape: `{"apiVersion", "kind", "namespace", "name"}`, keys that are set only."""

@final
class Related:
    """A second place a finding refers to: `Finding.related`."""

    @property
    def message(self) -> str:
        """What is there."""
    @property
    def line(self) -> int:
        """1-based line."""
    @property
    def column(self) -> int:
        """1-based column, in characters."""
    @property
    def end_line(self) -> int:
        """1-based line where the range ends."""
    @property
    def end_column(self) -> int:
        """1-based column where the range ends."""
    def to_dict(self) -> dict[str, Any]:
        """The JSON shape."""

@final
class Finding:
    """One rule violation: the fields of a finding in the JSON output, as attributes."""

    @property
    def rule(self) -> str:
        """The rule id (`ra2.app.007`), or `yaml`, `suppression` or `exemption`."""
    @property
    def check(self) -> str:
        """The check within the rule (`host-path`)."""
    @property
    def severity(self) -> _Severity:
        """`error`, `warning` or `info`."""
    @property
    def message(self) -> str:
        """What is wrong, naming the concrete thing."""
    @property
    def help(self) -> str:
        """How to fix it (a sentence)."""
    @property
    def file(self) -> str:
        """The file (as given, `<stdin>`, or the `filename` of `lint`)."""
    @property
    def line(self) -> int:
        """1-based line of the offending node."""
    @property
    def column(self) -> int:
        """1-based column, in characters."""
    @property
    def end_line(self) -> int:
        """1-based line where the offending node ends."""
    @property
    def end_column(self) -> int:
        """1-based column where the offending node ends."""
    @property
    def document(self) -> int:
        """0-based index of the YAML document in its file."""
    @property
    def pointer(self) -> str:
        """JSON pointer of the offending field in its object."""
    @property
    def object(self) -> ObjectRef:
        """The object the finding is about."""
    @property
    def source_template(self) -> str | None:
        """The Helm template the document was rendered from (its `# Source:` comment), if any."""
    @property
    def related(self) -> list[Related]:
        """Other places the finding refers to (for example the anchor an alias expanded)."""
    @property
    def refused_by_api_server(self) -> bool:
        """True when the API server itself refuses the object for this condition."""
    @property
    def fix(self) -> dict[str, Any] | None:
        """The mechanical remedy (`applicability`, `title`, `patch`: RFC 6902 operations on the object), if the check has one."""
    def to_dict(self) -> dict[str, Any]:
        """The finding as in the JSON output: a dict with the same keys."""

@final
class LintError:
    """Input that could not be read or is not a Kubernetes object (a record, not an exception)."""

    @property
    def file(self) -> str:
        """The file."""
    @property
    def line(self) -> int:
        """1-based line."""
    @property
    def column(self) -> int:
        """1-based column."""
    @property
    def document(self) -> int:
        """0-based index of the YAML document in its file."""
    @property
    def message(self) -> str:
        """What went wrong."""
    @property
    def code(self) -> str:
        """A stable code such as `ra2::parse::yaml`."""
    def to_dict(self) -> dict[str, Any]:
        """The error as in the JSON output."""

@final
class ObjectInfo:
    """One object that was linted: an entry of `Report.objects`."""

    @property
    def file(self) -> str:
        """The file."""
    @property
    def document(self) -> int:
        """0-based index of the YAML document in its file."""
    @property
    def line(self) -> int:
        """1-based line where the object starts."""
    @property
    def api_version(self) -> str | None:
        """`apiVersion`, if set."""
    @property
    def kind(self) -> str | None:
        """`kind`."""
    @property
    def name(self) -> str | None:
        """`metadata.name`, if set."""
    @property
    def namespace(self) -> str | None:
        """`metadata.namespace`, if set."""
    @property
    def profile(self) -> Literal["basic", "network-intensive"] | None:
        """The workload profile, for objects with a pod spec."""
    @property
    def source_template(self) -> str | None:
        """The Helm template the document was rendered from, if any."""
    @property
    def hook(self) -> Literal["test"] | None:
        """`test` for a Helm test hook, else None."""
    def to_dict(self) -> dict[str, Any]:
        """The object as in the JSON output."""

@final
class Report:
    """Everything one lint run found.

    `len(report)` is the number of findings and iterating it yields them; `report.to_json()` is
    exactly what `ra2 lint --format json` prints.
    """

    @property
    def findings(self) -> list[Finding]:
        """The findings, sorted by file, line, column and rule."""
    @property
    def errors(self) -> list[LintError]:
        """Input that could not be read or is not a Kubernetes object."""
    @property
    def objects(self) -> list[ObjectInfo]:
        """Every object linted, with its workload profile."""
    @property
    def summary(self) -> _Summary:
        """Counts, as in the JSON output."""
    @property
    def edition(self) -> Literal["base", "latest"]:
        """The edition the rules ran in."""
    @property
    def exit_code(self) -> Literal[0, 1, 2]:
        """What `ra2 lint` would exit with: 2 unreadable input, 1 findings at or above `fail-on`, else 0."""
    def to_json(self) -> str:
        """The JSON output contract (version 1), as `ra2 lint --format json` prints it."""
    def to_dict(self) -> dict[str, Any]:
        """The JSON output contract as a dict."""
    def to_sarif(self) -> str:
        """SARIF 2.1.0: byte for byte what `ra2 lint --format sarif` prints (final newline included)."""
    def to_junit(self) -> str:
        """JUnit XML: byte for byte what `ra2 lint --format junit` prints."""
    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Finding]: ...

def fix(
    text: str,
    *,
    filename: _StrPath | None = None,
    edition: Literal["base", "latest"] | None = None,
    select: _Selectors | None = None,
    ignore: _Selectors | None = None,
    config: _ConfigArg | None = None,
    unsafe_fixes: bool = False,
) -> str:
    """The text with its findings' safe fixes applied (and the unsafe ones with `unsafe_fixes`),
    as `ra2 lint --fix` does: only the nodes a fix edits change.

    Raises ValueError for a bad option.
    """

def lint(
    text: str | bytes | bytearray,
    *,
    filename: _StrPath | None = None,
    edition: Literal["base", "latest"] | None = None,
    select: _Selectors | None = None,
    ignore: _Selectors | None = None,
    config: _ConfigArg | None = None,
) -> Report:
    """Lint manifests given as text (a YAML stream, JSON, or a `kind: List`).

    Raises ValueError for a bad option, TypeError when `text` is not str or bytes.
    """

def lint_paths(
    paths: _StrPath | Iterable[_StrPath],
    *,
    edition: Literal["base", "latest"] | None = None,
    select: _Selectors | None = None,
    ignore: _Selectors | None = None,
    config: _ConfigArg | None = None,
    respect_ignore_files: bool = True,
) -> Report:
    """Lint files and directories as `ra2 lint PATH...` does.

    Directory walks skip what `.gitignore` (in a git repository), `.ignore` and git's
    excludes leave out, as ripgrep does, unless `respect_ignore_files=False` (`--no-ignore`).
    Without `config`, the `.ra2.yaml` in the working directory or a parent is read, as
    `ra2 lint` reads it (`config={}` for none). Raises OSError for a path that cannot be read,
    ValueError for a bad option.
    """

def review(
    review: Mapping[str, Any],
    *,
    edition: Literal["base", "latest"] | None = None,
    select: _Selectors | None = None,
    ignore: _Selectors | None = None,
    config: _ConfigArg | None = None,
) -> dict[str, Any]:
    """Answer an admission.k8s.io/v1 AdmissionReview with its response (same uid).

    Raises ValueError for a malformed request or a bad option.
    """

def rules(*, edition: Literal["base", "latest"] | None = None) -> list[dict[str, Any]]:
    """The rule catalogue of an edition (`base` by default), as `ra2 rules --format json`."""

def _run(
    *,
    paths: list[str],
    format: str,
    fail_on: str | None,
    select: list[str],
    ignore: list[str],
    edition: str | None,
    config: str | None,
    no_config: bool,
    strict: bool,
    skip_non_k8s: bool,
    no_ignore: bool,
    kustomize: bool,
    max_document_bytes: int | None,
    max_depth: int | None,
    max_alias_expansion: int | None,
    jobs: int | None,
    stream_after: int | None,
    post_render: bool,
    chart_root: str | None,
    source_root: str | None,
    category: str | None,
    baseline: str | None = None,
    write_baseline: str | None = None,
    fix: bool = False,
    unsafe_fixes: bool = False,
    diff: bool = False,
    verbose: bool = False,
) -> int:
    """Run `ra2 lint` with options parsed by `python -m ra2` (each the flag of that name) and
    return the exit status."""
