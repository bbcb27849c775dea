"""``carcam read`` and ``carcam calibrate``: the photo reader on the command line."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from scorer import Position, parse_state, reading_to_json
from scorer.formats import load_document


def cmd_read(args: argparse.Namespace) -> int:
    import cv2

    from calibration import load_profile
    from cli.main import format_report
    from vision.reader import BoardReader

    profile = load_profile(args.profile) if args.profile else None
    reader = BoardReader(profile=profile)
    reading = reader.read(args.photo, game=args.game, expansions=tuple(args.expansions or ()))
    doc = reading_to_json(reading)
    text = json.dumps(doc, indent=1)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
    elif not args.score:
        print(text)
    if args.overlay:
        img = reader.overlay(args.photo, reading)
        if not cv2.imwrite(args.overlay, img):
            from vision.errors import VisionError
            raise VisionError(f"cannot write overlay {args.overlay}; use a .jpg or .png name in a writable folder")
    if args.score:
        n_t, n_m = len(reading.state.tiles), len(reading.state.meeples)
        print(f"Read {n_t} tiles and {n_m} figures.")
        for w in reading.warnings:
            print(f"warning: {w}")
        report = Position(reading.state).score(strict=False)
        print(format_report(report))
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    from calibration import build_profile
    from scorer import CarcamError

    if len(args.photos) != len(args.truth):
        raise CarcamError("give one --truth file per photo, in the same order")
    pairs = [(p, parse_state(load_document(t))) for p, t in zip(args.photos, args.truth)]
    profile = build_profile(pairs)
    Path(args.output).write_text(json.dumps(profile, indent=1) + "\n", encoding="utf-8")
    print(f"profile from {profile['photos']} photo(s) written to {args.output}")
    return 0


def register(sub: Any) -> None:
    """Add ``read`` and ``calibrate`` to the ``carcam`` command."""
    p = sub.add_parser("read", help="read a table photo into a carcam/reading@1")
    p.add_argument("photo")
    p.add_argument("-o", "--output", help="write the reading here (default: print it)")
    p.add_argument("--overlay", help="write an image with what was read drawn on the photo")
    p.add_argument("--game", choices=("base", "castle"), default="base")
    p.add_argument("--expansions", nargs="*", choices=("festival", "tower", "bcb"), default=[])
    p.add_argument("--profile", help="a calibration profile from 'carcam calibrate'")
    p.add_argument("--score", action="store_true", help="print the scores of what was read, with reasons")
    p.set_defaults(func=cmd_read)

    p = sub.add_parser("calibrate", help="build a colour profile from your own tile photos with known truth")
    p.add_argument("photos", nargs="+")
    p.add_argument("--truth", nargs="+", required=True, help="carcam/state@1 truth per photo, same order")
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(func=cmd_calibrate)
