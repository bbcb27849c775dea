"""Stage 5: figures (meeples): colour, position, standing or lying, and the segment under them.

A figure is a compact blob of one player colour whose size matches a wooden meeple at that place
in the image. Three cues keep printed tile art out:

* colour: each player colour is an HSV rule; green is also kept away from this photo's own field
  green (its Lab mode over the tile pixels), which on some editions is nearly as saturated;
* size in board units: blob pixels are mapped to the table plane by the grid's homography, so a
  figure far from the camera and one near it have the same expected area (a fraction of a tile),
  while shields, roofs and other printed details are much smaller;
* fill: a figure's blob is solid, not a scatter of specks.

Standing or lying: the grid homography gives the camera (focal length from the orthogonality of
the table axes, principal point at the image centre), hence the image direction of the world
vertical at every point and how many pixels a figure's height spans there. Seen from well above
(its height spans little), a lying figure shows its whole outline, arms and legs apart, and a
standing one its compact top; from lower down a figure is taken as standing and the segment under
its foot tells a farmer (its extents along and across the "projected vertical" are kept as
features for overlays and tuning). The foot of a standing figure is its lowest point along
the projected vertical (corrected for the base's half depth); the foot of a lying one is the
centre of its footprint, i.e. of its blob mapped onto the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from .lastaxis import norm_last
from .locate import Grid


@dataclass
class Blob:
    """A figure seen in the image (work pixels)."""

    colour: str
    bbox: tuple[int, int, int, int]  # x, y, w, h
    foot: tuple[float, float]
    area: float
    lying: bool
    confidence: float
    features: dict[str, float] = field(default_factory=dict)  # measurements, for overlays and tuning
    hull: tuple[tuple[int, int], ...] = ()  # convex hull of its pixels (work px), for the mask
    #: where the foot would be were the figure standing: set only for a figure read lying whose
    #: outline is within ``figures.flat_doubt_rect`` of the lying bar (``flat_min_rect``)
    standing_foot: tuple[float, float] | None = None
    #: where the foot would be were the figure lying (the footprint's centre): set only for a
    #: figure read standing at a slant (``figures.flat_max_vert`` or more) whose outline is as
    #: ragged and as square as a lying farmer's (``figures.slant_lying_solidity``, ``flat_min_rect``)
    lying_foot: tuple[float, float] | None = None


@dataclass(frozen=True)
class Camera:
    """Pinhole camera of the table plane, recovered from the grid homography.

    ``P`` maps homogeneous world points (board units, z up towards the camera) to work pixels.
    """

    P: np.ndarray  # 3x4

    def project(self, pts: np.ndarray) -> np.ndarray:
        """Work pixels of world points (N, 3)."""
        q = np.c_[pts, np.ones(len(pts))] @ self.P.T
        return q[:, :2] / q[:, 2:3]

    def vertical(self, board_pt: tuple[float, float], height: float) -> tuple[np.ndarray, float]:
        """Unit image direction of the world vertical at a table point, and the pixel length of
        ``height`` (board units) standing there."""
        a, b = self.project(np.array([[board_pt[0], board_pt[1], 0.0], [board_pt[0], board_pt[1], height]]))
        d = b - a
        n = float(np.hypot(*d))
        if n < 1e-6:
            return np.array([0.0, -1.0]), 0.0
        return d / n, n


def camera_from_grid(grid: Grid, shape: tuple[int, int], cfg: dict[str, Any]) -> Camera:
    """The camera of a table-plane homography (work px -> board units).

    The focal length follows from the two rotation columns being orthogonal and of equal norm;
    where the view is too frontal for that to be determined, a typical phone focal length (in
    image widths) is used. A wrong focal length only matters for steep views, where it is
    determined well.
    """
    h, w = shape
    G = np.linalg.inv(grid.H)  # board -> px
    c = np.array([[1.0, 0.0, -w / 2], [0.0, 1.0, -h / 2], [0.0, 0.0, 1.0]])
    M = c @ G
    m1, m2 = M[:, 0], M[:, 1]
    side = float(max(w, h))
    cands = []
    den = m1[2] * m2[2]
    if abs(den) > 1e-12:
        cands.append(-(m1[0] * m2[0] + m1[1] * m2[1]) / den)
    den = m1[2] ** 2 - m2[2] ** 2
    if abs(den) > 1e-12:
        cands.append(-(m1[0] ** 2 + m1[1] ** 2 - m2[0] ** 2 - m2[1] ** 2) / den)
    lo, hi = cfg["focal_range"]
    f = float(cfg["focal_default"]) * side
    good = [np.sqrt(x) for x in cands if x > 0 and lo * side <= np.sqrt(x) <= hi * side]
    if good:
        f = float(good[0])
    K = np.array([[f, 0.0, w / 2], [0.0, f, h / 2], [0.0, 0.0, 1.0]])
    R = np.linalg.inv(K) @ G
    lam = 2.0 / (np.linalg.norm(R[:, 0]) + np.linalg.norm(R[:, 1]))
    if R[2, 2] * lam < 0:  # the table lies in front of the camera
        lam = -lam
    r1, r2, t = R[:, 0] * lam, R[:, 1] * lam, R[:, 2] * lam
    r3 = np.cross(r1, r2)
    # z must point towards the camera: camera centre C = -R^T t has positive z
    Rm = np.c_[r1, r2, r3]
    if float((-Rm.T @ t)[2]) < 0:
        r3 = -r3
    return Camera(K @ np.c_[r1, r2, r3, t])


def colour_mask(hsv: np.ndarray, spec: dict[str, Any]) -> np.ndarray:
    """Pixels of one figure colour by its HSV rule from the configuration."""
    h, s, v = hsv[..., 0].astype(int), hsv[..., 1].astype(int), hsv[..., 2].astype(int)
    m = np.ones(h.shape, dtype=bool)
    if "hue" in spec:
        hm = np.zeros(h.shape, dtype=bool)
        for lo, hi in spec["hue"]:
            hm |= (h >= lo) & (h <= hi)
        m &= hm
    if "sat" in spec:
        sat: float | np.ndarray = float(spec["sat"])
        if "sat_glare" in spec:
            # glare or a bright lamp blends a figure's colour with white: brighter than
            # ``from_val``, the saturation asked for drops by ``per_val`` a step of value, to ``floor``
            v0, per, floor = (float(x) for x in spec["sat_glare"])
            sat = np.maximum(sat - per * np.maximum(v - v0, 0), floor)
        m &= s >= sat
    if "max_sat" in spec:
        m &= s <= spec["max_sat"]
    if "val" in spec:
        m &= v >= spec["val"]
    if "max_val" in spec:
        m &= v <= spec["max_val"]
    if "val_range" in spec:
        m &= (v >= spec["val_range"][0]) & (v <= spec["val_range"][1])
    return m


def _glare_mask(hsv: np.ndarray, spec: dict[str, Any], grass_hue: Any) -> np.ndarray:
    """The pixels of a colour's glare rule (``spec["glare"]``, merged over its own rule): where
    it asks ``above_field_hue``, only those of a hue that far above the printed field's
    (``grass_hue()``, called only then)."""
    rule = spec["glare"]
    m = colour_mask(hsv, {**spec, **rule})
    if "above_field_hue" in rule:
        m &= hsv[..., 0].astype(int) >= grass_hue() + float(rule["above_field_hue"])
    return m


def _field_pixels(hsv: np.ndarray, board: np.ndarray, fc: dict[str, Any]) -> np.ndarray:
    """The printed field's pixels: on the tiles, of field hue and saturation (``figures.field``)."""
    h = hsv[..., 0]
    return board & (h >= fc["hue"][0]) & (h <= fc["hue"][1]) & (hsv[..., 1] >= fc["min_sat"])  # type: ignore[no-any-return]


