"""uvicorn's h11 protocol plus two things ASGI cannot express, offered to the app as a scope extension.

ASGI has no message for an informational response other than ``100 Continue`` and no way to drop a connection.
The resumable-upload endpoints need both: ``104 Upload Resumption Supported`` before the final response, and the
test hook that drops a connection after N bytes. ``run_stack.py`` starts uvicorn with
``--http http_protocol:ExtendedH11Protocol``; under any other protocol the extension is absent and the app does
without (no 104; the drop hook answers 500).

The app finds ``scope["extensions"]["unidirectional.connection"]``, a :class:`ConnectionControl`.
"""

from __future__ import annotations

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

EXTENSION = "unidirectional.connection"


class ConnectionControl:
    """What a request handler may do to its own connection."""

    def __init__(self, cycle) -> None:
        self._cycle = cycle

    def send_informational(self, status: int, headers: list[tuple[str, str]], reason: str) -> bool:
        """Write a 1xx response now; False when the final response has started or the client is gone."""
        cycle = self._cycle
        if not 100 <= status < 200 or status == 101:
            raise ValueError(f"not an informational status: {status}")
        if cycle.response_started or cycle.disconnected or cycle.transport.is_closing():
            return False
        event = h11.InformationalResponse(
            status_code=status,
            headers=[(name.encode("latin-1"), value.encode("latin-1")) for name, value in headers],
            reason=reason.encode("latin-1"),
        )
        cycle.transport.write(cycle.conn.send(event))
        return True

    def abort(self) -> None:
        """Drop the connection at once (a reset when unread bytes remain), as a broken network path would."""
        self._cycle.transport.abort()


class ExtendedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol; each request's scope carries a :class:`ConnectionControl`."""

    def handle_events(self) -> None:
        before = getattr(self, "cycle", None)
        super().handle_events()
        cycle = getattr(self, "cycle", None)
        # The request's task was created but has not run yet: the scope can still be completed.
        if cycle is not None and cycle is not before:
            cycle.scope.setdefault("extensions", {})[EXTENSION] = ConnectionControl(cycle)
