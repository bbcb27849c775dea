"""The Castle's rules, tested on the rulebook's own examples and numbers
(``shared/rules/the-castle.de.txt``; the German quotes name the example)."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.castle_rules import CastleGame, HeldTile, parse_layout
from scorer.catalog import CASTLE_KINDS, TileType, parse_tile
from scorer.errors import IllegalMoveError
from scorer.formats import Turn, parse_state
from scorer.position import Position

ALL = ["Nw", "N", "Ne", "En", "E", "Es", "Se", "S", "Sw", "Ws", "W", "Wn"]
EDGE = {"N": ["Nw", "N", "Ne"], "E": ["En", "E", "Es"], "S": ["Se", "S", "Sw"], "W": ["Ws", "W", "Wn"]}


def seg(kind: str, *slots: str, **kw: Any) -> dict[str, Any]:
    return {"kind": kind, "slots": list(slots), **kw}


def tile(*segments: dict[str, Any]) -> TileType:
    """An inline castle tile; every slot no segment names goes to one court."""
    used = {s for sg in segments for s in sg["slots"]}
    rest = [s for s in ALL if s not in used]
    segs = list(segments) + ([seg("court", *rest)] if rest else [])
    return parse_tile({"segments": segs}, "test tile", CASTLE_KINDS)


def tile_json(t: TileType) -> dict[str, Any]:
    return t.to_json()  # type: ignore[return-value]


def path_we(well: bool = False) -> TileType:
    """A path from W to E, courts above and below."""
    return tile(seg("path", "W", "E", **({"well": True} if well else {})), seg("court", "Wn", "Nw", "N", "Ne", "En"))


def plaza_w() -> TileType:
    """A path from W that ends at a plaza in the middle."""
    return tile(seg("path", "W"))


def building(kind: str, *edges: str, markets: int = 0) -> TileType:
    """A tower or house over whole edges, court elsewhere (with ``markets``)."""
    slots = [s for e in edges for s in EDGE[e]]
    rest = [s for s in ALL if s not in slots]
    if not rest:
        return tile(seg(kind, *slots))
    return tile(seg(kind, *slots), seg("court", *rest, **({"markets": markets} if markets else {})))


def court(markets: int = 0) -> TileType:
    return tile(seg("court", *ALL, **({"markets": markets} if markets else {})))


def layout_json(cells: list[tuple[int, int]], starts: list[tuple[tuple[int, int], str, list[str], int]],
                corners: list[list[int]] | None = None) -> dict[str, Any]:
    return {"cells": [list(c) for c in cells],
            "start_fields": [{"at": list(at), "side": side, "slots": kinds, **({"markets": m} if m else {})}
                             for at, side, kinds, m in starts],
            "corners": corners if corners is not None else [[0, 1], [12, 13], [33, 34]]}


def game(cells: list[tuple[int, int]], starts: list[tuple[tuple[int, int], str, list[str], int]],
         corners: list[list[int]] | None = None, corner_tiles: dict[str, int] | None = None) -> CastleGame:
    layout = parse_layout(layout_json(cells, starts, corners))
    return CastleGame(players=("black", "white"), layout=layout, corner_tiles=corner_tiles or {}, check_box=False)


def turn(player: str, t: TileType, at: tuple[int, int], rot: int = 0, meeple: str | None = None,
         wall: tuple[int, ...] = ()) -> Turn:
    return Turn(player=player, tile=t, at=at, rot=rot, meeple=meeple, wall_tiles_used=wall)


def state(layout: dict[str, Any], tiles: list[tuple[tuple[int, int], TileType, int]],
          meeples: list[tuple[str, tuple[int, int], str]] = (), **extra: Any) -> Any:  # type: ignore[assignment]
    doc = {"format": "carcam/state@1", "game": "castle", "players": ["black", "white"], "layout": layout,
           "tiles": [{"at": list(at), "tile": tile_json(t), "rot": r} for at, t, r in tiles],
           "meeples": [{"player": p, "at": list(at), "on": on} for p, at, on in meeples], **extra}
    return parse_state(doc)


# =============================================================================================
# the rulebook's examples, with its numbers
ROW = [(x, 0) for x in range(5)]
COURTS = ["court", "court", "court"]


def test_two_point_path_from_the_wall_to_a_plaza() -> None:
    """"Schwarz erhält 2 Punkte (2 Burgkarten mit Wegen)": the wall ends it, a plaza ends it."""
    g = game(ROW, [((0, 0), "N", COURTS, 0)])
    r1 = g.play(turn("black", path_we(), (0, 0), meeple="W"))
    assert r1.events == () and g.supply["black"] == 5
    r2 = g.play(turn("white", plaza_w(), (1, 0)))
    assert [(e.player, e.points, e.what, e.tiles) for e in r2.events] == [("black", 2, "path", 2)]
    assert r2.events[0].why == "completed path: 2 tiles x 1; black alone (1 herald)"
    assert g.supply["black"] == 6 and g.figures == []


def test_one_point_path_ending_at_a_house() -> None:
    """"Schwarz erhält für den fertigen Weg 1 Punkt": one tile, from the wall into a building."""
    g = game(ROW, [((0, 0), "N", COURTS, 0)])
    t = tile(seg("path", "W"), seg("house", "En", "E", "Es"))
    r = g.play(turn("black", t, (0, 0), meeple="W"))
    assert [(e.player, e.points, e.what) for e in r.events] == [("black", 1, "path")]
    assert g.track == {"black": 1, "white": 0}


def test_eight_point_path_with_a_well_and_a_start_field() -> None:
    """"Schwarz erhält 8 Punkte (3 Burgkarten und das Stück in der Burgmauer ... Brunnen)"."""
    cells = [(x, y) for x in range(4) for y in range(2)]
    g = game(cells, [((0, 0), "W", ["court", "path", "court"], 0)])
    g.play(turn("black", path_we(), (0, 0), meeple="E"))
    g.play(turn("white", path_we(well=True), (1, 0)))
    r = g.play(turn("black", plaza_w(), (2, 0)))
    assert [(e.player, e.points, e.tiles) for e in r.events] == [("black", 8, 4)]
    assert "4 tiles (3 castle tiles + 1 start field) x 2 (1 well on it)" in r.events[0].why


def test_a_path_loop_is_complete() -> None:
    cells = [(0, 0), (1, 0), (0, 1), (1, 1)]
    g = game(cells, [((0, 0), "N", COURTS, 0)])
    curve = tile(seg("path", "N", "E"), seg("court", "Ne", "En"))   # N-E curve
    g.play(turn("black", curve, (0, 0), rot=90, meeple="E"))       # E-S
    g.play(turn("white", curve, (1, 0), rot=180))                   # S-W
    g.play(turn("black", curve, (1, 1), rot=270))                   # W-N
    r = g.play(turn("white", curve, (0, 1), rot=0))                 # N-E
    assert [(e.player, e.points) for e in r.events] == [("black", 4)]


def test_four_point_tower() -> None:
    """"Schwarz erhält für den fertigen Turm 4 Punkte": 2 tiles x 2."""
    g = game(ROW, [((0, 0), "N", COURTS, 0)])
    g.play(turn("black", building("tower", "E"), (0, 0), meeple="E"))
    r = g.play(turn("white", building("tower", "W"), (1, 0)))
    assert [(e.player, e.points, e.what, e.tiles) for e in r.events] == [("black", 4, "tower", 2)]


SQUARE = [(x, y) for x in range(3) for y in range(3)]
CORNER_TOWER = building("tower", "N", "E")   # turned: 90 -> E+S, 180 -> S+W, 270 -> W+N


def test_eight_point_four_tile_tower() -> None:
    """"Weiß erhält 8 Punkte (4 Burgkarten mit den zusammenhängenden Turmabschnitten 1, 2, 3, 4)"."""
    g = game(SQUARE, [((0, 0), "N", COURTS, 0)])
    g.play(turn("white", CORNER_TOWER, (0, 0), rot=90, meeple="E"))
    g.play(turn("black", CORNER_TOWER, (1, 0), rot=180))
    g.play(turn("white", CORNER_TOWER, (0, 1), rot=0))
    r = g.play(turn("black", CORNER_TOWER, (1, 1), rot=270))
    assert [(e.player, e.points, e.what, e.tiles) for e in r.events] == [("white", 8, "tower", 4)]


def test_joined_towers_with_one_knight_each_score_nobody() -> None:
    """"Jetzt stehen beide Ritter im selben Turm ... Weder Schwarz noch Weiß erhalten die Punkte"."""
    line = [(0, 0), (1, 0), (2, 0)]
    g = game(line, [((0, 0), "W", COURTS, 0), ((2, 0), "E", COURTS, 0)])
    g.play(turn("white", building("tower", "E"), (0, 0), meeple="E"))
    g.play(turn("black", building("tower", "W"), (2, 0), meeple="W"))
    r = g.play(turn("white", building("tower", "N", "E", "S", "W"), (1, 0)))
    assert r.events == ()
    assert g.track == {"black": 0, "white": 0}
    assert g.supply == {"black": 6, "white": 6}          # both knights go home after the scoring
    assert any("tie (white 1 = black 1 knights): nobody scores" in n for n in g.notes)


def test_one_point_house() -> None:
    """"Weiß erhält 1 Punkt (1 Burgkarte mit Haus)": a house against the wall is complete."""
    g = game(ROW, [((0, 0), "N", COURTS, 0)])
    r = g.play(turn("white", building("house", "W"), (0, 0), meeple="W"))
    assert [(e.player, e.points, e.what) for e in r.events] == [("white", 1, "house")]
    assert g.palas == {"white": ((0, 0), 1)}             # the first completed house takes the keep


def test_house_into_a_start_field_counts_the_start_field() -> None:
    g = game(ROW, [((0, 0), "N", ["house", "house", "house"], 0)])
    r = g.play(turn("white", building("house", "N"), (0, 0), meeple="N"))
    assert [(e.points, e.tiles) for e in r.events] == [(2, 2)]


def test_more_followers_win_and_everyone_goes_home() -> None:
    cells = [(0, 0), (1, 0), (2, 0), (1, 1)]
    g = game(cells, [((0, 0), "W", COURTS, 0), ((2, 0), "E", COURTS, 0), ((1, 1), "S", COURTS, 0)])
    g.play(turn("black", building("tower", "E"), (0, 0), meeple="E"))
    g.play(turn("white", building("tower", "N"), (1, 1), meeple="N"))
    g.play(turn("black", building("tower", "W"), (2, 0), meeple="W"))
    r = g.play(turn("white", building("tower", "W", "E", "S"), (1, 0)))
    assert [(e.player, e.points, e.tiles) for e in r.events] == [("black", 8, 4)]
    assert "black 2 knights vs white 1" in r.events[0].why
    assert g.supply == {"black": 6, "white": 6}


# -- keep: 11 empty spaces ----------------------------------------------------------------------
KEEP_CELLS = [(x, y) for x in range(6) for y in range(4)]
KEEP_LAYOUT = layout_json(KEEP_CELLS, [((2, 0), "N", ["house"] * 3, 0), ((3, 0), "N", ["house"] * 3, 0)])
KEEP_TILES = [((2, 0), building("house", "N"), 0), ((3, 0), building("house", "N"), 0),
              ((2, 1), court(), 0), ((2, 2), court(), 0), ((2, 3), court(), 0)]


def keep_report(**extra: Any) -> Any:
    s = state(KEEP_LAYOUT, KEEP_TILES, palas={"black": [2, 0], "white": [3, 0]}, **extra)
    p = Position(s)
    assert p.status() == []
    return p.score()


def test_keep_scores_the_largest_group_of_empty_spaces_eleven() -> None:
    """"Das größte zusammenhängende Gebiet umfasst in diesem Beispiel 11 Felder ... 11 Punkte"."""
    report = keep_report(wall_tiles={"black": {"held": [8]}})
    keep = [e for e in report.events if e.what == "keep"]
    assert [(e.player, e.points) for e in keep] == [("black", 11)]
    assert "black's keep 2 tiles + 2 for wall tile 8 vs white's keep 2 tiles" in keep[0].why
    assert "11 spaces" in keep[0].why


def test_equal_keeps_score_nobody_and_wall_tile_8_breaks_the_tie() -> None:
    assert [e for e in keep_report().events if e.what == "keep"] == []
    assert any("equal keeps, nobody scores" in n for n in keep_report().notes)
    white = keep_report(wall_tiles={"white": {"held": [8]}})
    assert [(e.player, e.points) for e in white.events if e.what == "keep"] == [("white", 11)]
    both = keep_report(wall_tiles={"white": {"held": [8]}, "black": {"held": [8]}})
    assert [e for e in both.events if e.what == "keep"] == []


def test_keep_moves_only_to_a_larger_house_with_the_majority() -> None:
    g = game(ROW, [((0, 0), "N", COURTS, 0)])
    g.play(turn("white", building("house", "W"), (0, 0), meeple="W"))        # 1 tile: keep here
    assert g.palas["white"] == ((0, 0), 1)
    g.play(turn("black", building("house", "N"), (1, 0), meeple="N"))        # black's first: keep
    g.play(turn("white", building("house", "E"), (2, 0), meeple="E"))        # open: no change
    assert g.palas["white"] == ((0, 0), 1)
    g.play(turn("black", building("house", "W"), (3, 0)))                    # white's 2-tile house done
    assert g.palas["white"] == ((2, 0), 2) and g.palas["black"] == ((1, 0), 1)
    g.play(turn("white", building("house", "W"), (4, 0), meeple="W"))        # smaller: the keep stays
    assert g.palas["white"] == ((2, 0), 2) and g.track == {"black": 1, "white": 4}


# -- courts: 3, 15 and 20 points ----------------------------------------------------------------
COURT_CELLS = [(x, 0) for x in range(5)]
COURT_LAYOUT = layout_json(COURT_CELLS, [((0, 0), "W", COURTS, 1)])
COURT_TILES = [((0, 0), court(1), 0), ((1, 0), court(1), 0), ((2, 0), court(1), 0), ((3, 0), court(1), 0),
               ((4, 0), building("house", "W", markets=1), 0)]
COURT_MEEPLES = [("black", (0, 0), "N"), ("white", (1, 0), "N"), ("black", (2, 0), "N"), ("white", (4, 0), "E")]


def test_courts_score_three_per_market_to_the_merchant_majority() -> None:
    """"Schwarz ... erhält 15 Punkte" (5 markets, one on the track); "Weiß erhält 3 Punkte"."""
    report = Position(state(COURT_LAYOUT, COURT_TILES, COURT_MEEPLES)).score()
    courts = [(e.player, e.points) for e in report.events if e.what == "court"]
    assert courts == [("black", 15), ("white", 3)]
    assert report.final == {"black": 15, "white": 3}
    assert "court: 5 markets x 3; black 2 merchants vs white 1" in report.events[0].why


def test_wall_tile_7_makes_the_big_court_twenty() -> None:
    """"Könnte Schwarz Mauerplättchen 7 einsetzen, würde er ... insgesamt also 20 Punkte erhalten"."""
    report = Position(state(COURT_LAYOUT, COURT_TILES, COURT_MEEPLES,
                            wall_tiles={"black": {"held": [7]}})).score()
    assert [(e.player, e.points) for e in report.events if e.what == "court"] == [("black", 20), ("white", 3)]
    assert "(wall tile 7)" in report.events[0].why


def test_a_tied_court_scores_nobody() -> None:
    meeples = [("black", (0, 0), "N"), ("white", (1, 0), "N")]
    report = Position(state(COURT_LAYOUT, COURT_TILES, meeples)).score()
    assert [e for e in report.events if e.what == "court"] == []


def test_merchants_stay_when_their_court_is_closed() -> None:
    line = [(0, 0), (1, 0)]
    g = game(line, [((0, 0), "W", COURTS, 0)])
    g.play(turn("black", court(1), (0, 0), meeple="N"))
    g.play(turn("white", building("house", "W"), (1, 0)))
    assert g.figures and g.supply["black"] == 5
    assert [(e.player, e.points) for e in g.final_report().events] == [("black", 3)]


# -- the track and the wall tiles ---------------------------------------------------------------
def test_landing_on_33_takes_the_wall_tile_and_it_is_usable_from_the_next_turn() -> None:
    """"Schwarz zieht mit seinem Zählstein auf Feld 33 und nimmt das Mauerplättchen zu sich"."""
    g = game(SQUARE, [((0, 0), "N", COURTS, 0)], corner_tiles={"33": 2, "12": 9})
    g.track["black"] = 29
    g.play(turn("black", building("tower", "E"), (0, 0), meeple="E"))
    r = g.play(turn("white", building("tower", "W"), (1, 0)))
    assert r.totals["black"] == 33
    assert [h.number for h in g.held["black"]] == [2] and 33 not in g.corners
    # black uses it in their next turn: their completed 2-tile tower scores 8 instead of 4
    g.play(turn("black", building("tower", "S"), (0, 1), meeple="S"))
    r = g.play(turn("white", building("tower", "N"), (0, 2)))
    assert [(e.player, e.points) for e in r.events] == [("black", 4)]        # white's turn: not doubled
    g.play(turn("black", building("tower", "E"), (1, 1), meeple="E"))
    g.play(turn("white", court(), (1, 2)))
    r = g.play(turn("black", building("tower", "W"), (2, 1), wall=(2,)))
    assert [(e.player, e.points) for e in r.events] == [("black", 8)]
    assert g.held["black"] == [] and g.used["black"] == [2]


def test_wall_tile_2_doubles_a_tower_completed_in_the_holders_turn() -> None:
    g = game(SQUARE, [((0, 0), "N", COURTS, 0)], corner_tiles={"33": 2})
    g.track["black"] = 29
    g.play(turn("black", building("tower", "E"), (0, 0), meeple="E"))
    g.play(turn("white", building("tower", "W"), (1, 0)))                    # black lands on 33
    g.play(turn("black", building("tower", "S"), (2, 0), meeple="S"))
    r = g.play(turn("white", court(), (0, 1)))
    assert r.events == ()
    r = g.play(turn("black", building("tower", "N"), (2, 1), wall=(2,)))
    assert [(e.player, e.points) for e in r.events] == [("black", 8)]
    assert "doubled by wall tile 2" in r.events[0].why


def test_a_wall_tile_cannot_be_used_in_the_turn_it_is_taken() -> None:
    g = game(SQUARE, [((0, 0), "N", COURTS, 0)], corner_tiles={"33": 2})
    g.track["black"] = 29
    g.play(turn("white", building("tower", "E"), (0, 0)))
    with pytest.raises(IllegalMoveError, match="turn 2: black does not hold wall tile 2"):
        g.play(turn("black", building("tower", "W"), (1, 0), meeple="W", wall=(2,)))
    with pytest.raises(IllegalMoveError, match="turn 2: it is black's turn, not white's"):
        g.play(turn("white", building("tower", "W"), (1, 0)))
    assert len(g.board) == 1 and g.track["black"] == 29 and g.supply["black"] == 6   # nothing changed
    g.play(turn("black", building("tower", "W"), (1, 0), meeple="W"))
    assert g.track["black"] == 33 and [h.number for h in g.held["black"]] == [2]


def test_passing_over_a_corner_takes_nothing_and_laps_wrap() -> None:
    g = game(SQUARE, [((0, 0), "N", COURTS, 0)], corner_tiles={"33": 2, "12": 5})
    g.track["black"] = 31
    g.play(turn("black", building("tower", "E"), (0, 0), meeple="E"))
    g.play(turn("white", building("tower", "W"), (1, 0)))
    assert g.track["black"] == 35 and g.held["black"] == [] and 33 in g.corners
    g.track["white"] = 108                                        # one lap done, the track shows 8
    g.play(turn("black", building("tower", "S"), (0, 1)))
    g.play(turn("white", building("tower", "S"), (2, 0), meeple="S"))
    g.play(turn("black", building("tower", "N"), (2, 1)))
    assert g.track["white"] == 112 and [h.number for h in g.held["white"]] == [5]


def test_the_player_who_laid_the_tile_scores_first() -> None:
    """"Sollten durch eine Burgkarte mehrere Wertungen ausgelöst werden, wertet immer der Spieler
    zuerst, der die Burgkarte gelegt hat": both land on 33, the placer takes the tile."""
    line = [(x, 0) for x in range(3)]
    g = game(line, [((0, 0), "W", COURTS, 0), ((2, 0), "E", COURTS, 0)], corner_tiles={"33": 9})
    g.track = {"black": 29, "white": 29}
    g.play(turn("black", building("tower", "E"), (0, 0), meeple="E"))
    g.play(turn("white", building("tower", "W"), (2, 0), meeple="W"))
    two_towers = tile(seg("tower", *EDGE["W"]), seg("tower", *EDGE["E"]))
    r = g.play(turn("black", two_towers, (1, 0)))
    assert [e.player for e in r.events] == ["black", "white"]
    assert g.track == {"black": 33, "white": 33}
    assert [h.number for h in g.held["black"]] == [9] and g.held["white"] == []