def _field_exclusion(lab: np.ndarray, hsv: np.ndarray, board: np.ndarray, cfg: dict[str, Any]) -> np.ndarray:
    """Pixels close (Lab) to this photo's printed field green: never a green figure.

    The field mode is the median of the green tile pixels; the distance is scaled by their spread
    so that a noisy or textured field widens the exclusion."""
    fc = cfg["field"]
    pts = lab[_field_pixels(hsv, board, fc)].astype(np.float32)
    if len(pts) < int(fc["min_pixels"]):
        return np.zeros(board.shape, bool)
    if len(pts) > 20000:
        pts = pts[:: len(pts) // 20000]
    mode = np.median(pts, axis=0)
    spread = np.percentile(np.linalg.norm(pts - mode, axis=1), float(fc["spread_pct"]))
    d = norm_last(lab.astype(np.float32) - mode)
    return d <= max(float(fc["min_dist"]), float(fc["spread_mult"]) * spread)  # type: ignore[no-any-return]


def _field_hue(hsv: np.ndarray, board: np.ndarray, cfg: dict[str, Any]) -> float:
    """Median hue of this photo's printed field (the green tile pixels); 180 (no limit) when
    too few are seen.

    Light changes the field's lightness and saturation a lot (an on-camera flash makes it a lit,
    saturated yellow-green) but its hue little; yellow paint stays redder than the grass under
    the same light, so a yellow figure's hue is some way below the field's."""
    fc = cfg["field"]
    g = _field_pixels(hsv, board, fc)
    if int(g.sum()) < int(fc["min_pixels"]):
        return 180.0
    return float(np.median(hsv[..., 0][g]))


def _remember(memo: dict[Any, Any] | None, key: Any, make: Any) -> Any:
    """``make()``, kept in ``memo`` under ``key`` when a memo is given (see :func:`find_figures`)."""
    if memo is None:
        return make()
    if key not in memo:
        memo[key] = make()
    return memo[key]


def find_figures(bgr: np.ndarray, grid: Grid, board_mask: np.ndarray, cfg: dict[str, Any],
                 colours: tuple[str, ...] | None = None, memo: dict[Any, Any] | None = None) -> list[Blob]:
    """Figure blobs on or next to the tiles: colour, foot (work px), standing or lying.

    ``memo``: a dict shared by the calls on one photo (one per grid hypothesis), keeping what
    does not depend on the grid (the colour masks, the field's colour); it holds on to
    ``board_mask`` by identity, so it must not outlive the photo's masks."""
    blur = _remember(memo, "blur", lambda: cv2.GaussianBlur(bgr, (5, 5), 0))
    hsv = _remember(memo, "hsv", lambda: cv2.cvtColor(blur, cv2.COLOR_BGR2HSV))
    cam = camera_from_grid(grid, bgr.shape[:2], cfg)
    tile = float(cfg["tile_mm"])
    fig_h, fig_t = float(cfg["height_mm"]) / tile, float(cfg["thickness_mm"]) / tile
    a_lo, a_hi = float(cfg["min_area_tiles"]), float(cfg["max_area_tiles"])
    side = grid.side_px()  # the tile side whichever way the photo is turned
    k = max(3, int(side * float(cfg["morph_frac"]))) | 1
    big = int(side * float(cfg.get("wide_frac", 0.0)))
    closed, near = _near_board(board_mask, side, k, float(cfg.get("hole_frac", 0.0)))
    # where figures are looked for, with room for the k-kernel opening and closing: each colour's
    # mask is cleaned there only (the same result: it is empty beyond, see _box_around)
    near_box = _box_around(near, 2 * k + 2)
    # for the field and contrast rules
    lab = _remember(memo, "lab", lambda: cv2.cvtColor(blur, cv2.COLOR_BGR2LAB).astype(np.float32))
    fieldmask = None
    local_d: np.ndarray | None = None
    field_hue: float | None = None
    cells: np.ndarray | None = None  # the tiles' cells (_tile_cells), found once a call

    def grass_hue() -> float:
        """The printed field's median hue (:func:`_field_hue`), found once a photo."""
        nonlocal field_hue
        if field_hue is None:
            field_hue = _remember(memo, ("hue", id(board_mask)), lambda: _field_hue(hsv, board_mask, cfg))
        return field_hue

    out: list[Blob] = []
    masks: list[tuple[Blob, np.ndarray]] = []  # each blob with its pixels (x, y), for the shadow test
    for name, spec in cfg["colours"].items():
        if colours is not None and name not in colours:
            continue
        full = _remember(memo, ("colour", name), lambda spec=spec: colour_mask(hsv, spec))
        glare_only: np.ndarray | None = None  # the pixels only the glare rule takes
        if "glare" in spec:
            # a figure washed out by glare or an overexposed photo: paler and brighter than the
            # colour's rule asks, but of a hue well off the printed field's (scans tuning 5014:
            # green figures at saturation 113-137 and value 152-214 on a field of hue 33)
            glare_only = _remember(memo, ("glare", name, id(board_mask)), lambda spec=spec, full=full: _glare_mask(
                hsv, spec, grass_hue) & ~full)
            full = full | glare_only
        m = full.copy()
        if spec.get("not_field"):
            if fieldmask is None:
                fieldmask = _remember(memo, ("field", id(board_mask)), lambda: _field_exclusion(lab, hsv, board_mask, cfg))
            excl = fieldmask
            if "local_contrast" in spec:
                if local_d is None:
                    local_d = _local_difference(blur, lab, side, float(cfg["local_window"]))
                excl = fieldmask & (local_d < float(spec["local_contrast"]))
            m &= ~excl
        if "below_field_hue" in spec:
            m &= hsv[..., 0].astype(int) <= grass_hue() - float(spec["below_field_hue"])
        if "above_field_hue" in spec:
            m &= hsv[..., 0].astype(int) >= grass_hue() + float(spec["above_field_hue"])
        m8 = np.zeros(m.shape, np.uint8)
        m8[near_box] = _opened_closed(m[near_box] & near[near_box], k)
        if cfg.get("whole_at_edge"):
            whole = _remember(memo, ("whole", name, k, id(board_mask)),
                              lambda m=m: _components(_opened_closed(m, k)))
            _add_whole_at_edge(m8, whole[1], whole[2], near, (0.25 * a_lo * side ** 2, a_hi * side ** 2))
        n, lab_img, stats = _components(m8)
        if glare_only is not None and spec["glare"].get("alone") and n > 1:
            # a figure the colour's own rule finds keeps its own outline: the glare rule's
            # pixels join only components mostly of them whose own-rule pixels are less than a
            # figure (a black figure's lit head and the shadow beside it moved its foot and hid
            # more of the tile under it; a black figure of The Castle joined to the dark beside
            # it grew to a keep's size, and the keep, the one blob that large, was lost)
            ids = np.arange(1, n)
            area = stats[1:, cv2.CC_STAT_AREA]
            glare_n = np.bincount(lab_img[glare_only & (lab_img > 0)], minlength=n)[1:]
            own = ids[(glare_n * 2 <= area) | (area - glare_n >= a_lo * side ** 2)]
            if len(own):
                m8[np.isin(lab_img, own) & glare_only] = 0
                n, lab_img, stats = _components(m8)
        if float(cfg.get("pair_split_min_area", 0.0)) > 0 and n > 1:
            m8, n, lab_img, stats = _split_pairs(m8, m, near, closed, n, lab_img, stats, side, k, cfg)
        split = np.zeros(n, bool)  # components left of a split one (a figure, or a sliver of table)
        cloth_lab: np.ndarray | None = None
        if big > 1 and spec.get("split_wide"):
            fill = stats[1:, 4] / np.maximum(stats[1:, 2] * stats[1:, 3], 1)
            odd = (stats[1:, 4] > float(cfg.get("split_above_tiles", a_hi)) * side ** 2) | ((fill < float(cfg["min_fill"]))
                                                       & (stats[1:, 4] >= a_lo * side ** 2))
            if odd.any():
                odd_ids = 1 + np.nonzero(odd)[0]
                was_odd = np.isin(lab_img, odd_ids)
                cloth = lab[was_odd & ~closed]  # the table of this colour, off the tiles
                cloth_lab = np.median(cloth, axis=0) if len(cloth) else None
                off = full & ~closed
                if "split_stand_out" in cfg:
                    # a figure of the cloth's colour rising over the cloth beyond the band
                    # around the tiles: what of it stands out from the cloth is taken whole and
                    # kept out of the cloth the split removes
                    standing_out = _stands_out(lab, off, side, k, cfg["split_stand_out"])
                    _, out_labels, out_stats = _components(standing_out.astype(np.uint8))
                    _add_whole_at_edge(m8, out_labels, out_stats, near, (0.25 * a_lo * side ** 2, a_hi * side ** 2))
                    off &= ~standing_out
                if cells is None:
                    cells = _tile_cells(closed, grid, float(cfg.get("split_cell_tile", 2.0)))
                m8 = _split_wide(m8, off, lab_img, odd_ids, big, k, cells)
                n, lab_img, stats = _components(m8)
                split = np.zeros(n, bool)
                split[np.unique(lab_img[was_odd & (lab_img > 0)])] = True
        for i in range(1, n):
            x, y, w, h, a = (int(v) for v in stats[i])
            if a < 0.25 * a_lo * side ** 2:
                continue
            ys, xs = np.nonzero(lab_img[y:y + h, x:x + w] == i)
            pts = np.c_[xs + x, ys + y].astype(np.float64)
            glared = glare_only is not None and "min_contrast" in spec["glare"] and np.count_nonzero(
                glare_only[pts[:, 1].astype(int), pts[:, 0].astype(int)]) * 2 > len(pts)
            if glared:
                # mostly the glare rule's pixels: a figure stands out from the tile around it
                # where a bright patch of the print fades into its own
                if _contrast(lab, lab_img, i, (x, y, w, h), k) < float(spec["glare"]["min_contrast"]):
                    continue
            if "min_contrast" in spec:
                least = float(spec["min_contrast"])
                contrast = _contrast(lab, lab_img, i, (x, y, w, h), k)
                gap = int(cfg.get("contrast_gap", 0))
                if contrast < least and gap:
                    # a figure of another green than the grass: its own blurred outline and
                    # shaded sides lie right around it, the grass a kernel further off
                    hue = float(np.median(hsv[pts[:, 1].astype(int), pts[:, 0].astype(int), 0]))
                    if abs(hue - grass_hue()) >= float(cfg["contrast_gap_hue"]):
                        contrast = _contrast(lab, lab_img, i, (x, y, w, h), k, gap)
                if contrast < least:
                    continue
            core_frac = float(cfg.get("sliver_core_frac", 0.0))
            if core_frac > 0 and _sliver(pts, (w, h), cfg):
                # a figure joined to a thin strip of its colour (a band of printed grass beside
                # it that the field rules let through): the compact part a wider opening leaves
                core = _compact_core(lab_img[y:y + h, x:x + w] == i, max(3, int(round(core_frac * side))))
                if core is not None:
                    cx, cy, w, h = cv2.boundingRect(core.astype(np.uint8))
                    ys, xs = np.nonzero(core)
                    pts = np.c_[xs + x, ys + y].astype(np.float64)
                    x, y = x + cx, y + cy
            b = _blob(name, pts, (x, y, w, h), grid, cam, fig_h, fig_t, cfg)
            # mostly the glare rule's pixels and larger than any figure: a whole printed feature
            # in glare (photo game 5357: a city's print, 0.38 tile)
            most = float(spec["glare"].get("max_area_tiles", a_hi)) if glared else a_hi
            if b is None or not a_lo <= b.area <= most:
                continue
            pix = pts.astype(np.int32)
            if split[i] and _cloth_part(b, lab[pix[:, 1], pix[:, 0]], closed, grid, cloth_lab, cfg):
                continue
            masks.append((b, pix))
    shadows = set(cfg.get("shadow_colours", ()))
    if shadows:
        out = _drop_shadows(masks, bgr.shape[:2], shadows, k, float(cfg["shadow_touch_frac"]))
    else:
        out = [b for b, _ in masks]
    for b in out:
        b.features["cell_tile"] = _cell_tile(closed, grid, b.foot)
    return out


def _box_around(mask: np.ndarray, margin: int) -> tuple[slice, slice]:
    """The bounding box of ``mask``'s pixels widened by ``margin`` (within the image), as slices.

    An opening or closing with a kernel narrower than ``margin`` / 2 gives the same result in the
    box as on the whole image, when the mask is empty outside the box: OpenCV takes what lies
    beyond the box as empty when dilating and as full when eroding, and through that margin of
    empty pixels neither reaches a pixel whose value could change."""
    x, y, bw, bh = cv2.boundingRect(mask.astype(np.uint8))
    h, w = mask.shape[:2]
    if not bw or not bh:
        return slice(0, 0), slice(0, 0)
    return slice(max(0, y - margin), min(h, y + bh + margin)), slice(max(0, x - margin), min(w, x + bw + margin))


def _components(m8: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats(m8)``'s count, labels and stats, labelled on the
    bounding box of the mask's pixels only (a fraction of the photo: the board). The box starts
    at even coordinates so that OpenCV's 2 x 2 block labelling numbers the components as it
    does on the whole image (checked against it in the tests)."""
    x, y, bw, bh = cv2.boundingRect(m8)
    h, w = m8.shape[:2]
    if not bw or not bh:
        n, labels, stats, _ = cv2.connectedComponentsWithStats(m8)
        return n, labels, stats
    x0, y0 = x & ~1, y & ~1
    n, part, stats, _ = cv2.connectedComponentsWithStats(np.ascontiguousarray(m8[y0:y + bh, x0:x + bw]))
    labels = np.zeros((h, w), np.int32)
    labels[y0:y + bh, x0:x + bw] = part
    stats[1:, cv2.CC_STAT_LEFT] += x0
    stats[1:, cv2.CC_STAT_TOP] += y0
    bx, by, bw0, bh0 = cv2.boundingRect((m8 == 0).astype(np.uint8))  # the background's own box
    stats[0] = (bx, by, bw0, bh0, h * w - int(stats[1:, cv2.CC_STAT_AREA].sum()))
    return n, labels, stats


def sliver_shape(rect: float, fill: float, cfg: dict[str, Any]) -> bool:
    """Whether an outline is a ragged strip, no figure (``figures.sliver_max_rect``,
    ``sliver_max_fill``): its smallest enclosing rectangle thin (``rect``: as wide as long) and
    its bounding box mostly empty (``fill``)."""
    return rect < float(cfg.get("sliver_max_rect", 0.0)) and fill < float(cfg.get("sliver_max_fill", 0.0))


def _sliver(pts: np.ndarray, wh: tuple[int, int], cfg: dict[str, Any]) -> bool:
    """:func:`sliver_shape` of a component's pixels ``pts`` in a bounding box ``wh`` wide and high."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(pts.astype(np.float32))
    return sliver_shape(min(rw, rh) / max(rw, rh, 1.0), len(pts) / float(max(wh[0] * wh[1], 1)), cfg)


def _compact_core(mask: np.ndarray, d: int) -> np.ndarray | None:
    """The largest part of ``mask`` (bool) that an opening with a ``d`` disc leaves, grown back
    by that disc within the mask: a figure without a strip narrower than ``d`` joined to it;
    None when the opening leaves nothing."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d | 1, d | 1))
    m8 = mask.astype(np.uint8)
    opened = cv2.morphologyEx(m8, cv2.MORPH_OPEN, disc)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(opened)
    if n < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return (cv2.dilate((labels == biggest).astype(np.uint8), disc) > 0) & mask  # type: ignore[no-any-return]


def _split_pairs(m8: np.ndarray, mask: np.ndarray, near: np.ndarray, board: np.ndarray, n: int,
                 labels: np.ndarray, stats: np.ndarray, side: float, k: int, cfg: dict[str, Any]
                 ) -> tuple[np.ndarray, int, np.ndarray, np.ndarray]:
    """Two figures of one colour side by side, joined by the closing (:func:`_opened_closed`)
    across the gap between them, taken apart again: a component of at least
    ``pair_split_min_area`` tiles (and at most ``pair_split_max_area``: a table of the colour
    beside the tiles is larger) whose colour ``mask`` (where figures are looked for, ``near``),
    opened only, falls into two or more
    pieces of at least ``pair_piece_min_area`` tiles each becomes those pieces (the smaller
    ones dropped), each at least ``pair_piece_on_board`` on the ``board`` (the tiles' region:
    a patterned black cloth beside the tiles falls into figure-sized pieces too). Returns
    ``m8`` and its components again (unchanged when nothing splits).
    Fresh photo game 3737: blue's new farmer, lying on the last turn's U, and blue's thief
    standing on the J beside it, a tile's seam between them, were one blob (0.2 tiles; the
    pieces 0.08 and 0.11) and one figure; the U was laid without its farmer."""
    least = float(cfg["pair_split_min_area"]) * side ** 2
    most = float(cfg["pair_split_max_area"]) * side ** 2
    piece = float(cfg["pair_piece_min_area"]) * side ** 2
    on_board = float(cfg["pair_piece_on_board"])
    kernel = np.ones((k, k), np.uint8)
    changed = False
    area = stats[1:, cv2.CC_STAT_AREA]
    for i in 1 + np.nonzero((area >= least) & (area <= most))[0]:
        x, y, w, h = (int(v) for v in stats[i, :4])
        comp = labels[y:y + h, x:x + w] == i
        here = mask[y:y + h, x:x + w] & near[y:y + h, x:x + w] & comp
        opened = cv2.morphologyEx(here.astype(np.uint8), cv2.MORPH_OPEN, kernel)
        count, parts, part_stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
        keep = [j for j in range(1, count) if part_stats[j, cv2.CC_STAT_AREA] >= piece]
        on = board[y:y + h, x:x + w]
        if len(keep) < 2 or any(on[parts == j].mean() < on_board for j in keep):
            continue
        box = m8[y:y + h, x:x + w]
        box[comp] = 0
        box[np.isin(parts, keep)] = 1
        changed = True
    if not changed:
        return m8, n, labels, stats
    n, labels, stats = _components(m8)
    return m8, n, labels, stats


def _opened_closed(mask: np.ndarray, k: int) -> np.ndarray:
    """``mask`` as 0/1 bytes, opened then closed with a ``k`` square: specks and seams gone, a
    figure's parts joined."""
    m8 = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    return cv2.morphologyEx(m8, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))  # type: ignore[no-any-return]


