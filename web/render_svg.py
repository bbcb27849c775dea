"""Draw a ``carcam/state@1`` board as SVG, from the tiles' segments alone.

A pure renderer: :func:`state_svg` takes a :class:`scorer.State` (and optional cells to
highlight) and returns SVG text; it reads no files and no database, so the web pages, the tests
and any other tool get the same picture for the same state. Tiles are drawn from their segments
(fields green, cities tan with shields, roads pale strips, monasteries, and The Castle's paths,
towers, houses and courts), so an inline tile the catalog does not know is drawn as well as a
named one.

Every tile is a ``<g class="cell" data-x data-y>`` and every figure a ``<g class="figure"
data-player data-x data-y data-on>``, which the page's script uses to open the correction dialog.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from scorer import State
from scorer.catalog import Kind, Segment, TileType
from scorer.geometry import EDGE_SLOTS, EDGES, SLOT_EDGE, SLOTS, Cell, neighbour, rotate_slot

#: Size of one cell in SVG units.
S = 100
#: Below this confidence a tile or figure read from a photo is drawn as doubtful.
DOUBTFUL_CONFIDENCE = 0.6

PLAYER_COLOURS: dict[str, str] = {
    "red": "#d62828", "blue": "#1f5fd6", "green": "#2a9d3a", "yellow": "#f4c430",
    "black": "#1b1b1b", "grey": "#8d8d8d", "white": "#fbfbf6",
}
KIND_FILL: dict[Kind, str] = {
    Kind.FIELD: "#7cb85a", Kind.CITY: "#d9b27c", Kind.ROAD: "#f3ecd8", Kind.MONASTERY: "#b5523b",
    Kind.PATH: "#e9dfc4", Kind.TOWER: "#8f8f96", Kind.HOUSE: "#b86b4b", Kind.COURT: "#cfc7a8",
}
#: Kinds drawn as areas (filled regions of the tile), in drawing order.
AREA_ORDER = (Kind.FIELD, Kind.COURT, Kind.HOUSE, Kind.TOWER, Kind.CITY)
#: Kinds drawn as strips from the edge middle towards the centre.
STRIP_KINDS = (Kind.ROAD, Kind.PATH)


def player_colour(player: str) -> str:
    """The display colour of a player colour name (unknown names get a neutral purple)."""
    return PLAYER_COLOURS.get(player, "#7b4ea3")


def _ink(player: str) -> str:
    """A stroke colour that stands out against the player's fill."""
    return "#fff" if player in ("black", "blue", "red", "green") else "#111"


# ---------------------------------------------------------------------------------------------
# tile geometry in unit coordinates (0..1, y down), board orientation
def _perimeter(t: float) -> tuple[float, float]:
    """The point at ``t`` (0..4) along the tile border, clockwise from the north-west corner."""
    t %= 4
    side, f = int(t), t - int(t)
    return [(f, 0.0), (1.0, f), (1.0 - f, 1.0), (0.0, 1.0 - f)][side]


def _slot_mid(slot: str, depth: float) -> tuple[float, float]:
    """A point ``depth`` (0..0.5) in from the middle of an edge slot's border interval."""
    i = SLOTS.index(slot)
    bx, by = _perimeter((i + 0.5) / 3)
    return bx + (0.5 - bx) * depth * 2, by + (0.5 - by) * depth * 2


