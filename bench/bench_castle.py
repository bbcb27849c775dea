"""Benchmark the reader on photos of *Carcassonne: The Castle*, a fixed test split of synthetic photos.

The test seeds (120000 + i) are never used for tuning (the castle reader's tuning seeds are
20000-20023, the castle tests' 30000+). Photo i lays 10 + (7 i mod 51) tiles (10 to 60: a
nearly empty castle to a nearly full one), default preset, procedural art, 12 MP unless
``--size`` says otherwise. The castle's layout fixes the frame, so a reading is compared with
the truth cell by cell, with no shift or turn searched (a reading one space off is wrong).

Printed, per photo and in all: whether the wall was found and how far the grid puts the truth
tiles' centres (tile sides, the worst tile), occupancy (spaces read as holding a tile that do,
extra, missing), tiles right over truth tiles (type; type and rotation), photos with every tile
right, figures (matched on cell and player: precision, recall, F1, and the share of truth
figures found on the right segment; per colour recall, since a colour without a figure rule is
not looked for), the keeps (Palas) read on the right cell and the median read time (JPEG bytes
in, reading out).

    python bench/bench_castle.py [--photos 20] [--size 4000x3000] [--preset default]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer import State  # noqa: E402
from vision.compare import compare_in_frame  # noqa: E402
from vision.errors import BoardNotFoundError  # noqa: E402
from vision.reader import BoardReader, ReadDetail  # noqa: E402

TEST_SEED0 = 120_000


def tiles_for(i: int) -> int:
    """How many tiles photo ``i`` of the split lays: 10 to 60, spread over the split."""
    return 10 + (i * 7) % 51


@dataclass
class Tally:
    """Counts of one photo, or summed over the split."""

    photos: int = 0
    walls: int = 0
    truth_tiles: int = 0
    cells_right: int = 0  # spaces read as occupied that are
    cells_extra: int = 0  # read as occupied, empty in truth
    cells_missing: int = 0  # occupied in truth, read as empty
    tiles_type: int = 0
    tiles_exact: int = 0
    exact_photos: int = 0
    figs_truth: int = 0
    figs_read: int = 0
    figs_matched: int = 0  # right player on the right cell
    figs_segment: int = 0  # and on the right segment
    keeps_truth: int = 0  # keeps (Palas) on the board
    keeps_read: int = 0
    keeps_right: int = 0  # the right player's keep on the right cell
    truth_by_player: Counter[str] = field(default_factory=Counter)
    matched_by_player: Counter[str] = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        for k, v in vars(other).items():
            if isinstance(v, Counter):
                getattr(self, k).update(v)
            else:
                setattr(self, k, getattr(self, k) + v)


def score(read: State, truth: State) -> Tally:
    """Cell-by-cell comparison of a castle reading with the truth (the layout's frame)."""
    t = Tally(photos=1, walls=1, truth_tiles=len(truth.tiles))
    truth_at = {e.at: e for e in truth.tiles}
    read_at = {e.at: e for e in read.tiles}
    t.cells_right = len(set(read_at) & set(truth_at))
    t.cells_extra = len(set(read_at) - set(truth_at))
    t.cells_missing = len(set(truth_at) - set(read_at))
    m = compare_in_frame(read, truth)
    t.tiles_type, t.tiles_exact = m.tiles_type, m.tiles_exact
    t.exact_photos = int(t.tiles_exact == len(truth_at) and not t.cells_extra)
    t.keeps_truth, t.keeps_read = len(truth.palas), len(read.palas)
    t.keeps_right = sum(1 for p, c in read.palas.items() if truth.palas.get(p) == c)
    t.figs_truth, t.figs_read = m.meeples_truth, m.meeples_found
    t.figs_matched, t.figs_segment = m.meeples_matched, m.meeples_segment
    t.truth_by_player = Counter(f.player for f in truth.meeples)
    for p in t.truth_by_player | Counter(f.player for f in read.meeples):
        # figures are matched within a player, so one player's alone match as they did among all
        matched = compare_in_frame(replace(read, meeples=tuple(f for f in read.meeples if f.player == p)),
                                   replace(truth, meeples=tuple(f for f in truth.meeples if f.player == p))
                                   ).meeples_matched
        if matched:
            t.matched_by_player[p] = matched
    return t


def grid_error(detail: ReadDetail, truth: State, image_width: int) -> float:
    """The worst truth tile's distance, in its own tile sides, between its photographed centre
    (the truth quad) and where the reading's grid puts its cell's centre."""
    scale = image_width / detail.work.shape[1]
    quads = np.array([e.quad for e in truth.tiles], np.float64)
    centres = np.array([[e.at[0] + 0.5, e.at[1] + 0.5] for e in truth.tiles])
    seen = detail.grid.to_image(centres) * scale
    side = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
    return float((np.linalg.norm(seen - quads.mean(1), axis=1) / side).max())


def _pct(a: int, b: int) -> str:
    return f"{a / b:.1%}" if b else "-"


def run(n: int, size: tuple[int, int] | None, preset_name: str, reader: BoardReader) -> Tally:
    """Generate and read the split's first ``n`` photos, printing a line each and the totals."""
    from vision.synth import generate, preset
    from vision.synth.positions import random_castle_state

    params = preset(preset_name).with_art("procedural")
    if size is not None:
        params = params.with_size(*size)
    total = Tally()
    times: list[float] = []
    errs: list[float] = []
    print(f"{'seed':>7} {'tiles':>5} {'tilt':>5} {'table':<6} {'grid':>5} {'extra':>5} {'miss':>4} "
          f"{'type':>7} {'exact':>7} {'figs t/r/m':>10} {'read s':>6}")
    for i in range(n):
        seed = TEST_SEED0 + i
        photo = generate(random_castle_state(seed, tiles=tiles_for(i)), params, seed=seed)
        truth = photo.reading.state
        t0 = time.perf_counter()
        try:
            detail = reader.read_detail(photo.jpeg, game="castle")
        except BoardNotFoundError as exc:  # a wall not found counts every tile and figure wrong
            times.append(time.perf_counter() - t0)
            miss = Tally(photos=1, truth_tiles=len(truth.tiles), cells_missing=len(truth.tiles),
                         figs_truth=len(truth.meeples), truth_by_player=Counter(m.player for m in truth.meeples))
            total.add(miss)
            print(f"{seed:>7} {len(truth.tiles):>5} {photo.shot.tilt_deg:>5.1f} {photo.shot.surface:<6} "
                  f"no wall: {exc}")
            continue
        times.append(time.perf_counter() - t0)
        t = score(detail.reading.state, truth)
        err = grid_error(detail, truth, photo.image.shape[1])
        errs.append(err)
        total.add(t)
        print(f"{seed:>7} {t.truth_tiles:>5} {photo.shot.tilt_deg:>5.1f} {photo.shot.surface:<6} {err:>5.2f} "
              f"{t.cells_extra:>5} {t.cells_missing:>4} {t.tiles_type:>3}/{t.truth_tiles:<3} "
              f"{t.tiles_exact:>3}/{t.truth_tiles:<3} {t.figs_truth:>3}/{t.figs_read:>2}/{t.figs_matched:>2}  "
              f"{times[-1]:>6.2f}")
    report(total, times, errs)
    return total


def report(t: Tally, times: list[float], errs: list[float]) -> None:
    """The split's totals and medians as a short table."""
    prec = t.figs_matched / max(1, t.figs_read)
    rec = t.figs_matched / max(1, t.figs_truth)
    f1 = 2 * prec * rec / max(1e-9, prec + rec)
    read_cells = t.cells_right + t.cells_extra
    rows = [
        ("walls found", f"{t.walls}/{t.photos} ({_pct(t.walls, t.photos)})"),
        ("grid error (worst tile, tile sides)",
         f"median {statistics.median(errs):.3f}, max {max(errs):.3f}" if errs else "-"),
        ("occupancy", f"{t.cells_right} right of {t.truth_tiles} occupied, {t.cells_extra} extra "
                      f"({_pct(t.cells_extra, read_cells)} of read), {t.cells_missing} missing"),
        ("tiles right: type", f"{t.tiles_type}/{t.truth_tiles} ({_pct(t.tiles_type, t.truth_tiles)})"),
        ("tiles right: type and rotation", f"{t.tiles_exact}/{t.truth_tiles} ({_pct(t.tiles_exact, t.truth_tiles)})"),
        ("photos with every tile right", f"{t.exact_photos}/{t.photos} ({_pct(t.exact_photos, t.photos)})"),
        ("figures (cell + player)", f"P {prec:.1%} R {rec:.1%} F1 {f1:.3f} ({t.figs_matched} of {t.figs_truth}, "
                                    f"{t.figs_read} read)"),
        ("keeps (Palas): right / read / truth", f"{t.keeps_right} / {t.keeps_read} / {t.keeps_truth}"),
        ("figures on the right segment", f"{t.figs_segment}/{t.figs_truth} ({_pct(t.figs_segment, t.figs_truth)})"),
        ("figure recall by colour", ", ".join(f"{p} {t.matched_by_player[p]}/{k}"
                                              for p, k in sorted(t.truth_by_player.items()))),
        ("median read time", f"{statistics.median(times):.2f} s" if times else "-"),
    ]
    w = max(len(k) for k, _ in rows)
    print()
    for k, v in rows:
        print(f"{k:<{w}}  {v}")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size {text!r}: expected WIDTHxHEIGHT, e.g. 4000x3000") from None
    if w < 64 or h < 64:
        raise argparse.ArgumentTypeError(f"size {text!r}: too small")
    return w, h


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=int, default=20)
    ap.add_argument("--size", type=_size, default=(4000, 3000), help="photo size WIDTHxHEIGHT (default 12 MP)")
    ap.add_argument("--preset", default="default")
    args = ap.parse_args(argv)
    print(f"The Castle: {args.photos} photos, seeds {TEST_SEED0}+, {args.size[0]}x{args.size[1]}, "
          f"preset {args.preset}, procedural art")
    run(args.photos, args.size, args.preset, BoardReader())
    return 0


if __name__ == "__main__":
    sys.exit(main())
