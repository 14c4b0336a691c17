"""The reference reader for PhotoMetadataReader's comparison tests: prints one JSON object per file with the fields
PhotoMetadata reports, read by ExifTool (the EXIF/TIFF/GPS tags, from the standard places only: IFD0, the Exif IFD
and the GPS IFD, never XMP) and Pillow (format and pixel size).

    python3 reference_reader.py --exiftool EXIFTOOL FILE...
    python3 reference_reader.py --generate FOLDER   # writes Pillow-made photos with GPS, offsets, PNG eXIf, TIFF

ExifTool runs once for all files (`-json -n -G1 -a`, numbers read as their exact text). Fields follow the
conventions PhotoMetadata documents, applied to ExifTool's raw values: strings end at the first NUL without
trailing spaces, empty means absent; dates are EXIF's `YYYY:MM:DD HH:MM:SS` or ISO 8601 (`YYYY-MM-DDTHH:MM:SS`,
optional fraction and zone) and must be real calendar dates (checked with datetime), an ISO date's own zone winning
over `OffsetTime…`; coordinates are signed decimal degrees from 1-3 rationals and an N/S/E/W reference.
"""
import datetime
import json
import re
import subprocess
import sys
import warnings

from PIL import Image, UnidentifiedImageError

warnings.simplefilter("ignore")  # Pillow warns about tags past the end of the data

EXIF_DATE = re.compile(r"^\d{4}:\d{2}:\d{2} \d{2}:\d{2}:\d{2}$")
ISO_DATE = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}(?::?\d{2})?)?$")
OFFSET = re.compile(r"^[+-](\d{2}):(\d{2})$")


def exiftool_tags(exiftool, paths):
    """ExifTool's tags of every file, by path; numbers kept as their exact text (ExifTool leaves "1.00" unquoted)."""
    output = subprocess.run(
        [exiftool, "-json", "-n", "-G1", "-a", "-charset", "exif=utf8", *paths],
        capture_output=True, text=True, check=False).stdout
    return {entry["SourceFile"]: entry for entry in json.loads(output or "[]", parse_float=str, parse_int=str)}


def text(tags, name):
    value = tags.get(name)
    if value is None or isinstance(value, (list, dict)):
        return None
    value = str(value).split("\x00", 1)[0].rstrip(" ")
    return value or None


def offset_minutes(value):
    match = OFFSET.match(value or "")
    if not match or int(match.group(1)) > 14 or int(match.group(2)) > 59:
        return None
    minutes = int(match.group(1)) * 60 + int(match.group(2))
    return -minutes if value[0] == "-" else minutes


def formatted(moment, minutes):
    written = moment.strftime("%Y:%m:%d %H:%M:%S")
    if minutes is None:
        return written
    sign, magnitude = ("-" if minutes < 0 else "+"), abs(minutes)
    return f"{written}{sign}{magnitude // 60:02d}:{magnitude % 60:02d}"


