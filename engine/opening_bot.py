"""Bots' opening decisions: one step of swap, swap2 or Soosõrv-8 for whoever must decide.

`decide_opening(state, level, limits, seed)` is the whole interface: given
an opening that is not over (`engine.openings`), it returns the step the
bot of `level` takes for the player whose decision it is, a step `apply`
accepts. It is pure and, for a seed, gives the same step on every machine
fast enough to spend its node budget before its deadline (see
`engine.opening_judge`); it keeps within `limits.time_ms`.

How each decision is made (values from `engine.opening_judge`, the mean of
the last two depths of a full-window search; the value of a three- or
five-stone position is white's, as white moves next):

* The three opening stones come from the book (`engine.opening_book`): one
  of the level's few most balanced openings (seeded), in one of the
  board's eight orientations (seeded), moved to the centre. On a board
  smaller than the book's the bot appraises the first few book openings
  that fit and places the most balanced. For Soosõrv-8, only renju's 26
  standard openings.
* Choosing a colour with white to move (swap, the swaps of Soosõrv-8's
  three stones, swap2's last choice): white if its value is 0 or more.
* swap2, second player: a colour when it is better by BALANCE_MARGIN or
  more. When neither is (both colours look no better than even, so taking
  one gains nothing the search can see), the bot places two stones and
  lets the first player choose: the 4th among white's CANDIDATE_FOURTHS
  best moves and the 5th among black's replies, the pair that leaves the
  position closest to balanced.
* Soosõrv-8: black offers N fifth moves and white plays the one best for
  white, so black's value is that of its N-th best fifth (its best ones
  up to symmetry, as it would offer them). White places the 4th stone
  and declares the N that bring that value closest to 0 (the other player
  may swap next, so an unbalanced position helps only them); black swaps
  to white when its N-th best fifth is below 0; black offers its N best;
  white appraises each offer and plays its best.

Classic bots judge with the engine's `easy` search (their own scores are
on scales that cannot say which colour is better) and use the book like
the engine levels; weaker levels pick among more book openings and judge
with their own shallower searches, so they decide worse, as they play.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence

from engine.board import Board
from engine.errors import OpeningOverError
from engine.limits import Clock, SearchLimits
from engine.opening_book import BOOK_SIZE, BookOpening, book
from engine.opening_judge import Appraisal, Judge
from engine.openings import (
    MOST_FIFTHS,
    ChooseColor,
    DeclareOffers,
    OfferFifths,
    OpeningRule,
    OpeningState,
    PlaceStones,
    Player,
    SelectFifth,
    Stage,
    Step,
    apply,
)
from engine.renju_openings import recognise_opening
from engine.symmetry import SYMMETRIES, symmetries_keeping
from engine.types import Color, Point, Rule

BOOK_CHOICES: Mapping[str, int] = {"master": 4, "hard": 6, "medium": 12, "easy": 24}
"""How many of the book's most balanced openings each engine level picks from."""
CLASSIC_BOOK_CHOICES = 24
"""The same for the classic bots."""
SMALL_BOARD_APPRAISALS = 4
"""On a board smaller than the book's, how many fitting book openings are appraised there."""
BALANCE_MARGIN = 60
"""swap2: the second player takes a colour only when its value is at least this (about a third
of what a quiet move is worth); below, the two colours look even and it places two stones."""
CANDIDATE_FOURTHS = 3
"""swap2 and Soosõrv-8: how many of white's best 4th stones are tried for a balanced position."""


def decide_opening(
    state: OpeningState, level: str, limits: SearchLimits, seed: int, clock: Clock = time.monotonic
) -> Step:
    """The step bot `level` takes for the player whose decision it is now.

    Thinks within `limits` (a time limit alone becomes a node budget, see
    engine.opening_judge; with no limit at all, the level's default time,
    `engine.registry.default_time_ms(level)`). Raises OpeningOverError once
    the opening is over and ValueError for an unknown level.
    """
    if state.to_decide is None:
        raise OpeningOverError("the opening is over: the game goes on with ordinary moves")
    judge = Judge.for_level(level, limits, clock)
    decide = _DECISIONS[state.stage]
    return decide(state, judge, level, seed)