def test_wall_tile_1_gives_an_immediate_second_turn() -> None:
    g = game(SQUARE, [((0, 0), "N", COURTS, 0)])
    g.held["black"] = [HeldTile(1, 0)]
    g.play(turn("black", court(), (0, 0), wall=(1,)))
    g.play(turn("black", court(), (1, 0)))                     # black again
    with pytest.raises(IllegalMoveError, match="it is white's turn"):
        g.play(turn("black", court(), (2, 0)))


def test_wall_tile_3_doubles_a_house_and_needs_the_majority() -> None:
    g = game(ROW, [((0, 0), "N", COURTS, 0)])
    g.held["white"] = [HeldTile(3, 0)]
    r = g.play(turn("black", building("house", "W"), (0, 0), meeple="W"))
    assert [(e.player, e.points) for e in r.events] == [("black", 1)]
    with pytest.raises(IllegalMoveError, match="wall tile 3: white completed no house this turn in which "
                                               "they have more squires"):
        g.play(turn("white", building("house", "N"), (1, 0), wall=(3,)))
    r = g.play(turn("white", building("house", "N"), (1, 0), meeple="N", wall=(3,)))
    assert [(e.player, e.points) for e in r.events] == [("white", 2)]
    assert "doubled by wall tile 3" in r.events[0].why