def _runs(slots: Iterable[str]) -> list[list[int]]:
    """Edge slots of a segment as runs of consecutive slot indices, clockwise."""
    idx = sorted(SLOTS.index(s) for s in slots if s in SLOTS)
    if not idx:
        return []
    if len(idx) == 12:
        return [list(range(12))]
    # start just after a gap so runs that wrap past slot 0 stay whole
    start = next(i for i in range(12) if i in idx and (i - 1) % 12 not in idx)
    runs: list[list[int]] = []
    for k in range(12):
        i = (start + k) % 12
        if i not in idx:
            continue
        if runs and (runs[-1][-1] + 1) % 12 == i:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _area_path(slots: tuple[str, ...], kind: Kind) -> str:
    """SVG path data (unit square) for an area segment owning these board slots."""
    if len(slots) == 1 and slots[0] == "I":
        return "M0.5 0.3 A0.2 0.2 0 1 1 0.4999 0.3 Z"
    edges = {SLOT_EDGE[s] for s in slots if s in SLOT_EDGE}
    runs = _runs(slots)
    if not runs:
        return ""
    if len(runs) == 1 and len(runs[0]) == 12:
        return "M0 0 H1 V1 H0 Z"
    if kind in (Kind.CITY, Kind.HOUSE, Kind.TOWER) and len(edges) == 1 and len(runs) == 1:
        # a cap against one edge, bulging towards the centre
        a = _perimeter(runs[0][0] / 3)
        b = _perimeter((runs[0][-1] + 1) / 3)
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        cx, cy = mx + (0.5 - mx) * 0.9, my + (0.5 - my) * 0.9
        return f"M{a[0]:.3f} {a[1]:.3f} Q{cx:.3f} {cy:.3f} {b[0]:.3f} {b[1]:.3f} Z"
    parts = []
    for run in runs:
        pts = [_perimeter(i / 3) for i in run] + [_perimeter((run[-1] + 1) / 3)]
        parts.append("M0.5 0.5 " + " ".join(f"L{x:.3f} {y:.3f}" for x, y in pts) + " Z")
    if kind is Kind.CITY and len(edges) > 1:
        parts.append("M0.3 0.3 H0.7 V0.7 H0.3 Z")
    return " ".join(parts)