def play_out_opening(
    state: OpeningState,
    levels: Mapping[Player, str],
    limits: SearchLimits,
    seed: int,
    clock: Clock = time.monotonic,
) -> OpeningState:
    """The opening with every remaining decision taken by bots (`levels` names each player's),
    for benches and tests; each decision gets `limits` and its own seed."""
    while state.to_decide is not None:
        player = state.to_decide
        step = decide_opening(state, levels[player], limits, seed + len(state.steps), clock)
        state = apply(state, player, step)
    return state


# ------------------------------------------------------------ the first stones


def _opening_stones(state: OpeningState, judge: Judge, level: str, seed: int) -> Step:
    rule = Rule.RENJU if state.rule is OpeningRule.SOOSORV8 else state.game_rule
    openings = [opening for opening in book(rule) if opening.fits(state.size)]
    if state.rule is OpeningRule.SOOSORV8:
        openings = [opening for opening in openings if recognise_opening(opening.stones) is not None]
    if not openings:
        raise ValueError(f"no book opening fits a {state.size}x{state.size} board")
    chooser = random.Random(seed)
    symmetry = chooser.choice(SYMMETRIES)
    if state.size < BOOK_SIZE:
        return PlaceStones(_most_balanced_here(openings[:SMALL_BOARD_APPRAISALS], state, judge).on_board(state.size))
    pool = openings[: BOOK_CHOICES.get(level, CLASSIC_BOOK_CHOICES)]
    return PlaceStones(chooser.choice(pool).on_board(state.size, symmetry))


def _most_balanced_here(openings: Sequence[BookOpening], state: OpeningState, judge: Judge) -> BookOpening:
    """The opening whose value on this board is closest to 0."""
    values = []
    for index, opening in enumerate(openings):
        board = Board.from_moves(opening.on_board(state.size), state.size, state.game_rule)
        values.append(abs(judge.appraise(board, len(openings) - index).value))
    return openings[values.index(min(values))]


# ------------------------------------------------------------- choosing colours


def _colour_with_white_to_move(state: OpeningState, judge: Judge, level: str, seed: int) -> Step:
    """White when white (to move) is at least even, else black."""
    return ChooseColor(Color.WHITE if judge.appraise(state.board()).value >= 0 else Color.BLACK)


def _swap2_options(state: OpeningState, judge: Judge, level: str, seed: int) -> Step:
    """A colour clearly better, else two more stones that leave the position balanced."""
    board = state.board()
    appraisal = judge.appraise(board, searches_left=2)
    if appraisal.value >= BALANCE_MARGIN:
        return ChooseColor(Color.WHITE)
    if appraisal.value <= -BALANCE_MARGIN:
        return ChooseColor(Color.BLACK)
    fourths = [move for move, _ in appraisal.moves[:CANDIDATE_FOURTHS]]
    best: tuple[int, Point, Point] | None = None
    for index, fourth in enumerate(fourths):
        replies = judge.appraise(_after(board, fourth), searches_left=len(fourths) - index)
        fifth, value = min(replies.moves, key=lambda reply: abs(reply[1]))
        if best is None or abs(value) < best[0]:
            best = (abs(value), fourth, fifth)
    assert best is not None  # a search always names at least one move
    return PlaceStones((best[1], best[2]))


# ----------------------------------------------------------------- Soosõrv-8


def _fourth_stone(state: OpeningState, judge: Judge, level: str, seed: int) -> Step:
    """Among white's best moves, the 4th stone whose best count of offers balances the position best."""
    board = state.board()
    fourths = [move for move, _ in judge.appraise(board, CANDIDATE_FOURTHS + 1).moves[:CANDIDATE_FOURTHS]]
    gaps = []
    for index, fourth in enumerate(fourths):
        fifths = _distinct_fifths(_after(board, fourth), judge.appraise(_after(board, fourth), len(fourths) - index))
        gaps.append(abs(fifths[_balanced_count(fifths) - 1][1]))
    return PlaceStones((fourths[gaps.index(min(gaps))],))


