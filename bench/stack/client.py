"""The players' HTTP: one fresh connection a request (so a killed server worker
costs one request, not a connection pool), cookies by hand, every answer timed and
kept for the count of 5xx."""

from __future__ import annotations

import http.client
import re
import threading
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Answer:
    """One request's outcome: ``status`` 0 when no answer came (a reset connection)."""

    status: int
    body: str
    location: str
    cookies: dict[str, str]
    ms: float
    at: float  # time.time() when it began


@dataclass
class Recorder:
    """Every answer's (time, status, what), shared by all players."""

    rows: list[tuple[float, int, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, at: float, status: int, what: str) -> None:
        with self.lock:
            self.rows.append((at, status, what))


def request(
    port: int,
    method: str,
    path: str,
    *,
    cookies: dict[str, str] | None = None,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    recorder: Recorder | None = None,
    what: str = "",
    timeout: float = 30.0,
) -> Answer:
    """One request to the server on ``port``; never raises for a network error."""
    sent = dict(headers or {})
    if cookies:
        sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
    at, t0 = time.time(), time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request(method, path, body=body, headers=sent)
        resp = conn.getresponse()
        text = resp.read().decode(errors="replace")
        jar: SimpleCookie = SimpleCookie()
        for header in resp.msg.get_all("Set-Cookie") or []:
            jar.load(header)
        answer = Answer(
            resp.status,
            text,
            resp.getheader("Location") or "",
            {k: m.value for k, m in jar.items()},
            (time.perf_counter() - t0) * 1e3,
            at,
        )
    except (OSError, http.client.HTTPException):
        answer = Answer(0, "", "", {}, (time.perf_counter() - t0) * 1e3, at)
    finally:
        conn.close()
    if recorder is not None:
        recorder.add(at, answer.status, what)
    return answer


def csrf_of(answer: Answer) -> tuple[str, str] | None:
    """The CSRF cookie a page set and its form's token."""
    found = CSRF_FIELD.search(answer.body)
    cookie = answer.cookies.get("csrftoken")
    if found is None or cookie is None:
        return None
    return cookie, found.group(1)
