"""Following a game photo by photo: infer the turns between two states and keep a game record.

A single photo cannot show points already scored: followers go home when their feature is
completed. Live scores therefore come from *following* the game. Each new state (read from a
photo) is compared with the game so far, the turns in between are inferred and appended to the
``carcam/game@1`` record, and the scores are the replay of that record (:func:`scorer.replay`).

How a step works (:func:`follow_step`):

1. **Align.** A state from a photo has no true north (``spec/formats.md``, Geometry). The new
   state is mapped onto the record's frame by the rotation (multiple of 90 degrees) and
   translation under which most of its tiles coincide with the tiles already played.
2. **Keep identities.** A laid tile never changes in a real game, so a cell played before keeps
   its tile when a photo reads it otherwise: each such photo (read with confidence
   ``>= REWRITE_BELOW``) only lowers the cell's confidence (``previous`` carries it from step
   to step; photos that agree raise it). The record's turn for the cell is rewritten only when
   a reading with confidence ``>= trust`` meets a cell whose confidence has fallen below
   ``REWRITE_BELOW`` (or was low from the start), or when the tile was set by hand
   (confidence 1.0), and only if the rewritten record still replays legally.
3. **New tiles.** Cells the record does not hold are the tiles played since, if they can be:
   cells not joined to the board are dropped, and a photo with more new cells than a gap can
   hold (``max_gap``: a reader that saw the table as tiles) keeps only the likeliest one
   (adjacent, fitting as read, most confident). A new tile that does not fit its neighbours (a
   misread) or was not recognised is replaced by the tile of the box that fits there and looks
   most like the reading (same tile turned first).
4. **Turns.** Every order of the new tiles (one tile per turn) is tried, each played by the
   engine with :meth:`scorer.Game.play`: who played follows ``players`` in order (a follower
   seen on a new tile names its player; breaking the turn order is allowed only when nothing
   else explains the photo); a follower seen on a new tile went with that tile (when it is
   the only new tile, it may have been misread in colour, then it is the player's whose turn
   it is, or in the feature under it, then it stood on another feature of that tile); followers
   are compared with the photo by cell, and one the photo misses on a feature that was not
   completed stays in the game (a misread, not a return home), and one the photos after keep
   showing in another player's colour is given to that player (a photo that added or missed a
   turn broke the order); and a follower
   may also have been put on a feature that was completed by the end of the gap (it scored and
   went home, so no photo shows it: a *hidden follower*). A sequence is consistent when the
   followers left on the board are exactly the ones the photo shows. Consistent sequences that
   give different track scores or end totals are returned as :class:`Alternative` s so the
   players can be asked which one happened; the first (fewest hidden followers) is the one
   appended.

Scores always come from replaying the record, so the points of every inferred turn are
computed by the engine with its reasons. This module is pure rules code: it imports nothing
from the vision pipeline or the web app.

**The first photo** (:func:`start_record`): its tiles become the start of the record. With one
tile, that tile is the record's ``start``. With several, the catalogue's start tile (``D``,
the one nearest the middle, without a follower) or else any tile without a follower is the
``start`` and every other tile becomes a *given* turn, in an order in which each touches the
tiles before it and every follower can legally be placed (the follower's owner plays that
turn; the other given turns are given to players so that ``players[0]`` plays next). The
given turns score nothing: a follower on a completed feature has gone home before any photo
is taken, so no given turn completes a feature that holds a follower (if the photo shows one
anyway, it is scored and a warning says so).

**The Castle** (``game: "castle"``, :class:`scorer.castle_rules.CastleGame`) is followed the
same way, with what its rules change:

- There is no start tile. The first photo starts an empty record (the wall's layout and the
  wall tiles lying on its corners); the tiles it already shows are inferred as turns, each
  against a start field or a tile before it.
- A photo is read in the wall's own frame, so it is not moved or turned to align it.
- Only paths must continue across an edge; new tiles are joined to the tiles laid or to a
  start field.
- The turn order is strict: the players alternate, except that wall tile 1 gives its holder a
  second turn at once. The search tries each held wall tile 1, 2 or 3 in each turn
  (:func:`_wall_tile_uses`). When the followers seen are in the colour of the player who should
  not be playing, a recent turn is taken to have used wall tile 1, or not to have used it, and
  the turns after it change hands (:func:`_turn_order_fixes`).
- A follower put on a tower or house its own tile completed is asked about, as in the base game.
  A keep placed on a completed house scores only at the end: the end totals tell such
  alternatives apart.
"""

from __future__ import annotations

import copy
import math
import statistics
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from itertools import combinations
from typing import Any

from .board import Board, PlacedTile
from .castle_rules import CastleGame
from .catalog import Kind, TileType, load_catalog
from .errors import CarcamError, IllegalMoveError
from .formats import GameRecord, MeepleEntry, Reading, State, TileEntry, Turn
from .game import Game
from .geometry import (
    EDGE_SLOTS,
    EDGES,
    FACING_SLOT,
    SLOT_EDGE,
    SLOTS,
    Cell,
    joined,
    neighbour,
    rotate_cell,
    rotate_slot,
)

#: A new reading that disagrees with a tile seen before replaces it only at this confidence.
DEFAULT_TRUST = 0.8
#: Confidence of a tile set by hand: it overrides the record whatever was read before.
BY_HAND = 1.0
#: A tile of the record is only rewritten from a photo once its own confidence fell below this
#: (photos that read it otherwise lower it by :data:`DISAGREE_DECAY` each): a laid tile never
#: changes in a real game, so one photo reading it otherwise is far likelier a misread.
REWRITE_BELOW = 0.5
#: Factor on a record tile's confidence for every photo that reads it otherwise (surely enough).
DISAGREE_DECAY = 0.6
#: Gaps of up to this many new tiles are searched exhaustively (every order, every hidden
#: follower); larger gaps take the first consistent order found.
MAX_GAP = 4
#: How many trial plays one step may spend searching before it settles for what it found.
PLAY_BUDGET = 4000
#: Per-cell evidence from a photo reader (``follow_step(evidence=...)``): a photo cell *agrees*
#: with a tile when the tile (at its rotation) is among the cell's ``EVIDENCE_TOP`` likeliest.
EVIDENCE_TOP = 3
#: A tile seen before keeps its identity unless the photo's evidence for the cell's best tile
#: exceeds the evidence for it by more than this (scores are scaled log-likelihoods).
EVIDENCE_KEEP_MARGIN = 8.0
#: A new tile is chosen among the tiles of the box that can legally lie on its cell, by the
#: evidence; those within this of the best stay options for the search (followers may decide).
EVIDENCE_CHOICE_MARGIN = 6.0
#: At most this many options per new cell.
EVIDENCE_CHOICES = 6
#: A photo whose cells agree with less than this share of the record's tiles (under the best
#: alignment; boards of at least ``EVIDENCE_MIN_TILES`` tiles) was read on a wrong grid or is
#: not of this game: it is not used (the next photo shows the turns since).
EVIDENCE_MIN_AGREEMENT = 0.5
EVIDENCE_MIN_TILES = 3
#: ... unless the photo reads whole (see :func:`_unusable`) with at most this many times
#: ``max_gap`` new cells (earlier photos were not used, so the gap may be longer), on a board
#: of at least ``EVIDENCE_MIN_TILES`` tiles (a plain table read as tiles can read whole around
#: one or two tiles).
WHOLE_GAP_FACTOR = 2
#: With the reader's evidence, a new tile's best tile by the evidence with its follower on
#: another feature than read beats a substitute on which the follower stands as read
#: (:meth:`_Candidate.rank`).
TILES_BEFORE_FOLLOWERS = True
#: How many turns back :func:`_turn_order_fixes` looks for the turn that changed The Castle's
#: turn order (wall tile 1): a follower seen since in the other colour says it happened.
TURN_ORDER_BACK = 8
#: Kinds a hidden follower can have stood on (they are completed during play; fields never).
_COMPLETABLE = (Kind.ROAD, Kind.CITY, Kind.MONASTERY, Kind.PATH, Kind.TOWER, Kind.HOUSE)


#: What a photo reader says about each cell of its reading on its own: per cell (the reading's
#: frame), a score per (tile id, rotation) at the tile's distinct rotations, higher is likelier
#: (``vision.reader.ReadDetail.evidence``). Plain data, so this module needs no vision code.
Evidence = Mapping[Cell, Mapping[tuple[str, int], float]]
#: Evidence summed over the photos of a followed game (:attr:`FollowResult.evidence_total`): per
#: cell of the record's frame, how many photos showed it and the sum of their scores per (tile
#: id, rotation in the record's frame). Photos are independent looks at a tile that never
#: changes, so the sum tells tiles apart far better than any one photo.
EvidenceTotal = Mapping[Cell, tuple[int, Mapping[tuple[str, int], float]]]
#: A cell the photo shows (:func:`_in_view`): its quad, carried on from a read neighbour's,
#: lies inside the photo but for at most this much of a tile's side beyond its border. The
#: reader reads a tile the border cuts a little (fresh photo game 3186: the last photo lacked a
#: T read on a shadowed bay of the table beside the layout's end, whose cell ran 7 pixels of
#: 375 over the photo's edge; kept, it gave the last turn's R to the wrong player).
VIEW_OVERHANG = 0.1
#: A photo that shows no new tile and misses a tile at least this many photos showed is not
#: used: the tile laid since may be among those it misses (:func:`follow_step`; photo game 2829).
#: A tile fewer photos showed may be a cell of the table read as a tile, which such photos take
#: out (:func:`_unconfirmed`).
MISSED_TILE_MIN_PHOTOS = 2
#: Said of a new tile the photo did not recognise (:attr:`FollowResult.unread`): it was taken as
#: the likeliest tile that can lie there, which the photo hardly tells. Scans photo game 4504
#: (10% of the photos skipped): the last photo's lamp washed out the new K and blue's farmer on
#: it; taken as a W without the farmer, red ended a point short. Its retake reads the K.
UNREAD_NEW_TILE = "the photo could not recognise it (glare or blur?): take the photo again to be sure"
#: The warning of a photo used that shows no new tile: it may have missed one (in glare, at the
#: photo's edge: photo game 2603, red's N), and the players, who know whether a tile was laid,
#: are told to take it again then.
NO_NEW_TILE = ("the photo shows no new tile: if one was laid since the last photo, take the photo again "
               "(in even light, the whole board in view)")
#: A photo whose new cells include at least this many the reader did not recognise is not used,
#: unless the photo before it was not used either (:func:`follow_step`): a cell of the table read
#: as a tile (a hole in the board under glare) and a new tile in glare both read so, and the
#: follower cannot tell them apart (photo game 2927: the last photo read the hole beside the new
#: E and the E itself unrecognised, and laid a tile on each, a turn too many). Not The Castle's,
#: whose turns may lay several tiles at once (wall tile 1).
UNRECOGNISED_NEW_MAX = 2
#: The followers seen on each cell of the record, photo after photo (:attr:`FollowResult.figures_seen`):
#: per cell, one entry per photo used since the cell was laid: the (player, board slot in the
#: record's frame) of every follower seen on it, or ``None`` when the photo did not show the cell.
FiguresSeen = Mapping[Cell, tuple[tuple[tuple[str, str], ...] | None, ...]]
#: The slot of a follower in :data:`FiguresSeen` when the photo read another tile on its cell
#: than the record's (its slot named a segment of that tile; see :func:`_add_figures`).
UNKNOWN_SLOT = ""
#: Marks a slot in :data:`FiguresSeen` (appended to it) that the reader gave the figure beside
#: its measured foot rather than under it (``vision.reader.ReadDetail.snapped``: a foot just off
#: a road taken as on it). Such a sighting counts :data:`SNAPPED_VOTE` of a vote.
SNAPPED_MARK = "~"
#: How much a snapped sighting weighs in :func:`_revise_followers`: a figure lying on a field
#: beside a road is read "on the road" from some camera angles; a foot on the road itself is
#: read there from all of them.
SNAPPED_VOTE = 0.5
#: Marks a slot in :data:`FiguresSeen` (appended last) that a question of the players already
#: weighed: the photos had left a follower's feature undecided (:func:`_tied_followers`), the
#: step asked, and the players answered (:meth:`FollowResult.figures_answered` marks each
#: sighting of it so far). The record then holds their answer, and a marked sighting votes for
#: the feature the record gives the follower, whatever it named (:func:`_sighting_for`). Photo
#: game 1343: red's thief on an O's road, read on the road by its turn's photo and on the field
#: beside it by the next, was answered "road"; the last photo read it on the field again, and 2
#: photos to 1 moved it there, a point short. (A tile rewritten under the follower forgets the
#: answer with the slots, :func:`_forget_slots`.)
ANSWERED_MARK = "!"
#: What the players' answer itself is worth, in photos, for the feature they chose, on top of
#: the photos it weighed (:data:`ANSWERED_MARK`): more than :data:`FIGURE_ASK_LEAD`, so that the
#: next photo alone neither moves the follower nor asks again; a run of photos that all
#: disagree still does.
ANSWER_VOTES = 2
#: A tile laid from one photo that this many photos used after it do not show at all (each
#: showing the rest of the board) was a cell that is not there (a misread grid): its turn is
#: taken out of the record (:func:`_unconfirmed`).
UNCONFIRMED_AFTER = 2
#: ... and a tile that at most :data:`UNCONFIRMED_SEEN_MAX` photos showed in all (the one that
#: laid it among them), none of the last :data:`UNCONFIRMED_LAPSE` photos used, is taken out as
#: well when the photo now followed has its cell in view (:func:`_in_view`): the same spot of
#: the table read as a tile twice (fresh 4-player photo game 5164: a cell beside the layout's
#: end read as a tile the reader did not recognise, laid as a P, read again two photos later,
#: then lacking in the fifteen photos after; kept, it lengthened green's road by a point).
UNCONFIRMED_SEEN_MAX = 2
UNCONFIRMED_LAPSE = 4
#: Until the first turn is followed, a photo whose evidence puts the start tile more than this
#: behind its cell's likeliest tile is not used (:func:`_start_misread`), unless the photo
#: before was not used either (a start tile this reader never reads plainly: an edition it does
#: not know well). Fresh photo game 5181 (4 players): the second photo, two tiles edge to edge
#: on a plain wooden table, was read on a grid a fifth of a tile off along them, the start tile
#: as a J (D behind by 3.1) and red's I under its knight as an E; the first turn was laid on the
#: wrong side of the start tile, and every photo after fitted a record with a tile too many.
#: The photos of the first turn of 2-player games 3000-3110 (first takes) that were used: the
#: start tile behind by at most 0.4 in 92 of 97 (the first turn's tile right in 90), by 1.1
#: once (right), by 2.0 to 2.5 four times (right in three; the start tile read as E each time,
#: its road not seen).
START_READ_GAP = 1.5
#: A photo that does not fit the record is followed without the last photo's new tiles
#: (:func:`_undo_last_photo`) only when at least this share of the other tiles fit it.
UNDO_MIN_AGREEMENT = 0.9
#: ... and it is followed with tiles of the record corrected from it (:func:`_fits_corrected`)
#: only when they are at most this share of the record's tiles (a wrong grid contradicts most).
CORRECT_MAX_SHARE = 0.25
#: A record that two photos running do not fit, while they agree with each other on at least
#: this share of the tiles either shows (and :data:`RESTART_MIN_TILES` of them), is followed
#: again from its start tile with the second photo (:func:`_agrees_with_unfit`), when it has at
#: most :data:`RESTART_MAX_TURNS` turns.
RESTART_MIN_AGREEMENT = 0.8
RESTART_MIN_TILES = 4
RESTART_MAX_TURNS = 12
#: A photo whose reading is not whole (a cell unrecognised or an edge that does not match) and
#: whose followers stand on earlier tiles without a follower of their colour on that feature at
#: least this often, and as often as where the game has one, is not used (photos of games
#: 1145 and 1157 read right: at most 2 such a photo, nearly always 0;
#: :func:`_stray_followers`).
UNFIT_STRAYS = 3
#: ... or, with that many, when it shows no more than this share of the game's followers where
#: they stand (fresh photo game 4004: the last photo, on orange wood, read on a sheared grid, put
#: 6 of its 14 followers where the game had none and 7 where it had them, and laid three turns
#: for one, red 5 over).
UNFIT_SHOWN_SHARE = 0.5
#: A turn's follower is revised from the photos since (:func:`_revise_followers`) when the
#: photos show it on a feature of the tile at least this many times more than as recorded; its
#: owner (:func:`_revise_owners`) when they show it in another player's colour this many times
#: more than in its own.
FIGURE_MIN_SIGHTINGS = 2
#: The photos since a turn leave its follower's feature undecided while they name it at most
#: this many times more often than another feature the last photo names: the players are asked
#: when the other changes the score (:func:`_tied_followers`; 0 asked at ties only, and photo
#: game 1145's thief read on the field beside its road twice, then on the road by the last
#: photo, stayed a farmer).
FIGURE_ASK_LEAD = 1
#: A follower first seen on a tile laid up to this many turns before the new photo's turns, in
#: its player's colour, is asked about (:func:`_late_followers`).
LATE_FOLLOWER_TURNS = 2
#: A tile played before is rewritten when the evidence summed over at least two photos for the
#: likeliest tile that can lie there beats the evidence for it by more than this.
EVIDENCE_SUM_MARGIN = 8.0
#: ... or, when the two differ only by a coat of arms (twins such as F and G: the board's
#: features are the same, only the city's points differ), by more than this: whether a crest is
#: there is all the photos are asked, and a crest seen in a few photos while a follower stood on
#: it in the others decides it. The same for A and B, which differ only by A's short road to its
#: monastery (:func:`_road_stub_twins`): a follower on the road hides it.
EVIDENCE_TWIN_MARGIN = 2.0
#: What the players' answer is worth for a tile, where the alternatives they chose from lay
#: different tiles on a cell (a tile under a follower whose hidden part tells it from a rival):
#: the tiles offered and not chosen are put this far below the chosen one in the evidence summed
#: so far (:func:`mark_tiles_answered`), a run of photos that all disagree clearly still
#: rewrites it.
#: Scans photo game 4499: red's farmer on a Q's field cap, asked "C (a knight) or Q (a farmer)",
#: answered Q; the farmer hid the cap in every photo after, and with the next two photos the C led
#: by 8.65 (more than :data:`EVIDENCE_SUM_MARGIN`): it was rewritten silently, red 9 points over.
#: Now the photos since ask again first (:func:`_contested_rivals`). As much as the rewrite's own
#: margin, not more: an answer given by the scores alone may name a tile the table does not hold
#: (fresh scans photo game 4506, 10% skipped: of blue's farmer on a W, "V on its field" came before
#: "W on its field" with the same totals and was answered; at four times the margin the photos
#: never asked again).
ANSWER_TILE_LEAD = EVIDENCE_SUM_MARGIN

#: How far below the tile laid the photos' evidence may put another tile that
#: :func:`_closing_tile` takes instead, where the photos since show a turn's follower gone.
CLOSING_TILE_MARGIN = 8.0
#: On a cell a follower covers, a tile with a coat of arms not seen is lifted to its twin
#: without one less this (:func:`_shields_unseen`): a crest under the follower is possible, but
#: the photos of a crest they did not see must not make the twins tie (a tie is then decided by
#: the alphabet, not by the photos).
SHIELD_UNSEEN_COST = 0.05
#: ... and one photo's crest seen there (or, where no follower stands, seen or not) counts at most
#: this much for it or against it (below :data:`EVIDENCE_TWIN_MARGIN`): the photos that cannot
#: show the crest's absence vote nothing against it, so a single photo misreading a crest would
#: otherwise outvote all the others and the players' answer (photo game 290: a Q, crest and all, taken for the R answered, from one photo;
#: 276: an M for an N under a farmer, whose photos showed no crest in all but one). Two photos
#: that see the crest still rewrite the twin. (A follower beside the crest hides it too: game
#: 314's farmer on an O's field hid its crest in some photos, so every follower on the tile counts.)
CREST_SEEN_MAX = 1.5

#: A new tile with a coat-of-arms twin (the same tile with or without a crest), a follower
#: standing on it in the photo, and the photo's evidence for the two within this much of each
#: other: the crest, if any, is under the follower (the reader's crest evidence fades as a figure
#: covers the cell). The players are asked which tile it is (:func:`_hidden_crests`): the answer
#: is worth a point or two at the end, and no photo may show the crest while the follower stays.
CREST_ASK_GAP = 2.5
#: ... and, with no follower on it, within this much: the photo cannot tell either (fresh photo
#: game 3709, 10% of the photos skipped: blue's farmer on the M beside the last turn's O hid the
#: O's city, crest and all, and the O was laid as P, blue a point short).
CREST_TIE_GAP = 1.0
#: A tile laid before this step whose shield twin this photo's evidence puts this much ahead of
#: it, where the photos' sum does not put the tile ahead (:func:`_contested_crests`): the players
#: are asked which it is.
CREST_CONTEST_LEAD = 2.5
#: A new tile whose likeliest legal tile the photo's evidence ranks at least this much below
#: the cell's best (any tile, legal or not) may be no tile at all (a bay of the table read as
#: one): when the step lays other tiles too, the players are asked (:func:`_phantom_tiles`).
#: So is a new tile the reader did not recognise at all (fresh photo game 3385: the last photo
#: read the table through a hole the layout closed on four sides as no tile it knew, its
#: evidence low for every tile, the best 6.3 ahead of the J laid there, which joined red's
#: city: red a point over).
PHANTOM_ASK_GAP = 12.0
#: A new tile under a follower in the photo and another tile the photo's evidence ranks within
#: this much of it, that the board takes too and that changes the end totals: the follower may
#: hide what tells the two apart (a thief on a W's road stands on its village, which makes it
#: a straight road U; a monk on an A hides its road's stub), and the follower stays on it for
#: many turns, so the players are asked which it is (:func:`_hidden_rivals`). On fresh photo
#: games 348-371 the true rival came within 0.7 five times in eight, while 2.5 asked 2.1 more
#: questions a game, nearly all answered with the tile the photo liked best.
RIVAL_ASK_GAP = 1.0
#: ... and within this much where the rival differs from it at one edge only, by a road there,
#: and the follower stands at that edge (:func:`_edge_under_follower`): a figure on a road's
#: stub hides it (photo game 1869: red's thief on an S's stub, the S read as a C by 1.3, taken
#: as a knight on the city, two points over; 1634, a thief on an A's stub read as a B).
STUB_ASK_GAP = 2.5
#: ... and within this much where the rival differs from it at one edge only, by a field there
#: where the tile has a city, and the follower stands at that edge (:func:`_edge_under_follower`):
#: a figure lying or standing on a tile's edge covers the strip of field along it, and the photo
#: reads the city beside it as reaching the edge (fresh photo game 2681: red's farmer on a Q's
#: field edge, the Q read as a C by 5.6 and laid with a knight, red 3 over; 2821, a farmer on an
#: F's field edge laid as a Q).
FIELD_STRIP_ASK_GAP = 6.0
#: ... and within this much when the step asks of the new tile anyway (the crest under its
#: follower, or where the tile lies): the players look at the tile for that question, so a
#: rival further behind costs no question of its own (fresh photo game 2000: red's farmer on
#: an I's field, read as an N by 1.3, asked only whether the N had a crest; neither answer was
#: the I, red a point over at the end).
RIVAL_CROSS_GAP = 2.0

#: A new tile the photo reads as a tile an earlier neighbour's edge turns away, where the
#: neighbour's likeliest tile by the photos' summed evidence that lets the new tile lie as read
#: is within this of the tile laid there: the neighbour may be the misread one, and the players
#: are asked (:func:`_blocked_new_tiles`; fresh photo game 2773: blue's U at the layout's far end
#: read as a W by 3.6 in its turn's photo, 0.9 ahead over two photos; red's E beside it, read by
#: 2.6, was laid as a D to meet the W's road stub, and the I after it as a P, red 3 over).
BLOCKED_NEIGHBOUR_GAP = 2.0
#: An earlier tile under a follower whose rival of another kind the photos' summed evidence puts
#: at least this much ahead of it: the follower may hide what tells the two apart, and the
#: question its turn may not have asked is asked once it changes the end totals
#: (:func:`_contested_rivals`; fresh photo game 2674: blue's farmer on an I's field, read as an N
#: by 1.6 when laid, beyond the new tile's :data:`RIVAL_ASK_GAP`; every photo after read the I
#: ahead, 4.6 over five photos, short of :data:`EVIDENCE_SUM_MARGIN`, and blue ended 3 short).
#: 0.4, not 0.5 (fresh photo game 4209: red's monk on an A read as a U by 1.015 in its turn's
#: photo, just beyond :data:`RIVAL_ASK_GAP`; the three photos after it read the A ahead, 0.46
#: summed by the last, and red ended a point short).
RIVAL_CONTEST_LEAD = 0.4
#: How far below the tile read, per photo of the summed evidence, a rival of an earlier tile is
#: offered when the photos since show a follower on it that its turn's photo missed
#: (:func:`_revised_rivals`): the figure has hidden the same part of the tile in every photo
#: since, and a follower added so is rare, so the question may reach further than the new tile's
#: (photo game 1433: blue's farmer on an F's field, read as a Q's city, F 1.2 a photo behind).
GAINED_RIVAL_GAP = 2.0
#: The players whose figures are the coats of arms' own blue: on a tile with a shield twin where
#: such a follower stands, the photo's crest evidence says nothing either way (the figure's foot
#: and shadow pass for a crest, or the crest for the figure), so the photos' sum does not count
#: its crest either way (:func:`_add_evidence`). Photo game 500: a blue knight's N read as its
#: crested twin M photo after photo, until the sum rewrote it (a point too many at the end);
#: session 36's crests missed on the true grid were mostly under blue knights. (Asking the
#: players about every crest under a blue follower was tried: the crest question took the
#: place of a question that mattered more in photo game 489.)
CREST_COLOURED_PLAYERS = ("blue",)
#: ... except a crest the photo sees clearly beside such a follower that the photo shows: the
#: crest term (the crested twins' evidence over the plain ones', :func:`_crest_term`) at least
#: this (the reader's full term is ``classify.shield_weight``, 3) counts as beside any follower,
#: at most :data:`CREST_SEEN_MAX` (the reader now leaves the blue figure's box out of the crest
#: search and drops a dark blob touching it). Photo game 1019: a Q's crest printed clear of the
#: blue farmer on its field was read in every photo and said nothing, the commoner R was laid,
#: 5 points short at the end. Photos of sessions 50-52, cells where the photo read a blue figure:
#: a plain twin read with a term this high 6 times in 1049, a crested one 739 times in 1026.
#: Followed again from their cached readings, games 782-1033 went 150 -> 152 of 158 right.
CREST_BESIDE_BLUE_MIN = 1.5
#: A cell whose summed evidence holds its tile within this of the crest twin another cell needs
#: (the box's last copy) gives it up (:func:`_twin_swap`).
SWAP_TIE = 0.5
#: ... and only where the cell wanting that twin has been seen in at least this many photos.
SWAP_MIN_PHOTOS = 3
#: A new tile takes its twin from a tile laid before (:func:`_twins_for_new_tiles`) only where
#: the photo lays at most this many new tiles. A photo that lays two (with one photo taken every
#: turn) more often read a cell of the table as one of them, and the next photo, lacking it,
#: takes its turn out (:func:`_vanished_last_photo`), but not the twin it took: fresh photo game
#: 5182 (4 players), a bay of the table read as T took the box's one T from yellow's tile under
#: its knight (the players' answer, T; the photos tied it with S), which stayed S, a point over.
#: A real tile's twin is swapped once its own photos sum (:func:`_twin_swap`).
SWAP_NEW_TILES_MAX = 1


class FollowError(CarcamError):
    """A game cannot be followed from these inputs (no players, no tiles, unsupported game)."""


# ---------------------------------------------------------------------------------------------
# results
@dataclass(frozen=True)
class Transform:
    """How a photo's cells map onto the record's frame: turn the whole board ``rot`` degrees
    clockwise about the origin, then shift it by ``(dx, dy)``."""

    rot: int = 0
    dx: int = 0
    dy: int = 0

    def cell(self, c: Cell) -> Cell:
        x, y = rotate_cell(c, self.rot)
        return (x + self.dx, y + self.dy)

    def tile_rot(self, r: int) -> int:
        return (r + self.rot) % 360

    def slot(self, s: str) -> str:
        return rotate_slot(s, self.rot)


IDENTITY = Transform()


@dataclass(frozen=True)
class Alternative:
    """One way the turns between two photos could have gone, with the scores it leads to.

    ``track`` is the score track after these turns, ``final`` the totals if the game ended
    now, ``points`` what these turns earned, ``summary`` the turns in words (for asking the
    players), ``record`` the game record with these turns appended."""

    turns: tuple[Turn, ...]
    record: GameRecord
    track: Mapping[str, int]
    final: Mapping[str, int]
    points: Mapping[str, int]
    summary: str
    hidden_followers: int = 0


@dataclass(frozen=True)
class FollowResult:
    """What one step of following found.

    * ``turns``: the inferred turns appended to the record (the first alternative's);
    * ``record``: the extended ``carcam/game@1`` record; scores are ``scorer.replay(record)``;
    * ``alternatives``: when the photos allow sequences with different scores, every distinct
      outcome (``alternatives[0]`` is the one in ``record``); empty when unambiguous;
    * ``corrected_state``: the board after the step in the record's frame (tiles with kept
      identities, followers as the engine has them, ``scores`` = the track); pass it as
      ``previous`` to the next step so that low-confidence cells can be corrected later;
    * ``transform``: how the new photo's cells map onto the record's frame;
    * ``warnings``: everything that did not fit, in words;
    * ``evidence_total``: the reader's evidence summed over the photos used so far, per cell of
      the record (when the step had evidence); pass it as ``evidence_total`` to the next step;
    * ``figures_seen``: the followers seen on each cell of the record in the photos used so far;
      pass it as ``figures_seen`` to the next step;
    * ``used``: false when the photo was not used at all (it does not fit the game: a wrong
      grid, too many new cells); the record is unchanged and the warnings say why, so the
      player can take it again;
    * ``unfit``: the photo's own reading (its frame) when it was not used for not fitting the
      record, else None; pass it as ``unfit`` to the next step (a photo taken again);
    * ``asked_about``: the (cell, player) followers whose feature the question asks because the
      photos left it undecided; once the players have answered, pass
      :meth:`figures_answered` as ``figures_seen`` to the next step instead, so that the answer
      is kept against the next photo or two (:data:`ANSWERED_MARK`);
    * ``unread``: the new tiles' cells the photo did not recognise (glare, blur): the players
      are told to take the photo again (:data:`UNREAD_NEW_TILE`).
    """

    record: GameRecord
    turns: tuple[Turn, ...]
    alternatives: tuple[Alternative, ...]
    corrected_state: State
    transform: Transform = IDENTITY
    warnings: tuple[str, ...] = ()
    evidence_total: EvidenceTotal | None = None
    figures_seen: FiguresSeen | None = None
    used: bool = True
    unfit: State | None = None
    asked_about: tuple[tuple[Cell, str], ...] = ()
    #: the cells (record frame) of this step's new tiles the photo did not recognise, each taken
    #: as the likeliest tile that can lie there (:data:`UNREAD_NEW_TILE`): a photo taken again
    #: may tell them
    unread: tuple[Cell, ...] = ()

    @property
    def ambiguous(self) -> bool:
        return len(self.alternatives) > 1

    def figures_answered(self) -> FiguresSeen | None:
        """``figures_seen`` once the players have answered this step's question: the sightings
        of the followers it asked about (``asked_about``) marked :data:`ANSWERED_MARK`. The next
        step then keeps the feature the chosen record gives them unless the photos since clearly
        disagree; an unanswered question's first alternative is no answer, so the plain
        ``figures_seen`` goes on with it."""
        if not self.asked_about or self.figures_seen is None:
            return self.figures_seen
        return mark_answered(self.figures_seen, self.asked_about)

    def evidence_answered(self, index: int) -> EvidenceTotal | None:
        """``evidence_total`` once the players have answered this step's question with
        alternative ``index``: on each cell where the alternatives lay different tiles, the one
        chosen leads the others offered (:func:`mark_tiles_answered`), so that the next photos
        keep it unless many clearly disagree. Unanswered, the plain ``evidence_total`` goes on."""
        if not self.alternatives or self.evidence_total is None:
            return self.evidence_total
        return mark_tiles_answered(self.evidence_total, [a.record for a in self.alternatives], index)

    def choose(self, index: int) -> GameRecord:
        """The record with alternative ``index`` appended instead of the first one."""
        if not self.alternatives:
            if index != 0:
                raise IndexError("this step has no alternatives")
            return self.record
        return self.alternatives[index].record


