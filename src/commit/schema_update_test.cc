// Schema changes people expect (issue 41): type promotion, optional, doc, moves, and nested
// fields in structs, lists and maps. Each change is checked on the schema it gives, each
// refusal on its message (which names the column), and the data changes on files written
// before them, read back after each.
#include <filesystem>

#include <gtest/gtest.h>

#include "catalog/catalog.h"
#include "scan/table_scan.h"
#include "rows/row_writes.h"
#include "commit/schema_update.h"
#include "types/partition_spec.h"
#include "types/schema_text.h"
#include "util/uuid.h"

namespace floe {
namespace {

NestedField Field(int id, std::string name, TypePtr type, bool required = false) {
  return NestedField{id, std::move(name), std::move(type), required, ""};
}

// A throwaway SQLite catalog holding one table of the given schema.
class EvolvingTable {
 public:
  EvolvingTable(const Schema& schema, int format_version, const std::string& partition_by = "") {
    dir_ = (std::filesystem::temp_directory_path() / ("floe-schema-" + RandomUuidString().substr(0, 12))).string();
    std::filesystem::create_directories(dir_);
    auto catalog = OpenCatalog("sqlite://" + dir_ + "/catalog.db");
    EXPECT_TRUE(catalog.has_value()) << (catalog ? "" : catalog.error().message);
    catalog_ = std::move(*catalog);
    EXPECT_TRUE(catalog_->CreateNamespace({"db"}, {}).has_value());
    CreateTableRequest request;
    request.schema = schema;
    request.format_version = format_version;
    if (!partition_by.empty()) {
      auto fields = ParsePartitionFields(partition_by, schema, PartitionSpec::kFirstFieldId);
      EXPECT_TRUE(fields.has_value()) << (fields ? "" : fields.error().message);
      request.spec = PartitionSpec(0, *fields);
    }
    auto created = catalog_->CreateTable(id_, request);
    EXPECT_TRUE(created.has_value()) << (created ? "" : created.error().message);
  }
  ~EvolvingTable() {
    catalog_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  Catalog& catalog() { return *catalog_; }
  const TableIdentifier& id() const { return id_; }
  TableMetadata Metadata() {
    auto t = catalog_->LoadTable(id_);
    EXPECT_TRUE(t.has_value());
    return t->metadata;
  }
  Result<Schema> Apply(const SchemaUpdate& update) { return update.Apply(Metadata()); }
  Result<LoadedTable> Commit(const SchemaUpdate& update) { return UpdateSchema(*catalog_, id_, update); }
  Result<ColumnBatch> Read(const std::string& filter = "") {
    ScanOptions options;
    options.filter_text = filter;
    return ReadTable(*catalog_->io(), Metadata(), options);
  }

 private:
  std::string dir_;
  TableIdentifier id_{{"db"}, "t"};
  std::unique_ptr<Catalog> catalog_;
};

// Every kind of nested field, for the schema-level checks (no data: floe writes no lists or maps).
Schema NestedSchema() {
  return Schema(0, {
                       Field(1, "id", Type::Long(), true),
                       Field(2, "qty", Type::Int()),
                       Field(3, "loc", Type::Struct({Field(4, "lat", Type::Double()), Field(5, "lon", Type::Double())})),
                       Field(6, "points", Type::List(Field(7, "element", Type::Struct({Field(8, "x", Type::Int()),
                                                                                        Field(9, "y", Type::Int())}),
                                                           true))),
                       Field(10, "tags", Type::Map(Field(11, "key", Type::String(), true),
                                                   Field(12, "value", Type::Struct({Field(13, "score", Type::Int())})))),
                       Field(14, "mk", Type::Map(Field(15, "key", Type::Struct({Field(16, "a", Type::Int(), true)}), true),
                                                 Field(17, "value", Type::Int()))),
                       Field(18, "day", Type::Date()),
                       Field(19, "amount", Type::Decimal(9, 2)),
                       Field(20, "price", Type::Float()),
                       Field(21, "nums", Type::List(Field(22, "element", Type::Int()))),
                       Field(23, "must", Type::Int(), true),
                   });
}

std::vector<std::string> Names(const std::vector<NestedField>& fields) {
  std::vector<std::string> out;
  for (const auto& f : fields) out.push_back(f.name);
  return out;
}

TEST(SchemaUpdates, PromotionsAllowedByTheSpecAndTheFormatVersion) {
  EXPECT_TRUE(CanPromote(*Type::Int(), *Type::Long()));
  EXPECT_TRUE(CanPromote(*Type::Float(), *Type::Double()));
  EXPECT_TRUE(CanPromote(*Type::Decimal(9, 2), *Type::Decimal(12, 2)));
  EXPECT_FALSE(CanPromote(*Type::Decimal(9, 2), *Type::Decimal(8, 2)));
  EXPECT_FALSE(CanPromote(*Type::Decimal(9, 2), *Type::Decimal(12, 3)));
  EXPECT_FALSE(CanPromote(*Type::Long(), *Type::Int()));
  EXPECT_FALSE(CanPromote(*Type::Double(), *Type::Float()));
  EXPECT_FALSE(CanPromote(*Type::Int(), *Type::Double()));
  EXPECT_FALSE(CanPromote(*Type::Date(), *Type::Timestamp(), 2));
  EXPECT_TRUE(CanPromote(*Type::Date(), *Type::Timestamp(), 3));
  EXPECT_TRUE(CanPromote(*Type::Date(), *Type::TimestampNs(), 3));
  EXPECT_FALSE(CanPromote(*Type::Date(), *Type::TimestampTz(), 3));
  EXPECT_FALSE(CanPromote(*Type::Date(), *Type::TimestampTzNs(), 3));
}

TEST(SchemaUpdates, UpdateColumnPromotesMakesOptionalAndSetsDocs) {
  EvolvingTable t(NestedSchema(), 2);
  ColumnChange change;
  change.type = Type::Long();
  change.doc = "items ordered";
  auto s = t.Apply(SchemaUpdate()
                       .UpdateColumn("qty", change)
                       .UpdateColumn("must", {.make_optional = true})
                       .UpdateColumnType("amount", Type::Decimal(12, 2))
                       .UpdateColumnType("price", Type::Double())
                       .UpdateColumnType("points.element.x", Type::Long())
                       .UpdateColumnType("nums.element", Type::Long())
                       .UpdateColumnType("mk.value", Type::Long())
                       .MakeColumnOptional("points.element")
                       .UpdateColumnDoc("loc.lat", "degrees north")
                       .RequireColumn("id"));  // required already: allowed, changes nothing
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(s->FindField("qty")->type->id(), TypeId::kLong);
  EXPECT_EQ(s->FindField("qty")->id, t.Metadata().CurrentSchema().FindField("qty")->id);  // the same field
  EXPECT_EQ(s->FindField("qty")->doc, "items ordered");
  EXPECT_FALSE(s->FindField("must")->required);
  EXPECT_TRUE(s->FindField("id")->required);
  EXPECT_TRUE(s->FindField("amount")->type->Equals(*Type::Decimal(12, 2)));
  EXPECT_EQ(s->FindField("price")->type->id(), TypeId::kDouble);
  const Type& points = *s->FindField("points")->type;
  EXPECT_FALSE(points.fields()[0].required);
  EXPECT_EQ(points.fields()[0].type->fields()[0].type->id(), TypeId::kLong);
  EXPECT_EQ(s->FindField("nums")->type->fields()[0].type->id(), TypeId::kLong);
  EXPECT_EQ(s->FindField("mk")->type->fields()[1].type->id(), TypeId::kLong);
  EXPECT_EQ(s->FindField("loc.lat")->doc, "degrees north");

  // A doc can be removed again, and a doc-only change is a new schema.
  ASSERT_TRUE(t.Commit(SchemaUpdate().UpdateColumnDoc("qty", "items")).has_value());
  auto cleared = t.Commit(SchemaUpdate().UpdateColumnDoc("qty", ""));
  ASSERT_TRUE(cleared.has_value()) << cleared.error().message;
  EXPECT_EQ(cleared->metadata.CurrentSchema().FindField("qty")->doc, "");
  // Equal to the first schema again: it is reused (as Iceberg does), not added a second time.
  EXPECT_EQ(cleared->metadata.current_schema_id, 0);
  EXPECT_EQ(cleared->metadata.schemas.size(), 2u);
}

TEST(SchemaUpdates, NestedFieldsAreAddedRenamedAndDroppedByDottedName) {
  EvolvingTable t(NestedSchema(), 2);
  const int last = t.Metadata().last_column_id;
  const Schema base = t.Metadata().CurrentSchema();
  auto s = t.Apply(SchemaUpdate()
                       .AddColumn("loc.alt", Type::Double())
                       .AddColumn("points.element.z", Type::Int())
                       .AddColumn("points.w", Type::Int())  // a list of structs: its element's field
                       .AddColumn("tags.value.note", Type::String())
                       .RenameColumn("points.element.x", "px")
                       .RenameColumn("loc.lon", "longitude")
                       .DropColumn("tags.value.score")
                       .DropColumn("loc.lat"));
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(Names(s->FindField("loc")->type->fields()), (std::vector<std::string>{"longitude", "alt"}));
  EXPECT_EQ(s->FindField("loc")->type->fields()[1].id, last + 1);
  EXPECT_EQ(s->FindField("loc")->type->fields()[0].id, base.FindField("loc.lon")->id);  // renamed, same id
  const Type& element = *s->FindField("points")->type->fields()[0].type;
  EXPECT_EQ(Names(element.fields()), (std::vector<std::string>{"px", "y", "z", "w"}));
  EXPECT_EQ(element.fields()[0].id, base.FindField("points")->type->fields()[0].type->fields()[0].id);
  EXPECT_EQ(element.fields()[2].id, last + 2);
  EXPECT_FALSE(element.fields()[2].required);  // added fields are optional
  const Type& value = *s->FindField("tags")->type->fields()[1].type;
  EXPECT_EQ(Names(value.fields()), (std::vector<std::string>{"note"}));

  // Committed: last-column-id moves past the new ids, and the ids are never reused.
  ASSERT_TRUE(t.Commit(SchemaUpdate().AddColumn("loc.alt", Type::Double())).has_value());
  auto committed = t.Commit(SchemaUpdate().DropColumn("loc.alt"));
  ASSERT_TRUE(committed.has_value()) << committed.error().message;
  EXPECT_EQ(committed->metadata.last_column_id, last + 1);
  auto again = t.Commit(SchemaUpdate().AddColumn("loc.alt", Type::Double()));
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ(again->metadata.CurrentSchema().FindField("loc")->type->fields()[2].id, last + 2);
}

TEST(SchemaUpdates, NestedColumnsAreAddedWithFreshIdsAfterTheirOwn) {
  EvolvingTable t(NestedSchema(), 2);
  const int last = t.Metadata().last_column_id;
  auto type = ParseTypeText("struct<a: list<int>, b: map<string, struct<c: long>>>");
  ASSERT_TRUE(type.has_value()) << type.error().message;
  auto committed = t.Commit(SchemaUpdate().AddColumn("extra", *type).AddColumn("loc.tags", *ParseTypeText("list<string>")));
  ASSERT_TRUE(committed.has_value()) << committed.error().message;
  const Schema& s = committed->metadata.CurrentSchema();
  // The column, then its struct's fields, then what those hold (Iceberg's order).
  EXPECT_EQ(s.FindField("extra")->id, last + 1);
  EXPECT_EQ(s.FindField("extra.a")->id, last + 2);
  EXPECT_EQ(s.FindField("extra.b")->id, last + 3);
  EXPECT_EQ(s.FindField("extra.a.element")->id, last + 4);
  EXPECT_EQ(s.FindField("extra.b.key")->id, last + 5);
  EXPECT_EQ(s.FindField("extra.b.value")->id, last + 6);
  EXPECT_EQ(s.FindField("extra.b.value.c")->id, last + 7);
  EXPECT_EQ(s.FindField("loc.tags")->id, last + 8);
  EXPECT_EQ(s.FindField("loc.tags.element")->id, last + 9);
  EXPECT_EQ(committed->metadata.last_column_id, last + 9);
  EXPECT_EQ(TypeToText(*s.FindField("extra")->type), "struct<a: list<int>, b: map<string, struct<c: long>>>");
  auto with_default = t.Apply(SchemaUpdate().AddColumn("l2", *ParseTypeText("list<int>"), "",
                                                       Literal::Nested(*ParseTypeText("list<int>"), {Literal::Int(1)})));
  ASSERT_FALSE(with_default.has_value());
  EXPECT_NE(with_default.error().message.find("cannot have a default value"), std::string::npos);
}

TEST(SchemaUpdates, MovesWithinTheirStruct) {
  EvolvingTable t(NestedSchema(), 2);
  auto top = [&](const SchemaUpdate& u) {
    auto s = t.Apply(u);
    EXPECT_TRUE(s.has_value()) << s.error().message;
    return s ? Names(s->fields()) : std::vector<std::string>{};
  };
  EXPECT_EQ(top(SchemaUpdate().MoveFirst("price"))[0], "price");
  auto after = top(SchemaUpdate().MoveAfter("id", "loc"));  // to a later place
  EXPECT_EQ(std::vector<std::string>(after.begin(), after.begin() + 3), (std::vector<std::string>{"qty", "loc", "id"}));
  auto before = top(SchemaUpdate().MoveBefore("must", "qty"));  // to an earlier place
  EXPECT_EQ(std::vector<std::string>(before.begin(), before.begin() + 3),
            (std::vector<std::string>{"id", "must", "qty"}));
  auto last = top(SchemaUpdate().MoveAfter("id", "must"));
  EXPECT_EQ(last.back(), "id");
  auto moved = top(SchemaUpdate().MoveColumn("qty", {ColumnPosition::Where::kBefore, "id"}));
  EXPECT_EQ(moved[0], "qty");

  auto nested = t.Apply(SchemaUpdate().MoveBefore("loc.lon", "loc.lat").MoveFirst("points.element.y"));
  ASSERT_TRUE(nested.has_value()) << nested.error().message;
  EXPECT_EQ(Names(nested->FindField("loc")->type->fields()), (std::vector<std::string>{"lon", "lat"}));
  EXPECT_EQ(Names(nested->FindField("points")->type->fields()[0].type->fields()),
            (std::vector<std::string>{"y", "x"}));
  EXPECT_EQ(Names(nested->fields()), Names(NestedSchema().fields()));  // the top level stays
}

TEST(SchemaUpdates, RefusalsNameTheColumnAndSayWhy) {
  EvolvingTable v2(NestedSchema(), 2);
  EvolvingTable v3(NestedSchema(), 3, "day");  // identity(day): a date -> timestamp would change it
  ASSERT_TRUE(v2.Commit(SchemaUpdate().SetIdentifierFields({"id"})).has_value());
  struct Case {
    std::string expect;
    SchemaUpdate update;
    EvolvingTable* table;
  };
  std::vector<Case> cases = {
      {"Cannot change column type: id: long -> int", SchemaUpdate().UpdateColumnType("id", Type::Int()), &v2},
      {"Cannot change column type: price: float -> long", SchemaUpdate().UpdateColumnType("price", Type::Long()), &v2},
      {"Cannot change column type: amount: decimal(9,2) -> decimal(8,2)",
       SchemaUpdate().UpdateColumnType("amount", Type::Decimal(8, 2)), &v2},
      {"Cannot change column type: amount: decimal(9,2) -> decimal(12,3)",
       SchemaUpdate().UpdateColumnType("amount", Type::Decimal(12, 3)), &v2},
      {"Cannot change column type: day: date -> timestamp needs a format version 3 table (this one is version 2)",
       SchemaUpdate().UpdateColumnType("day", Type::Timestamp()), &v2},
      {"Cannot change column type: day: date -> timestamptz",
       SchemaUpdate().UpdateColumnType("day", Type::TimestampTz()), &v3},
      {"Cannot change column type: day: date -> timestamp: partition field 'day' (identity",
       SchemaUpdate().UpdateColumnType("day", Type::Timestamp()), &v3},
      {"Cannot change column type: loc: struct", SchemaUpdate().UpdateColumnType("loc", Type::Long()), &v2},
      {"Cannot change column type: points.element.x: int -> string",
       SchemaUpdate().UpdateColumnType("points.element.x", Type::String()), &v2},
      {"cannot make optional column 'qty' required", SchemaUpdate().RequireColumn("qty"), &v2},
      {"cannot make optional column 'loc.lat' required",
       SchemaUpdate().UpdateColumn("loc.lat", {.make_required = true}), &v2},
      {"Cannot make identifier field 'id' optional", SchemaUpdate().MakeColumnOptional("id"), &v2},
      {"Cannot make map key 'tags.key' optional", SchemaUpdate().MakeColumnOptional("tags.key"), &v2},
      {"Cannot move column 'qty' relative to itself", SchemaUpdate().MoveAfter("qty", "qty"), &v2},
      {"Cannot move column 'loc.lat' next to 'qty': they are in different structs",
       SchemaUpdate().MoveBefore("loc.lat", "qty"), &v2},
      {"Cannot move column 'qty' next to 'loc.lat': they are in different structs",
       SchemaUpdate().MoveAfter("qty", "loc.lat"), &v2},
      {"Cannot move 'points.element': it is a list's element", SchemaUpdate().MoveFirst("points.element"), &v2},
      {"Cannot rename 'points.element': it is a list's element",
       SchemaUpdate().RenameColumn("points.element", "item"), &v2},
      {"Cannot drop 'tags.value': it is a map's key or value", SchemaUpdate().DropColumn("tags.value"), &v2},
      {"Cannot drop column 'mk.key.a': a map's key cannot lose fields", SchemaUpdate().DropColumn("mk.key.a"), &v2},
      {"Cannot add column 'mk.key.b': a map's key cannot gain fields",
       SchemaUpdate().AddColumn("mk.key.b", Type::Int()), &v2},
      {"Cannot add column 'qty.b': 'qty' is a int, not a struct", SchemaUpdate().AddColumn("qty.b", Type::Int()), &v2},
      {"Cannot add column 'nums.b': 'nums' is a list<int>, not a struct",
       SchemaUpdate().AddColumn("nums.b", Type::Int()), &v2},
      {"Cannot add column 'loc.lat': a column of that name already exists",
       SchemaUpdate().AddColumn("loc.lat", Type::Int()), &v2},
      {"Cannot drop column 'tags.value.score': it is its struct's only field",
       SchemaUpdate().DropColumn("tags.value.score"), &v2},
      {"Cannot set the doc of 'points.element'", SchemaUpdate().UpdateColumnDoc("points.element", "x"), &v2},
      {"Cannot make column 'qty' both optional and required",
       SchemaUpdate().UpdateColumn("qty", {.make_optional = true, .make_required = true}), &v2},
      // Names that do not exist, in every change.
      {"column 'nope' is not in the table's schema", SchemaUpdate().UpdateColumnType("nope", Type::Long()), &v2},
      {"column 'nope' is not in the table's schema", SchemaUpdate().UpdateColumn("nope", {}), &v2},
      {"column 'loc.nope' is not in the table's schema", SchemaUpdate().MakeColumnOptional("loc.nope"), &v2},
      {"column 'nope' is not in the table's schema", SchemaUpdate().MoveFirst("nope"), &v2},
      {"column 'nope' is not in the table's schema", SchemaUpdate().MoveAfter("qty", "nope"), &v2},
      {"column 'nope' is not in the table's schema", SchemaUpdate().UpdateColumnDoc("nope", "x"), &v2},
      {"column 'nope.x' is not in the table's schema", SchemaUpdate().AddColumn("nope.x.y", Type::Int()).DropColumn("q"), &v2},
      {"column 'points.x' is not in the table's schema (a list's values are reached as '<list>.element')",
       SchemaUpdate().RenameColumn("points.x", "y"), &v2},
      {"column 'tags.score' is not in the table's schema (a map's key and value",
       SchemaUpdate().DropColumn("tags.score"), &v2},
  };
  for (auto& c : cases) {
    const std::string before = c.table->catalog().LoadTable(c.table->id())->metadata_location;
    auto result = c.table->Commit(c.update);
    ASSERT_FALSE(result.has_value()) << c.expect;
    EXPECT_EQ(result.error().kind, ErrorKind::kInvalidArgument) << result.error().message;
    EXPECT_NE(result.error().message.find(c.expect), std::string::npos)
        << "want '" << c.expect << "' in: " << result.error().message;
    EXPECT_EQ(c.table->catalog().LoadTable(c.table->id())->metadata_location, before) << c.expect;
  }
}

TEST(SchemaUpdates, DateToTimestampFollowsPartitionTransforms) {
  // day(d) gives the same value for a date and for that day's midnight: allowed on v3.
  Schema schema(0, {Field(1, "id", Type::Long(), true), Field(2, "d", Type::Date())});
  EvolvingTable by_day(schema, 3, "day(d)");
  auto promoted = by_day.Commit(SchemaUpdate().UpdateColumnType("d", Type::TimestampNs()));
  ASSERT_TRUE(promoted.has_value()) << promoted.error().message;
  EXPECT_EQ(promoted->metadata.CurrentSchema().FindField("d")->type->id(), TypeId::kTimestampNs);
  EvolvingTable by_bucket(schema, 3, "bucket(4, d)");
  auto refused = by_bucket.Commit(SchemaUpdate().UpdateColumnType("d", Type::Timestamp()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message.find("partition field 'd_bucket'"), std::string::npos) << refused.error().message;
}

TEST(SchemaUpdates, ConcurrentChangesPlannedOnOneSchemaOneIsRefused) {
  EvolvingTable t(NestedSchema(), 2);
  const TableMetadata base = t.Metadata();
  auto promote = SchemaUpdate().UpdateColumnType("qty", Type::Long()).Plan(base);
  auto move = SchemaUpdate().MoveFirst("loc.lon").Plan(base);
  ASSERT_TRUE(promote.has_value() && move.has_value());
  bool schema_id = false, field_id = false;
  for (const auto& r : move->requirements) {
    if (auto* a = std::get_if<AssertCurrentSchemaId>(&r)) schema_id = a->current_schema_id == base.current_schema_id;
    if (auto* a = std::get_if<AssertLastAssignedFieldId>(&r)) field_id = a->last_assigned_field_id == base.last_column_id;
  }
  EXPECT_TRUE(schema_id && field_id);
  ASSERT_TRUE(CommitMetadataChange(t.catalog(), t.id(), *promote).has_value());
  auto refused = CommitMetadataChange(t.catalog(), t.id(), *move);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::kCommitConflict);
  EXPECT_NE(refused.error().message.find("Requirement failed: current schema changed"), std::string::npos)
      << refused.error().message;
  const TableMetadata after = t.Metadata();
  const Schema& now = after.CurrentSchema();
  EXPECT_EQ(now.FindField("qty")->type->id(), TypeId::kLong);
  EXPECT_EQ(now.FindField("loc")->type->fields()[0].name, "lat");  // the refused move left no trace
}

// The data side: files written before each change read correctly after it.
class OldFiles : public ::testing::Test {
 protected:
  static Schema DataSchema() {
    return Schema(0, {Field(1, "id", Type::Long(), true), Field(2, "qty", Type::Int()), Field(3, "price", Type::Float()),
                      Field(4, "amount", Type::Decimal(9, 2)), Field(5, "day", Type::Date()),
                      Field(6, "loc", Type::Struct({Field(7, "lat", Type::Double()), Field(8, "lon", Type::Double())})),
                      Field(9, "must", Type::Int(), true)});
  }
  // Rows (id, qty, price, amount cents, day, lat, lon) under `schema` (the table's at the time).
  static ColumnBatch Rows(const Schema& schema, int64_t first_id, int n) {
    ColumnBatch batch(schema);
    for (int i = 0; i < n; ++i) {
      int64_t id = first_id + i;
      for (size_t c = 0; c < schema.fields().size(); ++c) {
        const NestedField& f = schema.fields()[c];
        Column& col = batch.columns[c];
        Status st = Ok();
        // Each value in the column's type at the time (the types change along the test).
        if (f.name == "id") st = col.Append(Literal::Long(id));
        if (f.name == "qty") st = col.Append(f.type->id() == TypeId::kInt ? Literal::Int(static_cast<int32_t>(10 * id))
                                                                         : Literal::Long(10 * id));
        if (f.name == "price") st = col.Append(f.type->id() == TypeId::kFloat ? Literal::Float(static_cast<float>(id) + 0.5f)
                                                                             : Literal::Double(static_cast<double>(id) + 0.5));
        if (f.name == "amount") st = col.Append(Literal(f.type, static_cast<__int128>(12345 + id)));
        if (f.name == "day")
          st = col.Append(f.type->id() == TypeId::kDate ? Literal::Date(static_cast<int32_t>(19000 + id))
                                                        : Literal::Timestamp((19000 + id) * 86400 * int64_t{1000000}));
        if (f.name == "must") st = col.Append(Literal::Int(static_cast<int32_t>(id)));
        if (f.name == "loc") {
          for (size_t k = 0; k < f.type->fields().size(); ++k) {
            const std::string& child = f.type->fields()[k].name;
            double v = child == "lat" ? 50.0 + id : child == "lon" ? 8.0 + id : 100.0 + id;
            EXPECT_TRUE(col.children[k].Append(Literal::Double(v)).has_value());
          }
          col.length++;
        }
        EXPECT_TRUE(st.has_value()) << f.name << ": " << st.error().message;
      }
      batch.num_rows++;
    }
    return batch;
  }

