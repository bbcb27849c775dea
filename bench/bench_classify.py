"""Benchmark of the per-cell stages (classify, decode, figures) on the TRUE grid of synthetic photos.

The grid fit (``vision/locate.py``) is measured elsewhere; here it is replaced by the table-plane
homography computed from the synthetic truth (every tile's image quad = its cell's NW, NE, SE,
SW corners), so the figures below measure only what happens after the grid: cell occupancy,
colour models, tile classification, joint decoding, figure detection and slot assignment.

Prints per art style: per-tile accuracy (type; type and rotation) from the unary evidence alone
("before decoding") and after the joint decoding, the share of photos with every tile right (and
with every tile and meeple right), figure precision / recall / F1 and the share of true figures
on the right segment, and the mean time per read.

    python bench/bench_classify.py [--seeds 100000:100030] [--art procedural,scans] [--tiles 40] [--cache DIR]
        [--set JSON]

Seeds 100000 and up are the held-out test seeds: never tune thresholds on them.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import vision.reader as reader_mod  # noqa: E402
from scorer import Reading  # noqa: E402
from vision.compare import compare, same_rotation  # noqa: E402
from vision.load import load_image  # noqa: E402
from vision.locate import Grid, tile_mask  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.synth import generate, load_scans, preset  # noqa: E402

_CORNERS = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)


def true_grid(reading: Reading, scale: float) -> Grid:
    """The board grid of a synthetic photo from its truth: a homography from work pixels to
    board units fitted (least squares) on every tile's four corners."""
    img_pts, board_pts = [], []
    for t in reading.state.tiles:
        img_pts.extend(np.asarray(t.quad, dtype=np.float64) * scale)
        board_pts.extend(_CORNERS + np.array(t.at, dtype=np.float64))
    H, _ = cv2.findHomography(np.array(img_pts), np.array(board_pts), 0)
    xs = [t.at[0] for t in reading.state.tiles]
    ys = [t.at[1] for t in reading.state.tiles]
    cols, rows = range(min(xs), max(xs) + 1), range(min(ys), max(ys) + 1)
    inv = np.linalg.inv(H)
    c = np.array([[0.5 * (cols.start + cols.stop), 0.5 * (rows.start + rows.stop), 1.0]])
    a = (c @ inv.T)[0]
    b = ((c + [1.0, 0.0, 0.0]) @ inv.T)[0]
    pitch = float(np.hypot(*(b[:2] / b[2] - a[:2] / a[2])))
    return Grid(H=H, cols=cols, rows=rows, pitch_px=pitch)


@dataclass
class Tally:
    """Counts over a set of photos."""

    tiles: int = 0
    extra: int = 0
    pre_type: int = 0
    pre_exact: int = 0
    post_type: int = 0
    post_exact: int = 0
    photos: int = 0
    photos_tiles_ok: int = 0
    photos_all_ok: int = 0
    m_truth: int = 0
    m_found: int = 0
    m_matched: int = 0
    m_segment: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)


def load_photo(art: str, seed: int, cache: Path | None, tiles: int = 40) -> tuple[bytes, Reading]:
    """JPEG bytes and truth of synthetic photo ``seed`` (default mix, ``tiles`` base tiles; 72:
    the whole box, a finished game)."""
    name = f"{art}_{seed}.pkl" if tiles == 40 else f"{art}_{seed}_{tiles}.pkl"
    f = cache / name if cache else None
    if f is not None and f.exists():
        return pickle.loads(f.read_bytes())  # type: ignore[no-any-return]
    p = generate(seed, preset("default").with_art(art), seed=seed, game="base", tiles=tiles)
    if f is not None:
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_bytes(pickle.dumps((p.jpeg, p.reading)))
    return p.jpeg, p.reading


