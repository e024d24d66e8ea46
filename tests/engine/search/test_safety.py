"""The safety checks at the root: a move that lets the opponent win by threats is found out,
scored as lost and put last, and what the checks proved carries over to the next iteration."""

from engine import Board, format_point, parse_pairs, parse_point
from engine.limits import Budget
from engine.search.position import WON, Position
from engine.search.safety import RootSafety, SafetySettings

# Black to move, 46 stones into a game master lost as black to alphabeta: c7, which master
# played, lets white win by threes and fours; n14 and m13 do not.
UNDER_A_DEEP_THREAT = "hhghfjgihjhiiiijfggggfgkgjjkklhkfkkkikglfmflehdififhheidhfhlhdhgdjejileldlemhchbekdncoifdgcf"
CHECKED = SafetySettings(vct_depth=12)


def root_safety(settings: SafetySettings, budget: Budget) -> tuple[RootSafety, dict[str, int]]:
    """The checks for UNDER_A_DEEP_THREAT, with n14 as the natural move; and the root moves by name."""
    board = Board.from_moves(parse_pairs(UNDER_A_DEEP_THREAT, 15))
    moves = {name: point.y * 15 + point.x for name in ("c7", "n14", "m13") for point in [parse_point(name, 15)]}
    safety = RootSafety(Position.from_board(board), settings, budget, start=0.0)
    safety.natural = moves["n14"]
    return safety, moves


def test_the_tree_favourite_that_loses_to_threats_is_scored_as_lost_and_put_last() -> None:
    safety, moves = root_safety(CHECKED, Budget())
    reviewed = safety.review([(moves["c7"], 300), (moves["n14"], 200), (moves["m13"], 100)])
    names = [format_point(safety.position.point(move), 15) for move, _ in reviewed]
    assert names == ["n14", "m13", "c7"]
    assert reviewed[-1][1] < -WON
    assert safety.refuted_score(moves["c7"]) == reviewed[-1][1]
    assert safety.refuted_score(moves["n14"]) is None


def test_once_a_move_is_refuted_close_moves_are_scored_within_the_margin() -> None:
    safety, moves = root_safety(CHECKED, Budget())
    assert safety.scout_margin() == 0, "nothing is known to be dangerous yet"
    safety.review([(moves["c7"], 300), (moves["n14"], 200)])
    assert safety.scout_margin() == CHECKED.margin


def test_without_checks_the_scores_are_left_as_the_tree_gave_them() -> None:
    budget = Budget()
    safety, moves = root_safety(SafetySettings(vct_depth=0), budget)
    scored = [(moves["c7"], 300), (moves["n14"], 200)]
    assert safety.review(scored) == scored
    assert budget.nodes == 0 and safety.refuted_score(moves["c7"]) is None


def test_a_check_that_runs_out_of_nodes_is_resumed_in_the_next_review() -> None:
    budget = Budget()
    safety, moves = root_safety(SafetySettings(vct_depth=12, nodes=500), budget)
    first = safety.review([(moves["c7"], 300), (moves["n14"], 200)])
    assert safety.refuted_score(moves["c7"]) is None, "500 nodes are too few to find the win"
    assert first[0][1] > -WON
    for _ in range(40):
        safety.review([(moves["c7"], 300), (moves["n14"], 200)])
        if safety.refuted_score(moves["c7"]) is not None:
            break
    assert safety.refuted_score(moves["c7"]) is not None, "checks of 500 nodes each add up to the refutation"
