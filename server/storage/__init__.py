"""Storage: everything kept, in one SQLite file (aiosqlite) or in PostgreSQL (asyncpg), with the same SQL.

`Storage` (`database.py`) applies migrations and reads; `RecordWriter` (`writer.py`) commits every
room's records in groups, rating each rated result in its transaction (the one import from above
it: `players.ratings`'s formula); `statements.py` is the SQL, `rows.py` reads rows into domain
values; `drivers.py` is what they ask of a database, `sqlite.py` and `postgres.py` the two that answer.
Otherwise it imports only `domain`, `metrics`, `wire` and `engine`.
"""
