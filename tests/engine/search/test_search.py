"""The main search and the engine levels: forced replies, wins, deadlines, renju, determinism."""

import itertools
import pickle
import time
from collections.abc import Iterable

import pytest

from engine import Board, Point, Rule, format_point, parse_pairs, parse_point, rules
from engine.limits import Budget, SearchLimits, counting_clock
from engine.search.levels import ENGINE_LEVELS, LEVELS, EngineBot
from engine.search.movegen import threat_replies
from engine.search.position import WIN, WON, Position
from engine.search.search import SCORE_FALL, Searcher, SearchSettings, critical, reductions_table
from engine.search.threats import ThreatSolver

# Black to move; white threatens a five at h3 (h4-h7), black has nothing better.
WHITE_FOUR = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . X X . . . . . . .
. . . . . . . X O . . . . . .
. . . . . . . O X . . . . . .
. . . . . . . O . . . . . . .
. . . . . . . O . . . . . . .
. . . . . . . O . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . X . . . . . . . .
. . . . . . . . . . . . . . .
"""

# Black to move; white has an open three on the h file (h5-h7) and black has no four.
WHITE_OPEN_THREE = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . X . X . . . . . .
. . . . . . . . . . X . . . .
. . . . . . . O . . . . . . .
. . . . . . . O . . . . . . .
. . . . . . . O . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""

# Black to move under renju; h8 would make a double three (f8-h8, h8-h10)
# and so is forbidden, though it is the most tempting point on the board.
TEMPTING_FORBIDDEN_POINT = """
O . . . . . . . . . . . . . O
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . . . X X . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
O . . . . . . . . . . . . . O
"""

# Black to move under renju facing white's four whose only block, h8, is a
# double three: black has no legal defence, yet must still answer legally.
BLOCK_IS_FORBIDDEN = """
O . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . X X . . . . . . . .
. . . . . . . O X . . . . . .
. . . . . . . O . X . . . . .
. . . . . . . O . . . . . . .
. . . . . . . O . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""

# Black to move: h8 is a four (e8-h8) and an open three (h8-h10); after
# the block at i8, h7 or h11 makes an open four.
FOUR_THEN_OPEN_FOUR = """
O . . . . . . . . . . . . . O
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . X . . . . . . .
. . . . . . . X . . . . . . .
. . . O X X X . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
O . . . . . . . . . . . . . O
"""

MIDDLE_GAME = """
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . O . . . . . . . .
. . . . . X X O . . . . . . .
. . . . . O X X X O . . . . .
. . . . . . O X O . . . . . .
. . . . . X O X . . . . . . .
. . . . . . . O X . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
. . . . . . . . . . . . . . .
"""


def _choose(level: str, picture: str, rule: Rule = Rule.FREESTYLE, **limits: int) -> tuple[Board, Point]:
    board = Board.from_picture(picture, rule=rule)
    decision = ENGINE_LEVELS[level]().choose(board, SearchLimits(**limits), seed=1)
    return board, decision.move


def test_levels_are_registered_weakest_first() -> None:
    assert list(ENGINE_LEVELS) == ["easy", "medium", "hard", "master"]
    for name, factory in ENGINE_LEVELS.items():
        bot = factory()
        assert bot.level == name
        assert bot.description


@pytest.mark.parametrize("level", list(ENGINE_LEVELS))
def test_every_level_blocks_a_four(level: str) -> None:
    board, move = _choose(level, WHITE_FOUR, time_ms=500)
    assert format_point(move, 15) == "h3"


@pytest.mark.parametrize("level", ["hard", "master"])
def test_an_open_three_is_answered_at_its_ends(level: str) -> None:
    _, move = _choose(level, WHITE_OPEN_THREE, time_ms=800)
    assert format_point(move, 15) in ("h4", "h8")


@pytest.mark.parametrize("level", list(ENGINE_LEVELS))
def test_every_level_plays_a_winning_four_sequence(level: str) -> None:
    _, move = _choose(level, FOUR_THEN_OPEN_FOUR, time_ms=500)
    assert format_point(move, 15) == "h8"