def test_end_wall_tiles_4_5_6_9_score_incomplete_features_in_rule_order() -> None:
    cells = [(x, y) for x in range(5) for y in range(3)]
    lay = layout_json(cells, [((0, 0), "W", ["court", "path", "court"], 1)])
    tiles = [((0, 0), path_we(well=True), 0), ((1, 0), path_we(), 0),  # open path of 3 (start field too)
             ((0, 1), building("tower", "S"), 0),                       # open tower of 1
             ((1, 1), building("house", "S"), 0)]                       # open house of 1
    meeples = [("black", (1, 0), "E"), ("black", (0, 1), "S"), ("white", (1, 1), "S"), ("white", (0, 0), "S")]
    s = state(lay, tiles, meeples, wall_tiles={"black": {"held": [4, 5, 9, 6]}, "white": {"held": [6, 9]}})
    report = Position(s).score()
    got = [(e.player, e.what, e.points) for e in report.events]
    assert got == [("white", "court", 3),
                   ("black", "wall tile 4", 3), ("black", "wall tile 5", 2), ("white", "wall tile 6", 1),
                   ("black", "wall tile 9", 5), ("white", "wall tile 9", 5)]
    assert report.events[1].why == ("wall tile 4: incomplete path of 3 tiles (2 castle tiles + 1 start field) "
                                    "x 1; black alone (1 herald)")
    assert any("black's wall tile 6: no incomplete house" in n for n in report.notes)
    assert report.final == {"black": 10, "white": 9}
    opened = {o.kind: o for o in report.open}
    assert opened["path"].points_now == 3 and opened["path"].points_if_completed == 3 * 2


