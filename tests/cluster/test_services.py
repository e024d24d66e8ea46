"""The cluster tests skip where PostgreSQL is missing, saying how to install it, and fail instead where
they are required (as in CI)."""

from __future__ import annotations

import pytest

from tests.cluster import services


def test_a_missing_postgresql_skips_with_its_install_line_unless_required(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = "PostgreSQL is not installed (apt-get install postgresql)"
    monkeypatch.setattr(services, "postgres_missing", lambda: missing)
    monkeypatch.delenv("GOMOKU_CLUSTER_TESTS", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install postgresql"):
        services.require_postgres()

    monkeypatch.setenv("GOMOKU_CLUSTER_TESTS", "required")
    with pytest.raises(pytest.fail.Exception, match="required, but PostgreSQL is not installed"):
        services.require_postgres()