def test_the_search_reports_each_depth_with_a_principal_variation() -> None:
    board = Board.from_picture(MIDDLE_GAME)
    searcher = Searcher(board, SearchSettings(max_depth=3), Budget())
    results = list(searcher.iterate())
    assert [result.depth for result in results] == [1, 2, 3]
    for result in results:
        assert result.pv[0] == result.move
        assert len(result.pv) >= 1
        assert result.nodes > 0
    assert results[-1].nodes > results[0].nodes
    assert board.moves == Board.from_picture(MIDDLE_GAME).moves, "the caller's board is left alone"


def test_a_win_by_fours_is_scored_as_a_win_with_its_line() -> None:
    searcher = Searcher(Board.from_picture(FOUR_THEN_OPEN_FOUR), SearchSettings(), Budget())
    results = list(searcher.iterate())
    assert len(results) == 1
    assert results[0].score > WON
    assert [format_point(point, 15) for point in results[0].pv[:2]] == ["h8", "i8"]


def test_a_leaf_whose_value_already_fails_high_is_not_searched_for_a_win_by_fours() -> None:
    searcher = Searcher(Board.from_picture(FOUR_THEN_OPEN_FOUR), SearchSettings(), Budget())
    assert abs(searcher._leaf(1, -WIN)) < WON, "the static value stands: it is past beta already"
    assert searcher.counts.leaf_vcf == 0
    assert searcher._leaf(1, WIN + 1) > WON, "below beta, the win by fours is found"
    assert searcher.counts.leaf_vcf > 0


@pytest.mark.parametrize(
    "cut",
    [SearchSettings(width=12, max_depth=5, reduction=0.6), SearchSettings(width=12, max_depth=5, prune_after=3)],
    ids=["late move reductions", "late move pruning"],
)
def test_late_moves_cut_reach_the_same_depth_for_fewer_nodes(cut: SearchSettings) -> None:
    nodes = []
    for settings in (SearchSettings(width=12, max_depth=5), cut):
        budget = Budget()
        results = list(Searcher(Board.from_picture(MIDDLE_GAME), settings, budget).iterate())
        assert results[-1].depth == 5
        nodes.append(budget.nodes)
    assert nodes[1] < nodes[0] * 0.9


def test_a_search_whose_best_move_just_changed_runs_on_past_its_planned_time() -> None:
    board = Board.from_moves(parse_pairs("jiggfghghighgfehiffhhhgihfgjgkjf", 15))
    master = next(level for level in LEVELS if level.name == "master")
    depths = {}
    for most_time_ms in (None, 1200):
        bot = EngineBot(master, clock=counting_clock())
        results = list(bot.think(board, SearchLimits(time_ms=300, most_time_ms=most_time_ms)))
        depths[most_time_ms] = [(result.depth, format_point(result.move, 15)) for result in results]
    # The second depth changes the best move: the third, unsettled, may finish after the 300 ms
    # planned, and being settled again it ends the search (far before the 1,200 ms allowed).
    assert depths[None] == [(1, "f11"), (2, "j8")]
    assert depths[1200] == [(1, "f11"), (2, "j8"), (3, "j8")]


def test_a_move_is_critical_when_threatened_when_its_best_move_changed_or_when_its_score_fell() -> None:
    assert critical(True, [40], [300]), "the opponent threatens to win: critical from the first depth"
    assert not critical(False, [40], [300])
    assert critical(False, [40, 41], [300, 280]), "the best move changed at the last depth"
    assert not critical(False, [40, 40, 40], [300, -900, 300 - SCORE_FALL + 1])
    assert critical(False, [40, 40, 40], [300, -900, 300 - SCORE_FALL]), "it fell since the depth of its parity"
    assert not critical(False, [40, 40, 40, 40], [300, 2000, 290, 2000 - SCORE_FALL + 1]), (
        "a swing between odd and even depths is not a fall"
    )


