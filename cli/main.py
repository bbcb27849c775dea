"""``carcam`` command: score, replay, read, synth, calibrate, serve, bench, follow.

Bad input never shows a traceback: every :class:`scorer.CarcamError` becomes one line on
stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from scorer import CarcamError, Position, parse_game, parse_state, replay
from scorer.formats import READING, check_format, load_document
from scorer.scoring import ScoreReport, plural

EXIT_BAD_INPUT = 2


def format_report(report: ScoreReport, title: str = "Scores") -> str:
    """A score report in words: totals, then every scoring with its reason, then open features."""
    lines = [f"{title} (if the game ended now):"]
    final = report.final
    for p in sorted(final, key=lambda p: -final[p]):
        track = report.track.get(p, 0)
        extra = f"  (track {track})" if track else ""
        lines.append(f"  {p:<7} {final[p]:>4}{extra}")
    if report.events:
        lines.append("Scoring:")
        for e in report.events:
            size = f" ({plural(e.tiles, 'tile')})" if e.tiles else ""
            lines.append(f"  {e.player:<7} {e.points:+4} {e.what}{size}: {e.why}")
    else:
        lines.append("Scoring: none")
    if report.open:
        lines.append("Open features:")
        for o in report.open:
            if o.kind == "field" and not o.owners:
                continue
            owners = ", ".join(o.owners) if o.owners else "nobody"
            more = f", {o.points_if_completed} if completed" if o.points_if_completed is not None else ""
            lines.append(f"  {o.kind:<9} {plural(o.tiles, 'tile'):>8}  owners: {owners:<14} now {o.points_now}{more}")
    return "\n".join(lines)


def load_state_or_reading(path: str) -> Any:
    """A state from a ``carcam/state@1`` or ``carcam/reading@1`` file."""
    doc = load_document(path)
    check_format(doc, "carcam/state@1", READING)
    return parse_state(doc)


def cmd_score(args: argparse.Namespace) -> int:
    state = load_state_or_reading(args.state)
    position = Position(state)
    report = position.score(strict=not args.lenient)
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        print(format_report(report))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    record = parse_game(load_document(args.game))
    results, report = replay(record)
    if args.json:
        out = report.to_json()
        print(json.dumps({"turns": [r.to_json() for r in results], "score": out}, indent=1))
        return 0
    for r in results:
        gained = ", ".join(f"{p} +{n}" for p, n in r.points.items() if n) or "no points"
        where = f"{r.tile} at {list(r.at)} rot {r.rot}" if r.at else f"{r.tile} discarded"
        totals = " ".join(f"{p}={n}" for p, n in r.totals.items())
        print(f"turn {r.number:>2} {r.player:<6} {where:<24} {gained:<22} totals: {totals}")
        for e in r.events:
            print(f"          {e.player} +{e.points} {e.what}: {e.why}")
    print(format_report(report, "Final scores"))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="carcam", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("score", help="score a carcam/state@1 or carcam/reading@1 file")
    p.add_argument("state")
    p.add_argument("--json", action="store_true", help="print carcam/score@1")
    p.add_argument("--lenient", action="store_true", help="score even if the board has conflicts")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("replay", help="replay a carcam/game@1 record turn by turn")
    p.add_argument("game")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)

    for register in _optional_commands():
        register(sub)
    return parser


def _optional_commands() -> list[Callable[[Any], None]]:
    """Subcommands of the other packages, each registered by its own module."""
    out: list[Callable[[Any], None]] = []
    for module in ("cli.vision_commands", "cli.synth_commands", "cli.follow_commands", "cli.web_commands",
                   "cli.bench_commands"):
        try:
            mod = __import__(module, fromlist=["register"])
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise
            continue
        out.append(mod.register)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except CarcamError as exc:
        print(f"carcam {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # pragma: no cover
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
