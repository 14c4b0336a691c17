"""The backend's configuration, read once from the environment (see the README's "Environment" table).

    settings = Settings()          # raises RuntimeError naming a malformed variable
    settings.bucket, settings.part_size, settings.instance_name
"""

from __future__ import annotations

import math
import os

MIB = 1 << 20
# S3 refuses parts under 5 MiB (all but the last) and takes at most 10,000 parts per upload.
MIN_PART_BYTES = 5 * MIB
MAX_PARTS = 10_000


def int_env(name: str, default: int, lo: int, hi: int) -> int:
    """The integer environment variable `name` (`default` when unset); RuntimeError when not in lo..hi."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise RuntimeError(f"{name} must be an integer, got {raw!r}") from None
    if not lo <= value <= hi:
        raise RuntimeError(f"{name} must be between {lo} and {hi}, got {value}")
    return value


class Settings:
    def __init__(self) -> None:
        env = os.environ
        self.api_token: str | None = env.get("BACKEND_API_TOKEN") or None
        self.s3_endpoint_url: str | None = env.get("S3_ENDPOINT_URL") or None
        self.bucket: str = env.get("S3_BUCKET") or "media"
        self.region: str = env.get("S3_REGION") or "us-east-1"
        self.access_key: str = env.get("AWS_ACCESS_KEY_ID") or "testing"
        self.secret_key: str = env.get("AWS_SECRET_ACCESS_KEY") or "testing"
        self.presign_expires: int = int_env("PRESIGN_EXPIRES_SECONDS", 900, 1, 604800)
        self.max_upload_bytes: int = int_env("MAX_UPLOAD_BYTES", 1 << 30, 1, 1 << 40)
        # Every upload is cut into parts of this size; a part is what an instance holds in memory (two at most:
        # one uploading to S3 while the next fills). Large enough that max-size fits in S3's 10,000 parts.
        configured = int_env("S3_PART_BYTES", 8 * MIB, MIN_PART_BYTES, 5 << 30)
        self.part_size: int = max(configured, math.ceil(self.max_upload_bytes / MAX_PARTS / MIB) * MIB)
        self.test_hooks: bool = env.get("BACKEND_TEST_HOOKS", "").strip() == "1"
        # Who answered, for logs and the test hooks; run_stack.py names its instances api-0, api-1, …
        self.instance_name: str = env.get("BACKEND_INSTANCE_NAME") or f"pid-{os.getpid()}"
        self.instance_index: int = int_env("BACKEND_INSTANCE_INDEX", 0, 0, 999)
        # Every instance's URL (comma-separated): the test hooks gather per-instance events from all of them.
        self.instances: list[str] = [u.strip() for u in env.get("BACKEND_INSTANCES", "").split(",") if u.strip()]
