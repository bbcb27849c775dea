"""carcam's rules engine: tiles, boards, features, legality and scoring with reasons.

Pure Python; its only I/O is the JSON formats of ``spec/formats.md``. Nothing here imports the
vision pipeline or the web app.
"""

from .board import Board, Layout, PlacedTile, StartField
from .catalog import Catalog, Kind, Segment, TileType, load_catalog
from .errors import CarcamError, CatalogError, Conflict, FormatError, IllegalBoardError, IllegalMoveError
from .features import Feature, FeatureGraph
from .formats import (
                      GameRecord,
                      MeepleEntry,
                      Reading,
                      State,
                      TileEntry,
                      Turn,
                      game_to_json,
                      parse_game,
                      parse_reading,
                      parse_state,
                      reading_to_json,
                      state_to_json,
)
from .game import Game, TurnResult, random_game, replay
from .position import Position
from .scoring import Figure, OpenFeature, ScoreEvent, ScoreReport

__all__ = [
    "Board", "Layout", "PlacedTile", "StartField", "Catalog", "Kind", "Segment", "TileType",
    "load_catalog", "CarcamError", "CatalogError", "Conflict", "FormatError", "IllegalBoardError",
    "IllegalMoveError", "Feature", "FeatureGraph", "GameRecord", "MeepleEntry", "Reading", "State",
    "TileEntry", "Turn", "game_to_json", "parse_game", "parse_reading", "parse_state",
    "reading_to_json", "state_to_json", "Game", "TurnResult", "random_game", "replay", "Position",
    "Figure", "OpenFeature", "ScoreEvent", "ScoreReport",
]
