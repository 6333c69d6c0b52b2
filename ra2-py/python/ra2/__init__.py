"""ra2: lint Kubernetes manifests against the Anuket Reference Architecture 2 (RA2), in-process.

    >>> import ra2
    >>> report = ra2.lint(open("deploy/cnf.yaml").read(), filename="deploy/cnf.yaml")
    >>> [f"{f.rule} {f.pointer}" for f in report]

`lint` and `lint_paths` return a `Report` (findings, errors, objects, summary, `to_json()`
identical to `ra2 lint --format json`); `fix` returns the text with the findings' fixes applied; `review` answers an admission.k8s.io/v1
AdmissionReview; `rules` lists the catalogue. The Rust core runs with the GIL released, so
threads lint in parallel. `python -m ra2` is `ra2 lint`.
"""

from ra2._ra2 import (
    Finding,
    LintError,
    ObjectInfo,
    ObjectRef,
    Related,
    Report,
    __version__,
    fix,
    lint,
    lint_paths,
    review,
    rules,
)

__all__ = [
    "Finding",
    "LintError",
    "ObjectInfo",
    "ObjectRef",
    "Related",
    "Report",
    "__version__",
    "fix",
    "lint",
    "lint_paths",
    "review",
    "rules",
]
