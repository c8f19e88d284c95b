"""Deletion-vector bytes of two engines for the same deletes on the same data files.

One table written by floe is registered a second time under another name (`floe register`):
the two tables share their data files, so a row has the same position in both. floe deletes
from one and Spark (Iceberg's Java writer) runs the same DELETE on the other; after each delete
both tables' live vectors must hold the same positions, and this module compares them: the
Puffin bytes each commit added, each data file's blob (length, cardinality, the bytes
themselves) and the Roaring containers inside (array, bitmap or run), to tell a difference of
serialization from one of positions.

Used by tests/interop/deletion_vector_bytes_test.py (small) and
bench/deletion_vector_spark_bench.py (the 10M-row figure).
"""

import json
import os
import struct
import zlib

DV_MAGIC = b"\xd1\xd3\x39\x64"


def local(path):
    """A file path as the engines record it (Spark writes file:/..., floe a bare path)."""
    for prefix in ("file://", "file:"):
        if path.startswith(prefix):
            return path[len(prefix):]
    return path


class Vector:
    """One live deletion vector: the Puffin file holding it and where its blob lies."""

    def __init__(self, puffin, offset, length, cardinality):
        self.puffin, self.offset, self.length, self.cardinality = local(puffin), offset, length, cardinality

    def blob(self):
        with open(self.puffin, "rb") as f:
            f.seek(self.offset)
            data = f.read(self.length)
        if len(data) != self.length:
            raise RuntimeError("%s: blob at %d of %d bytes runs past the file" % (self.puffin, self.offset, self.length))
        return data


def floe_vectors(floe, table):
    """{data file: Vector} of the table's current snapshot, from `floe delete-files`."""
    out = {}
    for line in floe.run("delete-files", table, "--format", "jsonl").splitlines():
        if line.strip():
            e = json.loads(line)
            if e["file_format"] != "PUFFIN":
                raise RuntimeError("%s: a delete file that is not a vector: %s" % (table, e["file_path"]))
            out[local(e["referenced_data_file"])] = Vector(e["file_path"], e["content_offset"],
                                                            e["content_size_in_bytes"], e["record_count"])
    return out


def spark_vectors(spark, table):
    """The same from Spark's delete_files metadata table."""
    spark.sql("REFRESH TABLE %s" % table)
    out = {}
    rows = spark.sql("SELECT file_format, file_path, referenced_data_file, content_offset, content_size_in_bytes, "
                     "record_count FROM %s.delete_files" % table).collect()
    for fmt, path, data_file, offset, length, count in rows:
        if fmt != "PUFFIN":
            raise RuntimeError("%s: a delete file that is not a vector: %s" % (table, path))
        out[local(data_file)] = Vector(path, offset, length, count)
    return out


def puffin_files_added(before, after):
    """(count, bytes on disk) of the Puffin files `after`'s vectors use that `before`'s did not."""
    old = {v.puffin for v in before.values()}
    new = sorted({v.puffin for v in after.values()} - old)
    return len(new), sum(os.path.getsize(p) for p in new)


def containers(blob):
    """{"array": n, "bitmap": n, "run": n, "bitmaps": n} of a deletion-vector blob: the kinds of
    its Roaring containers (the spec's layout, read independently of either engine)."""
    length = struct.unpack(">I", blob[:4])[0]
    if blob[4:8] != DV_MAGIC or length + 8 != len(blob):
        raise ValueError("not a deletion-vector-v1 blob")
    if struct.unpack(">I", blob[4 + length:])[0] != zlib.crc32(blob[4:4 + length]):
        raise ValueError("deletion vector checksum mismatch")
    body, at = blob[8:4 + length], 8  # after the count of bitmaps
    kinds = {"array": 0, "bitmap": 0, "run": 0, "bitmaps": struct.unpack_from("<Q", body, 0)[0]}
    for _ in range(kinds["bitmaps"]):
        at += 4  # the key (high 32 bits)
        cookie = struct.unpack_from("<I", body, at)[0]
        at += 4
        run_flags = b""
        if cookie & 0xFFFF == 12347:
            count = (cookie >> 16) + 1
            run_flags = body[at:at + (count + 7) // 8]
            at += (count + 7) // 8
            offsets = count >= 4
        elif cookie == 12346:
            count = struct.unpack_from("<I", body, at)[0]
            at += 4
            offsets = True
        else:
            raise ValueError("unknown Roaring cookie %d" % cookie)
        cards = [struct.unpack_from("<H", body, at + 4 * c + 2)[0] + 1 for c in range(count)]
        at += 4 * count + (4 * count if offsets else 0)
        for c in range(count):
            if run_flags and run_flags[c // 8] >> (c % 8) & 1:
                kinds["run"] += 1
                at += 2 + 4 * struct.unpack_from("<H", body, at)[0]
            elif cards[c] <= 4096:
                kinds["array"] += 1
                at += 2 * cards[c]
            else:
                kinds["bitmap"] += 1
                at += 8192
    if at != len(body):
        raise ValueError("deletion vector: %d bytes left after the bitmaps" % (len(body) - at))
    return kinds


def compare(floe_vecs, spark_vecs):
    """Per data file of either side: (name, floe Vector, spark Vector, blobs equal, floe kinds,
    spark kinds); a side without a vector for that file has None."""
    out = []
    for data_file in sorted(set(floe_vecs) | set(spark_vecs)):
        f, s = floe_vecs.get(data_file), spark_vecs.get(data_file)
        fb, sb = (f.blob() if f else None), (s.blob() if s else None)
        out.append((os.path.basename(data_file), f, s, fb is not None and fb == sb,
                    containers(fb) if fb else None, containers(sb) if sb else None))
    return out


def kinds_text(kinds):
    if kinds is None:
        return "-"
    return "/".join("%d %s" % (kinds[k], k) for k in ("array", "bitmap", "run") if kinds[k]) or "empty"