def _add_whole_at_edge(m8: np.ndarray, labels: np.ndarray, stats: np.ndarray, near: np.ndarray,
                       area_px: tuple[float, float]) -> None:
    """Add to ``m8`` (in place) the components of the whole photo's colour mask (``labels``,
    ``stats``: its connected components) that meet ``near`` and are of a figure's size
    (``area_px``: pixels): taken whole, not only their part near the tiles.

    A figure standing on a tile's outer edge rises and leans over the table beyond the band
    around the tiles where figures are looked for; only its foot was left, too small for a
    figure (photo game 920: the last turn's blue knight on an E's city cap at the layout's
    edge, 0.06 tile of blue, 0.02 of it near the tiles; the knight was lost, blue a point
    short). A tablecloth of the figure's colour is far larger than a figure and stays cut.
    Each such component is painted within its own box (a lookup over the whole label image
    cost a tenth of a second a photo)."""
    lo, hi = area_px
    for i in np.nonzero((stats[:, cv2.CC_STAT_AREA] >= lo) & (stats[:, cv2.CC_STAT_AREA] <= hi))[0]:
        if i == 0:
            continue
        x, y, w, h = (int(v) for v in stats[i, :4])
        mine = labels[y:y + h, x:x + w] == i
        if (mine & near[y:y + h, x:x + w]).any():
            m8[y:y + h, x:x + w] |= mine.astype(np.uint8)


