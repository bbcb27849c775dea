"""The photo reader's facade: load once, read many photos, return the rules library's types.

``BoardReader().read(photo)`` runs the stages (load, locate, figures, classify, decode) and
returns a :class:`scorer.Reading` (a photo of The Castle: its wall gives the grid instead,
:mod:`vision.castle`); ``overlay`` draws what was read onto the photo. The command
line (``carcam read``) and the web app both use this class.
"""

from __future__ import annotations

import copy
import os
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from scorer import Kind, MeepleEntry, Position, Reading, State, TileEntry, load_catalog
from scorer.base_rules import PLAYER_COLOURS
from scorer.catalog import UNKNOWN_TILE
from scorer.errors import CarcamError
from scorer.geometry import EDGES, SLOTS, joined, neighbour, rotate_cell, rotate_slot

from .classify import classify_cells, edgeless_cells, shield_sign, shield_twinned, table_samples, warp_board
from .colours import to_lab
from .compare import same_rotation
from .config import load_config
from .decode import decode
from .errors import BoardNotFoundError
from .figures import (
    Blob,
    figures_mask,
    find_figures,
    segment_distance,
    segment_offset,
    shield_search_mask,
    sliver_shape,
)
from .load import load_image
from .locate import Grid, board_region, coarser_grid, locate_candidates, same_grid, tile_mask
from .outline import outline_grids
from .refine import refine_grid
from .templates import Template, build_templates

_SLOT_POS = {"Nw": (0.25, 0.0), "N": (0.5, 0.0), "Ne": (0.75, 0.0), "En": (1.0, 0.25), "E": (1.0, 0.5),
             "Es": (1.0, 0.75), "Se": (0.75, 1.0), "S": (0.5, 1.0), "Sw": (0.25, 1.0), "Ws": (0.0, 0.75),
             "W": (0.0, 0.5), "Wn": (0.0, 0.25), "C": (0.5, 0.5), "I": (0.5, 0.5)}
#: How far inside its tile (tile sides) a foot measured just beyond the tile's edge is put
#: (``figures.edge_foot_max``): on the segment along that edge.
EDGE_INSET = 0.01


@dataclass(frozen=True)
class ReadDetail:
    """A reading with what it was read on: the chosen grid, the working image, and the grid cell
    of the reading's cell [0, 0] (``origin``).

    ``evidence`` is what the photo says about each of the reading's cells on its own, before the
    board is decoded as a whole (no neighbours, no box counts, no prior): per cell (the
    reading's frame), the classifier's score of every tile of the game at each of its distinct
    rotations, ``{(tile_id, rot): score}`` (a log-likelihood scaled by ``classify.scale``, higher
    is likelier). A follower that knows which tiles can lie on a cell (the previous board, the
    box) chooses among them with it (:func:`scorer.follow.follow_step`, ``evidence``)."""

    reading: Reading
    grid: Any
    work: np.ndarray
    origin: tuple[int, int]
    evidence: dict[tuple[int, int], dict[tuple[str, int], float]] | None = None
    #: the figures (cell, player, slot; the reading's frame) whose segment is the one beside
    #: their measured foot (``figures.stand_snap``) rather than the one under it: a weaker
    #: sighting of the segment (a follower weighs it less, :func:`scorer.follow.follow_step`);
    #: also the figures read lying in a field by a narrow margin whose foot would be on a road
    #: of their tile were they standing (``figures.flat_doubt_rect``), the standing ones at
    #: the wall between a field and a city or a monastery (``figures.wall_doubt``) or in a
    #: field beside a road (``figures.road_doubt``), and those read standing on a road at a slant
    #: whose outline is a lying farmer's, with its footprint in a field (``Blob.lying_foot``)
    snapped: frozenset[tuple[tuple[int, int], str, str]] = frozenset()
    #: figures too pale to read (cell, player, slot; the reading's frame) on cells where the
    #: reading has none of their colour: see :meth:`BoardReader._faint`
    faint: frozenset[tuple[tuple[int, int], str, str]] = frozenset()


