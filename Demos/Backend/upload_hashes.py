"""The SHA-256 of resumable uploads, kept while an instance is the one appending to them: a shortcut, never the
truth. S3 cannot hand out a running hash, and an upload's parts cannot be read back before it completes, so an
instance that saw every byte of an upload hashes them as they pass; any other completes the upload and then
reads the object back to hash it.

    hashes = UploadHashes()
    sha = hashes.resume(upload_id, appended_by=record["appendedBy"], offset=state.offset)   # None: not ours
    ...
    hashes.keep(upload_id, token, new_offset, sha)

An entry counts only when the record still names this instance's last append (``appendedBy``) and S3's offset is
the one it hashed up to: then no other request has touched the bytes since.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any

MAX_ENTRIES = 256


class UploadHashes:
    def __init__(self) -> None:
        self._entries: OrderedDict[str, tuple[str, int, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def resume(self, upload_id: str, *, appended_by: str | None, offset: int) -> Any | None:
        """A hash of the upload's first `offset` bytes to continue, or None when this instance has none."""
        if offset == 0:
            return hashlib.sha256()
        with self._lock:
            entry = self._entries.pop(upload_id, None)
        if entry is None:
            return None
        token, hashed, sha = entry
        return sha if token == appended_by and hashed == offset else None

    def keep(self, upload_id: str, token: str, offset: int, sha: Any) -> None:
        with self._lock:
            self._entries[upload_id] = (token, offset, sha)
            self._entries.move_to_end(upload_id)
            while len(self._entries) > MAX_ENTRIES:
                self._entries.popitem(last=False)

    def forget(self, upload_id: str) -> None:
        with self._lock:
            self._entries.pop(upload_id, None)