  EvolvingTable table_{DataSchema(), 2};
};

TEST_F(OldFiles, ReadCorrectlyAfterEachChange) {
  auto first = AppendBatch(table_.catalog(), table_.id(), Rows(table_.Metadata().CurrentSchema(), 1, 3));
  ASSERT_TRUE(first.has_value()) << first.error().message;
  auto read = [&](const std::string& filter = "") {
    auto rows = table_.Read(filter);
    EXPECT_TRUE(rows.has_value()) << (rows ? "" : rows.error().message);
    return rows ? *rows : ColumnBatch();
  };
  auto row_of = [](const ColumnBatch& b, int64_t id) -> std::vector<Literal> {
    for (size_t r = 0; r < b.num_rows; ++r)
      if (b.Row(r)[b.ColumnIndexByName("id")].AsLong() == id) return b.Row(r);
    ADD_FAILURE() << "no row " << id;
    return {};
  };

  // int -> long: the old int column reads as long.
  ASSERT_TRUE(table_.Commit(SchemaUpdate().UpdateColumnType("qty", Type::Long())).has_value());
  ColumnBatch b = read();
  ASSERT_EQ(b.num_rows, 3u);
  EXPECT_EQ(b.columns[b.ColumnIndexByName("qty")].type->id(), TypeId::kLong);
  EXPECT_EQ(row_of(b, 2)[b.ColumnIndexByName("qty")].AsLong(), 20);
  EXPECT_EQ(read("qty = 30").num_rows, 1u);

  // float -> double and decimal(9,2) -> decimal(12,2): the same values in the wider types.
  ASSERT_TRUE(
      table_.Commit(SchemaUpdate().UpdateColumnType("price", Type::Double()).UpdateColumnType("amount", Type::Decimal(12, 2)))
          .has_value());
  b = read();
  EXPECT_EQ(row_of(b, 1)[b.ColumnIndexByName("price")].AsDouble(), 1.5);
  const Literal amount = row_of(b, 3)[b.ColumnIndexByName("amount")];
  EXPECT_TRUE(amount.type()->Equals(*Type::Decimal(12, 2)));
  EXPECT_TRUE(amount.AsDecimal() == 12348);
  EXPECT_EQ(read("amount > 123.46").num_rows, 2u);

  // Moves: the columns come back in the new order, each with its own values.
  ASSERT_TRUE(table_.Commit(SchemaUpdate().MoveFirst("day").MoveBefore("loc.lon", "loc.lat").MoveAfter("id", "qty"))
                  .has_value());
  b = read();
  EXPECT_EQ(Names(b.fields)[0], "day");
  EXPECT_EQ(Names(b.fields)[2], "id");
  const Column& loc = b.columns[b.ColumnIndexByName("loc")];
  ASSERT_EQ(loc.children.size(), 2u);
  EXPECT_EQ(loc.type->fields()[0].name, "lon");
  const double id0 = static_cast<double>(b.Row(0)[2].AsLong());
  EXPECT_EQ(loc.children[0].Get(0).AsDouble(), 8.0 + id0);
  EXPECT_EQ(loc.children[1].Get(0).AsDouble(), 50.0 + id0);

  // A field added inside the struct reads as null in the old file; new rows fill it.
  auto added = table_.Commit(SchemaUpdate().AddColumn("loc.alt", Type::Double()).UpdateColumn("must", {.make_optional = true}));
  ASSERT_TRUE(added.has_value()) << added.error().message;
  ASSERT_TRUE(AppendBatch(table_.catalog(), table_.id(), Rows(added->metadata.CurrentSchema(), 10, 1)).has_value());
  b = read();
  ASSERT_EQ(b.num_rows, 4u);
  const Column& loc2 = b.columns[b.ColumnIndexByName("loc")];
  ASSERT_EQ(loc2.children.size(), 3u);
  for (size_t r = 0; r < b.num_rows; ++r) {
    int64_t id = b.Row(r)[b.ColumnIndexByName("id")].AsLong();
    if (id < 10) {
      EXPECT_TRUE(loc2.children[2].IsNull(r)) << id;  // the old file has no alt
    } else {
      EXPECT_EQ(loc2.children[2].Get(r).AsDouble(), 100.0 + static_cast<double>(id));
    }
    EXPECT_EQ(loc2.children[1].Get(r).AsDouble(), 50.0 + static_cast<double>(id));
    EXPECT_EQ(b.Row(r)[b.ColumnIndexByName("must")].AsInt(), id);
  }

  // A dropped nested field is gone; its sibling keeps its values.
  ASSERT_TRUE(table_.Commit(SchemaUpdate().DropColumn("loc.lat")).has_value());
  b = read();
  const Column& loc3 = b.columns[b.ColumnIndexByName("loc")];
  EXPECT_EQ(Names(loc3.type->fields()), (std::vector<std::string>{"lon", "alt"}));
  for (size_t r = 0; r < b.num_rows; ++r)
    EXPECT_EQ(loc3.children[0].Get(r).AsDouble(), 8.0 + static_cast<double>(b.Row(r)[b.ColumnIndexByName("id")].AsLong()));
}

// floe writes no v3 snapshots yet: the dates are written on v2, the table upgraded to v3, then
// promoted, as a table another engine upgraded would be.
TEST_F(OldFiles, DatesReadAsTimestampsAfterTheV3Promotion) {
  auto first = AppendBatch(table_.catalog(), table_.id(), Rows(table_.Metadata().CurrentSchema(), 1, 3));
  ASSERT_TRUE(first.has_value()) << first.error().message;
  MetadataChange upgrade;
  upgrade.what = "format upgrade";
  upgrade.updates.push_back(UpgradeFormatVersion{3});
  auto upgraded = CommitMetadataChange(table_.catalog(), table_.id(), upgrade);
  ASSERT_TRUE(upgraded.has_value()) << upgraded.error().message;
  ASSERT_EQ(upgraded->metadata.format_version, 3);
  auto read = [&](const std::string& filter = "") {
    auto rows = table_.Read(filter);
    EXPECT_TRUE(rows.has_value()) << (rows ? "" : rows.error().message);
    return rows ? *rows : ColumnBatch();
  };
  auto promoted = table_.Commit(SchemaUpdate().UpdateColumnType("day", Type::Timestamp()));
  ASSERT_TRUE(promoted.has_value()) << promoted.error().message;
  ColumnBatch b = read();
  ASSERT_EQ(b.num_rows, 3u);
  const int day = b.ColumnIndexByName("day");
  EXPECT_EQ(b.columns[day].type->id(), TypeId::kTimestamp);
  for (size_t r = 0; r < b.num_rows; ++r)
    EXPECT_EQ(b.Row(r)[day].AsLong(), (19000 + b.Row(r)[b.ColumnIndexByName("id")].AsLong()) * 86400 * int64_t{1000000});
  // Days 19001..19003 are 2022-01-09..11. The old file's bounds are 4-byte days in the
  // manifest; misread as microseconds they would prune the file from every one of these.
  EXPECT_EQ(read("day >= '2022-01-11T00:00:00'").num_rows, 1u);
  EXPECT_EQ(read("day >= '2022-01-10T00:00:00'").num_rows, 2u);
  EXPECT_EQ(read("day > '2022-01-11T00:00:00'").num_rows, 0u);
  EXPECT_EQ(read("day < '2022-01-10T00:00:01'").num_rows, 2u);
}

// A column added with a default (format 3): files written before it read the default; on a v2
// table the same change is refused with Iceberg's message and changes nothing.
TEST_F(OldFiles, ColumnAddedWithADefaultReadsItInOlderFiles) {
  auto first = AppendBatch(table_.catalog(), table_.id(), Rows(table_.Metadata().CurrentSchema(), 1, 3));
  ASSERT_TRUE(first.has_value()) << first.error().message;
  auto on_v2 = table_.Commit(SchemaUpdate().AddColumn("level", Type::Int(), "", Literal::Int(7)));
  ASSERT_FALSE(on_v2.has_value());
  EXPECT_NE(on_v2.error().message.find("non-null default (7) is not supported until v3"), std::string::npos)
      << on_v2.error().message;
  EXPECT_EQ(table_.Metadata().CurrentSchema().FindField("level"), nullptr);

  MetadataChange upgrade;
  upgrade.what = "format upgrade";
  upgrade.updates.push_back(UpgradeFormatVersion{3});
  ASSERT_TRUE(CommitMetadataChange(table_.catalog(), table_.id(), upgrade).has_value());
  auto bad = table_.Commit(SchemaUpdate().AddColumn("level", Type::Int(), "", Literal::String("seven")));
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("its default is not a int"), std::string::npos) << bad.error().message;
  auto added = table_.Commit(SchemaUpdate().AddColumn("level", Type::Int(), "", Literal::String("7")));
  ASSERT_TRUE(added.has_value()) << added.error().message;
  const TableMetadata after = table_.Metadata();
  const NestedField* level = after.CurrentSchema().FindField("level");
  ASSERT_NE(level, nullptr);
  EXPECT_EQ(level->initial_default, "7");
  EXPECT_EQ(level->write_default, "7");
  auto rows = table_.Read("level = 7");
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  ASSERT_EQ(rows->num_rows, 3u);
  for (size_t r = 0; r < rows->num_rows; ++r) EXPECT_EQ(rows->Row(r)[rows->ColumnIndexByName("level")].AsInt(), 7);
}

}  // namespace
}  // namespace floe
