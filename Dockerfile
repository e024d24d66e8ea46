# The Gomoku server: one process serving websockets and HTTP on port 8765,
# keeping its SQLite database in /data (mount a volume there).
#
# Every version installed comes from requirements.lock (hash-checked); the
# package is built from this tree and installed into its own virtualenv, which
# is all the image carries. tests/install/test_image.py runs these same RUN
# lines and CMD in a fresh virtualenv (no Docker engine needed).

# EXTRAS names the package's optional extras to install: empty for the one server on SQLite,
# "[cluster]" (asyncpg, redis-py) for a node of several (docker-compose.yml, `--profile cluster`).
ARG EXTRAS=""

# Builder: the full Python image has a C compiler and Python's headers, so the
# wheel built here carries the engine's hot path compiled by mypyc (setup.py).
FROM python:3.11 AS builder
ARG EXTRAS
WORKDIR /src
COPY pyproject.toml setup.py README.md requirements.lock ./
COPY engine ./engine
COPY wire ./wire
COPY brains ./brains
COPY server ./server
COPY client ./client
COPY tools ./tools
COPY migrations ./migrations
# The locked wheels (hash-checked), and the lock's versions as pins without hashes, so that pip may
# choose among those wheels alone; then the package, built with the locked setuptools and mypy.
RUN pip download --no-cache-dir --require-hashes --no-deps --dest /wheels -r requirements.lock \
    && sed -e '/^[a-z0-9]/!d' -e 's/ *\\$//' requirements.lock > /wheels/pins.txt \
    && pip install --no-cache-dir --no-index --find-links /wheels -c /wheels/pins.txt setuptools mypy \
    && pip wheel --no-cache-dir --no-deps --no-build-isolation --wheel-dir /wheels .
# The server's virtualenv, holding the package and what it needs, nothing else (no pip of its own);
# its engine must be the compiled one (python -I: the installed package, not the sources here).
RUN python -m venv --without-pip /opt/gomoku \
    && pip --python /opt/gomoku/bin/python install --no-cache-dir --no-index --find-links /wheels \
        -c /wheels/pins.txt "gomoku-server${EXTRAS}" \
    && /opt/gomoku/bin/python -I -c "import engine, sys; print(engine.build_info()); sys.exit(not engine.build.is_compiled())"

# The image itself needs no compiler: it takes the virtualenv built above (same Python, same path).
FROM python:3.11-slim
COPY --from=builder /opt/gomoku /opt/gomoku
RUN useradd --create-home --uid 10001 gomoku \
    && mkdir -p /data \
    && chown gomoku /data

ENV PATH=/opt/gomoku/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
WORKDIR /data
USER gomoku
VOLUME ["/data"]
EXPOSE 8765

HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=2).status != 200)"]

# Exec form, so that SIGTERM from `docker stop` reaches the server, which then shuts down cleanly.
CMD ["gomoku-server", "--host", "0.0.0.0", "--port", "8765", "--db", "/data/gomoku.sqlite3", "--bot-workers", "2"]
