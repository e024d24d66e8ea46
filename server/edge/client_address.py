"""Where a client connects from, as the per-address limits count it.

Behind a reverse proxy every socket's peer is the proxy: each limit per address (connections, new
names, wrong passwords, quick seeks) would count the whole site as one client. The proxy says who its
client is in `X-Forwarded-For` (HAProxy's `option forwardfor`, in the shipped configs), and that
header is believed only from the peers the operator trusts (`--trusted-proxies`): anyone else may
write anything in it. Read from the right, the header's first address that is not a trusted proxy's
is the client (each proxy appends the address it saw, so what a client wrote itself stands to the
left of it). An IPv6 client is counted by its /64 network, the block one subscriber is usually given.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass

IPV6_SUBSCRIBER_PREFIX = 64
"""How many leading bits of an IPv6 address name one client for the limits."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(text: str) -> tuple[Network, ...]:
    """`--trusted-proxies`: comma-separated addresses or networks (`10.0.0.5`, `10.0.0.0/24`,
    `fd00::/8`). Raises ValueError for one that is neither."""
    try:
        return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in text.split(",") if part.strip())
    except ValueError as error:
        raise ValueError(f"{text!r}: {error}") from None


@dataclass(frozen=True, slots=True)
class ClientAddresses:
    """Finds each connection's client address from its peer and the forwarded header."""

    trusted_proxies: tuple[Network, ...] = ()

    def of(self, peer: str, forwarded_for: Sequence[str]) -> str:
        """The address the limits count for a socket from `peer` whose request carried these
        `X-Forwarded-For` header lines (in order): the peer itself unless it is a trusted proxy, else
        the right-most address in the header that is not one (the left-most if all are). A header
        entry that is not an address ends the search at the last address believed."""
        client = _address(peer)
        if client is None or not self._trusted(client):
            return _counted(peer, client)
        hops = [hop.strip() for line in forwarded_for for hop in line.split(",")]
        for hop in reversed(hops):
            address = _address(hop)
            if address is None:
                break
            client = address
            if not self._trusted(address):
                break
        return _counted(str(client), client)

    def _trusted(self, address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        return any(address in network for network in self.trusted_proxies)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip().removeprefix("[").removesuffix("]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _counted(text: str, address: ipaddress.IPv4Address | ipaddress.IPv6Address | None) -> str:
    """The key the limits count: an IPv4 address as it is, an IPv6 address's /64 network."""
    if isinstance(address, ipaddress.IPv6Address):
        return str(ipaddress.ip_network(f"{address}/{IPV6_SUBSCRIBER_PREFIX}", strict=False))
    return text if address is None else str(address)
