"""Which package may import which: the wire and the brains stand alone, and no client reaches into the server.

Read from the sources with `ast`, so an import inside a function counts as
much as one at the top, and nothing has to be imported to be checked.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STANDARD_LIBRARY = frozenset(sys.stdlib_module_names)


def imports_of(package: str) -> dict[str, set[str]]:
    """For each module of the package (a path from the root), the modules its absolute imports name
    (with, for `from M import N`, both M and M.N, since N may be a module)."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                # `from server.rooms import views` imports the module server.rooms.views: both names are kept.
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
        found[str(path.relative_to(ROOT))] = names
    assert found, f"{package}/ has no modules"
    return found


def imports_outside(package: str, allowed: set[str]) -> dict[str, set[str]]:
    """The imports of the package's modules whose top-level package is neither its own, the standard
    library's, nor one of `allowed`; modules with none are left out."""
    permitted = STANDARD_LIBRARY | allowed | {package}
    outside = {
        module: {name for name in names if name.split(".")[0] not in permitted}
        for module, names in imports_of(package).items()
    }
    return {module: names for module, names in outside.items() if names}


def reachable_from(graph: dict[str, set[str]], start: str) -> set[str]:
    """The modules `start` imports, directly or through others."""
    seen: set[str] = set()
    waiting = [start]
    while waiting:
        for name in graph.get(waiting.pop(), set()) - seen:
            seen.add(name)
            waiting.append(name)
    return seen


def test_the_walk_sees_every_kind_of_import() -> None:
    """The checks below would pass vacuously if the walk missed imports: it sees the ones we know."""
    client = imports_of("client")
    assert "wire.messages" in client["client/session.py"]
    assert "brains.process" in client["client/bot/runner.py"]
    assert "websockets" in imports_outside("client", set())["client/connection.py"]


def test_the_wire_imports_only_the_engine_and_pydantic() -> None:
    assert imports_outside("wire", {"engine", "pydantic"}) == {}


def test_the_brains_driver_imports_only_the_engine() -> None:
    assert imports_outside("brains", {"engine"}) == {}


def test_the_clients_and_gomoku_bot_import_nothing_from_the_server() -> None:
    """The terminal client and `gomoku-bot` speak the wire (`wire`), never the server's internals."""
    reaching_in = {
        module: {name for name in names if name.split(".")[0] == "server"}
        for module, names in imports_of("client").items()
    }
    assert {module: names for module, names in reaching_in.items() if names} == {}


def test_the_views_do_not_reach_back_to_the_lobby() -> None:
    """The lobby renders its seeks with the views, so the views must not stand on the lobby (which
    was a circle: lobby -> views -> lobby), counting the imports made only for the type checker."""
    graph = {
        module.removesuffix(".py").removesuffix("/__init__").replace("/", "."): {
            name for name in names if name.startswith("server.")
        }
        for module, names in imports_of("server").items()
    }
    assert "server.rooms.views" in reachable_from(graph, "server.lobby.hall")
    assert "server.lobby.hall" not in reachable_from(graph, "server.rooms.views")


def test_analysis_knows_nothing_of_the_connection_layer() -> None:
    """`analyze` is served from the caller's name and a way to answer, not from a connection."""
    analysis = imports_of("server")["server/bots/analysis.py"]
    assert analysis.isdisjoint({"server.edge.connections", "server.hub.services"})


SERVER_LAYERS = {
    "cluster": -1,
    "edge": 0,
    "hub": 1,
    "moderation": 1,
    "tournaments": 1,
    **dict.fromkeys(("rooms", "lobby", "players", "bots"), 2),
    "accounts": 2,
    "review": 2,
    "imports": 2,
    "storage": 3,
    **dict.fromkeys(("domain", "metrics", "chores", "version"), 4),
}
"""Each part of the server (a sub-package, or a module at the top) and its layer (the cluster stands
between one node's edge and another's rooms, on top of both): a part may import
its own layer and those below it (a higher number). `app` and `main` put the parts together and may
import any of them."""
IMPORTS_UP = {
    ("hub", "server.edge.connections"),
    ("hub", "server.edge.subscriptions"),
    ("moderation", "server.edge.connections"),
    ("tournaments", "server.edge.connections"),
    ("storage", "server.players.ratings"),
}
"""The imports that still go up, each named in its package's docstring: the hub's handlers (and
moderation's, beside them) are handed the `Connection` a request came on and `Services` holds the
`Edge`; the record writer rates a result in its transaction with the rating pool's formula."""


def part_of(module: str) -> str:
    """The part of the server a module belongs to: `server/rooms/views.py` and `server.rooms.views` are
    in `rooms`, `server/domain.py` in `domain`."""
    return module.removesuffix(".py").replace("/", ".").split(".")[1]


def is_server_module(name: str) -> bool:
    """Whether an imported name is a module of the server (not a class or function imported from one)."""
    path = ROOT / name.replace(".", "/")
    return name.startswith("server.") and (path.with_suffix(".py").is_file() or path.is_dir())


def test_each_part_of_the_server_imports_only_its_own_layer_and_those_below() -> None:
    """edge -> hub -> rooms, lobby, players, bots -> storage -> domain, metrics, as the packages say."""
    upward = {
        (part_of(module), name)
        for module, names in imports_of("server").items()
        if part_of(module) in SERVER_LAYERS
        for name in names
        if is_server_module(name) and part_of(name) in SERVER_LAYERS
        if SERVER_LAYERS[part_of(name)] < SERVER_LAYERS[part_of(module)]
    }
    assert upward == IMPORTS_UP


def test_every_part_of_the_server_has_its_layer() -> None:
    """A new sub-package or top-level module is placed in the layering, or left to the composition root."""
    parts = {part_of(module) for module in imports_of("server")} - {"__init__", "app", "main"}
    assert parts == set(SERVER_LAYERS)


def test_only_the_bus_imports_redis_and_a_server_without_it_never_does() -> None:
    """redis-py is the `cluster` extra: the default install has none, so nothing but the bus may
    import it, and the server imports the bus only when it runs with `--bus`."""
    importing = {
        module
        for package in ("server", "wire", "engine", "client")
        for module, names in imports_of(package).items()
        if any(name.split(".")[0] == "redis" for name in names)
    }
    assert importing == {"server/cluster/bus.py"}
    check = "import sys, server.main; sys.exit('redis' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", check], cwd=ROOT).returncode == 0


def test_a_server_of_one_process_imports_neither_asyncpg_nor_the_cluster() -> None:
    """The `cluster` extra is optional: one process on SQLite starts without asyncpg and redis-py, so
    `server.main` (and what it imports to serve) leaves the cluster's modules alone but for its settings."""
    check = (
        "import sys, server.main\n"
        "loaded = {name for name in sys.modules if name.split('.')[0] in ('asyncpg', 'redis')}\n"
        "loaded |= {name for name in sys.modules if name.startswith('server.cluster.')}\n"
        "print(sorted(loaded))"
    )
    shown = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "['server.cluster.lease_settings']"