def _cloth_part(b: Blob, colours: np.ndarray, closed: np.ndarray, grid: Grid, cloth_lab: np.ndarray | None,
                cfg: dict[str, Any]) -> bool:
    """Whether a part left of a split component (:func:`_split_wide`) is what the table of the
    figure's colour leaves in the layout's gaps and bays, not a figure: its foot's cell is less
    than ``split_min_cell_tile`` tile, or its mean colour (``colours``: its pixels' Lab) lies
    within ``split_min_contrast`` of the cloth's (``cloth_lab``), unless it stands well inside a
    tile (its foot's cell at least ``split_keep_cell_tile`` tile) with a figure's size and shape
    (``split_keep_min_area`` tiles, box sides within ``split_keep_min_aspect``): a figure of
    the cloth's own colour and shade is no cloth there (photo game 806: blue knights on a blue
    cloth, 7-9 from it)."""
    on_tile = _cell_tile(closed, grid, b.foot)
    if on_tile < float(cfg.get("split_min_cell_tile", 0.0)):
        return True
    _, _, w, h = b.bbox
    if on_tile >= float(cfg.get("split_keep_cell_tile", 2.0)) and b.area >= float(cfg["split_keep_min_area"]) \
            and min(w, h) >= float(cfg["split_keep_min_aspect"]) * max(w, h):
        return False
    return cloth_lab is not None and float(np.linalg.norm(colours.mean(axis=0) - cloth_lab)) < float(
        cfg.get("split_min_contrast", 0.0))


