"""What a `gomoku-bot` plays and how it behaves: its filters and its answers, without I/O.

The filters decide which seeks it accepts and which open rooms it joins:
rules, board sizes, clocks (untimed, or an initial time within a range),
rated or casual, opening rules (none, or swap2 when the engine takes
SWAP2BOARD decisions: the Gomocup protocol has no command for the others),
and opponents (people, bots, names allowed or refused).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.gomocup_manager import TimeLimits
from engine.limits import move_time_ms
from engine.types import Color, Rule
from wire.messages import ClockModel, ClockSettingModel, RoomSummaryModel, SeekModel

RatedChoice = Literal["rated", "casual", "any"]

NETWORK_RESERVE_MS = 150
"""Time kept back from each move on a clock, for the move to reach the server."""


@dataclass(frozen=True, slots=True)
class BotSettings:
    """Everything a `gomoku-bot` is told on its command line, but the connection and the engine."""

    rules: frozenset[Rule] = frozenset({Rule.FREESTYLE})
    """The rules it plays."""
    sizes: frozenset[int] = frozenset({15})
    """The board sizes it plays."""
    untimed: bool = True
    """Whether it plays games without a clock."""
    min_initial_s: float = 0.0
    """The least initial time a timed game may have."""
    max_initial_s: float = 24 * 3600.0
    """The most initial time a timed game may have."""
    rated: RatedChoice = "any"
    """Which games it plays: rated, casual or any."""
    swap2: bool = False
    """Whether its engine takes swap2 decisions (SWAP2BOARD); it plays no other opening rule."""
    opponents: frozenset[Literal["human", "bot"]] = frozenset({"human", "bot"})
    """Whom it plays: people, bots (levels and bot accounts), or both."""
    allow: frozenset[str] = frozenset()
    """If not empty, the only opponents it plays (names, compared ignoring case)."""
    deny: frozenset[str] = frozenset()
    """Opponents it never plays (names, compared ignoring case)."""
    max_games: int = 1
    """Games at once (one engine process each)."""
    move_time_ms: int = 2000
    """The most it lets its engine think per move; untimed games get this much."""
    tolerance_ms: int = 1000
    """How long past that its engine may take before it counts as hung."""
    start_timeout_s: float = 30.0
    """How long its engine may take to answer START."""
    accept_draws: bool = False
    """Whether it accepts draw offers."""
    rematch: bool = True
    """Whether it agrees to rematches (while under `max_games`)."""
    seek: SeekTerms | None = None
    """The game it seeks itself in the lobby, if any."""
    join_rooms: bool = False
    """Whether it joins open public rooms its filters allow."""
    accept_seeks: bool = True
    """Whether it accepts seeks its filters allow."""

    def accepts_terms(self, rule: Rule, size: int, clock: ClockSettingModel | None, rated: bool, opening: str) -> bool:
        """Whether a game of these terms is one it plays."""
        if rule not in self.rules or size not in self.sizes:
            return False
        if rated and self.rated == "casual" or not rated and self.rated == "rated":
            return False
        if opening != "none" and not (opening == "swap2" and self.swap2):
            return False
        if clock is None:
            return self.untimed
        return self.min_initial_s * 1000 <= clock.initial_ms <= self.max_initial_s * 1000

    def accepts_opponent(self, name: str, kind: Literal["human", "bot"]) -> bool:
        """Whether it plays this opponent."""
        folded = name.casefold()
        if folded in {denied.casefold() for denied in self.deny}:
            return False
        if self.allow and folded not in {allowed.casefold() for allowed in self.allow}:
            return False
        return kind in self.opponents

    def accepts_seek(self, seek: SeekModel, own_name: str, own_rating: int) -> bool:
        """Whether to accept a seek from the lobby."""
        if not self.accept_seeks or seek.by.name.casefold() == own_name.casefold():
            return False
        in_range = (seek.rating_min is None or own_rating >= seek.rating_min) and (
            seek.rating_max is None or own_rating <= seek.rating_max
        )
        terms = self.accepts_terms(seek.rule, seek.size, seek.clock, seek.rated, seek.opening)
        return in_range and terms and self.accepts_opponent(seek.by.name, seek.by.kind)

    def accepts_room(self, room: RoomSummaryModel, own_name: str) -> bool:
        """Whether to join an open room from the room list: one seat taken by someone it plays, the
        other open."""
        if not self.join_rooms or room.status != "waiting":
            return False
        seated = [seat for seat in (room.black, room.white) if seat is not None]
        if len(seated) != 1 or seated[0].name.casefold() == own_name.casefold():
            return False
        terms = self.accepts_terms(room.rule, room.size, room.clock, room.rated, room.opening)
        return terms and self.accepts_opponent(seated[0].name, seated[0].kind)

    def move_limits(self, clock: ClockModel | None, time_control: ClockSettingModel | None, color: Color) -> TimeLimits:
        """The engine's limits for its next move: the room's clock shared out (as the server shares
        out its own bots'), never more than `move_time_ms`, some time kept for the network."""
        if clock is None:
            return TimeLimits(turn_ms=self.move_time_ms)
        left_ms = clock.black_ms if color is Color.BLACK else clock.white_ms
        share = move_time_ms(left_ms, clock.increment_ms, self.move_time_ms, NETWORK_RESERVE_MS)
        assert share is not None, "a clock always gives a share"
        match_ms = 0 if time_control is None else time_control.initial_ms
        return TimeLimits(turn_ms=share, match_ms=match_ms, left_ms=max(0, left_ms - NETWORK_RESERVE_MS))


@dataclass(frozen=True, slots=True)
class SeekTerms:
    """The seek a bot posts in the lobby."""

    rule: Rule = Rule.FREESTYLE
    size: int = 15
    clock: ClockSettingModel | None = None
    rated: bool = False