class BoardReader:
    """Reads table photos into :class:`scorer.Reading`; templates are built once per game."""

    def __init__(self, config: dict[str, Any] | None = None, profile: dict[str, Any] | None = None) -> None:
        self.cfg = load_config(config)
        self.profile = profile
        self.catalog = load_catalog()
        self._templates: dict[tuple[str, tuple[str, ...]], list[Template]] = {}

    def templates(self, game: str, expansions: tuple[str, ...]) -> list[Template]:
        """Appearance models of every tile in the box of this game (cached)."""
        key = (game, tuple(sorted(expansions)))
        if key not in self._templates:
            box = self.catalog.box(game, expansions)
            tiles = [self.catalog.tiles[t] for t in box]
            self._templates[key] = build_templates(tiles, int(self.cfg["classify"]["points"]), self.cfg["classify"])
        return self._templates[key]

    # -----------------------------------------------------------------------------------------
    def read(self, image: bytes | str | os.PathLike[str] | np.ndarray, game: str = "base",
             expansions: tuple[str, ...] | list[str] = (), players: tuple[str, ...] | list[str] | None = None,
             prior: State | None = None) -> Reading:
        """Read a photo (bytes, path or BGR array) into a reading of ``game``."""
        return self.read_detail(image, game, expansions, players, prior).reading

    def read_detail(self, image: bytes | str | os.PathLike[str] | np.ndarray, game: str = "base",
                    expansions: tuple[str, ...] | list[str] = (), players: tuple[str, ...] | list[str] | None = None,
                    prior: State | None = None) -> ReadDetail:
        """Like :meth:`read`, also returning the grid the reading was made on and the working
        image, so calibration can lay the truth over exactly the cells that were read."""
        expansions = tuple(expansions)
        lcfg = self.cfg["load"]
        img = load_image(image, int(lcfg["max_pixels"]), int(lcfg["min_side"]), int(lcfg["work_side"]), fast=True)
        work = img.work
        templates = self.templates(game, expansions)
        box = self.catalog.box(game, expansions)
        if game == "castle":
            return self._read_castle(img, templates, box, players, prior)
        box_tiles = sum(box.values())
        memo: dict[Any, Any] = {}  # what the attempts on this photo share (see find_figures)
        read_before: dict[int, tuple[Any, ...]] = {}  # attempts made, by their grid's id

        def attempt(h: tuple[Grid, np.ndarray, dict[str, Any]]) -> tuple[Any, ...]:
            """Grid hypothesis ``h`` (grid, tile mask, locate settings) classified and scored
            (once: the quick path's attempt is not made again)."""
            got = read_before.get(id(h[0]))
            if got is None:
                got = read_before[id(h[0])] = self._attempt(work, h[0], h[1], h[2], templates, box, players, prior,
                                                            memo)
            return got

        located: dict[int, Any] = {}  # the variants located so far, by their index
        shared: dict[str, Any] = {}  # rectifications the variants share (locate._shared_rectify)
        quick = self._quick_attempt(work, attempt, box_tiles, templates, prior, located, shared)
        best = quick if quick is not None else self._searched_attempt(
            work, attempt, box_tiles, templates, prior, located, shared)
        _, grid, blobs, unary, dec, best_ll, tilecol = best
        drawing = int(self.cfg["figures"].get("place_drawing", 0))
        ccfg = self.cfg["classify"]
        doubt = float(self.cfg["decode"]["doubtful_below"])
        apart = _groups_apart(unary, best_ll, dec.confidence, float(ccfg["unknown_min_loglik"]), doubt,
                              self.cfg["read"], {c: templates[k].tile.id for c, k in dec.choice.items()}, box)
        if apart:
            unary = {c: u for c, u in unary.items() if c not in apart}
        # board frame: cells start at the bounding box's top-left
        c0 = min(c[0] for c in unary)
        r0 = min(c[1] for c in unary)
        inv = np.linalg.inv(grid.H)
        s = 1.0 / img.scale
        tiles: list[TileEntry] = []
        warnings: list[str] = []
        chosen: dict[tuple[int, int], Template] = {}
        if apart:
            warnings.append(f"{len(apart)} cells apart from the board, most of them not recognised or doubtful or "
                            "more of a tile than the box holds (a score board, the box, a reflection?), are left out")
        for c in sorted(unary, key=lambda c: (c[1], c[0])):
            t = templates[dec.choice[c]]
            at = (c[0] - c0, c[1] - r0)
            quad = _quad(inv, c, s)
            conf = dec.confidence[c]
            if best_ll[c] < float(ccfg["unknown_min_loglik"]):
                tiles.append(TileEntry(at, UNKNOWN_TILE, 0, round(conf * 0.5, 4), quad))
                warnings.append(f"cell {list(at)}: tile not recognised (not a tile of this game?)")
                continue
            chosen[c] = t.drawn_as(drawing)  # the segments figures are placed on
            tiles.append(TileEntry(at, t.tile, t.rot, conf, quad))
            if conf < doubt:
                alt = [templates[k] for k in dec.candidates[c] if k != dec.choice[c]][:1]
                more = f" (or {alt[0].tile.id} rot {alt[0].rot})" if alt else ""
                warnings.append(f"cell {list(at)}: doubtful, read {t.tile.id} rot {t.rot}{more}, "
                                f"confidence {conf:.2f}")
        snapped: set[tuple[tuple[int, int], str, str]] = set()
        meeples = self._meeples(blobs, grid, chosen, c0, r0, s, snapped)
        # the second look shares the photo's blurred and converted images (not its colour masks)
        images = {k: memo[k] for k in ("blur", "hsv", "lab") if k in memo}
        faint = self._faint(work, grid, tilecol, chosen, c0, r0, s, meeples, players, images, blobs)
        seen = sorted({m.player for m in meeples}, key=lambda p: PLAYER_COLOURS.index(p))
        state = State(game=game, expansions=expansions, players=tuple(players) if players else tuple(seen),
                      tiles=tuple(tiles), meeples=tuple(meeples))
        for conflict in Position(state).status()[:10]:
            warnings.append(f"check: {conflict}")
        reading = Reading(state=state, image=img.orig_size, warnings=tuple(warnings))
        return ReadDetail(reading=reading, grid=grid, work=work, origin=(c0, r0), snapped=frozenset(snapped),
                          evidence=cell_evidence(unary, templates, (c0, r0)), faint=faint)

    def _faint(self, work: np.ndarray, grid: Any, tilecol: np.ndarray, chosen: dict[tuple[int, int], Template],
               c0: int, r0: int, s: float, meeples: list[MeepleEntry], players: tuple[str, ...] | list[str] | None,
               images: dict[Any, Any] | None = None, blobs: Sequence[Blob] = ()
               ) -> frozenset[tuple[tuple[int, int], str, str]]:
        """The figures a second look with the saturation of ``figures.faint_colours`` (of
        ``players``) asked ``figures.faint_sat_drop`` lower finds on read tiles where the reading
        has none of that colour (cell, player, slot; the reading's frame): a figure in a dim
        corner or a lamp's glare, its paint paler than the colour's rule (photo games 2019 and
        2024: the last turn's blue farmer and monk at saturation 88-120). Too weak to read as
        figures (a paler blue rule read as figures costs tiles: test split), they are what a
        follower asks the players about on a new tile (:func:`scorer.follow.follow_step`,
        ``faint``). Blue and black only by default (black with its own rule, ``faint`` in its
        colour's configuration: grey in glare): a paler red, yellow or green rule finds the
        tiles' own browns, sands and grass (the real full72 photo: 14 such). ``images``: what
        :func:`vision.figures.find_figures` keeps of the photo apart from its colour masks.

        So are the figures of the players' colours among ``blobs`` (the photo's own look) placed
        with ``figures.edge_foot_alone_max`` widened to ``figures.faint_edge_foot_max``: a
        figure at the layout's edge, leaning off it, its foot and middle beyond the tile (fresh
        photo game 3792: blue's last thief at the end of a P's road, its foot 0.06 tile off, was
        never read, blue a point short). Read as figures they are too many: a player's supply
        stands beside the board too (tuning photos 5033, 5034 and 5040 read a false figure each
        at 0.08)."""
        have = {(m.at, m.player) for m in meeples}
        found: set[tuple[tuple[int, int], str, str]] = set()
        fcfg = self.cfg["figures"]
        edge = float(fcfg.get("faint_edge_foot_max", 0.0))
        if edge > 0 and players:
            wide = {**fcfg, "edge_foot_alone_max": edge, "edge_foot_max": max(edge, float(fcfg.get("edge_foot_max", 0.0)))}
            found |= {(m.at, m.player, m.on) for m in self._meeples([b for b in blobs if b.colour in players], grid,
                                                                      chosen, c0, r0, s, fcfg=wide)}
        drop = float(fcfg.get("faint_sat_drop", 0.0))
        # only the players' colours, and none when they are not given: nothing follows a game then
        looked = [c for c in fcfg.get("faint_colours", ()) if players and c in players]
        if drop > 0 and looked:
            paler = copy.deepcopy(fcfg)
            for spec in paler["colours"].values():
                if "faint" in spec:  # a colour with a rule of its own for the second look
                    spec.update(spec.pop("faint"))
                elif "sat" in spec:
                    spec["sat"] = max(0.0, float(spec["sat"]) - drop)
            pale = find_figures(work, grid, tilecol, paler, tuple(looked), dict(images or {}))
            found |= {(m.at, m.player, m.on) for m in self._meeples(pale, grid, chosen, c0, r0, s)}
        return frozenset(f for f in found if (f[0], f[1]) not in have)

    def _quick_attempt(self, work: np.ndarray, attempt: Callable[[tuple[Grid, np.ndarray, dict[str, Any]]], Any],
                       box_tiles: int, templates: list[Template], prior: State | None, located: dict[int, Any],
                       shared: dict[str, Any]) -> tuple[Any, ...] | None:
        """The first locate variant's first grid, read alone, when it reads the board so well that
        the other grids could not do better (``read.quick_*``), else None (the full search,
        :meth:`_searched_attempt`, follows, reusing what was done here: ``located`` gets the
        variant located). Locating every variant and reading three grids is most of a photo's
        time, while on most photos the first grid read is the one chosen: a clean reading of
        at least ``quick_min_cells`` cells (no more than the box holds), scoring
        ``quick_accept`` a cell or more (a sure cell scores 1, a doubtful one -0.5, a conflict
        -2), its cells holding ``quick_coverage`` of the tile-coloured pixels (a grid a little
        off the pitch reads part of the board well), as many cells as the grid check judged
        board within ``quick_cells_agree`` of them (the real full-box photo's first grid, at
        twice the pitch and 2 board cells by the check, read 32 cells of 4 tiles each at 0.95 a
        cell), and, following a game, fitting every tile of the previous board
        (:func:`prior_fit`). A first grid whose cells form aligned blocks or outnumber the box
        may split every tile (a half pitch): its coarser sibling is the one read, as the search
        reads it too."""
        rcfg = self.cfg["read"]
        per_cell = float(rcfg.get("quick_accept", 0.0))
        if per_cell <= 0:
            return None
        lcfg = {**self.cfg["locate"], **self.cfg.get("locate_variants", [{}])[0]}
        try:
            found = locate_candidates(work, lcfg, shared)
        except BoardNotFoundError as exc:
            located[0] = exc
            return None
        located[0] = found
        cands, tilecol = found
        if not cands:
            return None
        def may_split(g: Grid) -> bool:
            return g.blocks <= float(rcfg["split_max"]) or g.board_cells > box_tiles

        grid: Grid | None = cands[0][1]
        if may_split(grid):
            # it may split every tile (a half pitch): its coarser sibling, as the search reads too
            grid = coarser_sibling(cands, grid, lcfg["coarse_factors"])
            if grid is None or may_split(grid):
                return None
        if grid.board_cells < (1 - float(rcfg["quick_cells_agree"])) * int(rcfg["quick_min_cells"]):
            return None  # too few board cells by the grid check for a reading to agree with it
        try:
            a = attempt((grid, tilecol, lcfg))
        except BoardNotFoundError:
            return None
        n = len(a[3])
        if n < int(rcfg["quick_min_cells"]) or n > box_tiles or a[0] < per_cell * n:
            return None
        if abs(grid.board_cells - n) > float(rcfg["quick_cells_agree"]) * n:
            return None  # the grid check judged other cells board than the classifier read
        cover = _coverage_of(tilecol, 1.0)
        if cover is None or cover(a) < float(rcfg["quick_coverage"]):
            return None
        if prior is not None and not fits_every_prior_tile(a[3], templates, prior, self.cfg["decode"]):
            return None
        return a

    def _searched_attempt(self, work: np.ndarray, attempt: Callable[[tuple[Grid, np.ndarray, dict[str, Any]]], Any],
                          box_tiles: int, templates: list[Template], prior: State | None, located: dict[int, Any],
                          shared: dict[str, Any]) -> tuple[Any, ...]:
        """The attempt to read among every grid hypothesis (:meth:`_hypotheses`), with the
        retries and coarser grids that a poor or split reading calls for. Grid hypotheses are
        independent: classified side by side (numpy and OpenCV release the GIL), their results
        kept in the hypotheses' order, so the reading does not depend on it."""
        errors: list[BoardNotFoundError] = []
        masks: list[np.ndarray] = []  # each variant's tile mask, in the variants' order
        spare: list[tuple[float, Grid, np.ndarray, dict[str, Any]]] = []  # grids not read (yet)
        hypotheses = self._hypotheses(work, errors, box_tiles, masks, spare, polygons=prior is not None,
                                      located=located, shared=shared)
        done = self._map(attempt, hypotheses)
        tried = [(a, h) for a, h in zip(done, hypotheses) if not isinstance(a, BoardNotFoundError)]
        errors += [a for a in done if isinstance(a, BoardNotFoundError)]
        if not tried:
            raise errors[0]
        power = float(self.cfg["read"]["score_cells_power"])
        # one tile mask for every attempt: the first variant's (the default locate settings),
        # whichever attempt comes first (its own grid may not have been read)
        cover = _coverage_of(masks[0] if masks else tried[0][1][1], float(self.cfg["read"].get("coverage_power", 0.0)))

        def choose(among: list[tuple[tuple[Any, ...], Any]]) -> tuple[Any, ...]:
            """The attempt to read among the (attempt, hypothesis) pairs ``among``."""
            return choose_attempt([a for a, _ in among], power, prior, templates, self.cfg["decode"], cover)

        # a grid reading more cells than the box has tiles splits the tiles: its grid twice as
        # coarse is read too (its lines grouped as its cells fill whole blocks), whatever the
        # comb and the check thought of that pitch
        best = choose(tried)
        rcfg = self.cfg["read"]
        bar, n_retry = float(rcfg.get("retry_below", 0.0)), int(rcfg.get("retry_attempts", 0))

        def retry(wanted: Callable[[Grid], bool]) -> None:
            """Up to ``retry_attempts`` of the grids not read yet that ``wanted`` accepts, best
            grid check first and none the same grid as one read, are read too; the choice among
            all then replaces the chosen attempt only if it reads well (``retry_below`` a cell:
            where every grid reads the table too, scans 10080, the least bad of many is no better
            a guess)."""
            nonlocal tried, best
            more: list[tuple[Grid, np.ndarray, dict[str, Any]]] = []
            for _, grid, tilecol, lcfg in sorted(spare, key=lambda h: -h[0]):
                if len(more) >= n_retry:
                    break
                if wanted(grid) and not any(same_grid(grid, g) for g, _, _ in more + [h for _, h in tried]):
                    more.append((grid, tilecol, lcfg))
            if not more:
                return
            more_tried = tried + [(a, h) for a, h in zip(self._map(attempt, more), more)
                                  if not isinstance(a, BoardNotFoundError)]
            retried = choose(more_tried)
            if retried is not best and retried[0] >= bar * max(1, len(retried[3])):
                tried, best = more_tried, retried

        if n_retry > 0 and best[0] < bar * max(1, len(best[3])):
            # no grid read well (a sure reading scores about one a cell): the other grids the
            # variants found are read too (scans tuning 10165, a steep photo: the board's own grid
            # was every variant's fourth, its seams checking below coarser grids' that read 9
            # cells of 40)
            retry(lambda grid: True)
        ratio = float(rcfg.get("retry_cells_ratio", 0.0))
        if ratio > 0:
            # the chosen grid read few cells where another grid the variants found holds many
            # times as many board cells (no more than the box has tiles): a small board far from
            # the camera, whose comb settled on a pitch two or three tiles wide that reads each
            # cell's jumble well enough (scans tuning 5027: 6 cells of 94 px read, the board's
            # 37 px grid, holding 40, checked no better and was left spare). Not a grid whose
            # pitch divides the chosen one's (within retry_cells_tol): that splits each tile of a
            # small board into 4 or 9 cells which read as plain tiles just as well (bench_grid
            # --small, dev seeds 6000-6047: 39/48 -> 33/48 right with them)
            n_best = max(1, len(best[3]))
            side = best[1].side_px()
            tol = float(rcfg.get("retry_cells_tol", 0.0))

            def many_cells(grid: Grid) -> bool:
                k = side / max(grid.side_px(), 1e-9)
                return not any(abs(k / m - 1) <= tol for m in (2, 3, 4, 5)) \
                    and ratio * n_best <= grid.board_cells <= box_tiles
            retry(many_cells)
        coarsened: list[Any] = []
        # a followed game's photo shows the previous board and a turn or a few more: a reading
        # with many times that many cells splits the tiles too (read.coarsen_prior_ratio)
        too_many = float(box_tiles)
        prior_ratio = float(rcfg.get("coarsen_prior_ratio", 0.0))
        if prior is not None and prior_ratio > 0:
            too_many = min(too_many, prior_ratio * (len(prior.tiles) + int(self.cfg["decode"].get("prior_fit_new", 3))))
        for _ in range(int(self.cfg["read"].get("coarser_rounds", 0))):
            # the chosen attempt if it splits tiles, else (read.coarsen_any) the best-scoring
            # one that does and scored more than the chosen one (which it lost to only by
            # its excess cells): a wrong grid that read a few cells can win over a half-pitch
            # one whose coarser sibling is right
            # (read.coarsen_lost) one that lost too, when its coarser grid would hold clearly
            # more cells than the chosen reading: a too-coarse grid that read a few cells can
            # outscore a half-pitch one whose cells contradict each other
            lost = float(self.cfg["read"].get("coarsen_lost", 0.0))
            split = [a for a, _ in tried if len(a[3]) > box_tiles and not any(a is c for c in coarsened)
                     and (a[0] > best[0] or len(best[3]) < lost * len(a[3]) / 4)]
            if len(best[3]) > too_many and not any(best is c for c in coarsened):
                source = best
            elif split and self.cfg["read"].get("coarsen_any", False):
                source = max(split, key=lambda a: a[0])
            else:
                break  # (a coarser grid that lost is not read again)
            coarsened.append(source)
            _, tilecol, hcfg = next(h for a, h in tried if a is source)
            coarse = coarser_grid(source[1], source[3], 2)
            if source is not best and same_grid(coarse, best[1]):
                continue  # the chosen reading's own grid: read again, it would only add noise
            try:
                tried.append((attempt((coarse, tilecol, hcfg)), (coarse, tilecol, hcfg)))
            except BoardNotFoundError:
                break
            best = choose(tried)
        return best

    def _read_castle(self, img: Any, templates: list[Template], box: dict[str, int],
                     players: tuple[str, ...] | list[str] | None, prior: State | None) -> ReadDetail:
        """A photo of The Castle: the wall gives the interior spaces (:mod:`vision.castle`), each
        space is empty (table) or holds a tile, read as in the base game but against The
        Castle's tiles and colours, and decoded with only paths that must meet."""
        from scorer.castle_rules import PLAYER_COLOURS as CASTLE_COLOURS
        from scorer.castle_rules import STRICT_KINDS, load_layout

        from .castle import interior_evidence, locate_wall, white_figures
        work = img.work
        kcfg = self.cfg["castle"]
        layout = prior.layout if prior is not None and prior.layout is not None else load_layout(kcfg["layout"])
        fit = locate_wall(work, layout, kcfg, self.cfg["locate"])
        grid = fit.grid
        region = fit.region
        if kcfg.get("refine_on_seams"):
            # the lattice moved onto the tiles' seams (as the base game's grids are): the wall's
            # outline places the layout, the seams say exactly where the tiles lie
            grid = refine_grid(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY), grid, tile_mask(work, self.cfg["locate"])[1],
                               self.cfg.get("refine", {}))
        colours = tuple(players) if players else CASTLE_COLOURS
        fcfg = self.cfg["figures"]
        if not kcfg.get("figure_glare", True):
            fcfg = {**fcfg, "colours": {c: {k: v for k, v in spec.items() if k != "glare"}
                                        for c, spec in fcfg["colours"].items()}}
        # a colour without a rule is not looked for by colour (The Castle's white figures: as
        # pale and grey as its paths and towers; a rule by colour, tried, found a third of them
        # and as many false ones): white ones are found by what they add to the tiles read
        unseen = [c for c in colours if c not in fcfg["colours"]]
        blobs = find_figures(work, grid, region, fcfg, colours, {})
        ignore = figures_mask(work.shape[:2], blobs, fcfg)
        ccfg = self.cfg["classify"]
        ev = interior_evidence(work, grid, layout, region, ignore, templates, kcfg, ccfg, self.cfg["colours"])
        unary = {c: ll * float(ccfg["scale"]) + (ev.marks[c] if ev.marks else 0.0) for c, ll in ev.loglik.items()}
        strict = frozenset(k.value for k in STRICT_KINDS)
        dec = decode(unary, templates, box, self.cfg["decode"], int(ccfg["top_k"]), None, strict) if unary else None
        if "white" in unseen and kcfg.get("white_figures") and dec is not None:
            patch = int({**ccfg, **kcfg.get("classify", {})}["patch"])
            # (the tiles read again without the white figures' pixels: 1 tile more of 663 on
            # the test split, a third more time; not done)
            blobs = blobs + white_figures(work, grid, ev, {c: templates[dec.choice[c]] for c in unary}, blobs,
                                          patch, kcfg, fcfg)
            unseen.remove("white")
        tiles: list[TileEntry] = []
        warnings: list[str] = []
        chosen: dict[tuple[int, int], Template] = {}
        inv = np.linalg.inv(grid.H)
        s = 1.0 / img.scale
        doubt = float(self.cfg["decode"]["doubtful_below"])
        if dec is not None:
            for c in sorted(unary, key=lambda c: (c[1], c[0])):
                t = templates[dec.choice[c]]
                conf = dec.confidence[c]
                chosen[c] = t
                tiles.append(TileEntry(c, t.tile, t.rot, conf, _quad(inv, c, s)))
                if conf < doubt:
                    warnings.append(f"cell {list(c)}: doubtful, read {t.tile.id} rot {t.rot}, confidence {conf:.2f}")
        # the keep (Palas) is a block about twice a figure's size, set on a house: the one blob
        # of a player's colour that large is their keep, not a figure
        keeps: dict[str, tuple[int, int]] = {}
        big = [b for b in blobs if b.area >= float(kcfg["keep_min_area"])
               and b.bbox[2] * b.bbox[3] >= float(kcfg["keep_min_box"]) * grid.side_px() ** 2]
        # (not the white keep: a white blob that large, found among what is new to the tiles,
        # was as often a figure with its shadow; on the test split, taken as keeps, 1 keep more
        # right and 3 wrong; dropped, 4 figures fewer found)
        for colour in {b.colour for b in big if b.colour != "white"}:
            mine = [b for b in big if b.colour == colour]
            u, v = grid.to_board(np.array([mine[0].foot]))[0]
            cell = (int(np.floor(u)), int(np.floor(v)))
            if len(mine) == 1 and cell in chosen:
                keeps[colour] = cell
                blobs = [b for b in blobs if b is not mine[0]]
        meeples = self._meeples(blobs, grid, chosen, 0, 0, s)
        if unseen:
            warnings.append(f"{', '.join(unseen)} figures are not looked for on photos of The Castle yet; "
                            "add them by hand")
        if "white" in colours and "white" not in unseen:
            warnings.append("white figures are found by what they add to the tiles, and many are missed: check "
                            "them and add the missing ones by hand")
        state = State(game="castle", expansions=(), players=tuple(players) if players else CASTLE_COLOURS,
                      tiles=tuple(tiles), meeples=tuple(meeples), layout=layout, palas=keeps)
        try:
            conflicts = Position(state).status()[:10]
        except CarcamError as exc:  # a reading the castle rules cannot even lay out
            conflicts = [str(exc)]
        for conflict in conflicts:
            warnings.append(f"check: {conflict}")
        reading = Reading(state=state, image=img.orig_size, warnings=tuple(warnings))
        return ReadDetail(reading=reading, grid=grid, work=work, origin=(0, 0),
                          evidence=cell_evidence(unary, templates, (0, 0)))

    def _map(self, fn: Any, items: list[Any]) -> list[Any]:
        """``[fn(x) for x in items]``, on up to ``read.threads`` threads (0: one per CPU); an item
        whose ``fn`` raises :class:`BoardNotFoundError` gets that error in its place (one grid
        hypothesis failing does not end the reading)."""
        def caught(x: Any) -> Any:
            try:
                return fn(x)
            except BoardNotFoundError as exc:
                return exc
        n = int(self.cfg["read"].get("threads", 1)) or (os.cpu_count() or 1)
        if n <= 1 or len(items) <= 1:
            return [caught(x) for x in items]
        with ThreadPoolExecutor(max_workers=min(n, len(items))) as pool:
            return list(pool.map(caught, items))

    def _hypotheses(self, work: np.ndarray, errors: list[BoardNotFoundError], box_tiles: int,
                    masks: list[np.ndarray] | None = None,
                    spare: list[tuple[float, Grid, np.ndarray, dict[str, Any]]] | None = None,
                    polygons: bool = False, located: dict[int, Any] | None = None,
                    shared: dict[str, Any] | None = None) -> list[tuple[Grid, np.ndarray, dict[str, Any]]]:
        """The grids worth classifying (each costs a full classification, the photo's most
        expensive step): every ``locate_variants`` entry's first grid, then the others with a grid
        check score at least ``extra_min_gain`` above the best first grid's, or (when not finer
        than their own variant's first) above that first's, largest gain first, none twice and
        at most ``max_attempts`` in all. ``masks`` receives each variant's tile mask, in order;
        ``spare`` every other grid found, with its grid check score (read.retry_below). With
        ``polygons`` (a followed game's photo, read with the previous board as its prior), also a
        tiny board's grids from its outline polygon (:mod:`vision.outline`)."""
        rcfg = self.cfg["read"]
        first: list[tuple[float, Grid, np.ndarray, dict[str, Any]]] = []
        extra: list[tuple[float, float, bool, Grid, np.ndarray, dict[str, Any]]] = []
        coarse: list[tuple[bool, Grid, np.ndarray, dict[str, Any]]] = []
        split_only: list[tuple[Grid, np.ndarray, dict[str, Any]]] = []
        dropped: list[tuple[float, Grid, np.ndarray, dict[str, Any]]] = []  # grids of variants left out
        split_max = float(rcfg["split_max"])
        lcfgs = [{**self.cfg["locate"], **variant} for variant in self.cfg.get("locate_variants", [{}])]
        shared = {} if shared is None else shared  # rectifications the variants share (locate._shared_rectify)
        done = located or {}

        def locate(k: int) -> Any:
            """Variant ``k`` located (once: the quick path may have located the first)."""
            got = done.get(k)
            if isinstance(got, BoardNotFoundError):
                raise got
            return got if got is not None else locate_candidates(work, lcfgs[k], shared)
        for lcfg, found in zip(lcfgs, self._map(locate, list(range(len(lcfgs))))):
            if isinstance(found, BoardNotFoundError):
                errors.append(found)
                continue
            cands, tilecol = found
            if masks is not None:
                masks.append(tilecol)
            if not cands:  # a variant that does not apply to this photo (locate's busy_only)
                continue
            if any(abs(cands[0][1].pitch_px / g.pitch_px - 1) <= 0.05 and np.array_equal(tilecol, t)
                   for _, g, t, _ in first):
                # the pitch of a variant before's first grid, on the same tile mask: about the same
                # reading, and about the same other grids, which would take the slots of that
                # variant's own (the mask-profile variant, meant for other pitches: on game start
                # 6021 its extra grid a third of the pitch read 54 sub-tile cells, and won; on 7003
                # its first, a phase of the first variant's, took the coarser sibling's slot). Its
                # other grids stay spare for the retries (scans tuning 5027: only the far-vanishing-
                # point variant, whose first is the first variant's, found the board's own grid
                # among its four on OpenCV 5, whose warps round otherwise)
                if rcfg.get("retry_repeats", False):
                    dropped += [(sc, grid, tilecol, lcfg) for sc, grid in cands[1:]]
                continue
            first.append((cands[0][0], cands[0][1], tilecol, lcfg))
            g0 = next((g for sc, g in cands if sc > 0 and g.blocks <= split_max), None)
            by_count = g0 is None
            if by_count:
                g0 = next((g for sc, g in cands if sc > 0 and g.board_cells > box_tiles), None)
            if g0 is not None:
                # board cells in aligned 2 x 2 blocks (else more board cells than the box has
                # tiles): the grid may split every tile (a half pitch; the comb and the check can
                # prefer it where roads cross the tiles' middles); its coarser sibling is
                # classified too, whatever its check (faint printed seams can check below 0), and
                # the scores decide
                coarser = coarser_sibling(cands, g0, lcfg["coarse_factors"])
                sibling = [] if coarser is None else [(by_count, coarser, tilecol, lcfg)]
                if not sibling and not by_count:
                    # no coarser candidate (the comb found only multiples of the true pitch and
                    # this split): the split grid itself is classified when a slot is left over
                    # (read.split_without_sibling); reading more cells than the box has tiles,
                    # it is coarsened after (read.coarser_rounds)
                    split_only.append((g0, tilecol, lcfg))
                coarse += sibling
            # an extra grid as coarse as its variant's first competes with that first alone: the
            # variants' masks differ, so their check scores are not on one scale (a finer grid
            # must beat every variant's first, sub-tile cells can pass for tiles)
            extra += [(sc, sc - cands[0][0], grid.pitch_px > cands[0][1].pitch_px / 1.5,
                       grid, tilecol, lcfg) for sc, grid in cands[1:]]
        out = [(g, t, c) for _, g, t, c in first]
        # a first grid in blocks whose double is another variant's first is not classified
        # (it would be 4 times the cells: the most expensive attempt, and most likely wrong)
        out = [(g, t, c) for g, t, c in out if g.blocks > split_max or not any(
            abs(h.pitch_px / (2 * g.pitch_px) - 1) <= 0.1 for h, _, _ in out)]
        # the siblings of grids in blocks before those of grids merely with too many cells (the
        # same lattice on a smaller part of the board is another grid)
        for _, grid, tilecol, lcfg in sorted(coarse, key=lambda c: c[0]):
            n = len(grid.cols) * len(grid.rows)
            if len(out) < int(rcfg["max_attempts"]) and \
                    not any(same_grid(grid, g) and len(g.cols) * len(g.rows) >= n for g, _, _ in out):
                out.append((grid, tilecol, lcfg))
        gain = float(rcfg["extra_min_gain"])
        bar = max((f[0] for f in first), default=-np.inf) + gain
        for sc, own, not_finer, grid, tilecol, lcfg in sorted(extra, key=lambda e: -e[1]):
            if len(out) >= int(rcfg["max_attempts"]):
                break
            if sc < bar and not (not_finer and own >= gain):
                continue
            if not any(same_grid(grid, g) for g, _, _ in out):
                out.append((grid, tilecol, lcfg))
        if rcfg.get("split_without_sibling", False):
            # only where the grids read so far hold far fewer board cells than the split grid's
            # tiles (its cells / 4): then they are too coarse, else the split grid would only cost a
            # classification of four times the cells
            most = max((g.board_cells for g, _, _ in out), default=0)
            ratio = float(rcfg.get("split_cells_ratio", 0.0))
            for grid, tilecol, lcfg in split_only:
                if len(out) < int(rcfg["max_attempts"]) and not any(same_grid(grid, g) for g, _, _ in out) \
                        and grid.board_cells / 4 >= ratio * most:
                    out.append((grid, tilecol, lcfg))
        if polygons and first and int(first[0][3].get("polygon_keep", 0)) > 0:
            # a tiny board's grids from its outline polygon (vision.outline), on the first
            # variant's tile mask: where few seams put the vanishing points off, no grid above
            # is square on the table. Only with a prior, whose fit tells a lattice that reads the
            # board's tiles wrongly: alone, their seams unchecked, a polygon's grids won over the
            # comb's right one on 2 of bench_grid --small's 24 test photos (91.7% -> 83.3%)
            _, _, tilecol, lcfg = first[0]
            gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
            for _, grid in outline_grids(board_region(tilecol), lcfg, gray):
                if not any(same_grid(grid, g) for g, _, _ in out):
                    out.append((grid, tilecol, lcfg))
        if spare is not None:
            found = first + [(sc, grid, tilecol, lcfg) for sc, _, _, grid, tilecol, lcfg in extra] + dropped
            spare += [h for h in found if not any(h[1] is g for g, _, _ in out)]
        return out

    def _attempt(self, work: np.ndarray, grid: Grid, tilecol: np.ndarray, lcfg: dict[str, Any],
                 templates: list[Template], box: dict[str, int], players: tuple[str, ...] | list[str] | None,
                 prior: State | None, memo: dict[Any, Any] | None = None) -> tuple[Any, ...]:
        """One grid hypothesis classified and decoded; returns it with its score: cells read with
        confidence, less those in doubt, less twice the edges that do not match, less the cells
        beyond the box's tiles and the tiles beyond the box's count of their kind
        (``read.box_excess_weight``, ``read.box_over_weight``). A wrong pitch leaves cells
        unrecognised or contradicting their neighbours, or reads too many plain tiles, so it
        scores low."""
        gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
        grid = refine_grid(gray, grid, tilecol, self.cfg.get("refine", {}))
        blobs = find_figures(work, grid, tilecol, self.cfg["figures"],
                             tuple(players) if players else None, memo)
        fcfg = self.cfg["figures"]
        ignore = figures_mask(work.shape[:2], blobs, {**fcfg, "mask": "box"})
        hidden = figures_mask(work.shape[:2], blobs, fcfg) if fcfg.get("mask", "box") != "box" else None
        ccfg = self.cfg["classify"]
        patch = int(ccfg["patch"])
        top = warp_board(work, grid, patch)
        tc_top = warp_board(tilecol.astype(np.uint8), grid, patch) > 0
        ig_top = warp_board(ignore.astype(np.uint8), grid, patch) > 0
        hid_top = warp_board(hidden.astype(np.uint8), grid, patch) > 0 if hidden is not None else None
        box_colours = ccfg.get("shield_box_colours")  # None: the box around every figure
        sh_top = at_top = None
        if box_colours is not None:
            search, boxes = shield_search_mask(work.shape[:2], blobs, fcfg, set(box_colours))
            sh_top = warp_board(search.astype(np.uint8), grid, patch) > 0
            if ccfg.get("shield_drop_attached") and boxes.any():
                # a dark blue blob touching a blue figure's box is that figure's shaded foot
                at_top = warp_board(boxes.astype(np.uint8), grid, patch) > 0
        green = tile_mask(work, lcfg)[0]
        g_top = warp_board(green.astype(np.uint8), grid, patch) > 0
        bg = table_samples(work, grid, patch, ccfg)
        if len(bg) < int(ccfg["occupancy_min_samples"]):
            region = cv2.dilate(tilecol.astype(np.uint8), np.ones((15, 15), np.uint8)) > 0
            outside = to_lab(work)[~region]
            bg = np.median(outside, axis=0) if len(outside) > 100 else None
        feet = figure_cells(blobs, grid)
        evidence, _ = classify_cells(top, tc_top, ig_top, grid, templates, ccfg, self.cfg["colours"],
                                     lcfg, self.profile, g_top, bg, hid_top, sh_top, at_top,
                                     lambda cols, rows: table_samples(work, replace(grid, cols=cols, rows=rows),
                                                                      patch, ccfg),
                                     feet)
        if not evidence:
            raise BoardNotFoundError("found a grid but no tiles on it; photograph the board from closer, "
                                     "in even light")
        shield = np.array([any(s.shield for s in t.tile.segments) for t in templates])
        has_city = np.array([any(s.kind is Kind.CITY for s in t.tile.segments) for t in templates])
        # between shield twins "no crest seen" is weighed by how much of their city's middle a
        # figure hides (the crest is printed there), the plain twin's evidence kept as it is
        twins = shield_twinned(templates) & shield if ccfg.get("shield_hidden_of") == "city" else None
        city_cfg = {**ccfg, "shield_hidden_full": ccfg.get("shield_city_hidden_full", ccfg.get("shield_hidden_full", 0.0))}
        weight = float(ccfg["shield_weight"])
        unary = {}
        best_ll = {}
        for ev in evidence:
            u = ev.loglik * float(ccfg["scale"])
            sign = shield_sign(ev.shield, ccfg, ev.hidden)
            u = u + np.where(has_city, np.where(shield, sign, -sign) * weight * 0.5, 0.0)
            if twins is not None and ev.hidden_city is not None:
                # the crested twin leads its plain twin by sign * weight, its city's sign
                # ("a crest seen": only a blob inside the twin's city, where measured)
                share = ev.shield if ev.shield_city is None else ev.shield_city
                u = u + np.where(twins, (shield_sign(share, city_cfg, ev.hidden_city) - sign) * weight, 0.0)
            unary[ev.cell] = u
            best_ll[ev.cell] = float(ev.loglik.max())
        for c in unrecognised_islands(best_ll, float(ccfg["unknown_min_loglik"])):
            del unary[c], best_ll[c]  # recognised cells stay, so some cell always does
        with_prior = ccfg.get("edge_with_prior", True)
        if prior is None or with_prior:
            # following a game, the cells that take the previous board's tiles are kept
            # ("new_cells": only cells the board did not have are judged; false: none is)
            keep = set(_align_prior(prior, set(unary))) if prior is not None and with_prior == "new_cells" else None
            many = keep is not None and len(set(unary) - keep) > int(ccfg.get("edge_prior_max_new", 4))
            refit = int(ccfg.get("edge_prior_refit_rank", 0))
            drop = set() if many and not refit else edgeless_cells(work, grid, set(unary), ccfg, keep)
            if many and drop and prior is not None and not fits_every_prior_tile(
                    {c: u for c, u in unary.items() if c not in drop}, templates, prior,
                    {**self.cfg["decode"], "prior_fit_rank": refit, "prior_fit_turn": 0.0},
                    {(grid.cols[i], grid.rows[j]) for j, i in zip(*np.nonzero(feet))}):
                # more new cells than a gap lays: cleaned only when the cells left are few new
                # ones beside every tile of the previous board, each read as its likeliest
                # template (edge_prior_refit_rank 1). A right grid can read a strip of table
                # beyond the board as tiles (photo game 2079 on a green felt: 6 new cells, 5 of
                # them table), and left unclean it lost to a grid shifted along the board that
                # read a phantom tile; a wrong grid cleaned to a few cells does not read the
                # previous tiles where they lie (bench_tiny 1494's second photo on orange wood: 3
                # cells, the previous I read as R), and is left as it is for the follower to reject
                drop = set()
            for c in drop:
                del unary[c], best_ll[c]
        rcfg = self.cfg["read"]
        for c in detached_cells(set(unary), int(rcfg.get("detached_max_cells", 0)), int(rcfg.get("detached_reach", 2))):
            del unary[c], best_ll[c]
        prior_map = _align_prior(prior, set(unary)) if prior is not None else None
        recognised = [c for c in unary if best_ll[c] >= float(ccfg["unknown_min_loglik"])]
        dec = decode(unary, templates, box, self.cfg["decode"], int(ccfg["top_k"]), prior_map,
                     unknown=frozenset(unary) - frozenset(recognised))
        doubt = float(self.cfg["decode"]["doubtful_below"])
        chosen = {c: templates[dec.choice[c]] for c in unary}
        sure = sum(1 for c in recognised if dec.confidence[c] >= doubt)
        unsure = len(unary) - sure
        conflicts = _edge_conflicts(chosen)
        # more cells than the box has tiles: the grid splits tiles (a half or third pitch)
        excess = max(0, len(unary) - sum(box.values()))
        # tiles of a kind beyond the box's count: a grid at a third or half of the pitch reads
        # each tile's parts as plain tiles (straight roads, fields, monasteries) far more often
        # than the box holds them, even when its cells number no more than the box's tiles
        kinds = Counter(chosen[c].tile.id for c in recognised)
        over = sum(max(0, n - box.get(k, 0)) for k, n in kinds.items())
        score = sure - 0.5 * unsure - 2 * conflicts - float(rcfg["box_excess_weight"]) * excess \
            - float(rcfg.get("box_over_weight", 0.0)) * over
        return (score, grid, blobs, unary, dec, best_ll, tilecol)


    def _meeples(self, blobs: list[Blob], grid: Any, chosen: dict[tuple[int, int], Template],
                 c0: int, r0: int, s: float,
                 snapped: set[tuple[tuple[int, int], str, str]] | None = None,
                 fcfg: dict[str, Any] | None = None) -> list[MeepleEntry]:
        """Each figure on the tile under its foot, at the slot of the segment there.

        A figure stands on a tile, so a foot on a cell that was not recognised (read as unknown,
        or not read) but is covered by tile colours (the blob's ``cell_tile`` feature at least
        ``figures.unknown_tile_frac``) and touches the read tiles along an edge (tiles are laid
        edge to edge) is reported on that cell, at the slot nearest the foot. (Moving a foot just off the read tiles onto the nearest one was
        measured and lost more figures than it gained; only a hair off, ``figures.edge_foot_max``
        with the figure's middle on the tile, ``figures.edge_foot_alone_max`` without, it is.)
        ``fcfg``: the figures' configuration to place them by (default the reader's)."""
        fcfg = self.cfg["figures"] if fcfg is None else fcfg
        tile_frac = float(fcfg.get("unknown_tile_frac", 2.0))
        snap, min_cos = float(fcfg["stand_snap"]), float(fcfg.get("snap_min_cos", 0.0))
        snap_free = float(fcfg.get("snap_free", 0.0))
        no_snap = tuple(Kind(k) for k in fcfg.get("no_snap_kinds", ()))
        stay = tuple(Kind(k) for k in fcfg.get("lying_stay_kinds", ()))
        wall_doubt = float(fcfg.get("wall_doubt", 0.0))
        road_doubt = float(fcfg.get("road_doubt", 0.0))
        lying_wall_doubt = float(fcfg.get("lying_wall_doubt", 0.0))
        junction_doubt = float(fcfg.get("junction_doubt", 0.0))
        out = []
        edge, edge_rect = float(fcfg.get("edge_foot_max", 0.0)), float(fcfg.get("edge_foot_min_rect", 0.0))
        edge_alone = min(edge, float(fcfg.get("edge_foot_alone_max", 0.0)))
        alone_solid = float(fcfg.get("edge_foot_alone_min_solidity", 0.0))
        for b in blobs:
            if sliver_shape(b.features.get("rect", 1.0), b.features.get("fill", 1.0), fcfg):
                continue  # a ragged strip of cloth or shadow, still masked from the tiles (figures.sliver_*)
            x, y, w, h = b.bbox
            u, v = grid.to_board(np.array([b.foot]))[0]
            cell = (int(np.floor(u)), int(np.floor(v)))
            t = chosen.get(cell)
            if t is None and edge > 0 and b.features.get("rect", 1.0) >= edge_rect:
                # the figure's middle on a read tile, its foot measured just beyond that tile's
                # edge: a figure standing at the very edge of the layout (photo game 1339: the
                # last turn's knight on an E's city at the border, its foot 0.005 tile off); not
                # a long thin sliver of the table along the tile's edge (the real skull
                # tablecloth photo: a strip of black cloth over a G's edge)
                mu, mv = grid.to_board(np.array([[x + w / 2, y + h / 2]]))[0]
                mid = (int(np.floor(mu)), int(np.floor(mv)))
                inside, off = _into_tile(mid, u, v)
                if mid in chosen and off <= edge:
                    cell, t, (u, v) = mid, chosen[mid], inside
                elif edge_alone > 0 and b.features.get("solidity", 0.0) >= alone_solid:
                    # its middle beyond the edge too, leaning off the layout, but its foot a
                    # hair off a read tile (figures.edge_foot_alone_max: photo game 2023's last
                    # knight on an E at the layout's corner, its foot 0.023 off, its middle 0.14);
                    # a figure's solid outline, not a ragged piece of a cloth of its colour
                    near = _nearest_tile(chosen, cell, u, v)
                    if near is not None and near[1] <= edge_alone:
                        cell, (u, v) = near[0], near[2]
                        t = chosen[cell]
            fu, fv = u - cell[0], v - cell[1]
            if t is None:
                # a tile is laid edge to edge with the board: a corner touching is a score
                # board's or a box's edge beside the layout, not a tile
                touches = any(neighbour(cell, e) in chosen for e in EDGES)
                if not touches or b.features.get("cell_tile", 0.0) < tile_frac:
                    continue
                slot: str | None = min((x for x in _SLOT_POS if x != "I"),
                                       key=lambda x: (_SLOT_POS[x][0] - fu) ** 2 + (_SLOT_POS[x][1] - fv) ** 2)
            else:
                # the figure's middle lies up the camera's vertical from its foot
                mu, mv = grid.to_board(np.array([[x + w / 2, y + h / 2]]))[0]
                slot = _slot_under(t, fu, fv, b.lying, snap, no_snap, (float(mu - u), float(mv - v)), min_cos, stay,
                                   snap_free)
                if snapped is not None and slot is not None:
                    under = _slot_under(t, fu, fv, b.lying, 0.0, lying_stay=stay)
                    if under is None or t.tile.segment_index_on_board(under, t.rot) != \
                            t.tile.segment_index_on_board(slot, t.rot):
                        snapped.add(((cell[0] - c0, cell[1] - r0), b.colour, slot))
                    elif not b.lying and wall_doubt > 0 and _at_a_wall(t, slot, fu, fv, wall_doubt):
                        # standing at the wall between a field and a city or a monastery, within
                        # the label raster's precision (figures.wall_doubt): a knight at the wall
                        # is read outside it as often as a farmer beside it inside (photo game
                        # 1037's last knight, 0.002 tile out of its H's city)
                        snapped.add(((cell[0] - c0, cell[1] - r0), b.colour, slot))
                    elif b.lying and lying_wall_doubt > 0 and _at_a_wall(t, slot, fu, fv, lying_wall_doubt) \
                            and t.tile.segments[t.tile.segment_index_on_board(slot, t.rot)].kind in stay:
                        # read lying with its footprint's middle on a city (figures.lying_stay_kinds keeps
                        # it there: a knight whose posture was misjudged) within
                        # figures.lying_wall_doubt of a field: it may be a farmer lying against the wall
                        # (fresh photo game 3929: the last turn's farmer beside an O's city, its middle
                        # 0.007 tile inside the wall, scored as a knight)
                        snapped.add(((cell[0] - c0, cell[1] - r0), b.colour, slot))
                    elif not b.lying and road_doubt > 0 and _near_a_road(t, slot, fu, fv, road_doubt):
                        # standing in a field within figures.road_doubt of a road of its tile, left
                        # there since the move onto the road runs across the camera's vertical
                        # (figures.snap_min_cos): as often a thief whose foot was measured beside
                        # its road as a farmer, or more (photo games 1440-1459: 7 thieves, 2
                        # farmers; 1480-1499: 3 and 3)
                        snapped.add(((cell[0] - c0, cell[1] - r0), b.colour, slot))
                    elif not b.lying and junction_doubt > 0 and \
                            _near_a_road(t, slot, fu, fv, junction_doubt, Kind.ROAD):
                        # standing on a road within figures.junction_doubt of another road of its
                        # tile, where the roads meet: its foot is measured only so well (photo game
                        # 2806's last thief on an X, 0.006 tile from the road it stood on)
                        snapped.add(((cell[0] - c0, cell[1] - r0), b.colour, slot))
                    elif b.standing_foot is not None:
                        # read lying by a narrow margin (figures.flat_doubt_rect): were it
                        # standing, its foot would be on a road (photo game 1619's last thief,
                        # read as a farmer beside its road): the field is as weak a reading
                        su, sv = grid.to_board(np.array([b.standing_foot]))[0]
                        if (int(np.floor(su)), int(np.floor(sv))) == cell:
                            stand = _slot_under(t, float(su - cell[0]), float(sv - cell[1]), False, snap, no_snap,
                                                (float(mu - su), float(mv - sv)), min_cos, stay, snap_free)
                            seg = t.tile.segment_index_on_board(stand, t.rot) if stand is not None else None
                            if seg is not None and t.tile.segments[seg].kind is Kind.ROAD and \
                                    seg != t.tile.segment_index_on_board(slot, t.rot):
                                snapped.add(((cell[0] - c0, cell[1] - r0), b.colour, slot))
                    elif b.lying_foot is not None:
                        # read standing at a slant, its outline as ragged and square as a lying
                        # farmer's (figures.slant_lying_solidity): on a road, but were it lying its
                        # foot would be in a field of the same tile (photo games 900 and 1270: the
                        # last turn's farmer beside a D's road, read standing on it); the road is
                        # as weak a reading
                        lu, lv = grid.to_board(np.array([b.lying_foot]))[0]
                        seg = t.tile.segment_index_on_board(slot, t.rot)
                        if (int(np.floor(lu)), int(np.floor(lv))) == cell and seg is not None and \
                                t.tile.segments[seg].kind is Kind.ROAD:
                            lie = _slot_under(t, float(lu - cell[0]), float(lv - cell[1]), True, 0.0, lying_stay=stay)
                            li = t.tile.segment_index_on_board(lie, t.rot) if lie is not None else None
                            if li is not None and t.tile.segments[li].kind is Kind.FIELD:
                                snapped.add(((cell[0] - c0, cell[1] - r0), b.colour, slot))
            if slot is None:
                continue
            quad = ((x * s, y * s), ((x + w) * s, y * s), ((x + w) * s, (y + h) * s), (x * s, (y + h) * s))
            out.append(MeepleEntry(b.colour, (cell[0] - c0, cell[1] - r0), slot, round(b.confidence, 4), quad))
        return out

    def overlay(self, image: bytes | str | os.PathLike[str] | np.ndarray, reading: Reading) -> np.ndarray:
        """The photo with every cell's label and confidence, every figure, doubtful cells in red."""
        from .overlay import draw_overlay
        lcfg = self.cfg["load"]
        img = load_image(image, int(lcfg["max_pixels"]), int(lcfg["min_side"]), int(lcfg["work_side"]))
        return draw_overlay(img.full, reading, float(self.cfg["decode"]["doubtful_below"]))


