"""Where a resumable upload lives in S3, so that any instance can answer for it and continue it.

One upload ``<id>`` is:

``resumable/<id>/record.json``
    Its record: the S3 multipart upload it maps to (``s3UploadId``, ``key``), the part size, its declared length,
    interop version, lifetime, the lease of the request appending now (``holder``), the final answer once complete.
    Only ever changed by conditional writes (``If-None-Match: *`` to create it, ``If-Match: <etag>`` to change it).
``uploads/<fileId><ext>``, multipart upload ``s3UploadId``
    Parts 1..n, each exactly ``partSize`` bytes: the file's first n × partSize bytes.
``resumable/<id>/tail``
    The bytes past the last part (shorter than a part), with metadata ``parts: n``: the number of parts it follows.
    A tail whose ``parts`` differs from the parts listed is stale (a later part took its bytes) and counts for
    nothing, so writing a part that absorbs the tail and then the new tail needs no transaction.

The offset is therefore computed from S3 alone: the listed parts' sizes plus the tail when it follows them.

    store = ResumableStore(storage, prefix="resumable/")
    record, etag = await store.load(upload_id)
    state = await store.state(upload_id, record)      # state.offset, state.parts, state.tail_valid
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from storage import Part, PreconditionFailed, Storage

CAS_ATTEMPTS = 50


class Gone(Exception):
    """No such upload (never existed, expired, cancelled)."""


@dataclass
class UploadState:
    parts: list[Part] = field(default_factory=list)
    tail_size: int = 0
    tail_valid: bool = False
    # None while the multipart upload exists; True when it was completed (the object is there), False when aborted.
    completed: bool | None = None

    @property
    def offset(self) -> int:
        return sum(p.size for p in self.parts) + (self.tail_size if self.tail_valid else 0)


class ResumableStore:
    def __init__(self, storage: Storage, prefix: str = "resumable/") -> None:
        self.storage = storage
        self.prefix = prefix

    def record_key(self, upload_id: str) -> str:
        return f"{self.prefix}{upload_id}/record.json"

    def tail_key(self, upload_id: str) -> str:
        return f"{self.prefix}{upload_id}/tail"

    # ------------------------------------------------------------------ the record

    async def create(self, record: dict[str, Any]) -> str:
        """Starts the multipart upload and writes the record (only if no record has that id); returns its ETag."""
        record["s3UploadId"] = await self.storage.create_multipart(record["key"], {"resumable-id": record["id"]})
        try:
            return await self.storage.put(self.record_key(record["id"]), encode(record), if_none_match=True)
        except Exception:
            await self.storage.abort_multipart(record["key"], record["s3UploadId"])
            raise

    async def load(self, upload_id: str) -> tuple[dict[str, Any], str] | None:
        found = await self.storage.get(self.record_key(upload_id))
        if found is None:
            return None
        data, etag, _ = found
        return json.loads(data), etag

    async def etag(self, upload_id: str) -> str | None:
        head = await self.storage.head(self.record_key(upload_id))
        return None if head is None else head["ETag"]

    async def save(self, upload_id: str, record: dict[str, Any], etag: str) -> str:
        """Replaces the record if it is still version `etag`; PreconditionFailed when someone changed it."""
        return await self.storage.put(self.record_key(upload_id), encode(record), if_match=etag)

    async def update(
        self, upload_id: str, change: Callable[[dict[str, Any]], dict[str, Any] | None]
    ) -> tuple[dict[str, Any], str]:
        """Read-modify-write until it wins: `change` gets a copy of the current record and returns the new one
        (None: leave it). Raises Gone when there is no record."""
        for _ in range(CAS_ATTEMPTS):
            loaded = await self.load(upload_id)
            if loaded is None:
                raise Gone(upload_id)
            record, etag = loaded
            new = change(json.loads(json.dumps(record)))
            if new is None:
                return record, etag
            try:
                return new, await self.save(upload_id, new, etag)
            except PreconditionFailed:
                await asyncio.sleep(0.02)
        raise RuntimeError(f"the record of upload {upload_id} kept changing")

    # ------------------------------------------------------------------ bytes

    async def state(self, upload_id: str, record: dict[str, Any]) -> UploadState:
        """Parts and tail as S3 has them now."""
        parts, tail = await asyncio.gather(
            self.storage.list_parts(record["key"], record["s3UploadId"]), self.storage.head(self.tail_key(upload_id))
        )
        if parts is None:
            completed = await self.storage.head(record["key"]) is not None
            return UploadState(completed=completed)
        # Parts are written in order, one at a time: 1..n, each a whole part. Anything past a gap was never
        # acknowledged; a short last part is a completion that did not finish (its bytes are in the tail).
        contiguous = [p for i, p in enumerate(parts) if p.number == i + 1]
        while contiguous and contiguous[-1].size != record["partSize"]:
            contiguous.pop()
        state = UploadState(parts=contiguous)
        if tail is not None:
            state.tail_size = int(tail["ContentLength"])
            state.tail_valid = tail.get("Metadata", {}).get("parts") == str(len(contiguous))
        return state

    async def read_tail(self, upload_id: str) -> bytes:
        found = await self.storage.get(self.tail_key(upload_id))
        return b"" if found is None else found[0]

    async def write_tail(self, upload_id: str, data: bytes | bytearray, after_parts: int) -> None:
        await self.storage.put(self.tail_key(upload_id), data, metadata={"parts": str(after_parts)})

    async def discard(self, upload_id: str, record: dict[str, Any]) -> None:
        """Aborts the multipart upload (its parts go), then removes the tail and the record. A completed
        upload's file stays."""
        if record.get("final") is None:
            await self.storage.abort_multipart(record["key"], record["s3UploadId"])
        await self.storage.delete(self.tail_key(upload_id))
        await self.storage.delete(self.record_key(upload_id))

    async def records(self) -> list[tuple[str, float]]:
        """Every upload id with its record's last-modified time (epoch seconds)."""
        found = await self.storage.keys(self.prefix)
        return [
            (key[len(self.prefix):].split("/", 1)[0], modified.timestamp())
            for key, modified in found
            if key.endswith("/record.json")
        ]


def encode(record: dict[str, Any]) -> bytes:
    return json.dumps(record, separators=(",", ":")).encode()


def remaining_age(record: dict[str, Any], now: float | None = None) -> float:
    """Seconds until the upload expires (its lifetime counts from its last append)."""
    return record["touchedAt"] + record["maxAge"] - (time.time() if now is None else now)