def _stands_out(lab: np.ndarray, cloth: np.ndarray, side: float, k: int, rule: dict[str, float]) -> np.ndarray:
    """Solid patches of a tablecloth-coloured mask (``cloth``: the cloth's pixels, off the tiles)
    that stand out from the cloth around them (its mean Lab over ``rule["window"]`` tile sides,
    where the cloth fills more than ``rule["min_share"]`` of that window): at least
    ``rule["chroma"]`` more colourful or ``rule["light"]`` lighter, opened with the ``k`` kernel.
    A figure of the cloth's colour is painted and lit from above, brighter and purer than the
    weave; its shadow and the cloth's folds are greyer and darker, and a lamp's light on the
    cloth changes slowly across it (photo game 1539: the last turn's blue thief at the layout's
    edge over a blue cloth, chroma 40 and lightness 70-80 against the cloth's 29 and 55, its
    shadow 18 and 30-38)."""
    win = max(3, int(float(rule["window"]) * side) | 1)
    weight = cv2.boxFilter(cloth.astype(np.float32), -1, (win, win), normalize=True)
    a, b = lab[..., 1] - 128.0, lab[..., 2] - 128.0
    chroma = np.sqrt(a * a + b * b)
    out = np.zeros(cloth.shape, bool)
    enough = weight > float(rule["min_share"])
    for value, rise in ((lab[..., 0], float(rule["light"])), (chroma, float(rule["chroma"]))):
        mean = cv2.boxFilter((value * cloth).astype(np.float32), -1, (win, win), normalize=True) / np.maximum(weight, 1e-3)
        out |= enough & (value >= mean + rise)
    out &= cloth
    return cv2.morphologyEx(out.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8)) > 0


