"""Every scoring example of the base-game rulebook (carcassonne-base-and-festival.de.txt), with
the book's numbers, played or laid out with real tiles of the 72-tile box."""

from __future__ import annotations

import pytest

from scorer import IllegalMoveError, Position


def events_by_player(results):
    out: dict[str, int] = {}
    for r in results:
        for e in r.events:
            out[e.player] = out.get(e.player, 0) + e.points
    return out


# --- "Eine fertige Straße": Rot erhält 3 Punkte / 4 Punkte --------------------------------------
def test_road_of_three_tiles_ending_at_monastery_and_junction_scores_3(build):
    results, _ = build["play"](((0, 0), "A", 0), [
        ("red", "U", (0, 1), 90, "N"),
        ("blue", "W", (0, 2), 180),
    ])
    assert [(e.player, e.points, e.what, e.tiles) for e in results[1].events] == [("red", 3, "road", 3)]
    assert results[1].totals == {"red": 3, "blue": 0}


def test_road_of_four_tiles_from_junction_to_city_gate_scores_4(build):
    results, _ = build["play"](((0, 0), "L", 0), [
        ("red", "U", (1, 0), 0, "W"),
        ("blue", "U", (2, 0), 0),
        ("red", "T", (3, 0), 90),
    ])
    assert [(e.player, e.points, e.tiles) for e in results[2].events] == [("red", 4, 4)]


# --- "Eine fertige Stadt": 8 points (3 tiles + 1 shield), 8 points (4 tiles, two segments once) --
def test_city_of_three_tiles_with_one_shield_scores_8(build):
    results, _ = build["play"](((0, 0), "M", 0), [
        ("red", "E", (0, -1), 180, "S"),
        ("blue", "E", (-1, 0), 90),
    ])
    (event,) = results[1].events
    assert (event.player, event.points, event.tiles) == ("red", 8, 3)
    assert "3 tiles x 2 + 1 shield x 2" in event.why


def test_city_with_two_segments_on_one_tile_counts_that_tile_once(build):
    results, _ = build["play"](((0, 0), "I", 0), [
        ("red", "N", (0, -1), 270, "S"),
        ("blue", "N", (-1, 0), 90),
        ("red", "N", (-1, -1), 180),
    ])
    (event,) = results[2].events
    assert (event.player, event.points, event.tiles) == ("red", 8, 4)


# --- ties: "Blau und Rot erhalten beide die volle Punktzahl, nämlich 10 Punkte" ------------------
def test_new_tile_joins_two_knights_into_one_completed_city_both_score_10(build):
    results, report = build["play"](((0, 1), "U", 0), [
        ("red", "U", (1, 1), 0),
        ("blue", "U", (-1, 1), 0),
        ("red", "G", (1, 0), 0, "E"),
        ("blue", "E", (-1, 0), 90, "E"),
        ("red", "E", (2, 0), 270),
        ("blue", "F", (0, 0), 0),
    ])
    last = results[-1]
    assert sorted((e.player, e.points) for e in last.events) == [("blue", 10), ("red", 10)]
    assert all("tie" in e.why for e in last.events)
    assert last.totals == {"red": 10, "blue": 10}


# --- "Ein fertiges Kloster": 9 points; and a closed road loop ------------------------------------
def test_monastery_surrounded_by_eight_tiles_scores_9_and_road_loop_scores_8(build):
    results, report = build["play"](((0, -1), "U", 0), [
        ("red", "B", (0, 0), 0, "C"),
        ("blue", "V", (1, -1), 0, "W"),
        ("red", "U", (1, 0), 90),
        ("blue", "V", (1, 1), 90),
        ("red", "U", (0, 1), 0),
        ("blue", "V", (-1, 1), 180),
        ("red", "U", (-1, 0), 90),
        ("blue", "V", (-1, -1), 270),
    ])
    last = results[-1].events
    assert [(e.player, e.points, e.what, e.tiles) for e in last] == [
        ("blue", 8, "road", 8), ("red", 9, "monastery", 9)]
    assert results[-1].totals == {"red": 9, "blue": 8}
    assert report.final == {"red": 9, "blue": 8}  # followers went home: nothing left at the end


