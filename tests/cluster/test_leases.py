"""A node's lease settings from its command line: the lease must outlast several heartbeats."""

from __future__ import annotations

import pytest

from server.main import parse_arguments


def test_a_node_is_named_and_keeps_its_lease_as_told() -> None:
    settings = parse_arguments(["--node-id", "east-1", "--heartbeat-s", "0.5", "--lease-s", "3"])
    assert settings.node_id == "east-1"
    assert (settings.lease.heartbeat_s, settings.lease.expiry_s) == (0.5, 3.0)


def test_a_lease_shorter_than_its_heartbeat_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse_arguments(["--heartbeat-s", "5", "--lease-s", "2"])
    assert "a lease must outlast several heartbeats" in capsys.readouterr().err
