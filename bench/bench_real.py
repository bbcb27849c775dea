"""Read the labelled real photos in ``shared/photos/real-dev`` and compare with their truth.

Prints per photo and in total: per-tile accuracy (type; type and rotation), meeple precision,
recall and share on the right segment, and the time per photo. The unlabelled photos follow,
with what can be checked without a truth: cells read, of them unknown and doubtful, figures,
and the median cell side in photo pixels (a grid several tiles wide shows as a side far above
the labelled photos' and few cells; look at their overlays). States compare up to translation
and a quarter turn of the whole board (formats.md); symmetric tiles' equivalent rotations are equal.

    python bench/bench_real.py [--shared PATH] [--overlays DIR] [--set JSON] [--rotate 90]

``--rotate`` turns every photo by that many degrees clockwise first (a photo whose EXIF
orientation was lost: the board must read the same, up to a quarter turn of the whole).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scorer import Reading, parse_state  # noqa: E402
from scorer.formats import load_document  # noqa: E402
from vision.compare import compare  # noqa: E402
from vision.reader import BoardReader  # noqa: E402

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"


def _photo(path: Path, rotate: int) -> str | bytes:
    """The photo to read: its path, or its pixels turned ``rotate`` degrees clockwise (JPEG bytes)."""
    if not rotate:
        return str(path)
    import cv2
    turn = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}[rotate]
    ok, jpeg = cv2.imencode(".jpg", cv2.rotate(cv2.imread(str(path)), turn), [cv2.IMWRITE_JPEG_QUALITY, 95])
    return jpeg.tobytes()


def _read(reader: BoardReader, photo: Path, rotate: int) -> tuple[str | bytes, Reading, float]:
    """The photo as read (see :func:`_photo`), its reading and the seconds the read took."""
    image = _photo(photo, rotate)
    t0 = time.perf_counter()
    reading = reader.read(image)
    return image, reading, time.perf_counter() - t0


def _write_overlay(reader: BoardReader, photo: Path, reading: Reading, out: Path, image: str | bytes) -> None:
    """The reading drawn over ``image`` (the photo as read), as ``out/<name>.overlay.jpg``."""
    import cv2
    out.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out / (photo.stem + ".overlay.jpg")), reader.overlay(image, reading))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(SHARED))
    ap.add_argument("--overlays", default=None, help="write overlay images into this folder")
    ap.add_argument("--set", default="{}", help="JSON overrides of the reader's configuration (tuning)")
    ap.add_argument("--rotate", type=int, choices=(0, 90, 180, 270), default=0,
                    help="turn each photo this many degrees clockwise before reading it")
    args = ap.parse_args(argv)
    folder = Path(args.shared) / "photos" / "real-dev"
    truths = sorted(folder.glob("*.truth.json"))
    if not truths:
        print(f"no labelled photos under {folder}")
        return 1
    reader = BoardReader(config=json.loads(args.set))
    tot = dict(tt=0, tf=0, typ=0, ex=0, mt=0, mf=0, mm=0, ms=0)
    for tp in truths:
        photo = tp.with_name(tp.name.replace(".truth.json", ".jpg"))
        truth = parse_state(load_document(str(tp)))
        image, reading, dt = _read(reader, photo, args.rotate)
        m = compare(reading.state, truth)
        known = sum(1 for t in truth.tiles if t.tile.known)
        print(f"{photo.name:<36} tiles {m.tiles_found:>3}/{m.tiles_truth:<3} ({known} base) "
              f"type {m.tiles_type / max(1, m.tiles_truth):6.1%} type+rot {m.tiles_exact / max(1, m.tiles_truth):6.1%} | "
              f"meeples found {m.meeples_found:>2} truth {m.meeples_truth:>2} matched {m.meeples_matched:>2} "
              f"right segment {m.meeples_segment:>2} | {dt:.2f} s")
        for k, v in zip(tot, (m.tiles_truth, m.tiles_found, m.tiles_type, m.tiles_exact, m.meeples_truth,
                              m.meeples_found, m.meeples_matched, m.meeples_segment)):
            tot[k] += v
        if args.overlays:
            _write_overlay(reader, photo, reading, Path(args.overlays), image)
    prec = tot["mm"] / max(1, tot["mf"])
    rec = tot["mm"] / max(1, tot["mt"])
    f1 = 2 * prec * rec / max(1e-9, prec + rec)
    print(f"TOTAL per-tile type {tot['typ'] / max(1, tot['tt']):.1%}  type+rot {tot['ex'] / max(1, tot['tt']):.1%}  "
          f"({tot['tf']} read / {tot['tt']} true tiles)")
    print(f"TOTAL meeples precision {prec:.1%} recall {rec:.1%} F1 {f1:.2f}  "
          f"right segment {tot['ms'] / max(1, tot['mt']):.1%} of true meeples")
    labelled = {tp.name.replace(".truth.json", ".jpg") for tp in truths}
    for photo in sorted(p for p in folder.glob("*.jpg") if p.name not in labelled):
        image, reading, dt = _read(reader, photo, args.rotate)
        tiles = reading.state.tiles
        sides = [math.dist(t.quad[0], t.quad[1]) for t in tiles if t.quad]
        print(f"{photo.name:<36} unlabelled: cells {len(tiles):>3} unknown {sum(not t.tile.known for t in tiles):>2} "
              f"doubtful {sum('doubtful' in w for w in reading.warnings):>2} figures {len(reading.state.meeples):>2} "
              f"cell side {statistics.median(sides) if sides else 0:5.0f} px | {dt:.2f} s")
        if args.overlays:
            _write_overlay(reader, photo, reading, Path(args.overlays), image)
    return 0


if __name__ == "__main__":
    sys.exit(main())
