"""``carcam synth``: synthetic table photos with ground truth (``vision.synth``).

``carcam synth --game base --tiles 40 --seed 7 -o DIR`` writes ``DIR/photo.jpg`` and
``DIR/truth.json`` (carcam/reading@1). ``--state FILE`` photographs a given carcam/state@1;
``--game-record FILE`` photographs a carcam/game@1 after every turn (``DIR/turn-001/``...).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from scorer import parse_game, parse_state
from scorer.formats import load_document


def cmd_synth(args: argparse.Namespace) -> int:
    from vision.synth import SynthError, generate, preset, random_state, record_states, write_photo

    params = preset(args.preset)
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            raise SynthError(f"--size: expected WIDTHxHEIGHT, got {args.size!r}") from None
        params = params.with_size(w, h)
    if args.art != "procedural":
        params = params.with_art(args.art, args.art_dir)
    out = Path(args.output)
    if args.game_record:
        record = parse_game(load_document(args.game_record))
        n = 0
        for n, state in enumerate(record_states(record), start=1):
            photo = generate(state, params, seed=args.seed + n)
            write_photo(photo, out / f"turn-{n:03d}")
        print(f"wrote {n} photos to {out}/turn-001 .. turn-{n:03d}")
        return 0
    if args.state:
        state = parse_state(load_document(args.state))
    else:
        exps = tuple(e for e in (args.expansions or "").split(",") if e)
        if args.tiles < 1:
            raise SynthError("--tiles: at least 1")
        state = random_state(args.seed, game=args.game, tiles=args.tiles, expansions=exps, players=args.players)
    photo = generate(state, params, seed=args.seed)
    jpg, truth = write_photo(photo, out)
    print(f"wrote {jpg} ({photo.shot.width}x{photo.shot.height}, {len(state.tiles)} tiles, "
          f"{len(state.meeples)} meeples) and {truth}")
    return 0


def register(sub: Any) -> None:
    """Add the ``synth`` subcommand."""
    p = sub.add_parser("synth", help="make a synthetic table photo with its truth (carcam/reading@1)")
    p.add_argument("-o", "--output", required=True, help="output folder")
    p.add_argument("--game", choices=("base", "castle"), default="base")
    p.add_argument("--tiles", type=int, default=40, help="tiles on the board (random game)")
    p.add_argument("--players", type=int, default=None, help="number of players (random game)")
    p.add_argument("--expansions", default="", help="comma-separated: festival,tower,bcb")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--preset", default="default", help="camera/light mix: default, easy, hard")
    p.add_argument("--size", default=None, help="photo size WIDTHxHEIGHT (default: drawn from the preset)")
    p.add_argument("--art", choices=("procedural", "scans"), default="procedural")
    p.add_argument("--art-dir", default=None, help="classic scans folder (default $CARCAM_ART or shared)")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--state", help="photograph this carcam/state@1")
    src.add_argument("--game-record", help="photograph this carcam/game@1 after every turn")
    p.set_defaults(func=cmd_synth)