def _into_tile(cell: tuple[int, int], u: float, v: float) -> tuple[tuple[float, float], float]:
    """The board point (``u``, ``v``) moved :data:`EDGE_INSET` inside the tile on ``cell``, and how
    far it moved (tile sides; 0 for a point already that far in)."""
    inside = (float(np.clip(u, cell[0] + EDGE_INSET, cell[0] + 1 - EDGE_INSET)),
              float(np.clip(v, cell[1] + EDGE_INSET, cell[1] + 1 - EDGE_INSET)))
    return inside, float(np.hypot(inside[0] - u, inside[1] - v))


def _nearest_tile(chosen: Mapping[tuple[int, int], Any], cell: tuple[int, int], u: float, v: float
                  ) -> tuple[tuple[int, int], float, tuple[float, float]] | None:
    """The read tile of the eight around ``cell`` (a cell without one) nearest the board point
    (``u``, ``v``) on it: its cell, the point's distance from it (tile sides) and the point moved
    :data:`EDGE_INSET` inside it; None where none is read."""
    best: tuple[tuple[int, int], float, tuple[float, float]] | None = None
    for du in (-1, 0, 1):
        for dv in (-1, 0, 1):
            c = (cell[0] + du, cell[1] + dv)
            if c == cell or c not in chosen:
                continue
            inside, d = _into_tile(c, u, v)
            if best is None or d < best[1]:
                best = (c, d, inside)
    return best


