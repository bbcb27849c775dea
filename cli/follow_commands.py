"""``carcam follow PHOTO1 PHOTO2 ... [-o game.json]``: follow a game photo by photo.

Each input is a photo (read by :class:`vision.reader.BoardReader`, imported only when a photo
is given) or a ``carcam/state@1`` / ``carcam/reading@1`` JSON file. The first input starts the
record (``scorer.follow.start_record``), every later one is compared with the game so far and
the turns in between are appended (``scorer.follow.follow_step``). Prints the inferred turns,
every ambiguity with the scores of each alternative, warnings, and the scores of the replay.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from functools import cache
from typing import Any

from scorer import CarcamError, State, game_to_json, parse_game, replay
from scorer.follow import Evidence, EvidenceTotal, FiguresSeen, FollowResult, follow_step
from scorer.formats import READING, STATE, check_format, load_document, parse_reading, parse_state
from scorer.formats import Reading as ReadingDoc

from .main import format_report

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".heic", ".bmp", ".tif", ".tiff")


def register(subparsers: Any) -> None:
    """Add the ``follow`` subcommand."""
    p = subparsers.add_parser("follow", help="follow a game photo by photo and keep its carcam/game@1 record",
                              description=__doc__.splitlines()[0])
    p.add_argument("inputs", nargs="+", metavar="PHOTO",
                   help="photos or carcam/state@1 / carcam/reading@1 files, in the order they were taken")
    p.add_argument("-o", "--output", metavar="GAME_JSON", help="write the game record (carcam/game@1) here")
    p.add_argument("--record", metavar="GAME_JSON", help="continue this game record instead of starting one")
    p.add_argument("--players", help="colours in turn order, comma-separated (overrides the photos')")
    p.add_argument("--game", default="base", choices=("base", "castle"), help="the game being played")
    p.add_argument("--choose", action="append", default=[], metavar="STEP:N",
                   help="at input STEP (1-based) take alternative N (1-based) when it is ambiguous")
    p.add_argument("--json", action="store_true", help="print the steps, record and score as JSON")
    p.set_defaults(func=cmd_follow)


def _load(path: str, args: argparse.Namespace,
          prior: State | None) -> tuple[State | ReadingDoc, Evidence | None, frozenset[Any], frozenset[Any]]:
    """A state or reading from a JSON file, or a photo read with the previous state as prior;
    with a photo, also the reader's per-cell evidence, the figures it read beside their foot and
    those too pale to read (for ``follow_step``)."""
    if not path.lower().endswith(PHOTO_SUFFIXES):
        doc = load_document(path)
        fmt = check_format(doc, STATE, READING)
        return (parse_reading(doc) if fmt == READING else parse_state(doc)), None, frozenset(), frozenset()
    try:
        reader = _reader()
    except ImportError as exc:
        raise CarcamError(f"{path}: reading photos needs vision.reader, which is not available ({exc}); "
                          "pass carcam/state@1 or carcam/reading@1 files instead") from None
    players = _players(args) or (prior.players if prior is not None else None)
    detail = reader.read_detail(path, game=args.game, players=players, prior=prior)
    return (detail.reading, detail.evidence, frozenset(getattr(detail, "snapped", ())),
            frozenset(getattr(detail, "faint", ())))


@cache
def _reader() -> Any:
    """The photo reader, built once (its templates are the costly part), imported only when a
    photo is read."""
    from vision.reader import BoardReader  # type: ignore[import-not-found]
    return BoardReader()


def _players(args: argparse.Namespace) -> tuple[str, ...] | None:
    return tuple(p.strip() for p in args.players.split(",") if p.strip()) if args.players else None


def _with_players(doc: State | ReadingDoc, players: tuple[str, ...] | None) -> State | ReadingDoc:
    if not players:
        return doc
    if isinstance(doc, ReadingDoc):
        return replace(doc, state=replace(doc.state, players=players))
    return replace(doc, players=players)


def _choices(specs: list[str]) -> dict[int, int]:
    out: dict[int, int] = {}
    for spec in specs:
        try:
            step, n = (int(x) for x in spec.split(":"))
        except ValueError:
            raise CarcamError(f"--choose {spec}: expected STEP:N, e.g. 3:2") from None
        if step < 1 or n < 1:
            raise CarcamError(f"--choose {spec}: STEP and N count from 1")
        out[step] = n
    return out


def _step_lines(i: int, path: str, res: FollowResult, chosen: int) -> list[str]:
    lines = [f"[{i}] {path}: " + (f"{len(res.turns)} new turn(s)" if res.turns else "no new turn")]
    if res.alternatives:
        alt = res.alternatives[chosen]
        lines.append(f"    {alt.summary}")
        lines.append(f"    AMBIGUOUS: the photos allow {len(res.alternatives)} outcomes (took {chosen + 1}; "
                     f"--choose {i}:N to take another):")
        for k, a in enumerate(res.alternatives, 1):
            track = " ".join(f"{p}={n}" for p, n in a.track.items())
            lines.append(f"      {k}) {a.summary}  -> track {track}")
    else:
        for t in res.turns:
            where = f"{t.tile.name() if t.tile else '?'} at {list(t.at) if t.at else '-'} rot {t.rot}"
            extra = f" with a follower on {t.meeple}" if t.meeple else ""
            lines.append(f"    {t.player} laid {where}{extra}")
    lines += [f"    ! {w}" for w in res.warnings]
    return lines


def cmd_follow(args: argparse.Namespace) -> int:
    """Follow the inputs; print what each step inferred and the scores of the replay."""
    players = _players(args)
    record = parse_game(load_document(args.record)) if args.record else None
    choose = _choices(args.choose)
    previous: State | None = None
    steps: list[dict[str, Any]] = []
    text: list[str] = []
    total: EvidenceTotal | None = None  # the reader's evidence and the followers seen, summed over the photos
    seen: FiguresSeen | None = None
    unfit: State | None = None  # the photo before, when the game did not fit it
    for i, path in enumerate(args.inputs, 1):
        doc, evidence, snapped, faint = _load(path, args, previous)
        res = follow_step(record, previous, _with_players(doc, players), evidence=evidence, evidence_total=total,
                          figures_seen=seen, snapped=snapped, unfit=unfit, faint=faint)
        total, seen, unfit = res.evidence_total, res.figures_seen, res.unfit
        chosen = 0
        if res.alternatives:
            chosen = min(choose.get(i, 1), len(res.alternatives)) - 1
            if i in choose:  # the players answered: the next photos keep their answer
                seen = res.figures_answered()
        record = res.choose(chosen)
        previous = res.corrected_state
        text += _step_lines(i, path, res, chosen)
        steps.append({"input": path, "turns": len(res.turns), "warnings": list(res.warnings),
                      "alternatives": [{"summary": a.summary, "track": dict(a.track), "final": dict(a.final)}
                                       for a in res.alternatives], "chosen": chosen})
    assert record is not None
    _, report = replay(record)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as fh:
                json.dump(game_to_json(record), fh, indent=1)
                fh.write("\n")
        except OSError as exc:
            raise CarcamError(f"{args.output}: cannot write ({exc.strerror})") from None
    if args.json:
        print(json.dumps({"steps": steps, "record": game_to_json(record), "score": report.to_json()}, indent=1))
    else:
        print("\n".join(text))
        print(format_report(report, "Scores"))
        if args.output:
            print(f"game record written to {args.output}")
    return 0