def test_a_threatened_move_uses_more_than_its_planned_time_and_never_more_than_its_most() -> None:
    # Black to move; white's d8 e8 f8 is an open three. The best move stays the same from depth 5
    # on: unthreatened, such a search would end at its planned 300 ms.
    board = Board.from_moves([parse_point(name, 15) for name in ("h8", "d8", "k11", "e8", "m4", "f8")])
    assert threat_replies(Position.from_board(board)) is not None
    master = next(level for level in LEVELS if level.name == "master")
    used_ms = {}
    for most_time_ms in (None, 900):
        clock = counting_clock()
        started = clock()
        results = list(EngineBot(master, clock).think(board, SearchLimits(time_ms=300, most_time_ms=most_time_ms)))
        used_ms[most_time_ms] = (clock() - started) * 1000
        assert results[-1].move == parse_point("c8", 15)
    assert 250 < used_ms[None] <= 300, "without a most time the planned time is all it has"
    assert 800 < used_ms[900] <= 900, "threatened, it runs on to its most time, and stops there"


def test_the_reductions_grow_with_the_depth_and_the_move_index() -> None:
    table = reductions_table(0.6, 12)
    assert table[2][1] == 0, "a move near the leaves searched second keeps its depth"
    assert table[10][10] == 3
    assert all(row[index] <= row[index + 1] for row in table for index in range(len(row) - 1))
    assert all(value == 0 for row in reductions_table(0.0, 12) for value in row)


def test_moves_that_make_or_stop_a_threat_are_never_cut_and_replies_to_one_are_all_searched() -> None:
    # White to move in a quiet position: white's d4 e4 become an open three at f4, black's
    # h8 i8 j8 (blocked at g8) a four at k8.
    board = Board.from_moves([parse_point(name, 15) for name in ("h8", "g8", "i8", "d4", "j8", "e4", "m13")])
    searcher = Searcher(board, SearchSettings(reduction=0.6, prune_after=3), Budget())
    assert threat_replies(searcher.position) is None
    assert searcher._searched_in_full(2) == 3 + 2 * 2
    assert searcher._searched_in_full(5) == 15 * 15, "no pruning far from the leaves"

    def index(name: str) -> int:
        point = parse_point(name, 15)
        return point.y * 15 + point.x

    assert searcher._makes_threat(index("f4"))
    assert searcher._makes_threat(index("k8"))
    assert not searcher._makes_threat(index("a1"))
    threatened = Searcher(Board.from_picture(WHITE_OPEN_THREE), SearchSettings(prune_after=3), Budget())
    assert threat_replies(threatened.position) is not None, "every reply to a threat is searched"


@pytest.mark.parametrize("level", ["hard", "master"])
def test_a_200_ms_deadline_is_met(level: str) -> None:
    board = Board.from_picture(MIDDLE_GAME)
    started = time.monotonic()
    ENGINE_LEVELS[level]().choose(board, SearchLimits(time_ms=200), seed=0)
    assert time.monotonic() - started < 2.0


def test_the_deadline_is_read_from_the_injected_clock() -> None:
    ticks = itertools.count()
    clock = lambda: next(ticks) * 0.001  # noqa: E731 - every reading advances a millisecond
    board = Board.from_picture(MIDDLE_GAME)
    bot = EngineBot(ENGINE_LEVELS["master"]().settings, clock=clock)  # type: ignore[attr-defined]
    results = list(bot.think(board, SearchLimits(time_ms=50)))
    assert next(ticks) < 200, "the search stops soon after 50 readings of a millisecond each"
    decision = bot.decide(board, results[-1] if results else None, seed=0)
    assert board.is_legal(decision.move)


def test_a_node_limit_is_respected() -> None:
    board = Board.from_picture(MIDDLE_GAME)
    decision = ENGINE_LEVELS["hard"]().choose(board, SearchLimits(nodes=500), seed=0)
    assert decision.nodes <= 500 + 64
    assert board.is_legal(decision.move)