def coarser_sibling(cands: list[tuple[float, Grid]], grid: Grid, factors: list[float]) -> Grid | None:
    """The first of a variant's candidate grids (check score, grid) other than ``grid`` whose
    pitch is one of ``factors`` (locate.coarse_factors) times its pitch, within 10%: the grid a
    grid splitting every tile (a half or third pitch) splits, or None."""
    return next((g for sc, g in cands if sc > -np.inf and g is not grid
                 and any(abs(g.pitch_px / (k * grid.pitch_px) - 1) <= 0.1 for k in factors)), None)


def figure_cells(blobs: list[Blob], grid: Grid) -> np.ndarray:
    """The grid's cells (rows x cols, bool) under a figure's foot."""
    out = np.zeros((len(grid.rows), len(grid.cols)), dtype=bool)
    if not blobs:
        return out
    feet = grid.to_board(np.array([b.foot for b in blobs], dtype=np.float64))
    for u, v in feet:
        i, j = int(np.floor(u)) - grid.cols.start, int(np.floor(v)) - grid.rows.start
        if 0 <= j < out.shape[0] and 0 <= i < out.shape[1]:
            out[j, i] = True
    return out


def _quad(inv: np.ndarray, c: tuple[int, int], s: float) -> tuple[tuple[float, float], ...]:
    pts = np.array([[c[0], c[1]], [c[0] + 1, c[1]], [c[0] + 1, c[1] + 1], [c[0], c[1] + 1]], dtype=np.float64)
    q = np.c_[pts, np.ones(4)] @ inv.T
    q = q[:, :2] / q[:, 2:3] * s
    return tuple((float(x), float(y)) for x, y in q)  # type: ignore[return-value]


