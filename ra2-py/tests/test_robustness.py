"""No input crashes the interpreter, and threads lint in parallel with the same results."""

from __future__ import annotations

import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import ra2

from conftest import fixture_paths

NASTY = [
    "",
    "\n\n---\n---\n",
    "\ufeff",
    "a: [",
    "- just\n- a\n- list\n",
    "42",
    "{",
    "apiVersion: v1\nkind: Pod\nspec: 3\n",
    "apiVersion: v1\nkind: Pod\nspec:\n  containers: {a: b}\n",
    "apiVersion: [1]\nkind: {}\n",
    "kind: List\napiVersion: v1\nitems: [1, null, {kind: Pod}]\n",
    "a: &a [*a]\n",
    "a: *missing\n",
    "<<: *x\n",
    "!!binary xyz: 1\n",
    "\x00\x01\x02",
    "\u2028\u2029",
    "key: 'unterminated\n",
    "a:\n  - b\n - c\n",
    "[" * 10_000,
    "a:\n" + "".join("  " * i + "b:\n" for i in range(1, 2_000)),
    # Billion laughs: alias expansion is bounded.
    "a: &a [x, x, x, x, x, x, x, x, x]\n"
    + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(9))
    + "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: *j}\n",
    '{"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"name": 1e999}]}}',
    "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    k8s.v1.cni.cncf.io/networks: '[{\"name\": ' \n",
]


@pytest.mark.parametrize("text", NASTY, ids=range(len(NASTY)))
def test_nasty_text_gives_a_report(text: str) -> None:
    for edition in ("base", "latest"):
        report = ra2.lint(text, edition=edition)
        assert isinstance(report.to_json(), str)
        assert report.exit_code in (0, 1, 2)


def test_lone_surrogates_are_a_unicode_error() -> None:
    with pytest.raises(UnicodeEncodeError):
        ra2.lint("kind: \ud800")


def test_random_bytes_give_a_report() -> None:
    rng = random.Random(6)
    for _ in range(300):
        blob = bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 200)))
        report = ra2.lint(blob)
        assert report.exit_code in (0, 1, 2)


def test_mutated_fixtures_give_a_report() -> None:
    rng = random.Random(7)
    texts = [p.read_text(encoding="utf-8") for p in fixture_paths()]
    alphabet = "\n :-[]{}&*!|>'\"#%@`,?\t"
    for _ in range(200):
        chars = list(rng.choice(texts))
        for _ in range(rng.randrange(1, 8)):
            i = rng.randrange(len(chars))
            chars[i] = rng.choice(alphabet)
        report = ra2.lint("".join(chars), edition=rng.choice(["base", "latest"]))
        assert report.exit_code in (0, 1, 2)


def test_threads_lint_concurrently_with_the_same_results() -> None:
    jobs = [(p, e) for p in fixture_paths() for e in ("base", "latest")]
    texts = {p: p.read_text(encoding="utf-8") for p in fixture_paths()}
    sequential = {(p, e): ra2.lint(texts[p], filename=p.name, edition=e).to_json() for p, e in jobs}

    def run(job: tuple[object, str]) -> tuple[object, str, str]:
        path, edition = job
        return path, edition, ra2.lint(texts[path], filename=path.name, edition=edition).to_json()  # type: ignore[index,attr-defined]

    with ThreadPoolExecutor(max_workers=16) as pool:
        for path, edition, text in pool.map(run, jobs * 4):
            assert text == sequential[(path, edition)]


def test_the_gil_is_released_while_linting() -> None:
    # One large lint in a thread; meanwhile this thread keeps running Python. Were the GIL held
    # for the whole lint, the loop below would hardly advance until the lint returned.
    base = "\n---\n".join(p.read_text(encoding="utf-8") for p in fixture_paths())
    # Grow the input until one lint lasts long enough to observe, rather than skip on a fast machine.
    for copies in (6, 24, 96, 384):
        big = base * copies
        done = threading.Event()
        started = threading.Event()
        spins_during_lint = 0

        def worker() -> None:
            started.set()
            ra2.lint(big, edition="latest")
            done.set()

        thread = threading.Thread(target=worker)
        thread.start()
        started.wait()
        begin = time.perf_counter()
        while not done.is_set():
            spins_during_lint += 1
        elapsed = time.perf_counter() - begin
        thread.join()
        if elapsed >= 0.05:
            break
    assert elapsed >= 0.05, f"even {copies} copies lint in {elapsed:.3f}s"
    # Holding the GIL, the loop would get a slice every 5 ms switch interval at best.
    assert spins_during_lint > 20_000, (spins_during_lint, elapsed)