# ---------------------------------------------------------------------------------------------
# small helpers
def _totals_key(totals: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """Each player's total in a hashable form: alternatives that end alike are one outcome."""
    return tuple(sorted(totals.items()))


def _final_key(game: Game) -> tuple[tuple[str, int], ...]:
    """:func:`_totals_key` of ``game``'s totals if it ended now."""
    return _totals_key(game.final_report().final)


def _standing_key(game: Game) -> tuple[Any, ...]:
    """:func:`_final_key` of ``game`` with the followers standing on its board (player, cell,
    feature's segment): a follower placed where it scores nothing yet is another outcome than
    none, since the game goes on (a farmer in a field whose cities are still open)."""
    return (_final_key(game), tuple(sorted(_engine_figures(game).elements())))


def _foreign(tile: TileType, board: Board) -> bool:
    """Whether ``tile`` belongs to the other game than ``board`` (The Castle's tiles go inside
    a wall, :attr:`Board.layout`; the base game's and its expansions' tiles do not)."""
    return (tile.set == "castle") != (board.layout is not None)


def _board_like(board: Board, tiles: Iterable[tuple[Cell, TileType, int]]) -> Board:
    """A board of ``tiles`` under ``board``'s rules (its wall and the kinds that must match)."""
    return Board.from_tiles(tiles, board.layout, board.strict_kinds)


def _anchors(board: Board) -> set[Cell]:
    """What new tiles must be joined to: the tiles laid, and in The Castle every interior space
    beside a start field (the first tile goes against one)."""
    out = set(board.tiles)
    if board.layout is not None:
        out |= {c for c in board.layout.cells if c not in board.tiles and board.touches(c)}
    return out


def _successor(players: Sequence[str], p: str) -> str:
    return players[(players.index(p) + 1) % len(players)]


def _expected_next(record: GameRecord, game: Game | None = None) -> str:
    """Who plays next by turn order: the player after the last turn that laid a tile (a
    discarded tile is drawn again by the same player; in The Castle, ``game`` tells: the same
    player again after a turn that used wall tile 1)."""
    if isinstance(game, CastleGame):
        return game.next_player or record.players[0]
    for t in reversed(record.turns):
        if not t.discarded and t.player in record.players:
            return _successor(record.players, t.player)
    return record.players[0]


def _segments_look(tile: TileType, rot: int, shields: bool) -> tuple[Any, ...]:
    """A tile's segments as they lie on the board at a rotation (kind, slots, attributes),
    with or without their coats of arms."""
    return tuple(sorted((seg.kind.value, tuple(sorted(rotate_slot(s, rot) for s in seg.slots)),
                         *((seg.shield,) if shields else ()), seg.well, seg.markets) for seg in tile.segments))


@cache
def _signature(tile: TileType, rot: int) -> tuple[Any, ...]:
    """What a tile at a rotation looks like on the board (equal for symmetric rotations)."""
    return (tile.id, _segments_look(tile, rot, shields=True))


def same_tile(a: TileType, ra: int, b: TileType, rb: int) -> bool:
    """Whether two tiles at their rotations look the same on the board (symmetry aware)."""
    return a.known and b.known and _signature(a, ra) == _signature(b, rb)


def _slot_kinds(tile: TileType, rot: int) -> tuple[Any, ...]:
    """The kind at every board slot (and the monastery), for likeness between readings."""
    return tuple(tile.kind_at(rotate_slot(s, (360 - rot) % 360)) for s in SLOTS + ("C",))


def _conf(x: float | None) -> float:
    return 1.0 if x is None else float(x)


def new_game(record: GameRecord) -> Game:
    """A game with every turn of ``record`` played (the engine's view of the game so far)."""
    if record.game == "castle":
        game: Any = CastleGame.from_record(record)
    else:
        game = Game.from_record(record)
    for t in record.turns:
        game.play(t)
    return game


def _clone_board(board: Board) -> Board:
    """A copy of a board whose feature graph can grow on its own (placed tiles are shared).
    The graph's sets (a feature's cells, merged in place when two features join) are copied
    too: shared, a join tried on the copy grew the original's feature (photo game 778: a game
    remembered for the next step counted a tile of another city in blue's, a point too many)."""
    out = copy.copy(board)
    out.tiles = dict(board.tiles)
    graph = copy.copy(board.graph)
    for name, value in vars(board.graph).items():
        if isinstance(value, list):
            setattr(graph, name, [set(v) if isinstance(v, set) else v for v in value])
        elif isinstance(value, dict):
            setattr(graph, name, {k: set(v) if isinstance(v, set) else v for k, v in value.items()})
    graph._board = out  # type: ignore[attr-defined]
    out.graph = graph
    return out


def _clone(game: Game) -> Game:
    """A copy of a game to try a turn on. Placed tiles, figures and past turn results are
    immutable and shared; containers and the board's feature graph are copied (a deep copy
    costs ten times as much, and the search makes one per trial play). A game of The Castle
    has its keeps, wall tiles, notes and scored features copied too."""
    if type(game) is not Game and not isinstance(game, CastleGame):
        return copy.deepcopy(game)
    out = copy.copy(game)
    out.board = _clone_board(game.board)
    out.figures = list(game.figures)
    out.supply = dict(game.supply)
    out.track = dict(game.track)
    out.box = Counter(game.box)
    out.history = list(game.history)
    if isinstance(game, CastleGame) and isinstance(out, CastleGame):
        out.palas = dict(game.palas)
        out.palas_house = dict(game.palas_house)
        out.held = {p: list(v) for p, v in game.held.items()}
        out.used = {p: list(v) for p, v in game.used.items()}
        out.corners = dict(game.corners)
        out.notes = list(game.notes)
        out.scored = list(game.scored)
    return out


#: The games behind the records this module handed out lately, so that the next step need not
#: replay the whole record again (checked by identity; a record is immutable).
_GAMES: dict[int, tuple[GameRecord, Game]] = {}


def _remember(record: GameRecord, game: Game) -> None:
    _GAMES[id(record)] = (record, game)
    while len(_GAMES) > 32:
        del _GAMES[next(iter(_GAMES))]


def _game_for(record: GameRecord) -> Game:
    """The game after every turn of ``record`` (from the cache when this module made it)."""
    hit = _GAMES.get(id(record))
    if hit is not None and hit[0] is record:
        return _clone(hit[1])
    game = new_game(record)
    _remember(record, game)
    return _clone(game)


def _segment(tile: TileType, rot: int, slot: str) -> int | None:
    return tile.segment_index_on_board(slot, rot)


def _figure_key(board: Board, player: str, at: Cell, on: str) -> tuple[str, Cell, int] | None:
    placed = board.tiles.get(at)
    if placed is None or not placed.tile.segments:
        return None
    i = placed.segment_at(on)
    return None if i is None else (player, at, i)


def _engine_figures(game: Game) -> Counter[tuple[str, Cell, int]]:
    out: Counter[tuple[str, Cell, int]] = Counter()
    for f in game.figures:
        k = _figure_key(game.board, f.player, f.at, f.on)
        if k is not None:
            out[k] += 1
    return out


def _as_state(new: State | Reading) -> tuple[State, list[str]]:
    if isinstance(new, Reading):
        return new.state, [f"reading: {w}" for w in new.warnings]
    return new, []


def _describe_turn(t: Turn, result_points: Mapping[str, int] | None = None) -> str:
    if t.discarded or t.tile is None or t.at is None:
        return f"{t.player} discarded a tile"
    text = f"{t.player} laid {t.tile.name()} at {list(t.at)} (rot {t.rot})"
    if t.meeple is not None:
        placed = t.tile.kind_at(rotate_slot(t.meeple, (360 - t.rot) % 360))
        text += f" with a follower on the {placed.value if placed else '?'} ({t.meeple})"
    if t.take_back is not None:
        text += f" and took back the follower at {list(t.take_back[0])}"
    if result_points:
        gained = ", ".join(f"{p} +{n}" for p, n in result_points.items() if n)
        if gained:
            text += f": {gained}"
    return text


# ---------------------------------------------------------------------------------------------
# alignment
def align(ref: Mapping[Cell, tuple[TileType, int]], state: State,
          figures: Iterable[tuple[str, Cell]] = ()) -> tuple[Transform, int]:
    """The transform that maps ``state`` onto the cells of ``ref`` best. Candidates come from
    pairs of tiles that look alike; each is scored by the tiles that coincide exactly (same tile,
    same orientation), then by those of the same type turned otherwise, then by cells covered
    (so a misread first tile can still be aligned). Ties prefer fewer followers on old tiles that
    ``figures`` (player, cell) does not have, then fewer edge conflicts, then no rotation.
    Returns the transform and how many tiles coincide exactly.

    A state of The Castle is read in the wall's own frame (the layout's cells), so it is not
    moved at all."""
    if state.game == "castle":
        return IDENTITY, sum(1 for e in state.tiles if e.at in ref and e.tile.known
                             and _signature(e.tile, e.rot) == _signature(*ref[e.at]))
    if not ref or not state.tiles:
        return IDENTITY, 0
    exact: dict[tuple[Any, ...], list[Cell]] = {}
    by_id: dict[str | None, list[Cell]] = {}
    for c, (tile, rot) in ref.items():
        if tile.known:
            exact.setdefault(_signature(tile, rot), []).append(c)
            by_id.setdefault(tile.id, []).append(c)
    small = len(ref) <= 3
    candidates: set[Transform] = set()
    for q in (0, 90, 180, 270):
        votes: tuple[Counter[Cell], Counter[Cell], Counter[Cell]] = (Counter(), Counter(), Counter())
        for e in state.tiles:
            x, y = rotate_cell(e.at, q)
            if e.tile.known:
                for px, py in exact.get(_signature(e.tile, (e.rot + q) % 360), ()):
                    votes[0][(px - x, py - y)] += 1
                for px, py in by_id.get(e.tile.id, ()):
                    votes[1][(px - x, py - y)] += 1
            if small:
                for px, py in ref:
                    votes[2][(px - x, py - y)] += 1
        for v in votes:
            candidates.update(Transform(q, dx, dy) for (dx, dy), _ in v.most_common(3))

    if not candidates:
        # nothing in the photo matches a tile seen before (a badly misread photo): fall back to
        # laying the two boards' bounding boxes on each other, in each rotation
        rx = min(c[0] for c in ref)
        ry = min(c[1] for c in ref)
        for q in (0, 90, 180, 270):
            turned = [rotate_cell(e.at, q) for e in state.tiles]
            candidates.add(Transform(q, rx - min(x for x, _ in turned), ry - min(y for _, y in turned)))

    def score(t: Transform) -> tuple[int, int, int]:
        same = alike = covered = 0
        for e in state.tiles:
            there = ref.get(t.cell(e.at))
            if there is None:
                continue
            covered += 1
            if e.tile.known and e.tile.id == there[0].id:
                alike += 1
                same += _signature(e.tile, t.tile_rot(e.rot)) == _signature(*there)
        return (same, alike, covered)

    scored = {t: score(t) for t in candidates}
    best = max(scored.values())
    top = sorted((t for t, sc in scored.items() if sc == best), key=lambda t: (t.rot, abs(t.dx) + abs(t.dy), t.dx, t.dy))
    if len(top) > 1:
        known = Counter(figures)

        def unexplained(t: Transform) -> int:
            seen = Counter((m.player, t.cell(m.at)) for m in state.meeples if t.cell(m.at) in ref)
            return sum((seen - known).values())

        def conflicts(t: Transform) -> tuple[int, int]:
            tiles = dict(ref)
            for e in state.tiles:
                c = t.cell(e.at)
                if c not in tiles and e.tile.known:
                    tiles[c] = (e.tile, t.tile_rot(e.rot))
            return (unexplained(t), len(Board.from_tiles((c, tl, r) for c, (tl, r) in tiles.items()).conflicts()))
        top.sort(key=conflicts)
    return top[0], best[0]


# ---------------------------------------------------------------------------------------------
# evidence (per-cell scores from a photo reader)
@cache
def _canonical_rot(tile: TileType, rot: int) -> int:
    """The distinct rotation of ``tile`` that looks like ``rot`` (how evidence is keyed)."""
    rot %= 360
    for r in tile.rotations():
        if _signature(tile, r) == _signature(tile, rot):
            return r
    return rot


def _kth(scores: Mapping[tuple[str, int], float]) -> float:
    """The score a tile needs to be among a cell's :data:`EVIDENCE_TOP` likeliest."""
    top = sorted(scores.values(), reverse=True)
    return top[min(EVIDENCE_TOP, len(top)) - 1]


class _CellEvidence:
    """A photo's evidence seen from the record's frame (through the photo's transform)."""

    def __init__(self, evidence: Evidence, t: Transform) -> None:
        self.evidence = {c: v for c, v in evidence.items() if v}
        self.t = t
        self.at = {t.cell(c): c for c in self.evidence}
        self.best = {c: max(v.values()) for c, v in self.evidence.items()}
        self.kth = {c: _kth(v) for c, v in self.evidence.items()}

    def score(self, cell: Cell, tile: TileType, rot: int) -> float | None:
        """The evidence for ``tile`` at ``rot`` (record frame) on ``cell``, if the photo has it."""
        c = self.at.get(cell)
        if c is None or not tile.known or tile.id is None:
            return None
        return self.evidence[c].get((tile.id, _canonical_rot(tile, rot - self.t.rot)))

    def gap(self, cell: Cell, tile: TileType, rot: int) -> float | None:
        """How far the evidence for the tile falls short of the cell's likeliest tile."""
        v = self.score(cell, tile, rot)
        return None if v is None else self.best[self.at[cell]] - v

    def ranked(self, cell: Cell) -> list[tuple[float, TileType, int]]:
        """Every tile the photo has evidence for on ``cell`` with its rotation (record frame),
        likeliest first."""
        c = self.at.get(cell)
        return [] if c is None else _ranked(self.evidence[c], self.t.rot)


@cache
def _without_shields(tile: TileType, rot: int) -> tuple[Any, ...]:
    """What a tile at a rotation looks like with its coats of arms left out: a tile and its
    twin with (without) a shield look alike where a follower stands on the crest."""
    return _segments_look(tile, rot, shields=False)


def _shields_unseen(values: Mapping[tuple[str, int], float], hidden: bool = True,
                    neutral: bool = False, figure_seen: bool = False) -> dict[tuple[str, int], float]:
    """A cell's evidence with every tile that has a coat of arms held within
    :data:`CREST_SEEN_MAX` of the best of its twins without one (see :func:`_without_shields`):
    one photo never tells the twins apart alone. Where a follower may hide the crest
    (``hidden``) it is also lifted to that twin's less :data:`SHIELD_UNSEEN_COST`: a crest not
    seen may be under the follower, while a crest seen is still seen. Where the follower is of
    the crests' own blue (``neutral``: :data:`CREST_COLOURED_PLAYERS`) its foot and shadow pass
    for a crest, so neither a crest seen nor one not seen says anything (see
    :func:`_crest_term_removed`), unless the photo shows that follower there (``figure_seen``)
    and sees a crest clearly (:data:`CREST_BESIDE_BLUE_MIN`): that counts
    :data:`CREST_SEEN_MAX`."""
    if neutral:
        term = _crest_term(values)
        seen = figure_seen and term >= CREST_BESIDE_BLUE_MIN
        return _crest_term_removed(values, min(term, CREST_SEEN_MAX) if seen else 0.0)
    catalog = load_catalog()
    best: dict[tuple[Any, ...], float] = {}
    keyed: list[tuple[tuple[str, int], tuple[Any, ...] | None, float]] = []
    for (tid, r), v in values.items():
        tile = catalog.get(tid)
        twin = _without_shields(tile, r) if tile is not None else None
        if twin is not None and not _has_crest(tile):  # type: ignore[arg-type]
            best[twin] = max(best.get(twin, -math.inf), float(v))
        keyed.append(((tid, r), twin, float(v)))
    below, above = (SHIELD_UNSEEN_COST if hidden else CREST_SEEN_MAX), CREST_SEEN_MAX
    out: dict[tuple[str, int], float] = {}
    for k, twin, v in keyed:
        plain = best.get(twin) if twin is not None else None
        out[k] = v if plain is None else min(max(v, plain - below), plain + above)
    return out


def _twin_sides(values: Mapping[tuple[str, int], float]) -> dict[tuple[Any, ...], dict[bool, float]]:
    """A cell's evidence per look with the coats of arms left out (:func:`_without_shields`):
    the best of its tiles with a crest (``True``) and without one (``False``)."""
    catalog = load_catalog()
    looks: dict[tuple[Any, ...], dict[bool, float]] = {}
    for (tid, r), v in values.items():
        tile = catalog.get(tid)
        if tile is None:
            continue
        sides = looks.setdefault(_without_shields(tile, r), {})
        crest = _has_crest(tile)
        sides[crest] = max(sides.get(crest, -math.inf), float(v))
    return looks


def _crest_term(values: Mapping[tuple[str, int], float]) -> float:
    """What the photo says of a coat of arms on a cell: the median, over the tiles that have a
    shield twin, of the crested twin's evidence less the plain one's (0 where none has one)."""
    return _sides_term(_twin_sides(values))


def _sides_term(looks: Mapping[tuple[Any, ...], Mapping[bool, float]]) -> float:
    """:func:`_crest_term` from a cell's :func:`_twin_sides`."""
    diffs = [s[True] - s[False] for s in looks.values() if len(s) == 2]
    return float(statistics.median(diffs)) if diffs else 0.0


def _crest_term_removed(values: Mapping[tuple[str, int], float], keep: float = 0.0) -> dict[tuple[str, int], float]:
    """A cell's evidence with what the photo says of a coat of arms taken out of every city tile.

    The reader adds one crest term per cell to every tile with a city, half of it up for a tile
    with a coat of arms and half down for one without (``vision.reader``). A tile and its shield
    twin (:func:`_without_shields`) differ by that term alone; the median of those differences
    is the cell's term, and each city tile gets half of it back: the twins alike (their mean),
    and the city tiles without a twin as if no crest had been looked for, like the tiles without
    a city. Taking the crested twin down to its plain twin alone, as before, left the term in
    the crested tile without a twin (C) and in the plain city tiles: photo game 910, a Q under a
    blue farmer whose foot read as a crest fell 3 below its twin's value in every photo while the
    C kept the crest's 1.5 up, so the sum took the Q for C against the players' answer.

    ``keep``: a crest term given back instead, half up for every city tile with a coat of arms
    and half down for every one without (a crest seen beside a blue follower,
    :data:`CREST_BESIDE_BLUE_MIN`): the twins then differ by ``keep`` and the C gains no more
    than the crested twins."""
    catalog = load_catalog()
    looks = _twin_sides(values)
    pairs = {look: (s[True] + s[False]) / 2 for look, s in looks.items() if len(s) == 2}
    term = _sides_term(looks)
    out: dict[tuple[str, int], float] = {}
    for key, v in values.items():
        tile = catalog.get(key[0])
        look = _without_shields(tile, key[1]) if tile is not None else None
        crest = tile is not None and _has_crest(tile)
        back = keep / 2 if crest else -keep / 2
        if look in pairs:
            out[key] = pairs[look] + back
        elif tile is not None and any(seg.kind is Kind.CITY for seg in tile.segments):
            out[key] = float(v) - term / 2 + back if crest else float(v) + term / 2 + back
        else:
            out[key] = float(v)
    return out


def _crest_coloured_cells(game: Game) -> set[Cell]:
    """The cells where the game has a follower of the crests' own blue
    (:data:`CREST_COLOURED_PLAYERS`). The figure stands there whether a photo sees it or not: a
    blue knight the reader missed, its body read as the crest instead, must not count for the
    crest either (photo game 914: two photos that lost blue's knight on an N read its crest, and
    their sum rewrote the N the players had answered to M, a point too many)."""
    return {f.at for f in game.figures if f.player in CREST_COLOURED_PLAYERS}


def _edges_that_differ(a: PlacedTile, b: PlacedTile) -> list[str]:
    """The edges at which two laid tiles show different kinds (city, road, field)."""
    return [e for e in EDGES if a.kind_at(e) is not b.kind_at(e)]


def _hides_its_road(game: Game, cell: Cell, tile: TileType, rot: int) -> bool:
    """Whether a follower of ``game`` on ``cell`` stands on a road of the tile there that the
    tile ``tile`` at ``rot`` (a photo's reading) takes away at one of its edges, all else alike.

    A thief covers much of a short road: the stub of an S or an A between its city or monastery
    and the edge is about a figure's base long, so photos read the tile without it (photo game
    1543: a thief on an S's stub summed up as a C over three photos, the thief taken as a knight
    on a four-tile city). What a follower covers is not seen; a road seen around one is. So while
    the photo shows a follower on the cell, its reading does not take the road away where that is
    all it changes: the two tiles differ at one edge only, the road's (a reading that differs
    elsewhere too says more than a hidden stub), and where one of the two has a monastery the
    other lacks (a figure on the road at the tile's edge does not hide the cloister in its
    middle: photo game 2429, red's thief on an A's road stub laid as a V's road, and photo after
    photo reading the A, monastery and all, was kept from it)."""
    placed = game.board.tiles.get(cell)
    if placed is None or _has_monastery(placed.tile) != _has_monastery(tile):
        return False
    differ = _edges_that_differ(placed, PlacedTile(tile, rot))
    if len(differ) != 1:
        return False
    for f in game.figures:
        if f.at != cell:
            continue
        here = _segment_at(placed.tile, placed.rot, f.on)
        if here is not None and here[0] is Kind.ROAD and differ[0] in here[1]:
            return True
    return False


def _roads_in_the_way(record: GameRecord, overrides: Sequence[tuple[Cell, TileEntry]],
                      kept_roads: Sequence[tuple[Cell, TileEntry]]
                      ) -> tuple[list[tuple[Cell, TileEntry]], tuple[GameRecord, Game] | None]:
    """The rewrites of ``kept_roads`` (a road a follower may hide, :func:`_hides_its_road`) that
    the other ``overrides`` need, which do not fit the record alone (the caller tried them):
    those beside one of them, when all together fit; with the record and game rewritten so,
    or ``([], None)``. A road kept under a follower must not block a neighbour the photos show
    clearly (photo game 1332: blue's monk on an A, the A taken as a U, its road through the monk;
    the V north of it read so by every photo, 40 points over the W taken, could never be
    laid, as its field met the U's road, and the A was kept a U for its "hidden" road)."""
    cells = {c for c, _ in overrides}
    beside = [(c, e) for c, e in kept_roads if any(neighbour(c, edge) in cells for edge in EDGES)]
    fixed = _rewrite(record, [(c, e.tile, e.rot) for c, e in [*overrides, *beside]]) if beside else None
    return (beside, fixed) if fixed is not None else ([], None)


def _add_evidence(total: EvidenceTotal | None, cev: _CellEvidence, cells: Iterable[Cell],
                  covered: Iterable[Cell] = (), crest_coloured: Iterable[Cell] = (),
                  blue_seen: Iterable[Cell] = ()) -> dict[Cell, tuple[int, dict[tuple[str, int], float]]]:
    """``total`` plus this photo's evidence on ``cells`` (record frame) that the photo shows.

    On ``covered`` cells (a follower stands there in this photo) a coat of arms not seen does not
    count against the tiles that have one (:func:`_shields_unseen`): a follower on a city often
    stands on its crest, and one that stays there for many turns would otherwise outvote the
    photos that show the crest once it has gone home (when the city is complete, so the record
    is rewritten and rescored then). A crest seen still counts. On every cell one photo counts
    at most :data:`CREST_SEEN_MAX` between a tile and its shield twin (photo game 305: an R's
    third photo, the first without its follower in it, read a crest by 3 and took the Q). On
    ``crest_coloured`` cells (a blue follower stands there, in the photo or in the game:
    :func:`_crest_coloured_cells`) the photo says nothing of the crest
    (photo game 500: a blue knight's N read as its crested twin M in photo after photo while it
    stood there, and the N was rewritten), unless the photo shows the follower there
    (``blue_seen``) and sees a crest clearly (:data:`CREST_BESIDE_BLUE_MIN`)."""
    catalog = load_catalog()
    hidden = set(covered)
    blue = set(crest_coloured)
    seen = set(blue_seen)
    out: dict[Cell, tuple[int, dict[tuple[str, int], float]]] = {
        c: (n, dict(v)) for c, (n, v) in (total or {}).items()}
    for cell in cells:
        c = cev.at.get(cell)
        if c is None:
            continue
        n, sums = out.get(cell, (0, {}))
        values = _shields_unseen(cev.evidence[c], cell in hidden, cell in blue, cell in seen)
        for (tid, r), v in values.items():
            tile = catalog.get(tid)
            if tile is None:
                continue
            key = (tid, _canonical_rot(tile, r + cev.t.rot))
            sums[key] = sums.get(key, 0.0) + float(v)
        out[cell] = (n + 1, sums)
    return out


class _SummedEvidence:
    """Evidence summed over photos (:data:`EvidenceTotal`), with :class:`_CellEvidence`'s
    ``score`` and ``gap`` (record frame); only cells seen in at least ``least`` photos."""

    def __init__(self, total: EvidenceTotal, least: int = 2) -> None:
        self.sums = {c: v for c, (n, v) in total.items() if n >= least and v}
        self.photos = {c: n for c, (n, _) in total.items() if c in self.sums}
        self.best = {c: max(v.values()) for c, v in self.sums.items()}

    def score(self, cell: Cell, tile: TileType, rot: int) -> float | None:
        v = self.sums.get(cell)
        if v is None or not tile.known or tile.id is None:
            return None
        return v.get((tile.id, _canonical_rot(tile, rot)))

    def gap(self, cell: Cell, tile: TileType, rot: int) -> float | None:
        v = self.score(cell, tile, rot)
        return None if v is None else self.best[cell] - v

    def ranked(self, cell: Cell) -> list[tuple[float, TileType, int]]:
        """Every tile the photos have evidence for on ``cell`` with its rotation, likeliest
        first (as :meth:`_CellEvidence.ranked`)."""
        return _ranked(self.sums.get(cell, {}))


def _ranked(values: Mapping[tuple[str, int], float], turn: int = 0) -> list[tuple[float, TileType, int]]:
    """Each tile of one cell's evidence ``values`` ((tile id, rotation) -> score) with its score and
    its rotation turned by ``turn`` degrees (into the record's frame), likeliest first."""
    catalog = load_catalog()
    out = [(float(v), tile, _canonical_rot(tile, r + turn)) for (tid, r), v in values.items()
           if (tile := catalog.get(tid)) is not None]
    return sorted(out, key=lambda o: (-o[0], o[1].id or "", o[2]))


def _align_by_evidence(ref: Mapping[Cell, tuple[TileType, int]], evidence: Evidence,
                       extra: Iterable[Transform] = (), photo_figures: Iterable[Cell] = (),
                       record_figures: Iterable[Cell] = (), search: bool = True) -> tuple[Transform, int]:
    """The transform under which most of the record's tiles are among the likeliest tiles of the
    photo cell they fall on (the reader's own choice does not matter: a misread cell usually
    still ranks the true tile high). Candidates are the shifts voted for by such pairs in each
    rotation (and ``extra``); ties go to more cells covered, then to fewer of the photo's
    figures (``photo_figures``, photo cells) on a tile of the record that had none
    (``record_figures``, record cells; a follower is put on the tile just laid), then closer
    evidence. Returns the transform and how many record tiles agree with the photo under it.
    With ``search`` false only ``extra`` is scored (The Castle: the photo is in the wall's frame).

    Photo game 159: the start tile and a straight road with a thief, both read as D, fitted the
    start tile either way; the start tile was put on the road's cell, the thief lost."""
    cev = _CellEvidence(evidence, IDENTITY)
    cells, kth, best = list(cev.evidence), cev.kth, cev.best
    if not ref or not cells:
        return IDENTITY, 0
    candidates: set[Transform] = set(extra)
    for q in (0, 90, 180, 270) if search else ():
        votes: Counter[tuple[int, int]] = Counter()
        turned = {c: rotate_cell(c, q) for c in cells}
        for p, (tile, rot) in ref.items():
            if not tile.known or tile.id is None:
                continue
            key = (tile.id, _canonical_rot(tile, rot - q))
            for c in cells:
                v = evidence[c].get(key)
                if v is not None and v >= kth[c]:
                    x, y = turned[c]
                    votes[(p[0] - x, p[1] - y)] += 1
        candidates.update(Transform(q, dx, dy) for (dx, dy), _ in votes.most_common(4))

    figures = list(photo_figures)
    owned = set(record_figures)

    def score(t: Transform) -> tuple[int, int, int, float]:
        agree = covered = 0
        soft = 0.0
        stray = -sum(1 for c in figures if t.cell(c) in ref and t.cell(c) not in owned)
        for c in cells:
            there = ref.get(t.cell(c))
            if there is None:
                continue
            covered += 1
            tile, rot = there
            v = evidence[c].get((tile.id, _canonical_rot(tile, rot - t.rot))) if tile.known and tile.id else None
            if v is None:
                continue
            agree += v >= kth[c]
            soft += max(v - best[c], -20.0)
        return (agree, covered, stray, soft)

    if not candidates:
        return IDENTITY, 0
    scored = {t: score(t) for t in candidates}
    top = max(scored.values())
    chosen = min((t for t, sc in scored.items() if sc == top), key=lambda t: (t.rot, abs(t.dx) + abs(t.dy), t.dx, t.dy))
    return chosen, top[0]


def _twins(a: TileType, ra: int, b: TileType, rb: int) -> bool:
    """Whether two tiles at their rotations differ only by coats of arms (F and G, ...)."""
    return a.known and b.known and _without_shields(a, ra) == _without_shields(b, rb)


def _road_stub_twins(a: TileType, ra: int, b: TileType, rb: int) -> bool:
    """Whether two tiles at their rotations differ only by a short road: one has a road that
    leaves a single edge (a dead end at the tile's centre feature, A's road to its monastery;
    T's road to its city; one of X's four roads to its village) and is otherwise the other (same
    features but fields, as many fields or one fewer, where the road parted a field: B; R; W),
    coats of arms aside (a follower hides those too: S and R). A follower on the stub hides it,
    and the rest of the two tiles looks the same (photo game 690:
    blue's farmer on an R's field, where a T's road would run, was taken as T from the turn's
    photo, and the photos after, each for R by about a point, never beat the T by
    :data:`EVIDENCE_SUM_MARGIN`)."""
    def features(t: TileType, r: int) -> tuple[list[tuple[Any, ...]], int]:
        segs = [(s.kind, tuple(sorted(rotate_slot(x, r) for x in s.slots))) for s in t.segments
                if s.kind is not Kind.FIELD]
        return segs, sum(1 for s in t.segments if s.kind is Kind.FIELD)
    if not (a.known and b.known):
        return False
    (fa, na), (fb, nb) = features(a, ra), features(b, rb)
    if abs(len(fa) - len(fb)) != 1:
        return False
    (more, fields), (fewer, fewer_fields) = ((fa, na), (fb, nb)) if len(fa) > len(fb) else ((fb, nb), (fa, na))
    if fields - fewer_fields not in (0, 1):
        return False
    for i, (kind, slots) in enumerate(more):
        if kind is Kind.ROAD and len(slots) == 1 and sorted(more[:i] + more[i + 1:]) == sorted(fewer):
            return True
    return False


def _doubted(game: Game, cev: _CellEvidence | _SummedEvidence, trust: float,
             margin: float = EVIDENCE_KEEP_MARGIN, twin_margin: float | None = None) -> dict[Cell, TileEntry]:
    """The record's tiles that the photo's evidence clearly contradicts, each with the tile to
    take instead: the likeliest by the evidence that fits the undoubted tiles around it and the
    box, when its evidence beats the tile played by more than ``margin``
    (:data:`EVIDENCE_KEEP_MARGIN`), or by more than ``twin_margin`` when the two differ only by
    a coat of arms or a road stub (read with confidence ``trust``: like a sure reading, it lowers the tile's
    confidence, and rewrites the record once that is low; see the module docstring). A tile
    taken for a clearly misread one may not fit a neighbour whose evidence ties its tile with a
    rival that fits: the neighbour takes that rival too (:func:`_paired_rewrite`; so does a
    doubted neighbour whose tile no longer fits, where the evidence likes the rival at least as
    well)."""
    catalog = load_catalog()
    board = game.board
    least = margin if twin_margin is None else min(margin, twin_margin)
    doubt = {c for c, p in board.tiles.items()
             if (g := cev.gap(c, p.tile, p.rot)) is not None and g > least}
    if not doubt:
        return {}
    rest = _board_like(board, ((c, p.tile, p.rot) for c, p in board.tiles.items() if c not in doubt))
    out: dict[Cell, TileEntry] = {}
    # the most contradicted first; each cell then fits the choices made before it (neighbours
    # misread together are corrected together)
    for c in sorted(doubt, key=lambda c: (-(cev.gap(c, board.tiles[c].tile, board.tiles[c].rot) or 0.0), c)):
        placed = board.tiles[c]
        now = cev.score(c, placed.tile, placed.rot)
        box = Counter(game.box)
        box[placed.tile.id or ""] += 1
        crest = _has_crest(placed.tile)
        best: tuple[float, bool, int, int, TileType] | None = None  # (evidence, crest kept, copies, rot, tile)
        for tid, n in sorted(box.items()):
            tile = catalog.get(tid)
            if n <= 0 or tile is None or _foreign(tile, board):
                continue
            for rot in tile.rotations():
                v = cev.score(c, tile, rot)
                if v is None or rest.edge_conflicts(c, tile, rot):
                    continue
                # of tiles the evidence ties (twins under a blue follower), the one with a coat
                # of arms as the tile laid has one or not (what the photos or the players said
                # before: photo game 797, an R answered "no coat of arms" under a blue farmer
                # became an S, not a T, when its road was seen), then the one with more copies
                # in the box (see _evidence_options)
                key = (v, _has_crest(tile) == crest, n)
                if best is None or key > best[:3]:
                    best = (*key, rot, tile)
        if best is not None:
            v, _, _, rot, tile = best
            need = margin
            if twin_margin is not None and (_twins(tile, rot, placed.tile, placed.rot)
                                            or _road_stub_twins(tile, rot, placed.tile, placed.rot)):
                need = twin_margin
            if now is not None and v - now > need and not same_tile(tile, rot, placed.tile, placed.rot):
                out[c] = TileEntry(at=c, tile=tile, rot=rot, confidence=trust)
                rest.place(c, tile, rot, check=False)
                continue
            if now is not None and v >= now and not same_tile(tile, rot, placed.tile, placed.rot) \
                    and rest.edge_conflicts(c, placed.tile, placed.rot):
                # the tile laid no longer fits a neighbour rewritten before it: the likeliest that
                # does, which the evidence likes at least as well (see _paired_rewrite)
                out[c] = TileEntry(at=c, tile=tile, rot=rot, confidence=trust)
                rest.place(c, tile, rot, check=False)
                continue
        pair = _paired_rewrite(game, cev, rest, c, now, margin, box, out) if now is not None else None
        if pair is not None:
            (_, tile, rot), (other, other_tile, other_rot) = pair
            out[c] = TileEntry(at=c, tile=tile, rot=rot, confidence=trust)
            out[other] = TileEntry(at=other, tile=other_tile, rot=other_rot, confidence=trust)
            rest = _board_like(board, [*((x, p.tile, p.rot) for x, p in rest.tiles.items() if x != other), *pair])
            continue
        if twin_margin is not None and now is not None and \
                (swap := _twin_swap(game, cev, c, now, twin_margin, out)) is not None:
            other, tile, other_tile = swap
            out[c] = TileEntry(at=c, tile=tile, rot=placed.rot, confidence=trust)
            out[other] = TileEntry(at=other, tile=other_tile, rot=board.tiles[other].rot, confidence=trust)
            rest.place(c, tile, placed.rot, check=False)
        else:
            rest.place(c, placed.tile, placed.rot, check=False)
    return out


def _paired_rewrite(game: Game, cev: _CellEvidence | _SummedEvidence, rest: Board, cell: Cell, now: float,
                    margin: float, box: Mapping[str, int], taken: Collection[Cell]
                    ) -> tuple[tuple[Cell, TileType, int], tuple[Cell, TileType, int]] | None:
    """A tile the evidence on ``cell`` wants by more than ``margin`` over the tile laid there
    (scored ``now``) that meets one neighbour of ``rest`` wrongly, and a tile for that neighbour
    that fits it and the neighbour's other sides, which the neighbour's own evidence likes at
    least as well as its tile: both, as ((cell, tile, rot), (neighbour, tile, rot)), or None.

    Neighbours misread together are corrected together, but :func:`_doubted` rewrites only
    cells the evidence clearly contradicts, each fitting the rest. A follower may hide what
    tells its tile from another, so the photos tie there, while the tile beside it that the
    misread one does not fit is read clearly (fresh photo game 3773: red's knight on a W's
    southern road; the W, its road hidden, was laid as U, and the V laid against that road
    later could only be taken as an A, red 3 short, though the photos since read V by 54 and
    put W 4 ahead of U)."""
    board = game.board
    for v, tile, rot in cev.ranked(cell):
        if v - now <= margin:
            return None
        if box.get(tile.id or "", 0) <= 0 or _foreign(tile, board):
            continue
        others = {x for cf in rest.edge_conflicts(cell, tile, rot) for x in cf.cells if x != cell}
        if len(others) != 1:
            continue
        other = next(iter(others))
        placed = rest.tiles.get(other)
        mine = cev.score(other, placed.tile, placed.rot) if placed is not None and other not in taken else None
        if placed is None or mine is None:
            continue
        beside = _board_like(board, [*((x, p.tile, p.rot) for x, p in rest.tiles.items() if x != other),
                                     (cell, tile, rot)])
        left = Counter(box)
        left[tile.id or ""] -= 1
        left[placed.tile.id or ""] += 1
        for w, other_tile, other_rot in cev.ranked(other):
            if w < mine:
                break
            if left[other_tile.id or ""] > 0 and not _foreign(other_tile, board) \
                    and not same_tile(other_tile, other_rot, placed.tile, placed.rot) \
                    and not beside.edge_conflicts(other, other_tile, other_rot):
                return (cell, tile, rot), (other, other_tile, other_rot)
    return None


def _twin_swap(game: Game, cev: _CellEvidence | _SummedEvidence, cell: Cell, now: float, margin: float,
               taken: Mapping[Cell, TileEntry]) -> tuple[Cell, TileType, TileType] | None:
    """A coat-of-arms twin the evidence on ``cell`` wants by more than ``margin`` over the tile
    laid there (scored ``now``) but the box no longer holds, and another cell holding that twin
    whose own evidence does not tell it from the tile on ``cell`` (a twin under a blue follower,
    see :func:`_shields_unseen`): the two swap. Returns (that cell, the twin, the tile on
    ``cell``) or None. Photo games 653 and 681: an N (an O) under a blue farmer taken as M (P),
    and the M (P) laid later, its crest plain (none seen) in every photo, could not be rewritten
    because the box's last copy was used up by the first. The evidence on ``cell`` must be summed
    over at least :data:`SWAP_MIN_PHOTOS` photos (photo game 746: an L read S then T by the two
    photos since it was laid took the box's T from a tile under a red knight, and when the third
    photo rewrote it to L the other tile kept the S). Where no coat-of-arms twin is wanted, a
    road-stub twin may be (:func:`_stub_swap`)."""
    if getattr(cev, "photos", {}).get(cell, 0) < SWAP_MIN_PHOTOS:  # one photo's evidence: never
        return None
    board = game.board
    placed = board.tiles[cell]
    wanted = _wanted_from_box(game, cev, cell, now, margin, _twins)
    if wanted:
        tile = wanted[0]
        other = _tied_holder(board, cev, tile, placed.tile, {cell, *taken})
        return None if other is None else (other, tile, placed.tile)
    return _stub_swap(game, cev, cell, now, margin, taken)


def _wanted_from_box(game: Game, cev: _CellEvidence | _SummedEvidence, cell: Cell, now: float, margin: float,
                     alike: Callable[[TileType, int, TileType, int], bool]) -> list[TileType]:
    """The tiles the box no longer holds that are ``alike`` the tile on ``cell`` (each at its
    rotation) and that the evidence there puts more than ``margin`` over it (scored ``now``),
    likeliest first (:func:`_twin_swap`, :func:`_stub_swap`)."""
    catalog = load_catalog()
    placed = game.board.tiles[cell]
    wanted = [(v, tile) for tid, n in game.box.items() if n <= 0 and tid != placed.tile.id
              and (tile := catalog.get(tid)) is not None and alike(tile, placed.rot, placed.tile, placed.rot)
              and (v := cev.score(cell, tile, placed.rot)) is not None and v - now > margin]
    return [tile for _, tile in sorted(wanted, key=lambda w: -w[0])]


def _stub_swap(game: Game, cev: _CellEvidence | _SummedEvidence, cell: Cell, now: float, margin: float,
               taken: Mapping[Cell, TileEntry]) -> tuple[Cell, TileType, TileType] | None:
    """:func:`_twin_swap` (which has checked the photos summed on ``cell``) for a tile the
    evidence on ``cell`` wants that differs from the tile laid there by a road stub
    (:func:`_road_stub_twins`: a follower on the stub hid it) and fits its neighbours, when the
    box's last copies of it lie on a cell whose evidence does not tell it from its own
    coat-of-arms twin, which the box still holds: that cell takes the twin. Returns (that cell,
    the wanted tile, the twin), as :func:`_twin_swap` does, or None.
    Fresh photo game 3816: blue's T under its farmer, its crest tied in every photo, was laid
    as S, the box's second S; blue's S laid later, a thief on its stub, was read as Q, and the
    photos since put S 7.9 ahead, but no S was left: blue a point short."""
    board = game.board

    def stub_fits(tile: TileType, rot: int, placed: TileType, placed_rot: int) -> bool:
        return _road_stub_twins(tile, rot, placed, placed_rot) and not board.edge_conflicts(cell, tile, rot)

    for tile in _wanted_from_box(game, cev, cell, now, margin, stub_fits):
        for twin, _ in _shield_twins(tile, 0):
            if game.box.get(twin.id or "", 0) <= 0:
                continue
            other = _tied_holder(board, cev, tile, twin, {cell, *taken})
            if other is not None:
                return other, tile, twin
    return None


def _tied_holder(board: Board, cev: _CellEvidence | _SummedEvidence, tile: TileType, twin: TileType,
                 skip: Collection[Cell], least_photos: int = 0) -> Cell | None:
    """The cell of ``board`` holding ``tile`` (none of ``skip``) whose evidence does not tell it
    from its coat-of-arms ``twin`` (within :data:`SWAP_TIE`: a follower of a crest's colour
    stands on it), the one that leans furthest to the twin; with ``least_photos``, only cells
    whose evidence sums that many photos. None where there is none: the cell that gives up its
    twin to another (:func:`_twin_swap`, :func:`_twins_for_new_tiles`)."""
    photos = getattr(cev, "photos", {})
    options = []
    for other, p in board.tiles.items():
        if other in skip or p.tile.id != tile.id or photos.get(other, 0) < least_photos:
            continue
        mine, theirs = cev.score(other, p.tile, p.rot), cev.score(other, twin, p.rot)
        if mine is not None and theirs is not None and theirs >= mine - SWAP_TIE:
            options.append((theirs - mine, other))
    return max(options)[1] if options else None


def _twins_for_new_tiles(game: Game, cev: _CellEvidence, total: _SummedEvidence, new_cells: Iterable[Cell],
                         taken: Mapping[Cell, TileEntry], trust: float,
                         covered: Collection[Cell] = ()) -> dict[Cell, TileEntry]:
    """Tiles of the record that give up their coat-of-arms twin to a new tile: where the photo's
    likeliest tile for a new cell is a twin the box no longer holds, ahead of the twin it still
    holds by more than :data:`SWAP_TIE`, a cell of the record holding that twin whose evidence
    summed over at least :data:`SWAP_MIN_PHOTOS` photos does not tell the twins apart (within
    ``SWAP_TIE``: a follower of a crest's colour stands on it) takes the other twin, so that
    the new tile can be laid as the photo shows it (:func:`_twin_swap` does the same for a tile
    laid before, once photos since have summed its evidence; a new tile has one photo, and the
    last turn's no more). Cells in ``taken`` (already rewritten) are left alone. Returns each
    such cell with its new tile. Photo game 5104 (4 players): blue's G under its farmer, the
    crest hidden either way, was laid as F, the twin with more copies; the last turn's F, its
    crest seen, was then laid as G, the box's two Fs used, and yellow's city lost its crest.
    On a new cell a follower stands on (``covered``) a crest not seen says nothing
    (:func:`_shields_unseen`): the follower may hide it (photo game 3090: red's F, its crest
    under red's knight, took the G from blue's tile under its farmer, whose answer had said G)."""
    out: dict[Cell, TileEntry] = {}
    board = game.board
    for c in sorted(new_cells):
        if not board.can_hold(c):
            continue
        view = cev
        if c in covered and c in cev.at:
            view = _CellEvidence({cev.at[c]: _shields_unseen(cev.evidence[cev.at[c]])}, cev.t)
        # likeliest first, each checked against the board only as far as needed (a step's hot path)
        legal = ((v, tile, rot) for v, tile, rot in view.ranked(c)
                 if not _foreign(tile, board) and not board.edge_conflicts(c, tile, rot))
        top = next(legal, None)
        if top is None:
            continue
        v, tile, rot = top
        if game.box.get(tile.id or "", 0) > 0:
            continue
        other_twin = next(((w, t) for w, t, r in legal if t.id != tile.id and game.box.get(t.id or "", 0) > 0
                           and _twins(t, r, tile, rot)), None)
        if other_twin is None or v - other_twin[0] <= SWAP_TIE:
            continue
        cell = _tied_holder(board, total, tile, other_twin[1], {*taken, *out}, SWAP_MIN_PHOTOS)
        if cell is not None:
            out[cell] = TileEntry(at=cell, tile=other_twin[1], rot=board.tiles[cell].rot, confidence=trust)
    return out


def _unusable(ref: Mapping[Cell, tuple[TileType, int]], state: State, t: Transform, agree: int,
              max_gap: int, image: tuple[int, int] | None = None) -> str | None:
    """Why a photo read with evidence cannot be followed (``None`` when it can).

    A photo read on a wrong grid (too fine, shifted) shows cells that are not the board's: too
    many new cells for a gap (more than ``max_gap``), or too few of the record's tiles among the
    likeliest tiles of their cells (:data:`EVIDENCE_MIN_AGREEMENT`). Such a photo is still taken
    when its reading is whole (no cell unrecognised, no edge that does not match), covers
    every tile of the record and has at most ``WHOLE_GAP_FACTOR * max_gap`` new cells: then the
    record is more likely wrong (turns inferred from earlier bad photos, corrected from this
    one) or the gap longer (photos not used); not while the record has fewer than
    :data:`EVIDENCE_MIN_TILES` tiles, which a table's grain or cloth read as tiles surrounds
    just as wholly. Below that many tiles the share is not asked, but a photo that fits none of
    them is a wrong grid all the same. Nor is a reading whole whose new tiles run over the
    photo's edge (``image``: width, height), half seen (photo game 1828: the last photo, on a
    green felt, read five cells of the felt along its top edge as field tiles, and six turns
    were laid where one was played)."""
    cells = {t.cell(e.at) for e in state.tiles}
    new = len(cells - set(ref))
    whole = len(ref) >= EVIDENCE_MIN_TILES and set(ref) <= cells and _reads_whole(state) and \
        not any(_over_the_edge(e, image) for e in state.tiles if t.cell(e.at) not in ref)
    if whole and new <= WHOLE_GAP_FACTOR * max_gap:
        return None
    if new > max_gap:
        return f"the photo shows {new} new cells, more than {max_gap} turns can lay, and does not read whole"
    if len(ref) >= EVIDENCE_MIN_TILES and agree < EVIDENCE_MIN_AGREEMENT * len(ref):
        return f"only {agree} of the {len(ref)} tiles played fit this photo (a wrong grid?)"
    if ref and not agree:
        # a board of one or two tiles: a photo none of whose cells takes any of them is a
        # wrong grid too (photo game 139: the start tile and one turn read as five monasteries
        # and curves, followed as four turns; no photo after fitted that record again)
        return f"none of the {len(ref)} tiles played fits this photo (a wrong grid?)"
    return None


def _start_misread(start: TileEntry, evidence: Evidence, transform: Transform) -> str | None:
    """Why a photo of the start tile and new tiles beside it (the record holds no turn yet) is
    taken as read on a grid a fraction of a tile off: its evidence, under ``transform``, puts the
    start tile more than :data:`START_READ_GAP` behind its cell's likeliest tile. No follower may
    stand on the start tile before the first turn, so a photo read right reads it plainly; a
    grid off reads it wrong and lays the first turn's tile on the wrong side of it. None where it
    does, or where the photo has no evidence for it there (:func:`_unusable` judges that)."""
    gap = _CellEvidence(evidence, transform).gap(start.at, start.tile, start.rot)
    if gap is None or gap <= START_READ_GAP:
        return None
    return (f"the start tile is {gap:.1f} behind the likeliest tile of its cell in this photo "
            "(a grid a fraction of a tile off?)")


def _without_last_photo(record: GameRecord, figures_seen: FiguresSeen | None) -> tuple[GameRecord, set[Cell]]:
    """The record without the turns the last photo used added (their cells seen by that photo
    alone, in ``figures_seen``) and those turns' cells (none without ``figures_seen``)."""
    if not figures_seen:
        return record, set()
    last = {i: t.at for i, t in enumerate(record.turns)
            if t.at is not None and not t.discarded and len(figures_seen.get(t.at, ())) == 1}
    short = replace(record, turns=tuple(t for i, t in enumerate(record.turns) if i not in last))
    return short, set(last.values())


def _fits_nearly_whole(game: Game, state: State, evidence: Evidence, max_gap: int,
                       start: Transform | None = None) -> tuple[Transform, bool]:
    """The transform that lays the photo onto ``game``'s board (aligned afresh, or scored from
    ``start``), and whether the photo fits that board nearly whole: usable
    (:func:`_unusable`) with at least :data:`UNDO_MIN_AGREEMENT` of its tiles among their
    cells' likeliest (a wrong grid fitting a smaller record by the usual half would take good
    turns out). A photo of The Castle is in the wall's frame: only its own transform counts."""
    ref = {c: (p.tile, p.rot) for c, p in game.board.tiles.items()}
    if start is None:
        start, _ = align(ref, state, [(f.player, f.at) for f in game.figures])
    transform, agree = _align_by_evidence(ref, evidence, [start], search=not isinstance(game, CastleGame))
    return transform, (_unusable(ref, state, transform, agree, max_gap) is None
                       and agree >= UNDO_MIN_AGREEMENT * len(ref))


def _over_the_edge(entry: TileEntry, image: tuple[int, int] | None) -> bool:
    """Whether the tile ``entry`` runs over the edge of its photo (``image``: width, height):
    a corner of its quad lies outside the photo. Unknown (False) without a quad or a size."""
    if image is None or entry.quad is None:
        return False
    width, height = image
    return any(not (0 <= x <= width and 0 <= y <= height) for x, y in entry.quad)


def _reads_whole(state: State) -> bool:
    """Whether a photo's reading recognises every cell and every edge matches."""
    return all(e.tile.known for e in state.tiles) and \
        not Board.from_tiles((e.at, e.tile, e.rot) for e in state.tiles).conflicts()


def _stray_followers(game: Game, aligned: State, players: Sequence[str]) -> str | None:
    """Why the photo's followers (``aligned``: in the record's frame) do not fit the game, or
    None: at least :data:`UNFIT_STRAYS` of them stand on tiles laid before where the game has no
    follower of their colour on that feature, as many as stand where it has one or more, or while
    those stand on no more than :data:`UNFIT_SHOWN_SHARE` of the game's followers. A photo read
    right shows nearly every follower on its feature (a stray is a misread, or a follower the
    record missed); one read on a grid a fraction of a tile off, or turned, shows them beside."""
    figures = _engine_figures(game)
    total = sum(figures.values())  # (before the loop below takes the shown ones off)
    shown = stray = 0
    for m in aligned.meeples:
        if m.player not in players or m.at not in game.board.tiles:
            continue
        key = _figure_key(game.board, m.player, m.at, m.on)
        if key is not None and figures[key] > 0:
            figures[key] -= 1
            shown += 1
        else:
            stray += 1
    if stray >= UNFIT_STRAYS and (stray >= shown or shown <= UNFIT_SHOWN_SHARE * total):
        return (f"{stray} of the photo's followers stand on tiles laid before where the game has none of their "
                f"colour on that feature, and {shown} (of the game's {total}) where it has one")
    return None


def _agrees_with_unfit(state: State, unfit: State) -> bool:
    """Whether photo ``state`` and the photo before it (``unfit``, which did not fit the record
    either) show the same board: aligned, at least :data:`RESTART_MIN_AGREEMENT` of the known
    tiles of each, and :data:`RESTART_MIN_TILES`, coincide exactly (type and rotation). Two
    photos of one board read on wrong grids rarely agree so; two right ones do, whatever the
    record says."""
    ref = {e.at: (e.tile, e.rot) for e in unfit.tiles if e.tile.known}
    known = sum(1 for e in state.tiles if e.tile.known)
    _, same = align(ref, state)
    return same >= RESTART_MIN_TILES and same >= RESTART_MIN_AGREEMENT * max(len(ref), known)


def _undo_last_photo(record: GameRecord, state: State, evidence: Evidence, max_gap: int,
                     figures_seen: FiguresSeen | None) -> tuple[GameRecord, set[Cell]] | None:
    """For a photo that does not fit the record (:func:`_unusable`): the record without the
    turns the last photo used added (their cells seen by that photo alone, in ``figures_seen``)
    and those turns' cells, when this photo fits it nearly whole (:func:`_fits_nearly_whole`).
    A small board's photo that read cells of the table as tiles (taken as turns) makes every
    photo after it unfit; this photo takes them out, and the turns it shows since the shorter
    record are inferred from it again (its real tiles among them: follow photo game 218, whose
    third photo read 5 cells for 3 tiles, took 4 turns and left every photo after it unused, 1
    of 20 turns' tiles right, until this photo was allowed to show some of those cells). None
    otherwise."""
    short, dropped = _without_last_photo(record, figures_seen)
    if not dropped:
        return None
    game = _replayed(short)
    if game is None or not _fits_nearly_whole(game, state, evidence, max_gap)[1]:
        return None
    return short, dropped


def _fits_corrected(record: GameRecord, state: State, evidence: Evidence, max_gap: int,
                    figures_seen: FiguresSeen | None, trust: float
                    ) -> tuple[GameRecord, set[Cell], set[Cell]] | None:
    """For a photo that does not fit the record (:func:`_unusable`) nor the record without the
    last photo's turns (:func:`_undo_last_photo`): that record (or the whole one) with the few
    tiles this photo's evidence clearly contradicts (:func:`_doubted`, at most
    :data:`CORRECT_MAX_SHARE` of them, or one) replaced by what it shows, when the photo then
    fits it nearly whole (:func:`_fits_nearly_whole`). Returns the record, the cells whose turns
    and evidence so far are dropped (the last photo's turns and the corrected tiles) and the
    corrected cells; None otherwise.

    A tile taken wrongly from one photo (a monastery under its monk read as a city tile, then
    the players' answer to a question about it) makes the next photos unfit when the board is
    small: their evidence is then never summed, so the record is never rewritten, and every
    photo after is left out (photo game 541: 1 of 20 turns' tiles right, 17 photos unused)."""
    short, dropped = _without_last_photo(record, figures_seen)
    for base, gone in ([(short, dropped)] if dropped else []) + [(record, set())]:
        game = _replayed(base)
        if game is None or len(game.board.tiles) < EVIDENCE_MIN_TILES:
            continue
        transform, _ = _fits_nearly_whole(game, state, evidence, max_gap)
        doubted = _doubted(game, _CellEvidence(evidence, transform), trust)
        if not doubted or len(doubted) > max(1.0, CORRECT_MAX_SHARE * len(game.board.tiles)):
            continue
        fixed = _rewrite(base, [(c, e.tile, e.rot) for c, e in doubted.items()])
        if fixed is not None and _fits_nearly_whole(fixed[1], state, evidence, max_gap, transform)[1]:
            return fixed[0], gone | set(doubted), set(doubted)
    return None


def _laid_cells(record: GameRecord) -> set[Cell]:
    """The cells of the record's tiles: the start tile's and every turn's that laid one."""
    laid = {t.at for t in record.turns if t.at is not None and not t.discarded}
    if record.start is not None:
        laid.add(record.start.at)
    return laid


def _vanished_last_photo(record: GameRecord, state: State, transform: Transform,
                         figures_seen: FiguresSeen | None, image: tuple[int, int] | None = None
                         ) -> tuple[GameRecord, set[Cell], set[Cell]] | None:
    """When the last photo used laid several tiles (its turns: those whose cells only it has
    shown, in ``figures_seen``), or one while this photo shows two tiles new to the record, one
    of them beside it or at its corner, and this photo does not show one of them although it
    shows the board all around it (the cell lies within the span of this photo's tiles, or, at
    the layout's edge, well inside the photo, ``image`` its size: :func:`_in_view`): the record
    without all the last photo's turns, their cells, and the cells not shown. A photo taken
    every turn lays one tile; a second one is more often a cell of the table read as a tile (a
    hole in the layout on a green cloth, lit unlike the table around the board) than a skipped
    photo, and the turn order it implied gave the real tile to the wrong player. So all the
    last photo's turns go, and this photo, which shows their real tiles again, infers them anew
    (:data:`MAX_GAP` allowing). None otherwise, or when the shorter record does not replay."""
    short, dropped = _without_last_photo(record, figures_seen)
    shown = {transform.cell(e.at) for e in state.tiles}
    laid = _laid_cells(record)
    fresh = shown - laid
    if not shown or len(dropped) < 2 and not (dropped and len(fresh) >= 2 and any(
            max(abs(c[0] - d[0]), abs(c[1] - d[1])) == 1 for c in fresh for d in dropped)):
        # one tile the last photo laid, lacking here, is a reader's miss as often, unless this
        # photo shows two new tiles for it, one of them beside its cell (a side or a corner):
        # the last photo was read on a wrong grid and put the turn's tile a cell off (fresh
        # photo game 2558: blue's Q beside the V of the first turn taken as a T above the V, and
        # red's next tile laid as two turns)
        return None
    xs, ys = [c[0] for c in shown], [c[1] for c in shown]
    gone = {c for c in dropped if c not in shown and (min(xs) <= c[0] <= max(xs) and min(ys) <= c[1] <= max(ys)
                                                      or _in_view(c, state, transform, image))}
    if not gone and (start := _start_on_a_cell_of_the_table(record, short, dropped, shown)) is not None:
        gone = {start}
    if not gone or _replayed(short) is None:
        return None
    return short, dropped, gone


def _follower_on_anothers_tile(record: GameRecord, state: State, transform: Transform,
                               figures_seen: FiguresSeen | None) -> tuple[GameRecord, set[Cell], Cell, str] | None:
    """When the last photo used laid one tile (its turn: the one whose cell only it has shown,
    in ``figures_seen``), without a follower, and this photo shows there a follower of another
    player only, and a tile new to the record too: the record without that turn, its cell, the
    cell and that player. A follower is put on the tile its player has just laid, so another
    player's follower on that turn's tile says the turn went wrong: the last photo read a cell of
    the table as a tile (a phantom beside the layout), took it as that player's turn, and the next
    player's real tile came to lie on that very cell with the follower on it (fresh photo game
    3883, 10% of the photos skipped: a T read on the table above blue's road was taken as blue's
    H, and red's J with its knight there a turn later was taken as a correction of that T, the
    knight ignored and the H laid as red's). The caller keeps the turns inferred again only in
    turn order, with that follower on that tile: a figure read across the edge of its own new
    tile onto the last turn's would reorder the turns. None otherwise."""
    short, dropped = _without_last_photo(record, figures_seen)
    if len(dropped) != 1:
        return None
    (cell,) = dropped
    turn = next((t for t in reversed(record.turns) if t.at == cell and not t.discarded), None)
    if turn is None or turn.meeple is not None:
        return None
    here = {m.player for m in state.meeples if transform.cell(m.at) == cell}
    if len(here) != 1 or turn.player in here:
        return None
    laid = _laid_cells(record)
    if not {transform.cell(e.at) for e in state.tiles} - laid or _replayed(short) is None:
        return None
    return short, dropped, cell, next(iter(here))


def _in_view(cell: Cell, state: State, transform: Transform, image: tuple[int, int] | None) -> bool:
    """Whether the photo whose reading is ``state`` (its frame: ``transform`` maps it onto the
    record's) would show the record's ``cell``: a tile beside it has an image quad, and the cell's
    corners, carried on from that quad (affine: the tile's own corners and sides), lie inside the
    photo (``image``: width, height) but for :data:`VIEW_OVERHANG` of a tile's side. A tile read
    on a cell of the table at the layout's edge lies beyond the span of the photo's tiles, yet
    inside the next photo, which shows nothing there (photo game 1694: a C read beside a Q at the
    edge, taken as blue's turn with the next tile; the last photo lacked it and it was kept)."""
    if image is None:
        return False
    back = (360 - transform.rot) % 360
    gx, gy = rotate_cell((cell[0] - transform.dx, cell[1] - transform.dy), back)  # the photo's frame
    width, height = image
    for e in state.tiles:
        if e.quad is None or abs(e.at[0] - gx) + abs(e.at[1] - gy) != 1:
            continue
        (x0, y0), (x1, y1), _, (x3, y3) = e.quad  # corners (0, 0), (1, 0), (1, 1), (0, 1) of its cell
        ex, ey = (x1 - x0, y1 - y0), (x3 - x0, y3 - y0)
        over = VIEW_OVERHANG * max(math.hypot(*ex), math.hypot(*ey))
        for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
            u, v = gx - e.at[0] + du, gy - e.at[1] + dv
            x, y = x0 + u * ex[0] + v * ey[0], y0 + u * ex[1] + v * ey[1]
            if not (-over <= x <= width + over and -over <= y <= height + over):
                return False
        return True
    return False


def _start_on_a_cell_of_the_table(record: GameRecord, short: GameRecord, dropped: set[Cell],
                                  shown: set[Cell]) -> Cell | None:
    """The start tile's cell when the second photo of a game may have laid it on a cell of the table:
    every turn is that photo's (``short``, the record without them, is the start alone), this
    photo does not show the start's cell, and it shows one of those turns' tiles that is the
    start tile. A close-up of the first tiles (photo game 685: a D and the O beside it, the
    table beyond the D read as another D) fits the start tile on either D; when the wrong one
    is taken, the real one becomes a turn, and the start tile stays on a cell no photo shows
    again. Inferred afresh from this photo, the start alone is aligned on the real D. None
    otherwise."""
    start = record.start
    if start is None or short.turns or start.at in shown:
        return None
    seen_again = any(t.at in dropped and t.at in shown and t.tile is not None and t.tile.id == start.tile.id
                     for t in record.turns)
    return start.at if seen_again else None


def _evidence_options(game: Game, cell: Cell, cev: _CellEvidence, read: TileEntry | None = None,
                      crest_blind: bool = False) -> list[TileEntry]:
    """The tiles of the box that can lie on ``cell`` next to the board, likeliest first by the
    photo's evidence: those within :data:`EVIDENCE_CHOICE_MARGIN` of the best, at most
    :data:`EVIDENCE_CHOICES`. The first keeps the reading's confidence when it is the tile read,
    else it gets the share the runner-up leaves it (a close call is unsure). Of tiles the
    evidence cannot tell apart (a blue follower on the crest, see :func:`_shields_unseen`) the
    one with more copies left in the box comes first: it is the likelier draw (photo game 653:
    an N under a blue farmer was laid as its twin M, the alphabet's first, and the box's last M
    was then missing for the M laid later). Where a blue follower stands on the new tile
    (``crest_blind``) its photo says nothing of a crest, as in the evidence summed over the
    photos (:func:`_add_evidence`): the twins get the same evidence (photo game 687: an S with a
    blue knight beside its crest, the crest hidden by the figure's box in every photo, was laid
    as T, the rarer twin, and never rewritten: the summed evidence tied them); a crest the photo
    sees clearly beside the figure still counts (:data:`CREST_BESIDE_BLUE_MIN`)."""
    catalog = load_catalog()
    if crest_blind and cell in cev.at:
        c = cev.at[cell]
        cev = _CellEvidence({c: _shields_unseen(cev.evidence[c], neutral=True, figure_seen=True)}, cev.t)
    found: list[tuple[float, int, str, int, TileType]] = []
    for tid, n in sorted(game.box.items()):
        tile = catalog.get(tid)
        if n <= 0 or tile is None or _foreign(tile, game.board):
            continue
        for rot in tile.rotations():
            if not game.board.can_hold(cell) or game.board.edge_conflicts(cell, tile, rot):
                continue
            v = cev.score(cell, tile, rot)
            if v is not None:
                found.append((v, n, tid, rot, tile))
    if not found:
        return []
    found.sort(key=lambda f: (-f[0], -f[1], f[2], f[3]))
    top = found[0][0]
    runner = found[1][0] if len(found) > 1 else top - 10.0
    out = []
    for v, _, _, rot, tile in found[:EVIDENCE_CHOICES]:
        if v < top - EVIDENCE_CHOICE_MARGIN:
            break
        if read is not None and read.tile.known and same_tile(tile, rot, read.tile, read.rot):
            conf = _conf(read.confidence)
        else:
            conf = round(1.0 / (1.0 + math.exp(-(v - runner if v == top else v - top) / 2.0)), 4)
        out.append(TileEntry(at=cell, tile=tile, rot=rot, confidence=conf))
    return out


def transform_state(state: State, t: Transform) -> State:
    """``state`` with every cell, tile rotation and follower slot mapped by ``t``."""
    if t == IDENTITY:
        return state
    tiles = tuple(replace(e, at=t.cell(e.at), rot=t.tile_rot(e.rot) if e.tile.known else e.rot)
                  for e in state.tiles)
    meeples = tuple(replace(m, at=t.cell(m.at), on=t.slot(m.on)) for m in state.meeples)
    return replace(state, tiles=tiles, meeples=meeples)


# ---------------------------------------------------------------------------------------------
# the first photo
def start_record(first: State | Reading) -> GameRecord:
    """A ``carcam/game@1`` record whose replay is the board of the first photo (see the module
    docstring for how several tiles are given). Warnings are dropped; use
    :func:`follow_step` with ``record=None`` to get them."""
    return _start(_as_state(first)[0])[0]


def _start_tile_only(state: State, warnings: list[str], evidence: Evidence | None = None) -> State:
    """The first photo of a game followed from its start, reduced to the start tile: the cell
    read as the catalogue's start tile (the surest), else the cell nearest the middle of the
    cells read, taken as the start tile (rotation as read when it was read as the start tile,
    else 0, with confidence 0 so that the next confident reading of it corrects the record).
    A reader may see tiles on the table around a lone tile; they are dropped with a warning."""
    catalog = load_catalog()
    first = catalog.get(catalog.start_tile)
    if first is None or not state.tiles:
        return state
    named = [e for e in state.tiles if e.tile.id == first.id]
    scored = []
    for e in state.tiles:
        cell_ev = (evidence or {}).get(e.at)
        if cell_ev:
            rots = [(v, r) for (tid, r), v in cell_ev.items() if tid == first.id]
            if rots:
                v, r = max(rots, key=lambda vr: (vr[0], -vr[1]))
                scored.append((v - max(cell_ev.values()), v, -e.at[1], -e.at[0], e, r))
    if scored:
        # the cell whose evidence is likeliest the start tile (nearest its own best reading)
        *_, e, r = max(scored, key=lambda x: x[:4])
        keep = e if e.tile.id == first.id and same_tile(e.tile, e.rot, first, r) else \
            replace(e, tile=first, rot=r, confidence=min(_conf(e.confidence), 0.5))
        if keep is not e:
            warnings.append(f"the start tile is taken to be at {list(e.at)} (rot {r}, read as {e.tile.name()} "
                            f"rot {e.rot})")
    elif named:
        keep = max(named, key=lambda e: (_conf(e.confidence), -e.at[1], -e.at[0]))
    else:
        mx = sum(e.at[0] for e in state.tiles) / len(state.tiles)
        my = sum(e.at[1] for e in state.tiles) / len(state.tiles)
        near = min(state.tiles, key=lambda e: (math.hypot(e.at[0] - mx, e.at[1] - my), e.at[1], e.at[0]))
        keep = replace(near, tile=first, rot=0, confidence=0.0)
        warnings.append(f"the start tile is taken to be at {list(near.at)} (read as {near.tile.name()})")
    if len(state.tiles) > 1:
        warnings.append(f"the first photo shows {len(state.tiles)} cells; a game starts from one tile, "
                        "the others are ignored")
    return replace(state, tiles=(keep,), meeples=())


def _start(state: State) -> tuple[GameRecord, list[str]]:
    warnings: list[str] = []
    if not state.players:
        raise FollowError("the first state names no players (players in turn order are needed)")
    if state.game == "castle":
        return _start_castle(state), warnings
    tiles = {e.at: e for e in state.tiles}
    if not tiles:
        raise FollowError("the first photo shows no tile")
    meeples: dict[Cell, MeepleEntry] = {}
    for m in state.meeples:
        if m.player not in state.players:
            warnings.append(f"follower at {list(m.at)}: {m.player} is not a player; ignored")
        elif m.at in meeples:
            warnings.append(f"two followers on the tile at {list(m.at)}; only one is kept")
        else:
            meeples[m.at] = m
    catalog = load_catalog()
    first = catalog.get(catalog.start_tile)
    if len(tiles) == 1 and first is not None:
        (e,) = tiles.values()
        if e.tile.id != first.id and _conf(e.confidence) < DEFAULT_TRUST:
            # a game starts from the start tile: a single unsure tile is taken to be it
            warnings.append(f"the only tile, read as {e.tile.name()} (confidence {_conf(e.confidence):.2f}), is "
                            f"taken as the start tile {first.id}")
            tiles[e.at] = replace(e, tile=first, rot=e.rot if e.tile.known else 0)
    known = [e for e in tiles.values() if e.tile.known]
    free = [e for e in known if e.at not in meeples] or known
    if not free:
        raise FollowError("the first photo shows no recognised tile")
    mx = sum(e.at[0] for e in tiles.values()) / len(tiles)
    my = sum(e.at[1] for e in tiles.values()) / len(tiles)
    start = min(free, key=lambda e: (e.tile.id != catalog.start_tile, math.hypot(e.at[0] - mx, e.at[1] - my),
                                     e.at[1], e.at[0]))
    if start.at in meeples:
        warnings.append(f"follower on the start tile at {list(start.at)} ignored (every tile has one)")
    record = GameRecord(game=state.game, expansions=state.expansions, options=dict(state.options),
                        players=state.players, start=TileEntry(at=start.at, tile=start.tile, rot=start.rot),
                        turns=())
    game = new_game(record)
    pending = {c: e for c, e in tiles.items() if c != start.at}
    order: list[tuple[TileEntry, str | None]] = []

    def meeple_ok(g: Game, e: TileEntry) -> bool:
        m = meeples.get(e.at)
        if m is None:
            return True
        seg = _segment(e.tile, e.rot, m.on)
        if seg is None:
            return False
        slot = rotate_slot(e.tile.segments[seg].slots[0], e.rot)
        return slot in g.follower_options(e.tile, e.at, e.rot) and g.supply[m.player] > 0

    def try_play(g: Game, e: TileEntry, with_meeple: bool) -> Game | None:
        m = meeples.get(e.at) if with_meeple else None
        t = Turn(player=m.player if m else state.players[0], tile=e.tile, at=e.at, rot=e.rot,
                 meeple=m.on if m else None)
        g2 = _clone(g)
        try:
            g2.play(t)
        except IllegalMoveError:
            return None
        return g2

    while pending:
        frontier = sorted((c for c in pending if any(neighbour(c, d) in game.board.tiles for d in EDGES)),
                          key=lambda c: (c[1], c[0]))
        if not frontier:
            for c in sorted(pending):
                warnings.append(f"tile at {list(c)} is not joined to the rest of the board; left out")
            break
        for c in frontier:
            e = pending[c]
            if not e.tile.known or game.board.placement_problems(c, e.tile, e.rot):
                fixed = _substitute(game.board, e, meeples.get(c), game.box)
                if fixed is None:
                    continue
                warnings.append(f"tile at {list(c)} read as {e.tile.name()} (rot {e.rot}) does not fit; "
                                f"taken as {fixed.tile.name()} (rot {fixed.rot})")
                pending[c] = fixed
        chosen: tuple[Cell, Game, bool] | None = None
        placeable = [c for c in frontier if pending[c].tile.known
                     and not game.board.placement_problems(c, pending[c].tile, pending[c].rot)]
        # 1. a tile whose follower can go on now
        for c in placeable:
            if c in meeples and meeple_ok(game, pending[c]):
                g2 = try_play(game, pending[c], True)
                if g2 is not None:
                    chosen = (c, g2, True)
                    break
        # 2. a tile without follower that keeps every waiting follower placeable
        if chosen is None:
            waiting = [e for cc, e in pending.items() if cc in meeples and e.tile.known and meeple_ok(game, e)]
            best: tuple[int, Cell, Game] | None = None
            for c in placeable:
                if c in meeples:
                    continue
                g2 = try_play(game, pending[c], False)
                if g2 is None:
                    continue
                kept = sum(1 for e in waiting if meeple_ok(g2, e))
                if best is None or kept > best[0]:
                    best = (kept, c, g2)
                if kept == len(waiting):
                    break
            if best is not None:
                chosen = (best[1], best[2], False)
        # 3. a tile with a follower that cannot be placed any more: lay it without
        if chosen is None:
            for c in placeable:
                g2 = try_play(game, pending[c], False)
                if g2 is not None:
                    if c in meeples:
                        warnings.append(f"follower at {list(c)} cannot be placed in any order; left out")
                    chosen = (c, g2, False)
                    break
        if chosen is None:
            for c in sorted(pending):
                warnings.append(f"tile {pending[c].tile.name()} at {list(c)} does not fit; left out")
            break
        c, game, with_meeple = chosen
        order.append((pending.pop(c), meeples[c].player if with_meeple else None))
    # players: a follower's owner laid its tile; the others so that players[0] plays next
    n, players = len(order), state.players
    turns = []
    for i, (e, owner) in enumerate(order):
        turns.append(Turn(player=owner or players[(i - n) % len(players)], tile=e.tile, at=e.at, rot=e.rot,
                          meeple=meeples[e.at].on if owner else None))
    record = replace(record, turns=tuple(turns))
    if any(game.track.values()):
        warnings.append("the first photo shows a follower on a completed feature; it is scored now")
    return record, warnings


def _start_castle(state: State) -> GameRecord:
    """The record of a game of The Castle before its first turn: the wall (``state.layout``) and
    the wall tiles still lying on its corners. The Castle has no start tile: the tiles a first
    photo shows are turns, inferred like any other step's (see :func:`follow_step`)."""
    if len(state.players) > 2:
        raise FollowError(f"The Castle is for two players; the first state names {len(state.players)}")
    return GameRecord(game="castle", expansions=(), options=dict(state.options), players=state.players,
                      start=None, turns=(), layout=state.layout, corner_tiles=dict(state.corner_tiles))


# ---------------------------------------------------------------------------------------------
# a tile that does not fit
def _substitute(board: Board, entry: TileEntry, meeple: MeepleEntry | None,
                box: Mapping[str, int] | None = None) -> TileEntry | None:
    """The tile most like ``entry`` that fits at its cell on ``board`` (see :func:`_substitutes`)."""
    found = _substitutes(board, entry, meeple, box, 1)
    return found[0] if found else None


def _substitutes(board: Board, entry: TileEntry, meeple: MeepleEntry | None,
                 box: Mapping[str, int] | None = None, limit: int = 6) -> list[TileEntry]:
    """The tiles most like ``entry`` that fit at its cell on ``board`` (against the tiles there)
    and are still in ``box``, best first: the same tile turned, then most slots alike."""
    catalog = load_catalog()
    want = _slot_kinds(entry.tile, entry.rot) if entry.tile.known else None
    found: list[tuple[tuple[int, int, str, int], TileEntry]] = []
    ids = sorted(box) if box is not None else sorted(t.id for t in catalog.tile_set("base") if t.id)
    for tid in ids:
        if box is not None and box.get(tid, 0) <= 0:
            continue
        tile = catalog.get(tid)
        if tile is None or _foreign(tile, board):
            continue
        for rot in tile.rotations():
            if not board.can_hold(entry.at) or board.edge_conflicts(entry.at, tile, rot):
                continue
            if meeple is not None and _segment(tile, rot, meeple.on) is None:
                continue
            alike = sum(a == b for a, b in zip(_slot_kinds(tile, rot), want)) if want else 0
            key = (0 if tile.id == entry.tile.id else 1, -alike, tid, rot)
            found.append((key, TileEntry(at=entry.at, tile=tile, rot=rot, confidence=0.0)))
    found.sort(key=lambda kv: kv[0])
    return [e for _, e in found[:limit]]


# ---------------------------------------------------------------------------------------------
# the search for turns
@dataclass
class _Candidate:
    turns: tuple[Turn, ...]
    game: Game
    mismatch: int
    violations: int
    replaced: int
    hidden: int
    order: int
    misread: int = 0
    tiles_first: bool = False
    wall_tiles: int = 0

    def key(self) -> tuple[int, int, int, int, int, int, int]:
        """:meth:`rank`, then fewer hidden followers, then (The Castle) the likelier use of
        wall tiles (:func:`_wall_tile_uses`), then the order found."""
        return (*self.rank(), self.hidden, self.wall_tiles, self.order)

    def rank(self) -> tuple[int, int, int, int]:
        """What makes a sequence less consistent with the photo than another (not a question
        for the players): followers not where seen, broken turn order, followers taken in
        another colour or on another feature of their tile than read, tiles taken as misread.
        From a reading alone, a follower as read on a likely substitute beats the tile as read
        with the follower moved: a tile that fits only with its follower elsewhere is more often
        itself misread. With the reader's evidence (``tiles_first``, the substitutes are the
        tiles the evidence ranks next) the tile the evidence likes best wins: the feature under
        a figure is misread far more often than the evidence ranks a wrong tile first (on the
        photo games, each of the first follower-driven substitutions logged was wrong)."""
        if self.tiles_first:
            return (self.mismatch, self.violations, self.replaced, self.misread)
        return (self.mismatch, self.violations, self.misread, self.replaced)


def _mismatch(game: Game, meeples: Sequence[MeepleEntry], palas: Mapping[str, Cell] | None = None
              ) -> tuple[int, int]:
    """How many followers differ between the game and the photo (either way), by cell only,
    and how many of the photo's were seen a cell off (:func:`_seen_across_an_edge`; not counted
    as differences, they are misreads): a reader misreads a figure's colour, the feature under it
    or its foot's cell far more often than it sees one where there is none (those misreads are
    counted apart, as ``misread``). In The Castle, a
    keep the photo shows (``palas``) where the game has none of that player's, or not on that
    house, counts too: a keep stands on a completed house in which its player had more
    followers, so it tells of a follower that scored there unseen (a photo missing a keep
    says little: keeps are often taken for figures)."""
    photo = Counter(m.at for m in meeples if m.at in game.board.tiles)
    engine = Counter(f.at for f in game.figures if f.at in game.board.tiles)
    unseen, unknown = engine - photo, photo - engine
    across = _seen_across_an_edge(game, meeples, unseen, unknown)
    out = sum((unseen + unknown).values()) - 2 * across
    if palas and isinstance(game, CastleGame):
        graph = game.board.graph
        for player, cell in palas.items():
            root = game.palas_house.get(player)
            if root is None or cell not in graph.feature(graph.find(root)).cells:
                out += 1
    return out, across


def _seen_across_an_edge(game: Game, meeples: Sequence[MeepleEntry], unseen: Counter[Cell],
                         unknown: Counter[Cell]) -> int:
    """How many of the photo's followers were seen a cell off: a figure on a cell where the game
    has none (``unknown``), standing on an edge slot, while the game has one of that player's
    just across that edge which the photo misses (``unseen``). A figure standing near an edge is
    easily read on the tile beyond (its foot is guessed from its height): in photo game 688,
    red's follower at the north end of a V was read on the tile blue laid above it, which made
    that tile red's and broke the turn order."""
    unseen, unknown, out = Counter(unseen), Counter(unknown), 0
    owners = Counter((f.player, f.at) for f in game.figures)
    for m in meeples:
        edge = SLOT_EDGE.get(m.on)
        if not edge or not unknown[m.at]:
            continue
        across = neighbour(m.at, edge)
        if unseen[across] and owners[(m.player, across)]:
            for counter, key in ((unseen, across), (unknown, m.at), (owners, (m.player, across))):
                counter[key] -= 1
            out += 1
    return out


@dataclass
class _Search:
    """Depth-first search over tile orders, tiles (where a misread left a choice) and follower
    choices (see the module docstring)."""

    players: tuple[str, ...]
    choices: dict[Cell, list[tuple[TileType, int]]]
    visible: dict[Cell, MeepleEntry]
    hidden_slots: Callable[[Cell, TileType, int], list[str]]
    meeples: list[MeepleEntry]
    missing_followers: set[tuple[str, Cell, str]]
    festival: bool
    exhaustive: bool
    budget: int
    tiles_first: bool = False
    castle: bool = False
    palas: Mapping[str, Cell] = field(default_factory=dict)
    plays: int = 0
    found: list[_Candidate] = field(default_factory=list)
    exhausted: bool = False

    def options(self, cell: Cell, tile: TileType, rot: int,
                expected: str) -> list[tuple[str, str | None, tuple[Cell, str] | None, int, int]]:
        """(player, follower slot, take-back, hidden follower?, misread) for the turn laying
        ``cell``. A follower seen on the new tile is tried as read; when this is the only new
        tile, also in the colour of the player whose turn it is (colours are misread; in a gap
        of several turns the colours are what tells who played) and on the tile's other features (the feature under a figure is misread too); ``misread``
        counts how far an option is from what was read."""
        m = self.visible.get(cell)
        out: list[tuple[str, str | None, tuple[Cell, str] | None, int, int]] = []
        if m is not None:
            single = len(self.choices) == 1
            # (in The Castle the turn order is strict: only the colour may be misread)
            players = [m.player] + ([expected] if (single or self.castle) and expected != m.player else [])
            slots = [m.on]
            if single:
                read = _segment(tile, rot, m.on)
                kind = tile.segments[read].kind if read is not None else None
                others = sorted((i for i in range(len(tile.segments)) if i != read),
                                key=lambda i: (tile.segments[i].kind != kind, i))
                slots += [rotate_slot(tile.segments[i].slots[0], rot) for i in others]
            for k, slot in enumerate(slots):
                for player in players:
                    out.append((player, slot, None, 0, (player != m.player) + (k > 0)))
        out.append((expected, None, None, 0, 0))
        if m is None and self.exhaustive:
            out += [(expected, s, None, 1, 0) for s in self.hidden_slots(cell, tile, rot)]
            if self.festival and tile.festival:
                out += [(expected, None, (at, on), 0, 0) for p, at, on in sorted(self.missing_followers)
                        if p == expected]
        return out

    def run(self, game: Game, expected: str) -> None:
        self._step(game, frozenset(self.choices), (), 0, 0, 0, expected, 0, 0)

    def _step(self, game: Game, remaining: frozenset[Cell], turns: tuple[Turn, ...], violations: int,
              replaced: int, hidden: int, expected: str, misread: int, wall: int) -> None:
        if not remaining:
            mismatch, across = _mismatch(game, self.meeples, self.palas)
            self.found.append(_Candidate(turns, game, mismatch, violations, replaced,
                                         hidden, len(self.found), misread + across, self.tiles_first, wall))
            return
        for cell in sorted(remaining, key=lambda c: (c[1], c[0])):
            for alt, (tile, rot) in enumerate(self.choices[cell]):
                if game.board.placement_problems(cell, tile, rot):
                    continue
                for player, meeple, take_back, is_hidden, off in self.options(cell, tile, rot, expected):
                    for uses, cost in _wall_tile_uses(game, player, more=len(remaining) > 1):
                        if self.plays >= self.budget:
                            self.exhausted = True
                            return
                        if not self.exhaustive and self.found:
                            return
                        self.plays += 1
                        g = _clone(game)
                        turn = Turn(player=player, tile=tile, at=cell, rot=rot, meeple=meeple, take_back=take_back,
                                    wall_tiles_used=uses)
                        try:
                            g.play(turn)
                        except IllegalMoveError:
                            continue
                        after = g.next_player if isinstance(g, CastleGame) and g.next_player else \
                            _successor(self.players, player)
                        self._step(g, remaining - {cell}, turns + (turn,), violations + (player != expected),
                                   replaced + alt, hidden + is_hidden, after, misread + off, wall + cost)


def _turn_order_fixes(record: GameRecord, back: int = TURN_ORDER_BACK
                      ) -> Iterator[tuple[GameRecord, Game, str]]:
    """Records of The Castle whose turn order after one recent turn is the other one: that
    turn used wall tile 1 (its player played again at once) where the record has it not, or
    the other way round, and the players of the turns after it are swapped. Only turns after
    which no follower was put and no wall tile used are tried (their players are what the
    photos cannot show), the latest first, at most ``back`` turns back; each record must replay
    legally. Yields (record, its game, a note saying what changed)."""
    turns = list(record.turns)
    laid = [i for i, t in enumerate(turns) if not t.discarded and t.tile is not None]
    for k, i in enumerate(reversed(laid[-back:])):
        later = [turns[j] for j in laid[len(laid) - k:]]
        if any(t.meeple is not None or t.wall_tiles_used for t in later):
            return
        t = turns[i]
        uses = tuple(n for n in t.wall_tiles_used if n != 1) if 1 in t.wall_tiles_used else (1,) + t.wall_tiles_used
        fixed = list(turns)
        fixed[i] = replace(t, wall_tiles_used=uses)
        for j in range(i + 1, len(turns)):
            fixed[j] = replace(turns[j], player=_successor(record.players, turns[j].player))
        candidate = replace(record, turns=tuple(fixed))
        game = _replayed(candidate)
        if game is None:
            continue
        what = "used" if 1 in uses else "did not use"
        yield candidate, game, (f"{t.player}'s turn at {list(t.at or ())} {what} wall tile 1: the followers since are "
                                "in the colour of the player then to play (the turns after it change hands)")


def _wall_tile_uses(game: Game, player: str, more: bool) -> list[tuple[tuple[int, ...], int]]:
    """The uses of wall tiles to try for ``player``'s turn, each with its cost in
    :meth:`_Candidate.key` (lower is likelier): none (0), for the base game the only one.

    In The Castle a held wall tile 1, 2 or 3 (or a face-down one, which may be any) can be used
    in the turn: 1 (a second turn at once) only when ``more`` tiles follow in the gap, costing 1
    (nothing on the board shows it but the turn order after); 2 and 3 cost -1, since a player
    doubles a tower or house they complete when they can (the engine refuses the use when the
    turn completes none in which the player has more followers). Uses that change the track
    are told apart by the players' answer or the photo's scores (:func:`_alternatives`)."""
    if not isinstance(game, CastleGame):
        return [((), 0)]
    held = game.usable_wall_tiles(player)
    unknown = held.count(0)
    numbers = [n for n in (1, 2, 3) if (n in held or unknown) and (n != 1 or more)]
    out: list[tuple[tuple[int, ...], int]] = [((), 0)]
    for k in range(1, len(numbers) + 1):
        for combo in combinations(numbers, k):
            if sum(1 for n in combo if n not in held) > unknown:
                continue
            out.append((combo, sum(1 if n == 1 else -1 for n in combo)))
    return out


def _greedy(game: Game, new_tiles: dict[Cell, tuple[TileType, int]], visible: dict[Cell, MeepleEntry],
            expected: str, players: tuple[str, ...], warnings: list[str]) -> tuple[tuple[Turn, ...], Game]:
    """Lay what can be laid, in any order, when no full sequence exists (a misread photo)."""
    remaining = dict(new_tiles)
    turns: list[Turn] = []
    progress = True
    while remaining and progress:
        progress = False
        for cell in sorted(remaining, key=lambda c: (c[1], c[0])):
            tile, rot = remaining[cell]
            m = visible.get(cell)
            tries = ([Turn(player=m.player, tile=tile, at=cell, rot=rot, meeple=m.on)] if m else [])
            tries.append(Turn(player=expected, tile=tile, at=cell, rot=rot))
            for t in tries:
                g = _clone(game)
                try:
                    g.play(t)
                except IllegalMoveError:
                    continue
                if m is not None and t.meeple is None:
                    warnings.append(f"follower at {list(cell)} cannot have been placed; left out")
                game, progress = g, True
                turns.append(t)
                expected = _successor(players, t.player)
                del remaining[cell]
                break
            if progress:
                break
    for cell, (tile, _rot) in sorted(remaining.items()):
        warnings.append(f"new tile {tile.name()} at {list(cell)} cannot be laid in any order; left out")
    return tuple(turns), game


# ---------------------------------------------------------------------------------------------
# one step
def follow_step(record: GameRecord | None, previous: State | None, new: State | Reading, *,
                trust: float = DEFAULT_TRUST, next_player: str | None = None, max_gap: int = MAX_GAP,
                budget: int = PLAY_BUDGET, from_start: bool = False,
                evidence: Evidence | None = None, evidence_total: EvidenceTotal | None = None,
                figures_seen: FiguresSeen | None = None,
                snapped: Collection[tuple[Cell, str, str]] = (),
                unfit: State | None = None,
                faint: Collection[tuple[Cell, str, str]] = ()) -> FollowResult:
    """Infer the turns between the game so far and a new state, and extend the record.

    ``record`` is the game so far (``None`` for the first photo: the record is started from
    ``previous`` if given, else from ``new`` with no turn). ``previous`` is the last
    :attr:`FollowResult.corrected_state`; with a record it only supplies the confidence each
    cell was read with (the record is the truth of what was played). ``new`` is the new
    photo's state or reading. ``next_player`` overrides who plays next by turn order.
    ``new.scores``, when given, is taken as the track the players see and picks the
    alternative that gives it. ``from_start`` says that the first photo (``record`` and
    ``previous`` both ``None``) was taken before the first turn, so it shows the start tile
    alone: every other cell it shows is a misread (see :func:`_start_tile_only`); a first photo
    with more than ``1 + max_gap`` cells raises :class:`FollowError` (a wrong grid: take it again).

    ``evidence`` (optional) is what the photo reader saw on each cell of ``new`` on its own
    (:data:`Evidence`, in ``new``'s frame; ``vision.reader.ReadDetail.evidence``). With it the
    game's knowledge leads and the photo only has to tell between what can have happened:
    the photo is aligned by how well its cells' evidence fits the record's tiles, and not used
    at all when too few fit (:data:`EVIDENCE_MIN_AGREEMENT`: a wrong grid); a tile played
    before keeps its identity unless the evidence for the cell's best tile beats it by
    :data:`EVIDENCE_KEEP_MARGIN`; a new tile is chosen among the tiles still in the box that
    can legally lie on its cell, by the evidence (:func:`_evidence_options`); the first photo
    of a game followed ``from_start`` takes the start tile's cell and rotation from it.

    ``evidence_total`` (optional) is the last step's :attr:`FollowResult.evidence_total`: the
    evidence of the photos used before, summed per cell of the record. With it, a tile played
    before is judged by the sum with this photo's evidence added: when the likeliest tile that
    can lie there beats it by :data:`EVIDENCE_SUM_MARGIN` over at least two photos, the record
    is rewritten at once (if it still replays legally), since many photos agreeing are not one
    photo's misread. The result's ``evidence_total`` carries the sum on.

    ``figures_seen`` (optional) is the last step's :attr:`FollowResult.figures_seen`: the
    followers every photo used before showed on each cell. With it, the followers of turns
    played before are revised from all the photos since each turn (:func:`_revise_followers`):
    a follower missed or misplaced on the photo of its turn is found from the photos after, and
    one still seen after its feature was completed is taken as a farmer
    (:func:`_farmers_left_standing`), one that left when a feature of its tile was completed
    stood on that feature (:func:`_gone_with_their_feature`).
    ``snapped`` (optional; ``vision.reader.ReadDetail.snapped``): the photo's followers (cell,
    player, slot in ``new``'s frame) whose segment the reader took beside their foot rather than
    under it; they weigh :data:`SNAPPED_VOTE` in that revision.
    ``faint`` (optional; ``vision.reader.ReadDetail.faint``): figures too pale for the reader
    to read (cell, player, slot in ``new``'s frame); a new tile of that player's without a
    follower read is asked about (:func:`_unseen_followers`): the next photo that would show the
    figure may never come (photo games 2019 and 2024: the last turn's blue farmer and monk); an
    earlier turn's follower of that player on that tile is not taken out for this photo's not
    reading it (:func:`_revise_followers`).
    ``unfit`` (optional): the last step's :attr:`FollowResult.unfit`, the photo before this one
    when the record did not fit it; when this photo does not fit the record either and the two
    agree (:func:`_agrees_with_unfit`), the record's turns are inferred again from this photo.
    Until the first turn is followed, a photo that misreads the start tile is not used unless
    ``unfit`` is given (:func:`_start_misread`).
    """
    state, warnings = _as_state(new)
    if record is None:
        if previous is None:
            if from_start:
                if len(state.tiles) > 1 + max_gap:
                    # a lone start tile read as a board: the table's grain or cloth taken for tiles
                    raise FollowError(f"the first photo reads {len(state.tiles)} cells, but a game starts from its "
                                      "start tile alone: the table was probably read as tiles; take the photo "
                                      "again from closer, with the start tile in the middle")
                state = _start_tile_only(state, warnings, evidence)
            record, w = _start(state)
            if record.game == "castle" and state.tiles:
                # no start tile: the tiles the first photo shows were laid in turns
                res = follow_step(record, None, new, trust=trust, next_player=next_player,
                                  max_gap=max(max_gap, len(state.tiles)), budget=budget, evidence=evidence,
                                  evidence_total=evidence_total, figures_seen=figures_seen, snapped=snapped, faint=faint)
                return replace(res, warnings=tuple(w) + res.warnings)
            game = new_game(record)
            _remember(record, game)
            read = {e.at: _conf(e.confidence) for e in state.tiles}
            total = _add_evidence(evidence_total, _CellEvidence(evidence, IDENTITY), game.board.tiles) \
                if evidence else None
            return FollowResult(record=record, turns=(), alternatives=(),
                                corrected_state=_corrected(game, record, read), warnings=tuple(warnings + w),
                                evidence_total=total, figures_seen=figures_seen)
        record, w = _start(previous)
        warnings += w
    if not record.players:
        raise FollowError("the record names no players")
    game = _game_for(record)
    players = record.players
    if state.players and tuple(state.players) != players:
        if set(state.players) - set(players):
            warnings.append(f"the photo's players {list(state.players)} differ from the game's {list(players)}")
    # 1. align
    ref = {c: (p.tile, p.rot) for c, p in game.board.tiles.items()}
    transform, matched = align(ref, state, [(f.player, f.at) for f in game.figures])
    confidence: dict[Cell, float] = {}
    if previous is not None:
        prev_t, _ = align(ref, previous)
        for e in transform_state(previous, prev_t).tiles:
            if e.confidence is not None:
                confidence[e.at] = e.confidence
    cev: _CellEvidence | None = None

    def not_used(why: str) -> FollowResult:
        """The record as it was: this photo is not used (``why``), the next one will show the
        turns since; it is passed back as ``unfit``."""
        warnings.append(f"{why}: the photo is not used, the next one will show the turns since")
        return FollowResult(record=record, turns=(), alternatives=(),
                            corrected_state=_corrected(game, record, confidence), transform=transform,
                            warnings=tuple(warnings), evidence_total=evidence_total,
                            figures_seen=figures_seen, used=False, unfit=state)

    if evidence:
        transform, agree = _align_by_evidence(ref, evidence, [transform], [m.at for m in state.meeples],
                                              [f.at for f in game.figures], search=record.game != "castle")
        why = _unusable(ref, state, transform, agree, max_gap, new.image if isinstance(new, Reading) else None)
        if why is None and unfit is None and not record.turns and record.start is not None and \
                any(transform.cell(e.at) not in ref for e in state.tiles):
            why = _start_misread(record.start, evidence, transform)

        def again(short: GameRecord, dropped: set[Cell], note: str) -> FollowResult:
            """This photo followed from ``short`` (the record without the last photo's turns,
            whose cells are ``dropped``), ``note`` said first."""
            res = follow_step(short, previous, new, trust=trust, next_player=next_player, max_gap=max_gap,
                              budget=budget, evidence=evidence,
                              evidence_total=None if evidence_total is None else
                              {c: v for c, v in evidence_total.items() if c not in dropped},
                              figures_seen={c: v for c, v in (figures_seen or {}).items() if c not in dropped},
                              snapped=snapped, faint=faint)
            return replace(res, warnings=tuple(warnings) + (note,) + res.warnings)

        undone = _undo_last_photo(record, state, evidence, max_gap, figures_seen) if why else None
        if undone is not None:
            # the last photo's new tiles are not on this one, which fits the game without them
            short, dropped = undone
            return again(short, dropped, f"{why}; without the {len(dropped)} tiles the last photo added (at "
                         f"{', '.join(str(list(c)) for c in sorted(dropped))}) it fits: their turns are taken "
                         "out (cells of the table read as tiles?) and the turns since are inferred from this photo")
        fixed = _fits_corrected(record, state, evidence, max_gap, figures_seen, trust) if why else None
        if fixed is not None:
            # a tile taken wrongly before (and perhaps the last photo's turns on top of it)
            # made every photo since unfit; this one fits once it is corrected
            short, dropped, corrected = fixed
            what = f"without the {len(dropped - corrected)} tiles the last photo added and " if dropped - corrected else ""
            return again(short, dropped, f"{why}; {what}with the tiles at "
                         f"{', '.join(str(list(c)) for c in sorted(corrected))} taken as this photo clearly shows "
                         "them, it fits: the record is corrected and the turns since are inferred from this photo")
        vanished = _vanished_last_photo(record, state, transform, figures_seen,
                                        new.image if isinstance(new, Reading) else None) if not why else None
        if vanished is not None:
            # the last photo laid several tiles and this one, showing the board around them,
            # lacks one: it was a cell of the table read as a tile, and who laid which of the
            # others was inferred with it; this photo is followed without the last one's turns
            short, dropped, gone = vanished
            return again(short, dropped, f"the last photo laid {len(dropped)} tiles, but this one does not show "
                         f"{', '.join(str(list(c)) for c in sorted(gone))} among them: the last photo's turns "
                         "are inferred again from this one (a cell of the table read as a tile?)")
        taken = _follower_on_anothers_tile(record, state, transform, figures_seen) \
            if not why and record.game != "castle" else None
        if taken is not None:
            # another player's follower on the tile the last photo laid: that turn was a cell of the
            # table read as a tile, and this player's real tile lies there now; the last photo's turn
            # is inferred again from this one, kept where it lays that tile with that follower
            short, dropped, cell, player = taken
            res = again(short, dropped, f"{player}'s follower stands on the tile at {list(cell)}, which the "
                        "last photo took as another player's turn: that turn is inferred again from this photo "
                        "(a cell of the table read as a tile?)")
            order, p = [], _expected_next(short)
            for _ in res.turns:
                order.append(p)
                p = _successor(players, p)
            if [t.player for t in res.turns] == order and \
                    any(t.at == cell and t.player == player and t.meeple for t in res.turns):
                return res  # (in turn order: not a figure read a cell off its own new tile)
        if why and unfit is not None and record.game != "castle" and len(record.turns) <= RESTART_MAX_TURNS \
                and _agrees_with_unfit(state, unfit):
            # two photos running agree on a board the record does not fit: the record went wrong
            # (photo game 827: a two-tile close-up read on a wrong grid laid a tile that was not
            # there, and no photo fitted after it); its turns are inferred again from this photo
            res = follow_step(replace(record, turns=()), None, new, trust=trust, next_player=next_player,
                              max_gap=max(max_gap, len(state.tiles)), budget=budget, evidence=evidence,
                              snapped=snapped, faint=faint)
            note = (f"{why}, nor did the photo before it, while the two agree with each other: the game's "
                    f"{len(record.turns)} turns so far are inferred again from this photo")
            return replace(res, warnings=tuple(warnings) + (note,) + res.warnings)
        if why:
            return not_used(why)
        shown = {transform.cell(e.at) for e in state.tiles}
        missed = [c for c in ref.keys() - shown if (evidence_total or {}).get(c, (0,))[0] >= MISSED_TILE_MIN_PHOTOS]
        if shown <= ref.keys() and missed:
            # nothing it adds, and the tile laid since may be among those it misses (photo game
            # 2829: the last photo, of a board on orange wood, lost the new tile and one more at
            # the board's edge, and the game ended a turn short). Not a tile fewer photos showed,
            # which may be a cell of the table read as a tile (:func:`_unconfirmed`)
            return not_used(f"the photo shows no new tile and misses {len(missed)} of the board's")
        unknown = sorted(c for e in state.tiles if not e.tile.known and (c := transform.cell(e.at)) not in ref)
        if len(unknown) >= UNRECOGNISED_NEW_MAX and unfit is None and record.game != "castle":
            return not_used(f"the new cells at {', '.join(str(list(c)) for c in unknown)} are not recognised "
                            "(glare? a cell of the table read as a tile?)")
        matched = max(matched, agree)
        cev = _CellEvidence(evidence, transform)
        # a photo that passed shows every new cell it has for real (see _unusable)
        max_gap = max(max_gap, len(shown - ref.keys()))
    if state.tiles and matched == 0:
        warnings.append("no tile of the photo matches the game so far; the photo is taken as it is")
    aligned = transform_state(state, transform)
    seen = {e.at: e for e in aligned.tiles}
    new_cells = frozenset(c for c in seen if c not in game.board.tiles)  # the photo's new tiles
    strays = _stray_followers(game, aligned, players) if cev is not None else None
    if strays is not None and not _reads_whole(state):
        # a photo read on a grid a little off fits the tiles well enough but puts the followers
        # beside their features (photo game 1157, skipped photos: the last photo, its reading not
        # whole, laid a phantom tile that closed red's city, six points over)
        return not_used(f"{strays} (read on a grid a little off?)")
    # 2. keep identities (or correct the record where the photo clearly disagrees)
    overrides: list[tuple[Cell, TileEntry]] = []
    doubted = _doubted(game, cev, trust) if cev is not None else {}
    covered = {m.at for m in aligned.meeples}  # cells whose coat of arms a follower may hide
    crest_blue = {m.at for m in aligned.meeples if m.player in CREST_COLOURED_PLAYERS}
    summed: set[Cell] = set()
    total_now: _SummedEvidence | None = None
    if cev is not None and evidence_total is not None:
        # many photos agreeing: rewrite at once (one photo only lowers the tile's confidence)
        total_now = _SummedEvidence(_add_evidence(evidence_total, cev, game.board.tiles, covered,
                                                  crest_blue | _crest_coloured_cells(game), crest_blue))
        summed = {c for c in total_now.sums if c in game.board.tiles}
        doubted = {c: e for c, e in doubted.items() if c not in summed}
        for c, e in _doubted(game, total_now, trust, EVIDENCE_SUM_MARGIN,
                                  EVIDENCE_TWIN_MARGIN).items():
            doubted[c] = e
        # a new tile whose coat of arms the box's last copies hold back (twins under a follower);
        # not where the photo lays several: one may be a cell of the table read as a tile
        if len(new_cells) <= SWAP_NEW_TILES_MAX:
            swaps = _twins_for_new_tiles(game, cev, total_now, [c for c in new_cells if c not in crest_blue],
                                         doubted, trust, covered)
            for c, e in swaps.items():
                doubted[c] = e
                summed.add(c)
    for cell, placed in sorted(game.board.tiles.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        e = seen.get(cell)
        if e is None:
            warnings.append(f"tile at {list(cell)} is not seen in this photo; kept")
            continue
        if cev is not None and _conf(e.confidence) < BY_HAND and cev.score(cell, placed.tile, placed.rot) is not None:
            # the evidence judges, not the reading (read with the record as its prior)
            if cell not in doubted:
                continue
            e = doubted[cell]
            if cell in summed:
                overrides.append((cell, e))
                continue
        elif not e.tile.known or same_tile(e.tile, e.rot, placed.tile, placed.rot):
            if e.tile.known:
                confidence[cell] = max(confidence.get(cell, 0.0), _conf(e.confidence))
            continue
        new_conf = _conf(e.confidence)
        before = confidence.get(cell, trust)
        if new_conf >= BY_HAND or (new_conf >= trust and before < REWRITE_BELOW):
            overrides.append((cell, e))
        elif new_conf >= REWRITE_BELOW:
            confidence[cell] = before * DISAGREE_DECAY
            warnings.append(f"tile at {list(cell)} reads as {e.tile.name()} (rot {e.rot}); kept "
                            f"{placed.tile.name()} (a laid tile does not change; confidence now "
                            f"{confidence[cell]:.2f})")
    kept_roads = [(c, e) for c, e in overrides if c in covered and _hides_its_road(game, c, e.tile, e.rot)]
    for cell, e in kept_roads:
        placed = game.board.tiles[cell]
        warnings.append(f"tile at {list(cell)} reads as {e.tile.name()} (rot {e.rot}); kept {placed.tile.name()}: "
                        f"a follower stands on its road there, which hides the road")
    overrides = [o for o in overrides if o not in kept_roads]
    together = _rewrite(record, [(c, e.tile, e.rot) for c, e in overrides]) if overrides else None
    if together is None and overrides and kept_roads:
        needed, together = _roads_in_the_way(record, overrides, kept_roads)
        for cell, e in needed:
            warnings.append(f"tile at {list(cell)}: taken as {e.tile.name()} (rot {e.rot}) after all, since the "
                            "tiles beside it the photos clearly show do not fit the road a follower would hide there")
        overrides += needed
    rewritten: dict[Cell, tuple[TileType, int, TileType, int]] = {}  # tiles changed (not just a coat of arms)
    recrested: dict[Cell, tuple[TileType, int]] = {}  # tiles whose coat of arms alone the photos changed (from)
    pre_rewrite = record
    if overrides:
        groups = [overrides] if together is not None else [[o] for o in overrides]
        for group in groups:
            fixed = together if together is not None else _rewrite(record, [(c, e.tile, e.rot) for c, e in group])
            for cell, e in group:
                placed = game.board.tiles[cell]
                if fixed is None:
                    warnings.append(f"tile at {list(cell)} reads as {e.tile.name()} (rot {e.rot}) but that does not "
                                    f"fit the game; kept {placed.tile.name()}")
                    continue
                warnings.append(f"tile at {list(cell)} corrected from {placed.tile.name()} (rot {placed.rot}) to "
                                f"{e.tile.name()} (rot {e.rot}) (confidence {_conf(e.confidence):.2f})")
                before, after = (next((t.meeple for t in r.turns if t.at == cell and not t.discarded), None)
                                 for r in (record, fixed[0]))
                if before != after:
                    warnings.append(f"its follower, read on {before} of the tile taken before, is taken to stand "
                                    f"on {after} (the photos after will tell)")
                confidence[cell] = _conf(e.confidence)
                if not _twins(placed.tile, placed.rot, e.tile, e.rot):
                    rewritten[cell] = (placed.tile, placed.rot, e.tile, e.rot)
                else:
                    recrested[cell] = (placed.tile, placed.rot)
            if fixed is not None:
                record, game = fixed
    if rewritten:
        record, game = _followers_as_read(pre_rewrite, record, game, rewritten, aligned.meeples, warnings)
    if figures_seen is not None and rewritten:
        figures_seen = _forget_slots(figures_seen, rewritten)
    # followers of the photo, by colour
    weak = {(transform.cell(at), player, transform.slot(on)) for at, player, on in snapped}
    pale = {(transform.cell(at), player) for at, player, _ in faint}
    meeples = []
    for m in aligned.meeples:
        if m.player not in players:
            warnings.append(f"follower at {list(m.at)}: {m.player} is not a player of this game; ignored")
        else:
            meeples.append(m)
    sightings: FiguresSeen | None = None
    unrevised = record  # the record before the followers' revisions from the photos
    reopened: set[Cell] = set()  # later turns a moved follower no longer keeps from a hidden follower
    reseated: set[Cell] = set()  # turns without a follower the photos since gave another player
    blue_joined: set[Cell] = set()  # cells of earlier turns whose blue follower the photos since moved
    reowned: set[Cell] = set()  # cells of earlier turns whose follower the photos since gave another owner
    gained: set[Cell] = set()  # cells of earlier turns without a follower that the photos since gave one
    doubted_under: set[Cell] = set()  # cells of earlier turns under a follower whose tile the photos now doubt
    if figures_seen is not None:
        # tiles no photo confirmed, and the followers of turns played before, from every photo
        # since each turn
        sightings = _add_figures(figures_seen, meeples, game.board.tiles, seen, weak)
        tile_evidence = total_now if cev is not None and evidence_total is not None else cev
        image = new.image if isinstance(new, Reading) else None
        in_view = partial(_in_view, state=state, transform=transform, image=image)
        for revise in (partial(_unconfirmed, in_view=in_view),
                       partial(_revise_followers, evidence=tile_evidence, new_cells=new_cells, pale=pale),
                       _farmers_left_standing, _gone_with_their_feature, _revise_owners):
            revised = revise(record, sightings, warnings)
            if revised is not None:
                record, game = revised
        blue_joined = _blue_followers_moved(unrevised, record)
        reopened = _reopened_turns(unrevised, record)
        owners = {t.at: t.player for t in unrevised.turns if t.at is not None and not t.discarded}
        bare = {t.at for t in unrevised.turns if t.at is not None and not t.discarded and t.meeple is None}
        gained = {t.at for t in record.turns if t.at in bare and t.meeple is not None and not t.discarded}
        # a follower gained with another owner was never asked about either (fresh photo game
        # 2595: red's farmer missed by its turn's photo, which gave red's S, read as C, to blue)
        regiven = {t.at: t.meeple is not None for t in record.turns
                   if t.at in owners and not t.discarded and owners[t.at] != t.player}
        reowned = {c for c, follower in regiven.items() if follower} - gained
        # a turn without a follower given to another player (a ghost tile's turn taken out,
        # :func:`_reseated`): its hidden-follower question was asked of the wrong player
        reseated = {c for c, follower in regiven.items() if not follower}
        if total_now is not None and evidence_total is not None:
            doubted_under = _contested_rivals(record, game, evidence_total, total_now, covered) - gained - reowned
    # a tile rewritten under a blue follower took a coat of arms (or none) that no photo could
    # tell (photo game 874: blue's knight on a T read as C, whose crest the rewrite to S kept)
    blue_joined |= {t.at for t in record.turns if t.at in rewritten and t.meeple is not None and not t.discarded
                    and t.player in CREST_COLOURED_PLAYERS}
    # 3. new tiles
    # new cells the photo did not recognise: it cannot tell a follower on them either
    unread = {c for c, e in seen.items() if c not in game.board.tiles and not e.tile.known}
    new_entries = _plausible_new(game, {c: e for c, e in seen.items() if c not in game.board.tiles}, max_gap,
                                 warnings)
    visible: dict[Cell, MeepleEntry] = {}
    for m in sorted(meeples, key=lambda m: -_conf(m.confidence)):
        if m.at in new_entries:
            if m.at in visible:
                warnings.append(f"two followers on the new tile at {list(m.at)}; kept the surer one")
            else:
                visible[m.at] = m
    ev_more: dict[Cell, list[TileEntry]] = {}
    unlike: set[Cell] = set()  # new cells whose likeliest legal tile is far from what the photo shows
    blocked: dict[Cell, tuple[TileType, int, Cell, float]] = {}  # new cells whose tile as read an earlier neighbour turns away
    if cev is not None:
        for c, e in list(new_entries.items()):
            opts = _evidence_options(game, c, cev, e, crest_blind=c in crest_blue)
            if opts:
                gap = cev.gap(c, opts[0].tile, opts[0].rot)
                if c in unread or gap is not None and gap >= PHANTOM_ASK_GAP:
                    # far from any tile that can lie there, or like no tile of the game at all
                    unlike.add(c)
                if not same_tile(opts[0].tile, opts[0].rot, e.tile, e.rot):
                    warnings.append(f"new tile at {list(c)} read as {e.tile.name()} (rot {e.rot}) taken as "
                                    f"{opts[0].tile.name()} (rot {opts[0].rot}): the likeliest tile that can lie "
                                    "there")
                    read_best = next(((tile, rot) for _, tile, rot in cev.ranked(c) if game.box.get(tile.id or "", 0) > 0),
                                     None)
                    if read_best is not None and len(against := game.board.edge_conflicts(c, *read_best)) == 1:
                        # (with how far the photo puts the tile as read ahead of the one laid)
                        lead = (cev.score(c, *read_best) or 0.0) - (cev.score(c, opts[0].tile, opts[0].rot) or 0.0)
                        blocked[c] = (read_best[0], read_best[1], next(x for x in against[0].cells if x != c),
                                      max(0.0, lead))
                new_entries[c], ev_more[c] = opts[0], opts[1:]
    choices = _fix_new_tiles(game, new_entries, visible, warnings, trust)
    for c, opts in choices.items():
        if c in ev_more and opts[0] is new_entries[c]:
            choices[c] = [opts[0]] + ev_more[c]
    new_entries = {c: opts[0] for c, opts in choices.items()}
    new_tiles = {c: (e.tile, e.rot) for c, e in new_entries.items()}
    final_board = _clone_board(game.board)
    for c, (t, r) in new_tiles.items():
        final_board.place(c, t, r, check=False)
    photo: Counter[tuple[str, Cell, int]] = Counter()
    for m in meeples:
        k = _figure_key(final_board, m.player, m.at, m.on)
        if k is None:
            warnings.append(f"{m.player}'s follower at {list(m.at)} on {m.on}: no such segment; ignored")
            visible.pop(m.at, None)
        else:
            photo[k] += 1
    late: list[MeepleEntry] = []  # followers on tiles laid before this step that the game does not hold
    for m in meeples:
        if m.at in game.board.tiles and _figure_key(game.board, m.player, m.at, m.on) not in _engine_figures(game):
            warnings.append(f"{m.player}'s follower at {list(m.at)} was not there before and no new tile "
                            "brought it; ignored")
            late.append(m)
    hidden_cache: dict[tuple[Cell, TileType, int], list[str]] = {}

    def hidden_slots(cell: Cell, tile: TileType, rot: int) -> list[str]:
        """Slots of ``tile`` whose feature is complete once every new tile lies: a follower
        put there scored during the gap and went home unseen."""
        key = (cell, tile, rot)
        if key not in hidden_cache:
            board = final_board
            if new_tiles[cell] != (tile, rot):
                board = _clone_board(game.board)
                for c, (t, r) in new_tiles.items():
                    board.place(c, *((tile, rot) if c == cell else (t, r)), check=False)
            hidden_cache[key] = [rotate_slot(seg.slots[0], rot) for i, seg in enumerate(tile.segments)
                                 if seg.kind in _COMPLETABLE and board.graph.is_complete(board.graph.node(cell, i))]
        return hidden_cache[key]

    missing = {(f.player, f.at, f.on) for f in game.figures
               if _figure_key(game.board, f.player, f.at, f.on) not in photo}
    expected = next_player if next_player in players else _expected_next(record, game)
    # 4. turns
    alternatives: list[Alternative] = []
    alt_games: dict[int, Game] = {}
    chosen_turns: tuple[Turn, ...] = ()
    end_game = game
    if new_tiles:
        def searched(start: Game, first: str) -> _Search:
            found = _Search(players=players, choices={c: [(e.tile, e.rot) for e in opts] for c, opts in choices.items()},
                            visible=visible, hidden_slots=hidden_slots, meeples=meeples, missing_followers=missing,
                            festival="festival" in record.expansions, exhaustive=len(new_tiles) <= max_gap,
                            budget=budget, tiles_first=cev is not None and TILES_BEFORE_FOLLOWERS,
                            castle=record.game == "castle", palas=dict(aligned.palas))
            found.run(start, first)
            return found

        search = searched(game, expected)
        if record.game == "castle" and next_player not in players:
            # a follower in the colour of the player who is not to play: a turn since the last
            # follower may have used wall tile 1 (or not), which nothing else on the board shows
            rank = min((c.rank() for c in search.found), default=None)
            if rank is None or any(rank):
                for fixed, fixed_game, why in _turn_order_fixes(record):
                    other = searched(fixed_game, _expected_next(fixed, fixed_game))
                    better = min((c.rank() for c in other.found), default=None)
                    if better is not None and (rank is None or better < rank):
                        warnings.append(why)
                        record, game, search = fixed, fixed_game, other
                        break
        if len(new_tiles) > max_gap:
            warnings.append(f"{len(new_tiles)} new tiles since the last photo: one consistent order was taken "
                            "without looking for hidden followers")
        if search.exhausted:
            warnings.append("the search for turns was cut short; other sequences may exist")
        if search.found:
            alternatives, games = _alternatives(record, game, search.found, state.scores, warnings)
            alt_games = {id(a): g for a, g in zip(alternatives, games)}
            chosen_turns, end_game = alternatives[0].turns, games[0]
            for t in chosen_turns:
                if t.at is not None and t.tile is not None and new_tiles.get(t.at) != (t.tile, t.rot):
                    warnings.append(f"new tile at {list(t.at)} taken as {t.tile.name()} (rot {t.rot}): it explains "
                                    "the followers seen best")
                    new_entries[t.at] = TileEntry(at=t.at, tile=t.tile, rot=t.rot, confidence=0.0)
            best = min(search.found, key=_Candidate.key)
            if best.violations:
                warnings.append("the followers seen break the turn order of players; taken as they are")
            if best.mismatch:
                _explain_mismatch(end_game, photo, warnings)
        else:
            chosen_turns, end_game = _greedy(game, new_tiles, visible, expected, players, warnings)
            _explain_mismatch(end_game, photo, warnings)
    else:
        if photo != _engine_figures(game):
            _explain_mismatch(game, photo, warnings)
    total = None
    if cev is not None:
        total = _add_evidence({c: v for c, v in (evidence_total or {}).items() if c in end_game.board.tiles},
                              cev, end_game.board.tiles, covered, crest_blue | _crest_coloured_cells(end_game),
                              crest_blue)
    # the step's questions about what the photo cannot show, the first that has one asked
    full = replace(record, turns=record.turns + chosen_turns)

    def snapped(prior: GameRecord, these: tuple[Turn, ...], then: Game) -> list[tuple[Alternative, Game]]:
        return _snapped_followers(replace(prior, turns=prior.turns + these), then, game, these, weak)

    def late_seen(prior: GameRecord, these: tuple[Turn, ...], then: Game) -> list[tuple[Alternative, Game]]:
        return _late_followers(replace(prior, turns=prior.turns + these), then, game, these, late, cev=cev)

    def past_hidden(prior: GameRecord, these: tuple[Turn, ...], then: Game) -> list[tuple[Alternative, Game]]:
        return _past_hidden_followers(replace(prior, turns=prior.turns + these), then, game, rewritten, these,
                                      reopened, reseated)

    def past_ask() -> list[tuple[Alternative, Game]]:
        return past_hidden(record, chosen_turns, end_game)

    def snapped_ask() -> list[tuple[Alternative, Game]]:
        return snapped(record, chosen_turns, end_game)

    def late_ask() -> list[tuple[Alternative, Game]]:
        return late_seen(record, chosen_turns, end_game)

    def a_cell_off(prior: GameRecord, these: tuple[Turn, ...], then: Game) -> list[tuple[Alternative, Game]]:
        return _followers_a_cell_off(replace(prior, turns=prior.turns + these), then, game, these, late)

    def a_cell_off_ask() -> list[tuple[Alternative, Game]]:
        return a_cell_off(record, chosen_turns, end_game)

    def recoloured(prior: GameRecord, these: tuple[Turn, ...], then: Game) -> list[tuple[Alternative, Game]]:
        return _recoloured_followers(replace(prior, turns=prior.turns + these), then, game, these, visible)

    def recoloured_ask() -> list[tuple[Alternative, Game]]:
        return recoloured(record, chosen_turns, end_game)

    snapped_why = "a new follower read beside its foot may lie in the field (a farmer) or stand on the road or in " \
        "the city beside it: the players are asked"
    late_why = "a follower first seen now stands on a tile laid just before the last photo, which showed none " \
        "there: the players are asked"
    a_cell_off_why = "a figure of the player who laid a new tile, read on an earlier tile at the edge the two " \
        "share, may stand on the new tile: the players are asked"
    recoloured_why = "a figure on a new tile was read in another player's colour: it may be no follower of that " \
        "turn; the players are asked"
    rivals_why = "a follower on a new tile may hide what tells it from another tile: the players are asked"
    past_why = "a tile corrected from the photos closes a feature in its own turn, a follower the photos moved " \
        "no longer stands on a feature a later tile closed, or a turn went to another player: its player may have " \
        "put a follower there (it scored and went home)"
    # the photo's followers on new tiles, by cell, where it read them (see _hidden_rivals)
    read_on = {c: (m.player, m.on) for c, m in visible.items()}

    def rivals_ask() -> list[tuple[Alternative, Game]]:
        # once the players are asked which tile lies under a follower, they look at the tile, and
        # the rivals reach as far as when another question of the step asks (RIVAL_CROSS_GAP;
        # fresh photo game 2949: red's monk on an A in glare, read as a V, asked V or W within
        # RIVAL_ASK_GAP while the A came 1.8 behind, and red ended a point short)
        if cev is None or not _hidden_rivals(full, end_game, game, chosen_turns, cev, covered, read_on=read_on):
            return []
        return _hidden_rivals(full, end_game, game, chosen_turns, cev, covered, gap=RIVAL_CROSS_GAP, read_on=read_on)

    def crests_ask() -> list[tuple[Alternative, Game]]:
        return _hidden_crests(full, end_game, game, chosen_turns, cev, covered, earlier=blue_joined, tied=True) \
            if cev is not None else []

    questions: tuple[tuple[Callable[[], list[tuple[Alternative, Game]]], str], ...] = (
        (past_ask, past_why),
        (crests_ask, "a new tile's coat of arms may be under a follower, or the photo cannot tell it: "
                     "the players are asked"),
        (rivals_ask, rivals_why),
        (snapped_ask, snapped_why),
        (late_ask, late_why),
        (a_cell_off_ask, a_cell_off_why),
        (recoloured_ask, recoloured_why),
        (lambda: _unseen_followers(full, end_game, game, chosen_turns, unread),
         "a new tile the photo could not recognise may hold a follower it could not see either: the players are "
         "asked"),
        (lambda: _unseen_followers(full, end_game, game, chosen_turns,
                                   {t.at for t in chosen_turns if (t.at, t.player) in pale}),
         "a new tile may hold a follower of its player's the photo could not read surely (pale in glare or a dim "
         "corner, or leaning off the layout's edge): the players are asked"),
    )
    blue_crests = "a blue follower on a new tile may hide a coat of arms the photo cannot tell from its blue: the " \
        "players are asked"
    if len(alternatives) <= 1:
        alternatives = []
    asked_by: Callable[[], list[tuple[Alternative, Game]]] | None = None
    for ask, why in questions:
        if len(alternatives) > 1:
            break
        asked = ask()
        if asked:
            alternatives, alt_games = _split(asked)
            warnings.append(why)
            asked_by = ask
    # a follower of this step read on a road beside its foot, and one first seen now on a tile
    # laid just before, are asked with whatever the step asks (crossed), not dropped for it: in
    # its place it was never asked, and no later photo came to settle it (photo game 1074: red's
    # thief on turn 18's K, missed by its photo and seen by the last one, in a step that asked
    # whether blue's new I had a follower that scored at once; 1116, skipped photos: the last
    # tile's farmer read on its road, in a step that asked of the crest under it); so is a
    # hidden follower on a tile the photos corrected (photo game 1153: blue's L, read as D, closed
    # its road with a thief on it, corrected in a step whose new tile had a hidden-follower question)
    for ask, why, question, any_to_ask in ((past_ask, past_why, past_hidden, rewritten or reopened or reseated),
                                           (snapped_ask, snapped_why, snapped, weak),
                                           (late_ask, late_why, late_seen, late),
                                           (a_cell_off_ask, a_cell_off_why, a_cell_off, late),
                                           (recoloured_ask, recoloured_why, recoloured, visible)):
        if asked_by is not ask and len(alternatives) > 1 and any_to_ask:
            alternatives, alt_games = _crossed(record, chosen_turns, end_game, alternatives, alt_games, question,
                                               warnings, why)
    if cev is not None and asked_by in (None, crests_ask) and len(alternatives) > 1:
        # a step with a question of its own (where its new follower stands) asks too which tile
        # a follower on a new tile may hide, once: each rival comes with its follower on each of
        # its features already (photo game 1324: red's thief on a W's road read as a U's, the
        # step asked field or road on the U, and the rival question never came); so does one
        # that asked of the crest under it (photo game 1121: red's thief on a T's road stub read
        # as a farmer on an R, asked R or Q only); the players look at the tile for the step's
        # question, so the rivals reach a little further (RIVAL_CROSS_GAP; photo game 2000)
        once: list[bool] = []

        def rivals_once(prior: GameRecord, these: tuple[Turn, ...], then: Game) -> list[tuple[Alternative, Game]]:
            if once:
                return []
            once.append(True)
            return _hidden_rivals(replace(prior, turns=prior.turns + these), then, game, these, cev, covered,
                                  gap=RIVAL_CROSS_GAP, read_on=read_on)
        alternatives, alt_games = _crossed(
            record, chosen_turns, end_game, alternatives, alt_games, rivals_once, warnings, rivals_why,
            instead=asked_by is crests_ask)
    if blocked and cev is not None:
        # a new tile the photo reads as one an earlier neighbour turns away, where that neighbour
        # may be the misread one (fresh photo game 2773): asked with the step's question
        blocked_ev = total_now if total_now is not None else cev
        alternatives, alt_games = _crossed(
            record, chosen_turns, end_game, alternatives, alt_games,
            lambda prior, these, then: _blocked_new_tiles(replace(prior, turns=prior.turns + these), then, game,
                                                          these, blocked, blocked_ev), warnings,
            "a new tile reads as a tile its neighbour turns away, and the neighbour may be the misread one: the "
            "players are asked")
    if unlike and len(chosen_turns) > 1:
        # a new tile the photo shows unlike any that can lie there, in a step that lays others,
        # may be a bay of the table read as a tile (photo game 879: a green cloth's bay read as V
        # on the last photo, laid as L, closed blue's road): asked with the step's question
        alternatives, alt_games = _crossed(
            record, chosen_turns, end_game, alternatives, alt_games,
            lambda prior, these, then: _phantom_tiles(replace(prior, turns=prior.turns + these), then, game, these,
                                                      unlike), warnings,
            "a new tile unlike any that can lie there may be the table read as a tile: the players are asked")
    if total is not None and gained:
        # an earlier tile the photos since show a follower on, which its turn's photo missed: the
        # question of the tile that follower may hide was never asked (photo game 1433: blue's
        # farmer on an F's field, missed by its turn's photo and read on the city of a Q after);
        # before the crest question of a blue follower there, which its shield twins answer
        alternatives, alt_games = _crossed(
            record, chosen_turns, end_game, alternatives, alt_games,
            lambda prior, these, then: _revised_rivals(prior, game, these, then, total, gained,
                                                       per_photo=GAINED_RIVAL_GAP), warnings,
            "the photos since show a follower on an earlier tile that had none, and the tile under it may be "
            "another: the players are asked")
    if cev is not None:
        # last: a blue follower's crest, asked with whatever else the step asks (crossed), never
        # in its place (photo game 489); before, it was dropped when another question came first,
        # and an overdue one never came back (photo game 837). Not of a tile asked about already.
        # (a question that offered other tiles there but not the twin has not: photo game 2214,
        # blue's knight on an N taken as M, asked whether it was M, E or I, never N); asked of
        # each way the step's question lays the tile whose twin it does not offer (fresh photo
        # game 3587: blue's T laid as S, asked S, R or Q: R and Q are twins, T never offered)
        twinned = _crest_asked(alternatives)
        joined = set(blue_joined) - {c for c, _, _ in twinned}

        def blue_crests_of(prior: GameRecord, these: tuple[Turn, ...], then: Game) -> list[tuple[Alternative, Game]]:
            cells = {c for c in crest_blue if not any(t.at == c and t.tile is not None and (c, t.tile.id, t.rot) in twinned
                                                      for t in these)}
            return _hidden_crests(replace(prior, turns=prior.turns + these), then, game, these, cev, cells,
                                  blind=cells, earlier=joined, alone=True)
        alternatives, alt_games = _crossed(record, chosen_turns, end_game, alternatives, alt_games, blue_crests_of,
                                           warnings, blue_crests)
    partners = _crest_partners(full, end_game, recrested, total) - _cells_told_apart(alternatives) \
        if recrested and total is not None else set()
    if partners and cev is not None:
        # a coat of arms the photos rewrote that changes a player's points, and another tile's
        # crest no photo could tell that changes them too: the players' answer about that one,
        # given by the points while this one was wrong, is asked again (photo game 2174: blue's F
        # and T taken as G and S, asked together; both answers gave blue 3 and G and S were
        # answered; the next photo saw the F's crest beside blue's knight and rewrote it, and the
        # S kept its crest under blue's farmer: a point over; 1424: red's N answered as M while
        # red's Q, in another city, was still taken as T)
        alternatives, alt_games = _crossed(
            record, chosen_turns, end_game, alternatives, alt_games,
            _earlier_crests(game, cev, partners), warnings,
            "the photos rewrote a coat of arms that changes the points, and the players may have answered another "
            "they cannot tell by those points: the players are asked again")
    if cev is not None and total_now is not None:
        # an earlier tile whose coat of arms this photo sees clearly (or clearly not), against
        # the record, while the photos together do not outweigh it: asked with whatever else the
        # step asks (photo game 2094: red's Q, laid on the last turn but one with no follower on
        # it, read as R by its photo; the last photo saw the crest by 3.0, which one photo alone
        # may not rewrite, and blue's city ended a point short)
        contested = set(_contested_crests(record, cev, total_now, covered)) - _cells_told_apart(alternatives)
        if contested:
            alternatives, alt_games = _crossed(
                record, chosen_turns, end_game, alternatives, alt_games,
                _earlier_crests(game, cev, contested), warnings,
                "this photo sees a coat of arms on an earlier tile that the photos before did not (or none where they "
                "did): the players are asked")
    tied: set[tuple[Cell, str]] = set()  # the followers asked about: their sightings are marked answered
    if sightings is not None:
        crossed, alt_games = _crossed(
            record, chosen_turns, end_game, alternatives, alt_games,
            lambda prior, these, then: _tied_followers(prior, game, these, then, sightings, tied), warnings,
            "the photos disagree on where a follower stands, and it changes the score: the players are asked")
        # the question asks these followers' feature: an answer marks their sightings so far
        # (FollowResult.figures_answered)
        if crossed is alternatives:
            tied.clear()  # asked of no alternative
        alternatives = crossed
    # an earlier tile under a follower whose owner the photos set right: its question, answered
    # while the turn was another player's, is asked again (photo game 1262); one the photos' sum
    # now reads as another kind of tile (fresh photo game 2674: an I under blue's farmer, read as
    # an N by 1.6 when laid, below the new tile's question; each photo since read the I ahead)
    for cells, why in ((reowned, "the photos since gave a follower on an earlier tile to another player, and the "
                                 "tile under it may be another: the players are asked again"),
                       (doubted_under, "the photos since read an earlier tile under a follower as another tile, "
                                       "which the follower may hide: the players are asked")):
        if total is not None and cells:
            alternatives, alt_games = _crossed(
                record, chosen_turns, end_game, alternatives, alt_games,
                lambda prior, these, then, cells=cells: _revised_rivals(prior, game, these, then, total, cells),
                warnings, why)
    if total is not None:
        # an earlier tile's coat of arms that no photo could tell and that this step's turns (any
        # of its alternatives: a hidden follower that scored, photo game 825) make count, asked
        # with whatever else the step asks: asked only when it starts to count, a question in
        # its place meant never (photo game 862: blue's knight joined a city whose G, under its
        # farmer, was taken as F, in a step that asked of another crest); after the photos' tied
        # followers, whose answers may make it count (photo game 1112: a knight tied between a
        # field and the city a T's crest joined)
        alternatives, alt_games = _crossed(
            record, chosen_turns, end_game, alternatives, alt_games,
            lambda prior, these, then: _crests_that_now_count(prior, game, these, then, total,
                                                              earlier=unrevised), warnings,
            "a coat of arms the photos cannot tell now changes the score: the players are asked", earlier=True)
    out_record = alternatives[0].record if alternatives else replace(record, turns=record.turns + chosen_turns)
    _remember(out_record, end_game)
    if len(alternatives) > 1:
        tied |= _asked_where_they_stand(alternatives, {(c, p) for c, p, _ in weak})
        tied |= _asked_what_lies_under(alternatives, {(t.at, t.player) for t in chosen_turns
                                                      if t.at is not None and t.meeple is not None})
    for alt in alternatives[1:]:
        _remember(alt.record, alt_games[id(alt)])
    for c, e in new_entries.items():
        confidence[c] = _conf(e.confidence)
    figures = _add_figures({c: v for c, v in (figures_seen or {}).items() if c in end_game.board.tiles}, meeples,
                           end_game.board.tiles, seen, weak)
    if not new_tiles:
        warnings.append(NO_NEW_TILE)
    unread_laid = tuple(sorted(c for c in unread if c in {t.at for t in chosen_turns}))
    warnings.extend(f"new tile at {list(c)}: {UNREAD_NEW_TILE}" for c in unread_laid)
    return FollowResult(record=out_record, turns=chosen_turns, alternatives=tuple(alternatives),
                        corrected_state=_corrected(end_game, out_record, confidence), transform=transform,
                        warnings=tuple(warnings), evidence_total=total, figures_seen=figures,
                        asked_about=tuple(sorted(_offered_where_seen(alternatives, figures, tied))),
                        unread=unread_laid)


def _offered_where_seen(alternatives: Sequence[Alternative], seen: FiguresSeen,
                        asked: Collection[tuple[Cell, str]]) -> set[tuple[Cell, str]]:
    """The ``asked`` (cell, player) followers whose question offered them on the feature their
    sightings (``seen``) show most, on the tile some alternative lays there (or that no known
    sighting tells): only those sightings an answer weighs (:data:`ANSWERED_MARK`). A question
    that could offer none of what the photos show (another follower, wrongly placed, held that
    feature) says nothing against them (fresh photo game 3215: blue's thief on its V's road, seen
    there by every photo, was asked field or field while red's monk, taken as a thief, held the
    road; the answer outvoted every photo after red's monk was set right)."""
    out: set[tuple[Cell, str]] = set()
    for cell, player in asked:
        slots = [_sighting(on)[0] for p in seen.get(cell, ()) if p for q, on in p if q == player and on]
        turns = [t for alt in alternatives for t in alt.record.turns
                 if t.at == cell and t.player == player and not t.discarded and t.tile is not None]
        if not turns:
            out.add((cell, player))
        for t in turns:
            votes = Counter(i for slot in slots if (i := t.tile.segment_index_on_board(slot, t.rot)) is not None)
            most = max(votes.values(), default=0)
            offered = t.tile.segment_index_on_board(t.meeple, t.rot) if t.meeple is not None else None
            if not votes or offered is not None and votes[offered] == most:
                out.add((cell, player))
                break
    return out


def _asked_where_they_stand(alternatives: Sequence[Alternative], followers: Collection[tuple[Cell, str]]
                            ) -> set[tuple[Cell, str]]:
    """The (cell, player) ``followers`` (new ones the reader took beside their foot) that the
    ``alternatives`` put on different segments of the same tile: the question asks where they
    stand, so the players' answer marks their sightings as :func:`_tied_followers`' do (photo game
    1685: blue's farmer on a P, read on its road beside the foot, answered in the field; the next
    photo read the foot on the road and moved it there, since the answer weighed nothing)."""
    out: set[tuple[Cell, str]] = set()
    for cell, player in followers:
        ways = {(t.tile.id if t.tile else None, t.rot, t.tile.segment_index_on_board(t.meeple, t.rot)
                 if t.tile and t.meeple else None)
                for alt in alternatives for t in alt.record.turns
                if t.at == cell and t.player == player and not t.discarded}
        if len(ways) > 1 and len({w[:2] for w in ways}) == 1:
            out.add((cell, player))
    return out


def _asked_what_lies_under(alternatives: Sequence[Alternative], followers: Collection[tuple[Cell, str]]
                           ) -> set[tuple[Cell, str]]:
    """The (cell, player) new ``followers`` that every one of the ``alternatives`` keeps on their
    tile while they lay different tiles there: the question asks which tile lies under the
    follower and on which of its features it stands, and the players who answer it look at the
    follower, so their answer marks its sightings as :func:`_tied_followers`' do. Fresh scans
    photo game 4572: blue's thief on an L, read as an E, was answered "J on its road" (the L's
    road ended alike); the next two photos missed the thief, and 2 photos to 1 took it out of
    its turn, 2 points short."""
    out: set[tuple[Cell, str]] = set()
    for cell, player in followers:
        ways = [(t.tile.id, t.rot, t.meeple) for alt in alternatives for t in alt.record.turns
                if t.at == cell and t.player == player and not t.discarded and t.tile is not None]
        if len(ways) == len(alternatives) and all(m is not None for *_, m in ways) \
                and len({w[:2] for w in ways}) > 1:
            out.add((cell, player))
    return out


def _plausible_new(game: Game, entries: dict[Cell, TileEntry], max_gap: int,
                   warnings: list[str]) -> dict[Cell, TileEntry]:
    """The reading's cells that can be the tiles laid since the last photo.

    A reader can see tiles that are not there (the pattern of the table read as a grid of
    tiles) or misplace cells. Tiles are laid one per turn next to the board, so: cells not
    joined to the board through other new cells are dropped; and when the photo shows more new
    cells than a gap can hold (``max_gap``), it is flooded with cells that cannot all be real,
    and only the one likeliest new tile is kept: adjacent to the board, fitting its neighbours
    as read when any does, then the most confident (the others will show again in the next
    photo if they are real). Each dropped cell gets a warning."""
    if not entries:
        return entries
    board = game.board
    if len(entries) <= max_gap:
        reach = joined(_anchors(board), entries)
        out = {c: e for c, e in entries.items() if c in reach}
    else:
        def likelihood(c: Cell) -> tuple[int, int, float, int, int]:
            e = entries[c]
            fits = e.tile.known and not board.placement_problems(c, e.tile, e.rot)
            touching = sum(neighbour(c, d) in board.tiles for d in EDGES)
            return (int(bool(fits)), int(e.tile.known), _conf(e.confidence), touching, -c[1] * 1000 - c[0])

        frontier = [c for c in entries if board.touches(c)] if board.tiles or board.layout else list(entries)
        out = {}
        if frontier:
            best = max(frontier, key=likelihood)
            out[best] = entries[best]
        warnings.append(f"the photo shows {len(entries)} new cells, more than {max_gap} turns can lay: "
                        f"kept {'the likeliest new tile' if out else 'none'}, ignored the others")
    for c in sorted(set(entries) - set(out), key=lambda c: (c[1], c[0])):
        if len(entries) <= max_gap:
            warnings.append(f"new tile at {list(c)} is not joined to the board; left out")
    return out


def _fix_new_tiles(game: Game, entries: dict[Cell, TileEntry], visible: dict[Cell, MeepleEntry],
                   warnings: list[str], trust: float = DEFAULT_TRUST) -> dict[Cell, list[TileEntry]]:
    """Replace new tiles that do not fit (misread or unrecognised) and drop ones not joined to
    the board. First each new tile is checked against the old board and the box (the least sure
    first), then against the other new tiles (the less sure of a clashing pair is replaced).
    Returns, per cell, the tiles it may hold, best first (one unless it was replaced or read
    with confidence below ``trust``: then the search lets the followers seen pick among the
    likeliest replacements)."""
    out: dict[Cell, TileEntry] = {}
    more: dict[Cell, list[TileEntry]] = {}
    box = Counter(game.box)
    claimed = Counter(e.tile.id for e in entries.values() if e.tile.known and e.tile.id)
    for c, e in sorted(entries.items(), key=lambda kv: (_conf(kv[1].confidence), kv[0])):
        over = bool(e.tile.known and e.tile.id and claimed[e.tile.id] > box[e.tile.id])
        m = visible.get(c)
        no_slot = m is not None and e.tile.known and _segment(e.tile, e.rot, m.on) is None
        if not e.tile.known or over or no_slot or game.board.edge_conflicts(c, e.tile, e.rot):
            if e.tile.known and e.tile.id:
                claimed[e.tile.id] -= 1
            options = _substitutes(game.board, e, visible.get(c), box - claimed)
            if not options:
                warnings.append(f"new tile at {list(c)} read as {e.tile.name()} fits no tile of the box; left out")
                continue
            fixed, more[c] = options[0], options[1:]
            warnings.append(f"new tile at {list(c)} read as {e.tile.name()} (rot {e.rot}) does not fit; taken as "
                            f"{fixed.tile.name()} (rot {fixed.rot})")
            claimed[fixed.tile.id or ""] += 1
            e = fixed
        elif _conf(e.confidence) < trust:
            more[c] = [x for x in _substitutes(game.board, e, visible.get(c), box - claimed + Counter([e.tile.id]))
                       if not same_tile(x.tile, x.rot, e.tile, e.rot)][:5]
        out[c] = e
    for c in sorted(out, key=lambda c: (_conf(out[c].confidence), c)):
        e = out[c]
        if not any(neighbour(c, d) in out for d in EDGES):
            continue
        board = _board_like(game.board, [(cc, p.tile, p.rot) for cc, p in game.board.tiles.items()]
                            + [(cc, x.tile, x.rot) for cc, x in out.items() if cc != c])
        if board.edge_conflicts(c, e.tile, e.rot):
            claimed[e.tile.id or ""] -= 1
            options = _substitutes(board, e, visible.get(c), box - claimed)
            if options:
                fixed, more[c] = options[0], options[1:]
                warnings.append(f"new tile at {list(c)} read as {e.tile.name()} (rot {e.rot}) does not fit its new "
                                f"neighbours; taken as {fixed.tile.name()} (rot {fixed.rot})")
                out[c] = e = fixed
            claimed[e.tile.id or ""] += 1
    reach = joined(_anchors(game.board), out)
    for c in sorted(set(out) - reach):
        warnings.append(f"new tile at {list(c)} is not joined to the board; left out")
        del out[c]
    return {c: [e] + more.get(c, []) for c, e in out.items()}


def _add_figures(before: FiguresSeen | None, meeples: Iterable[MeepleEntry], board: Mapping[Cell, Any],
                 shown: Mapping[Cell, TileEntry], weak: Collection[tuple[Cell, str, str]] = ()
                 ) -> dict[Cell, tuple[tuple[tuple[str, str], ...] | None, ...]]:
    """``before`` plus one photo's followers (record frame) on each cell of ``board`` (the
    record's tiles), ``None`` for those the photo does not show (not in ``shown``, the photo's
    tiles).

    A follower's slot names a segment of the tile the photo *read* on its cell. Where that is
    not the record's tile and the slot does not name the same kind of segment, lying within the
    one read, on the record's tile (:func:`_slot_still_names`: a monk in the middle of a
    monastery read as a road curve is "on the field", a wider field on the monastery tile), the
    slot says nothing about the record tile's segments, so the follower is kept with its colour
    but an unknown slot (:data:`UNKNOWN_SLOT`): it still shows that a
    follower of that player stands on the tile. A knight on the city of a J read as an E is
    still on the city. A follower in ``weak`` (cell, player, slot: the reader took the segment
    beside its foot) gets its slot marked with :data:`SNAPPED_MARK`; on a tile read otherwise
    (not the record's tile nor its coat-of-arms twin) its slot is unknown too: which segment
    lies beside the foot is the read tile's layout, not the record tile's (a thief on the road
    stub of an A hides the stub, the tile is read as a B, and its foot on the B's field beside
    the monastery is taken as a monk)."""
    out = {c: tuple(v) for c, v in (before or {}).items()}
    by_cell: dict[Cell, list[tuple[str, str]]] = {}
    for m in meeples:
        read = shown.get(m.at)
        placed = board.get(m.at)
        # nothing to compare (no record tile, an unknown read) counts as the tile read right
        misread = (read is not None and placed is not None and read.tile.known
                   and not same_tile(read.tile, read.rot, placed.tile, placed.rot))
        known = not misread or _slot_still_names(read.tile, read.rot, placed.tile, placed.rot, m.on)  # type: ignore[union-attr]
        slot = m.on if known else UNKNOWN_SLOT
        if slot and (m.at, m.player, m.on) in weak:
            moved_by_another_layout = misread and not _twins(read.tile, read.rot, placed.tile, placed.rot)  # type: ignore[union-attr]
            slot = UNKNOWN_SLOT if moved_by_another_layout else slot + SNAPPED_MARK
        by_cell.setdefault(m.at, []).append((m.player, slot))
    for c in board:
        out[c] = out.get(c, ()) + ((tuple(sorted(by_cell.get(c, ()))) if c in shown else None),)
    return out


def _segment_at(tile: TileType, rot: int, slot: str) -> tuple[Kind, tuple[str, ...]] | None:
    """The segment at a board slot of a tile at a rotation: its kind and the board slots it
    covers (None if none)."""
    i = tile.segment_index_on_board(slot, rot)
    if i is None:
        return None
    seg = tile.segments[i]
    return seg.kind, tuple(sorted(rotate_slot(x, rot) for x in seg.slots))


def _same_segment(a: TileType, ra: int, b: TileType, rb: int, slot: str) -> bool:
    """Whether a board slot names the same segment (:func:`_segment_at`) on two tiles."""
    return _segment_at(a, ra, slot) == _segment_at(b, rb, slot) is not None


def _slot_still_names(read: TileType, read_rot: int, placed: TileType, placed_rot: int, slot: str) -> bool:
    """Whether a follower seen on a board slot of the tile ``read`` is on that slot's segment of
    the tile ``placed`` too: the segment is of the same kind and lies within the one it was seen
    on (its slots a subset). A figure seen on a Q's field at its south-west corner is on an S's
    field there (the S's road splits the Q's field; photo game 799); one seen on a curve's wide
    field is not known to be on a monastery tile's field, which also holds the middle where a
    monk stands."""
    seen, here = _segment_at(read, read_rot, slot), _segment_at(placed, placed_rot, slot)
    return seen is not None and here is not None and seen[0] is here[0] and set(here[1]) <= set(seen[1])


def _sighting(slot: str) -> tuple[str, float]:
    """A slot of :data:`FiguresSeen` as the board slot it names and the vote it is worth
    (:data:`SNAPPED_VOTE` when marked :data:`SNAPPED_MARK`, else 1)."""
    slot = slot.removesuffix(ANSWERED_MARK)
    return slot.rstrip(SNAPPED_MARK), SNAPPED_VOTE if slot.endswith(SNAPPED_MARK) else 1.0


def _answered(slot: str) -> bool:
    """Whether a slot of :data:`FiguresSeen` is one a players' answer weighed (:data:`ANSWERED_MARK`)."""
    return slot.endswith(ANSWERED_MARK)


def _sighting_for(t: Turn, slot: str) -> tuple[int | None, float]:
    """A sighting of turn ``t``'s follower: the segment of its tile it votes for and what the
    vote is worth (:func:`_sighting`; a whole vote when the reader put the foot right on it,
    not beside it, :data:`SNAPPED_MARK`). A sighting the players' answer weighed votes a whole
    vote for the feature the record gives the follower (:data:`ANSWERED_MARK`)."""
    assert t.tile is not None
    if _answered(slot) and t.meeple is not None:
        return t.tile.segment_index_on_board(t.meeple, t.rot), 1.0
    bare, weight = _sighting(slot)
    return t.tile.segment_index_on_board(bare, t.rot), weight


def mark_answered(seen: FiguresSeen, asked: Collection[tuple[Cell, str]]
                   ) -> dict[Cell, tuple[tuple[tuple[str, str], ...] | None, ...]]:
    """``seen`` with every sighting of the ``asked`` (cell, player) followers marked
    :data:`ANSWERED_MARK`: the step asked the players where those followers stand. A sighting
    whose slot is unknown (:data:`UNKNOWN_SLOT`: the photo read another tile there) is marked
    too: the answer says where it stands (fresh scans photo game 4572: blue's thief on an L, read
    as an E, answered "J on its road")."""
    out = {c: tuple(v) for c, v in seen.items()}
    for c, player in asked:
        out[c] = tuple(None if p is None else tuple((q, on + ANSWERED_MARK if q == player and not _answered(on)
                                                     else on) for q, on in p)
                       for p in out.get(c, ()))
    return out


def _forget_slots(seen: FiguresSeen, changed: Mapping[Cell, tuple[TileType, int, TileType, int]]
                  ) -> dict[Cell, tuple[tuple[tuple[str, str], ...] | None, ...]]:
    """``seen`` with the slots of the followers on the ``changed`` cells (old tile and rotation,
    new tile and rotation) made :data:`UNKNOWN_SLOT` where the slot does not name the same kind of
    segment, lying within the old one, on the new tile (:func:`_slot_still_names`): those cells'
    tiles were rewritten, and the slots named segments of the tile taken before (they were read
    on it, or the photo read it too). A slot that still names its segment keeps its meaning,
    unless the reader took it beside the foot (:data:`SNAPPED_MARK`): the segment beside a foot
    was the old tile's (see :func:`_add_figures`); the sightings always say whose follower
    stood there."""
    def kept(c: Cell, slot: str) -> str:
        old, old_rot, new, new_rot = changed[c]
        moved = slot.endswith(SNAPPED_MARK)
        return slot if slot and not moved and _slot_still_names(old, old_rot, new, new_rot, slot) else UNKNOWN_SLOT
    return {c: tuple(None if p is None else tuple(sorted((player, kept(c, slot)) for player, slot in p))
                     for p in photos)
            if c in changed else tuple(photos) for c, photos in seen.items()}


def _unconfirmed(record: GameRecord, seen: FiguresSeen, warnings: list[str],
                 in_view: Callable[[Cell], bool]) -> tuple[GameRecord, Game] | None:
    """The record without the turns whose tile only the photo that laid it showed: the
    :data:`UNCONFIRMED_AFTER` or more photos used since do not show its cell at all (a cell a
    misread grid invented keeps the record from ever matching a photo again); nor those whose
    tile few photos showed and none of the last several (:data:`UNCONFIRMED_SEEN_MAX`,
    :data:`UNCONFIRMED_LAPSE`) where ``in_view`` says the photo now followed shows the cell.
    Kept when the record without it does not replay legally. None when nothing was taken out."""
    fixed = record
    game: Game | None = None
    for i in range(len(record.turns) - 1, -1, -1):
        t = fixed.turns[i]
        if t.discarded or t.at is None:
            continue
        photos = seen.get(t.at, ())
        shown = [k for k, p in enumerate(photos) if p is not None]
        if not shown or shown[0] != 0:
            continue
        since = len(photos) - 1 - shown[-1]  # photos used since the last that showed it
        once = len(shown) == 1 and since >= UNCONFIRMED_AFTER
        lapsed = len(shown) <= UNCONFIRMED_SEEN_MAX and since >= UNCONFIRMED_LAPSE and in_view(t.at)
        if not (once or lapsed):
            continue
        trial = replace(fixed, turns=fixed.turns[:i] + fixed.turns[i + 1:])
        g = _replayed(trial)
        if g is None:
            continue
        warnings.append(f"tile at {list(t.at)} ({t.tile.name() if t.tile else '?'}) was seen in "
                        f"{'one photo' if len(shown) == 1 else f'{len(shown)} photos'} only, none of the {since} "
                        "since shows it: its turn is taken out of the record")
        fixed, game = trial, g
        reordered = _next_turn_moved_up(fixed, i, t.player)
        if reordered is not None:
            fixed, game = reordered
            warnings.append(f"{t.player}'s next turn, at {list(fixed.turns[i].at or ())}, takes its place in the "
                            "turn order")
        elif (reseated := _reseated(fixed, i, t.player)) is not None:
            fixed, game = reseated
            warnings.append(f"the turns after it go to the players in turn order from {t.player} on (no follower "
                            "of theirs says otherwise)")
    return _kept(fixed, game)


def _next_turn_moved_up(record: GameRecord, i: int, player: str) -> tuple[GameRecord, Game] | None:
    """``record``, from which a turn of ``player``'s at ``i`` was taken out, with that player's
    next turn, within the round after it, moved up to ``i``, where the turn now at ``i`` is not
    that player's though the order wants it, and the turns from ``i`` on then keep the seat order
    and replay legally (with its game); else None. The turn taken out held a turn of the order:
    a photo that read a turn's tile a cell off (fresh photo game 2752: blue's E on the west of
    the start tile, read as a U beside it) lets the next photo's two new tiles, blue's E and
    red's K, be laid red's first; without the ghost red has two turns in a row, and every turn
    after goes to the wrong player."""
    turns = record.turns
    if not _seat_left_empty(record, i, player):
        return None
    j = next((k for k in range(i + 1, min(len(turns), i + len(record.players))) if turns[k].player == player), None)
    if j is None:
        return None
    moved = turns[:i] + (turns[j],) + turns[i:j] + turns[j + 1:]
    if any(moved[k + 1].player != _successor(record.players, moved[k].player) for k in range(max(i - 1, 0), j)):
        return None
    candidate = replace(record, turns=moved)
    game = _replayed(candidate)
    return None if game is None else (candidate, game)


def _seat_left_empty(record: GameRecord, i: int, player: str) -> bool:
    """Whether ``record``, from which a turn of ``player``'s at ``i`` was taken out, now has
    another player's turn at ``i`` though the seat order wants ``player``'s there."""
    turns = record.turns
    return i < len(turns) and turns[i].player != player and \
        player == (_successor(record.players, turns[i - 1].player) if i > 0 else record.players[0])


def _reseated(record: GameRecord, i: int, player: str) -> tuple[GameRecord, Game] | None:
    """``record``, from which a turn of ``player``'s at ``i`` was taken out, with the turns from
    ``i`` on given to the players in seat order from ``player`` on, where the turn now at ``i``
    is not that player's though the order wants it, and no follower says otherwise: each of those
    turns either lays no follower or already is the player's the order gives it (a follower's
    colour tells whose turn it was; a bare tile does not). With its game, or None (also when the
    record does not replay so). Base games only: The Castle's order is
    not one turn each. :func:`_next_turn_moved_up` is tried first: it keeps the turns' players
    and moves one up. Photo game 5100 (4 players): the photo of blue's N also read a cell of the
    table as a T, laid as green's turn; green's W in the next photo, its follower unseen, went to
    yellow, and when the T was taken out the W stayed yellow's, so that green's follower on it,
    seen later, was never green's (4 points short)."""
    turns = record.turns
    if record.game != "base" or not _seat_left_empty(record, i, player):
        return None
    seated, who = list(turns[:i]), player
    for t in turns[i:]:
        if t.discarded or (t.meeple is not None and t.player != who):
            return None
        seated.append(replace(t, player=who))
        who = _successor(record.players, who)
    candidate = replace(record, turns=tuple(seated))
    game = _replayed(candidate)
    return None if game is None else (candidate, game)


def _with_turn(record: GameRecord, i: int, **changes: Any) -> tuple[GameRecord, Game] | None:
    """``record`` with turn ``i`` changed (``meeple=`` its follower's slot, None for none;
    ``player=`` who played it) and its replayed game, or None when the game does not replay
    that way."""
    trial = _changed_turn(record, i, **changes)
    game = _replayed(trial)
    return None if game is None else (trial, game)


def _changed_turn(record: GameRecord, i: int, **changes: Any) -> GameRecord:
    """``record`` with turn ``i`` changed (the fields of :class:`Turn` given)."""
    turns = list(record.turns)
    turns[i] = replace(turns[i], **changes)
    return replace(record, turns=tuple(turns))


def _kept(fixed: GameRecord | None, game: Game | None) -> tuple[GameRecord, Game] | None:
    """A revision's result: the revised record and a copy of its game (remembered for the
    next replay), or None when nothing was revised."""
    if fixed is None or game is None:
        return None
    _remember(fixed, game)
    return fixed, _clone(game)


def _revise_followers(record: GameRecord, seen: FiguresSeen, warnings: list[str],
                      evidence: _CellEvidence | _SummedEvidence | None = None,
                      new_cells: Collection[Cell] = (),
                      pale: Collection[tuple[Cell, str]] = ()) -> tuple[GameRecord, Game] | None:
    """The record with turns' followers revised from the photos since each turn, or None.

    A follower stands only on the tile its player laid, and stays there until its feature is
    completed (then it never comes back to that tile): so every follower a photo shows on a
    tile is that turn's follower, and the photos from the turn to the last one that shows a
    follower on the tile are all looks at it. One photo misses or misplaces a follower often;
    many photos rarely do. A turn without a follower gets one when at least half of the photos
    of its tile show a follower there (on any slot, also those that read the tile otherwise, whose
    slot is unknown), on the feature the known slots name most (at least
    :data:`FIGURE_MIN_SIGHTINGS` photos, more votes than any other feature: photo game 29, a
    thief on an A's road missed by the turn's photo, seen in 8 of the 9 photos after, 4 of them
    reading a B, then on the road twice, the monastery once and the field once); a
    follower is moved to another feature of its tile that the photos (the turn's own among them)
    show it on more often than on its own, at least :data:`FIGURE_MIN_SIGHTINGS` times: the
    photo of the turn is one look among many, not a better one; a follower still on the board is
    taken out of its turn when at least :data:`FIGURE_MIN_SIGHTINGS` photos showing its tile,
    and at least twice as many as show a follower there, show none (the turn's photo saw a
    figure that was not placed; photo game 966: a farmer seen by the turn's photo alone stayed
    through the last two photos, when three were asked; a follower missed twice comes back with
    the next photo that shows it, photo game 914; the new photo does not count where its
    ``new_cells``, the cells it shows tiles on that the record has not yet, are all the
    follower's feature is open to (:func:`_may_close_on`): its new turns may have completed the
    feature and sent the follower home, photo game 2021; nor where the new photo saw a figure of
    the turn's player on the tile too pale to read, ``pale``: cell and player, record frame,
    ``follow_step``'s ``faint``: fresh photo game 3425, 10% of the photos skipped, blue's knight
    on an E at the layout's edge laid two turns from the end, read by its turn's photo only,
    the next photo missing it, was taken out by the last, which saw it too pale to read), unless
    the photos' ``evidence`` finds its tile about as likely another on which its feature was
    completed (:func:`_closing_tile`: the follower left with its points) or it stood on another
    feature of its tile that was completed when the photos stopped showing it
    (:func:`_feature_it_left_with`). A sighting the reader took beside the
    figure's foot (its slot marked :data:`SNAPPED_MARK`) counts :data:`SNAPPED_VOTE` where a field is compared (a farmer
    beside a road is read on it from some angles), a whole vote between two features that are
    not fields (photo game 21: a thief on an A's road seen on it four times, twice moved there,
    and three times on the monastery was kept a monk at 3 votes to 3), and is always one photo
    of the :data:`FIGURE_MIN_SIGHTINGS` (photo game 6: a thief on a K's road seen on
    it once and beside it once, on the field in the turn's photo, was kept a farmer by 1.5
    votes to 1 because 1.5 fell short of two photos). Sightings that all took the foot onto a
    road never move a farmer there: they are what a farmer lying beside the road gives, and what
    the players' answer to :func:`_snapped_followers` settled (photo game 796). The player stays
    the turn's (owners: :func:`_revise_owners`). Each change is kept only if the record still
    replays legally (the feature was free, the player had a follower left); two moves that do
    not replay alone are tried together (photo game 688: blue's farmer read on the road by the
    turn's photo, so red's thief on that road was taken for a farmer in the field beside it,
    the two swapped in every photo after)."""
    fixed: GameRecord | None = None
    game: Game | None = None
    standing: set[tuple[str, Cell]] | None = None
    blocked: list[tuple[int, str, str]] = []  # (turn, slot, kind) moves the record did not replay with alone
    for i, t in enumerate(record.turns):
        if t.discarded or t.tile is None or t.at is None or t.take_back is not None or not t.tile.segments:
            continue
        photos = seen.get(t.at)
        if not photos:
            continue
        if t.meeple is not None:
            # a follower still on the board is on every photo of its cell since its turn: when
            # most of them show none there, the turn's photo saw a figure that was not placed
            if standing is None:
                standing = {(f.player, f.at) for f in _game_for(record).figures}
            shown = [p for p in photos if p is not None]
            empty = sum(1 for p in shown if not p)
            # the players' answer about where it stands says it stands (fresh scans photo game
            # 4572): worth ANSWER_VOTES photos that show it
            vouched = ANSWER_VOTES if any(_answered(on) for p in shown for q, on in p
                                          if q == t.player) else 0
            gone = (t.player, t.at) in standing and _mostly_empty(empty, len(shown) + vouched)
            if gone and photos[-1] == () and ((t.at, t.player) in pale or _may_close_on(
                    _game_for(fixed or record), t.at, t.meeple, new_cells)):
                # the new photo saw the follower too pale to read, or its turns may have sent it
                # home: the photos before it decide
                shown, empty = shown[:-1], empty - 1
                gone = _mostly_empty(empty, len(shown) + vouched)
            if gone:
                closed = _closing_tile(fixed or record, i, evidence) if evidence is not None else None
                if closed is not None:
                    warnings.append(f"{t.player}'s turn at {list(t.at)}: {empty} of the {len(shown)} photos since show "
                                    f"no follower on its tile, and its tile may be {closed[0].turns[i].tile.name()} "
                                    f"(rot {closed[0].turns[i].rot}), which completed the follower's feature: the "
                                    "turn is taken so")
                    fixed, game = closed
                    continue
                moved = _feature_it_left_with(fixed or record, i, seen)
                if moved is not None:
                    # seen by its turn's photo alone on a feature that stayed open, and on none
                    # since another feature of its tile was completed: it stood there and went
                    # home with its points (photo game 1614: red's thief on an L read on the
                    # field beside its road, which blue's S closed the next turn)
                    fixed, game, said = moved
                    warnings.append(said)
                    continue
                tried = _with_turn(fixed or record, i, meeple=None)
                if tried is not None:
                    warnings.append(f"{t.player}'s turn at {list(t.at)}: {empty} of the {len(shown)} photos since show "
                                    "no follower on its tile; the turn is taken without one")
                    fixed, game = tried
                    continue
        last = max((k for k, p in enumerate(photos) if p), default=None)
        if last is None:
            continue
        window = [p for p in photos[: last + 1] if p is not None]
        votes: dict[int, float] = {}
        looks: Counter[int] = Counter()  # photos showing a follower on each segment, however weighed
        solid: Counter[int] = Counter()  # ... with its foot on that segment (not taken beside it)
        current = t.tile.segment_index_on_board(t.meeple, t.rot) if t.meeple is not None else None
        for p in window:
            segs: dict[int, float] = {}
            for _, on in p or ():
                x, weight = _sighting_for(t, on)
                if x is not None:
                    segs[x] = max(segs.get(x, 0.0), weight)
            for x, w in segs.items():
                votes[x] = votes.get(x, 0.0) + w
                looks[x] += 1
                solid[x] += w == 1.0
        if current is not None and any(_answered(on) for p in window for _, on in p or ()):
            # the players' answer (photo game 1343)
            votes[current] = votes.get(current, 0.0) + ANSWER_VOTES
            looks[current] += ANSWER_VOTES
            solid[current] += ANSWER_VOTES
        if not votes:
            continue
        best, n = max(votes.items(), key=lambda kv: (kv[1], looks[kv[0]], -kv[0]))
        if best == current:
            continue
        if current is None and t.meeple is None:
            # that a follower stands there is told by every photo of the tile, its slot known
            # or not (a tile read otherwise still shows the figure); where it stands only by
            # the known slots, which must name one feature more than any other
            present = sum(1 for p in window if p)
            rival = max((v for x, v in votes.items() if x != best), default=0.0)
            if looks[best] < FIGURE_MIN_SIGHTINGS or 2 * present < len(window) or n <= rival:
                continue
        elif looks[best] < FIGURE_MIN_SIGHTINGS:
            continue
        elif current is not None and t.tile.segments[current].kind is Kind.FIELD and not solid[best]:
            # every look put the foot beside the road onto it: what a farmer lying there gives
            # from some angles, and what the players' answer (field or road) was about (photo
            # game 796: a farmer answered so was put back on the road by the next such photo)
            continue
        elif current is not None and Kind.FIELD not in (t.tile.segments[best].kind, t.tile.segments[current].kind):
            # neither is a field: a foot moved beside a road is a farmer's or a thief's, never
            # a monk's, so between two such features every photo is a whole vote
            if looks[best] <= looks[current]:
                continue
        elif n <= votes.get(current, 0.0):  # type: ignore[arg-type]
            continue
        slot = rotate_slot(t.tile.segments[best].slots[0], t.rot)
        kind = t.tile.segments[best].kind.value
        tried = _with_turn(fixed or record, i, meeple=slot)
        if tried is None:
            blocked.append((i, slot, kind))
            continue
        warnings.append(_moved_follower(t, kind, f"{n:g} of {len(window)} photos"))
        fixed, game = tried
    done: set[int] = set()
    for (i, a, kind_a), (j, b, kind_b) in combinations(blocked, 2):
        # two followers the photos show on each other's feature (or blocking each other) move
        # together: each move alone leaves two followers on one feature
        if done & {i, j}:
            continue
        trial = _changed_turn(_changed_turn(fixed or record, i, meeple=a), j, meeple=b)
        moved = _replayed(trial)
        if moved is not None:
            for k, kind in ((i, kind_a), (j, kind_b)):
                warnings.append(_moved_follower(trial.turns[k], kind, "with another follower that stood in its way"))
            fixed, game = trial, moved
            done |= {i, j}
    return _kept(fixed, game)


def _mostly_empty(empty: int, shown: int) -> bool:
    """Whether ``empty`` of ``shown`` photos of a tile without a follower take its follower out
    (:func:`_revise_followers`): at least :data:`FIGURE_MIN_SIGHTINGS`, and twice as many as
    show one."""
    return empty >= FIGURE_MIN_SIGHTINGS and empty >= 2 * (shown - empty)


def _may_close_on(game: Game, at: Cell, slot: str, new_cells: Collection[Cell]) -> bool:
    """Whether the feature under a follower on board slot ``slot`` of the tile at ``at`` is open
    only towards ``new_cells`` (cells a new photo shows tiles on that ``game`` has not yet): the
    photo's new turns may have completed it, and a photo without the follower then says nothing
    against it. A road, city or monastery (with every empty cell around it new); never a field."""
    node = game.board.node_at(at, slot)
    if node is None or not new_cells:
        return False
    graph = game.board.graph
    if graph.kind(node) in (Kind.FIELD, Kind.COURT) or graph.is_complete(node):
        return False
    faces = graph.open_cells(node)
    return bool(faces) and faces <= set(new_cells)


def _closing_tile(record: GameRecord, i: int, evidence: _CellEvidence | _SummedEvidence
                  ) -> tuple[GameRecord, Game] | None:
    """``record`` with turn ``i``'s tile replaced by one the photos' ``evidence`` finds about as
    likely (within :data:`CLOSING_TILE_MARGIN` of the tile laid), with the turn's follower on a
    feature of the same kind, such that the follower's feature is completed and the follower
    leaves the board by the record's end; the likeliest such, or None.

    Used where most photos since a turn show no follower on its tile: the follower may have
    left with its completed feature, on a tile read otherwise (photo game 1356: blue's thief
    on an A's road stub, taken for a U's road, left when red's W closed the stub; the photos
    that showed it gone removed it from its turn, two points short)."""
    t = record.turns[i]
    if record.game == "castle" or t.tile is None or t.at is None or t.meeple is None:
        return None  # (The Castle's records are left as they are, as in _farmers_left_standing)
    current = t.tile.segment_index_on_board(t.meeple, t.rot)
    now = evidence.score(t.at, t.tile, t.rot)
    if current is None or now is None:
        return None
    kind = t.tile.segments[current].kind
    for v, tile, rot in evidence.ranked(t.at):
        if v < now - CLOSING_TILE_MARGIN:
            break
        if same_tile(tile, rot, t.tile, t.rot):
            continue
        for seg in tile.segments:
            if seg.kind is not kind:
                continue
            trial = _changed_turn(record, i, tile=tile, rot=rot, meeple=rotate_slot(seg.slots[0], rot))
            try:
                game, left = _replay_with_departures(trial)  # one replay: legal, and who left
            except CarcamError:
                continue
            if i in left:
                _remember(trial, game)
                return trial, _clone(game)
    return None


def _moved_follower(t: Turn, kind: str, why: str) -> str:
    """The warning for a follower :func:`_revise_followers` moved to a feature of kind ``kind`` of
    its tile, and ``why``."""
    return (f"{t.player}'s turn at {list(t.at)}: the photos since show a follower on its {kind} ({why}); "
            "the turn is taken with it there")


def _left_the_board(record: GameRecord) -> dict[int, int]:
    """For each turn whose follower left the board before the record's end (its feature was
    completed and scored), the index of the turn that took it off. The record must replay."""
    return _replay_with_departures(record)[1]


def _replay_with_departures(record: GameRecord) -> tuple[Game, dict[int, int]]:
    """The game ``record`` replays to (base game) and :func:`_left_the_board` of it, from one
    replay. Raises :class:`CarcamError` when the record does not replay."""
    game = Game.from_record(record)
    on_board: dict[int, tuple[str, Cell]] = {}
    out: dict[int, int] = {}
    for j, t in enumerate(record.turns):
        game.play(t)
        if t.meeple is not None and t.at is not None and not t.discarded and t.take_back is None:
            on_board[j] = (t.player, t.at)
        standing = {(f.player, f.at) for f in game.figures}
        for i in [i for i, key in on_board.items() if key not in standing]:
            out[i] = j
            del on_board[i]
    return game, out


def _ring_distance(a: str, b: str) -> int:
    """Steps between two board slots around the tile's edge (:data:`SLOTS`, 12 around); an inner
    slot (``C``, ``I``) is next to every slot."""
    if a not in SLOTS or b not in SLOTS:
        return 0
    d = abs(SLOTS.index(a) - SLOTS.index(b))
    return min(d, 12 - d)


def _farmers_left_standing(record: GameRecord, seen: FiguresSeen,
                           warnings: list[str]) -> tuple[GameRecord, Game] | None:
    """The record with followers that the photos show standing on after their feature was
    completed taken as farmers, or None.

    A completed road, city or monastery sends its followers home at once, and a follower never
    comes back to its tile. So when at least :data:`FIGURE_MIN_SIGHTINGS` of the photos taken
    after the turn that completed the feature (and more than half of those that show the tile)
    still show the player's follower on the tile, it never stood on that feature: it lay on a
    field beside it (a farmer read on the road it lies next to, from an angle that hides that it
    lies). The follower moves to the tile's field nearest the slot it was recorded on (where two
    are as near, the first of the tile's segments), if the record replays that way. (The
    Castle's courts are not fields: its records are left as they are.)"""
    if record.game == "castle":
        return None
    try:
        left = _left_the_board(record)
    except CarcamError:
        return None
    fixed: GameRecord | None = None
    game: Game | None = None
    for i, j in sorted(left.items()):
        t = record.turns[i]
        done = record.turns[j].at
        if t.tile is None or t.at is None or t.meeple is None or done is None:
            continue
        current = t.tile.segment_index_on_board(t.meeple, t.rot)
        if current is None or t.tile.segments[current].kind is Kind.FIELD:
            continue
        after = len(seen.get(done, ()))  # photos from the one that showed the completing turn on
        tail = [p for p in seen.get(t.at, ())[-after:] if p is not None] if after else []
        still = sum(1 for p in tail if any(player == t.player for player, _ in p))
        if still < FIGURE_MIN_SIGHTINGS or 2 * still <= len(tail):
            continue
        mine = [rotate_slot(x, t.rot) for x in t.tile.segments[current].slots]

        def gap(slot: str, mine: list[str] = mine) -> int:
            return min(_ring_distance(a, slot) for a in mine)

        fields = []  # (steps from the recorded segment, field's index, its slot nearest it)
        for k, sg in enumerate(t.tile.segments):
            if sg.kind is Kind.FIELD:
                slot = min((rotate_slot(b, t.rot) for b in sg.slots), key=gap)
                fields.append((gap(slot), k, slot))
        for _, _, slot in sorted(fields):
            tried = _with_turn(fixed or record, i, meeple=slot)
            if tried is None:
                continue
            warnings.append(f"{t.player}'s turn at {list(t.at)}: {still} of the {len(tail)} photos since its "
                            f"{t.tile.segments[current].kind.value} was completed still show its follower there; "
                            f"it is taken as a farmer (on {slot})")
            fixed, game = tried
            break
    return _kept(fixed, game)


def _leaves_when_unseen(record: GameRecord, i: int, seen: FiguresSeen, last: int,
                        left: Mapping[int, int] | None = None) -> bool:
    """Whether turn ``i``'s follower leaves the board in ``record`` on the turn of the first
    photo of its tile after photo ``last`` (the photos in between not showing the tile).
    ``left``: :func:`_left_the_board` of ``record`` when already known."""
    try:
        j = (_left_the_board(record) if left is None else left).get(i)
    except CarcamError:
        return False
    done = record.turns[j].at if j is not None else None
    if done is None or not seen.get(done):
        return False
    photos = seen.get(record.turns[i].at, ())  # type: ignore[arg-type]
    first_gone = len(photos) - len(seen[done])  # the photo that showed turn j's tile
    return first_gone > last and all(p is None for p in photos[last + 1:first_gone])


def _gone_with_their_feature(record: GameRecord, seen: FiguresSeen,
                             warnings: list[str]) -> tuple[GameRecord, Game] | None:
    """The record with followers put back on turns whose photos showed one that then left
    exactly when a feature of its tile was completed, or None.

    The dual of :func:`_farmers_left_standing`: a follower never leaves its tile but when its
    feature is completed. So when a turn has no follower (or one that the record does not take
    off then: a thief read on the monastery its road leads to), yet at least
    :data:`FIGURE_MIN_SIGHTINGS` photos (in at least half of those showing the tile up to the
    last of them) showed one of its player's there, and at least as many photos since show
    none, it stood on the feature whose completion took it off: the one of the tile's roads,
    cities and monasteries that, given the follower, the record completes on the turn of the
    first photo without it (the photos in between, if any, not showing the tile). A knight read
    on the field beside its city on the photo of its turn, and at another place on the next, is
    found this way. A single sighting is enough when it is the turn's own photo and the record
    keeps that follower standing (photo game 361: a thief on an A's road read as its monk, the
    road completed by the next turn, no photo since showing it): every photo since contradicts
    the record, and the figure left exactly with a feature. So is one on the next photo when the
    turn's own showed the tile without it and the next read another tile there (the sighting's
    slot unknown), if exactly one feature fits (photo game 1634: a thief on an A's road stub hid
    the stub, the turn's photo read a B and missed it). Where several features fit, the one
    the sightings name most is taken, none on a tie; the record must replay (the player had a
    follower left, the feature was free)."""
    if record.game == "castle":
        return None
    fixed: GameRecord | None = None
    game: Game | None = None
    for i in range(len(record.turns)):
        found = _feature_it_left_with(fixed or record, i, seen)
        if found is not None:
            fixed, game, said = found
            warnings.append(said)
    return _kept(fixed, game)


def _feature_it_left_with(record: GameRecord, i: int, seen: FiguresSeen) -> tuple[GameRecord, Game, str] | None:
    """:func:`_gone_with_their_feature` for turn ``i`` of ``record``: the record with the turn's
    follower on the feature whose completion took it off the board exactly when the photos
    stopped showing it, its game and a warning saying so; None when the photos do not tell so,
    the record does not replay, no feature fits or two fit alike (The Castle's records are left
    as they are, as in :func:`_gone_with_their_feature`)."""
    t = record.turns[i]
    if record.game == "castle" or t.discarded or t.tile is None or t.at is None or t.take_back is not None or not t.tile.segments:
        return None
    photos = seen.get(t.at, ())
    mine = [k for k, p in enumerate(photos) if p and any(player == t.player for player, _ in p)]
    hidden = t.meeple is None and mine == [1] and photos[0] == () and all(
        not _sighting(on)[0] for player, on in photos[1] or () if player == t.player)
    if len(mine) < FIGURE_MIN_SIGHTINGS and not (t.meeple is not None and mine == [0]) and not hidden:
        return None
    last = mine[-1]
    shown = [p for p in photos[: last + 1] if p is not None]
    after = [p for p in photos[last + 1:] if p is not None]
    if 2 * len(mine) < len(shown) or len(after) < FIGURE_MIN_SIGHTINGS or any(after):
        return None
    current = t.tile.segment_index_on_board(t.meeple, t.rot) if t.meeple is not None else None
    if current is not None:
        try:
            if _leaves_when_unseen(record, i, seen, last, _left_the_board(record)):
                return None  # the record takes it off then already
        except CarcamError:
            return None
    votes: Counter[int] = Counter()
    for k in mine:
        named = {t.tile.segment_index_on_board(_sighting(on)[0], t.rot) for player, on in photos[k] or ()
                 if player == t.player}
        votes.update(x for x in named if x is not None)
    fits: list[tuple[float, int, tuple[GameRecord, Game]]] = []
    for k, sg in enumerate(t.tile.segments):
        if sg.kind is Kind.FIELD or k == current:
            continue
        trial = _changed_turn(record, i, meeple=rotate_slot(sg.slots[0], t.rot))
        try:  # one replay: legal (the feature free, a follower left) and when it leaves
            g, left = _replay_with_departures(trial)
        except CarcamError:
            continue
        if _leaves_when_unseen(trial, i, seen, last, left):
            fits.append((votes.get(k, 0), k, (trial, g)))
    if not fits or (hidden and len(fits) > 1):
        return None
    fits.sort(key=lambda f: -f[0])
    if len(fits) > 1 and fits[0][0] == fits[1][0]:
        return None
    _, k, (trial, g) = fits[0]
    kind = t.tile.segments[k].kind.value
    return trial, g, (f"{t.player}'s turn at {list(t.at)}: {len(mine)} photo{'s' if len(mine) > 1 else ''} showed its follower, none of the "
                      f"{len(after)} since its {kind} was completed; the turn is taken with it on the {kind}")


def _revise_owners(record: GameRecord, seen: FiguresSeen,
                   warnings: list[str]) -> tuple[GameRecord, Game] | None:
    """The record with followers' owners revised from their colour in the photos since each
    turn, or None.

    A turn's player is first taken from the turn order, even against the colour read on the
    photo of the turn (one photo misreads a colour now and then). But the order itself goes
    wrong when a photo added or missed a turn (a cell of a misread grid, a tile hidden by a
    hand); every turn after is then given to the wrong player, and only the followers tell.
    What scores is who owns each follower, so a turn whose follower the photos since show in
    another player's colour at least :data:`FIGURE_MIN_SIGHTINGS` times more often than in its
    player's is given to that player (if the record still replays legally: the player had a
    follower left). The turns after follow the order from it again
    (:func:`_expected_next` takes the last turn's player)."""
    fixed: GameRecord | None = None
    game: Game | None = None
    for i, t in enumerate(record.turns):
        if t.discarded or t.at is None or t.meeple is None or t.take_back is not None:
            continue
        photos = [p for p in seen.get(t.at, ()) if p]
        colours: Counter[str] = Counter()
        for p in photos:
            colours.update({player for player, _ in p})
        if not colours:
            continue
        best, n = max(colours.items(), key=lambda kv: (kv[1], kv[0] == t.player))
        if best == t.player or best not in record.players or n < colours.get(t.player, 0) + FIGURE_MIN_SIGHTINGS:
            continue
        tried = _with_turn(fixed or record, i, player=best)
        if tried is None:
            continue
        warnings.append(f"{t.player}'s turn at {list(t.at)}: the photos since show its follower in {best}'s colour "
                        f"({n} of {len(photos)} photos); the turn is given to {best}")
        fixed, game = tried
    return _kept(fixed, game)


def _rewrite(record: GameRecord, changes: list[tuple[Cell, TileType, int]]) -> tuple[GameRecord, Game] | None:
    """The record with the tiles laid on some cells replaced, if it still replays legally.

    A follower of a rewritten turn stays on its slot when that still replays; otherwise it is
    moved to another segment of the new tile (:func:`_follower_slots`: one whose place it
    covers, then one of its kind, then any), since the photos that rewrite the tile show that
    a follower stands there but read its segment on the wrong tile (a farmer beside a road
    curve read as a monk on a monastery). The photos after then revise it
    (:func:`_revise_followers`)."""
    start, turns = record.start, list(record.turns)
    moved: list[int] = []  # turns whose follower's segment is not on the new tile
    for cell, tile, rot in changes:
        if start is not None and start.at == cell:
            start = replace(start, tile=tile, rot=rot)
            continue
        i = _turn_on(turns, cell)
        if i is None:
            return None
        old = turns[i]
        turns[i] = replace(old, tile=tile, rot=rot)
        if old.meeple and old.tile is not None and not _same_segment(old.tile, old.rot, tile, rot, old.meeple):
            moved.append(i)
    fixed = replace(record, start=start, turns=tuple(turns))
    game = _replayed(fixed)
    if game is None and moved:
        # each moved follower in turn order takes the first slot the game replays with up to
        # the next moved follower's turn (or to the end), else the first it replays with up to
        # its own turn (a turn's legality depends on the turns before it only): a farmer moved
        # onto a field a later turn's farmer joins is no slot at all (fresh photo game 3215:
        # red's monk on an A, taken as a thief on a U's road, rewritten to a farmer on the A's
        # field, which blue's farmer three turns later shared, so the A was never taken)
        moved.sort()
        for k, i in enumerate(moved):
            t, prev = fixed.turns[i], record.turns[i]
            upto = moved[k + 1] if k + 1 < len(moved) else len(fixed.turns)
            trials = [replace(fixed, turns=fixed.turns[:i] + (replace(t, meeple=slot),) + fixed.turns[i + 1:])
                      for slot in _follower_slots(prev.tile, prev.rot, t.tile, t.rot, prev.meeple)]
            fixed = next((trial for n in (upto, i + 1) for trial in trials
                          if _replayed(replace(trial, turns=trial.turns[:n])) is not None), fixed)
        game = _replayed(fixed)
    if game is None:
        return None
    _remember(fixed, game)
    return fixed, _clone(game)


def _followers_as_read(before: GameRecord, record: GameRecord, game: Game,
                       rewritten: Mapping[Cell, tuple[TileType, int, TileType, int]],
                       meeples: Sequence[MeepleEntry], warnings: list[str]) -> tuple[GameRecord, Game]:
    """The record with each follower whose tile this photo rewrote into one without the kind of
    feature it stood on put where this photo reads it, when that replays.

    :func:`_rewrite` keeps such a follower on its board slot, now another kind of feature (a
    knight on an N's city left in the field of the road curve V the N was rewritten to). The
    photo that rewrites the tile reads the follower on the new tile itself, so its slot is the
    likelier one (photo game 2110, skipped photos: red's thief on an A the photos could not
    recognise, asked as an N and answered on its city for the same score, was left a farmer on
    the V the last photo read, a point short, while that photo read it on the road). The photos
    after, if any, revise it as any other (:func:`_revise_followers`)."""
    for cell, (old_tile, old_rot, tile, rot) in sorted(rewritten.items()):
        i, j = _turn_on(record.turns, cell), _turn_on(before.turns, cell)
        if i is None or j is None or not record.turns[i].meeple:
            continue
        t, old_slot = record.turns[i], before.turns[j].meeple
        was = _segment_at(old_tile, old_rot, old_slot) if old_slot else None
        now = _segment_at(tile, rot, t.meeple)
        if was is None or now is None or was[0] is now[0]:
            continue
        read = [m.on for m in meeples if m.at == cell and m.player == t.player and m.on]
        there = _segment_at(tile, rot, read[0]) if len(read) == 1 else None
        if there is None or there == now:
            continue
        trial = replace(record, turns=record.turns[:i] + (replace(t, meeple=read[0]),) + record.turns[i + 1:])
        replayed = _replayed(trial)
        if replayed is None:
            continue
        warnings.append(f"{t.player}'s follower at {list(cell)}, on the {was[0].value} of the {old_tile.name()} "
                        f"taken before, is taken to stand where this photo reads it on the {tile.name()}: on its "
                        f"{there[0].value} (slot {read[0]})")
        _remember(trial, replayed)
        record, game = trial, _clone(replayed)
    return record, game


def _turn_on(turns: Sequence[Turn], cell: Cell) -> int | None:
    """The index of the turn that laid the tile on ``cell`` (not a discarded one), or None."""
    return next((i for i, t in enumerate(turns) if t.at == cell and not t.discarded), None)


def _replayed(record: GameRecord) -> Game | None:
    """The game a record replays to, or None when it does not replay legally."""
    try:
        return new_game(record)
    except CarcamError:
        return None


def _follower_slots(old: TileType | None, old_rot: int, tile: TileType | None, rot: int,
                    slot: str | None) -> list[str]:
    """Board slots of ``tile`` (at ``rot``) for a follower recorded on ``slot`` of ``old``,
    most likely first: one per segment, the segment at the follower's own slot first, then those
    of the kind it stood on, then the rest (each segment once, by its first slot)."""
    if tile is None or not slot:
        return []
    seg_before = _segment_at(old, old_rot, slot) if old is not None else None
    kind = seg_before[0] if seg_before else None
    here = tile.segment_index_on_board(slot, rot)
    order = sorted(range(len(tile.segments)),
                   key=lambda i: (i != here, tile.segments[i].kind is not kind, i))
    out = []
    for i in order:
        seg = tile.segments[i]
        board_slots = sorted(rotate_slot(x, rot) for x in seg.slots)
        if board_slots:
            out.append(slot if i == here else board_slots[0])
    return out


def _alternatives(record: GameRecord, game: Game, found: list[_Candidate], scores: Mapping[str, int],
                  warnings: list[str]) -> tuple[list[Alternative], list[Game]]:
    """The consistent sequences grouped by the track and the end totals they lead to, most
    likely first. The end totals tell apart what scores only at the end: a follower that cannot
    stand where the photo put it (that feature taken) and may stand on any other feature of its
    tile alike (photo game 782: a knight read on a field that a farmer held was taken as a
    farmer on the other field, silently), and in The Castle a keep on a completed house."""
    best = min(found, key=_Candidate.key)
    consistent = [c for c in found if c.rank() == best.rank()]
    groups: dict[tuple[Any, ...], _Candidate] = {}
    likeliest = sorted(consistent, key=_Candidate.key)
    tracks = [tuple(c.game.track[p] for p in record.players) for c in likeliest]
    for c, track in zip(likeliest, tracks):
        # the end totals (a replay of the end scoring) only where they can tell two apart
        final = _final_key(c.game) if tracks.count(track) > 1 else None
        groups.setdefault((track, final), c)
    ordered = list(groups.values())
    if scores:
        match = [c for c in ordered if all(c.game.track.get(p) == v for p, v in scores.items())]
        if match:
            ordered = match + [c for c in ordered if c not in match]
        elif len(ordered) > 0:
            warnings.append("the photo's scores match none of the sequences of turns found")
    out = []
    for c in ordered:
        results = c.game.history[len(game.history):]
        summary = "; ".join(_describe_turn(t, r.points) for t, r in zip(c.turns, results))
        out.append(_outcome(c.turns, replace(record, turns=record.turns + c.turns), c.game, game, summary, c.hidden))
    return out, [c.game for c in ordered]


def _outcome(turns: tuple[Turn, ...], record: GameRecord, game: Game, before: Game, summary: str,
             hidden_followers: int = 0) -> Alternative:
    """``record`` (whose game is ``game``) as an alternative for this step's ``turns``: its track,
    its end totals and the points since ``before`` (the game before the step)."""
    return Alternative(turns=turns, record=record, track=dict(game.track), final=game.final_report().final,
                       points={p: game.track[p] - before.track[p] for p in record.players}, summary=summary,
                       hidden_followers=hidden_followers)


def _reopened_turns(before: GameRecord, after: GameRecord) -> set[Cell]:
    """The cells of the turns after a follower that ``after`` (revised from the photos since,
    :func:`_revise_followers`) moves, adds or removes, on which a follower can now be put on a
    feature their tile closes where in ``before`` it could not (the feature was taken): the
    hidden-follower question of that turn was never asked (photo game 1042: red's thief on a
    junction W was read on the road blue's T then closed, so blue's thief there, which scored
    at once, was never offered; the photos since put red's thief on another road of the W)."""
    if len(before.turns) != len(after.turns):
        return set()
    changed = [i for i, (a, b) in enumerate(zip(before.turns, after.turns)) if a.meeple != b.meeple]
    if not changed:
        return set()
    out: set[Cell] = set()
    for j in range(changed[0] + 1, len(after.turns)):
        t = after.turns[j]
        if t.at is None or t.tile is None or t.meeple is not None or t.take_back is not None or t.discarded:
            continue
        for seg in t.tile.segments:
            if seg.kind not in _COMPLETABLE:
                continue
            slot = rotate_slot(seg.slots[0], t.rot)
            if _legal_up_to(after, j, slot) and not _legal_up_to(before, j, slot):
                out.add(t.at)
                break
    return out


def _legal_up_to(record: GameRecord, j: int, slot: str) -> bool:
    """Whether turn ``j`` of ``record`` could have put its follower on ``slot`` (the record
    replayed up to that turn)."""
    return _with_turn(replace(record, turns=record.turns[: j + 1]), j, meeple=slot) is not None


def _past_hidden_followers(record: GameRecord, end_game: Game, before: Game, rewritten: Mapping[Cell, Any],
                           turns: tuple[Turn, ...], reopened: Collection[Cell] = (),
                           reseated: Collection[Cell] = ()) -> list[tuple[Alternative, Game]]:
    """When a turn's tile was rewritten from the photos (``rewritten``: its cell) and the tile
    now closes a feature in that very turn, its player may have put a follower on it: it scored
    and went home at once, so no photo showed it (a *hidden follower*, as for new turns). The
    photo of that turn was read with the wrong tile, so the question was never asked. The same
    for the turns of ``reopened`` (:func:`_reopened_turns`): a follower the photos since moved
    had stood on the feature their tile closed, so no follower could have been put there then,
    and the question was not asked either; nor for the turns of ``reseated``, given to another
    player since (:func:`_reseated`): it was asked of the wrong player. Returns the
    alternatives (``record`` as it is first, then one per different outcome with such a
    follower) with their games, or ``[]`` when none changes the scores. ``before`` is the game
    before this step's ``turns``; ``end_game`` the game of ``record``."""
    if not rewritten and not reopened and not reseated:
        return []
    base = (_outcome(turns, record, end_game, before, "; ".join(_describe_turn(t) for t in turns) or "no new turn"),
            end_game)
    out: list[tuple[Alternative, Game]] = []
    tracks = {tuple(end_game.track[p] for p in record.players)}
    for i, t in enumerate(record.turns):
        if (t.at not in rewritten and t.at not in reopened and t.at not in reseated) or t.meeple is not None \
                or t.tile is None or t.take_back is not None or t.discarded:
            continue
        why = "the tile was read otherwise then" if t.at in rewritten else \
            "the turn was taken as another player's then" if t.at in reseated else \
            "a follower the photos since moved seemed to stand on it then"
        for seg in t.tile.segments:
            if seg.kind not in _COMPLETABLE:
                continue
            slot = rotate_slot(seg.slots[0], t.rot)
            tried = _with_turn(record, i, meeple=slot)
            if tried is None:
                continue
            rec, g = tried
            then = _replayed(replace(rec, turns=rec.turns[: i + 1]))
            if then is None:
                continue
            if any(f.player == t.player and f.at == t.at for f in then.figures):
                continue  # it would still stand there: the photos would show it
            key = tuple(g.track[p] for p in record.players)
            if key in tracks:
                continue
            tracks.add(key)
            gained = then.history[-1].points.get(t.player, 0)  # what turn i scored
            summary = (f"{t.player} put a follower on the {seg.kind.value} their tile at {list(t.at)} closed ({why}): "
                       f"{t.player} +{gained}")
            out.append((_outcome(turns, rec, g, before, summary, hidden_followers=1), _clone(g)))
    return [base, *out] if out else []


@cache
def _shield_twins(tile: TileType, rot: int, expansions: tuple[str, ...] = ()) -> tuple[tuple[TileType, int], ...]:
    """The tiles of the box (base game with ``expansions``), each at a rotation, that look like
    ``tile`` at ``rot`` but for their coats of arms: M and N, O and P, ..."""
    look = _without_shields(tile, rot)
    own = sum(seg.shield for seg in tile.segments)
    catalog = load_catalog()
    box = catalog.box("base", expansions)
    out = []
    for tid in sorted(box):
        other = catalog.tiles[tid]
        if other.id == tile.id or sum(seg.shield for seg in other.segments) == own:
            continue
        for r in other.rotations():
            if _without_shields(other, r) == look:
                out.append((other, r))
                break
    return tuple(out)


def _close_twins(t: Turn, score: Callable[[Cell, TileType, int], float | None],
                 expansions: tuple[str, ...], gap: float = CREST_ASK_GAP) -> list[tuple[TileType, int]]:
    """The shield twins of turn ``t``'s tile (:func:`_shield_twins`) whose evidence (``score``:
    a photo's or the photos' summed) is within ``gap`` (:data:`CREST_ASK_GAP`) of the tile's
    own: the crest the photos cannot tell."""
    if t.tile is None or t.at is None or t.discarded:
        return []
    mine = score(t.at, t.tile, t.rot)
    out: list[tuple[TileType, int]] = []
    for twin, rot in _shield_twins(t.tile, t.rot, expansions):
        other = score(t.at, twin, rot)
        if mine is not None and other is not None and abs(mine - other) < gap:
            out.append((twin, rot))
    return out


def _changed_alternative(record: GameRecord, i: int, turns: tuple[Turn, ...], before: Game, summary: str,
                         finals: set[tuple[Any, ...]], standing: bool = False,
                         **changes: Any) -> tuple[Alternative, Game] | None:
    """``record`` with turn ``i`` changed (``changes``: the fields of :class:`Turn`, as for
    :func:`_with_turn`: a shield twin or a rival for its tile, another slot for its follower) as
    an alternative for this step's ``turns`` (with its game), or None when the game does not
    replay so or its end totals (with ``standing``, and the followers on the board:
    :func:`_standing_key`) are among ``finals`` already (which it then joins)."""
    tried = _with_turn(record, i, **changes)
    return None if tried is None else _new_alternative(tried, turns, before, summary, finals, standing)


def _new_alternative(tried: tuple[GameRecord, Game], turns: tuple[Turn, ...], before: Game, summary: str,
                     finals: set[tuple[Any, ...]], standing: bool = False) -> tuple[Alternative, Game] | None:
    """A changed record and its game (``tried``, from :func:`_with_turn`) as an alternative for
    this step's ``turns``, or None when its end totals (with ``standing``, and the followers on
    the board) are among ``finals`` already (which it then joins); see
    :func:`_changed_alternative`."""
    rec, g = tried
    alt = _outcome(turns, rec, g, before, summary)
    key = _standing_key(g) if standing else _totals_key(alt.final)
    if key in finals:
        return None
    finals.add(key)
    return alt, _clone(g)


def _blue_followers_moved(before: GameRecord, after: GameRecord) -> set[Cell]:
    """The cells of the turns of ``before`` whose follower of the crests' own blue
    (:data:`CREST_COLOURED_PLAYERS`) ``after`` (revised from the photos since, see
    :func:`_revise_followers`) adds or moves: the crest question of its tile was not asked when it
    was laid, where the follower then made the crest count for nothing (photo game 744: blue's
    knight on a P read as a farmer, the twins tied under it and O taken, the O's crest counting
    once the photos since put the knight on the city)."""
    return {b.at for a, b in zip(before.turns, after.turns)
            if b.at is not None and b.meeple is not None and a.meeple != b.meeple
            and b.player in CREST_COLOURED_PLAYERS}


def _contested_crests(record: GameRecord, cev: _CellEvidence, total: _SummedEvidence,
                      covered: Collection[Cell]) -> list[Cell]:
    """Cells of earlier turns (laid before this step, no follower on them in this photo) whose
    tile a shield twin beats in this photo's evidence by :data:`CREST_CONTEST_LEAD` or more, while
    the photos' summed evidence (each photo's crest held to :data:`CREST_SEEN_MAX`) does not put
    the tile ahead of that twin: one photo may not rewrite a crest, but a clear sighting the
    photos before do not outweigh is worth a question (the crest is a point or two at the end)."""
    out = []
    for t in record.turns:
        if t.discarded or t.at is None or t.tile is None or t.at in covered:
            continue
        mine, summed = cev.score(t.at, t.tile, t.rot), total.score(t.at, t.tile, t.rot)
        if mine is None or summed is None:
            continue
        for twin, rot in _shield_twins(t.tile, t.rot, tuple(record.expansions)):
            other, other_sum = cev.score(t.at, twin, rot), total.score(t.at, twin, rot)
            if other is not None and other_sum is not None and other - mine >= CREST_CONTEST_LEAD \
                    and other_sum >= summed:
                out.append(t.at)
                break
    return out


def _contested_rivals(record: GameRecord, game: Game, before: EvidenceTotal, now: _SummedEvidence,
                      covered: Collection[Cell]) -> set[Cell]:
    """Cells of earlier turns with a follower on them, in the record (its game ``game``) and in
    this photo (``covered``), whose tile the photos' summed evidence with this photo (``now``)
    puts at least :data:`RIVAL_CONTEST_LEAD` behind its likeliest tile of another kind (not a
    shield twin: :func:`_hidden_crests` asks of those): the follower may hide what tells them
    apart. Each is asked once: when the rival first leads, or when it starts to count; not
    where it led in the sum before this photo (``before``) too and, laid instead, changed the
    end totals then (asked then, or not to be asked: fresh photo game 2752, red's X under its
    thief, asked when laid and answered against its photo, which read a W a little ahead; the
    next photo put the W further ahead). Fresh photo game 2674: the I under blue's farmer led
    its N from the second photo on, but made a point of difference only once the next tile
    closed the I's other city."""
    was = _SummedEvidence(before, least=1)
    finals = _final_key(game)
    out: set[Cell] = set()
    for i, t in enumerate(record.turns):
        if t.discarded or t.at is None or t.tile is None or t.meeple is None or t.at not in covered:
            continue
        mine, mine_before = now.score(t.at, t.tile, t.rot), was.score(t.at, t.tile, t.rot)
        if mine is None:
            continue
        twins = {twin.id for twin, _ in _shield_twins(t.tile, t.rot, tuple(record.expansions))}
        v, rival, rot = next((r for r in now.ranked(t.at) if r[1].id != t.tile.id and r[1].id not in twins),
                             (mine, t.tile, t.rot))
        if v < mine + RIVAL_CONTEST_LEAD:
            continue
        led = mine_before is not None and (w := was.score(t.at, rival, rot)) is not None and w > mine_before
        then = _with_turn(record, i, tile=rival, rot=rot) if led else None
        if not led or then is None or _final_key(then[1]) == finals:  # new, or it did not count before
            out.add(t.at)
    return out


def _crest_partners(record: GameRecord, end_game: Game, recrested: Mapping[Cell, tuple[TileType, int]],
                    total: EvidenceTotal) -> set[Cell]:
    """The cells of ``record``'s turns (its game ``end_game``) whose tile has a shield twin the
    photos' summed evidence (``total``) cannot tell from it (:func:`_close_twins`) and changes the
    totals of a player whose totals a coat of arms rewritten this step changes (``recrested``:
    each such cell's tile and rotation before): the twin there was the players' answer (or the
    box's likelier twin), and an answer given by that player's points while the rewritten crest
    was wrong no longer holds (photo game 2174: two crests in one city; 1424: red's M answered
    while red's Q in another city was still taken as T)."""
    base = end_game.final_report().final

    def changed(i: int, tile: TileType, rot: int) -> set[str]:
        """The players whose totals turn ``i`` laid as ``tile`` changes."""
        got = _with_turn(record, i, tile=tile, rot=rot)
        if got is None:
            return set()
        then = got[1].final_report().final
        return {p for p, v in base.items() if then.get(p) != v}

    players: set[str] = set()
    for cell, (tile, rot) in recrested.items():
        if (i := _turn_on(record.turns, cell)) is not None:
            players |= changed(i, tile, rot)
    if not players:
        return set()
    summed = _SummedEvidence(total, least=1)
    expansions = tuple(record.expansions)
    return {t.at for i, t in enumerate(record.turns) if t.at is not None and t.at not in recrested
            and any(changed(i, twin, rot) & players for twin, rot in _close_twins(t, summed.score, expansions))}


def _hidden_crests(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...],
                   cev: _CellEvidence, covered: Collection[Cell],
                   blind: Collection[Cell] = (), earlier: Collection[Cell] = (),
                   alone: bool = False, tied: bool = False) -> list[tuple[Alternative, Game]]:
    """Alternatives for this step's new tiles whose coat of arms a follower may hide.

    A tile laid this step that has a shield twin (:func:`_shield_twins`), with a follower on its
    cell in the photo (``covered``) and the photo's evidence for it and its twin within
    :data:`CREST_ASK_GAP`: the photo cannot tell whether a crest lies under the follower (a
    knight often stands right on it), and the crest is worth a point at the end (two in a
    completed city). Returns ``record`` as it is first, then the record with each such tile's
    twin (when the game replays with it: the box must still hold one), with their games, or
    ``[]``. Asked when the tile is laid: once answered, the record keeps the players' answer
    unless later photos show otherwise (the follower gone, the crest seen). On ``blind`` cells (a
    follower of the crests' own blue stands there, :data:`CREST_COLOURED_PLAYERS`) the photo's
    crest evidence says nothing, so every twin is offered whatever it says; so too for the earlier
    turns on ``earlier`` cells (:func:`_blue_followers_moved`), asked with this step's own crest
    question, or ``alone`` (the step's last question): an overdue question must not take the place
    of another (photo game 784: it displaced the question about red's follower on a new tile).
    With ``tied``, a new tile without a follower on it is asked about too where the photo's
    evidence for the twins is within :data:`CREST_TIE_GAP`: a follower beside it may hide its
    city in the photo, or the crest is too faint to tell."""
    def options(t: Turn) -> list[tuple[str, dict[str, Any]]]:
        if t.tile is not None and not t.discarded and (t.at in earlier or (t.at in covered and t.at in blind)):
            twins = list(_shield_twins(t.tile, t.rot, tuple(record.expansions)))
        elif t.at in covered:
            twins = _close_twins(t, cev.score, tuple(record.expansions))
        elif tied:
            twins = _close_twins(t, cev.score, tuple(record.expansions), CREST_TIE_GAP)
        else:
            return []
        return [(_crest_question(t, twin), {"tile": twin, "rot": rot}) for twin, rot in twins]

    asked = _turn_questions(record, end_game, before, turns, options,
                            lambda t: _crest_question(t, t.tile) if t.tile else "",
                            earlier=[i for i, t in enumerate(record.turns) if t.at in earlier])
    if not earlier or alone:
        return asked
    step = len(record.turns) - len(turns)  # the overdue question only with one of this step's own
    return asked if any(a.record.turns[step:] != record.turns[step:] for a, _ in asked[1:]) else []


def _earlier_crests(before: Game, cev: _CellEvidence, cells: Collection[Cell]
                    ) -> Callable[[GameRecord, tuple[Turn, ...], Game], list[tuple[Alternative, Game]]]:
    """The question of the coat of arms on the earlier tiles on ``cells`` (:func:`_hidden_crests`
    with ``earlier``, as the step's last question), in the form :func:`_crossed` asks it of each
    of the step's alternatives (``before``: the step's game before its turns)."""
    return lambda prior, these, then: _hidden_crests(replace(prior, turns=prior.turns + these), then, before, these,
                                                     cev, (), earlier=cells, alone=True)


def _turn_questions(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...],
                    options: Callable[[Turn], Iterable[tuple[str, dict[str, Any]]]],
                    as_read: Callable[[Turn], str], earlier: Iterable[int] = (),
                    standing: bool = False) -> list[tuple[Alternative, Game]]:
    """A question about this step's ``turns`` (and the ``earlier`` turns of ``record``, by index):
    ``record`` as it is first (its summary the asked turns as read, ``as_read``), then, for each
    turn, ``record`` with that turn changed as each of its ``options`` says ((summary, changes to
    the turn) pairs, see :func:`_changed_alternative`) where the game replays so and its end
    totals (with ``standing``, and the followers on the board) are new; with their games, or []
    when no option makes a difference."""
    base_i = len(record.turns) - len(turns)
    out: list[tuple[Alternative, Game]] = []
    asked: list[Turn] = []
    base_final = _standing_key(end_game) if standing else _final_key(end_game)
    finals = {base_final}
    # an earlier turn's question first (it is overdue), its answers kept even where a later
    # answer scores the same: they say different things about the board
    past = sorted(i for i in set(earlier) if i < base_i)
    for i in [*past, *range(base_i, len(record.turns))]:
        t = record.turns[i]
        if i == base_i and past:
            finals = {base_final}
        for summary, changes in options(t):
            got = _changed_alternative(record, i, turns, before, summary, finals, standing, **changes)
            if got is None:
                continue
            if t not in asked:
                asked.append(t)
            out.append(got)
    if not out:
        return []
    base = _outcome(turns, record, end_game, before, "; ".join(x for x in map(as_read, asked) if x))
    return [(base, end_game), *out]


