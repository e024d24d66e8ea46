"""Remembering a token per server and player name."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from client.tokens import TokenStore, TokenStoreError, default_config_dir


def test_a_token_comes_back_for_its_server_and_name_only(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "gomoku")
    store.put("ws://a/ws", "alice", "t1")
    store.put("ws://a/ws", "bob", "t2")
    store.put("ws://b/ws", "alice", "t3")
    again = TokenStore(tmp_path / "gomoku")
    assert again.get("ws://a/ws", "alice") == "t1"
    assert again.get("ws://a/ws", "bob") == "t2"
    assert again.get("ws://b/ws", "alice") == "t3"
    assert again.get("ws://b/ws", "bob") is None


def test_a_new_token_replaces_the_old_one(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    store.put("ws://a/ws", "alice", "old")
    store.put("ws://a/ws", "alice", "new")
    assert store.get("ws://a/ws", "alice") == "new"


def test_no_file_means_no_token(tmp_path: Path) -> None:
    assert TokenStore(tmp_path / "missing").get("ws://a/ws", "alice") is None


def test_only_the_owner_can_read_the_file(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    store.put("ws://a/ws", "alice", "secret")
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600


def test_a_damaged_file_is_reported_and_left_alone(tmp_path: Path) -> None:
    store = TokenStore(tmp_path)
    store.path.write_text("{not json")
    with pytest.raises(TokenStoreError, match="not a tokens file"):
        store.get("ws://a/ws", "alice")
    with pytest.raises(TokenStoreError):
        store.put("ws://a/ws", "alice", "t")
    assert store.path.read_text() == "{not json"


def test_the_config_directory_comes_from_the_environment(tmp_path: Path) -> None:
    assert default_config_dir({"GOMOKU_CONFIG_DIR": str(tmp_path)}) == tmp_path
    assert default_config_dir({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "gomoku"
    assert default_config_dir({}) == Path.home() / ".config" / "gomoku"