def _split_wide(m8: np.ndarray, off: np.ndarray, labels: np.ndarray, odd: np.ndarray, big: int, k: int,
                cells: np.ndarray | None = None) -> np.ndarray:
    """The mask with its components too large for a figure split: a figure of the table's colour
    (a blue figure on a blue tablecloth) merges with the table into one such component. Their
    parts wider than ``big`` pixels (a figure is narrower) and a kernel ``k`` around them are
    taken out, neither the parts nor the kernel reaching into the tiles' ``cells``
    (:func:`_tile_cells`); what is left of a figure on the tiles stays, slivers go in a ``k``
    opening. Components of a figure's size are not touched."""
    huge = np.isin(labels, odd).astype(np.uint8)
    if cells is not None:
        off = off & ~cells
    wide = cv2.morphologyEx(off.astype(np.uint8), cv2.MORPH_OPEN, np.ones((big, big), np.uint8))
    near = cv2.dilate(wide, np.ones((k, k), np.uint8)) > 0
    if cells is not None:
        near &= ~cells
    rest = huge & ~near
    rest = cv2.morphologyEx(rest.astype(np.uint8), cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    return np.where(huge > 0, rest, m8).astype(np.uint8)  # type: ignore[no-any-return]


def _tile_cells(closed: np.ndarray, grid: Grid, least: float) -> np.ndarray:
    """The grid's cells (work pixels) whose area the closed tile mask covers at least ``least`` of:
    a tile's whole square, where a figure at the layout's edge cuts a notch out of the tile
    colours (none with ``least`` above 1)."""
    out = np.zeros(closed.shape, bool)
    if least > 1.0:
        return out
    h, w = closed.shape
    for r in grid.rows:
        for c in grid.cols:
            quad = grid.to_image(np.array([[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]], float))
            x0, y0 = np.floor(quad.min(axis=0)).astype(int)
            x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
            if x1 <= x0 or y1 <= y0:
                continue
            cell = np.zeros((y1 - y0, x1 - x0), np.uint8)
            cv2.fillPoly(cell, [np.round(quad - [x0, y0]).astype(np.int32)], 1)
            inside = cell > 0
            if inside.any() and float(closed[y0:y1, x0:x1][inside].mean()) >= least:
                out[y0:y1, x0:x1] |= inside
    return out


def _local_difference(blur: np.ndarray, lab: np.ndarray, pitch: float, window: float) -> np.ndarray:
    """Lab distance of every pixel from the median of its neighbourhood (``window`` tile sides).

    The printed field's colour drifts across a photo by more than a green figure differs from it,
    so a photo-wide field colour cannot tell them apart; the grass right around a figure can: a
    figure (about a third of a tile) is a minority of a window twice its size, whose median is
    the grass there. Computed at reduced resolution (about 9 px per window) for speed; ``lab``
    is ``blur`` in Lab (float32)."""
    h, w = blur.shape[:2]
    f = min(1.0, 9.0 / max(window * pitch, 1.0))
    small = cv2.resize(blur, (max(1, int(w * f)), max(1, int(h * f))), interpolation=cv2.INTER_AREA)
    med = cv2.medianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2LAB), max(3, int(window * pitch * f) | 1))
    med = cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    return norm_last(lab - med)


def _near_board(board_mask: np.ndarray, pitch: float, k: int, hole_frac: float) -> tuple[np.ndarray, np.ndarray]:
    """The tile-colour mask with its holes closed, and where a figure may be: that widened by 3k
    pixels.

    A figure is not tile-coloured, so it is a hole in the tile mask as wide as the figure (about a
    third of a tile); widening by a few pixels alone left the middle of most figures outside. The
    mask is closed with a disc of ``hole_frac`` tile sides before it is widened."""
    m = board_mask.astype(np.uint8)
    c = int(pitch * hole_frac) | 1
    if c > 1:
        # a square of the disc's area: OpenCV closes with a square fast, where a disc this wide
        # costs a tenth of a second per photo
        q = max(1, int(round(c * 0.886)))
        m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((q, q), np.uint8))
    return m > 0, cv2.dilate(m, np.ones((k * 3, k * 3), np.uint8)) > 0


def _cell_tile(closed: np.ndarray, grid: Grid, foot: tuple[float, float]) -> float:
    """Fraction of the grid cell under a foot that is tile-coloured (holes closed): whether the
    figure stands on a tile even where the tile was not recognised."""
    u, v = grid.to_board(np.array([foot]))[0]
    g = (np.arange(7) + 0.5) / 7 * 0.8 + 0.1
    pts = np.array([[np.floor(u) + a, np.floor(v) + b] for a in g for b in g])
    q = np.rint(grid.to_image(pts)).astype(int)
    h, w = closed.shape
    ok = (q[:, 0] >= 0) & (q[:, 0] < w) & (q[:, 1] >= 0) & (q[:, 1] < h)
    return float(closed[q[ok, 1], q[ok, 0]].sum()) / len(q)


def _drop_shadows(blobs: list[tuple[Blob, np.ndarray]], shape: tuple[int, int], shadows: set[str], k: int,
                  frac: float) -> list[Blob]:
    """Blobs less those of a dark colour (black, grey) that lie mostly against a figure of another
    colour: the shaded underside and the cast shadow of a blue or green figure pass the black
    rule, and are figure-sized, but they hug that figure; a real black figure stands apart."""
    lit = np.zeros(shape, np.uint8)
    for b, pts in blobs:
        if b.colour not in shadows:
            lit[pts[:, 1], pts[:, 0]] = 1
    if not lit.any():
        return [b for b, _ in blobs]
    near = cv2.dilate(lit, np.ones((2 * k + 1, 2 * k + 1), np.uint8)) > 0
    out = []
    for b, pts in blobs:
        if b.colour in shadows and float(near[pts[:, 1], pts[:, 0]].mean()) >= frac:
            continue
        out.append(b)
    return out


