"""Client-supplied file names: never trusted as paths. A name is a safe basename or it is refused; the stored
object is named after a server-made id plus, at most, a plain extension.

    filename_problem("../../etc/x")            # "must not contain path separators"
    parse_content_disposition('form-data; name="file"; filename="a.usdz"')
    safe_extension("Robot.USDZ")               # ".usdz"
"""

from __future__ import annotations

import os
import re
import urllib.parse
from typing import Any

MAX_FILENAME_LEN = 200
EXT_RE = re.compile(r"^\.[A-Za-z0-9]{1,16}$")


def filename_problem(name: Any) -> str | None:
    """Return why ``name`` is not a safe basename, or None when it is safe."""
    if not isinstance(name, str):
        return "must be a string"
    if name == "":
        return "must not be empty"
    if len(name) > MAX_FILENAME_LEN:
        return f"must be at most {MAX_FILENAME_LEN} characters"
    if "\x00" in name:
        return "must not contain NUL"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in name):
        return "must not contain control characters"
    if "/" in name or "\\" in name:
        return "must not contain path separators"
    if ".." in name:
        return "must not contain '..'"
    if name in (".",) or name.strip() in ("", "."):
        return "must be a file name"
    if os.path.isabs(name) or re.match(r"^[A-Za-z]:", name):
        return "must not be an absolute path"
    return None



def _split_params(value: str) -> list[str]:
    """Split a header value on ';' outside of quoted strings."""
    parts, buf, in_quotes, escaped = [], [], False, False
    for ch in value:
        if in_quotes:
            buf.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_quotes = False
        elif ch == '"':
            in_quotes = True
            buf.append(ch)
        elif ch == ";":
            parts.append("".join(buf))
            buf = []
        else:
            buf.append(ch)
    parts.append("".join(buf))
    return [p.strip() for p in parts]


def parse_content_disposition(value: str) -> tuple[str, dict[str, str]]:
    """Parse Content-Disposition WITHOUT any path "fix-ups".

    Quoted values are kept raw (backslashes are not unescaped), so a filename
    that contains a backslash in any form is seen — and refused — as such.
    """
    disp, *params = _split_params(value)
    out: dict[str, str] = {}
    for p in params:
        key, sep, val = p.partition("=")
        if not sep:
            continue
        key = key.strip().lower()
        val = val.strip()
        if len(val) >= 2 and val[0] == '"' and val[-1] == '"':
            val = val[1:-1]
        if key == "filename*":
            charset, _, rest = val.partition("'")
            _lang, _, encoded = rest.partition("'")
            try:
                val = urllib.parse.unquote(encoded, encoding=charset or "utf-8", errors="strict")
            except (LookupError, UnicodeDecodeError):
                val = "\x00invalid"
        out.setdefault(key, val)
    return disp.strip().lower(), out


def safe_extension(name: str) -> str:
    """The name's extension, lower-cased, when it is plain (1-16 letters and digits); else none."""
    ext = os.path.splitext(name)[1]
    return ext.lower() if EXT_RE.match(ext) else ""
