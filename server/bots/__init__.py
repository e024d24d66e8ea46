"""Bots: which levels the server offers and how long each thinks (`players.py`), the worker
processes that search (`pool.py`), the operator's outside engines (`engine_config.py`,
`outside_engines.py`) and analyses on request (`analysis.py`).

It may import the rooms' registry (what to analyse) and what the middle layer stands on; never the
hub or the edge.
"""
