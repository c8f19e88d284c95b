// JSON forms of types, schemas, partition specs and sort orders (Iceberg table spec, appendix C).
#include <string>

#include "meta/json_fields.h"
#include "meta/json_internal.h"
#include "meta/metadata_json.h"
#include "types/field_defaults.h"

namespace floe {

using internal::Ordered;
using json_fields::Json;
namespace jf = json_fields;

namespace {

std::string PrimitiveName(const Type& t) {
  // Iceberg's Java reader expects a space after the comma in "decimal(P, S)".
  if (t.id() == TypeId::kDecimal)
    return "decimal(" + std::to_string(t.precision()) + ", " + std::to_string(t.scale()) + ")";
  return t.ToString();
}

Result<NestedField> StructFieldFromJson(const Json& j) {
  if (!j.is_object()) return InvalidArgument("struct field must be an object, got " + jf::Snippet(j));
  NestedField f;
  FLOE_ASSIGN_OR_RETURN(f.id, jf::GetInt(j, "id"));
  FLOE_ASSIGN_OR_RETURN(f.name, jf::GetString(j, "name"));
  FLOE_ASSIGN_OR_RETURN(f.required, jf::GetBool(j, "required"));
  FLOE_ASSIGN_OR_RETURN(const Json* type, jf::Require(j, "type"));
  auto parsed = TypeFromJson(*type);
  if (!parsed) return std::unexpected(parsed.error().WithContext("field '" + f.name + "'"));
  f.type = *parsed;
  FLOE_ASSIGN_OR_RETURN(auto doc, jf::GetOptionalString(j, "doc"));
  f.doc = doc.value_or("");
  // Format 3 defaults, kept as their JSON (a null one is no default).
  if (const Json* d = jf::Find(j, "initial-default")) f.initial_default = d->dump();
  if (const Json* d = jf::Find(j, "write-default")) f.write_default = d->dump();
  FLOE_RETURN_IF_ERROR(CheckFieldDefaults(f));
  return f;
}

Result<TypePtr> NestedTypeFromJson(const Json& j, const std::string& kind) {
  if (kind == "struct") {
    FLOE_ASSIGN_OR_RETURN(const Json* fields, jf::Require(j, "fields"));
    if (!fields->is_array()) return InvalidArgument("struct 'fields' must be an array, got " + jf::Snippet(*fields));
    std::vector<NestedField> out;
    for (const Json& f : *fields) {
      FLOE_ASSIGN_OR_RETURN(NestedField field, StructFieldFromJson(f));
      out.push_back(std::move(field));
    }
    return Type::Struct(std::move(out));
  }
  if (kind == "list") {
    NestedField element;
    element.name = "element";
    FLOE_ASSIGN_OR_RETURN(element.id, jf::GetInt(j, "element-id"));
    FLOE_ASSIGN_OR_RETURN(element.required, jf::GetBool(j, "element-required"));
    FLOE_ASSIGN_OR_RETURN(const Json* type, jf::Require(j, "element"));
    FLOE_ASSIGN_OR_RETURN(element.type, TypeFromJson(*type));
    return Type::List(std::move(element));
  }
  if (kind == "map") {
    NestedField key, value;
    key.name = "key";
    key.required = true;  // map keys are always required
    value.name = "value";
    FLOE_ASSIGN_OR_RETURN(key.id, jf::GetInt(j, "key-id"));
    FLOE_ASSIGN_OR_RETURN(const Json* key_type, jf::Require(j, "key"));
    FLOE_ASSIGN_OR_RETURN(key.type, TypeFromJson(*key_type));
    FLOE_ASSIGN_OR_RETURN(value.id, jf::GetInt(j, "value-id"));
    FLOE_ASSIGN_OR_RETURN(value.required, jf::GetBool(j, "value-required"));
    FLOE_ASSIGN_OR_RETURN(const Json* value_type, jf::Require(j, "value"));
    FLOE_ASSIGN_OR_RETURN(value.type, TypeFromJson(*value_type));
    return Type::Map(std::move(key), std::move(value));
  }
  return InvalidArgument("Cannot parse type from json: unknown nested type '" + kind + "' in " + jf::Snippet(j));
}

// One partition or sort field's sources: "source-id", or v3's "source-ids" (a multi-argument
// transform: kept, written back, never computed by floe).
Result<std::vector<int>> SourceIds(const Json& j) {
  if (jf::Find(j, "source-id")) {
    FLOE_ASSIGN_OR_RETURN(int id, jf::GetInt(j, "source-id"));
    return std::vector<int>{id};
  }
  if (const Json* ids = jf::Find(j, "source-ids")) {
    FLOE_ASSIGN_OR_RETURN(std::vector<int> list, jf::ToIntList(*ids, "source-ids"));
    if (list.empty()) return InvalidArgument("'source-ids' is empty");
    return list;
  }
  return InvalidArgument("missing required field 'source-id'");
}

// A transform floe does not know is kept by name (Transform::FromMetadata).
Result<Transform> TransformFromJson(const Json& j) {
  FLOE_ASSIGN_OR_RETURN(std::string text, jf::GetString(j, "transform"));
  // A malformed form of a known transform ("bucket[x]") or an empty name is an error, not a new
  // transform.
  if (text.empty() || text.starts_with("bucket") || text.starts_with("truncate")) return Transform::Parse(text);
  return Transform::FromMetadata(text);
}

template <typename Field>
void SetSources(Field* field, std::vector<int> ids) {
  field->source_id = ids.front();
  if (ids.size() > 1) field->source_ids = std::move(ids);
}

template <typename Ordered, typename Field>
void PutSources(Ordered* out, const Field& f) {
  if (f.source_ids.size() > 1) {
    (*out)["source-ids"] = f.source_ids;
  } else {
    (*out)["source-id"] = f.source_id;
  }
}

}  // namespace

namespace internal {

Ordered TypeToOrdered(const Type& t) {
  switch (t.id()) {
    case TypeId::kStruct: {
      Ordered fields = Ordered::array();
      for (const auto& f : t.fields()) {
        Ordered field;
        field["id"] = f.id;
        field["name"] = f.name;
        field["required"] = f.required;
        field["type"] = TypeToOrdered(*f.type);
        if (!f.doc.empty()) field["doc"] = f.doc;
        if (f.initial_default) field["initial-default"] = Ordered::parse(*f.initial_default, nullptr, false);
        if (f.write_default) field["write-default"] = Ordered::parse(*f.write_default, nullptr, false);
        fields.push_back(std::move(field));
      }
      Ordered out;
      out["type"] = "struct";
      out["fields"] = std::move(fields);
      return out;
    }
    case TypeId::kList: {
      const NestedField& e = t.fields()[0];
      Ordered out;
      out["type"] = "list";
      out["element-id"] = e.id;
      out["element"] = TypeToOrdered(*e.type);
      out["element-required"] = e.required;
      return out;
    }
    case TypeId::kMap: {
      const NestedField& k = t.fields()[0];
      const NestedField& v = t.fields()[1];
      Ordered out;
      out["type"] = "map";
      out["key-id"] = k.id;
      out["key"] = TypeToOrdered(*k.type);
      out["value-id"] = v.id;
      out["value"] = TypeToOrdered(*v.type);
      out["value-required"] = v.required;
      return out;
    }
    default:
      return PrimitiveName(t);
  }
}

Ordered SchemaToOrdered(const Schema& s) {
  Ordered out;
  out["type"] = "struct";
  out["schema-id"] = s.schema_id();
  if (!s.identifier_field_ids().empty()) out["identifier-field-ids"] = s.identifier_field_ids();
  out["fields"] = TypeToOrdered(*s.AsStruct())["fields"];
  return out;
}

Ordered PartitionFieldsToOrdered(const PartitionSpec& s) {
  Ordered fields = Ordered::array();
  for (const auto& f : s.fields()) {
    Ordered field;
    field["name"] = f.name;
    field["transform"] = f.transform.ToString();
    PutSources(&field, f);
    field["field-id"] = f.field_id;
    fields.push_back(std::move(field));
  }
  return fields;
}

Ordered PartitionSpecToOrdered(const PartitionSpec& s) {
  Ordered out;
  out["spec-id"] = s.spec_id();
  out["fields"] = PartitionFieldsToOrdered(s);
  return out;
}

Ordered SortOrderToOrdered(const SortOrder& o) {
  Ordered fields = Ordered::array();
  for (const auto& f : o.fields()) {
    Ordered field;
    field["transform"] = f.transform.ToString();
    PutSources(&field, f);
    field["direction"] = SortDirectionName(f.direction);
    field["null-order"] = NullOrderName(f.null_order);
    fields.push_back(std::move(field));
  }
  Ordered out;
  out["order-id"] = o.order_id();
  out["fields"] = std::move(fields);
  return out;
}

}  // namespace internal

nlohmann::json TypeToJson(const Type& t) { return nlohmann::json(internal::TypeToOrdered(t)); }

Result<TypePtr> TypeFromJson(const nlohmann::json& j) {
  if (j.is_string()) {
    auto t = Type::ParsePrimitive(j.get<std::string>());
    if (!t) return InvalidArgument("Cannot parse type from json: unknown type " + jf::Snippet(j));
    return t;
  }
  if (j.is_object()) {
    const Json* kind = jf::Find(j, "type");
    if (!kind || !kind->is_string())
      return InvalidArgument("Cannot parse type from json (no \"type\" field): " + jf::Snippet(j));
    return NestedTypeFromJson(j, kind->get<std::string>());
  }
  return InvalidArgument("Cannot parse type from json: " + jf::Snippet(j));
}

nlohmann::json SchemaToJson(const Schema& s) { return nlohmann::json(internal::SchemaToOrdered(s)); }

Result<Schema> SchemaFromJson(const nlohmann::json& j) {
  if (!j.is_object()) return InvalidArgument("schema must be a JSON object, got " + jf::Snippet(j));
  FLOE_ASSIGN_OR_RETURN(TypePtr type, TypeFromJson(j));
  if (type->id() != TypeId::kStruct)
    return InvalidArgument("schema must be a struct type, got " + type->ToString());
  FLOE_ASSIGN_OR_RETURN(auto schema_id, jf::GetOptionalInt(j, "schema-id"));
  std::vector<int> identifiers;
  if (const Json* ids = jf::Find(j, "identifier-field-ids")) {
    FLOE_ASSIGN_OR_RETURN(identifiers, jf::ToIntList(*ids, "identifier-field-ids"));
  }
  return Schema(schema_id.value_or(0), type->fields(), std::move(identifiers));
}

nlohmann::json PartitionSpecToJson(const PartitionSpec& s) { return nlohmann::json(internal::PartitionSpecToOrdered(s)); }
nlohmann::json PartitionFieldsToJson(const PartitionSpec& s) {
  return nlohmann::json(internal::PartitionFieldsToOrdered(s));
}

Result<PartitionSpec> PartitionSpecFromJson(const nlohmann::json& j, int default_spec_id) {
  int spec_id = default_spec_id;
  const Json* fields = &j;
  if (j.is_object()) {
    FLOE_ASSIGN_OR_RETURN(auto id, jf::GetOptionalInt(j, "spec-id"));
    spec_id = id.value_or(default_spec_id);
    FLOE_ASSIGN_OR_RETURN(fields, jf::Require(j, "fields"));
  }
  if (!fields->is_array())
    return InvalidArgument("partition spec fields must be an array, got " + jf::Snippet(*fields));
  std::vector<PartitionField> out;
  for (const Json& f : *fields) {
    auto where = [&](const Error& e) {
      return std::unexpected(e.WithContext("partition spec " + std::to_string(spec_id) + " field " + std::to_string(out.size())));
    };
    if (!f.is_object()) return where(Error{ErrorKind::kInvalidArgument, "must be an object, got " + jf::Snippet(f)});
    PartitionField field;
    auto name = jf::GetString(f, "name");
    if (!name) return where(name.error());
    field.name = *name;
    auto transform = TransformFromJson(f);
    if (!transform) return where(transform.error());
    field.transform = *transform;
    auto sources = SourceIds(f);
    if (!sources) return where(sources.error());
    SetSources(&field, std::move(*sources));
    // Documents written before field ids existed number them from 1000 in order.
    auto field_id = jf::GetOptionalInt(f, "field-id");
    if (!field_id) return where(field_id.error());
    field.field_id = field_id->value_or(PartitionSpec::kFirstFieldId + static_cast<int>(out.size()));
    out.push_back(std::move(field));
  }
  return PartitionSpec(spec_id, std::move(out));
}

nlohmann::json SortOrderToJson(const SortOrder& o) { return nlohmann::json(internal::SortOrderToOrdered(o)); }

Result<SortOrder> SortOrderFromJson(const nlohmann::json& j) {
  FLOE_ASSIGN_OR_RETURN(int order_id, jf::GetInt(j, "order-id"));
  FLOE_ASSIGN_OR_RETURN(const Json* fields, jf::Require(j, "fields"));
  if (!fields->is_array()) return InvalidArgument("sort order fields must be an array, got " + jf::Snippet(*fields));
  std::vector<SortField> out;
  for (const Json& f : *fields) {
    auto parse = [&]() -> Result<SortField> {
      SortField field;
      FLOE_ASSIGN_OR_RETURN(field.transform, TransformFromJson(f));
      FLOE_ASSIGN_OR_RETURN(std::vector<int> sources, SourceIds(f));
      SetSources(&field, std::move(sources));
      FLOE_ASSIGN_OR_RETURN(std::string direction, jf::GetString(f, "direction"));
      FLOE_ASSIGN_OR_RETURN(field.direction, ParseSortDirection(direction));
      FLOE_ASSIGN_OR_RETURN(std::string null_order, jf::GetString(f, "null-order"));
      FLOE_ASSIGN_OR_RETURN(field.null_order, ParseNullOrder(null_order));
      return field;
    };
    auto field = parse();
    if (!field)
      return std::unexpected(field.error().WithContext("sort order " + std::to_string(order_id) + " field " +
                                                       std::to_string(out.size())));
    out.push_back(std::move(*field));
  }
  return SortOrder(order_id, std::move(out));
}

}  // namespace floe