def _slot_under(t: Template, fu: float, fv: float, lying: bool, snap: float = 0.08,
                no_snap: tuple[Kind, ...] = (), along: tuple[float, float] | None = None,
                min_cos: float = 0.0, lying_stay: tuple[Kind, ...] = (), snap_free: float = 0.0) -> str | None:
    """The slot naming the segment under point (fu, fv) of a decoded tile (board orientation).

    A lying figure is a farmer: it takes the nearest field, unless its footprint's centre lies
    on a segment of the ``lying_stay`` kinds (the reader passes ``figures.lying_stay_kinds``):
    farmers are laid in the fields beside a road, not across it, so a "lying" figure centred on
    a road is a thief whose posture was misjudged (on synthetic follow-game photos, 3 of 3
    figures read lying with their centre on a road were thieves, none of 139 farmers read
    lying); likewise one centred inside a city is a knight (a small figure seen from nearly
    straight above: photo game 1193). A standing figure on a field is moved
    to the nearest other segment (a road, a monastery; not one of the ``no_snap`` kinds) when that
    segment is within ``snap`` tile sides (about half the depth of a figure's base: the base
    covers that much around the measured foot, and a foot is measured only so well); farther away
    it stays a farmer, since farmers lie beside roads. A city is wide and its knight stands well
    inside it, so a foot just outside a city (``no_snap``: the reader passes
    ``figures.no_snap_kinds``) is a farmer's. A standing foot is measured poorly along the
    camera's vertical as it falls on the board (``along``, tile units: where the base meets the
    tile hides behind the body) and well across it: the move must lie within ``min_cos``
    (|cosine|) of that direction, else the foot was truly beside the road (a farmer), unless it
    is at most ``snap_free`` long (a foot on the road's very edge: the raster's road, a cell's
    width of squares, is only so true to the art's; photo game 1170's last thief, 0.02 off).
    Distances are to the label raster's cells (``segment_distance``), so a foot anywhere on a
    road cell is on the road. The slot is the segment's own slot nearest the foot: a centre slot
    of an edge for a city or road, ``C`` for a monastery, any slot of a field."""
    n = t.segments.shape[0]
    iu, iv = int(np.clip(fu * n, 0, n - 1)), int(np.clip(fv * n, 0, n - 1))
    seg_i = int(t.segments[iv, iu])
    segs = t.tile.segments
    if lying and not (seg_i >= 0 and segs[seg_i].kind in lying_stay):
        fields = [i for i, sg in enumerate(segs) if sg.kind is Kind.FIELD]
        if fields and (seg_i < 0 or segs[seg_i].kind is not Kind.FIELD):
            seg_i = min(fields, key=lambda i: segment_distance(t.segments, i, fu, fv))
    elif seg_i < 0 or segs[seg_i].kind is Kind.FIELD:
        # a standing figure is not a farmer: take the nearest non-field segment when close
        others = [i for i, sg in enumerate(segs) if sg.kind is not Kind.FIELD and sg.kind not in no_snap]
        if others:
            off = {i: segment_offset(t.segments, i, fu, fv) for i in others}
            j = min(others, key=lambda i: np.hypot(*off[i]))
            dist = float(np.hypot(*off[j]))
            if dist <= snap and (dist <= snap_free or _along(off[j], along, min_cos)):
                seg_i = j
    if seg_i < 0:
        return None
    seg = segs[seg_i]
    board_slots = [rotate_slot(x, t.rot) for x in seg.slots]
    if seg.kind is Kind.MONASTERY:
        return "C"
    centre = [x for x in board_slots if x in ("N", "E", "S", "W")]
    pool = centre if (seg.kind in (Kind.CITY, Kind.ROAD) and centre) else board_slots
    return min(pool, key=lambda x: (_SLOT_POS[x][0] - fu) ** 2 + (_SLOT_POS[x][1] - fv) ** 2)


