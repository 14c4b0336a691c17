"""S3, as the backend uses it: one boto3 client whose calls run in threads, so the event loop keeps serving.

    storage = Storage(settings)
    etag = await storage.put("resumable/x/record.json", body, if_none_match=True)   # PreconditionFailed if it exists
    parts = await storage.list_parts("uploads/f.bin", upload_id)                      # None once completed/aborted

Every byte an upload sends lands here (the backend keeps nothing on its own disk), so any instance can continue
what another started.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

log = logging.getLogger("backend")

NOT_FOUND = {"404", "NoSuchKey", "NotFound"}


class PreconditionFailed(Exception):
    """A conditional write lost: the object changed (If-Match) or exists already (If-None-Match)."""


def error_code(exc: ClientError) -> str:
    return str(exc.response.get("Error", {}).get("Code", ""))


def make_client(settings):
    return boto3.client(
        "s3",
        endpoint_url=settings.s3_endpoint_url,
        region_name=settings.region,
        aws_access_key_id=settings.access_key,
        aws_secret_access_key=settings.secret_key,
        config=Config(
            signature_version="s3v4",
            s3={"addressing_style": "path"},
            # Keep presigned PUT URLs free of SDK checksum parameters so any plain HTTP client can use them.
            request_checksum_calculation="when_required",
            response_checksum_validation="when_required",
            connect_timeout=2,
            # A part is up to S3_PART_BYTES; a busy store may take a while to take it.
            read_timeout=60,
            retries={"max_attempts": 2, "mode": "standard"},
            max_pool_connections=32,
        ),
    )


@dataclass
class Part:
    number: int
    size: int
    etag: str


class Storage:
    def __init__(self, settings) -> None:
        self.settings = settings
        self.bucket: str = settings.bucket
        self.client = make_client(settings)
        self._bucket_ready = False
        self._bucket_lock = threading.Lock()

    async def _call(self, operation: str, **kwargs: Any) -> dict[str, Any]:
        method = getattr(self.client, operation)
        return await asyncio.to_thread(method, Bucket=self.bucket, **kwargs)

    # ------------------------------------------------------------------ bucket

    @property
    def bucket_ready(self) -> bool:
        return self._bucket_ready

    def ensure_bucket(self) -> None:
        """Create the bucket if missing (blocking; call from a thread)."""
        with self._bucket_lock:
            if self._bucket_ready:
                return
            try:
                self.client.head_bucket(Bucket=self.bucket)
            except ClientError as exc:
                if error_code(exc) not in NOT_FOUND | {"NoSuchBucket"}:
                    raise
                kwargs: dict[str, Any] = {"Bucket": self.bucket}
                if self.settings.region != "us-east-1":
                    kwargs["CreateBucketConfiguration"] = {"LocationConstraint": self.settings.region}
                try:
                    self.client.create_bucket(**kwargs)
                except ClientError as exc2:
                    if error_code(exc2) not in ("BucketAlreadyOwnedByYou", "BucketAlreadyExists"):
                        raise
                log.info("created bucket %s", self.bucket)
            self._bucket_ready = True

    # ------------------------------------------------------------------ objects

    async def get(self, key: str) -> tuple[bytes, str, dict[str, str]] | None:
        """The object's bytes, ETag and metadata; None when there is none."""
        try:
            answer = await self._call("get_object", Key=key)
        except ClientError as exc:
            if error_code(exc) in NOT_FOUND:
                return None
            raise
        body = answer["Body"]
        try:
            data = await asyncio.to_thread(body.read)
        finally:
            body.close()
        return data, answer["ETag"], answer.get("Metadata", {})

    async def head(self, key: str) -> dict[str, Any] | None:
        try:
            return await self._call("head_object", Key=key)
        except ClientError as exc:
            if error_code(exc) in NOT_FOUND:
                return None
            raise

    async def put(
        self, key: str, body: bytes | bytearray, *, if_match: str | None = None, if_none_match: bool = False,
        metadata: dict[str, str] | None = None, content_type: str | None = None,
    ) -> str:
        """Writes the object; with `if_match` only over that version, with `if_none_match` only when absent.
        Returns the new ETag; raises PreconditionFailed when the condition does not hold."""
        kwargs: dict[str, Any] = {"Key": key, "Body": body}
        if if_match is not None:
            kwargs["IfMatch"] = if_match
        if if_none_match:
            kwargs["IfNoneMatch"] = "*"
        if metadata:
            kwargs["Metadata"] = metadata
        if content_type:
            kwargs["ContentType"] = content_type
        try:
            return (await self._call("put_object", **kwargs))["ETag"]
        except ClientError as exc:
            # If-Match on a missing object: S3 answers NoSuchKey; for a compare-and-swap that is a lost race too.
            if error_code(exc) in ("PreconditionFailed", "ConditionalRequestConflict") or (
                if_match is not None and error_code(exc) in NOT_FOUND
            ):
                raise PreconditionFailed(key) from None
            raise

    async def delete(self, key: str) -> None:
        await self._call("delete_object", Key=key)

    async def keys(self, prefix: str, limit: int = 10_000) -> list[tuple[str, datetime]]:
        """Keys under `prefix` with their LastModified, at most `limit`."""
        found: list[tuple[str, datetime]] = []
        kwargs: dict[str, Any] = {"Prefix": prefix}
        while len(found) < limit:
            answer = await self._call("list_objects_v2", **kwargs)
            found += [(item["Key"], item["LastModified"]) for item in answer.get("Contents", [])]
            if not answer.get("IsTruncated"):
                break
            kwargs["ContinuationToken"] = answer["NextContinuationToken"]
        return found[:limit]

    async def sha256(self, key: str) -> tuple[str, int]:
        """The SHA-256 and size of a stored object, read back in chunks."""

        def digest() -> tuple[str, int]:
            body = self.client.get_object(Bucket=self.bucket, Key=key)["Body"]
            sha, size = hashlib.sha256(), 0
            try:
                for chunk in body.iter_chunks(1 << 20):
                    sha.update(chunk)
                    size += len(chunk)
            finally:
                body.close()
            return sha.hexdigest(), size

        return await asyncio.to_thread(digest)

    # ------------------------------------------------------------------ multipart uploads

    async def create_multipart(self, key: str, metadata: dict[str, str] | None = None) -> str:
        answer = await self._call("create_multipart_upload", Key=key, Metadata=metadata or {})
        return answer["UploadId"]

    async def upload_part(self, key: str, upload_id: str, number: int, body: bytes | bytearray) -> str:
        answer = await self._call("upload_part", Key=key, UploadId=upload_id, PartNumber=number, Body=body)
        return answer["ETag"]

    async def list_parts(self, key: str, upload_id: str) -> list[Part] | None:
        """The upload's parts by number; None when the multipart upload is gone (completed or aborted)."""
        parts: list[Part] = []
        kwargs: dict[str, Any] = {"Key": key, "UploadId": upload_id}
        while True:
            try:
                answer = await self._call("list_parts", **kwargs)
            except ClientError as exc:
                if error_code(exc) in NOT_FOUND | {"NoSuchUpload"}:
                    return None
                raise
            parts += [Part(p["PartNumber"], p["Size"], p["ETag"]) for p in answer.get("Parts", [])]
            if not answer.get("IsTruncated"):
                return sorted(parts, key=lambda p: p.number)
            kwargs["PartNumberMarker"] = answer["NextPartNumberMarker"]

    async def complete_multipart(self, key: str, upload_id: str, parts: list[Part]) -> None:
        await self._call(
            "complete_multipart_upload", Key=key, UploadId=upload_id,
            MultipartUpload={"Parts": [{"PartNumber": p.number, "ETag": p.etag} for p in parts]},
        )

    async def abort_multipart(self, key: str, upload_id: str) -> None:
        """Aborts the upload and drops its parts; an upload already gone is fine."""
        try:
            await self._call("abort_multipart_upload", Key=key, UploadId=upload_id)
        except ClientError as exc:
            if error_code(exc) not in NOT_FOUND | {"NoSuchUpload"}:
                raise

    async def multipart_uploads(self, prefix: str) -> list[dict[str, Any]]:
        answer = await self._call("list_multipart_uploads", Prefix=prefix)
        return [{"key": u["Key"], "uploadId": u["UploadId"]} for u in answer.get("Uploads", [])]