def _hidden_rivals(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...],
                   cev: _CellEvidence, covered: Collection[Cell], gap: float = RIVAL_ASK_GAP,
                   read_on: Mapping[Cell, tuple[str, str]] | None = None) -> list[tuple[Alternative, Game]]:
    """Alternatives for this step's new tiles that a follower standing on them may hide.

    A figure stands on the part of its tile that tells it from its likeliest rivals more often
    than not: a thief on a W's road covers the village where its three roads meet, and the W
    reads as a straight road U (photo games 353, 367); a monk on an A covers where its road
    stub starts. The follower stays there for many turns, and the photos since keep reading
    the same. So for a tile laid this step with a follower on its cell in the photo
    (``covered``), each other tile the photo's evidence ranks within ``gap`` of it
    (:data:`RIVAL_ASK_GAP`; :data:`RIVAL_CROSS_GAP` asked with another question of the step;
    another kind of tile: its shield twins are :func:`_hidden_crests`' question) is offered with
    the follower on each of its features (:func:`_follower_slots`' order) where the record replays so and the end
    totals differ from those offered already. A monk asked about this way may be a farmer lying
    in its own tile's field, which the rivals' fields, ending alike, do not tell (photo game 1543:
    red's farmer in a B's field read as its monk; the question offered A on its field, not B):
    the tile as read with the follower on each of its fields follows, where the followers it
    leaves standing are new (:func:`_standing_key`). ``read_on``: the photo's followers on new
    tiles, cell to the figure's player and the slot it was read on. A turn laid without a follower
    where the photo shows one of its player's on its tile, a follower that could stand nowhere it
    was read on the tile taken, has its rivals offered with that follower on each of their
    features (fresh photo game 2228: blue's monk on an A, read as a U by 0.55 with the figure's
    foot on the road's stub, which blue's thief already held: laid as a bare U, the monk never
    asked and blue four points short). Once the players are asked, each rival with the follower
    where the photo read it comes too, where the followers it leaves standing are new, though it
    ends as an answer offered (fresh photo game 2262: blue's thief on an L's road read on a D,
    moved to the D's city; L on that road ended as D on its city, so only L on its other road and
    field were offered, and the D was kept). Returns ``record`` as it is first, then each rival's,
    with their games, or []."""
    base_i = len(record.turns) - len(turns)
    out: list[tuple[Alternative, Game]] = []
    asked: list[Turn] = []
    finals = {_final_key(end_game)}
    rivals = [(base_i + k, t, list(_close_rivals(cev, t, tuple(record.expansions), gap=gap, stub_gap=STUB_ASK_GAP,
                                                 strip_gap=FIELD_STRIP_ASK_GAP)))
              for k, t in enumerate(turns)
              if t.at in covered and t.tile is not None and t.at is not None and not t.discarded]
    for i, t, close in rivals:
        for rival, rot in close:
            # the follower on each feature of the rival: the feature read under it was the
            # tile read's (a monk in an A's middle read on a U's road through it, game 292)
            _offer_rival(record, i, rival, rot, turns, before, finals, asked, out, _read_slot(t, read_on))
    if out:
        # the players are asked: each rival with the follower where the photo read it, though it
        # ends as an answer offered, where the followers it leaves standing are new
        standing = {_standing_key(end_game)} | {_standing_key(g) for _, g in out}
        for i, t, close in rivals:
            read = _read_slot(t, read_on)
            for rival, rot in close if read is not None else ():
                if rival.segment_index_on_board(read, rot) is None:
                    continue
                said = _rival_answer(replace(t, tile=rival, rot=rot, meeple=read), rival)
                got = _changed_alternative(record, i, turns, before, said, standing, standing=True,
                                           tile=rival, rot=rot, meeple=read)
                if got is not None:
                    if t not in asked:
                        asked.append(t)
                    out.append(got)
    own_finals = {_standing_key(end_game)}
    for t in asked:  # (a monk's own tile's fields: a turn asked without a follower has none)
        under = t.tile.segment_index_on_board(t.meeple, t.rot) if t.tile and t.meeple else None
        if t.tile is None or under is None or t.tile.segments[under].kind is not Kind.MONASTERY:
            continue
        for seg in t.tile.segments:
            if seg.kind is Kind.FIELD:
                slot = rotate_slot(seg.slots[0], t.rot)
                got = _changed_alternative(record, record.turns.index(t), turns, before,
                                           _rival_answer(replace(t, meeple=slot), t.tile), own_finals, standing=True,
                                           meeple=slot)
                if got is not None:
                    out.append(got)
    return _rival_question(record, end_game, before, turns, asked, out)


