"""Tests of reading photos of *Carcassonne: The Castle*: the wall's outline, the batched
homography fit, the templates of castle tiles, decoding with only paths that must meet, and the
reader end to end on synthetic castle photos (and its refusal of a base-game photo).

The synthetic photos use seeds 30000+ (the castle reader's tuning seeds are 20000-20023; the
benchmark's test split, ``bench/bench_castle.py``, is 120000+)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from bench.bench_castle import grid_error
from scorer import State
from scorer.castle_rules import load_layout
from vision.castle import _homographies, wall_outline
from vision.compare import same_rotation
from vision.decode import compatible, decode, edge_signature
from vision.errors import BoardNotFoundError
from vision.reader import BoardReader, ReadDetail
from vision.templates import CITY, FIELD, OTHER, ROAD, Template, render

STRICT = frozenset({"path"})

#: (seed, tiles) of the end-to-end photos: a wood, a gloss and a cloth table, tilted 17.8, 13.5
#: and 7.4 degrees. Measured when written: every tile's cell centre within 0.05 tile sides of its
#: truth, occupancy exact on all but one extra space (30107), and tiles right (type and
#: rotation) 10 of 20, 33 of 35, 36 of 50 (79 of 105 in all).
PHOTOS = ((30104, 20), (30107, 35), (30102, 50))


@pytest.fixture(scope="module")
def reader() -> BoardReader:
    """One reader for the module: its castle templates are built once."""
    return BoardReader()


@pytest.fixture(scope="module")
def castle_templates(reader: BoardReader) -> list[Template]:
    return reader.templates("castle", ())


def _index(templates: list[Template]) -> dict[tuple[str, int], int]:
    return {(str(t.tile.id), t.rot): k for k, t in enumerate(templates)}


# ---------------------------------------------------------------------------------------------
# the wall's outline
@pytest.mark.parametrize("res", [40, 100])
def test_wall_outline_of_the_standard_layout_is_the_interior_grown_by_the_depth(res: int) -> None:
    """10 corners at depth 0.73 (the notch on the south side, one space wide, is narrower than
    two depths and fills); its bounding box is the interior's grown by the depth on every side,
    every edge axis-parallel, corners alternating horizontal and vertical edges, wound
    counter-clockwise on screen (y down) as :func:`cv2.findContours` winds outer contours.

    The outline is traced on a raster of ``res`` pixels per tile side, so it is exact to about
    a pixel (the inner corners keep a one-pixel step): the tolerance is 1.5 pixels."""
    layout = load_layout("standard")
    depth = 0.73
    poly = wall_outline(layout, depth, res=res)
    tol = 1.5 / res
    assert poly.shape == (10, 2)
    cells = np.array(sorted(layout.cells))
    lo = cells.min(0) - depth  # a cell (c, r) spans [c, c + 1] x [r, r + 1]
    hi = cells.max(0) + 1 + depth
    np.testing.assert_allclose(poly.min(0), lo, atol=tol)
    np.testing.assert_allclose(poly.max(0), hi, atol=tol)
    step = np.roll(poly, -1, axis=0) - poly  # the closing edge included
    along = np.abs(step).max(1)
    across = np.abs(step).min(1)
    assert (along > 0.2).all(), "a degenerate (zero-length) edge"
    assert (across <= tol).all(), f"edges not axis-parallel: {step[across > tol]}"
    horizontal = np.abs(step[:, 0]) > np.abs(step[:, 1])
    assert (horizontal != np.roll(horizontal, -1)).all(), "two consecutive edges run the same way"
    x, y = poly[:, 0], poly[:, 1]
    signed = 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
    assert signed < 0  # counter-clockwise on screen (y down) gives a negative shoelace sum
    # the outline encloses every interior cell, with the depth of wall around it
    contour = poly.astype(np.float32).reshape(-1, 1, 2)
    for c, r in cells:
        for px, py in ((c - depth + 2 * tol, r - depth + 2 * tol), (c + 1 + depth - 2 * tol, r + 1 + depth - 2 * tol)):
            assert cv2.pointPolygonTest(contour, (float(px), float(py)), False) >= 0, (c, r)


def test_wall_outline_without_depth_keeps_the_notch() -> None:
    """At (almost) no depth the outline follows the cells themselves: the 14 corners of the
    layout (a 10 x 8 block less three corner spaces and a one-space notch)."""
    layout = load_layout("standard")
    poly = wall_outline(layout, 0.0, res=100)
    assert len(poly) == 14
    cells = np.array(sorted(layout.cells))
    np.testing.assert_allclose(poly.min(0), cells.min(0), atol=0.015)
    np.testing.assert_allclose(poly.max(0), cells.max(0) + 1, atol=0.015)


# ---------------------------------------------------------------------------------------------
# the batched homography fit
def _random_homography(rng: np.random.Generator) -> np.ndarray:
    """A photo-like homography: scale, rotation, shift and a moderate perspective."""
    a = rng.uniform(-np.pi, np.pi)
    s = rng.uniform(40.0, 120.0)
    H = np.array([[s * np.cos(a), -s * np.sin(a), rng.uniform(100, 900)],
                  [s * np.sin(a), s * np.cos(a), rng.uniform(100, 700)],
                  [rng.uniform(-0.02, 0.02), rng.uniform(-0.02, 0.02), 1.0]])
    return H


def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    q = np.c_[pts, np.ones(len(pts))] @ H.T
    return q[:, :2] / q[:, 2:3]


def test_homographies_recover_a_known_homography_from_ten_exact_points() -> None:
    rng = np.random.default_rng(7)
    H = _random_homography(rng)
    src = rng.uniform(-1.0, 11.0, (10, 2))
    dst = _apply(H, src)
    got = _homographies(src[None], dst[None])
    assert got.shape == (1, 3, 3)
    np.testing.assert_allclose(got[0], H / H[2, 2], rtol=1e-6, atol=1e-6)
    # and it maps points it was not fitted on where H does
    probe = rng.uniform(0.0, 10.0, (20, 2))
    np.testing.assert_allclose(_apply(got[0], probe), _apply(H, probe), atol=1e-5)


def test_homographies_fit_a_batch_each_on_its_own_points() -> None:
    rng = np.random.default_rng(11)
    Hs = [_random_homography(rng) for _ in range(6)]
    src = rng.uniform(-1.0, 11.0, (6, 10, 2))
    dst = np.stack([_apply(H, s) for H, s in zip(Hs, src)])
    got = _homographies(src, dst)
    assert got.shape == (6, 3, 3)
    for g, H in zip(got, Hs):
        np.testing.assert_allclose(g, H / H[2, 2], rtol=1e-6, atol=1e-6)
    # swapping two batch members' targets changes their fits: nothing is shared across the batch
    swapped = _homographies(src[[0, 1]], dst[[1, 0]])
    assert not np.allclose(swapped[0], got[0], atol=1e-3)


# ---------------------------------------------------------------------------------------------
# templates of castle tiles
def test_castle_tiles_render_courts_houses_paths_and_towers(reader: BoardReader) -> None:
    cfg = reader.cfg["classify"]
    n = 12
    mid = [n // 2 - 1, n // 2]  # the two middle columns (the path is about 0.14 tile sides wide)
    side = list(range(0, 4)) + list(range(n - 4, n))
    pp, pp_segs = render(reader.catalog.tiles["CA/PP"], n, cfg)  # path N-S between two courts
    assert (pp[:, mid] == ROAD).all()
    assert (pp[:, side] == FIELD).all()
    # the two courts are two segments, one each side of the path
    assert len(set(pp_segs[:, 0])) == 1 and len(set(pp_segs[:, -1])) == 1 and pp_segs[0, 0] != pp_segs[0, -1]
    pph, _ = render(reader.catalog.tiles["CA/PPh"], n, cfg)  # the same with a house on the east
    assert (pph[:, mid] == ROAD).all()
    assert (pph[:, n - 4:] == CITY).all()
    assert (pph[:, :4] == FIELD).all()
    t, _ = render(reader.catalog.tiles["CA/T"], n, cfg)  # all tower
    assert (t == OTHER).all()


# ---------------------------------------------------------------------------------------------
# decoding: only paths must meet
def test_edge_compatibility_under_strict_paths(castle_templates: list[Template]) -> None:
    """A court meeting a house is fine in The Castle (only paths must continue), not in a base
    game's sense; a path running into a court is wrong either way."""
    idx = _index(castle_templates)

    def sig(key: tuple[str, int], strict: frozenset[str] | None) -> dict[str, tuple[str | None, ...]]:
        return edge_signature(castle_templates[idx[key]], strict)

    house_east = ("CA/PPh", 0)  # path N-S, house on the east, court on the west
    court_west = ("CA/PP", 0)  # path N-S, courts east and west
    assert sig(house_east, None)["E"] == ("house",) * 3
    assert sig(house_east, STRICT)["E"] == (None,) * 3
    # cell (0, 0) = house_east, cell (1, 0) = court_west: the house's east edge meets a court
    assert compatible(sig(house_east, STRICT), sig(court_west, STRICT), "E")
    assert compatible(sig(court_west, STRICT), sig(house_east, STRICT), "W")
    assert not compatible(sig(house_east, None), sig(court_west, None), "E")
    # a path leaving east (the same tile turned a quarter) into the west court of its neighbour
    path_east = ("CA/PP", 90)
    assert sig(path_east, STRICT)["E"] == (None, "path", None)
    for strict in (STRICT, None):
        assert not compatible(sig(path_east, strict), sig(court_west, strict), "E")
    # and path meets path under strict
    assert compatible(sig(path_east, STRICT), sig(path_east, STRICT), "E")


