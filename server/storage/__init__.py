"""Storage: everything kept on disk, in one SQLite file through aiosqlite.

`Storage` (`database.py`) applies migrations and reads; `RecordWriter` (`writer.py`) commits every
room's records in groups, rating each rated result in its transaction (the one import from above
it: `players.ratings`'s formula); `statements.py` is the SQL, `rows.py` reads rows into domain
values; `accounts.py` and `accounts_statements.py` read and write the accounts' tables. Otherwise
it imports only `domain`, `metrics`, `wire` and `engine`.
"""