@pytest.mark.parametrize("level", list(ENGINE_LEVELS))
def test_renju_black_never_plays_the_forbidden_point(level: str) -> None:
    board, move = _choose(level, TEMPTING_FORBIDDEN_POINT, rule=Rule.RENJU, time_ms=400)
    assert board.forbidden_reason(parse_point("h8", 15)) is rules.Forbidden.DOUBLE_THREE
    assert move != parse_point("h8", 15)
    assert board.is_legal(move)


def test_the_same_point_is_the_choice_in_freestyle() -> None:
    _, move = _choose("hard", TEMPTING_FORBIDDEN_POINT, time_ms=500)
    assert format_point(move, 15) == "h8"


@pytest.mark.parametrize("level", list(ENGINE_LEVELS))
def test_renju_black_with_no_legal_block_still_answers_legally(level: str) -> None:
    board, move = _choose(level, BLOCK_IS_FORBIDDEN, rule=Rule.RENJU, time_ms=300)
    assert board.to_move == rules.BLACK
    assert board.is_legal(move)


def test_a_lost_position_is_scored_as_lost() -> None:
    board = Board.from_picture(BLOCK_IS_FORBIDDEN, rule=Rule.RENJU)
    decision = ENGINE_LEVELS["hard"]().choose(board, SearchLimits(time_ms=300), seed=0)
    assert decision.score < -WON or decision.depth == 0


@pytest.mark.parametrize("level", list(ENGINE_LEVELS))
def test_a_level_is_deterministic_for_a_seed(level: str) -> None:
    board = Board.from_picture(MIDDLE_GAME)
    limits = SearchLimits(time_ms=60_000, depth=2, nodes=3_000)
    first = ENGINE_LEVELS[level]().choose(board, limits, seed=7)
    second = ENGINE_LEVELS[level]().choose(board, limits, seed=7)
    assert first == second


def test_easy_varies_its_move_with_the_seed() -> None:
    board = Board.from_moves([Point(7, 7), Point(8, 8)])
    limits = SearchLimits(time_ms=60_000, depth=2, nodes=3_000)
    moves = {ENGINE_LEVELS["easy"]().choose(board, limits, seed=seed).move for seed in range(8)}
    assert len(moves) > 1


def test_levels_and_their_bots_can_be_pickled_for_a_process_pool() -> None:
    for name, factory in ENGINE_LEVELS.items():
        bot = pickle.loads(pickle.dumps(factory))()
        assert pickle.loads(pickle.dumps(bot)).level == name


# Black to move, 46 stones into a game master lost as black to alphabeta: c7
# (which master played, and which the search's tree likes best at depth 3)
# lets white win by threes and fours; n14 and m13 (best at depth 2) do not.
UNDER_A_DEEP_THREAT = "hhghfjgihjhiiiijfggggfgkgjjkklhkfkkkikglfmflehdififhheidhfhlhdhgdjejileldlemhchbekdncoifdgcf"
# White to move, 7 stones into a game master lost as white: i9 (which master
# played; best at depth 3, though at depth 2 it scored thousands below the
# best) lets black win by threats in 13 plies; f11 (best at depth 2) does not.
SWINGING_BETWEEN_DEPTHS = "hhghgkhifjfgij"
# White to move, 19 stones into a game master lost as white to greedy: the
# moves the tree likes best all let black win by threats; only h7, the move
# ordering's first (a four that also spoils black's row), does not.
ONLY_THE_NATURAL_MOVE_HOLDS = "hhgifghgefghgjfiifggeiejdkgfgeiifejihi"
# Black to move, 10 stones into a game master lost as black to alphabeta
# (opening h8 h9 d10): g11, the tree's favourite, lets white win by threats
# in 11 plies, too deep for its safety check to settle in the time; g8, the
# move ordering's first, is safe, and is proven so once it is checked too.
NATURAL_MOVE_AFTER_AN_UNFINISHED_CHECK = "hhghfdfggihiijigefgg"


