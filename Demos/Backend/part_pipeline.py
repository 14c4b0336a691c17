"""Bytes cut into S3 parts as they arrive: one part uploading while the next fills, so an instance never holds
more than two parts of an upload in memory however large the upload is. The two part buffers are reused for the
whole upload (no allocation per part, nothing for the allocator to fragment).

    pipeline = PartPipeline(storage, "uploads/f.bin", part_size, upload_id=None)   # the upload starts lazily
    await pipeline.write(chunk)            # ships a part whenever one is full
    await pipeline.finish()                # the last part (or one PutObject when it never filled a part)

The resumable uploads start one with the upload's existing parts and its tail (see resumable_store.py).
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

from storage import Part, Storage


async def _allowed() -> None:
    return None


# A small upload's buffer grows with it up to this size; a larger one gets a buffer of a whole part at once.
GROWING_LIMIT = 1 << 20


class PartPipeline:
    def __init__(
        self, storage: Storage, key: str, part_size: int, *, upload_id: str | None = None,
        parts: list[Part] | None = None, buffer: bytes = b"", metadata: dict[str, str] | None = None,
        before_write: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.storage = storage
        self.key = key
        self.part_size = part_size
        self.upload_id = upload_id
        self.metadata = metadata
        # Awaited before every write to S3; raises to refuse it (a resumable upload whose lease was lost).
        self.before_write = before_write or _allowed
        # Parts already in S3 (for a resumed upload) and those this pipeline shipped, by number.
        self.parts: list[Part] = list(parts or [])
        # The part filling: grows while small, then a buffer of exactly one part, recycled for every later part.
        self._filling = bytearray(buffer)
        self._filled = len(buffer)
        self._spare: bytearray | None = None
        self._uploading: asyncio.Task | None = None

    @property
    def rest(self) -> bytearray:
        """The bytes past the shipped parts (the upload's tail); not to be changed. The part buffer is cut to them
        in place rather than copied (writing more still works: it grows again)."""
        del self._filling[self._filled:]
        return self._filling

    async def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = min(self.part_size - self._filled, len(view))
            if self._filled + n > len(self._filling) and self._filled + n > GROWING_LIMIT:
                # Past a small upload's size: one buffer of a whole part now, instead of growing one by reallocation
                # (which copies it, and for a moment holds it twice).
                whole = bytearray(self.part_size)
                whole[: self._filled] = memoryview(self._filling)[: self._filled]
                self._filling = whole
            # In place in a whole buffer; at the end of a growing one (an empty slice: the bytes are appended).
            self._filling[self._filled:self._filled + n] = view[:n]
            self._filled += n
            view = view[n:]
            if self._filled == self.part_size:
                await self._ship()

    async def _ship(self) -> None:
        # At most one part uploading: the next waits here while the request's bytes wait in the socket.
        await self.settle()
        await self.before_write()
        if self.upload_id is None:
            self.upload_id = await self.storage.create_multipart(self.key, self.metadata)
        part, self._filling, self._spare, self._filled = self._filling, self._spare or bytearray(), None, 0
        self._uploading = asyncio.create_task(self._upload(len(self.parts) + 1, part))

    async def _upload(self, number: int, body: bytearray) -> tuple[Part, bytearray]:
        etag = await self.storage.upload_part(self.key, self.upload_id, number, body)
        return Part(number, len(body), etag), body

    async def settle(self) -> None:
        """Waits for the part uploading now; raises its error."""
        task, self._uploading = self._uploading, None
        if task is not None:
            part, self._spare = await task
            self.parts.append(part)

    async def finish(self) -> None:
        """Stores the rest as the last part and completes the object. On failure nothing changes here: the rest
        is still the rest, and the parts are the whole ones."""
        await self.settle()
        self._spare = None  # one idle part buffer less
        await self.before_write()
        if self.upload_id is None:
            await self.storage.put(self.key, self.rest, metadata=self.metadata)
        else:
            parts = list(self.parts)
            if self._filled or not parts:
                number = len(parts) + 1
                rest = self.rest
                parts.append(Part(number, len(rest), await self.storage.upload_part(self.key, self.upload_id,
                                                                                    number, rest)))
            await self.storage.complete_multipart(self.key, self.upload_id, parts)
            self.parts = parts
        self._filling, self._filled = bytearray(), 0

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