def _declare_offers(state: OpeningState, judge: Judge, level: str, seed: int) -> Step:
    board = state.board()
    return DeclareOffers(_balanced_count(_distinct_fifths(board, judge.appraise(board))))


def _second_swap(state: OpeningState, judge: Judge, level: str, seed: int) -> Step:
    """Black stays black if its value with the declared number of offers is at least even."""
    board = state.board()
    fifths = _distinct_fifths(board, judge.appraise(board))
    value = fifths[min(state.offers_due, len(fifths)) - 1][1]
    return ChooseColor(Color.BLACK if value >= 0 else Color.WHITE)


def _offer_fifths(state: OpeningState, judge: Judge, level: str, seed: int) -> Step:
    board = state.board()
    best = [move for move, _ in _distinct_fifths(board, judge.appraise(board))][: state.offers_due]
    return OfferFifths(tuple(best) + _more_offers(board, best, state.offers_due - len(best)))


def _select_fifth(state: OpeningState, judge: Judge, level: str, seed: int) -> Step:
    """The offer after which white (to move) has the best value; the first offered of equals."""
    board = state.board()
    values = [
        judge.appraise(_after(board, offer), len(state.offers) - index).value
        for index, offer in enumerate(state.offers)
    ]
    return SelectFifth(state.offers[values.index(max(values))])


def _distinct_fifths(board: Board, appraisal: Appraisal) -> list[tuple[Point, int]]:
    """Black's appraised moves, best first, keeping the best of each set that a symmetry of the
    position maps onto each other (Soosõrv-8 allows only one of them among the offers)."""
    keeping = symmetries_keeping(board.moves[0::2], board.moves[1::2], board.size)
    seen: set[Point] = set()
    distinct = []
    for move, value in appraisal.moves:
        canonical = min(symmetry.apply(move, board.size) for symmetry in keeping)
        if canonical not in seen:
            seen.add(canonical)
            distinct.append((move, value))
    return distinct


def _balanced_count(fifths: Sequence[tuple[Point, int]]) -> int:
    """The number of offers whose worst (for black) is closest to 0; the fewest of equals."""
    counts = range(1, min(MOST_FIFTHS, len(fifths)) + 1)
    return min(counts, key=lambda count: abs(fifths[count - 1][1]))


def _more_offers(board: Board, offered: Sequence[Point], count: int) -> tuple[Point, ...]:
    """`count` more legal points, nearest the stones first, none symmetric to one already chosen
    (for when the search named fewer moves than the offers due). Legality is checked only for the
    points considered: under renju it costs a forbidden-move check each."""
    if count == 0:
        return ()
    keeping = symmetries_keeping(board.moves[0::2], board.moves[1::2], board.size)
    taken = {symmetry.apply(point, board.size) for point in offered for symmetry in keeping}
    chosen: list[Point] = []
    for point in sorted(board.empty_points(), key=lambda point: (_distance(point, board.moves), point)):
        if point not in taken and board.is_legal(point):
            chosen.append(point)
            taken.update(symmetry.apply(point, board.size) for symmetry in keeping)
            if len(chosen) == count:
                break
    return tuple(chosen)


def _distance(point: Point, stones: Sequence[Point]) -> int:
    return min(max(abs(point.x - stone.x), abs(point.y - stone.y)) for stone in stones)


def _after(board: Board, move: Point) -> Board:
    """A copy of `board` with `move` played."""
    after = board.copy()
    after.play(move)
    return after


_DECISIONS: Mapping[Stage, Callable[[OpeningState, Judge, str, int], Step]] = {
    Stage.OPENING_STONES: _opening_stones,
    Stage.FIRST_SWAP: _colour_with_white_to_move,
    Stage.SWAP2_OPTIONS: _swap2_options,
    Stage.SWAP2_LAST_CHOICE: _colour_with_white_to_move,
    Stage.FOURTH_STONE: _fourth_stone,
    Stage.DECLARE_OFFERS: _declare_offers,
    Stage.SECOND_SWAP: _second_swap,
    Stage.OFFER_FIFTHS: _offer_fifths,
    Stage.SELECT_FIFTH: _select_fifth,
}
"""The decision each stage awaits."""