def _unary(templates: list[Template], wants: dict[tuple[int, int], dict[tuple[str, int], float]]
           ) -> dict[tuple[int, int], np.ndarray]:
    """Unary scores: -10 for every template but the listed ones."""
    idx = _index(templates)
    out = {}
    for c, scores in wants.items():
        u = np.full(len(templates), -10.0)
        for key, s in scores.items():
            u[idx[key]] = s
        out[c] = u
    return out


def test_decode_with_strict_paths_lets_a_house_meet_a_court_but_not_a_path(
        reader: BoardReader, castle_templates: list[Template]) -> None:
    """Between two all-court tiles, a middle cell whose evidence slightly prefers a tile whose
    house meets the east neighbour's court keeps it under ``strict`` (and changes it when every
    kind must match); one slightly preferring a path that runs into both courts is changed."""
    box = reader.catalog.box("castle")
    cfg = reader.cfg["decode"]
    k = int(reader.cfg["classify"]["top_k"])
    court = {("CA/C", 0): 3.0}
    house = _unary(castle_templates, {(0, 0): court, (2, 0): court,
                                      (1, 0): {("CA/PPh", 0): 3.5, ("CA/PP", 0): 3.0}})
    strict = decode(house, castle_templates, box, cfg, k, strict=STRICT)
    assert castle_templates[strict.choice[(1, 0)]].tile.id == "CA/PPh"
    loose = decode(house, castle_templates, box, cfg, k)
    assert castle_templates[loose.choice[(1, 0)]].tile.id == "CA/PP"
    path = _unary(castle_templates, {(0, 0): court, (2, 0): court,
                                     (1, 0): {("CA/PP", 90): 3.5, ("CA/PP", 0): 3.0}})
    dec = decode(path, castle_templates, box, cfg, k, strict=STRICT)
    chosen = castle_templates[dec.choice[(1, 0)]]
    assert (chosen.tile.id, chosen.rot) == ("CA/PP", 0)


