"""Grid-only benchmark of the photo reader (stage 2: locate the tiles, fit the grid).

For synthetic photos (``vision.synth.generate(seed, preset, seed=seed, tiles=N)``) it reads each
photo with the full reader and looks only at *where* it found tiles, not which tiles:

* **cells right**: the share of photos whose set of occupied cells equals the truth's set up to
  a translation and a quarter turn of the whole board (formats.md compares states that way);
* **cell recall / precision**: tiles matched by image position (found quad centre within half a
  tile of a true quad centre) over true tiles / over found tiles;
* **corner error**: the median distance in original-image pixels between the corners of each
  matched found cell quad and its true tile quad (best cyclic corner order; tiles are laid with a
  little jitter and twist, so a perfect grid still shows a few pixels), also relative to the
  tile side.

With ``--small`` it measures the start of a game instead: photos of boards of 1..8 tiles
(``scorer.random_game(seed, ("red", "blue"), turns=10)`` replayed turn by turn, photo ``i``
showing ``1 + i % 8`` tiles), the share of photos whose cell set is right (as above) and the mean
extra and missing cells (found minus true, true minus found, after the best alignment). With
``--prior`` each photo is read as a followed game reads it, with the board one turn before as
the prior (which turns on the tiny boards' outline-polygon grids, ``vision.outline``).

With ``--real`` the labelled real photos (``shared/photos/real-dev/*.truth.json``) are compared
the same way (cells only: they have no quads).

    python bench/bench_grid.py [--seed0 5000] [--photos 40] [--tiles 40] [--preset default] [--art scans] [--real] [--set JSON]
    python bench/bench_grid.py --small [--prior] [--seed0 100000] [--photos 24]

Test seeds start at 100000 (``--seed0 100000``); tune on others (e.g. 5000-5100).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer.geometry import rotate_cell  # noqa: E402
from vision.reader import BoardReader  # noqa: E402

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"


def cells_equal(found: set[tuple[int, int]], truth: set[tuple[int, int]]) -> bool:
    """Whether two cell sets are equal up to translation and a quarter turn."""
    if len(found) != len(truth) or not truth:
        return False

    def norm(cs: set[tuple[int, int]]) -> set[tuple[int, int]]:
        x0 = min(c[0] for c in cs)
        y0 = min(c[1] for c in cs)
        return {(c[0] - x0, c[1] - y0) for c in cs}

    t = norm(truth)
    return any(norm({rotate_cell(c, r) for c in found}) == t for r in (0, 90, 180, 270))


def quad_match(found: list[np.ndarray], truth: list[np.ndarray]) -> tuple[int, list[float], list[float]]:
    """(matched count, corner errors in px, corner errors / tile side) of found vs true quads."""
    if not found or not truth:
        return 0, [], []
    tc = np.array([q.mean(0) for q in truth])
    side = np.array([np.linalg.norm(q - np.roll(q, 1, 0), axis=1).mean() for q in truth])
    used: set[int] = set()
    n, errs, rel = 0, [], []
    for q in found:
        d = np.linalg.norm(tc - q.mean(0), axis=1)
        k = int(d.argmin())
        if d[k] > 0.5 * side[k] or k in used:
            continue
        used.add(k)
        n += 1
        s_best = min(range(4), key=lambda s: np.linalg.norm(np.roll(q, s, 0) - truth[k], axis=1).mean())
        e = np.linalg.norm(np.roll(q, s_best, 0) - truth[k], axis=1)
        errs.extend(e.tolist())
        rel.extend((e / side[k]).tolist())
    return n, errs, rel


def run_synth(reader: BoardReader, seed0: int, n: int, tiles: int, preset_name: str, verbose: bool,
              art: str = "procedural") -> None:
    from vision.synth import generate, load_scans, preset

    if art == "scans" and load_scans() is None:
        print("scans: art folder missing, skipped")
        return
    params = preset(preset_name).with_art(art)
    right = fails = 0
    tt = tf = tm = 0
    errs: list[float] = []
    rel: list[float] = []
    times = []
    for i in range(n):
        seed = seed0 + i
        photo = generate(seed, params, seed=seed, tiles=tiles)
        truth = photo.reading.state
        t0 = time.perf_counter()
        try:
            reading = reader.read(photo.jpeg)
        except Exception as exc:  # noqa: BLE001 - a failed read counts as no cells
            fails += 1
            tt += len(truth.tiles)
            if verbose:
                print(f"  seed {seed}: {type(exc).__name__}: {exc}")
            continue
        times.append(time.perf_counter() - t0)
        found = reading.state.tiles
        ok = cells_equal({t.at for t in found}, {t.at for t in truth.tiles})
        right += ok
        m, e, r = quad_match([np.array(t.quad, float) for t in found if t.quad],
                             [np.array(t.quad, float) for t in truth.tiles])
        tt += len(truth.tiles)
        tf += len(found)
        tm += m
        errs.extend(e)
        rel.extend(r)
        if verbose:
            med = statistics.median(e) if e else float("nan")
            print(f"  seed {seed}: found {len(found):>3} true {len(truth.tiles):>3} matched {m:>3} "
                  f"cells {'OK ' if ok else 'BAD'} corner median {med:6.1f} px")
    print(f"grid {preset_name} {art} seeds {seed0}..{seed0 + n - 1}: photos {n} (failed {fails}) | "
          f"cells right {right / max(1, n):.1%} | cell recall {tm / max(1, tt):.1%} precision "
          f"{tm / max(1, tf):.1%} | corner error median {statistics.median(errs) if errs else float('nan'):.1f} px "
          f"({statistics.median(rel) if rel else float('nan'):.1%} of a tile side) | "
          f"median read {statistics.median(times) if times else float('nan'):.2f} s")


def cell_diff(found: set[tuple[int, int]], truth: set[tuple[int, int]]) -> tuple[int, int]:
    """(extra, missing) cells of ``found`` against ``truth`` at the best translation and quarter
    turn (the one with the most cells in common)."""
    if not found or not truth:
        return len(found), len(truth)
    best = 0
    for r in (0, 90, 180, 270):
        rot = [rotate_cell(c, r) for c in found]
        for fc in rot:
            for tc in truth:
                dx, dy = tc[0] - fc[0], tc[1] - fc[1]
                best = max(best, sum((c[0] + dx, c[1] + dy) in truth for c in rot))
    return len(found) - best, len(truth) - best


def run_small(reader: BoardReader, seed0: int, n: int, preset_name: str, verbose: bool, prior: bool = False) -> None:
    """Game starts: photo ``i`` shows the first ``1 + i % 8`` tiles of game ``seed0 + i``; with
    ``prior``, read with the board one turn before as its prior (none for the start tile alone)."""
    from scorer import Game, random_game
    from vision.synth import generate, preset

    params = preset(preset_name)
    right = fails = start_ok = starts = 0
    extra: list[int] = []
    missing: list[int] = []
    for i in range(n):
        seed = seed0 + i
        k = i % 8
        rec = random_game(seed, ("red", "blue"), turns=10)
        game = Game.from_record(rec)
        before = None
        for turn in rec.turns[:k]:
            before = game.state()
            game.play(turn)
        photo = generate(game.state(), params, seed)
        truth = {t.at for t in photo.reading.state.tiles}
        try:
            tiles = reader.read(photo.jpeg, prior=before if prior else None).state.tiles
        except Exception as exc:  # noqa: BLE001 - a failed read counts as no cells
            fails += 1
            extra.append(0)
            missing.append(len(truth))
            if verbose:
                print(f"  seed {seed}: {type(exc).__name__}: {exc}")
            continue
        found = {t.at for t in tiles}
        ok = cells_equal(found, truth)
        e, m = cell_diff(found, truth)
        right += ok
        extra.append(e)
        missing.append(m)
        if len(truth) == 1:
            starts += 1
            t0 = photo.reading.state.tiles[0]
            start_ok += ok and tiles[0].tile.id == t0.tile.id
        if verbose:
            print(f"  seed {seed}: true {len(truth):>2} found {len(found):>3} extra {e:>3} missing {m:>2} "
                  f"cells {'OK ' if ok else 'BAD'}")
    print(f"grid small{' with prior' if prior else ''} {preset_name} seeds {seed0}..{seed0 + n - 1}: photos {n} (failed {fails}) | "
          f"cells right {right / max(1, n):.1%} | mean extra {statistics.mean(extra) if extra else 0:.2f} "
          f"missing {statistics.mean(missing) if missing else 0:.2f} | 1-tile photos: start tile read "
          f"{start_ok}/{starts}")


def run_real(reader: BoardReader, shared: Path) -> None:
    from scorer import parse_state
    from scorer.formats import load_document

    folder = shared / "photos" / "real-dev"
    truths = sorted(folder.glob("*.truth.json"))
    if not truths:
        print(f"real: no labelled photos under {folder}, skipped")
        return
    right = 0
    for tp in truths:
        photo = tp.with_name(tp.name.replace(".truth.json", ".jpg"))
        truth = parse_state(load_document(str(tp)))
        try:
            found = {t.at for t in reader.read(str(photo)).state.tiles}
        except Exception as exc:  # noqa: BLE001
            print(f"  {photo.name}: {type(exc).__name__}: {exc}")
            continue
        ok = cells_equal(found, {t.at for t in truth.tiles})
        right += ok
        print(f"  {photo.name:<36} found {len(found):>3} true {len(truth.tiles):>3} cells {'OK' if ok else 'BAD'}")
    print(f"grid real: cells right {right}/{len(truths)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed0", type=int, default=5000)
    ap.add_argument("--photos", type=int, default=40)
    ap.add_argument("--tiles", type=int, default=40)
    ap.add_argument("--preset", default="default")
    ap.add_argument("--art", default="procedural", choices=["procedural", "scans"])
    ap.add_argument("--real", action="store_true")
    ap.add_argument("--small", action="store_true", help="boards of 1..8 tiles from game starts")
    ap.add_argument("--prior", action="store_true", help="--small: read with the board a turn before as prior")
    ap.add_argument("--shared", default=str(SHARED))
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--set", default="{}", help="JSON overrides of the reader's configuration (tuning)")
    args = ap.parse_args(argv)
    reader = BoardReader(json.loads(args.set))
    if args.small:
        run_small(reader, args.seed0, args.photos, args.preset, args.verbose, args.prior)
    elif args.photos:
        run_synth(reader, args.seed0, args.photos, args.tiles, args.preset, args.verbose, args.art)
    if args.real:
        run_real(reader, Path(args.shared))
    return 0


if __name__ == "__main__":
    sys.exit(main())