def _contrast(lab: np.ndarray, labels: np.ndarray, i: int, bbox: tuple[int, int, int, int], k: int,
              gap: int = 0) -> float:
    """Lab distance between a component's mean colour and the median of a ring around it, a
    ``k`` kernel wide, ``gap`` kernels off the component.

    A wooden figure stands out from what surrounds it; a darker patch of printed grass, which
    passes a green colour rule on some editions, fades into its own field. Right around a
    figure lie its own shaded sides and the blur of its outline, which the colour rule leaves
    out: a small green figure on the grass measured against them fell under the contrast asked
    (test photo 100013: all five green figures, 3.9-7.8 right around them, 10.5-19 a kernel off)."""
    x, y, w, h = bbox
    pad = k * (gap + 1)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(labels.shape[1], x + w + pad), min(labels.shape[0], y + h + pad)
    inside = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
    inner = cv2.dilate(inside, np.ones((gap * k, gap * k), np.uint8)) if gap else inside
    ring = (cv2.dilate(inside, np.ones(((gap + 1) * k, (gap + 1) * k), np.uint8)) > 0) & (inner == 0)
    if not ring.any():
        return float("inf")
    patch = lab[y0:y1, x0:x1]
    return float(np.linalg.norm(patch[inside > 0].mean(axis=0) - np.median(patch[ring], axis=0)))


def _blob(name: str, pts: np.ndarray, bbox: tuple[int, int, int, int], grid: Grid, cam: Camera,
          fig_h: float, fig_t: float, cfg: dict[str, Any]) -> Blob | None:
    """Measure one colour component: area on the table, standing or lying, foot, confidence."""
    x, y, w, h = bbox
    fill = len(pts) / float(w * h)
    if fill < float(cfg["min_fill"]):
        return None
    centre = pts.mean(axis=0)
    cb = grid.to_board(centre[None])[0]
    up, hpx = cam.vertical((float(cb[0]), float(cb[1])), fig_h)
    # board-unit area of one pixel here (local Jacobian of the homography)
    J = grid.to_board(np.array([centre, centre + [1.0, 0.0], centre + [0.0, 1.0]]))
    px_area = abs(_cross2(J[1] - J[0], J[2] - J[0]))
    area = len(pts) * px_area
    # extents along the projected vertical and across it (pixels)
    across = np.array([-up[1], up[0]])
    su, sx = pts @ up, pts @ across
    (u98, u2), (x98, x2) = np.percentile(su, [98, 2]), np.percentile(sx, [98, 2])
    e_up, e_x = float(u98 - u2), float(x98 - x2)
    # pixels per board unit across the vertical, at the blob
    q = grid.to_image(np.array([cb, cb + [1e-2, 0.0], cb + [0.0, 1e-2]]))
    ppu = float(np.sqrt(abs(_cross2(q[1] - q[0], q[2] - q[0])) / 1e-4))
    # standing figures rise about their height along the vertical; lying ones are as tall as thick
    rise = (e_up - fig_t * ppu * float(cfg["flat_rise_frac"])) / max(hpx, 1.0)
    size = max(e_up, e_x) / max(ppu * fig_h, 1.0)
    hull = cv2.convexHull(pts.astype(np.float32))
    solidity = len(pts) / max(float(cv2.contourArea(hull)), 1.0)
    vert = hpx / max(ppu * fig_h, 1e-9)
    # seen from well above, a standing figure shows its compact top; a lying one its whole
    # outline, arms and legs apart (the convex hull has room to spare). Otherwise the figure is
    # taken as standing and the segment under its foot decides farmer or not: measured on the
    # synthetic benchmark, the extent cues (its rise along the vertical, a square outline; kept
    # in the features for overlays and tuning) were weaker than that
    # (figures.flat_min_rect: and its outline's smallest enclosing rectangle about as wide as
    # long: lying, a meeple shows its whole silhouette, standing only its base, twice as wide as
    # thick; photo game 953's first photo, a monk from straight above read as a farmer)
    (_, _), (rw, rh), _ = cv2.minAreaRect(pts.astype(np.float32))
    rect = min(rw, rh) / max(rw, rh, 1.0)
    lying = vert < float(cfg.get("flat_max_vert", 0.0)) and solidity < float(cfg.get("flat_solidity", 0.0)) \
        and rect >= float(cfg.get("flat_min_rect", 0.0))
    standing_foot: tuple[float, float] | None = None
    lying_foot: tuple[float, float] | None = None
    if lying:
        foot_px = _lying_foot(pts, grid, up, hpx, fig_t, fig_h)
        if rect < float(cfg.get("flat_min_rect", 0.0)) + float(cfg.get("flat_doubt_rect", 0.0)):
            stand = _standing_foot(centre, grid, up, across, su, sx, e_up, hpx, vert, fig_t, fig_h, cfg)
            standing_foot = (float(stand[0]), float(stand[1]))
    else:
        foot_px = _standing_foot(centre, grid, up, across, su, sx, e_up, hpx, vert, fig_t, fig_h, cfg)
        if vert >= float(cfg.get("flat_max_vert", 0.0)) and solidity < float(cfg.get("slant_lying_solidity", 0.0)) \
                and rect >= float(cfg.get("flat_min_rect", 0.0)):
            # at a slant the lying test above does not apply; a ragged, square outline may still
            # be a farmer lying (photo games 900 and 1270): where its foot would be so
            lf = _lying_foot(pts, grid, up, hpx, fig_t, fig_h)
            lying_foot = (float(lf[0]), float(lf[1]))
    conf = float(np.clip(0.5 + 0.5 * fill * min(1.0, area / float(cfg["full_conf_area"])), 0.0, 1.0))
    feats = {"solidity": solidity, "rise": rise, "size": size, "fill": fill, "square": min(e_up, e_x) / max(max(e_up, e_x), 1.0),
             "vert": vert, "rect": rect}
    return Blob(name, bbox, (float(foot_px[0]), float(foot_px[1])), float(area), bool(lying), conf, feats,
                tuple((int(p[0]), int(p[1])) for p in np.rint(hull.reshape(-1, 2))), standing_foot, lying_foot)


def _lying_foot(pts: np.ndarray, grid: Grid, up: np.ndarray, hpx: float, fig_t: float, fig_h: float) -> np.ndarray:
    """The foot (work pixels) of a figure lying: the centre of its pixels' footprint on the
    table, lifted by half its thickness along the camera's vertical ``up`` (``hpx``: the figure's
    height there in pixels)."""
    fb = grid.to_board(pts).mean(axis=0)
    return grid.to_image(fb[None])[0] - up * 0.5 * fig_t / fig_h * hpx  # type: ignore[no-any-return]