def test_without_wall_tiles_incomplete_features_score_nothing() -> None:
    cells = [(x, y) for x in range(4) for y in range(2)]
    lay = layout_json(cells, [((0, 0), "W", ["court", "path", "court"], 0)])
    s = state(lay, [((0, 0), path_we(), 0)], [("black", (0, 0), "E")])
    assert Position(s).score().final == {"black": 0, "white": 0}


def test_a_completed_feature_still_holding_followers_scores_in_a_position() -> None:
    """A photo taken before the followers went home: scored as at the end of that turn, and a
    landing on a corner tower takes its wall tile (here 9: five more points at the end)."""
    s = state(layout_json(ROW, [((0, 0), "N", COURTS, 0)]),
              [((0, 0), building("tower", "E"), 0), ((1, 0), building("tower", "W"), 0)],
              [("black", (0, 0), "E")], scores={"black": 29}, corner_tiles={"33": 9})
    report = Position(s).score()
    assert [(e.player, e.what, e.points, e.phase) for e in report.events] == [
        ("black", "tower", 4, "completed"), ("black", "wall tile 9", 5, "end")]
    assert report.final == {"black": 38, "white": 0}


def test_a_tile_of_another_kind_completes_a_neighbours_tower() -> None:
    """"Ein Turm ist fertig, wenn ... komplett von Wegen, Häusern, Höfen oder der Burgmauer umgeben"."""
    g = game(ROW, [((0, 0), "N", COURTS, 0)])
    g.play(turn("black", building("tower", "E"), (0, 0), meeple="E"))
    r = g.play(turn("white", court(), (1, 0)))
    assert [(e.player, e.points, e.what) for e in r.events] == [("black", 2, "tower")]
    assert g.supply["black"] == 6
