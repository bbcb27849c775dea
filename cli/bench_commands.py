"""``carcam bench [NAME ...]``: run the benchmarks in the repository's ``bench/`` folder."""

from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path

from scorer import CarcamError

BENCH_DIR = Path(__file__).resolve().parents[1] / "bench"


def available() -> list[str]:
    return sorted(p.stem.removeprefix("bench_") for p in BENCH_DIR.glob("bench_*.py"))


def cmd_bench(args: argparse.Namespace) -> int:
    if not BENCH_DIR.is_dir():
        raise CarcamError("bench: the benchmarks live in the source checkout's bench/ folder, "
                          "which this installation does not have")
    names = available() if args.names in ([], ["all"]) else args.names
    for name in names:
        path = BENCH_DIR / f"bench_{name}.py"
        if not path.is_file():
            raise CarcamError(f"bench: unknown benchmark {name!r} (available: {', '.join(available())})")
        print(f"== bench {name}", flush=True)
        old = sys.argv
        sys.argv = [str(path), *args.extra]
        try:
            runpy.run_path(str(path), run_name="__main__")
        finally:
            sys.argv = old
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run benchmarks from bench/ (all, or by name)")
    p.add_argument("names", nargs="*", help="benchmark names, e.g. scorer (default: all)")
    p.add_argument("--", dest="extra", nargs=argparse.REMAINDER, default=[], help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_bench, extra=[])