def _at_a_wall(t: Template, slot: str, fu: float, fv: float, within: float) -> bool:
    """Whether point (fu, fv) (tile units, board orientation) of decoded tile ``t``, on the
    segment ``slot`` names, lies within ``within`` tile sides (label raster,
    :func:`segment_distance`) of the other side of a wall: of a city or a monastery when that
    segment is a field, of a field when it is a city or a monastery."""
    seg = t.tile.segment_index_on_board(slot, t.rot)
    if seg is None or t.tile.segments[seg].kind is Kind.ROAD:
        return False
    walled = (Kind.CITY, Kind.MONASTERY)
    across = walled if t.tile.segments[seg].kind is Kind.FIELD else (Kind.FIELD,)
    return any(sg.kind in across and segment_distance(t.segments, i, fu, fv) <= within
               for i, sg in enumerate(t.tile.segments))


def _near_a_road(t: Template, slot: str, fu: float, fv: float, within: float, kind: Kind = Kind.FIELD) -> bool:
    """Whether the segment ``slot`` names on decoded tile ``t`` is of ``kind`` (a field; a road:
    where roads meet) and point (fu, fv) (tile units, board orientation) lies within ``within``
    tile sides (label raster, :func:`segment_distance`) of another road of that tile."""
    seg = t.tile.segment_index_on_board(slot, t.rot)
    if seg is None or t.tile.segments[seg].kind is not kind:
        return False
    return any(sg.kind is Kind.ROAD and i != seg and segment_distance(t.segments, i, fu, fv) <= within
               for i, sg in enumerate(t.tile.segments))


