"""Which moves the search considers, and in what order.

Forced replies are pruned to what can matter: after the opponent's four
only its block; when the opponent threatens an open four (an open three),
only the points that spoil it and one's own fours. Otherwise the empty
points near the stones, best first by the shapes they make for both
sides, cut to a width. Renju forbidden points are never returned for black.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.rules import BLACK
from engine.search.position import Position
from engine.search.threats import other, unstoppable_fours


def threat_replies(position: Position) -> set[int] | None:
    """The only sensible replies when the opponent threatens to win, or None if it does not.

    With the opponent's four on the board: its block (an empty set if the
    block is impossible). With an open three: the points that make its
    open four or spoil it on its lines, plus the side's own fours.
    """
    me = position.side
    enemy = other(me)
    enemy_fives = position.fives[enemy]
    if enemy_fives:
        return set(enemy_fives) if len(enemy_fives) == 1 else {min(enemy_fives)}
    pending = unstoppable_fours(position, enemy)
    if enemy == BLACK:
        pending = [point for point in pending if not position.forbidden_for_black(point)]
    if not pending:
        return None
    replies = set(pending) | position.fours[me]
    enemy_fours = position.fours[enemy]
    for point in pending:
        replies.update(neighbour for neighbour in position.line_neighbours(point) if neighbour in enemy_fours)
    return replies


def ordered_moves(
    position: Position,
    width: int,
    first: Sequence[int] = (),
    history: Sequence[int] | None = None,
) -> list[int]:
    """Up to `width` legal moves for the side to move; when forced, every forced reply.

    `first` (the transposition-table move, killers) go ahead of the rest
    when they are among the candidates; the rest are ordered by value and
    by `history` (indexed by point), if given.
    """
    return moves_in_order(position, threat_replies(position), width, first, history)


def moves_in_order(
    position: Position,
    forced: set[int] | None,
    width: int,
    first: Sequence[int] = (),
    history: Sequence[int] | None = None,
) -> list[int]:
    """`ordered_moves` for a caller that has already asked `threat_replies` (as `forced`) and
    needs the answer itself: the search, which reduces no reply to a threat."""
    candidates = position.nearby if forced is None else forced
    if not candidates and position.ply == 0:
        candidates = {position.size // 2 * (position.size + 1)}
    value = position.move_value
    if history is None:
        ranked = sorted(candidates, key=value, reverse=True)
    else:
        ranked = sorted(candidates, key=lambda point: value(point) + history[point], reverse=True)
    if first:
        leading = [point for point in dict.fromkeys(first) if point in candidates]
        ranked = leading + [point for point in ranked if point not in leading]
    limit = width if forced is None else len(ranked)
    moves = []
    for point in ranked:
        if position.is_forbidden(point):
            continue
        moves.append(point)
        if len(moves) >= limit:
            break
    return moves
