"""Storage: everything kept, in one SQLite file (aiosqlite) or in PostgreSQL (asyncpg), with the same SQL.

`Storage` (`database.py`) applies migrations and reads; `RecordWriter` (`writer.py`) commits every
room's records in groups, rating each rated result in its transaction (the one import from above
it: `players.ratings`'s formula); `statements.py` is the SQL, `rows.py` reads rows into domain
values; `accounts.py` and `accounts_statements.py` read and write the accounts' tables, `moderation.py`
and `moderation_statements.py` moderation's; `drivers.py` is what they ask of a database, `sqlite.py`
and `postgres.py` the two that answer. Otherwise it imports only `domain`, `metrics`, `wire` and `engine`.
"""
