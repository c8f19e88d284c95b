"""A real engine reads a table floe evolved (tests/schema_evolution_test.cc writes it).

The table was written as (id long, qty int, price float, amount decimal(9,2), loc struct<lat, lon>)
with two rows, then floe promoted qty/price/amount, renamed qty to quantity, moved amount first
and loc.lon before loc.lat, added loc.alt, and appended a third row. Usage:
    python schema_evolution_check.py pyiceberg METADATA_JSON
    python schema_evolution_check.py spark METADATA_JSON ICEBERG_SPARK_RUNTIME_JAR
Exits 0 when the engine finds the expected schema and rows; otherwise prints what differs.
"""
import decimal
import sys

# What either engine must see: columns in this order, these types, these rows (old files included).
WANT_COLUMNS = ["amount", "id", "quantity", "price", "loc"]
WANT_LOC_FIELDS = ["lon", "lat", "alt"]
WANT_ROWS = [
    {"amount": decimal.Decimal("123.45"), "id": 1, "quantity": 10, "price": 1.5,
     "loc": {"lon": 8.0, "lat": 50.0, "alt": None}},
    {"amount": decimal.Decimal("200.00"), "id": 2, "quantity": 20, "price": 2.5,
     "loc": {"lon": 9.0, "lat": 51.0, "alt": None}},
    {"amount": decimal.Decimal("1234567890.12"), "id": 3, "quantity": 5000000000, "price": 3.5,
     "loc": {"lon": 10.0, "lat": 52.0, "alt": 100.0}},
]


def compare(engine, columns, loc_fields, types, want_types, rows):
    problems = []
    if columns != WANT_COLUMNS:
        problems.append(f"top-level order {columns}")
    if loc_fields != WANT_LOC_FIELDS:
        problems.append(f"loc fields {loc_fields}")
    for name, want in want_types.items():
        if types.get(name) != want:
            problems.append(f"{name} is {types.get(name)}, want {want}")
    rows = sorted(rows, key=lambda r: r["id"])
    if rows != WANT_ROWS:
        problems.append(f"rows {rows}\n  want {WANT_ROWS}")
    if rows and list(rows[0].keys()) != WANT_COLUMNS:
        problems.append(f"row columns in order {list(rows[0].keys())}")
    if problems:
        print(f"{engine} disagrees:\n  " + "\n  ".join(problems))
        return 1
    print(f"{engine} read {len(rows)} rows as floe wrote them")
    return 0


def check_pyiceberg(metadata_path):
    from pyiceberg.table import StaticTable
    from pyiceberg.types import DecimalType, DoubleType, LongType

    table = StaticTable.from_metadata(metadata_path)
    schema = table.schema()
    by_name = {f.name: f for f in schema.fields}
    loc = by_name.get("loc")
    loc_fields = [f.name for f in loc.field_type.fields] if loc is not None and loc.field_type.is_struct else None
    types = {name: f.field_type for name, f in by_name.items()}
    if "quantity" in by_name and by_name["quantity"].field_id != 2:
        print(f"PyIceberg: quantity has field id {by_name['quantity'].field_id}, want 2 (the old qty)")
        return 1
    rows = table.scan().to_arrow().to_pylist()
    return compare("PyIceberg", [f.name for f in schema.fields], loc_fields, types,
                   {"quantity": LongType(), "price": DoubleType(), "amount": DecimalType(12, 2)}, rows)


def check_spark(metadata_path, runtime_jar):
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").appName("floe-schema-evolution")
             .config("spark.jars", runtime_jar).config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", "1").getOrCreate())
    try:
        # Iceberg's Spark source loads a table straight from a metadata file's path.
        df = spark.read.format("iceberg").load(metadata_path)
        fields = {f.name: f for f in df.schema.fields}
        loc = fields.get("loc")
        loc_fields = [f.name for f in loc.dataType.fields] if loc is not None else None
        types = {name: f.dataType.simpleString() for name, f in fields.items()}
        rows = [r.asDict(recursive=True) for r in df.collect()]
        return compare("Spark", df.columns, loc_fields, types,
                       {"quantity": "bigint", "price": "double", "amount": "decimal(12,2)"}, rows)
    finally:
        spark.stop()


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "pyiceberg":
        sys.exit(check_pyiceberg(sys.argv[2]))
    if len(sys.argv) >= 4 and sys.argv[1] == "spark":
        sys.exit(check_spark(sys.argv[2], sys.argv[3]))
    print(__doc__)
    sys.exit(2)