@pytest.mark.parametrize("level", ["hard", "master"])
@pytest.mark.parametrize(
    "moves",
    [UNDER_A_DEEP_THREAT, SWINGING_BETWEEN_DEPTHS, ONLY_THE_NATURAL_MOVE_HOLDS, NATURAL_MOVE_AFTER_AN_UNFINISHED_CHECK],
)
def test_a_move_that_lets_the_opponent_win_by_threats_is_avoided(level: str, moves: str) -> None:
    board = Board.from_moves(parse_pairs(moves, 15))
    clock = counting_clock()  # a millisecond per 32 nodes: about the engine's real speed
    bot = EngineBot(ENGINE_LEVELS[level]().settings, clock=clock)  # type: ignore[attr-defined]
    decision = bot.choose(board, SearchLimits(time_ms=1000), seed=0)
    position = Position.from_board(board)
    position.play(decision.move.y * board.size + decision.move.x)
    assert ThreatSolver(position, Budget(max_nodes=300_000)).vct_deepening(16) is None


class _RootRecorder(Searcher):
    """A Searcher that notes which root moves each iteration searched, and which moves the
    safety checks had refuted when each iteration began."""

    def __init__(self, board: Board, settings: SearchSettings, budget: Budget) -> None:
        super().__init__(board, settings, budget)
        self.searched: dict[int, set[int]] = {}
        self.refuted_before: dict[int, set[int]] = {}
        self._depth = 0

    def refuted(self, moves: Iterable[int]) -> set[int]:
        return {move for move in moves if self.safety.refuted_score(move) is not None}

    def _search_root(self, moves: list[int], depth: int) -> list[tuple[int, int]]:
        self._depth = depth
        self.refuted_before[depth] = self.refuted(moves)
        return super()._search_root(moves, depth)

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        if ply == 1:
            self.searched.setdefault(self._depth, set()).add(self.position.moves[-1])
        return super()._negamax(depth, alpha, beta, ply)


def test_a_root_move_refuted_by_a_safety_check_is_not_searched_again() -> None:
    board = Board.from_moves(parse_pairs(UNDER_A_DEEP_THREAT, 15))
    settings = ENGINE_LEVELS["master"]().settings.search  # type: ignore[attr-defined]
    recorder = _RootRecorder(board, settings, Budget(max_nodes=60_000))
    results = list(recorder.iterate())
    later = [depth for depth in recorder.searched if recorder.refuted_before.get(depth)]
    assert later, "some move was refuted before the last iteration"
    for depth in later:
        assert not recorder.searched[depth] & recorder.refuted_before[depth]
    root = [point.y * board.size + point.x for point, _ in results[-1].root_scores]
    lost = {move for move, (_, score) in zip(root, results[-1].root_scores, strict=True) if score < -WON}
    assert recorder.refuted(root) <= lost, "a refuted move keeps its lost score"


# White to move, 15 stones into a game master lost to alphabeta (opening h8 i9 d7): k7, which
# both levels played, lets black win by threats that switch place once (see test_threats), a
# win the ordinary safety check does not see.
REFUTED_BY_A_SWITCH = "hhgiidhiiiggfggfghfhhfeiihdifi"


@pytest.mark.parametrize("level", ["hard", "master"])
def test_a_move_refuted_by_threats_that_switch_place_is_avoided(level: str) -> None:
    board = Board.from_moves(parse_pairs(REFUTED_BY_A_SWITCH, 15))
    bot = EngineBot(ENGINE_LEVELS[level]().settings, clock=counting_clock())  # type: ignore[attr-defined]
    decision = bot.choose(board, SearchLimits(time_ms=1000), seed=0)
    position = Position.from_board(board)
    position.play(decision.move.y * board.size + decision.move.x)
    assert ThreatSolver(position, Budget(max_nodes=300_000)).vct_deepening(12, switches=1) is None