def _along(move: tuple[float, float], direction: tuple[float, float] | None, min_cos: float) -> bool:
    """Whether ``move`` lies within ``min_cos`` (|cosine|) of ``direction`` (either way); true
    without a direction, for a null move or with ``min_cos`` 0."""
    if direction is None or min_cos <= 0:
        return True
    a, b = float(np.hypot(*move)), float(np.hypot(*direction))
    if a < 1e-9 or b < 1e-9:
        return True
    return abs(move[0] * direction[0] + move[1] * direction[1]) / (a * b) >= min_cos


def _align_prior(prior: State, cells: set[tuple[int, int]]) -> dict[tuple[int, int], tuple[str, int]]:
    """The prior state's tiles in the reading's cell frame: the rotation and translation that
    lay most prior tiles on occupied cells."""
    best: tuple[int, dict[tuple[int, int], tuple[str, int]]] = (-1, {})
    ptiles = [t for t in prior.tiles if t.tile.known and t.tile.id is not None]
    if not ptiles:
        return {}
    for rot in (0, 90, 180, 270):
        rc = [(rotate_cell(t.at, rot), t) for t in ptiles]
        offsets = Counter((c[0] - p[0], c[1] - p[1]) for c in cells for p, _ in rc)
        for (dx, dy), _n in offsets.most_common(8):
            mapped = {(p[0] + dx, p[1] + dy): (t.tile.id, (t.rot + rot) % 360) for p, t in rc}
            score = sum(1 for c in mapped if c in cells)
            if score > best[0]:
                best = (score, mapped)  # type: ignore[assignment]
    return best[1]


__all__ = ["BoardReader", "SLOTS"]


def _edge_conflicts(chosen: dict[tuple[int, int], Template]) -> int:
    """How many shared edges between chosen neighbouring tiles do not match."""
    from scorer.board import Board
    board = Board.from_tiles((c, t.tile, t.rot) for c, t in chosen.items())
    return len(board.conflicts())


def _groups_apart(unary: dict[tuple[int, int], np.ndarray], best_ll: dict[tuple[int, int], float],
                  confidence: dict[tuple[int, int], float], unknown_below: float, doubt: float,
                  cfg: dict[str, Any], kinds: dict[tuple[int, int], str] | None = None,
                  box: dict[str, int] | None = None) -> set[tuple[int, int]]:
    """Cells read off the board: groups of cells joined to the largest group by no edge (tiles
    are laid edge to edge, so a board is one group), at most ``apart_max_share`` of its size,
    at least ``apart_min_weak`` of whose cells are not recognised or doubtful. A score board or
    the box beside the layout reads as such a group of tile-like cells (the glass-table real
    photo: 13 cells of the score board, 7 of them unknown or doubtful); a part of the board cut
    off by a missed tile reads as tiles. ``apart_max_share`` 0 turns this off.

    So is any group but the largest read as more tiles of one kind (``kinds``: each cell's
    tile) than the box holds (``box``), whatever its size, where ``apart_over_box`` is on: a
    lamp's glare on orange wood read as nine cells beside a board of 21, five of them the box's
    one C, none doubtful (photo game 4197's last photo, taken again), is no part of the board."""
    share = float(cfg.get("apart_max_share", 0.0))
    if share <= 0 or not unary:
        return set()
    left = set(unary)
    groups: list[set[tuple[int, int]]] = []
    while left:
        group = joined({left.pop()}, left)
        left -= group
        groups.append(group)
    if len(groups) < 2:
        return set()
    largest = max(groups, key=len)
    out: set[tuple[int, int]] = set()
    for group in groups:
        if group is largest:
            continue
        if cfg.get("apart_over_box") and kinds is not None and box is not None:
            counts = Counter(kinds[c] for c in group if c in kinds and best_ll[c] >= unknown_below)
            if any(n > box.get(k, 0) for k, n in counts.items()):
                out |= group
                continue
        if len(group) > share * len(largest):
            continue
        weak = sum(1 for c in group if best_ll[c] < unknown_below or confidence[c] < doubt)
        if weak >= float(cfg["apart_min_weak"]) * len(group):
            out |= group
    return out


def cell_evidence(unary: dict[tuple[int, int], np.ndarray], templates: list[Template],
                  origin: tuple[int, int]) -> dict[tuple[int, int], dict[tuple[str, int], float]]:
    """Per cell of the reading (grid cell less ``origin``), the unary score of every template,
    keyed by (tile id, rotation): plain data for :attr:`ReadDetail.evidence`."""
    keys = [(t.tile.id, t.rot) for t in templates]
    out: dict[tuple[int, int], dict[tuple[str, int], float]] = {}
    for c, u in unary.items():
        out[(c[0] - origin[0], c[1] - origin[1])] = {k: round(float(v), 3) for k, v in zip(keys, u)
                                                        if k[0] is not None}
    return out


def prior_fit(unary: dict[tuple[int, int], np.ndarray], templates: list[Template], prior: State,
              cfg: dict[str, Any], covered: Collection[tuple[int, int]] = ()) -> float:
    """How well a grid's cells fit the previous board of a followed game: under the rotation
    and shift that fits best, the prior tiles whose cell's evidence ranks their tile among its
    ``prior_fit_rank`` likeliest templates, less the prior tiles with no cell, less the cells
    beyond the prior's tiles and ``prior_fit_new`` new ones (a grid too fine or shifted reads
    cells where there are none), each at ``prior_fit_extra``. A photo of a followed game is
    taken after a turn, which laid a tile: a fit that reads one to ``prior_fit_new`` cells beyond
    the prior's gains ``prior_fit_turn`` (a grid that missed the new tile, say one whose tile
    mask took a mostly-city tile for table, fits the prior as well but shows no turn). A cell
    in ``covered`` (under a figure's foot) ranks the prior tile among ``prior_fit_covered_rank``
    more: the figure may hide what tells the tile from its likeliest (a W's village under a
    follower reads as the straight road U)."""
    index: dict[tuple[str, int], int] = {}
    for k, t in enumerate(templates):
        if t.tile.id is not None:
            for r in (0, 90, 180, 270):
                if (t.tile.id, r) not in index and same_rotation(t.tile, t.rot, r):
                    index[(t.tile.id, r)] = k
    ptiles = [(t.at, index.get((t.tile.id, t.rot % 360))) for t in prior.tiles if t.tile.known and t.tile.id]
    ptiles = [(at, k) for at, k in ptiles if k is not None]
    cells = set(unary)
    if not ptiles or not cells:
        return 0.0
    rank = int(cfg.get("prior_fit_rank", 3))
    allowed = int(cfg.get("prior_fit_new", 3))
    turn = float(cfg.get("prior_fit_turn", 0.0))
    more = int(cfg.get("prior_fit_covered_rank", 0))
    top = {c: set(np.argsort(-u)[:rank + (more if c in covered else 0)].tolist()) for c, u in unary.items()}
    rot_of = [t.rot for t in templates]
    best = -float(len(ptiles))
    for q in (0, 90, 180, 270):
        turned = [(rotate_cell(at, q), k) for at, k in ptiles]
        keys = [index.get((templates[k].tile.id, (rot_of[k] + q) % 360)) for _, k in turned]  # type: ignore[arg-type]
        votes: Counter[tuple[int, int]] = Counter()
        for (p, _), k in zip(turned, keys):
            for c in cells:
                if k in top[c]:
                    votes[(c[0] - p[0], c[1] - p[1])] += 1
        for (dx, dy), _n in votes.most_common(6):
            agree = missing = 0
            for (p, _), k in zip(turned, keys):
                c = (p[0] + dx, p[1] + dy)
                if c not in cells:
                    missing += 1
                elif k in top[c]:
                    agree += 1
            new = len(cells) - (len(ptiles) - missing)
            best = max(best, float(agree - missing) + (turn if 1 <= new <= allowed else 0.0))
    extra = max(0, len(cells) - len(ptiles) - allowed)
    return best - float(cfg.get("prior_fit_extra", 1.0)) * extra