def _segment_anchor(seg_slots: tuple[str, ...], kind: Kind) -> tuple[float, float]:
    """Where a figure on this segment (board slots) is drawn, in unit coordinates."""
    if "C" in seg_slots or "I" in seg_slots:
        return 0.5, 0.5
    edge_slots = [s for s in seg_slots if s in SLOT_EDGE]
    if kind in STRIP_KINDS:
        return _slot_mid(edge_slots[0], 0.25)
    if kind is Kind.FIELD:
        return _slot_mid(edge_slots[len(edge_slots) // 2], 0.18)
    edges = [e for e in EDGES if any(s in EDGE_SLOTS[e] for s in edge_slots)]
    if len(edges) == 1:
        return _slot_mid(EDGE_SLOTS[edges[0]][1], 0.16)
    xs = [_slot_mid(EDGE_SLOTS[e][1], 0.3) for e in edges]
    return sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)


def _board_segments(tile: TileType, rot: int) -> list[tuple[Segment, tuple[str, ...]]]:
    """Each segment of a tile with its slots turned into board orientation."""
    return [(seg, tuple(rotate_slot(s, rot) for s in seg.slots)) for seg in tile.segments]


def tile_body(tile: TileType, rot: int) -> str:
    """The SVG elements of one tile in a unit square (no transform, no outline)."""
    if not tile.known or not tile.segments:
        return ('<rect width="1" height="1" fill="#c9c9c9"/>'
                '<text x="0.5" y="0.64" font-size="0.45" text-anchor="middle" fill="#555">?</text>')
    segs = _board_segments(tile, rot)
    out: list[str] = []
    for kind in AREA_ORDER:
        for seg, slots in segs:
            if seg.kind is kind:
                d = _area_path(slots, kind)
                if d:
                    fill = KIND_FILL[kind]
                    out.append(f'<path d="{d}" fill="{fill}" stroke="{fill}" stroke-width="0.01"/>')
                    if kind is Kind.CITY:
                        out.append(f'<path d="{d}" fill="none" stroke="#8a6a3f" stroke-width="0.025"/>')
    ends = 0
    for seg, slots in segs:
        if seg.kind not in STRIP_KINDS:
            continue
        colour = KIND_FILL[seg.kind]
        mids = [_slot_mid(s, 0.0) for s in slots if s in SLOT_EDGE]
        if len(mids) == 2:
            d = f"M{mids[0][0]:.3f} {mids[0][1]:.3f} Q0.5 0.5 {mids[1][0]:.3f} {mids[1][1]:.3f}"
        else:
            d = " ".join(f"M{x:.3f} {y:.3f} L0.5 0.5" for x, y in mids)
            ends += len(mids) == 1
        out.append(f'<path d="{d}" fill="none" stroke="#6d5a3a" stroke-width="0.16" stroke-linecap="butt"/>')
        out.append(f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="0.11" stroke-linecap="butt"/>')
        if seg.well:
            x, y = _slot_mid(next(s for s in slots if s in SLOT_EDGE), 0.25)
            out.append(f'<circle cx="{x:.3f}" cy="{y:.3f}" r="0.06" fill="#3b82c4" stroke="#fff" stroke-width="0.015"/>')
    has_monastery = any(seg.kind is Kind.MONASTERY for seg, _ in segs)
    if ends and not has_monastery:
        out.append('<rect x="0.41" y="0.41" width="0.18" height="0.18" fill="#5b4a3a"/>')
    for seg, slots in segs:
        if seg.kind is Kind.MONASTERY:
            out.append('<rect x="0.32" y="0.36" width="0.36" height="0.3" rx="0.03" fill="#b5523b" stroke="#5a2a1e" stroke-width="0.02"/>'
                       '<path d="M0.3 0.37 L0.5 0.22 L0.7 0.37 Z" fill="#7a3428"/>'
                       '<path d="M0.5 0.42 V0.6 M0.44 0.48 H0.56" stroke="#fff3d6" stroke-width="0.03"/>')
        if seg.kind is Kind.CITY and seg.shield:
            x, y = _segment_anchor(slots, seg.kind)
            x, y = x + (0.5 - x) * 0.5, y + (0.5 - y) * 0.5
            out.append(f'<path d="M{x - 0.07:.3f} {y - 0.07:.3f} H{x + 0.07:.3f} V{y:.3f} Q{x + 0.07:.3f} {y + 0.07:.3f} '
                       f'{x:.3f} {y + 0.1:.3f} Q{x - 0.07:.3f} {y + 0.07:.3f} {x - 0.07:.3f} {y:.3f} Z" '
                       'fill="#2f5cab" stroke="#fff" stroke-width="0.018"/>')
        if seg.markets:
            x, y = _segment_anchor(slots, seg.kind)
            for k in range(seg.markets):
                out.append(f'<circle cx="{x - 0.06 + 0.06 * k:.3f}" cy="{y + 0.1:.3f}" r="0.025" fill="#c0392b"/>')
    if tile.festival:
        out.append('<circle cx="0.88" cy="0.12" r="0.05" fill="#e0529c" stroke="#fff" stroke-width="0.015"/>')
    return "".join(out)


def meeple_svg(player: str, x: float, y: float, size: float, lying: bool = False) -> str:
    """A follower figure centred at (x, y), ``size`` tall; farmers lie on their side."""
    k = size / 20
    turn = f" rotate(90 {x:.2f} {y:.2f})" if lying else ""
    # a meeple outline 20 units tall centred on (0, 0)
    d = ("M0 -10 C3 -10 4 -7 3.5 -5 L9 -3 C10.5 -2.5 10 0 8.5 0 L5 0 L8 9 C8.5 10 7.5 10.5 6.5 10 "
         "L2 10 L0 5 L-2 10 L-6.5 10 C-7.5 10.5 -8.5 10 -8 9 L-5 0 L-8.5 0 C-10 0 -10.5 -2.5 -9 -3 "
         "L-3.5 -5 C-4 -7 -3 -10 0 -10 Z")
    return (f'<path transform="translate({x:.2f} {y:.2f}) scale({k:.3f}){turn}" d="{d}" '
            f'fill="{player_colour(player)}" stroke="{_ink(player)}" stroke-width="{1.4:.1f}"/>')


def tile_svg(tile: TileType, rot: int, size: int = 64) -> str:
    """One tile on its own (the correction dialog's candidate previews)."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" width="{size}" height="{size}" '
            f'role="img" aria-label="tile {escape(tile.name())} rotation {rot}">{tile_body(tile, rot)}'
            '<rect width="1" height="1" fill="none" stroke="#444" stroke-width="0.02"/></svg>')


# ---------------------------------------------------------------------------------------------
def _frontier(cells: set[Cell]) -> set[Cell]:
    return {neighbour(c, e) for c in cells for e in EDGES} - cells


def state_svg(state: State, doubtful: Iterable[Cell] = (), conflicts: Iterable[Cell] = (),
              show_frontier: bool = True) -> str:
    """The whole board of ``state`` as one SVG document.

    ``doubtful`` cells (read with little confidence or named in a reading warning) get an orange
    dashed frame; cells in ``conflicts`` (edges that do not match) a red frame. With
    ``show_frontier`` the empty cells next to the board are drawn faintly, so a tile the reader
    missed can be added by tapping there. Tiles whose own confidence is below
    :data:`DOUBTFUL_CONFIDENCE` count as doubtful too."""
    doubt = set(doubtful) | {t.at for t in state.tiles if t.confidence is not None and t.confidence < DOUBTFUL_CONFIDENCE}
    doubt |= {m.at for m in state.meeples if m.confidence is not None and m.confidence < DOUBTFUL_CONFIDENCE}
    bad = set(conflicts)
    cells = {t.at for t in state.tiles}
    layout_cells: set[Cell] = set(state.layout.cells) if state.layout is not None else set()
    frontier = _frontier(cells) if show_frontier and cells else set()
    if layout_cells:
        frontier = (frontier | layout_cells) - cells if show_frontier else set()
    every = cells | frontier | layout_cells or {(0, 0)}
    x0 = min(c[0] for c in every)
    y0 = min(c[1] for c in every)
    x1 = max(c[0] for c in every) + 1
    y1 = max(c[1] for c in every) + 1
    pad = 10
    vb = f"{x0 * S - pad} {y0 * S - pad} {(x1 - x0) * S + 2 * pad} {(y1 - y0) * S + 2 * pad}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{vb}" role="img" '
           f'aria-label="board with {len(state.tiles)} tiles and {len(state.meeples)} figures">']
    out.append(f'<rect x="{x0 * S - pad}" y="{y0 * S - pad}" width="{(x1 - x0) * S + 2 * pad}" '
               f'height="{(y1 - y0) * S + 2 * pad}" fill="#3d342b"/>')
    if state.layout is not None:
        for sf in state.layout.start_fields:
            x, y = sf.at
            ex, ey = {"N": (0, -0.12), "S": (0, 1.0), "W": (-0.12, 0), "E": (1.0, 0)}[sf.side]
            w, h = (1, 0.12) if sf.side in ("N", "S") else (0.12, 1)
            out.append(f'<rect x="{(x + ex) * S:.1f}" y="{(y + ey) * S:.1f}" width="{w * S:.1f}" height="{h * S:.1f}" '
                       f'fill="{KIND_FILL[sf.kinds[1]]}" stroke="#222" stroke-width="1"/>')
    for x, y in sorted(frontier):
        out.append(f'<g class="cell empty" data-x="{x}" data-y="{y}" tabindex="0">'
                   f'<rect x="{x * S + 3}" y="{y * S + 3}" width="{S - 6}" height="{S - 6}" rx="6" '
                   'fill="#ffffff10" stroke="#ffffff40" stroke-dasharray="6 6" stroke-width="2"/></g>')
    for t in sorted(state.tiles, key=lambda t: (t.at[1], t.at[0])):
        x, y = t.at
        cls = "cell tile" + (" doubtful" if t.at in doubt else "") + (" conflict" if t.at in bad else "")
        label = f"{t.tile.name()} rot {t.rot} at {x},{y}"
        out.append(f'<g class="{cls}" data-x="{x}" data-y="{y}" tabindex="0"><title>{escape(label)}</title>'
                   f'<g transform="translate({x * S} {y * S}) scale({S})">{tile_body(t.tile, t.rot)}</g>'
                   f'<rect class="frame" x="{x * S + 1}" y="{y * S + 1}" width="{S - 2}" height="{S - 2}" '
                   'fill="none" stroke="#3a2e22" stroke-width="2"/>')
        if t.at in bad:
            out.append(f'<rect x="{x * S + 4}" y="{y * S + 4}" width="{S - 8}" height="{S - 8}" fill="none" '
                       'stroke="#e0201b" stroke-width="6"/>')
        if t.at in doubt:
            out.append(f'<rect x="{x * S + 4}" y="{y * S + 4}" width="{S - 8}" height="{S - 8}" fill="none" '
                       'stroke="#ff8c00" stroke-width="6" stroke-dasharray="12 7"/>'
                       f'<text x="{x * S + S - 14}" y="{y * S + 24}" font-size="22" font-weight="bold" '
                       'fill="#ff8c00" stroke="#000" stroke-width="0.8">?</text>')
        out.append("</g>")
    for tw in state.towers:
        x, y = tw["at"]
        ring = player_colour(tw["closed"]) if tw.get("closed") else "#555"
        out.append(f'<g class="tower"><rect x="{x * S + 62}" y="{y * S + 8}" width="30" height="30" rx="4" '
                   f'fill="#9a9aa3" stroke="{ring}" stroke-width="4"/><text x="{x * S + 77}" y="{y * S + 30}" '
                   f'font-size="18" text-anchor="middle" fill="#111">{int(tw["height"])}</text></g>')
    for br in state.bridges:
        x, y = br["at"]
        d = (f"M{x * S + 50} {y * S} V{y * S + S}" if br["axis"] == "NS" else f"M{x * S} {y * S + 50} H{x * S + S}")
        out.append(f'<path class="bridge" d="{d}" stroke="#5a4630" stroke-width="22"/>'
                   f'<path d="{d}" stroke="#e8dcc0" stroke-width="14"/>')
    for ca in state.castles:
        x, y = ca["at"]
        nx, ny = neighbour(ca["at"], ca["dir"])
        lx, ly = min(x, nx), min(y, ny)
        w, h = (abs(nx - x) + 1) * S, (abs(ny - y) + 1) * S
        out.append(f'<rect class="castle-token" x="{lx * S + 30}" y="{ly * S + 30}" width="{w - 60}" height="{h - 60}" '
                   f'rx="8" fill="#d9b27c" fill-opacity="0.8" stroke="{player_colour(ca["player"])}" stroke-width="6"/>')
    for player, (x, y) in state.palas.items():
        out.append(f'<path class="keep" d="M{x * S + 12} {y * S + 36} l6 -20 l10 12 l8 -16 l8 16 l10 -12 l6 20 Z" '
                   f'fill="{player_colour(player)}" stroke="{_ink(player)}" stroke-width="2"/>')
    tiles = {t.at: t for t in state.tiles}
    per_spot: dict[tuple[Cell, tuple[float, float]], int] = {}
    for m in state.meeples:
        t = tiles.get(m.at)
        kind = Kind.FIELD
        ax, ay = 0.5, 0.5
        if t is not None and t.tile.segments:
            i = t.tile.segment_index_on_board(m.on, t.rot)
            if i is not None:
                seg = t.tile.segments[i]
                kind = seg.kind
                ax, ay = _segment_anchor(tuple(rotate_slot(s, t.rot) for s in seg.slots), kind)
        elif m.on in SLOT_EDGE:
            ax, ay = _slot_mid(m.on, 0.2)
        n = per_spot.get((m.at, (ax, ay)), 0)
        per_spot[(m.at, (ax, ay))] = n + 1
        px, py = (m.at[0] + ax) * S + 12 * n, (m.at[1] + ay) * S
        doubtful = m.confidence is not None and m.confidence < DOUBTFUL_CONFIDENCE
        label = f"{m.player} {kind.value} figure at {m.at[0]},{m.at[1]} on {m.on}"
        out.append(f'<g class="figure{" doubtful" if doubtful else ""}" data-player="{escape(m.player)}" '
                   f'data-x="{m.at[0]}" data-y="{m.at[1]}" data-on="{escape(m.on)}" tabindex="0">'
                   f'<title>{escape(label)}</title><circle cx="{px:.1f}" cy="{py:.1f}" r="22" fill="transparent"/>'
                   + meeple_svg(m.player, px, py, 30, lying=kind is Kind.FIELD)
                   + (f'<circle cx="{px:.1f}" cy="{py:.1f}" r="20" fill="none" stroke="#ff8c00" stroke-width="4" '
                      'stroke-dasharray="6 4"/>' if doubtful else "")
                   + "</g>")
    out.append("</svg>")
    return "".join(out)