def _close_rivals(ev: _CellEvidence | _SummedEvidence, t: Turn, expansions: tuple[str, ...],
                  twin_gap: float | None = None, gap: float = RIVAL_ASK_GAP,
                  stub_gap: float | None = None, strip_gap: float | None = None) -> Iterator[tuple[TileType, int]]:
    """The tiles (with their rotations) that the evidence ``ev`` ranks within ``gap``
    (:data:`RIVAL_ASK_GAP`) of turn ``t``'s own tile on its cell, another kind of tile (a figure
    hides a part of its tile, not which way it lies), its shield twins within ``twin_gap``
    (:func:`_shield_twins`; none without it), and tiles with a road's stub under its follower
    within ``stub_gap`` and tiles with a strip of field under it within ``strip_gap``
    (:func:`_edge_under_follower`; none without them), likeliest first."""
    if t.tile is None or t.at is None:
        return
    mine = ev.score(t.at, t.tile, t.rot)
    if mine is None:
        return
    twins = {w.id for w, _ in _shield_twins(t.tile, t.rot, expansions)}
    reach = max([gap, *(g for g in (twin_gap, stub_gap, strip_gap) if g is not None)])
    for v, rival, rot in ev.ranked(t.at):
        if v < mine - reach:
            break
        within = twin_gap if rival.id in twins else gap
        edge = _edge_under_follower(t, rival, rot) if rival.id not in twins else None
        if edge is Kind.ROAD and stub_gap is not None:
            within = max(gap, stub_gap)
        elif edge is Kind.FIELD and strip_gap is not None:
            within = max(gap, strip_gap)
        if rival.id == t.tile.id or within is None or v < mine - within:
            continue
        yield rival, rot