def run_one(reader: BoardReader, jpeg: bytes, truth: Reading, tally: Tally, label: str) -> None:
    """Read one photo on its true grid and add its counts to ``tally``."""
    img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    lcfg = reader.cfg["load"]
    scale = load_image(img, int(lcfg["max_pixels"]), int(lcfg["min_side"]), int(lcfg["work_side"]),
                       fast=True).scale
    grid = true_grid(truth, scale)
    seen: dict[str, Any] = {}
    real_locate, real_decode = reader_mod.locate_candidates, reader_mod.decode

    def fake_locate(work: np.ndarray, cfg: dict[str, Any],
                    memo: dict[str, Any] | None = None) -> tuple[list[tuple[float, Grid]], np.ndarray]:
        return [(0.0, grid)], tile_mask(work, cfg)[1]

    def spy_decode(unary: dict[tuple[int, int], np.ndarray], templates: list[Any], *a: Any, **k: Any) -> Any:
        dec = real_decode(unary, templates, *a, **k)
        seen.update(unary=unary, templates=templates, dec=dec)
        return dec

    reader_mod.locate_candidates, reader_mod.decode = fake_locate, spy_decode  # type: ignore[assignment]
    try:
        t0 = time.perf_counter()
        reading = reader.read(img, game="base", players=truth.state.players)
        tally.seconds += time.perf_counter() - t0
    finally:
        reader_mod.locate_candidates, reader_mod.decode = real_locate, real_decode
    unary, templates, dec = seen["unary"], seen["templates"], seen["dec"]
    truth_cells = {t.at: t for t in truth.state.tiles}
    tally.photos += 1
    tally.tiles += len(truth_cells)
    tally.extra += sum(1 for c in unary if c not in truth_cells)
    ok = len(unary) == len(truth_cells)
    for c, tt in truth_cells.items():
        if c not in unary:
            tally.errors.append(f"{label} {c}: missed ({tt.tile.id})")
            continue
        for stage, k in (("pre", int(np.argmax(unary[c]))), ("post", dec.choice[c])):
            t = templates[k]
            same_type = t.tile.id == tt.tile.id
            exact = same_type and same_rotation(tt.tile, t.rot, tt.rot)
            setattr(tally, f"{stage}_type", getattr(tally, f"{stage}_type") + same_type)
            setattr(tally, f"{stage}_exact", getattr(tally, f"{stage}_exact") + exact)
            if stage == "post" and not exact:
                ok = False
                tally.errors.append(f"{label} {c}: read {t.tile.id}@{t.rot} true {tt.tile.id}@{tt.rot} "
                                    f"conf {dec.confidence[c]:.2f}")
    m = compare(reading.state, truth.state)
    tally.photos_tiles_ok += ok
    tally.m_truth += m.meeples_truth
    tally.m_found += m.meeples_found
    tally.m_matched += m.meeples_matched
    tally.m_segment += m.meeples_segment
    tally.photos_all_ok += ok and m.meeples_segment == m.meeples_truth == m.meeples_found
    if m.meeples_segment != m.meeples_truth or m.meeples_found != m.meeples_truth:
        tally.errors.append(f"{label}: meeples truth {m.meeples_truth} found {m.meeples_found} "
                            f"matched {m.meeples_matched} segment {m.meeples_segment}")


def report(art: str, t: Tally) -> None:
    """Print the figures of one art style."""
    n = max(1, t.tiles)
    prec = t.m_matched / max(1, t.m_found)
    rec = t.m_matched / max(1, t.m_truth)
    f1 = 2 * prec * rec / max(1e-9, prec + rec)
    print(f"[{art}] {t.photos} photos, {t.tiles} tiles ({t.extra} extra cells read)")
    print(f"  before decoding: type {t.pre_type / n:.2%}  type+rot {t.pre_exact / n:.2%}")
    print(f"  after decoding : type {t.post_type / n:.2%}  type+rot {t.post_exact / n:.2%}")
    print(f"  photos with every tile right {t.photos_tiles_ok / max(1, t.photos):.1%}, "
          f"every tile and figure right {t.photos_all_ok / max(1, t.photos):.1%}")
    print(f"  figures: precision {prec:.2%} recall {rec:.2%} F1 {f1:.3f}  right segment "
          f"{t.m_segment / max(1, t.m_truth):.2%} of true  | {t.seconds / max(1, t.photos):.2f} s/read")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="100000:100030", help="a:b (half open) or a comma list")
    ap.add_argument("--art", default="procedural,scans")
    ap.add_argument("--cache", default=None, help="folder to keep generated photos in")
    ap.add_argument("--errors", action="store_true", help="list every wrong cell and meeple count")
    ap.add_argument("--set", default="{}", help="JSON overrides of the reader's configuration (tuning)")
    ap.add_argument("--tiles", type=int, default=40, help="tiles a photo (72: the whole box, a finished game)")
    args = ap.parse_args(argv)
    if ":" in args.seeds:
        a, b = args.seeds.split(":")
        seeds = list(range(int(a), int(b)))
    else:
        seeds = [int(s) for s in args.seeds.split(",")]
    cache = Path(args.cache) if args.cache else None
    reader = BoardReader(config=json.loads(args.set))
    for art in args.art.split(","):
        if art == "scans" and load_scans() is None:
            print("[scans] skipped (classic scans folder absent)")
            continue
        tally = Tally()
        for s in seeds:
            jpeg, truth = load_photo(art, s, cache, args.tiles)
            run_one(reader, jpeg, truth, tally, f"{art}#{s}")
        report(art, tally)
        if args.errors:
            for e in tally.errors:
                print("   ", e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