def unrecognised_islands(best_ll: dict[tuple[int, int], float], limit: float) -> set[tuple[int, int]]:
    """The cells of every group of edge-touching cells none of which was recognised (best
    log-likelihood below ``limit``) when some other cell was: tiles are laid touching the board,
    so a patch of "unknown tiles" apart from every recognised one is table (a glare spot, a
    pattern, a cloth fold), while an unknown tile beside recognised ones (another expansion's)
    stays. A board with no recognised cell is left alone. (The cells reached from the
    recognised ones through read cells stay; the others are the islands.)"""
    known = {c for c, v in best_ll.items() if v >= limit}
    if not known:
        return set()
    reached = joined(known, best_ll)
    return set(best_ll) - reached


def detached_cells(cells: set[tuple[int, int]], max_cells: int, reach: int) -> set[tuple[int, int]]:
    """The cells of every small group (at most ``max_cells`` edge-touching cells) lying more than
    ``reach`` steps (rows plus columns) from the largest group.

    Tiles are laid touching the board, so a lone "tile" well apart from the layout is something
    else printed in tile colours that the grid happened to cover: the score board's track, the
    box lid, a tile waiting beside the board. A group within ``reach`` (``reach`` - 1 tiles the
    grid missed would join it to the layout) stays, and so does everything when the largest
    group is no bigger than the small ones (``max_cells`` 0: off)."""
    if max_cells <= 0 or not cells:
        return set()
    groups: list[set[tuple[int, int]]] = []
    left = set(cells)
    while left:
        group = joined({left.pop()}, cells)
        left -= group
        groups.append(group)
    main = max(groups, key=len)
    if len(main) <= max_cells:
        return set()
    out: set[tuple[int, int]] = set()
    for g in groups:
        if g is main or len(g) > max_cells:
            continue
        gap = min(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a in g for b in main)
        if gap > reach:
            out |= g
    return out


def reads_the_table(a: tuple[Any, ...], attempts: list[tuple[Any, ...]], cfg: dict[str, Any],
                    coverage: Callable[[tuple[Any, ...]], float] | None = None) -> bool:
    """Whether attempt ``a`` (as :meth:`BoardReader._attempt` returns it) reads table as tiles:
    its grid is at least ``coarse_pitch_ratio`` times coarser than another attempt's that read at
    least ``coarse_area_min_cells`` cells, yet its cells cover more than ``coarse_area_max`` times
    the area of that attempt's. Each cell of a too coarse grid holds several tiles, so on the
    board it reads fewer cells; reading more area than the finer grid found board, it took the
    table around the board for tiles (a plain table passes for fields in a cell that blurs
    several tiles together). A tiny board's outline grid (locate._blob_grid) told its cells from
    the table by their colour and the seams between them: it does not (a single start tile read
    on its outline lost to a finer grid whose 11 cells contradicted each other). Nor does a
    finer attempt whose cells hold less than ``coarse_min_coverage`` of the tile colour
    (``coverage``, as for :func:`choose_attempt`) measure the board's area: it read part of it
    (a busy-region grid a third of the pitch on the shaded half of a 7-tile start)."""
    ratio = float(cfg.get("coarse_pitch_ratio", 0.0))
    if ratio <= 0 or getattr(a[1], "outline", False):
        return False
    area_max, least = float(cfg["coarse_area_max"]), int(cfg["coarse_area_min_cells"])
    pa = float(a[1].pitch_px)
    for b in attempts:
        pb = float(b[1].pitch_px)
        if b is a or len(b[3]) < least or pa < ratio * pb:
            continue
        if coverage is not None and coverage(b) < float(cfg.get("coarse_min_coverage", 0.0)):
            continue
        if len(a[3]) * pa * pa > area_max * len(b[3]) * pb * pb:
            return True
    return False


def _coverage_of(tilecol: np.ndarray, power: float) -> Callable[[tuple[Any, ...]], float] | None:
    """The weight of an attempt for :func:`choose_attempt`: the share of the tile-coloured pixels
    (``tilecol``, one mask for every attempt) inside the cells it read, to the ``power`` (0: None,
    no weight). A grid a little off the pitch can read fewer cells as surely as the board's own
    grid reads its own; it leaves tiles between and around its cells unread."""
    if power <= 0:
        return None
    f = 4  # a quarter of the work resolution is plenty for areas
    small = tilecol[::f, ::f]
    total = max(1, int(small.sum()))
    memo: dict[int, float] = {}

    def weight(a: tuple[Any, ...]) -> float:
        key = id(a)
        if key not in memo:
            grid, cells = a[1], a[3]
            mask = np.zeros(small.shape, np.uint8)
            corners = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
            for c in cells:
                quad = grid.to_image(corners + np.array(c, float)) / f
                cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
            memo[key] = (float((mask.astype(bool) & small).sum()) / total) ** power
        return memo[key]
    return weight


def fits_every_prior_tile(unary: dict[tuple[int, int], np.ndarray], templates: list[Template], prior: State,
                          cfg: dict[str, Any], covered: Collection[tuple[int, int]] = ()) -> bool:
    """Whether a grid's cells fit the previous board of a followed game as a whole: a
    :func:`prior_fit` (with ``cfg``'s rank, turn bonus and extra cells, and the cells under a
    figure's foot ``covered``) of at least the number of its known tiles, as when every one of
    them lies on a cell that reads it and no more cells than a gap lays are new."""
    return prior_fit(unary, templates, prior, cfg, covered) >= sum(1 for t in prior.tiles if t.tile.known)


def choose_attempt(attempts: list[tuple[Any, ...]], power: float, prior: State | None,
                   templates: list[Template], cfg: dict[str, Any],
                   coverage: Callable[[tuple[Any, ...]], float] | None = None) -> tuple[Any, ...]:
    """The grid hypothesis to read (attempts as :meth:`BoardReader._attempt` returns them: score,
    grid, blobs, unary, ...), leaving out those that read the table (:func:`reads_the_table`)
    unless all do. Without a prior, the best consistency score over the number of
    cells read to the ``power`` (0: the sum, 1: the mean per cell). A grid too fine splits tiles
    into many cells that each fit a little, a grid too coarse puts several tiles in each cell
    that fit none well: between them the right grid has the best cells, whatever the pitch
    ratio; a power below 1 keeps a grid read on part of the board from beating the whole board
    on a few easy cells. With the previous board of a followed game, first the grid that fits it
    best (:func:`prior_fit`): the game knows how many tiles lie on the table and what they are,
    which a grid read wrongly (too fine, shifted) contradicts; the score then counts as if read on
    the prior's number of tiles, to weigh like that fit."""
    bonus = float(cfg.get("outline_bonus", 1.0))
    attempts = [a for a in attempts if not reads_the_table(a, attempts, cfg, coverage)] or attempts

    def own(a: tuple[Any, ...], n: float = 1.0) -> float:
        # a tiny board's outline grid passed a test no finer grid does (every line between two
        # of its cells is a seam, every cell clearly tile or table), while sub-tile cells of a
        # finer grid each read as a tile just as surely
        gain = bonus if getattr(a[1], "outline", False) and a[0] > 0 else 1.0
        if coverage is not None and a[0] > 0:
            gain *= coverage(a)
        return float(a[0] * gain * (n / max(1, len(a[3]))) ** power)
    # a tiny board's photo (its outline polygon gave grids, or a locate variant fitted one to the
    # board's outline, locate._blob_grid): how much each grid's cells look
    # like the tiles read on them (mean log-likelihood) counts too, which tells grids apart that
    # score alike: the outline fits a lattice a tile longer or twice as fine as well, and each
    # reads its two or three cells as consistently, but their cells are not a tile's (photo
    # games 552, 559). (On every photo, it moved a few near ties of 40-tile boards: test split
    # scans 1 tile fewer, procedural 1 figure fewer.) Two variants' outline grids of a two-tile
    # board on orange wood both read two consistent cells (photo game 1582's second photo): the
    # one a third of a tile too long held more of the tile-coloured pixels (the wood's), and
    # only how its cells looked (-0.77 against -0.41) told it.
    tiny = any(getattr(a[1], "outline", False) for a in attempts)  # (the polygon's grids are outline grids too)
    look_w = float(cfg.get("looks_weight", 0.0)) if tiny else 0.0

    def looks(a: tuple[Any, ...]) -> float:
        return look_w * float(np.mean([a[5][c] for c in a[3]])) if look_w and a[3] else 0.0
    if prior is None or len(attempts) < 2 or not float(cfg.get("prior_fit_weight", 0.0)):
        return max(attempts, key=lambda a: own(a) + looks(a))
    w = float(cfg["prior_fit_weight"])
    n = float(max(1, len(prior.tiles)))
    return max(attempts, key=lambda a: w * prior_fit(a[3], templates, prior, cfg) + own(a, n) + looks(a))
