"""Game review and puzzles (issue 32): the engine's proofs of missed wins and blunders for every
finished game, and puzzles mined from the games played here.

`work.py` is what the bot workers run (the engine's `engine.review`, one position at a time);
`reviewer.py` schedules a game's positions in the analysis pool at the lowest priority
(`Priority.REVIEW`: behind every analysis, never in the bots' own pool) and stores the review once
per game; `puzzles.py` mines puzzles from reviewed games and serves the trainer, with Glicko-2
ratings for puzzles and players; `starting_set.py` loads the puzzles that ship with the project.

It stands where the bots do: it may import `bots` (the pool), `storage`'s ports in `domain`,
`domain`, `metrics`, the wire and the engine; never the rooms, the hub or the edge.
"""
