"""Benchmark of the synthetic photo generator: median seconds for a 72-tile 12 MP photo.

Run: ``.venv/bin/python bench/bench_synth.py [--runs N]``. Prints one line per tile art
(procedural always; the classic scans when the art folder is present). Target: < 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.synth import generate, load_scans, preset, random_state  # noqa: E402


def bench(art: str, runs: int) -> float:
    """Median wall time of ``runs`` photos (72 tiles, 4000x3000, default mix)."""
    state = random_state(1, tiles=72, players=4)
    params = preset("default").with_size(4000, 3000).with_art(art)
    generate(state, params, seed=0)  # warm caches (tile rasters), as a long run would be
    times = []
    for seed in range(1, runs + 1):
        t = time.perf_counter()
        generate(state, params, seed=seed)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    print(f"synth procedural 72 tiles 12MP: median {bench('procedural', args.runs):.3f} s")
    if load_scans() is not None:
        print(f"synth scans      72 tiles 12MP: median {bench('scans', args.runs):.3f} s")
    else:
        print("synth scans: skipped (classic scans folder absent)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