def _edge_under_follower(t: Turn, rival: TileType, rot: int) -> Kind | None:
    """Where ``rival`` at ``rot`` differs from turn ``t``'s tile at one edge only and ``t``'s
    follower stands at that edge: :attr:`Kind.ROAD` when the rival has a road there, the stub the
    figure may hide (the stub of an S or an A is about a figure's base long; see
    :func:`_hides_its_road`); :attr:`Kind.FIELD` when the rival has a field there where the tile
    has a city, the strip of field along the edge the figure may cover (fresh photo game 2681);
    else None."""
    if t.tile is None or t.meeple is None or t.meeple not in SLOT_EDGE:
        return None
    mine, theirs = PlacedTile(t.tile, t.rot), PlacedTile(rival, rot)
    differ = _edges_that_differ(mine, theirs)
    if differ != [SLOT_EDGE[t.meeple]]:
        return None
    kind = theirs.kind_at(differ[0])
    if kind is Kind.ROAD or (kind is Kind.FIELD and mine.kind_at(differ[0]) is Kind.CITY):
        return kind
    return None


def _read_slot(t: Turn, read_on: Mapping[Cell, tuple[str, str]] | None) -> str | None:
    """The slot the photo read a follower of turn ``t``'s player on, on ``t``'s tile (``read_on``:
    the photo's followers on new tiles, cell to player and slot), or None."""
    seen = (read_on or {}).get(t.at) if t.at is not None else None
    return seen[1] if seen is not None and seen[0] == t.player else None


