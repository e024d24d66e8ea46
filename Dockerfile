# The Gomoku server: one process serving websockets and HTTP on port 8765,
# keeping its SQLite database in /data (mount a volume there).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY server ./server
COPY client ./client
COPY tools ./tools
COPY migrations ./migrations
RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 gomoku \
    && mkdir -p /data \
    && chown gomoku /data

USER gomoku
VOLUME ["/data"]
EXPOSE 8765

HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8765/healthz', timeout=2).status != 200)"]

# Run from /app so that server/ finds migrations/ beside it; exec form, so that
# SIGTERM from `docker stop` reaches the server, which then shuts down cleanly.
CMD ["python", "-m", "server.main", "--host", "0.0.0.0", "--port", "8765", "--db", "/data/gomoku.sqlite3", "--bot-workers", "2"]
