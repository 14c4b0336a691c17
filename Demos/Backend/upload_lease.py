"""One request at a time appends to an upload, whichever instance it reached: a lease held in the upload's record
in S3, taken and given back by conditional writes (``If-Match`` on the record's ETag).

    lease = await UploadLease.acquire(store, upload_id, seconds=5)   # waits (bounded) for the holder to let go
    lease.on_stop = connection.abort                                  # a newer request asked: end this one
    ...                                                               # append, while lease.valid()
    record, etag = await lease.release(lambda record: record)

The draft says a new request for an upload means the client gave up on the one still running, and the server
should end that one. Here the newcomer sets ``wanted`` in the record; the holder watches its record's ETag (a HEAD
every ``WATCH_EVERY`` seconds), sees the change, keeps what arrived and lets go. A holder that died (a killed instance)
stops renewing: its lease runs out after ``seconds`` and the next request takes it. A holder that lost its lease
(starved past its expiry and taken over) notices on its next renewal or watch and stops writing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from typing import Any, Callable

from resumable_store import Gone, ResumableStore
from storage import PreconditionFailed

log = logging.getLogger("backend")

# How often a waiting request looks at the record, and how often a holder checks whether someone asked for it.
POLL = 0.2
WATCH_EVERY = 0.5
# How long a request waits for the holder to let go before it answers 503 (the client asks again): a holder that
# is completing (S3 assembling the object) or that died (its lease not yet out) may take longer than a client waits.
MAX_WAIT = 8.0


class Busy(Exception):
    """The upload's holder did not let go within the wait."""


class LeaseLost(Exception):
    """Another request holds the upload now: this one may not write anymore."""