# --- "im selben Zug einen Gefolgsmann setzen, sofort werten und zurückbekommen" ------------------
def test_follower_placed_and_scored_in_the_same_turn_city_4(build):
    results, _ = build["play"](((0, 0), "E", 0), [("red", "E", (0, -1), 180, "S")])
    assert [(e.player, e.points) for e in results[0].events] == [("red", 4)]


def test_follower_placed_and_scored_in_the_same_turn_road_3_and_goes_home(build):
    from scorer import Game, parse_game
    doc = build["record"](((0, 0), "A", 0), [
        ("blue", "U", (0, 1), 90),
        ("red", "W", (0, 2), 180, "N"),
    ])
    game = Game.from_record(parse_game(doc))
    record = parse_game(doc)
    game.play(record.turns[0])
    result = game.play(record.turns[1])
    assert [(e.player, e.points) for e in result.events] == [("red", 3)]
    assert game.supply["red"] == 7 and game.figures == []


def test_tiny_city_option_scores_a_two_tile_city_2(build):
    results, _ = build["play"](((0, 0), "E", 0), [("red", "E", (0, -1), 180, "S")],
                               options={"tiny_city": True})
    assert [(e.points) for e in results[0].events] == [2]


# --- placing followers -----------------------------------------------------------------------
def test_blue_can_only_place_a_farmer_when_the_city_already_holds_a_knight(build):
    doc = build["record"](((0, 0), "D", 0), [
        ("red", "N", (0, -1), 180, "S"),
        ("blue", "E", (1, -1), 270, "W"),
    ])
    from scorer import parse_game, replay
    with pytest.raises(IllegalMoveError) as err:
        replay(parse_game(doc))
    assert err.value.turn == 2 and "already occupied by red" in str(err.value)
    doc["turns"][1]["meeple"] = {"on": "N"}  # a farmer on the field is fine
    replay(parse_game(doc))


def test_farmer_only_on_the_small_field_when_the_big_field_is_taken(build):
    from scorer import Game, parse_game
    doc = build["record"](((0, 0), "U", 0), [("red", "U", (1, 0), 0, "N")])
    game = Game.from_record(parse_game(doc))
    game.play(parse_game(doc).turns[0])
    v = __import__("scorer").load_catalog().get("V")
    free = game.follower_options(v, (2, 0), 0)
    assert "S" in free          # thief on the road
    assert "Sw" in free         # farmer on the small field
    assert not any(s in free for s in ("Nw", "N", "Ne", "En", "E"))  # the big field is red's


def test_fields_joined_later_hold_several_farmers_and_block_new_ones(build):
    doc = build["record"](((0, 0), "U", 90), [
        ("blue", "U", (0, 1), 90, "W"),
        ("red", "U", (0, -1), 90, "E"),
        ("blue", "A", (0, 2), 180, "E"),
    ])
    from scorer import parse_game, replay
    with pytest.raises(IllegalMoveError, match="turn 3: follower on E: the field is already occupied"):
        replay(parse_game(doc))
    doc["turns"][2].pop("meeple")
    _, report = replay(parse_game(doc))
    fields = [o for o in report.open if o.kind == "field" and o.owners]
    assert len(fields) == 1 and set(fields[0].owners) == {"blue", "red"}


def test_a_tile_touching_only_a_corner_may_not_be_placed(build):
    from scorer import parse_game, replay
    doc = build["record"](((0, 0), "B", 0), [("red", "B", (1, 1), 0)])
    with pytest.raises(IllegalMoveError, match=r"turn 1: .*corners do not count"):
        replay(parse_game(doc))


def test_a_city_edge_may_not_meet_a_field(build):
    from scorer import parse_game, replay
    doc = build["record"](((0, 0), "E", 0), [("red", "E", (0, -1), 0)])
    with pytest.raises(IllegalMoveError, match=r"turn 1: E at \[0, -1\] rot 0: .*field.*city|city.*field"):
        replay(parse_game(doc))


