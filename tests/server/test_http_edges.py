"""HTTP at its edges, over raw sockets: a body that is too big is refused
and the connection closed without the body read; a body that trickles
is cut off after --body-timeout; a client that goes mid-body leaves no
traceback; the Origin check does not believe a host name from the Host
header (DNS rebinding); the health check names no host or process to a
stranger."""

import socket
import time

from server.client import http


def raw_request(port, head, body=b"", read=True):
    """Send `head` (the request line and headers) and `body`; the answer's
    status line and whether the server closed the connection after it."""
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    s.sendall(head.encode() + b"\r\n" + body)
    raw = b""
    closed = False
    try:
        while True:
            got = s.recv(65536)
            if not got:
                closed = True
                break
            raw += got
            if b"\r\n\r\n" in raw and raw.rstrip().endswith(b"}") and not read:
                break
    except (ConnectionResetError, TimeoutError):
        closed = True
    s.close()
    return raw.split(b"\r\n", 1)[0].decode(), closed, raw


def test_too_big_is_refused_and_closed_without_reading(server):
    size = 64 << 20
    s = socket.create_connection(("127.0.0.1", server.port), timeout=20)
    s.sendall(("POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
               "Content-Type: application/json\r\nContent-Length: %d\r\n\r\n"
               % (server.port, size)).encode())
    block = b" " * (1 << 20)
    sent = 0
    try:
        while sent < size:
            s.sendall(block)
            sent += len(block)
    except (BrokenPipeError, ConnectionResetError):
        pass  # cut off: what it did not read, it did not take
    answer = b""
    try:
        while True:
            got = s.recv(65536)
            if not got:
                break
            answer += got
    except (ConnectionResetError, TimeoutError):
        pass
    s.close()
    # the answer came, and the connection was closed long before 64 MiB were taken
    assert sent < size // 2, "the server read %d MiB of a body it refused" % (sent >> 20)
    assert not answer or b" 413 " in answer.split(b"\r\n", 1)[0], answer[:80]


def test_a_trickling_body_is_cut_off(server_factory):
    s = server_factory("--body-timeout", "0.5")
    head = ("POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n" % s.port)
    began = time.monotonic()
    status, closed, raw = raw_request(s.port, head, b'{"name": ')
    assert " 400 " in status and b'"message"' in raw and closed, (status, raw)
    assert time.monotonic() - began < 5


def test_a_client_gone_mid_body_leaves_no_traceback(server_factory):
    s = server_factory()
    for _ in range(5):
        c = socket.create_connection(("127.0.0.1", s.port), timeout=20)
        c.sendall(("POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                   "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"na"
                   % s.port).encode())
        c.close()
    assert http(s.base, "GET", "/api/health")["ok"]  # it carries on, and its log holds
    assert "Traceback" not in s.log_text() and "create failed" not in s.log_text()


def test_a_host_name_is_not_believed_from_the_host_header(server_factory):
    s = server_factory("--origin", "http://dice.example:%d" % 1234)
    body = b'{"name": "Anna"}'

    def create(host, origin):
        head = ("POST /api/rooms HTTP/1.1\r\nHost: %s\r\nOrigin: %s\r\n"
                "Content-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n"
                % (host, origin, len(body)))
        return raw_request(s.port, head, body)[0]

    # a page whose name was pointed at this server, sending its own name as the Host
    assert " 400 " in create("evil.example:%d" % s.port, "http://evil.example:%d" % s.port)
    # the server's own address, and a name it was given with --origin
    assert " 200 " in create("127.0.0.1:%d" % s.port, "http://127.0.0.1:%d" % s.port)
    assert " 200 " in create("localhost:%d" % s.port, "http://localhost:%d" % s.port)
    assert " 200 " in create("dice.example:1234", "http://dice.example:1234")


def test_health_names_no_host_or_process_to_strangers(server_factory):
    s = server_factory("--operator-token", "t0ken")
    health = http(s.base, "GET", "/api/health")
    assert health["ok"] and "proc" not in health
    assert socket.gethostname() not in str(health)
    mine = http(s.base, "GET", "/api/health", headers={"Authorization": "Bearer t0ken"})
    assert mine["proc"].startswith(socket.gethostname())
