"""Benchmark the photo reader on a fixed test split of synthetic photos.

The test seeds (100000 + i) are never used for tuning. For each art style (procedural, and the
classic scans where ``shared/art/classic`` is present) it prints: per-tile accuracy (type; type
and rotation), the share of photos read exactly right (every tile and figure), figure precision,
recall, F1 and the share on the right segment, and the median read time per 12 MP photo in one
process (a separate timing pass at 12 MP).

    python bench/bench_read.py [--photos 20] [--tiles 40] [--preset default] [--art procedural scans]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.compare import compare  # noqa: E402
from vision.reader import BoardReader  # noqa: E402

TEST_SEED0 = 100_000


def run(style: str, n: int, tiles: int, preset_name: str, reader: BoardReader, per_photo: bool = False) -> None:
    from vision.synth import generate, load_scans, preset

    if style == "scans" and load_scans() is None:
        print("scans: art folder missing, skipped")
        return
    params = preset(preset_name).with_art(style)
    agg = dict(tt=0, typ=0, ex=0, mt=0, mf=0, mm=0, ms=0, exact=0, n=0, fail=0)
    times = []
    for i in range(n):
        seed = TEST_SEED0 + i
        photo = generate(seed, params, seed=seed, tiles=tiles)
        truth = photo.reading.state
        t0 = time.perf_counter()
        try:
            reading = reader.read(photo.jpeg)
        except Exception as exc:  # noqa: BLE001 - a failed read counts as all wrong
            agg["fail"] += 1
            agg["n"] += 1
            agg["tt"] += len(truth.tiles)
            agg["mt"] += len(truth.meeples)
            print(f"  seed {seed}: {type(exc).__name__}: {exc}")
            continue
        times.append(time.perf_counter() - t0)
        m = compare(reading.state, truth)
        agg["n"] += 1
        agg["tt"] += m.tiles_truth
        agg["typ"] += m.tiles_type
        agg["ex"] += m.tiles_exact
        agg["mt"] += m.meeples_truth
        agg["mf"] += m.meeples_found
        agg["mm"] += m.meeples_matched
        agg["ms"] += m.meeples_segment
        agg["exact"] += m.exact
        if per_photo:  # to see which photos a change moved
            print(f"  seed {seed}: tiles {m.tiles_exact}/{m.tiles_truth}, figures {m.meeples_matched}/"
                  f"{m.meeples_truth} ({m.meeples_found} found, {m.meeples_segment} on the right segment)")
    prec = agg["mm"] / max(1, agg["mf"])
    rec = agg["mm"] / max(1, agg["mt"])
    f1 = 2 * prec * rec / max(1e-9, prec + rec)
    print(f"{style:<10} photos {agg['n']} (failed {agg['fail']}) | per-tile type {agg['typ'] / max(1, agg['tt']):.1%} "
          f"type+rot {agg['ex'] / max(1, agg['tt']):.1%} | photos exactly right {agg['exact'] / max(1, agg['n']):.1%} | "
          f"figures P {prec:.1%} R {rec:.1%} F1 {f1:.3f} right segment {agg['ms'] / max(1, agg['mt']):.1%} | "
          f"median read {statistics.median(times) if times else float('nan'):.2f} s")


def time_12mp(reader: BoardReader, n: int, tiles: int, preset_name: str) -> None:
    from vision.synth import generate, preset

    params = preset(preset_name).with_size(4000, 3000)
    times = []
    for i in range(n):
        photo = generate(TEST_SEED0 + 500 + i, params, seed=TEST_SEED0 + 500 + i, tiles=tiles)
        t0 = time.perf_counter()
        try:
            reader.read(photo.jpeg)
        except Exception:  # noqa: BLE001
            pass
        times.append(time.perf_counter() - t0)
    print(f"median time per 12 MP photo (JPEG bytes in, reading out, one process): {statistics.median(times):.2f} s "
          f"over {n} photos")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=int, default=20)
    ap.add_argument("--tiles", type=int, default=40)
    ap.add_argument("--preset", default="default")
    ap.add_argument("--art", nargs="+", default=["procedural", "scans"])
    ap.add_argument("--timing-photos", type=int, default=5)
    ap.add_argument("--per-photo", action="store_true", help="a line per photo: tiles and figures right")
    args = ap.parse_args(argv)
    reader = BoardReader()
    for style in args.art:
        run(style, args.photos, args.tiles, args.preset, reader, args.per_photo)
    if args.timing_photos:
        time_12mp(reader, args.timing_photos, args.tiles, args.preset)
    return 0


if __name__ == "__main__":
    sys.exit(main())