def _offer_rival(record: GameRecord, i: int, rival: TileType, rot: int, turns: tuple[Turn, ...], before: Game,
                 finals: set[tuple[Any, ...]], asked: list[Turn], out: list[tuple[Alternative, Game]],
                 read: str | None = None) -> None:
    """Adds to ``out`` ``record`` with turn ``i``'s tile taken as ``rival`` at ``rot``, its
    follower on each feature of it (:func:`_follower_slots`' order), where the game replays so and
    the end totals are not among ``finals`` (:func:`_changed_alternative`); the turn joins
    ``asked`` when one is added. A turn without a follower is offered so with ``read`` (if not
    None), the slot the photo read a follower of its player's on (see :func:`_hidden_rivals`)."""
    t = record.turns[i]
    for slot in _follower_slots(t.tile, t.rot, rival, rot, t.meeple or read) or [None]:
        said = _rival_answer(replace(t, tile=rival, rot=rot, meeple=slot), rival)
        got = _changed_alternative(record, i, turns, before, said, finals, tile=rival, rot=rot, meeple=slot)
        if got is None:
            continue
        if t not in asked:
            asked.append(t)
        out.append(got)


def _rival_question(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...], asked: list[Turn],
                    out: list[tuple[Alternative, Game]]) -> list[tuple[Alternative, Game]]:
    """The question of :func:`_offer_rival`'s answers: ``record`` as read first (the ``asked``
    turns' tiles as laid), then ``out``; [] when nothing was offered."""
    if not out:
        return []
    base = _outcome(turns, record, end_game, before, "; ".join(_rival_answer(t, t.tile) for t in asked if t.tile))
    return [(base, end_game), *out]


