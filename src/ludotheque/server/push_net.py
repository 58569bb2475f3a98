"""Where the server may post a push message: a push service on the public internet, never an address of its own
network (a subscription is a URL anyone may send, so without this the server is a proxy into its own network).

Two checks, both on the addresses a name resolves to (``socket.getaddrinfo``: every spelling a resolver accepts,
``2130706433``, ``0x7f.1``, ``[::ffff:127.0.0.1]``, reads as the address it means):

* at subscription, the endpoint is refused when any address of its host is loopback, private, link-local,
  multicast, reserved or unspecified (IPv4, IPv6 and IPv4 inside IPv6), or when its host is not in the allow-list
  (``Settings.push_hosts``, when one is set); a name that resolves to nothing yet is kept, for the next check;
* at each sending, the connection itself resolves the host again, checks every address the same way and connects
  to the address it checked, so a name that resolves elsewhere by then (DNS rebinding) reaches nothing.  Redirects
  are never followed, and no proxy from the environment is used.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError
from urllib3.util import connection

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
#: NAT64's well-known prefix: its last 32 bits are an IPv4 address
_NAT64 = ipaddress.ip_network("64:ff9b::/96")


class EndpointRefused(Exception):
    """A push endpoint this server will not post to, and why (said to the client as a 400)."""


def refusal(address: Address) -> str | None:
    """Why ``address`` is not a push service's (None: a public address).  An IPv6 address that carries an IPv4
    one (mapped, 6to4, Teredo, NAT64) is judged by both."""
    inner: list[Address] = [address]
    if isinstance(address, ipaddress.IPv6Address):
        inner += [a for a in (address.ipv4_mapped, address.sixtofour) if a is not None]
        inner += list(address.teredo or ())
        if address in _NAT64:
            inner.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    for a in inner:
        for kind in ("loopback", "private", "link_local", "multicast", "reserved", "unspecified"):
            if getattr(a, f"is_{kind}"):
                return f"{a} is a {kind.replace('_', '-')} address"
        if not a.is_global:
            return f"{a} is not a public address"
    return None


def resolve(host: str, port: int) -> list[Address]:
    """Every address ``host`` resolves to (``socket.gaierror`` when none)."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]


def host_allowed(host: str, allowed: tuple[str, ...]) -> bool:
    """``host`` is in the allow-list: named as it is, or under an entry that starts with ``*.`` or ``.``; an empty
    list allows every host (the addresses are checked all the same)."""
    host = host.lower().rstrip(".")
    for entry in allowed:
        entry = entry.lower().rstrip(".")
        suffix = entry[1:] if entry.startswith("*.") else entry if entry.startswith(".") else None
        if host == entry or (suffix is not None and host.endswith(suffix)):
            return True
    return not allowed


def check_address(host: str, port: int, allow_private: bool) -> list[Address]:
    """The addresses of ``host``, all public (``EndpointRefused`` otherwise; ``allow_private`` for a test's or a
    closed network's own push service)."""
    try:
        addresses = resolve(host, port)
    except (socket.gaierror, UnicodeError, ValueError):
        raise EndpointRefused(f"the push endpoint's host {host!r} does not resolve") from None
    if not allow_private:
        for address in addresses:
            why = refusal(address)
            if why is not None:
                raise EndpointRefused(f"the push endpoint's host {host!r} is not on the internet ({why})")
    return addresses


def check_endpoint(endpoint: str, schemes: tuple[str, ...], allowed: tuple[str, ...], allow_private: bool) -> None:
    """A subscription's endpoint, before it is kept: ``EndpointRefused`` says what is wrong with it."""
    try:
        url = urlsplit(endpoint)
        host, port = url.hostname, url.port or (443 if url.scheme == "https" else 80)
    except ValueError:
        raise EndpointRefused("the push endpoint is not a URL") from None
    if url.scheme not in schemes or not host:
        raise EndpointRefused("a push endpoint is an https address of a push service")
    if "@" in url.netloc:
        raise EndpointRefused("a push endpoint carries no user name or password")
    if not host_allowed(host, allowed):
        raise EndpointRefused(f"{host!r} is not one of this server's push services")
    try:
        resolve(host, port)
    except (socket.gaierror, UnicodeError, ValueError):
        return  # a name that resolves to nothing now is kept: each sending resolves it again and checks that
    check_address(host, port, allow_private)


def refused_in(error: BaseException) -> EndpointRefused | None:
    """The refusal behind a failed sending (requests wraps urllib3's error, which wraps it), if that was why."""
    seen: set[int] = set()
    stack: list[BaseException | None] = [error]
    while stack:
        current = stack.pop()
        if current is None or id(current) in seen:
            continue
        if isinstance(current, EndpointRefused):
            return current
        seen.add(id(current))
        stack += [current.__cause__, current.__context__, *(a for a in current.args if isinstance(a, BaseException))]
        stack.append(getattr(current, "reason", None))
    return None


# -- the sending: a requests session whose connections check where they go -------------------------------------


def _guarded(base: type[HTTPConnection], allow_private: bool, allowed: tuple[str, ...]) -> type[HTTPConnection]:
    class Guarded(base):  # type: ignore[valid-type,misc]
        def _new_conn(self) -> socket.socket:
            # the host as urllib3 will name it to the server (SNI, Host): the checked address is the one connected
            host = self._dns_host.strip("[]")
            try:
                if not host_allowed(host, allowed):
                    raise EndpointRefused(f"{host!r} is not one of this server's push services")
                addresses = check_address(host, self.port, allow_private)
            except EndpointRefused as refused:
                raise NewConnectionError(self, str(refused)) from refused
            try:
                return connection.create_connection((str(addresses[0]), self.port), self.timeout,
                                                    source_address=self.source_address,
                                                    socket_options=self.socket_options)
            except OSError as error:
                raise NewConnectionError(self, f"Failed to establish a new connection: {error}") from error

    return Guarded


class _NoRedirects(requests.Session):
    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs["allow_redirects"] = False  # a push service answers itself: a 3xx is a failure, never followed
        return super().request(*args, **kwargs)


class _GuardedAdapter(HTTPAdapter):
    def __init__(self, allow_private: bool, allowed: tuple[str, ...]) -> None:
        self._classes = (_guarded(HTTPConnection, allow_private, allowed),
                         _guarded(HTTPSConnection, allow_private, allowed))
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        plain, tls = self._classes

        class Plain(HTTPConnectionPool):
            ConnectionCls = plain

        class Tls(HTTPSConnectionPool):
            ConnectionCls = tls  # type: ignore[assignment]

        self.poolmanager.pool_classes_by_scheme = {"http": Plain, "https": Tls}


def session(allow_private: bool, allowed: tuple[str, ...]) -> requests.Session:
    """A session for one sending thread: redirects never followed, no proxy, every connection checked."""
    guarded = _NoRedirects()
    guarded.trust_env = False  # HTTPS_PROXY would connect elsewhere than to the checked address
    adapter = _GuardedAdapter(allow_private, allowed)
    guarded.mount("http://", adapter)
    guarded.mount("https://", adapter)
    return guarded