# --- "Schlusswertung": unfinished road 3, monastery 5, city 3, big city 8, black nothing ----------
def test_end_game_red_unfinished_road_scores_3(build):
    report = build["score"]([((0, 0), "U", 0), ((1, 0), "U", 0), ((2, 0), "U", 0)],
                            [("red", (1, 0), "E")], players=("red",))
    assert report.final == {"red": 3}
    assert report.events[0].why.startswith("incomplete road: 3 tiles x 1")


def test_end_game_yellow_unfinished_monastery_with_four_neighbours_scores_5(build):
    report = build["score"](
        [((0, 0), "B", 0), ((1, 0), "B", 0), ((-1, 0), "B", 0), ((0, 1), "B", 0), ((1, 1), "A", 0)],
        [("yellow", (0, 0), "C")], players=("yellow",))
    assert report.final == {"yellow": 5}


def test_end_game_blue_unfinished_city_with_shield_scores_3(build):
    report = build["score"]([((0, 0), "M", 0), ((-1, 0), "E", 90)], [("blue", (0, 0), "N")],
                            players=("blue",))
    assert report.final == {"blue": 3}
    assert "2 tiles x 1 + 1 shield x 1" in report.events[0].why


def test_end_game_green_big_city_8_and_black_outnumbered_gets_nothing(build):
    tiles = [((0, 0), "E", 90), ((1, 0), "F", 0), ((2, 0), "G", 0), ((3, 0), "F", 0),
             ((4, 0), "R", 0), ((5, 0), "R", 0)]
    report = build["score"](tiles, [("green", (0, 0), "E"), ("green", (5, 0), "W"), ("black", (2, 0), "E")],
                            players=("green", "black"))
    assert report.final == {"green": 8, "black": 0}
    assert "majority (green 2, black 1)" in report.events[0].why


# --- "Bauernwertung" --------------------------------------------------------------------------
COLUMN = [((0, -1), "E", 180), ((0, 0), "H", 0), ((0, 1), "E", 0), ((0, 2), "E", 180)]


def test_farms_blue_6_red_3_and_the_unfinished_city_brings_nothing(build):
    report = build["score"](COLUMN, [("blue", (0, 0), "E"), ("red", (0, 1), "S")])
    assert report.final == {"blue": 6, "red": 3}
    red = [e for e in report.events if e.player == "red"]
    assert red[0].why.startswith("field touching 1 completed city x 3")


def test_farm_blue_scores_9_for_three_completed_cities(build):
    tiles = [((0, 0), "H", 0), ((1, 0), "H", 0), ((0, -1), "E", 180), ((0, 1), "E", 0), ((1, -1), "E", 180)]
    report = build["score"](tiles, [("blue", (1, 0), "W")], players=("blue",))
    assert report.final == {"blue": 9}


WIDE = [((0, -1), "E", 180), ((0, 0), "H", 0), ((0, 1), "E", 0), ((1, 0), "U", 90)]


def test_farm_majority_red_owns_big_field_6_blue_small_field_3(build):
    report = build["score"](WIDE, [("red", (0, 0), "W"), ("red", (1, 0), "W"), ("blue", (1, 0), "Sw"),
                                   ("blue", (0, -1), "N")])
    assert report.final == {"red": 6, "blue": 3}


def test_farm_tie_red_and_yellow_6_each_blue_3(build):
    report = build["score"](WIDE, [("red", (0, 0), "W"), ("red", (1, 0), "W"), ("yellow", (1, 0), "Sw"),
                                   ("yellow", (0, 0), "E"), ("blue", (0, -1), "N")],
                            players=("red", "yellow", "blue"))
    assert report.final == {"red": 6, "yellow": 6, "blue": 3}