class UploadLease:
    def __init__(self, store: ResumableStore, upload_id: str, token: str, record: dict[str, Any], etag: str,
                 seconds: float) -> None:
        self.store = store
        self.upload_id = upload_id
        self.token = token
        self.record = record
        self.etag = etag
        self.seconds = seconds
        self.until = record["holder"]["until"]
        # None while held; "takeover" when a newer request asked for the upload, "lost" when another took it.
        self.stop_reason: str | None = None
        self.on_stop: Callable[[], None] | None = None
        self._watch: asyncio.Task | None = None

    # ------------------------------------------------------------------ taking it

    @classmethod
    async def acquire(cls, store: ResumableStore, upload_id: str, *, seconds: float,
                      record: tuple[dict[str, Any], str] | None = None) -> "UploadLease":
        """Takes the lease: at once when free or expired, else after asking the holder to let go and waiting a
        while (``MAX_WAIT``). Raises Gone (no record) or Busy."""
        token = uuid.uuid4().hex
        deadline = time.monotonic() + min(seconds + 2, MAX_WAIT)
        loaded = record
        while True:
            if loaded is None:
                loaded = await store.load(upload_id)
                if loaded is None:
                    raise Gone(upload_id)
            current, etag = loaded
            now = time.time()
            holder = current.get("holder")
            if holder is None or holder["until"] <= now:
                taken = {**current, "holder": {"token": token, "until": now + seconds}, "wanted": False}
                try:
                    new_etag = await store.save(upload_id, taken, etag)
                except PreconditionFailed:
                    loaded = None
                    continue
                lease = cls(store, upload_id, token, taken, new_etag, seconds)
                lease._watch = asyncio.create_task(lease._keep())
                return lease
            await ask_to_let_go(store, upload_id, current, etag)
            if time.monotonic() >= deadline:
                raise Busy(upload_id)
            await asyncio.sleep(POLL)
            loaded = None

    @staticmethod
    def new_holder(seconds: float) -> dict[str, Any]:
        """A lease for a record being created (its creator holds it)."""
        return {"token": uuid.uuid4().hex, "until": time.time() + seconds}

    @classmethod
    def held(cls, store: ResumableStore, record: dict[str, Any], etag: str, seconds: float) -> "UploadLease":
        """The lease of a record this request just created with ``new_holder``."""
        lease = cls(store, record["id"], record["holder"]["token"], record, etag, seconds)
        lease._watch = asyncio.create_task(lease._keep())
        return lease

    # ------------------------------------------------------------------ holding it

    def valid(self) -> bool:
        """Still ours, with a margin before it runs out, as far as this instance knows."""
        return self.stop_reason != "lost" and time.time() < self.until - min(1.0, self.seconds / 4)

    async def ensure(self) -> None:
        """Returns when this request may write: the lease is valid, or its time ran out (an instance starved of
        CPU, a slow S3) but nobody took it, and it is renewed now. Raises LeaseLost when another request holds it."""
        for _ in range(3):
            if self.stop_reason == "lost":
                break
            if self.valid():
                return
            await self._renew()
        raise LeaseLost(self.upload_id)

    def _stop(self, reason: str) -> None:
        if self.stop_reason is None or reason == "lost":
            first = self.stop_reason is None
            self.stop_reason = reason
            if first and self.on_stop is not None:
                self.on_stop()

    async def _keep(self) -> None:
        """Watches the record (a newer request asking, another holder) and renews the lease before it runs out."""
        renew_every = min(self.seconds / 4, 2.0)
        last_renewal = time.monotonic()
        while self.stop_reason != "lost":
            await asyncio.sleep(WATCH_EVERY)
            try:
                if await self.store.etag(self.upload_id) != self.etag:
                    await self._reread()
                if self.stop_reason is None and time.monotonic() - last_renewal >= renew_every:
                    await self._renew()
                    last_renewal = time.monotonic()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - S3 hiccup: the lease margin covers a missed round
                log.warning("lease watch on %s: %s", self.upload_id, exc)

    async def _reread(self) -> None:
        loaded = await self.store.load(self.upload_id)
        if loaded is None or (loaded[0].get("holder") or {}).get("token") != self.token:
            self._stop("lost")
            return
        self.record, self.etag = loaded
        if self.record.get("wanted"):
            self._stop("takeover")

    async def _renew(self) -> None:
        until = time.time() + self.seconds
        renewed = {**self.record, "holder": {"token": self.token, "until": until}}
        try:
            self.etag = await self.store.save(self.upload_id, renewed, self.etag)
            self.record, self.until = renewed, until
        except PreconditionFailed:
            await self._reread()

    async def release(self, change: Callable[[dict[str, Any]], dict[str, Any]]) -> tuple[dict[str, Any], str]:
        """Gives the lease back, writing `change(record)` with it. Raises Gone if the record went away."""
        await self.stop_watching()

        def released(record: dict[str, Any]) -> dict[str, Any] | None:
            if (record.get("holder") or {}).get("token") != self.token:
                return None  # taken over meanwhile: nothing of ours to write
            record = change(record)
            record["holder"], record["wanted"] = None, False
            return record

        # Most often the record is still the version this request last saw: one conditional write.
        mine = released(json.loads(json.dumps(self.record)))
        if mine is not None:
            with contextlib.suppress(PreconditionFailed):
                return mine, await self.store.save(self.upload_id, mine, self.etag)
        return await self.store.update(self.upload_id, released)

    async def stop_watching(self) -> None:
        task, self._watch = self._watch, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def ask_to_let_go(store: ResumableStore, upload_id: str, record: dict[str, Any], etag: str) -> None:
    """Marks the record ``wanted`` (once): its holder ends its request and lets go."""
    if record.get("wanted"):
        return
    with contextlib.suppress(PreconditionFailed):
        await store.save(upload_id, {**record, "wanted": True}, etag)


async def wait_until_free(store: ResumableStore, upload_id: str, seconds: float) -> tuple[dict[str, Any], str]:
    """The record once nobody holds it (asking a holder to let go, waiting a while for it). Raises Gone or Busy."""
    deadline = time.monotonic() + min(seconds + 2, MAX_WAIT)
    while True:
        loaded = await store.load(upload_id)
        if loaded is None:
            raise Gone(upload_id)
        record, etag = loaded
        holder = record.get("holder")
        if holder is None or holder["until"] <= time.time():
            return record, etag
        await ask_to_let_go(store, upload_id, record, etag)
        if time.monotonic() >= deadline:
            raise Busy(upload_id)
        await asyncio.sleep(POLL)