def _revised_rivals(record: GameRecord, before: Game, turns: tuple[Turn, ...], end_game: Game,
                    total: EvidenceTotal, cells: Collection[Cell], per_photo: float = 0.0
                    ) -> list[tuple[Alternative, Game]]:
    """Alternatives for earlier tiles under a follower whose owner the photos since changed, or
    that the photos since gave a follower their turn's photo missed (``cells``: their cells).

    A new tile under a follower is asked about when laid (:func:`_hidden_rivals`), and the
    answer is the one whose scores are the players'. When the turn was given to the wrong
    player then (a phantom turn shifted the order), no answer has their scores, and the one kept
    may be the wrong tile; once the photos since give the follower to its owner
    (:func:`_revise_owners`), the answers score differently and the
    question is asked again (photo game 1262: red's L, read as D under its thief, asked as
    blue's; the owner was set right a photo later and the D stayed, a point short); a follower
    the turn's photo missed was never asked about (photo game 1433). Each tile
    the photos' summed evidence (``total``) ranks within :data:`RIVAL_ASK_GAP` of the turn's (or
    ``per_photo`` times the photos summed there, where that is more), and each shield twin
    within :data:`CREST_ASK_GAP` (or that), and each with a road's stub where the follower stands
    (:func:`_edge_under_follower`) within :data:`STUB_ASK_GAP`, a strip of field there within
    :data:`FIELD_STRIP_ASK_GAP` (each for each photo summed, where
    ``per_photo`` is given), with the follower on each of its features (:func:`_follower_slots`'
    order), where the record replays so and the end totals are new.
    ``record`` is the record before this step's ``turns``. Returns the record with the turns
    first, then each rival's, with their games, or []."""
    full = replace(record, turns=record.turns + turns)
    summed = _SummedEvidence(total, least=1)
    finals = {_final_key(end_game)}
    out: list[tuple[Alternative, Game]] = []
    asked: list[Turn] = []
    for i, t in enumerate(record.turns):
        if t.at not in cells or t.tile is None or t.at is None or t.discarded or t.meeple is None:
            continue
        photos = summed.photos.get(t.at, 1)
        gap = max(RIVAL_ASK_GAP, per_photo * photos)
        # a road's stub under the follower as the step's own question reaches it, each photo
        # summed (fresh photo game 2595: red's farmer beside an S's stub, missed by its turn's
        # photo; the S 7.2 behind the C read over three photos, 2.4 a photo)
        stub = STUB_ASK_GAP * photos if per_photo else STUB_ASK_GAP
        strip = FIELD_STRIP_ASK_GAP * photos if per_photo else FIELD_STRIP_ASK_GAP
        for rival, rot in _close_rivals(summed, t, tuple(record.expansions), twin_gap=max(CREST_ASK_GAP, gap),
                                        gap=gap, stub_gap=stub, strip_gap=strip):
            _offer_rival(full, i, rival, rot, turns, before, finals, asked, out)
    return _rival_question(full, end_game, before, turns, asked, out)


def _rival_answer(t: Turn, tile: TileType) -> str:
    """One answer to a question about a new tile under a follower: turn ``t``'s tile is ``tile``
    (with the follower where the turn has it, and its slot where the tile has several features of
    that kind: an L's three roads; a turn without one says so)."""
    if t.meeple is None:
        return f"the tile at {list(t.at or ())} is {tile.name()}, with no follower of {t.player}'s on it"
    x = tile.segment_index_on_board(t.meeple, t.rot)
    where = ""
    if x is not None:
        kind = tile.segments[x].kind
        several = sum(1 for seg in tile.segments if seg.kind is kind) > 1
        where = f" on its {kind.value}" + (f" ({t.meeple})" if several else "")
    return f"the tile under {t.player}'s follower at {list(t.at or ())} is {tile.name()}{where}"


def _crests_that_now_count(record: GameRecord, before: Game, turns: tuple[Turn, ...], end_game: Game,
                           total: EvidenceTotal, earlier: GameRecord | None = None) -> list[tuple[Alternative, Game]]:
    """Alternatives for tiles laid before this step whose coat of arms the photos could not tell
    and which only this step's turns make count.

    A crest under a follower is asked about when its tile is laid (:func:`_hidden_crests`), but
    only when it changes the score then: a farmer beside an M's city does not own it, so M or N
    scores alike until a knight joins the city (photo game 326: blue's knight joined it five
    turns later, the photos under the farmer tied, and N kept its crest's point from blue). So
    for each earlier turn's tile with a shield twin whose evidence summed over the photos
    (``total``) is within :data:`CREST_ASK_GAP` of its own, the twin is offered when it changes
    the end totals with this step's turns and did not without them (asked once, when it starts
    to count). Asked of each of a step's alternatives, the tiles its question changes included
    (fresh photo game 3587: blue's thief on a T, laid as S under blue, its city nobody's; a step
    asked where blue's follower stood and offered S and T with blue's follower on the city, and
    where red's new knight stood; with red's knight on the city the crest counted for red, and
    that way T was never offered: red a point over). :func:`_crossed` offers each way once.
    ``earlier``: the record before this step revised its followers from the photos (``record``
    is after): a crest that counts only since a revision starts to count in this step too
    (photo game 1112, 10% of photos skipped: red's knight on an E beside blue's farmer's T, read
    as its crested twin S, was first read on the E's field; when the photos since moved it onto
    the city that the T's crest joined, the crest counted from then on and was never asked).
    Returns the record as it is first, then each twin's, with their games, or []."""
    full = replace(record, turns=record.turns + turns)
    summed = _SummedEvidence(total, least=1)
    finals = {_final_key(end_game)}
    # the record's own game (``before`` is the step's: an alternative crossed with this question
    # may have changed an earlier turn, its follower's slot say, which changes the totals too)
    before_final = _final_key(_game_for(record))
    earlier_final = _final_key(_game_for(earlier)) if earlier is not None and earlier is not record else None

    def counted_before_revision(t: Turn, twin: TileType, rot: int) -> bool:
        """Whether swapping ``t``'s tile for its twin changed the end totals before the revision
        (or the turn was not in the record then): asked when it started to count."""
        if earlier is None or earlier_final is None:
            return True
        j = next((k for k, e in enumerate(earlier.turns) if e.at == t.at and not e.discarded), None)
        then = _with_turn(earlier, j, tile=twin, rot=rot) if j is not None else None
        return then is None or _final_key(then[1]) != earlier_final

    out: list[tuple[Alternative, Game]] = []
    asked: list[tuple[Turn, TileType]] = []
    for i, t in enumerate(record.turns):
        tile_finals: set[tuple[Any, ...]] = set()  # this tile's twins' totals
        for twin, rot in _close_twins(t, summed.score, tuple(record.expansions)):
            then = _with_turn(record, i, tile=twin, rot=rot)
            if then is None or (_final_key(then[1]) != before_final and counted_before_revision(t, twin, rot)):
                continue  # it counted already (or cannot be): asked when it started to
            # each tile's crest its own answer, though two crests change the totals alike: the
            # players tell which tile has none (photo game 1112: the T taken as S and a true Q in
            # red's city, each a point; only the Q was offered, and a true answer kept the S)
            got = _changed_alternative(full, i, turns, before, _crest_answer(t, twin), finals | tile_finals,
                                       tile=twin, rot=rot)
            if got is not None:
                tile_finals.add(_totals_key(got[0].final))
                asked.append((t, t.tile))
                out.append(got)
    if not out:
        return []
    base = _outcome(turns, full, end_game, before, "; ".join(_crest_answer(t, tile) for t, tile in asked))
    return [(base, end_game), *out]


