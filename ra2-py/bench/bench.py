#!/usr/bin/env python3
"""Benchmark (not a test): lint the shared corpus from Python with ra2 and, in the same run,
with checkov's Kubernetes checks, and report documents per second for both and the ratio.

Both are timed in-process, after their imports, over the same directory: ra2 through
`ra2.lint_paths`, checkov through its Kubernetes runner (the code `checkov -d DIR --framework
kubernetes` runs), in a separate virtualenv so that neither's dependencies touch the other.
The command line's wall time, interpreter start and imports included, is reported beside it.

    # ra2, release build, into the current virtualenv
    maturin develop --release -m ra2-py/Cargo.toml
    # checkov, in its own virtualenv
    python3 -m venv target/checkov-venv && target/checkov-venv/bin/pip install checkov
    python ra2-py/bench/bench.py [--corpus DIR] [--checkov-venv DIR] [--repeat N]

Documents are counted by ra2 (YAML documents in *.yaml, *.yml and *.json files, hidden entries
skipped); both tools are measured on that same set of files.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus"
DEFAULT_CHECKOV_VENV = ROOT / "target" / "checkov-venv"


def checkov_worker(corpus: str, repeat: int) -> None:
    """Runs inside checkov's virtualenv: times its Kubernetes runner, prints JSON."""
    import logging

    logging.disable(logging.CRITICAL)
    from checkov.kubernetes.runner import Runner
    from checkov.runner_filter import RunnerFilter

    import checkov.version

    times = []
    report = None
    for _ in range(repeat):
        start = time.perf_counter()
        report = Runner().run(root_folder=corpus, runner_filter=RunnerFilter(framework=["kubernetes"]))
        times.append(time.perf_counter() - start)
    assert report is not None
    print(
        json.dumps(
            {
                "version": checkov.version.version,
                "times": times,
                "passed": len(report.passed_checks),
                "failed": len(report.failed_checks),
                "resources": len(report.resources),
                "parsing_errors": len(report.parsing_errors),
            }
        )
    )


def manifest_files(corpus: Path) -> list[Path]:
    """The files ra2 lints in a directory walk, in its order."""
    out = []
    for dirpath, dirnames, filenames in os.walk(corpus):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if not name.startswith(".") and name.lower().endswith((".yaml", ".yml", ".json")):
                out.append(Path(dirpath) / name)
    return out


def bench_ra2(corpus: Path, repeat: int, threads: int) -> dict[str, object]:
    import ra2

    report = ra2.lint_paths(corpus)  # warm-up: page cache, catalogue
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        report = ra2.lint_paths(corpus)
        times.append(time.perf_counter() - start)
    # Threads: the files split into one batch per thread (cross-document checks then see one
    # batch at a time, so the findings differ a little; this measures throughput only).
    files = [str(p) for p in manifest_files(corpus)]
    batches = [files[i::threads] for i in range(threads)]
    threaded = []
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for _ in range(repeat):
            start = time.perf_counter()
            list(pool.map(ra2.lint_paths, batches))
            threaded.append(time.perf_counter() - start)
    return {
        "version": ra2.__version__,
        "debug_build": bool(getattr(ra2._ra2, "_debug_build", False)),
        "times": times,
        "threaded_times": threaded,
        "documents": report.summary["documents"],
        "files": report.summary["files"],
        "findings": len(report),
        "errors": len(report.errors),
    }


def bench_checkov(corpus: Path, venv: Path, repeat: int) -> dict[str, object] | str:
    python = venv / "bin" / "python"
    if not python.exists():
        return f"no checkov virtualenv at {venv} (python3 -m venv {venv} && {venv}/bin/pip install checkov)"
    done = subprocess.run(
        [str(python), __file__, "--checkov-worker", str(corpus), "--repeat", str(repeat)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        return f"checkov failed: {done.stderr.strip()[-2000:]}"
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    exe = venv / "bin" / "checkov"
    if exe.exists():
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            subprocess.run(
                [str(exe), "-d", str(corpus), "--framework", "kubernetes", "--quiet", "-o", "json",
                 "--output-file-path", tmp],
                capture_output=True,
            )  # fmt: skip
            result["cli_wall"] = time.perf_counter() - start
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--checkov-venv", type=Path, default=DEFAULT_CHECKOV_VENV)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--checkov-worker", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.checkov_worker:
        checkov_worker(args.checkov_worker, args.repeat)
        return 0
    corpus = args.corpus.resolve()
    if not corpus.is_dir():
        print(f"no corpus at {corpus}", file=sys.stderr)
        return 2

    r = bench_ra2(corpus, args.repeat, args.threads)
    c = bench_checkov(corpus, args.checkov_venv, max(1, min(args.repeat, 2)))
    docs = int(r["documents"])  # type: ignore[call-overload]
    size = sum(p.stat().st_size for p in manifest_files(corpus))
    print(f"corpus: {corpus} ({r['files']} files, {docs} documents, {size / 1e6:.1f} MB)")
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    if r["debug_build"]:
        print("WARNING: ra2 is a debug build; run `maturin develop --release -m ra2-py/Cargo.toml` first")
    best = min(r["times"])  # type: ignore[type-var]
    best_threaded = min(r["threaded_times"])  # type: ignore[type-var]
    print()
    print(f"{'tool':<36} {'seconds':>9} {'documents/s':>12}  notes")
    print(
        f"{'ra2 ' + str(r['version']) + ' (lint_paths, 1 thread)':<36} {best:>9.3f} {docs / best:>12,.0f}  "
        f"{r['findings']} findings, median {statistics.median(r['times']):.3f}s"  # type: ignore[arg-type]
    )
    print(
        f"{'ra2 (' + str(args.threads) + ' threads, GIL released)':<36} {best_threaded:>9.3f} {docs / best_threaded:>12,.0f}"
    )
    if isinstance(c, str):
        print(f"{'checkov':<36} {'-':>9} {'-':>12}  {c}")
        return 0
    checkov_best = min(c["times"])  # type: ignore[type-var]
    print(
        f"{'checkov ' + str(c['version']) + ' (kubernetes runner)':<36} {checkov_best:>9.3f} {docs / checkov_best:>12,.0f}  "
        f"{c['resources']} resources, {c['failed']} failed and {c['passed']} passed checks"
    )
    if "cli_wall" in c:
        wall = float(c["cli_wall"])  # type: ignore[arg-type]
        print(f"{'checkov -d (CLI, wall, with startup)':<36} {wall:>9.3f} {docs / wall:>12,.0f}")
    print()
    print(f"ra2 is {checkov_best / best:,.0f}x checkov's throughput on one thread ({checkov_best / best_threaded:,.0f}x with threads)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
