"""Work that must not hold up a response (housekeeping in S3): each task is kept until it is done, and its failure
is logged, never raised.

    background = Background()
    background.run(store.discard(upload_id, record), "discarding an expired upload")
"""

from __future__ import annotations

import asyncio
import logging
from typing import Coroutine

log = logging.getLogger("backend")


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task] = set()

    def run(self, work: Coroutine, what: str) -> None:
        async def quietly() -> None:
            try:
                await work
            except Exception:  # noqa: BLE001 - housekeeping must not fail anything
                log.exception("%s failed", what)

        task = asyncio.create_task(quietly())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