# ---------------------------------------------------------------------------------------------
# end to end on synthetic photos
@dataclass(frozen=True)
class _Case:
    seed: int
    truth: State
    image_shape: tuple[int, ...]
    detail: ReadDetail


@pytest.fixture(scope="module")
def castle_reads(reader: BoardReader) -> list[_Case]:
    """The photos of :data:`PHOTOS`, generated (default preset, procedural art, 1600 x 1200)
    and read as The Castle."""
    from vision.synth import generate, preset
    from vision.synth.positions import random_castle_state

    params = preset("default").with_art("procedural").with_size(1600, 1200)
    out = []
    for seed, tiles in PHOTOS:
        ph = generate(random_castle_state(seed, tiles=tiles), params, seed=seed)
        out.append(_Case(seed, ph.reading.state, ph.image.shape, reader.read_detail(ph.jpeg, game="castle")))
    return out


def test_castle_photo_wall_gives_every_cell(castle_reads: list[_Case]) -> None:
    """The grid from the wall puts every truth tile's cell centre within 0.15 tile sides of the
    centre of the tile as photographed (the truth quads, original-image pixels)."""
    for case in castle_reads:
        err = grid_error(case.detail, case.truth, case.image_shape[1])
        assert err < 0.15, (case.seed, err)


def test_castle_photo_reads_the_occupied_spaces_and_the_layout(castle_reads: list[_Case]) -> None:
    standard = load_layout("standard")
    for case in castle_reads:
        state = case.detail.reading.state
        assert state.game == "castle"
        assert state.layout == standard
        read = {t.at for t in state.tiles}
        truth = {t.at for t in case.truth.tiles}
        assert read <= set(standard.cells)
        assert len(read ^ truth) <= 1, (case.seed, sorted(read - truth), sorted(truth - read))
        # white figures are found by what they add to the tiles; the reading says many are missed
        assert any(w.startswith("white figures are found by what they add") for w in case.detail.reading.warnings)
        assert {m.player for m in state.meeples} <= {"black", "white"}


