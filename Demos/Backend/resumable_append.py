"""One request's body appended to a resumable upload, under the upload's lease: the bytes go into S3 parts as they
arrive (the tail read back first, so parts stay whole), and whatever arrived is kept when the request ends early.

    append = Append(service, request, lease, state, version=8, complete=False, creation=False)
    return await append.run()          # answers the request; always gives the lease back

"Kept" means in S3 before the lease is given back: full parts, and the rest as the upload's tail object. Only an
instance killed mid-request loses what it had not yet written; the offset S3 shows then says where to resume.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.requests import ClientDisconnect

from http_protocol import EXTENSION as CONNECTION_EXTENSION
from part_pipeline import PartPipeline
from resumable_fields import BadRequest, Dropped, error_response
from resumable_store import UploadState
from upload_lease import LeaseLost, UploadLease

log = logging.getLogger("backend")


class Interrupted(Exception):
    """A newer request for the upload asked this one to end, or its lease was lost."""


class Append:
    def __init__(self, service, request: Request, lease: UploadLease, state: UploadState, *, version: int,
                 complete: bool, creation: bool) -> None:
        self.service = service
        self.request = request
        self.lease = lease
        self.record: dict[str, Any] = lease.record
        self.state = state
        self.version = version
        self.complete = complete
        self.creation = creation
        self.offset = state.offset
        self.received = 0
        self.dropped = False
        self._discarded = False
        self.sha = service.hashes.resume(lease.upload_id, appended_by=self.record.get("appendedBy"),
                                         offset=state.offset)
        self.control = request.scope.get("extensions", {}).get(CONNECTION_EXTENSION)
        self._task = asyncio.current_task()
        self._reading = True
        lease.on_stop = self._end

    def _end(self) -> None:
        """A newer request asked for the upload: end this one now, even while it waits for bytes. Once the body
        is in, the newer request waits for this one's answer instead."""
        if not self._reading:
            return
        if self.control is not None:
            self.control.abort()
        elif self._task is not None:
            self._task.cancel()

    async def run(self) -> Response:
        record, service = self.record, self.service
        pipeline = PartPipeline(
            service.storage, record["key"], record["partSize"], upload_id=record["s3UploadId"],
            parts=self.state.parts, before_write=self.lease.ensure,
            buffer=await service.store.read_tail(self.lease.upload_id) if self.state.tail_valid else b"",
        )
        appended = 0
        try:
            async for chunk in self.request.stream():
                if self.lease.stop_reason is not None:
                    raise Interrupted()
                if not chunk:
                    continue
                self.received += len(chunk)
                length = record.get("length")
                if length is not None and self.offset + len(chunk) > length:
                    # More than the declared length: the draft says the upload is invalid from now on.
                    await self._discard(pipeline)
                    raise BadRequest(400, "the content goes past the upload's length", **{"Upload-Complete": "?0"})
                if self.offset + len(chunk) > service.max_size:
                    await self._discard(pipeline)
                    raise BadRequest(413, f"the upload is larger than max-size ({service.max_size} bytes)")
                if appended + len(chunk) > service.max_append:
                    raise BadRequest(413, f"the request is larger than max-append-size ({service.max_append} bytes)")
                chunk = self._cut_at_drop_point(chunk)
                await pipeline.write(chunk)
                if self.sha is not None:
                    self.sha.update(chunk)
                self.offset += len(chunk)
                appended += len(chunk)
                if self.dropped:
                    raise Dropped()
            self._reading = False
            if not self.complete:
                if not await self._keep(pipeline):
                    raise LeaseLost(self.lease.upload_id)
                return await self._answer_incomplete()
            length = record.get("length")
            if length is not None and self.offset != length:
                await self._keep(pipeline)
                raise BadRequest(
                    400, f"the upload ends at {self.offset} bytes but its length is {length}",
                    problem="inconsistent-upload-length", **{"Upload-Complete": "?0"},
                )
            return await self._finish(pipeline)
        except BadRequest as exc:
            if not self._discarded:
                await self._keep(pipeline)
            return error_response(exc, self.version)
        except (ClientDisconnect, Dropped, Interrupted, asyncio.CancelledError):
            # Interrupted: what arrived stays appended, the client resumes from the offset.
            await self._keep(pipeline)
            if self.dropped and self.control is not None:
                self.control.abort()
            return Response(status_code=499)
        except LeaseLost:
            # Starved past its lease (another request may hold it now): write nothing more, and end the connection
            # so that the client asks for the offset and resumes, as after any drop.
            log.warning("upload %s: lease lost mid-request; its unwritten bytes are dropped", self.lease.upload_id)
            if self.control is not None:
                self.control.abort()
                return Response(status_code=499)
            return error_response(BadRequest(503, "the upload moved on; ask for its offset and resume"), self.version)
        except Exception:
            # S3 failed: keep what can be kept (the lease goes back either way), then a 500.
            if not self._discarded:
                await self._keep(pipeline)
            raise
        finally:
            await self.lease.stop_watching()

    def _cut_at_drop_point(self, chunk: bytes) -> bytes:
        """The drop hook (``X-Test-Drop-After``): the bytes up to a drop point, then the connection goes."""
        drop_at = next((p for p in self.record.get("dropPoints", []) if self.offset < p <= self.offset + len(chunk)),
                       None)
        if drop_at is None:
            return chunk
        if self.control is None:
            raise BadRequest(500, "the drop hook needs the server's ExtendedH11Protocol")
        self.dropped = True
        return chunk[: drop_at - self.offset]

    # ------------------------------------------------------------------ endings

    async def _keep(self, pipeline: PartPipeline) -> bool:
        """Writes what arrived (the last part in flight, then the rest as the tail) and gives the lease back.
        False when not all of it could be kept (S3 failed, or another request holds the upload now)."""
        service, upload_id = self.service, self.lease.upload_id
        kept = True
        try:
            await pipeline.settle()
            rest = pipeline.rest
            if rest and self.offset > self.state.offset:
                await self.lease.ensure()
                await service.store.write_tail(upload_id, rest, after_parts=len(pipeline.parts))
        except LeaseLost:
            log.warning("upload %s: taken over; %d bytes not kept", upload_id, len(pipeline.rest))
            return False
        except Exception:
            log.exception("upload %s: could not keep what arrived", upload_id)
            self.offset, kept = (await service.store.state(upload_id, self.record)).offset, False
        token, appended = self.lease.token, self.offset > self.state.offset
        self.record, _ = await self.lease.release(self._counted)
        if kept and appended and self.sha is not None and self.record.get("appendedBy") == token:
            service.hashes.keep(upload_id, token, self.offset, self.sha)
        return kept

    def _counted(self, record: dict[str, Any], **changes: Any) -> dict[str, Any]:
        """The record after this request: its counters, and who appended last (for the hash shortcut)."""
        counters = record.setdefault("counters", {})
        counters["requests"] = counters.get("requests", 0) + 1
        counters["bytesReceived"] = counters.get("bytesReceived", 0) + self.received
        counters["drops"] = counters.get("drops", 0) + (1 if self.dropped else 0)
        if self.received:
            names = counters.setdefault("instances", [])
            if self.service.settings.instance_name not in names:
                names.append(self.service.settings.instance_name)
        if self.offset > self.state.offset:
            record["appendedBy"] = self.lease.token
        record["length"], record["interop"] = self.record.get("length"), self.version
        record["touchedAt"] = time.time()
        record.update(changes)
        return record

    async def _discard(self, pipeline: PartPipeline) -> None:
        self._discarded = True
        await pipeline.abort()
        await self.lease.stop_watching()
        await self.service.store.discard(self.lease.upload_id, self.record)
        self.service.hashes.forget(self.lease.upload_id)

    async def _answer_incomplete(self) -> Response:
        headers = {
            "Upload-Draft-Interop-Version": str(self.version),
            "Upload-Complete": "?0",
            "Upload-Offset": str(self.offset),
            "Upload-Limit": self.service.upload_limit(self.record),
        }
        if self.creation:
            headers["Location"] = self.service.location(self.request, self.lease.upload_id)
        return Response(status_code=201 if self.creation else 204, headers=headers)

    async def _finish(self, pipeline: PartPipeline) -> Response:
        service, record, upload_id = self.service, self.record, self.lease.upload_id
        # If the completion fails, the pipeline still has the rest, kept as the tail below (run()): state() does
        # not count a short last part (no part may follow one), so the completion can be retried from S3's offset.
        await pipeline.finish()
        if self.sha is not None:
            sha256 = self.sha.hexdigest()
        else:
            sha256, _ = await service.storage.sha256(record["key"])
        final = {"success": True, "message": "File uploaded successfully", "fileId": record["fileId"],
                 "size": self.offset, "sha256": sha256}
        self.record, _ = await self.lease.release(lambda r: self._counted(r, final=final, length=self.offset))
        service.hashes.forget(upload_id)
        if self.state.tail_valid or self.offset > self.state.offset:
            service.background.run(service.storage.delete(service.store.tail_key(upload_id)), "removing a tail")
        # Our answer even if another request took the upload over meanwhile (its record then learns the final
        # answer from S3 when next asked): the object is complete either way.
        answered = {"id": upload_id, "final": final}
        return service.final_response(answered, self.version, self.request, creation=self.creation)