def _standing_foot(centre: np.ndarray, grid: Grid, up: np.ndarray, across: np.ndarray, su: np.ndarray,
                   sx: np.ndarray, e_up: float, hpx: float, vert: float, fig_t: float, fig_h: float,
                   cfg: dict[str, Any]) -> np.ndarray:
    """The foot (work pixels) of a standing figure: ``su``, ``sx`` are its pixels' coordinates
    along the camera's vertical ``up`` and across it, ``e_up`` its extent along it, ``hpx`` the
    figure's height there in pixels, ``vert`` that height over the height a figure would show
    seen from the side, ``centre`` its pixels' mean.

    The foot is the base's middle, half its depth beyond its front edge (``bottom``): half the
    thickness at the height's scale, or (figures.foot_from_extent) half of what the figure's
    extent along the vertical leaves after its height where that is more, seen from well above
    (below foot_extent_max_vert): there the height shows little and puts the foot on the base's
    edge. Not at a slant, where the camera model's height is less sure than the base's depth
    (real photo white-table-5players: a knight on a city's edge moved onto the field)."""
    foot_q, edge_q = np.percentile(su, [float(cfg["foot_pct"]), float(cfg["foot_edge_pct"])])
    low = su <= foot_q
    bottom = float(edge_q)
    cx = float(np.median(sx[low]))
    depth = float(cfg["foot_depth_frac"]) * fig_t / fig_h * hpx
    if cfg.get("foot_from_extent", False) and vert < float(cfg.get("foot_extent_max_vert", np.inf)):
        # (at most half the base's width on the table: a camera model that shows the height
        # too small must not push the foot past the base)
        step = grid.to_board(np.array([centre, centre + up]))
        ground = 1.0 / max(float(np.linalg.norm(step[1] - step[0])), 1e-9)  # px per board unit along up
        cap = 0.5 * float(cfg["base_mm"]) / float(cfg["tile_mm"]) * ground
        depth = max(depth, min(0.5 * (e_up - hpx), cap))
    return up * (bottom + depth) + across * cx  # type: ignore[no-any-return]


def _cross2(a: np.ndarray, b: np.ndarray) -> float:
    """z component of the cross product of two 2-D vectors (signed parallelogram area)."""
    return float(a[0] * b[1] - a[1] * b[0])


def figures_mask(shape: tuple[int, int], blobs: list[Blob], cfg: dict[str, Any] | None = None) -> np.ndarray:
    """Pixels covered by figures (to be ignored by tile classification).

    ``cfg["mask"]`` (figures config): ``"box"`` masks each blob's bounding box widened by
    ``mask_pad`` of its larger side; ``"hull"`` masks the convex hull of its pixels widened by
    ``hull_pad`` of that side, which leaves the tile visible around a standing figure's head
    and arms (a road arm or a city edge beside it)."""
    cfg = cfg or {}
    hull_shape = cfg.get("mask", "box") == "hull"
    m = np.zeros(shape, dtype=np.uint8)
    for b in blobs:
        x, y, w, h = b.bbox
        outline = hull_shape and bool(b.hull)  # (a blob without its hull gets the box)
        pad = int(float(cfg.get("hull_pad", 0.08) if outline else cfg.get("mask_pad", 0.15)) * max(w, h))
        if outline:
            # drawn in a window around the blob, widened there, then put in place
            x0, y0 = max(0, x - pad - 1), max(0, y - pad - 1)
            x1, y1 = min(shape[1], x + w + pad + 1), min(shape[0], y + h + pad + 1)
            one = np.zeros((y1 - y0, x1 - x0), dtype=np.uint8)
            cv2.fillConvexPoly(one, np.array(b.hull, np.int32) - np.array([x0, y0], np.int32), 1)
            if pad > 0:
                one = cv2.dilate(one, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * pad + 1, 2 * pad + 1)))
            m[y0:y1, x0:x1] |= one
        else:
            cv2.rectangle(m, (x - pad, y - pad), (x + w + pad, y + h + pad), 1, -1)
    return m > 0


def shield_search_mask(shape: tuple[int, int], blobs: list[Blob], cfg: dict[str, Any],
                       box_colours: set[str] | frozenset[str]) -> tuple[np.ndarray, np.ndarray]:
    """Pixels the coat-of-arms search leaves out: the wider box (``mask_pad``) around figures of
    ``box_colours`` (a blue figure's shaded side passes for a blue crest), the outline
    (``hull_pad``) around the others, so a crest printed beside a red knight is still seen; and
    those boxes alone (a dark blue blob touching one is that figure's, see
    :func:`vision.classify.shield_share`)."""
    boxes = figures_mask(shape, [b for b in blobs if b.colour in box_colours], {**cfg, "mask": "box"})
    others = figures_mask(shape, [b for b in blobs if b.colour not in box_colours], {**cfg, "mask": "hull"})
    return boxes | others, boxes


def segment_offset(segments: np.ndarray, i: int, fu: float, fv: float) -> tuple[float, float]:
    """From point (fu, fv) of a tile to the nearest point of segment ``i`` of its label raster
    (tile sides, (du, dv)); (inf, inf) when the tile has no such cell.

    The raster is coarse (a road is about one cell wide), so the nearest point is on the cells'
    squares, not their centres: a foot anywhere on a road cell is on the road (offset 0)."""
    n = segments.shape[0]
    ys, xs = np.nonzero(segments == i)
    if not len(xs):
        return float("inf"), float("inf")
    half = 0.5 / n
    du = np.clip(fu, (xs + 0.5) / n - half, (xs + 0.5) / n + half) - fu
    dv = np.clip(fv, (ys + 0.5) / n - half, (ys + 0.5) / n + half) - fv
    k = int(np.argmin(np.hypot(du, dv)))
    return float(du[k]), float(dv[k])


def segment_distance(segments: np.ndarray, i: int, fu: float, fv: float) -> float:
    """Distance (tile sides) from point (fu, fv) of a tile to segment ``i`` of its label raster
    (see :func:`segment_offset`): 0 anywhere on the segment's cells."""
    return float(np.hypot(*segment_offset(segments, i, fu, fv)))
