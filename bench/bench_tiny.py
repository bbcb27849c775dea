"""Benchmark the reader on tiny boards: the first photos of followed games (2 to 5 tiles).

Every followed game starts with photos of a few tiles, where the comb search has few seams to go
on; a photo read on a wrong grid there puts the whole record off. For each game ``seed`` (the
photo games of ``bench_follow.py --photos``: random base games of 20 turns, two players), the
photos after turns 1..``--turns`` are rendered as that benchmark renders them (first take) and
read with the true previous board as the prior. A photo counts as read right when its tiles
coincide with the truth, every one (same tile, same rotation) and no more. Prints the photos read
wrongly, the count right, and the median read time.

    python bench/bench_tiny.py [--games 12] [--seed0 552] [--turns 4]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_follow import true_states  # noqa: E402

from scorer import random_game  # noqa: E402
from scorer.follow import align  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--seed0", type=int, default=552)
    ap.add_argument("--turns", type=int, default=4, help="photos after turns 1..TURNS of each game")
    args = ap.parse_args(argv)
    from vision.errors import VisionError
    from vision.reader import BoardReader
    from vision.synth import generate

    reader = BoardReader()
    right = total = 0
    times: list[float] = []
    for seed in range(args.seed0, args.seed0 + args.games):
        states, _, _ = true_states(random_game(seed, ("red", "blue"), turns=20))
        for k in range(1, args.turns + 1):
            state = states[k]
            photo = generate(state, None, seed * 1000 + len(state.tiles))  # bench_follow's first take
            total += 1
            t0 = time.perf_counter()
            try:
                read = reader.read_detail(photo.jpeg, game=state.game, players=state.players, prior=states[k - 1])
            except VisionError as exc:
                print(f"  seed {seed} photo {k}: {type(exc).__name__}: {exc}")
                continue
            times.append(time.perf_counter() - t0)
            truth = {e.at: (e.tile, e.rot) for e in state.tiles}
            _, same = align(truth, read.reading.state)
            n_read = len(read.reading.state.tiles)
            if same == len(truth) == n_read:
                right += 1
            else:
                print(f"  seed {seed} photo {k}: {len(truth)} tiles, read {n_read}, {same} of them right", flush=True)
    print(f"tiny boards: {right}/{total} photos of 2-{args.turns + 1} tiles read right "
          f"(games {args.seed0}-{args.seed0 + args.games - 1}) | median read "
          f"{statistics.median(times) if times else float('nan'):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
