"""docker-compose.yml and the Dockerfile, checked without a Docker engine.

The compose file is read with a YAML parser, as Docker Compose reads it.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import yaml
from server_harness import RunningServer

from server.main import parse_arguments

REPO = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load((REPO / "docker-compose.yml").read_text(encoding="utf-8"))
    return document


def server_service() -> dict[str, Any]:
    service: dict[str, Any] = compose()["services"]["server"]
    return service


def test_the_server_is_built_from_the_dockerfile_with_the_migrations() -> None:
    build = server_service()["build"]
    dockerfile = (REPO / build["context"] / build["dockerfile"]).read_text(encoding="utf-8")
    assert "COPY migrations ./migrations" in dockerfile
    assert '"server.main"' in dockerfile and "HEALTHCHECK" in dockerfile and "/healthz" in dockerfile


def test_the_command_is_one_the_server_accepts_and_keeps_its_database_on_the_volume() -> None:
    service = server_service()
    command = service["command"]
    assert command[:3] == ["python", "-m", "server.main"]
    settings = parse_arguments(command[3:])
    assert settings.host == "0.0.0.0"
    volume_name, mount_point = service["volumes"][0].split(":")
    assert volume_name in compose()["volumes"]
    assert Path(settings.db_path).parent == Path(mount_point)
    assert service["ports"] == [f"{settings.port}:{settings.port}"]
    assert service["stop_signal"] == "SIGTERM"


async def test_the_healthcheck_passes_against_a_running_server(game_server: RunningServer) -> None:
    service = server_service()
    settings = parse_arguments(service["command"][3:])
    check = service["healthcheck"]["test"]
    assert check[0] == "CMD" and check[1] == "python"
    assert f"127.0.0.1:{settings.port}/healthz" in check[-1]
    script = check[-1].replace(f":{settings.port}/", f":{game_server.port}/")
    process = await asyncio.create_subprocess_exec(sys.executable, *check[2:-1], script)
    assert await asyncio.wait_for(process.wait(), 60) == 0
