"""The search engine: line patterns, incremental shapes, threat-space search, PVS, levels.

Read it in this order: `patterns` (tables computed once), `position` (the
Position the search plays on, and its static evaluation), `threats` (VCF
and VCT), `movegen`, `search` (the iterative-deepening generator) and
`levels` (the bots `easy` .. `master`). The time and node limits it
stops on are `engine.limits`, shared with the classic bots.
"""
