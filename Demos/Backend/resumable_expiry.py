"""When resumable uploads expire: ``max-age`` seconds after their last append. Checked whenever an upload is asked
for, and swept in the background (on a creation, at most once per ``sweep_every`` seconds per instance:
``RESUMABLE_SWEEP_SECONDS``, default 60) for uploads nobody comes back for. An
expired upload is discarded under its lease: the multipart upload is aborted, the tail and the record removed.

    expiry = UploadExpiry(store, hashes, lease_seconds=10, max_age=3600, sweep_every=60)
    record, etag = await expiry.current(upload_id)     # Gone when expired (and discarded now)
    expiry.sweep_soon()
"""

from __future__ import annotations

import time
from typing import Any

from background import Background
from resumable_store import Gone, ResumableStore, remaining_age
from upload_hashes import UploadHashes
from upload_lease import Busy, UploadLease, wait_until_free


class UploadExpiry:
    def __init__(self, store: ResumableStore, hashes: UploadHashes, *, lease_seconds: int, max_age: int,
                 sweep_every: int) -> None:
        self.store = store
        self.hashes = hashes
        self.lease_seconds = lease_seconds
        self.max_age = max_age
        self.sweep_every = sweep_every
        self._last_sweep = 0.0
        self.background = Background()

    async def current(self, upload_id: str) -> tuple[dict[str, Any], str]:
        """The upload's record once no request holds it (asking a holder to end); expired ones are discarded."""
        record, etag = await wait_until_free(self.store, upload_id, self.lease_seconds)
        if remaining_age(record) <= 0:
            # Gone for the client at once; aborting its multipart upload and removing its objects can follow.
            self.background.run(self.expire(upload_id, (record, etag)), f"discarding expired upload {upload_id}")
            raise Gone(upload_id)
        return record, etag

    async def expire(self, upload_id: str, loaded: tuple[dict[str, Any], str]) -> None:
        try:
            lease = await UploadLease.acquire(self.store, upload_id, seconds=self.lease_seconds, record=loaded)
        except (Gone, Busy):
            return
        await lease.stop_watching()
        await self.store.discard(upload_id, lease.record)
        self.hashes.forget(upload_id)

    def sweep_soon(self) -> None:
        """Sweeps in the background (never in the way of the request that triggered it)."""
        if time.time() - self._last_sweep >= self.sweep_every:
            self.background.run(self.sweep(), "sweeping expired uploads")

    async def sweep(self) -> None:
        """Expires uploads nobody came back for (S3's lifecycle rule ``AbortIncompleteMultipartUpload`` is the
        backstop for uploads whose record is gone)."""
        now = time.time()
        if now - self._last_sweep < self.sweep_every:
            return
        self._last_sweep = now
        for upload_id, modified in await self.store.records():
            if now - modified < self.max_age:
                continue
            loaded = await self.store.load(upload_id)
            if loaded is not None and remaining_age(loaded[0], now) <= 0:
                await self.expire(upload_id, loaded)
