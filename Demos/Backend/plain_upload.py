"""A plain upload: the request body is the file, streamed into S3 as it arrives (parts of ``part_size``, one
uploading while the next fills); on any failure or a client that hangs up, the multipart upload is aborted and
nothing is left behind.

    return await plain_upload(request, storage, key_for=lambda file_id: f"uploads/{file_id}.bin",
                              part_size=8 << 20, max_size=1 << 30)
"""

from __future__ import annotations

import hashlib
import uuid
from typing import Callable

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.requests import ClientDisconnect

from part_pipeline import PartPipeline
from storage import Storage


async def plain_upload(request: Request, storage: Storage, *, key_for: Callable[[str], str], part_size: int,
                       max_size: int) -> Response:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > max_size:
        return JSONResponse({"success": False, "message": f"file too large (limit {max_size} bytes)"}, status_code=413)
    file_id = str(uuid.uuid4())
    pipeline = PartPipeline(storage, key_for(file_id), part_size)
    sha, size = hashlib.sha256(), 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > max_size:
                await pipeline.abort()
                return JSONResponse({"success": False, "message": "file too large"}, status_code=413)
            sha.update(chunk)
            await pipeline.write(chunk)
        await pipeline.finish()
    except ClientDisconnect:
        await pipeline.abort()
        return Response(status_code=499)
    except BaseException:
        await pipeline.abort()
        raise
    return JSONResponse(
        {"success": True, "message": "File uploaded successfully", "fileId": file_id, "size": size,
         "sha256": sha.hexdigest()},
        status_code=201,
    )