def date(tags, name, offset_name):
    value = text(tags, name)
    if value is None:
        return None
    offset = offset_minutes(text(tags, offset_name))
    try:
        if EXIF_DATE.match(value):
            return formatted(datetime.datetime.strptime(value, "%Y:%m:%d %H:%M:%S"), offset)
        match = ISO_DATE.match(value)
        if match:
            moment = datetime.datetime.fromisoformat(match.group(1) + (match.group(2) or ""))
            if moment.tzinfo is not None:
                offset = int(moment.utcoffset().total_seconds() // 60)
                if abs(offset) > 14 * 60:
                    return None
            return formatted(moment, offset)
    except ValueError:
        return None
    return None


def integer(tags, name):
    value = tags.get(name)
    try:
        return int(str(value))
    except ValueError:
        return None


def rationals(value):
    """ExifTool's -n value of RATIONALs: numbers separated by spaces, "inf" for x/0 and "undef" for 0/0."""
    parts = []
    for part in str(value).split(" ")[:3]:
        if part == "undef":
            parts.append(0.0)
        else:
            try:
                number = float(part)
            except ValueError:
                return None
            if number != number or number in (float("inf"), float("-inf")):
                return None
            parts.append(number)
    return parts or None


def coordinate(tags, value_name, reference_name, positive, negative, limit):
    value, reference = tags.get(value_name), text(tags, reference_name)
    if value is None or reference is None or reference[0] not in (positive, negative):
        return None
    parts = rationals(value)
    if parts is None:
        return None
    degrees = sum(part / (60 ** index) for index, part in enumerate(parts))
    if degrees > limit:
        return None
    return degrees if reference[0] == positive else -degrees


def altitude(tags):
    value = tags.get("GPS:GPSAltitude")
    if value is None:
        return None
    parts = rationals(value)
    if parts is None:
        return None
    below = integer(tags, "GPS:GPSAltitudeRef") == 1
    return {"meters": parts[0], "reference": "belowSeaLevel" if below else "aboveSeaLevel"}


def read(path, tags):
    try:
        with Image.open(path) as image:
            container = {"JPEG": "jpeg", "PNG": "png", "TIFF": "tiff", "MPO": "jpeg"}.get(image.format)
            width, height = image.size
    except (UnidentifiedImageError, OSError) as error:
        return {"file": path, "error": "invalidImage", "reason": str(error)}
    orientation = integer(tags, "IFD0:Orientation")
    return {
        "file": path,
        "container": container,
        "hasExif": "File:ExifByteOrder" in tags or any(key.split(":")[0] in ("IFD0", "ExifIFD", "GPS") for key in tags),
        "make": text(tags, "IFD0:Make"),
        "model": text(tags, "IFD0:Model"),
        "software": text(tags, "IFD0:Software"),
        "lensMake": text(tags, "ExifIFD:LensMake"),
        "lensModel": text(tags, "ExifIFD:LensModel"),
        "pixelWidth": width,
        "pixelHeight": height,
        "captureDate": date(tags, "ExifIFD:DateTimeOriginal", "ExifIFD:OffsetTimeOriginal"),
        "modificationDate": date(tags, "IFD0:ModifyDate", "ExifIFD:OffsetTime"),
        "orientation": orientation if orientation in range(1, 9) else None,
        "latitude": coordinate(tags, "GPS:GPSLatitude", "GPS:GPSLatitudeRef", "N", "S", 90),
        "longitude": coordinate(tags, "GPS:GPSLongitude", "GPS:GPSLongitudeRef", "E", "W", 180),
        "altitude": altitude(tags),
    }


def generate(folder):
    """Photos written by Pillow (not by the reader under test) with the fields the real photos lack."""
    exif = Image.Exif()
    exif.update({271: "PENTAX", 272: "PENTAX K-1", 305: "Snapseed 2.0", 306: "2021:07:04 18:30:00", 274: 3})
    exif.get_ifd(0x8769).update({0x9003: "2021:07:04 18:29:59", 0x9011: "+10:00", 0x9010: "+10:00",
                                 0xA433: "RICOH", 0xA434: "smc PENTAX-FA 43mm F1.9 Limited"})
    exif.get_ifd(0x8825).update({1: "S", 2: (33.0, 51.0, 24.5), 3: "W", 4: (70.0, 12.0, 0.25), 5: b"\x01", 6: 12.5})
    Image.new("RGB", (64, 48), "teal").save(f"{folder}/pillow_gps_south_west.jpg", exif=exif)

    exif = Image.Exif()
    exif.update({271: "Google", 272: "Pixel 8", 306: "2024:03:10 07:00:00"})
    exif.get_ifd(0x8769).update({0x9003: "2024:03:10 06:58:00", 0x9011: "-08:00"})
    exif.get_ifd(0x8825).update({1: "N", 2: (37.0, 25.0, 19.2), 3: "E", 4: (122.0, 5.0, 6.0), 6: 1234.5})
    Image.new("RGB", (33, 21), "orange").save(f"{folder}/pillow_gps_north_east.png", exif=exif)
    Image.new("RGB", (35, 27), "navy").save(f"{folder}/pillow_progressive.jpg", exif=exif, progressive=True)

    Image.new("RGB", (40, 30), "gray").save(
        f"{folder}/pillow_tiff.tif", tiffinfo={271: "Nikon", 272: "D850", 305: "GIMP 2.10", 306: "2020:01:01 00:00:00"})


if __name__ == "__main__":
    if sys.argv[1:2] == ["--generate"]:
        generate(sys.argv[2])
    elif sys.argv[1:2] == ["--exiftool"]:
        paths = sys.argv[3:]
        everything = exiftool_tags(sys.argv[2], paths)
        for path in paths:
            print(json.dumps(read(path, everything.get(path, {})), sort_keys=True))
    else:
        sys.exit("usage: reference_reader.py --exiftool EXIFTOOL FILE... | --generate FOLDER")
