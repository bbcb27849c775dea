"""Rules-engine benchmark: final scoring of full 72-tile boards and whole-game replays.

Targets (issue 3, one core): final scoring under 2 ms, whole-game replay under 50 ms. Prints
medians over several seeded games (each timed many times), so the figures are repeatable.
"""

from __future__ import annotations

import argparse
import statistics
import time

from scorer import Game, Position, random_game, replay


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="seeded games to measure")
    parser.add_argument("--repeat", type=int, default=200, help="timings per game (scoring)")
    args = parser.parse_args(argv)

    score_ms, replay_ms, tiles, events = [], [], [], []
    for seed in range(args.games):
        record = random_game(1000 + seed, players=("red", "blue", "green", "yellow"))
        game = Game.from_record(record)
        for t in record.turns:
            game.play(t)
        state = game.state()
        tiles.append(len(state.tiles))
        report = Position(state).score()
        events.append(len(report.events))
        score_ms.append(median_ms(lambda s=state: Position(s).score(), args.repeat))
        replay_ms.append(median_ms(lambda r=record: replay(r), max(10, args.repeat // 10)))
    print(f"boards: {args.games} full games, median {statistics.median(tiles):.0f} tiles, "
          f"median {statistics.median(events):.0f} scoring events")
    print(f"final scoring of a full board (state -> board -> carcam/score@1 report): "
          f"median {statistics.median(score_ms):.2f} ms (target < 2 ms)")
    print(f"whole-game replay with totals after every turn: median {statistics.median(replay_ms):.2f} ms "
          f"(target < 50 ms)")


if __name__ == "__main__":
    main()
