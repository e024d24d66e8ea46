"""Behind the shipped HAProxy each client has its own address: the proxy appends it to
`X-Forwarded-For`, and the server believes that header from the proxy alone (`--trusted-proxies`),
reading its right-most address that is not a trusted proxy's; whatever a client writes in it itself
changes nothing (issue 40, finding 4).

Through a real HAProxy (`tools.local_services.LocalProxy`, skipped without it) in front of a real
server: clients come from 127.0.0.5 and 127.0.0.6, the proxy from 127.0.0.2, and the server lets one
connection in per address.
"""

from __future__ import annotations

import contextlib
import ipaddress
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server.edge.client_address import ClientAddresses, trusted_networks
from server.hub.services import Limits
from tests.server.server_harness import RunningServer, ServerFactory, WireClient
from tools.local_services import PROXY_SOURCE, LocalProxy

ONE_PER_ADDRESS = Limits(connections_per_address=1)


@pytest.fixture
def proxy_in_front(tmp_path: Path) -> Iterator[list[LocalProxy]]:
    """Start HAProxy in front of a server with `proxy_in_front.append(LocalProxy.start(...))`; stopped at the end."""
    if shutil.which("haproxy") is None:
        pytest.skip("haproxy is not installed (apt-get install haproxy)")
    started: list[LocalProxy] = []
    yield started
    for proxy in started:
        proxy.stop()


async def first_message(url: str, source: str, forwarded_for: str | None = None) -> tuple[WireClient, str]:
    """A websocket opened from the loopback address `source` (with an `X-Forwarded-For` of its own
    making, if given), and the type of what the server first says: `welcome` to a hello, or the
    `error` of a connection over its address's limit."""
    headers = {} if forwarded_for is None else {"X-Forwarded-For": forwarded_for}
    wire = WireClient(await connect(url, additional_headers=headers, local_addr=(source, 0)))
    with contextlib.suppress(ConnectionClosed):  # a connection over the limit is told, then closed at once
        await wire.send(type="hello", name=f"from-{source.replace('.', '-')}-{len(headers)}")
    answer = await wire.receive()
    return wire, answer["code"] if answer["type"] == "error" else answer["type"]


async def test_clients_behind_the_proxy_are_counted_each_by_their_own_address(
    start_server: ServerFactory, proxy_in_front: list[LocalProxy], tmp_path: Path
) -> None:
    server: RunningServer = await start_server(
        limits=ONE_PER_ADDRESS, client_addresses=ClientAddresses(trusted_networks(PROXY_SOURCE))
    )
    proxy = LocalProxy.start([server.ws_url], tmp_path)
    proxy_in_front.append(proxy)
    through_proxy = f"ws://127.0.0.1:{proxy.port}/ws"

    first, said = await first_message(through_proxy, "127.0.0.5", forwarded_for="203.0.113.9")
    assert said == "welcome"
    second, said = await first_message(through_proxy, "127.0.0.6")
    assert said == "welcome", "another client behind the proxy is another address"
    third, said = await first_message(through_proxy, "127.0.0.5", forwarded_for="198.51.100.7")
    assert said == "limit_reached", "a header the client wrote itself does not make it someone else"
    for wire in (first, second, third):
        await wire.close()


async def test_a_forwarded_header_from_a_peer_not_trusted_is_ignored(start_server: ServerFactory) -> None:
    server = await start_server(
        limits=ONE_PER_ADDRESS, client_addresses=ClientAddresses(trusted_networks(PROXY_SOURCE))
    )
    first, said = await first_message(server.ws_url, "127.0.0.5", forwarded_for="203.0.113.9")
    assert said == "welcome"
    second, said = await first_message(server.ws_url, "127.0.0.5", forwarded_for="198.51.100.7")
    assert said == "limit_reached"
    for wire in (first, second):
        await wire.close()


def test_the_client_is_the_right_most_address_that_is_not_a_trusted_proxys() -> None:
    addresses = ClientAddresses(trusted_networks("10.0.0.0/24, fd00::/8"))

    assert addresses.of("10.0.0.2", ["6.6.6.6, 198.51.100.7", "10.0.0.9"]) == "198.51.100.7"
    assert addresses.of("10.0.0.2", ["10.0.0.3, 10.0.0.9"]) == "10.0.0.3"
    assert addresses.of("10.0.0.2", ["not-an-address, 10.0.0.9"]) == "10.0.0.9"
    assert addresses.of("10.0.0.2", []) == "10.0.0.2"
    assert addresses.of("198.51.100.7", ["10.0.0.3"]) == "198.51.100.7", "only a trusted peer's header counts"
    assert addresses.of("::ffff:198.51.100.7", []) == "198.51.100.7"


def test_an_ipv6_client_is_counted_by_its_64_bit_network() -> None:
    addresses = ClientAddresses()
    first = addresses.of("2001:db8:1:2::1", [])
    assert first == addresses.of("2001:db8:1:2:ffff::9", []) == str(ipaddress.ip_network("2001:db8:1:2::/64"))
    assert first != addresses.of("2001:db8:1:3::1", [])
