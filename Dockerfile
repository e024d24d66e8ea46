# The Gomoku server: one process serving websockets and HTTP on port 8765,
# keeping its SQLite database in /data (mount a volume there).

# EXTRAS names the package's optional extras to install: empty for the one server on SQLite,
# "[cluster]" (asyncpg, redis-py) for a node of several (docker-compose.yml, `--profile cluster`).
ARG EXTRAS=""

# Builder: the full Python image has a C compiler and Python's headers, so the
# wheels built here carry the engine's hot path compiled by mypyc (setup.py).
FROM python:3.11 AS builder
ARG EXTRAS
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY wire ./wire
COPY brains ./brains
COPY server ./server
COPY client ./client
COPY tools ./tools
RUN pip wheel --no-cache-dir --wheel-dir /wheels ".${EXTRAS}"

# The image itself needs no compiler: it installs the wheels built above.
FROM python:3.11-slim
ARG EXTRAS

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

COPY --from=builder /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels "gomoku-server${EXTRAS}" \
    && rm -rf /wheels \
    && python -c "import engine, sys; print(engine.build_info()); sys.exit(not engine.build.is_compiled())" \
    && useradd --create-home --uid 10001 gomoku \
    && mkdir -p /data \
    && chown gomoku /data

# The server runs from /app so that server/ finds migrations/ beside it. The
# engine is deliberately not copied here: it is imported from the installed,
# compiled package.
WORKDIR /app
COPY wire ./wire
COPY brains ./brains
COPY server ./server
COPY client ./client
COPY tools ./tools
COPY migrations ./migrations

USER gomoku
VOLUME ["/data"]
EXPOSE 8765

HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=2).status != 200)"]

# Run from /app so that server/ finds migrations/ beside it; exec form, so that
# SIGTERM from `docker stop` reaches the server, which then shuts down cleanly.
CMD ["python", "-m", "server.main", "--host", "0.0.0.0", "--port", "8765", "--db", "/data/gomoku.sqlite3", "--bot-workers", "2"]
