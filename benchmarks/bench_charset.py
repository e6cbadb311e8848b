"""The mojibake check of another commit against this checkout's, on the real phpBB pages.

``python benchmarks/bench_charset.py --against main`` loads ``adapters/charset.py`` of that
commit (``git show``; it imports nothing of the project) beside this checkout's, and times
``signatures()`` of each over ``fixtures/phpbb33-ru/topic_p*_host.html`` decoded right (what
every sync pays for every page) in rounds: both versions in every round, the order turning,
at least 5 rounds; each side of a round reads every page ``--repeat`` times. Times are
medians of CPU time a page; the ratio is the median of the per-round ratios. Before timing,
both versions must give the same answer on every page read right and misread (cp1251,
cp1252, KOI8-R, double-encoded UTF-8): a faster check that said otherwise would be wrong.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from timing import RUNS, load, median, ratio, rounds, timed  # noqa: E402

from adapters import charset  # noqa: E402

Signatures = Callable[[str], tuple[int, str | None]]
PAGES = sorted((ROOT / "fixtures" / "phpbb33-ru").glob("topic_p*_host.html"))


def charset_of(commit: str) -> Signatures:
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:adapters/charset.py"],
                            check=True, capture_output=True, text=True).stdout
    module = types.ModuleType(f"charset_{commit}")
    exec(compile(source, f"{commit}:adapters/charset.py", "exec"), module.__dict__)
    return module.signatures


def misread(raw: bytes) -> list[str]:
    """The page's text under the wrong decodings a board's header can cause."""
    right = raw.decode("utf-8")
    return [raw.decode("cp1251", "replace"), raw.decode("cp1252", "replace"),
            raw.decode("koi8-r"), right.encode("cp1251", "replace").decode("koi8-r"),
            right.encode("cp1251", "replace").decode("cp1252", "replace"),
            raw.decode("cp1251", "replace").encode("utf-8").decode("utf-8")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="main", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=RUNS)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    old, new = charset_of(args.against), charset.signatures
    raws = [p.read_bytes() for p in PAGES]
    texts = [r.decode("utf-8") for r in raws]
    for raw, text in zip(raws, texts, strict=True):
        for t in (text, *misread(raw)):
            assert old(t) == new(t), f"the versions disagree: {old(t)} ≠ {new(t)}"

    def side(check: Signatures) -> Callable[[], object]:
        def run() -> None:
            for _ in range(args.repeat):
                for t in texts:
                    check(t)
        return lambda: timed(run)

    times = rounds({"old": side(old), "new": side(new)}, max(RUNS, args.rounds))
    per_page = 1000 / (args.repeat * len(texts))
    paired = ratio(times["new"], times["old"])
    print(f"signatures() on {len(texts)} pages ({', '.join(p.name for p in PAGES)}), "
          f"{max(RUNS, args.rounds)} rounds × {args.repeat} reads; {load()}")
    print(f"  {args.against}: {median(times['old'], 'cpu') * per_page:.2f} ms a page (CPU)")
    print(f"  this checkout: {median(times['new'], 'cpu') * per_page:.2f} ms a page (CPU)")
    print(f"  {args.against} ÷ this checkout: {paired.ratio:.2f}× (rounds {paired.spread()}); "
          "the same verdict on every page, read right and misread")


if __name__ == "__main__":
    main()