def test_castle_photo_reads_the_black_keep_not_as_a_figure(castle_reads: list[_Case]) -> None:
    """A keep (Palas) read is the truth's, on its cell, and no figure is reported there in its
    place; on these photos black's keep is found on 30104 and 30102 (measured; 30107's is not)."""
    found = 0
    for case in castle_reads:
        read = case.detail.reading.state
        for player, cell in read.palas.items():
            assert case.truth.palas.get(player) == cell, (case.seed, player, cell)
            truth_there = sum(1 for m in case.truth.meeples if m.at == cell and m.player == player)
            read_there = sum(1 for m in read.meeples if m.at == cell and m.player == player)
            assert read_there <= truth_there, (case.seed, cell)
            found += 1
    assert found >= 2


def test_castle_photo_reads_most_tiles_right(castle_reads: list[_Case]) -> None:
    """Tiles right (type and rotation, same cell; the layout fixes the frame, so no shift is
    searched). Measured 79 of 105 (0.75), the worst photo 10 of 20: the bar is half of that."""
    right = total = 0
    for case in castle_reads:
        got = {t.at: t for t in case.detail.reading.state.tiles}
        ok = sum(1 for t in case.truth.tiles
                 if t.at in got and got[t.at].tile.id == t.tile.id and same_rotation(t.tile, got[t.at].rot, t.rot))
        assert ok >= 0.25 * len(case.truth.tiles), (case.seed, ok, len(case.truth.tiles))
        right += ok
        total += len(case.truth.tiles)
    assert right >= 0.37 * total, (right, total)


def test_a_base_game_photo_has_no_castle_wall(reader: BoardReader) -> None:
    from vision.synth import generate, preset

    ph = generate(30200, preset("default").with_size(1600, 1200), seed=30200)
    with pytest.raises(BoardNotFoundError):
        reader.read_detail(ph.jpeg, game="castle")


# ---------------------------------------------------------------------------------------------
# the interior's colour steps and marks, on made-up pixels
def _castle_cfg(reader: BoardReader) -> dict:
    return reader.cfg["castle"]


def test_register_to_photo_moves_the_seeds_into_the_photos_light(reader: BoardReader) -> None:
    """Tiles photographed darker and yellower than the seeds: the registered seeds' mix sits on
    the pixels' median, and their order by lightness is kept."""
    from vision.castle import register_to_photo

    cfg = _castle_cfg(reader)
    seeds = np.array([cfg["prototypes"][k] for k in ("court", "house", "path", "tower")], np.float32)
    rng = np.random.default_rng(3)
    share = np.array([cfg["class_share"][k] for k in ("court", "house", "path", "tower")], float)
    labels = rng.choice(4, size=4000, p=share / share.sum())
    px = seeds[labels] * np.array([0.7, 1.0, 1.0], np.float32) + np.array([0, 2, 12], np.float32)
    px += rng.normal(0, 2, px.shape).astype(np.float32)
    out = register_to_photo(px, seeds, cfg)
    med = np.median(px, axis=0)
    mix = (share / share.sum()) @ out.astype(float)
    assert abs(mix[0] - med[0]) < 0.1 * med[0]
    np.testing.assert_allclose(mix[1:], med[1:], atol=4.0)
    assert list(np.argsort(out[:, 0])) == list(np.argsort(seeds[:, 0]))
    # the raw seeds would be far off: the court seed is 0.3 of its lightness too light
    assert abs(out[0, 0] - 0.7 * seeds[0, 0]) < abs(seeds[0, 0] - 0.7 * seeds[0, 0])


def test_even_light_brings_both_halves_of_a_lamp_lit_castle_together() -> None:
    from vision.castle import even_light

    patch = 8
    occupied = np.ones((2, 6), bool)
    lab = np.zeros((2 * patch, 6 * patch, 3), np.float32)
    lab[...] = (200.0, 126.0, 158.0)
    lab[:, 3 * patch:] = (150.0, 132.0, 170.0)  # the right half darker and warmer
    ignore = np.zeros(lab.shape[:2], bool)
    out = even_light(lab, ignore, occupied, patch, 1)
    left, right = out[:, : patch].reshape(-1, 3).mean(0), out[:, -patch:].reshape(-1, 3).mean(0)
    before = np.abs(lab[0, 0] - lab[0, -1])
    after = np.abs(left - right)
    assert (after < 0.25 * before).all(), (before, after)
    assert even_light(lab, ignore, occupied, patch, 0) is lab  # reach 0: the photo's own colours