def test_three_field_example_page(build):
    """Wiese 1: blue 6 (A, B); Wiese 2: red and blue 9 each (A, B, C; the fourth city is not
    finished); Wiese 3: yellow 12 (4 completed cities, one farmer more than black)."""
    tiles = [((0, 0), "E", 180), ((1, 0), "E", 180), ((0, 1), "H", 0), ((1, 1), "H", 0),
             ((0, 2), "E", 0), ((0, 3), "H", 90), ((1, 3), "E", 270), ((-1, 3), "E", 90),
             ((0, 4), "F", 0), ((1, 4), "K", 270), ((-1, 4), "J", 90)]
    farmers = [("blue", (0, 0), "N"), ("red", (0, 1), "W"), ("blue", (1, 1), "E"),
               ("yellow", (0, 2), "E"), ("yellow", (0, 3), "N"), ("black", (0, 2), "W")]
    report = build["score"](tiles, farmers, players=("red", "blue", "yellow", "black"))
    farm = [(e.player, e.points) for e in report.events if e.what == "field"]
    assert sorted(farm) == sorted([("blue", 6), ("red", 9), ("blue", 9), ("yellow", 12)])
    assert report.final == {"red": 9, "blue": 15, "yellow": 12, "black": 0}


def test_a_city_touching_a_field_on_several_tiles_counts_once(build):
    # the field of H(0,0) and H(1,0) touches city (0,-1)+(0,0) only once although it meets it twice
    tiles = [((0, 0), "H", 0), ((0, -1), "E", 180), ((0, 1), "E", 0)]
    report = build["score"](tiles, [("red", (0, 0), "E")], players=("red",))
    assert report.final == {"red": 6}


# --- The Festival ----------------------------------------------------------------------------
def test_festival_tile_takes_a_follower_back_instead_of_placing_one(build):
    from scorer import Game, parse_game
    doc = build["record"](((0, 0), "D", 0), [
        ("red", "U", (1, 0), 0, "E"),
        ("blue", "FE/RrRr", (2, 0), 0),
    ], expansions=["festival"])
    doc["turns"][1]["player"] = "red"
    doc["turns"][1]["festival"] = {"take_back": {"at": [1, 0], "on": "E"}}
    record = parse_game(doc)
    game = Game.from_record(record)
    for t in record.turns:
        game.play(t)
    assert game.figures == [] and game.supply["red"] == 7


def test_festival_take_back_refused_for_another_players_follower_or_a_plain_tile(build):
    from scorer import parse_game, replay
    doc = build["record"](((0, 0), "D", 0), [
        ("red", "U", (1, 0), 0, "E"),
        ("blue", "FE/RrRr", (2, 0), 0),
    ], expansions=["festival"])
    doc["turns"][1]["festival"] = {"take_back": {"at": [1, 0], "on": "E"}}
    with pytest.raises(IllegalMoveError, match="turn 2: festival: blue has no follower"):
        replay(parse_game(doc))
    doc["turns"][1].update({"player": "red", "tile": "U", "rot": 0})
    with pytest.raises(IllegalMoveError, match="no festival symbol"):
        replay(parse_game(doc))


def test_festival_needs_the_expansion_in_the_record(build):
    from scorer import FormatError, parse_game
    doc = build["record"](((0, 0), "D", 0), [("red", "FE/RrRr", (1, 0), 0)])
    with pytest.raises(FormatError, match=r"turns\[0\].tile: tile FE/RrRr needs the 'festival' expansion"):
        parse_game(doc)
    doc["expansions"] = ["festival"]
    doc["turns"][0]["festival"] = {"take_back": {"at": [0, 0], "on": "N"}}
    doc["expansions"] = []
    with pytest.raises(FormatError, match="festival"):
        parse_game(doc)


def test_position_state_is_what_the_game_shows(build):
    from scorer import Game, parse_game
    doc = build["record"](((0, 0), "E", 0), [("red", "E", (0, -1), 180, "S"), ("blue", "U", (1, 0), 90, "N")])
    record = parse_game(doc)
    game = Game.from_record(record)
    for t in record.turns:
        game.play(t)
    state = game.state()
    assert state.scores == {"red": 4, "blue": 0}
    report = Position(state).score()
    assert report.final == {"red": 4 + 0, "blue": 1}  # blue's incomplete 1-tile road at the end
