"""docker-compose.yml, its cluster profile and the Dockerfile, checked without a Docker engine.

The compose file is read with a YAML parser, as Docker Compose reads it (anchors and merge keys
included); the cluster profile's HAProxy configuration is checked by HAProxy itself where installed.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from server_harness import RunningServer

from server.app import ServerSettings
from server.main import parse_arguments

REPO = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load((REPO / "docker-compose.yml").read_text(encoding="utf-8"))
    return document


def server_service() -> dict[str, Any]:
    service: dict[str, Any] = compose()["services"]["server"]
    return service


def test_the_server_is_built_from_the_dockerfile_with_the_migrations_inside_the_package() -> None:
    build = server_service()["build"]
    dockerfile = (REPO / build["context"] / build["dockerfile"]).read_text(encoding="utf-8")
    assert "COPY migrations ./migrations" in dockerfile and "requirements.lock" in dockerfile
    # The image runs the installed package: no sources are copied into the final stage.
    final_stage = dockerfile.split("\nFROM ")[-1]
    assert "COPY --from=builder /opt/gomoku /opt/gomoku" in final_stage and "COPY server" not in final_stage
    assert '"gomoku-server"' in final_stage and "HEALTHCHECK" in final_stage and "/healthz" in final_stage


def test_the_command_is_one_the_server_accepts_and_keeps_its_database_on_the_volume() -> None:
    service = server_service()
    command = service["command"]
    assert command[0] == "gomoku-server"
    settings = parse_arguments(command[1:])
    assert settings.host == "0.0.0.0"
    volume_name, mount_point = service["volumes"][0].split(":")
    assert volume_name in compose()["volumes"]
    assert Path(settings.db_path).parent == Path(mount_point)
    assert service["ports"] == [f"{settings.port}:{settings.port}"]
    assert service["stop_signal"] == "SIGTERM"


async def test_the_healthcheck_passes_against_a_running_server(game_server: RunningServer) -> None:
    service = server_service()
    settings = parse_arguments(service["command"][1:])
    check = service["healthcheck"]["test"]
    assert check[0] == "CMD" and check[1] == "python"
    assert f"127.0.0.1:{settings.port}/healthz" in check[-1]
    script = check[-1].replace(f":{settings.port}/", f":{game_server.port}/")
    process = await asyncio.create_subprocess_exec(sys.executable, *check[2:-1], script)
    assert await asyncio.wait_for(process.wait(), 60) == 0


CLUSTER_SERVICES = {"postgres", "redis", "node1", "node2", "node3", "proxy"}
PROXY_CONFIG = REPO / "deploy" / "haproxy.cfg"


def cluster_nodes() -> dict[str, dict[str, Any]]:
    return {name: service for name, service in compose()["services"].items() if name.startswith("node")}


def node_settings(service: dict[str, Any]) -> ServerSettings:
    command = service["command"]
    assert command[0] == "gomoku-server"
    return parse_arguments(command[1:])


def test_the_cluster_profile_adds_postgresql_redis_haproxy_and_three_nodes_and_leaves_the_default_alone() -> None:
    services = compose()["services"]
    assert {name for name, service in services.items() if "cluster" in service.get("profiles", [])} == CLUSTER_SERVICES
    assert set(services) == CLUSTER_SERVICES | {"server"}
    assert "profiles" not in services["server"]


def test_every_node_runs_on_the_profiles_postgresql_and_redis_under_a_name_of_its_own() -> None:
    services = compose()["services"]
    names = []
    for service in cluster_nodes().values():
        settings = node_settings(service)
        database = urlsplit(settings.db_path)
        assert database.scheme == "postgresql" and database.hostname in services and database.port == 5432
        assert services[database.hostname]["image"].startswith("postgres:")
        bus = urlsplit(service["command"][service["command"].index("--bus") + 1])
        assert bus.scheme == "redis" and bus.hostname in services and bus.port == 6379
        assert services[bus.hostname]["image"].startswith("redis:")
        assert set(service["depends_on"]) == {database.hostname, bus.hostname}
        assert settings.host == "0.0.0.0"
        names.append(settings.node_id)
    assert len(set(names)) == len(names) == 3


def test_the_nodes_image_has_the_cluster_extra() -> None:
    nodes = cluster_nodes()
    assert len(nodes) == 3
    for service in nodes.values():
        build = service["build"]
        dockerfile = (REPO / build["context"] / build["dockerfile"]).read_text(encoding="utf-8")
        assert build["args"]["EXTRAS"] == "[cluster]"
        assert '"gomoku-server${EXTRAS}"' in dockerfile and "--find-links /wheels" in dockerfile
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert "cluster" in extras


def test_the_records_are_on_a_volume() -> None:
    document = compose()
    volume_name, mount_point = document["services"]["postgres"]["volumes"][0].split(":")
    assert volume_name in document["volumes"]
    assert mount_point == "/var/lib/postgresql/data"


def test_the_proxy_spreads_its_published_port_over_every_node_that_answers_its_health_check() -> None:
    proxy = compose()["services"]["proxy"]
    config_file, mount_point, _mode = proxy["volumes"][0].split(":")
    assert (REPO / config_file).resolve() == PROXY_CONFIG and mount_point == "/usr/local/etc/haproxy/haproxy.cfg"
    lines = [line.split() for line in PROXY_CONFIG.read_text(encoding="utf-8").splitlines()]
    backends = {words[2] for words in lines if words[:1] == ["server"]}
    assert backends == {f"{name}:{node_settings(service).port}" for name, service in cluster_nodes().items()}
    (bind,) = [words[1] for words in lines if words[:1] == ["bind"]]
    port = bind.split(":")[-1]
    assert proxy["ports"] == [f"{port}:{port}"]
    assert ["option", "httpchk", "GET", "/healthz"] in lines


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed (apt-get install haproxy)")
def test_haproxy_accepts_the_proxys_configuration() -> None:
    checked = subprocess.run(["haproxy", "-c", "-f", str(PROXY_CONFIG)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr
