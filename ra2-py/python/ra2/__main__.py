"""`python -m ra2`: the same as `ra2 lint`, with the same flags, output and exit codes.

The command line is parsed here with argparse, mirroring `ra2 lint`'s flags (a test compares
the two), and the run is ra2's own (the `ra2-run` crate, the code behind `ra2 lint`). Only the
wording of usage errors differs from the CLI's.
"""

from __future__ import annotations

import argparse
import re
import sys
from typing import Any, Callable, Sequence

from ra2._ra2 import __version__, _run

FORMATS = ["text", "json", "jsonl", "sarif", "junit", "github", "codeclimate", "policyreport", "openreports", "markdown", "html"]
FAIL_ON = ["error", "warning", "info", "never"]
EDITIONS = ["base", "latest"]


def _count(name: str, low: int, high: int) -> Callable[[str], int]:
    """A whole number in [low, high], written as Rust reads one (digits, an optional `+`)."""

    def parse(text: str) -> int:
        if re.fullmatch(r"\+?[0-9]+", text) is None or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from {low} to {high}")
        return int(text)

    parse.__name__ = name
    return parse


class _Once(argparse.Action):
    """Refuses a flag given twice, as `ra2 lint` does (`--select` and `--ignore` repeat)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None) -> None:
        if getattr(namespace, "_seen_" + self.dest, False):
            parser.error(f"the argument '{option}' cannot be used multiple times")
        setattr(namespace, "_seen_" + self.dest, True)
        setattr(namespace, self.dest, True if self.nargs == 0 else values)


class _Flag(_Once):
    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=False, **kwargs)


class _Rules(argparse.Action):
    """`--select`/`--ignore`: repeatable, each value comma-separated."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None) -> None:
        getattr(namespace, self.dest).extend(str(values).split(","))


def parser() -> argparse.ArgumentParser:
    """The command line of `python -m ra2` (that of `ra2 lint`)."""
    p = argparse.ArgumentParser(
        prog="python -m ra2",
        allow_abbrev=False,
        description="Lint Kubernetes manifests against the Anuket Reference Architecture 2 (RA2): "
        "files, directories (recursively), or `-` for standard input. The same as `ra2 lint` "
        "(`ra2 lint --help` explains each flag).",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="files or directories; `-` reads standard input [default: .]")
    p.add_argument("--format", action=_Once, choices=FORMATS, default="text", help="output format [default: text]")
    p.add_argument("--fail-on", action=_Once, choices=FAIL_ON, metavar="LEVEL", help="exit with status 1 at or above this severity")
    p.add_argument("--select", action=_Rules, default=[], metavar="RULE", help="run only these rules (repeatable, comma-separated)")
    p.add_argument("--ignore", action=_Rules, default=[], metavar="RULE", help="skip these rules (repeatable, comma-separated)")
    p.add_argument("--edition", action=_Once, choices=EDITIONS, help="rule set [default: base, or the config file's]")
    config = p.add_mutually_exclusive_group()
    config.add_argument("--config", action=_Once, metavar="FILE", help="configuration file [default: .ra2.yaml here or above]")
    config.add_argument("--no-config", action=_Flag, help="ignore any .ra2.yaml")
    p.add_argument("--strict", action=_Flag, help="also check each object against its Kubernetes OpenAPI schema")
    p.add_argument("--skip-non-k8s", action=_Flag, help="skip files and documents that are not Kubernetes manifests")
    p.add_argument("--no-ignore", action=_Flag, help="also lint what .gitignore, .ignore and git's excludes leave out of directory walks")
    p.add_argument("--kustomize", action=_Flag, help="render kustomization directories with kustomize and lint the output")
    u64 = 2**64 - 1
    p.add_argument("--max-document-bytes", action=_Once, type=_count("BYTES", 1, u64), metavar="BYTES", help="largest document read")
    p.add_argument("--max-depth", action=_Once, type=_count("LEVELS", 1, u64), metavar="LEVELS", help="deepest nesting read")
    p.add_argument("--max-alias-expansion", action=_Once, type=_count("NODES", 1, u64), metavar="NODES", help="nodes aliases may add")
    p.add_argument("-j", "--jobs", action=_Once, type=_count("N", 1, 2**16 - 1), metavar="N", help="threads [default: the cores]")
    p.add_argument("--stream-after", action=_Once, type=_count("N", 0, u64), metavar="N", help="results held before the output streams (0: from the start)")
    p.add_argument("--post-render", action=_Flag, help="act as a Helm post-renderer")
    p.add_argument("--chart-root", action=_Once, metavar="DIR", help="where the Helm chart of `helm template` output is")
    p.add_argument("-v", "--verbose", action=_Flag, help="name each Helm chart not found in a note of its own")
    p.add_argument("--source-root", action=_Once, metavar="DIR", help="the directory SARIF, GitHub and Code Quality paths are relative to")
    p.add_argument("--category", action=_Once, metavar="ID", help="SARIF runs[0].automationDetails.id")
    baseline = p.add_mutually_exclusive_group()
    baseline.add_argument("--baseline", action=_Once, metavar="FILE", help="report only findings this baseline file does not record")
    baseline.add_argument("--write-baseline", action=_Once, metavar="FILE", help="record every current finding in this baseline file")
    p.add_argument("--fix", action=_Flag, help="apply the safe fixes in place, then report what remains")
    p.add_argument("--unsafe-fixes", action=_Flag, help="with --fix or --diff, apply the unsafe fixes too")
    p.add_argument("--diff", action=_Flag, help="print the fixes as a unified diff and write nothing")
    p.add_argument("-V", "--version", action="version", version=f"python -m ra2 {__version__}")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run `ra2 lint` with the command line's arguments and return its exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # Everything after `--` is a path (argparse's intermixed parsing would not take them).
    rest: list[str] = []
    if "--" in argv:
        end = argv.index("--")
        argv, rest = argv[:end], argv[end + 1 :]
    args = parser().parse_intermixed_args(argv)
    args.paths.extend(rest)
    options = {k: v for k, v in vars(args).items() if not k.startswith("_seen_")}
    # The linter writes to the process's standard streams directly: flush Python's first.
    sys.stdout.flush()
    sys.stderr.flush()
    return _run(**options)


if __name__ == "__main__":
    sys.exit(main())
