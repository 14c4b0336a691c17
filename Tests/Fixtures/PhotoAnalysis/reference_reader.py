"""The reference reader for PhotoMetadataReader's comparison tests: prints one JSON object per file with the fields
PhotoMetadata reports, read by exifread (EXIF/TIFF/GPS tags) and Pillow (format and pixel size).

    python3 reference_reader.py FILE...
    python3 reference_reader.py --generate FOLDER   # writes Pillow-made photos with GPS, offsets, PNG eXIf, TIFF

Fields follow the conventions PhotoMetadata documents, applied to the reference's raw values: strings end at the
first NUL (exifread already cuts there) without trailing spaces, empty means absent; dates must be real calendar dates
(checked with datetime); coordinates are signed decimal degrees from 1-3 rationals and an N/S/E/W reference.
"""
import datetime
import json
import logging
import sys
import warnings

import exifread
from PIL import Image, UnidentifiedImageError

logging.disable(logging.CRITICAL)  # exifread logs "Possibly corrupted field" for odd files
warnings.simplefilter("ignore")  # Pillow warns about tags past the end of the data


def text(tags, name):
    tag = tags.get(name)
    if tag is None or tag.field_type not in (1, 2, 7):
        return None
    value = tag.values
    if isinstance(value, list):  # BYTE/UNDEFINED: a list of numbers
        value = bytes(value).split(b"\x00", 1)[0].decode("utf-8", "replace")
    elif isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    value = value.rstrip(" ")
    return value or None


def date(tags, name, offset_name):
    value = text(tags, name)
    if value is None:
        return None
    try:
        datetime.datetime.strptime(value, "%Y:%m:%d %H:%M:%S")
    except ValueError:
        return None
    offset = text(tags, offset_name)
    if offset is not None:
        try:
            parsed = datetime.datetime.strptime(offset, "%z")
            hours, minutes = int(offset[1:3]), int(offset[4:6])
            if len(offset) != 6 or offset[3] != ":" or hours > 14 or parsed is None:
                offset = None
        except ValueError:
            offset = None
    return value + (offset or "")


def first_int(tags, name, types=(1, 3, 4)):
    tag = tags.get(name)
    if tag is None or tag.field_type not in types or not tag.values:
        return None
    return int(tag.values[0])


def ratio(value):
    numerator, denominator = int(value.numerator), int(value.denominator)
    if denominator == 0:
        return 0.0 if numerator == 0 else None
    return numerator / denominator


def coordinate(tags, value_name, reference_name, positive, negative, limit):
    value, reference = tags.get(value_name), text(tags, reference_name)
    if value is None or value.field_type != 5 or not value.values or reference is None:
        return None
    if reference[0] not in (positive, negative):
        return None
    parts = [ratio(part) for part in value.values[:3]]
    if any(part is None for part in parts):
        return None
    degrees = sum(part / (60 ** index) for index, part in enumerate(parts))
    if degrees > limit:
        return None
    return degrees if reference[0] == positive else -degrees


def altitude(tags):
    value = tags.get("GPS GPSAltitude")
    if value is None or value.field_type != 5 or not value.values:
        return None
    meters = ratio(value.values[0])
    if meters is None:
        return None
    below = first_int(tags, "GPS GPSAltitudeRef") == 1
    return {"meters": meters, "reference": "belowSeaLevel" if below else "aboveSeaLevel"}


def read(path):
    try:
        with Image.open(path) as image:
            container = {"JPEG": "jpeg", "PNG": "png", "TIFF": "tiff", "MPO": "jpeg"}.get(image.format)
            width, height = image.size
    except (UnidentifiedImageError, OSError) as error:
        return {"file": path, "error": "invalidImage", "reason": str(error)}
    with open(path, "rb") as handle:
        tags = exifread.process_file(handle, details=False)
    orientation = first_int(tags, "Image Orientation", (3,))
    report = {
        "file": path,
        "container": container,
        "hasExif": bool(tags),
        "make": text(tags, "Image Make"),
        "model": text(tags, "Image Model"),
        "software": text(tags, "Image Software"),
        "lensMake": text(tags, "EXIF LensMake"),
        "lensModel": text(tags, "EXIF LensModel"),
        "pixelWidth": width,
        "pixelHeight": height,
        "captureDate": date(tags, "EXIF DateTimeOriginal", "EXIF OffsetTimeOriginal"),
        "modificationDate": date(tags, "Image DateTime", "EXIF OffsetTime"),
        "orientation": orientation if orientation in range(1, 9) else None,
        "latitude": coordinate(tags, "GPS GPSLatitude", "GPS GPSLatitudeRef", "N", "S", 90),
        "longitude": coordinate(tags, "GPS GPSLongitude", "GPS GPSLongitudeRef", "E", "W", 180),
        "altitude": altitude(tags),
    }
    return report


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
    else:
        for path in sys.argv[1:]:
            print(json.dumps(read(path), sort_keys=True))