def test_a_market_stall_counts_for_the_tile_with_a_market(reader: BoardReader,
                                                          castle_templates: list[Template]) -> None:
    """One space of plain court paint: the all-court tile without a market is favoured over its
    market twin; with a small vivid stall painted in, the twin is."""
    from vision.castle import mark_evidence

    cfg = _castle_cfg(reader)
    n, patch = 16, 64
    protos = np.array([cfg["prototypes"][k] for k in ("court", "house", "path", "tower")], np.float32)
    lab = np.zeros((patch, patch, 3), np.float32)
    lab[...] = protos[0]
    occupied = np.ones((1, 1), bool)
    ignore = np.zeros((patch, patch), bool)
    idx = _index(castle_templates)
    plain, market = idx[("CA/C", 0)], idx[("CA/Cm", 0)]
    ev = mark_evidence(lab, ignore, occupied, protos, castle_templates, n, cfg)
    assert ev[0, plain] > ev[0, market]
    lab[30:36, 24:36] = (120.0, 175.0, 160.0)  # a red stall
    ev = mark_evidence(lab, ignore, occupied, protos, castle_templates, n, cfg)
    assert ev[0, market] > ev[0, plain]


def test_a_narrower_wall_of_another_edition_still_gives_the_cells(reader: BoardReader,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The synthetic wall drawn 22 mm deep instead of the model's 34: the outer outline fits at
    the model's depth on a grid shrunk by up to a third of a tile; moved onto the tiles' seams
    (``castle.refine_on_seams``), every truth tile's cell is within 0.15 tile sides again."""
    import vision.synth.scene as scene
    from vision.synth import generate, preset
    from vision.synth.positions import random_castle_state

    drawn = scene._wall_geometry

    def narrow(state: State, pitch: float) -> object:
        w = drawn(state, pitch)
        return None if w is None else scene._Wall(cells=w.cells, start_fields=w.start_fields, pitch=w.pitch,
                                                  depth=22.0)

    monkeypatch.setattr(scene, "_wall_geometry", narrow)
    seed = 30104
    ph = generate(random_castle_state(seed, tiles=30), preset("default").with_art("procedural").with_size(1600, 1200),
                  seed=seed)
    detail = reader.read_detail(ph.jpeg, game="castle")
    err = grid_error(detail, ph.reading.state, ph.image.shape[1])
    assert err < 0.15, err


def test_white_figures_are_found_by_what_they_add_to_the_tiles(castle_reads: list[_Case]) -> None:
    """White figures have no colour rule (as pale as the paths): they are found as blobs new to
    the tiles read with a pale lit part. On these three photos (18 white figures) 8 are found
    on their cell and 2 are read where none stands (measured); many are missed, which the
    reading says."""
    right = wrong = 0
    for case in castle_reads:
        truth = {m.at for m in case.truth.meeples if m.player == "white"}
        read = {m.at for m in case.detail.reading.state.meeples if m.player == "white"}
        right += len(read & truth)
        wrong += len(read - truth)
    assert right >= 6 and wrong <= 3, (right, wrong)


def test_novelty_is_what_the_tile_does_not_explain() -> None:
    """:func:`vision.castle.novelty_map`: on a space whose template draws a court, pixels of the
    court's colour are not new, a grey square (a figure) is, and off the tiles nothing is."""
    from vision.castle import InteriorEvidence, novelty_map
    from vision.locate import Grid

    patch, n = 32, 16
    protos = np.array([[200, 127, 160], [180, 135, 145], [190, 128, 136], [140, 130, 132]], np.float32)
    lab = np.zeros((patch, 2 * patch, 3), np.float32)
    lab[:, :] = protos[0]
    lab[10:20, 10:20] = (235, 128, 128)  # a white figure on the court
    ev = InteriorEvidence({}, {}, protos, None, lab, np.array([[True, False]]))

    class Court:  # a template whose every point is court (class 0)
        classes = np.zeros((n, n), int)

    grid = Grid(H=np.eye(3), cols=range(0, 2), rows=range(0, 1), pitch_px=float(patch))
    cfg = {"novelty_lab_weights": [0.5, 1.0, 1.0], "novelty_slack": 0.06}
    nov = novelty_map(ev, grid, {(0, 0): Court()}, patch, cfg)
    assert nov[:, :patch][lab[:, :patch, 0] == protos[0][0]].max() < 1e-3
    assert nov[12:18, 12:18].min() > 30
    assert float(nov[:, patch:].max()) == 0.0
