"""PyIceberg reads a table floe evolved (tests/schema_pyiceberg_test.cc writes it).

The table was written as (id long, qty int, price float, amount decimal(9,2), loc struct<lat, lon>)
with two rows, then floe promoted qty/price/amount, renamed qty to quantity, moved amount first
and loc.lon before loc.lat, added loc.alt, and appended a third row. Usage:
    python schema_evolution_pyiceberg.py METADATA_JSON
Exits 0 when PyIceberg finds the expected schema and rows; otherwise prints what differs.
"""
import decimal
import sys

from pyiceberg.table import StaticTable
from pyiceberg.types import DecimalType, DoubleType, LongType, StructType


def main(metadata_path):
    table = StaticTable.from_metadata(metadata_path)
    schema = table.schema()
    problems = []

    names = [f.name for f in schema.fields]
    if names != ["amount", "id", "quantity", "price", "loc"]:
        problems.append(f"top-level order {names}")
    by_name = {f.name: f for f in schema.fields}
    expected_types = {"quantity": LongType(), "price": DoubleType(), "amount": DecimalType(12, 2)}
    for name, want in expected_types.items():
        if name in by_name and by_name[name].field_type != want:
            problems.append(f"{name} is {by_name[name].field_type}, want {want}")
    if "quantity" in by_name and by_name["quantity"].field_id != 2:
        problems.append(f"quantity has field id {by_name['quantity'].field_id}, want 2 (the old qty)")
    loc = by_name.get("loc")
    if loc is None or not isinstance(loc.field_type, StructType):
        problems.append("loc is not a struct")
    else:
        inner = [f.name for f in loc.field_type.fields]
        if inner != ["lon", "lat", "alt"]:
            problems.append(f"loc fields {inner}")

    rows = sorted(table.scan().to_arrow().to_pylist(), key=lambda r: r["id"])
    want = [
        {"amount": decimal.Decimal("123.45"), "id": 1, "quantity": 10, "price": 1.5,
         "loc": {"lon": 8.0, "lat": 50.0, "alt": None}},
        {"amount": decimal.Decimal("200.00"), "id": 2, "quantity": 20, "price": 2.5,
         "loc": {"lon": 9.0, "lat": 51.0, "alt": None}},
        {"amount": decimal.Decimal("1234567890.12"), "id": 3, "quantity": 5000000000, "price": 3.5,
         "loc": {"lon": 10.0, "lat": 52.0, "alt": 100.0}},
    ]
    if rows != want:
        problems.append(f"rows {rows}\n  want {want}")
    if rows and list(rows[0].keys()) != names:
        problems.append(f"row columns in order {list(rows[0].keys())}")

    if problems:
        print("PyIceberg disagrees:\n  " + "\n  ".join(problems))
        return 1
    print(f"PyIceberg read {len(rows)} rows under schema {schema.schema_id}: as floe wrote them")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