def _tied_followers(record: GameRecord, before: Game, turns: tuple[Turn, ...], end_game: Game,
                    seen: FiguresSeen, asked_about: set[tuple[Cell, str]] | None = None
                    ) -> list[tuple[Alternative, Game]]:
    """Alternatives for followers whose feature this step's photo puts in doubt.

    Each photo of a tile reads its follower on a segment; the record follows the photos' most
    sightings (:func:`_revise_followers`, from :data:`FIGURE_MIN_SIGHTINGS` up), so where this
    photo (the last of ``seen``, which holds it) names another feature of the tile than the
    record, and the photos since the turn now name the two equally often, nothing tells which
    it is: a farmer lying by a road's bend is read on the road from one side, on the field from
    another (photo game 363: the last turn but one's farmer, read on the road, then on the
    field by the last photo). Not only a tie: while the record's feature leads by no more than
    :data:`FIGURE_ASK_LEAD` photos, the photos have not decided (photo game 1145: blue's thief
    on a P's road read on the field beside it by the photo of the turn and the next, then on
    the road by the last photo: 2 to 1, kept on the field, 3 points short). A road's looks the
    reader took beside the foot (:data:`SNAPPED_MARK`) do not count against a field along it,
    as a farmer lying there gives them (photo game 1224: red's farmer on a P read on its road
    four times, three of them moved there, then on the field by the last photo). Where the
    other feature changes the end totals, the players are asked. ``record`` is the record before
    this step's ``turns`` (its game ``before``); ``end_game`` the game after them. Returns the
    record with the turns first, then each other feature's, with their games, or []."""
    full = replace(record, turns=record.turns + turns)
    standing = {(f.player, f.at) for f in end_game.figures}
    finals = {_final_key(end_game)}
    out: list[tuple[Alternative, Game]] = []
    asked: list[tuple[Turn, int]] = []
    for i, t in enumerate(record.turns):
        if t.meeple is None or t.tile is None or t.at is None or t.discarded or (t.player, t.at) not in standing:
            continue
        photos = seen.get(t.at, ())
        if not photos or not photos[-1]:
            continue
        looks: Counter[int] = Counter()
        solid: Counter[int] = Counter()  # ... not taken onto a road beside the foot
        answered = False
        for p in photos:
            mine = [_sighting_for(t, on) for player, on in p or () if player == t.player and on]
            looks.update({x for x, _ in mine if x is not None})
            solid.update({x for x, w in mine if x is not None and w == 1.0})
            answered |= any(_answered(on) for player, on in p or () if player == t.player)
        current = t.tile.segment_index_on_board(t.meeple, t.rot)
        if current is None:
            continue
        if answered:  # asked before: the players' answer is the record's (photo game 1343)
            looks[current] += ANSWER_VOTES
            solid[current] += ANSWER_VOTES
        last = {_sighting_for(t, on)[0] for player, on in photos[-1] if player == t.player and on}
        for x in sorted(y for y in last if y is not None and y != current):
            # a road's sightings taken beside the foot are what a farmer lying in the field
            # beside it gives: they do not count against that field (photo game 1224)
            lead = looks.copy()
            if _field_beside_road(t.tile, t.rot, x, current):
                lead[current] = solid[current]
            if lead[current] - lead[x] > FIGURE_ASK_LEAD or lead[x] < max(lead.values()) - FIGURE_ASK_LEAD:
                continue  # the photos have decided
            seg = t.tile.segments[x]
            slot = rotate_slot(seg.slots[0], t.rot)
            said = _follower_answer(t, seg.kind)
            got = _changed_alternative(full, i, turns, before, said, finals, meeple=slot)
            if got is not None:
                asked.append((t, current))
                out.append(got)
            # (the record's road only where the last photo names no field: that one is offered)
            for road in (x,) if t.tile.segments[x].kind is Kind.FIELD else (x, current):
                if solid[road] >= looks[road]:
                    continue
                # a road some photos took beside the foot: a farmer lying in a field beside it
                # gives those looks too (photo game 1224, again: red's farmer on a P, read on the
                # road twice beside the foot and twice on it, and on the city, was asked city or
                # road only); so too the record's own road (fresh photo game 3486: blue's farmer
                # on an O's field, read on its road by the turn's photo, beside the foot by the
                # next, and on the city beside the foot by the last, was asked road or city only)
                for f in range(len(t.tile.segments)):
                    if f in (current, x) or not _field_beside_road(t.tile, t.rot, f, road):
                        continue
                    side = rotate_slot(t.tile.segments[f].slots[0], t.rot)
                    field = _changed_alternative(full, i, turns, before, _snap_question(t, side), finals,
                                                 standing=True, meeple=side)
                    if field is not None:
                        if (t, current) not in asked:
                            asked.append((t, current))
                        out.append(field)
            # a blue follower's crest, which the photos cannot tell, may count there and not
            # where it stood (a farmer moved onto its city, photo game 744): each twin with it
            twins = _shield_twins(t.tile, t.rot, tuple(record.expansions)) if t.player in CREST_COLOURED_PLAYERS \
                else ()
            for twin, rot in twins:
                tw = _changed_alternative(full, i, turns, before, f"{said}; {_crest_answer(t, twin)}", finals,
                                          meeple=slot, tile=twin, rot=rot)  # the same place on the board
                if tw is not None:
                    if (t, current) not in asked:
                        asked.append((t, current))
                    out.append(tw)
    if not out:
        return []
    if asked_about is not None:
        asked_about.update((t.at, t.player) for t, _ in asked if t.at is not None)
    summary = "; ".join(_follower_answer(t, t.tile.segments[x].kind) for t, x in asked if t.tile is not None)
    return [(_outcome(turns, full, end_game, before, summary), end_game), *out]


def _field_beside_road(tile: TileType, rot: int, field: int, road: int) -> bool:
    """Whether segment ``field`` of ``tile`` (at ``rot``) is a field lying along segment ``road``,
    a road: it holds a slot either side of one of the road's edge slots, where a farmer lies
    beside the road."""
    if tile.segments[field].kind is not Kind.FIELD or tile.segments[road].kind is not Kind.ROAD:
        return False
    edges = [rotate_slot(s, rot) for s in tile.segments[road].slots if s in EDGE_SLOTS]
    sides = {side for e in edges for side in EDGE_SLOTS[e][::2]}
    return any(rotate_slot(s, rot) in sides for s in tile.segments[field].slots)


def _split(pairs: Sequence[tuple[Alternative, Game]]) -> tuple[list[Alternative], dict[int, Game]]:
    """Alternatives with their games as the alternatives and their games by the alternative's id."""
    return [a for a, _ in pairs], {id(a): g for a, g in pairs}


def _crossed(record: GameRecord, turns: tuple[Turn, ...], end_game: Game,
             alternatives: list[Alternative], alt_games: dict[int, Game],
             ask: Callable[[GameRecord, tuple[Turn, ...], Game], list[tuple[Alternative, Game]]],
             warnings: list[str], why: str, earlier: bool = False,
             instead: bool = False) -> tuple[list[Alternative], dict[int, Game]]:
    """The step's alternatives (``record`` with ``turns`` when it has none) each crossed with the
    answers of a question ``ask(record before the step's turns, the turns, their game)`` asks of
    it, and their games by the alternative's id; when it asks nothing of any, ``alternatives``
    and ``alt_games`` as they are (else ``why`` is added to ``warnings``). Such a question is
    asked with whatever else the step asks: a follower the photos tie on
    (:func:`_tied_followers`; photo game 363: the last photo named the field, the one before the
    road, and the step also asked whether blue's new tile had a follower that scored at once),
    an earlier tile's coat of arms
    that only one of the step's alternatives makes count (:func:`_crests_that_now_count`; photo
    game 825: a hidden knight completed a city with an O under blue's farmer, taken as P, and
    no alternative had the true points). ``alt_games``: each alternative's game by its id.

    The step's alternatives come in their order, each with the question's answers in theirs,
    the record as it is first. With ``earlier`` (the question asks of tiles laid before this
    step, which more photos have looked at than the step's own), of the answers that change as
    many things, those that keep the earlier tiles as they are come first (photo games 1563 and
    1625: the crest under blue's new tile, which no photo can tell under a blue follower, and one
    under red's follower on an earlier tile that the new one made count, both asked; the two
    answers that changed one crest each ended alike, and the earlier tile's came first). With
    ``instead`` (the question asks again of a tile the step's own question named), an answer
    other than the question's first is told without the step's alternative's words, which it
    contradicts (photo game 1121: "no coat of arms under red's follower (R)", then "the tile
    under it is T")."""
    crossed: list[tuple[Alternative, Game]] = []
    changes: list[tuple[int, int]] = []  # (the step's alternative changed, the question's answer changed)
    for outer, alt in enumerate(alternatives or [None]):
        if alt is None:
            prior, these, then, said, hidden = record, turns, end_game, "", 0
        else:  # the alternative's own record: a question may have changed its turns' tiles
            cut = len(alt.record.turns) - len(alt.turns)
            prior = replace(alt.record, turns=alt.record.turns[:cut])
            these, then, said, hidden = alt.record.turns[cut:], alt_games[id(alt)], alt.summary, alt.hidden_followers
        answers = ask(prior, these, then)
        plain = "; ".join(_describe_turn(t) for t in these)  # a question's "as it is": said already
        for inner, (a, g) in enumerate(answers):
            if instead and inner > 0:
                summary = a.summary  # the step's alternative's words would contradict it
            else:
                summary = "; ".join(x for x in (said, "" if said and a.summary == plain else a.summary) if x)
            crossed.append((replace(a, summary=summary, hidden_followers=a.hidden_followers + hidden), g))
            changes.append((outer > 0, inner > 0))
        if not answers and alt is not None:
            crossed.append((alt, then))
            changes.append((outer > 0, False))
    # an answer that lays the turns as another alternative does is that alternative, asked once
    # (a crest crossed with a step that offers the twin's way already)
    unique = [k for k in range(len(crossed))
              if not any(crossed[j][0].record.turns == crossed[k][0].record.turns for j in range(k))]
    crossed, changes = [crossed[k] for k in unique], [changes[k] for k in unique]
    if len(crossed) <= max(1, len(alternatives)):
        return alternatives, alt_games
    warnings.append(why)
    if earlier:
        order = sorted(range(len(crossed)), key=lambda k: (sum(changes[k]), changes[k][1]))
        crossed = [crossed[k] for k in order]
    return _split(crossed)


def _laid_ways(alternatives: Sequence[Alternative]) -> dict[Cell, set[tuple[TileType, int]]]:
    """Each cell's tiles (with their rotations) over ``alternatives``."""
    laid: dict[Cell, set[tuple[TileType, int]]] = {}
    for alt in alternatives:
        for t in alt.record.turns:
            if t.at is not None and t.tile is not None:
                laid.setdefault(t.at, set()).add((t.tile, t.rot))
    return laid


def mark_tiles_answered(total: EvidenceTotal, records: Sequence[GameRecord], chosen: int
                        ) -> dict[Cell, tuple[int, dict[tuple[str, int], float]]]:
    """``total`` (:data:`EvidenceTotal`, the record's frame) once the players chose record
    ``chosen`` of ``records`` (a question's alternatives): on every cell where the records lay
    different tiles (type or rotation), each tile the others offered there is put at least
    :data:`ANSWER_TILE_LEAD` below the chosen one, where the photos have shown the cell. The
    players can see, or lift a follower to see, what the photos could not tell apart; the photos
    after must disagree clearly and often to take it back. Tiles no alternative offered keep
    their evidence: the answer said nothing of them (fresh scans photo game 4506, 10% skipped:
    asked whether blue's follower stood on an O, an N or an I, the players answered O; the O's
    crest twin P, the tile laid, was not offered). Nor is a tile put below that was offered only
    with its follower on other kinds of feature where the chosen one's slot lies on its own kind
    on that tile: a question leaves out a rival that ends as another answer does, so the answer
    did not speak against it (fresh scans photo game 4558: red's knight on a G's city, read as
    an R, asked "R on its city", "G on its field" or others; "G on its city" ended as "R on its
    city" and was left out, and the answer R put the G 8 behind. In scans game 4499 the C
    offered against red's farmer on a Q's field has no field: it is put below)."""
    def tiles(record: GameRecord) -> dict[Cell, Turn]:
        # (the start tile is every alternative's alike: the answer says nothing of it)
        return {t.at: t for t in record.turns if t.at is not None and t.tile is not None and not t.discarded}

    def key(t: Turn) -> tuple[str, int]:
        assert t.tile is not None
        return (t.tile.id or "", _canonical_rot(t.tile, t.rot))

    laid = [tiles(r) for r in records]
    out = {c: (n, dict(v)) for c, (n, v) in total.items()}
    for cell, mine_turn in laid[chosen].items():
        kind = _follower_kind(mine_turn)
        rivals: dict[tuple[str, int], tuple[Turn, set[Kind | None]]] = {}
        for other in laid:
            t = other.get(cell)
            if t is not None and key(t) != key(mine_turn):
                rivals.setdefault(key(t), (t, set()))[1].add(_follower_kind(t))
        if not rivals or cell not in out:
            continue  # every alternative lays this tile here: the answer says nothing of it
        n, sums = out[cell]
        mine = sums.get(key(mine_turn))
        if mine is None:
            continue
        for k, (t, kinds) in rivals.items():
            left_out = kind not in kinds and (kind is None or _follower_kind(
                replace(t, meeple=mine_turn.meeple)) is kind)
            if k in sums and not left_out:
                sums[k] = min(sums[k], mine - ANSWER_TILE_LEAD)
    return out


def _follower_kind(t: Turn) -> Kind | None:
    """The kind of feature turn ``t``'s follower stands on (None without one)."""
    if t.tile is None or t.meeple is None or (i := t.tile.segment_index_on_board(t.meeple, t.rot)) is None:
        return None
    return t.tile.segments[i].kind


def _cells_told_apart(alternatives: Sequence[Alternative]) -> set[Cell]:
    """The cells whose tile (type or rotation) differs between some of ``alternatives``: a
    question already asks what lies there."""
    return {c for c, ways in _laid_ways(alternatives).items() if len({(tile.id, rot) for tile, rot in ways}) > 1}


def _crest_asked(alternatives: Sequence[Alternative]) -> set[tuple[Cell, str, int]]:
    """The tiles (cell, tile id, rotation) that ``alternatives`` offer with a shield twin of
    theirs: a question asks of their coat of arms. A question that offers other tiles there (a
    rival under the follower, :func:`_hidden_rivals`, which leaves the twins to the crest
    question) has not asked of the crest of those it offers alone."""
    return {(c, a.id or "", ra) for c, ways in _laid_ways(alternatives).items() for a, ra in ways
            if any(_twins(a, ra, b, rb) for b, rb in ways if a.id != b.id)}


def _follower_answer(t: Turn, kind: Kind) -> str:
    """One answer to a question about where turn ``t``'s follower stands: on its tile's ``kind``."""
    return f"{t.player}'s follower on the tile at {list(t.at or ())} stands on its {kind.value}"


def _has_monastery(tile: TileType) -> bool:
    """Whether ``tile`` has a monastery (a cloister in its middle)."""
    return any(seg.kind is Kind.MONASTERY for seg in tile.segments)


def _has_crest(tile: TileType) -> bool:
    """Whether ``tile`` has a coat of arms (a shield on a city)."""
    return any(seg.shield for seg in tile.segments)


def _crest(tile: TileType) -> str:
    """Whether ``tile`` has a coat of arms, in words."""
    return "a coat of arms" if _has_crest(tile) else "no coat of arms"


def _crest_answer(t: Turn, tile: TileType) -> str:
    """One answer to a question about an earlier tile's coat of arms: turn ``t``'s tile is
    ``tile``, with or without one."""
    return f"{_crest(tile)} on {t.player}'s tile at {list(t.at or ())} ({tile.name()})"


def _snapped_followers(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...],
                       weak: Collection[tuple[Cell, str, str]]) -> list[tuple[Alternative, Game]]:
    """Alternatives for this step's new followers that the reader took onto a segment beside
    their measured foot, or read at a wall (``weak``, as :data:`SNAPPED_MARK` marks them: cell,
    player, slot in the record's frame).

    A farmer lying in the field beside a road is read standing on the road from some camera
    angles, which is why such a sighting counts half a vote (:data:`SNAPPED_VOTE`); but a
    follower is seen only in the photos from its turn on, and the last turn's in one photo: with
    nothing else to go by, the road was taken (fresh photo games 447 and 459: the last turn's
    farmer scored as a road). The other way round, a follower the reader read lying in a field
    by a narrow margin, whose foot would be on a road were it standing, is offered on the road
    at the middle of that edge (photo game 1619: the last turn's thief read as a farmer beside
    its road); so is each road along the field of one read standing just beside a road
    (``vision`` config ``figures.road_doubt``). A follower read standing at the wall between a
    field and a city or a monastery, within the precision of the reader's map of the tile
    (``vision`` config ``figures.wall_doubt``), is offered on the other side of each wall of its segment
    (:func:`_across_walls`; photo game 1037: the last turn's knight, its foot 0.002 tile out of
    its H's city, scored as a farmer). One read standing on a road where its tile's roads meet
    (``vision`` config ``figures.junction_doubt``) is offered on each other road of its tile too
    (photo game 2806: the last turn's thief on an X, its foot 0.006 tile off its own road).
    Returns ``record`` as it is first, then with each such follower in each field beside its
    road on its tile, on that road, on its tile's other roads, or across those walls
    (when the game replays so and its end totals differ; once one does, each that leaves the
    followers standing otherwise as well), with their games, or []."""
    def options(t: Turn) -> list[tuple[str, dict[str, Any]]]:
        if t.tile is None or t.at is None or t.meeple is None or (t.at, t.player, t.meeple) not in weak:
            return []
        read = _segment(t.tile, t.rot, t.meeple)
        if read is None:
            return []
        edge = SLOT_EDGE.get(t.meeple)
        kind = t.tile.segments[read].kind
        out: list[tuple[str, dict[str, Any]]] = []
        if kind is Kind.FIELD:
            road = _segment(t.tile, t.rot, edge) if edge is not None and edge != t.meeple else None
            if road is not None and t.tile.segments[road].kind is Kind.ROAD:
                # read lying in the field by a narrow margin, its foot on the road were it
                # standing (photo game 1619): the road at the middle of the same edge
                out.append((_snap_question(t, edge or ""), {"meeple": edge}))
            # read standing in the field just beside a road (vision figures.road_doubt): each
            # other road along that field, at the middle of an edge the field reaches
            offered = {road}
            for left, middle, right in EDGE_SLOTS.values():
                other = _segment(t.tile, t.rot, middle)
                if other in offered or other is None or t.tile.segments[other].kind is not Kind.ROAD or \
                        read not in (_segment(t.tile, t.rot, left), _segment(t.tile, t.rot, right)):
                    continue
                offered.add(other)
                out.append((_snap_question(t, middle), {"meeple": middle}))
        if kind is not Kind.ROAD:
            # standing at a wall between a field and a city or a monastery (photo game 1037's
            # knight): the other side of each wall of that segment
            out += [(_snap_question(t, slot), {"meeple": slot}) for slot in _across_walls(t.tile, t.rot, read)]
            return out
        if t.meeple not in EDGE_SLOTS:
            return []
        # the slots either side of the road's centre slot on its edge: where a farmer lies beside it
        fields = [side for side in EDGE_SLOTS[t.meeple][::2] if (i := _segment(t.tile, t.rot, side)) is not None
                  and t.tile.segments[i].kind is Kind.FIELD]
        # the tile's other roads, where its roads meet (vision figures.junction_doubt: photo game
        # 2806's last thief on an X, read on the road beside its own)
        roads = [rotate_slot(sg.slots[0], t.rot) for i, sg in enumerate(t.tile.segments)
                 if sg.kind is Kind.ROAD and i != read]
        return [(_snap_question(t, slot), {"meeple": slot}) for slot in fields + roads]

    # each place that leaves the followers standing otherwise, though it ends alike: the fields
    # either side of a road are not one field (fresh photo game 2524: red's farmer beside a D's
    # road, read on it; only the field across the road was offered, the true one ending alike,
    # and blue's farmer in that field, laid next, was taken to stand in a city); asked only where
    # one of them changes the end totals
    asked = _turn_questions(record, end_game, before, turns, options, lambda t: _snap_question(t, t.meeple or ""),
                            standing=True)
    base = _final_key(end_game)
    return asked if any(_final_key(g) != base for _, g in asked[1:]) else []


def _recoloured_followers(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...],
                          visible: Mapping[Cell, MeepleEntry]) -> list[tuple[Alternative, Game]]:
    """Alternatives for this step's new followers that the photo read in another player's
    colour (``visible``: the photo's figures on the new tiles, record frame): the search took
    the figure as the turn's player's, its colour misread, but it may be no follower of the turn
    at all: a strip of a tablecloth of that colour along the tile's edge, or another player's
    figure beside it read across the seam (photo game 1723: a red figure read on the G blue laid
    last, on the red cloth at the layout's edge, became a blue knight). Returns ``record`` as it
    is first, then with each such turn without its follower (where the game replays so and its
    end totals or the followers it leaves on the board are new), with their games, or []."""
    def options(t: Turn) -> list[tuple[str, dict[str, Any]]]:
        m = visible.get(t.at) if t.at is not None else None
        if t.meeple is None or m is None or m.player == t.player:
            return []
        return [(f"{t.player} put no follower on the tile at {list(t.at or ())} (the {m.player} figure seen there "
                 "is none of theirs)", {"meeple": None})]

    def as_read(t: Turn) -> str:
        m = visible.get(t.at) if t.at is not None else None
        return f"{t.player}'s follower on the tile at {list(t.at or ())}, read {m.player}" if m else ""
    return _turn_questions(record, end_game, before, turns, options, as_read, standing=True)


def _late_followers(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...],
                    late: Sequence[MeepleEntry], back: int = LATE_FOLLOWER_TURNS,
                    cev: _CellEvidence | None = None) -> list[tuple[Alternative, Game]]:
    """Alternatives for a follower the photo shows on a tile laid in one of the ``back`` turns
    before this step's ``turns``, in the colour of the player who laid it, where that turn has no
    follower (``late``: the photo's followers the game before the step does not hold).

    The photo of that turn missed the figure (the reader misses about one figure in ten), or
    this photo sees one that is not there (far rarer in the colour of the very player who laid
    that tile). The photos after it settle it (:func:`_revise_followers` adds a follower that
    :data:`FIGURE_MIN_SIGHTINGS` photos show), but the last turn's follower is seen in one photo
    only: a knight put on the next-to-last tile and missed by its photo left the final scores
    wrong (fresh photo game 555). Returns ``record`` as it is first, then with each such turn
    given the follower as seen (when the game replays so and its end totals differ), with their
    games, or [].

    Where the follower cannot stand where it was read on the tile as laid, the figure may hide
    what tells that tile from another, as on a new tile (:func:`_hidden_rivals`):
    each rival the photo's evidence ``cev`` ranks within :data:`RIVAL_ASK_GAP` of it comes with
    the follower on each of its features (fresh photo game 5334, 4 players: green's monk on an A
    in a lamp's glare, missed by its turn's photo, which read the A as a U; the photos after it
    read the U too, the monk on its road, which a thief already held: never asked, green 5 short)."""
    first = len(record.turns) - len(turns)
    out: list[tuple[Alternative, Game]] = []
    finals = {_final_key(end_game)}
    asked: list[str] = []
    for m in late:
        for i in range(first - 1, max(-1, first - 1 - back), -1):
            t = record.turns[i]
            if t.at != m.at or t.tile is None or t.discarded:
                continue
            if t.player == m.player and t.meeple is None and t.take_back is None:
                said = f"{t.player} put no follower on the tile at {list(t.at)}"
                tried = _with_turn(record, i, meeple=m.on)
                if tried is not None:
                    got = _new_alternative(tried, turns, before, _late_question(t, m.on), finals)
                    if got is not None:
                        out.append(got)
                        asked.append(said)
                elif cev is not None:  # it can stand nowhere it was read: the tile may be another
                    rivalled: list[Turn] = []
                    for rival, rot in _close_rivals(cev, t, tuple(record.expansions)):
                        _offer_rival(record, i, rival, rot, turns, before, finals, rivalled, out, m.on)
                    if rivalled:
                        asked.append(said)
            break
    if not out:
        return []
    return [(_outcome(turns, record, end_game, before, "; ".join(asked)), end_game), *out]


def _followers_a_cell_off(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...],
                          late: Sequence[MeepleEntry]) -> list[tuple[Alternative, Game]]:
    """Alternatives for this step's new tiles without a follower where the photo shows a figure
    in the colour of the tile's player on an earlier tile beside it, at the edge the two share,
    that the game does not hold (``late``): a figure standing at a tile's edge is easily read on
    the tile beyond, its foot guessed from its height (fresh photo game 5259, 5 players: black's
    knight at the edge of the last turn's V, read on the K beside it, was ignored: black 2
    short; the other way round, a follower the game holds read a cell off, see
    :func:`_seen_across_an_edge`). Returns ``record`` as it is first, then with each such turn
    given a follower on each feature of its tile along that edge (where the game replays so and
    its end totals or the followers it leaves on the board are new), with their games, or []."""
    def options(t: Turn) -> list[tuple[str, dict[str, Any]]]:
        if t.at is None or t.tile is None or t.meeple is not None or t.discarded or t.take_back is not None:
            return []
        out: list[tuple[str, dict[str, Any]]] = []
        features: set[int] = set()
        for m in late:
            edge = SLOT_EDGE.get(m.on)
            if m.player != t.player or edge is None or neighbour(m.at, edge) != t.at:
                continue
            facing = FACING_SLOT[m.on]
            for slot in (facing, *EDGE_SLOTS[SLOT_EDGE[facing]]):
                i = _segment(t.tile, t.rot, slot)
                if i is not None and i not in features:
                    features.add(i)
                    out.append((_late_question(t, slot), {"meeple": slot}))
        return out

    def as_read(t: Turn) -> str:
        return f"{t.player} put no follower on the tile at {list(t.at or ())}" if options(t) else ""
    return _turn_questions(record, end_game, before, turns, options, as_read, standing=True)


def _unseen_followers(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...],
                      unread: Collection[Cell]) -> list[tuple[Alternative, Game]]:
    """Alternatives for this step's new tiles the photo did not recognise (``unread``: their
    cells, record frame; or on which it saw a figure of the tile's player too pale to read,
    ``follow_step``'s ``faint``) and that got no follower: glare or a figure over most of the tile
    that hid what it is also hides the figure on it, and the next photo, which would show it
    (:func:`_revise_followers`), may never come (photo game 860: blue's thief on the last
    turn's S, in a lamp's glare, scored nothing). Returns ``record`` as it is first, then with
    each such turn given a follower on each feature of its tile (where the game replays so and
    its end totals or the followers it leaves on the board are new: a farmer in a field that
    scores nothing yet is not no follower, photo game 1596), with their games, or []."""
    def options(t: Turn) -> list[tuple[str, dict[str, Any]]]:
        if t.at not in unread or t.tile is None or t.meeple is not None or t.discarded or t.take_back is not None:
            return []
        slots = [rotate_slot(seg.slots[0], t.rot) for seg in t.tile.segments]
        return [(_late_question(t, slot), {"meeple": slot}) for slot in slots]

    return _turn_questions(record, end_game, before, turns, options,
                           lambda t: f"{t.player} put no follower on the tile at {list(t.at or ())}", standing=True)


def _phantom_tiles(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...],
                   unlike: Collection[Cell]) -> list[tuple[Alternative, Game]]:
    """Alternatives for this step's new tiles on ``unlike`` cells (the photo's evidence there far
    from any tile that can lie there, :data:`PHANTOM_ASK_GAP`) when the step lays others too:
    the step without that tile, its other turns played by the players in turn as before (where
    their followers' colours allow), when the game replays so and its end totals are new; the
    next photo shows the tile again if it is real. Returns ``record`` as it is first, then those,
    with their games, or []."""
    if len(turns) < 2:
        return []
    first = len(record.turns) - len(turns)
    finals = {_final_key(end_game)}
    out: list[tuple[Alternative, Game]] = []
    asked: list[str] = []
    for t in turns:
        if t.at not in unlike or t.tile is None or t.discarded:
            continue
        rest = [u for u in turns if u is not t]
        players = [u.player for u in turns][: len(rest)]
        if any(u.meeple is not None and u.player != p for u, p in zip(rest, players)):
            continue  # a follower of the other turns would change hands
        these = tuple(replace(u, player=p) for u, p in zip(rest, players))
        rec = replace(record, turns=record.turns[:first] + these)
        g = _replayed(rec)
        if g is None:
            continue
        key = _final_key(g)
        if key in finals:
            continue
        finals.add(key)
        out.append((_outcome(these, rec, g, before, f"no tile lies at {list(t.at)} (the photo read the table there "
                             "as a tile)"), _clone(g)))
        asked.append(f"{t.player} laid {t.tile.name()} at {list(t.at)}")
    if not out:
        return []
    return [(_outcome(turns, record, end_game, before, "; ".join(asked)), end_game), *out]


def _blocked_new_tiles(record: GameRecord, end_game: Game, before: Game, turns: tuple[Turn, ...],
                       blocked: Mapping[Cell, tuple[TileType, int, Cell, float]],
                       ev: _CellEvidence | _SummedEvidence) -> list[tuple[Alternative, Game]]:
    """Alternatives for this step's new tiles that the photo read as a tile one earlier
    neighbour's edge turns away (``blocked``: the new cell to that tile, its rotation, the
    neighbour's cell and how far the photo puts that tile ahead of the one laid): the new tile as
    read, with the neighbour taken as its likeliest tile by the evidence ``ev`` (the photos' sum)
    within :data:`BLOCKED_NEIGHBOUR_GAP`, plus that lead up to as much again, of the tile laid
    there that lets the record replay so, each follower on the slot it has, where the end totals
    are new: the two tiles are read together, and a new tile read clearly as what the neighbour
    turns away speaks against the neighbour (fresh scans photo game 4558: red's G under its
    knight, laid as R, 3.6 behind over five photos; the F beside it, read 2.3 ahead of the S it
    was laid as). Returns ``record`` as it is first, then those, with their games, or []."""
    first = len(record.turns) - len(turns)
    finals = {_final_key(end_game)}
    out: list[tuple[Alternative, Game]] = []
    asked: list[Turn] = []
    for k, t in enumerate(turns):
        if t.at not in blocked or t.tile is None or t.discarded:
            continue
        tile, rot, cell, lead = blocked[t.at]
        reach = BLOCKED_NEIGHBOUR_GAP + min(lead, BLOCKED_NEIGHBOUR_GAP)
        if t.meeple is not None and tile.segment_index_on_board(t.meeple, rot) is None:
            continue
        j = _turn_on(record.turns[:first], cell)
        if j is None or (u := record.turns[j]).tile is None or (mine := ev.score(cell, u.tile, u.rot)) is None:
            continue
        for v, rival, r in ev.ranked(cell):
            if v < mine - reach:
                break
            if same_tile(rival, r, u.tile, u.rot) or \
                    (u.meeple is not None and rival.segment_index_on_board(u.meeple, r) is None):
                continue
            changed = list(record.turns)
            changed[j], changed[first + k] = replace(u, tile=rival, rot=r), replace(t, tile=tile, rot=rot)
            rec = replace(record, turns=tuple(changed))
            g = _replayed(rec)
            if g is None:
                continue
            key = _final_key(g)
            if key not in finals:
                finals.add(key)
                asked.append(t)
                out.append((_outcome(rec.turns[first:], rec, g, before,
                                     f"{t.player} laid {tile.name()} at {list(t.at)} (rot {rot}), and the tile at "
                                     f"{list(cell)} is {rival.name()} (rot {r})"), _clone(g)))
            break
    if not out:
        return []
    return [(_outcome(turns, record, end_game, before, "; ".join(_describe_turn(t) for t in asked)), end_game), *out]


def _late_question(t: Turn, slot: str) -> str:
    """One answer to a late-follower question: turn ``t`` put its follower at ``slot``."""
    kind = ""
    if t.tile is not None and (i := _segment(t.tile, t.rot, slot)) is not None:
        kind = f" {t.tile.segments[i].kind.value}"
    return f"{t.player} put a follower on the{kind} of the tile at {list(t.at or ())} ({slot})"


def _across_walls(tile: TileType, rot: int, i: int) -> list[str]:
    """The board slots (tile at ``rot``) naming the segments across a wall from segment ``i``:
    the cities a field borders and the monastery inside it, or the fields a city or a monastery
    borders."""
    seg = tile.segments[i]

    def slot_of(j: int) -> str:  # a city's edge-centre slot; a monastery's only slot is C
        other = tile.segments[j]
        centre = [s for s in other.slots if s in EDGES]
        return rotate_slot((centre or list(other.slots))[0], rot)
    if seg.kind is Kind.FIELD:
        across = [j for j, o in enumerate(tile.segments)
                  if (o.kind is Kind.CITY and any(c in o.slots for c in seg.cities)) or o.kind is Kind.MONASTERY]
    elif seg.kind is Kind.CITY:
        across = [j for j, o in enumerate(tile.segments) if o.kind is Kind.FIELD and any(c in seg.slots for c in o.cities)]
    elif seg.kind is Kind.MONASTERY:
        across = [j for j, o in enumerate(tile.segments) if o.kind is Kind.FIELD]
    else:
        across = []
    return [slot_of(j) for j in across]


def _snap_question(t: Turn, slot: str) -> str:
    """One answer to a question of where a follower read beside its foot stands: turn ``t``'s
    follower at ``slot`` (on its road, in its city, in its field)."""
    seg = _segment(t.tile, t.rot, slot) if t.tile is not None else None
    kind = t.tile.segments[seg].kind if t.tile is not None and seg is not None else None
    beside = " beside the road" if t.tile is not None and any(g.kind is Kind.ROAD for g in t.tile.segments) else ""
    where = {Kind.ROAD: "on the road", Kind.CITY: "in the city"}.get(kind, "in the field" + beside) \
        if kind is not None else "at"
    return f"{t.player}'s follower on the tile at {list(t.at or ())} stands {where} ({slot})"


def _crest_question(t: Turn, tile: TileType) -> str:
    """One answer to a crest question: turn ``t``'s tile is ``tile``, with or without a coat of
    arms under the follower (on the tile, where the turn put none)."""
    where = f"under {t.player}'s follower on" if t.meeple else "on"
    return f"{_crest(tile)} {where} the tile at {list(t.at or ())} ({tile.name()})"


def _explain_mismatch(game: Game, photo: Counter[tuple[str, Cell, int]], warnings: list[str]) -> None:
    engine = _engine_figures(game)
    for p, at, _ in sorted(engine - photo):
        warnings.append(f"{p}'s follower at {list(at)} is not seen in the photo; the game keeps it")
    for p, at, _ in sorted(photo - engine):
        warnings.append(f"{p}'s follower at {list(at)} in the photo is not explained by any turn; ignored")


def _corrected(game: Game, record: GameRecord, confidence: Mapping[Cell, float]) -> State:
    state = game.state()
    tiles = tuple(replace(e, confidence=confidence.get(e.at)) for e in state.tiles)
    return replace(state, tiles=tiles, options=dict(record.options))


def follow_states(states: Iterable[State | Reading], *, record: GameRecord | None = None,
                  **kw: Any) -> tuple[GameRecord, list[FollowResult]]:
    """Follow a whole series of states (first photo to last), taking the first alternative
    at every step. Returns the final record and every step's result."""
    results: list[FollowResult] = []
    previous: State | None = None
    for s in states:
        res = follow_step(record, previous, s, **kw)
        results.append(res)
        record, previous = res.record, res.corrected_state
    if record is None:
        raise FollowError("no state to follow")
    return record, results


__all__ = ["Alternative", "Evidence", "EvidenceTotal", "FollowError", "FollowResult", "Transform", "align", "follow_states", "follow_step",
           "new_game", "same_tile", "start_record", "transform_state", "DEFAULT_TRUST", "MAX_GAP"]
