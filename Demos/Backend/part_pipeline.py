"""Bytes cut into S3 parts as they arrive: one part uploading while the next fills, so an instance never holds
more than two parts of an upload in memory however large the upload is.

    pipeline = PartPipeline(storage, "uploads/f.bin", part_size, upload_id=None)   # the upload starts lazily
    await pipeline.write(chunk)            # ships a part whenever one is full
    await pipeline.finish()                # the last part (or one PutObject when it never filled a part)

The resumable uploads start one with the upload's existing parts and its tail (see resumable_store.py).
"""

from __future__ import annotations

import asyncio
from typing import Callable

from storage import Part, Storage


class PartPipeline:
    def __init__(
        self, storage: Storage, key: str, part_size: int, *, upload_id: str | None = None,
        parts: list[Part] | None = None, buffer: bytes = b"", metadata: dict[str, str] | None = None,
        before_write: Callable[[], None] | None = None,
    ) -> None:
        self.storage = storage
        self.key = key
        self.part_size = part_size
        self.upload_id = upload_id
        self.metadata = metadata
        # Called before every write to S3; raises to refuse it (a resumable upload whose lease was lost).
        self.before_write = before_write or (lambda: None)
        # Parts already in S3 (for a resumed upload) and those this pipeline shipped, by number.
        self.parts: list[Part] = list(parts or [])
        self.buffer = bytearray(buffer)
        self._uploading: asyncio.Task | None = None

    @property
    def next_part(self) -> int:
        return len(self.parts) + (1 if self._uploading is not None else 0) + 1

    @property
    def shipped_bytes(self) -> int:
        """Bytes in parts (uploaded or uploading), not counting the buffer."""
        return sum(p.size for p in self.parts) + (self.part_size if self._uploading is not None else 0)

    async def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            room = self.part_size - len(self.buffer)
            self.buffer += view[:room]
            view = view[room:]
            if len(self.buffer) == self.part_size:
                await self._ship()

    async def _ship(self) -> None:
        # At most one part uploading: the next waits here while the request's bytes wait in the socket.
        await self.settle()
        self.before_write()
        if self.upload_id is None:
            self.upload_id = await self.storage.create_multipart(self.key, self.metadata)
        part, self.buffer = self.buffer, bytearray()
        self._uploading = asyncio.create_task(self._upload(self.next_part, part))

    async def _upload(self, number: int, body: bytearray) -> Part:
        etag = await self.storage.upload_part(self.key, self.upload_id, number, body)
        return Part(number, len(body), etag)

    async def settle(self) -> None:
        """Waits for the part uploading now; raises its error."""
        task, self._uploading = self._uploading, None
        if task is not None:
            self.parts.append(await task)

    async def finish(self) -> None:
        """Stores the buffer as the last part and completes the object."""
        await self.settle()
        self.before_write()
        if self.upload_id is None:
            await self.storage.put(self.key, self.buffer, metadata=self.metadata)
            return
        if self.buffer or not self.parts:
            number = self.next_part
            etag = await self.storage.upload_part(self.key, self.upload_id, number, self.buffer)
            self.parts.append(Part(number, len(self.buffer), etag))
        self.buffer = bytearray()
        await self.storage.complete_multipart(self.key, self.upload_id, self.parts)

    async def abort(self) -> None:
        """Drops everything: the part uploading, the multipart upload and its parts (none left orphaned)."""
        task, self._uploading = self._uploading, None
        if task is not None:
            try:
                await task
            except Exception:  # noqa: BLE001 - the upload is being abandoned anyway
                pass
        if self.upload_id is not None:
            await self.storage.abort_multipart(self.key, self.upload_id)
