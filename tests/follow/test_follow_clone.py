"""The follower's cheap game copies (:func:`scorer.follow._clone`) must leave the game they copy
alone: the turn search plays trial turns on copies of the game it remembers for the next step."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scorer import Game, random_game
from scorer.follow import _clone, new_game


def _end_scoring(game: Game) -> tuple[Any, ...]:
    report = game.final_report()
    return tuple(sorted(report.final.items())), tuple((e.player, e.points, e.cells) for e in report.events)


def test_a_turn_tried_on_a_copy_does_not_change_the_game_copied() -> None:
    """Photo game 778: a trial turn joining two cities on a copy grew the original's city (the
    feature graph's cell sets were shared), and the game remembered for the next step counted a
    point too many for blue."""
    for seed in range(6):
        record = random_game(seed, ("red", "blue"), turns=30)
        for n in range(len(record.turns)):
            game = new_game(replace(record, turns=record.turns[:n]))
            before = _end_scoring(game)
            trial = _clone(game)
            trial.play(record.turns[n])
            assert _end_scoring(game) == before, (seed, n)
