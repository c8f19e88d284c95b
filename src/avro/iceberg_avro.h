// How Iceberg's primitive types and values travel in Avro (the spec's Appendix A), for the
// partition tuples of manifests: the Avro type of a partition field, a value's encoding, and
// the decoding of a writer's value into the Iceberg type the reader expects.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "avro/avro_binary.h"
#include "avro/avro_schema.h"
#include "types/literal.h"

namespace floe::avro {

// Avro's JSON for an Iceberg primitive type. `unique` makes the name of a fixed type unique in
// the schema (Avro forbids redefining a name). Nested types are refused.
Result<nlohmann::ordered_json> AvroType(const Type& type, std::string_view unique);

// Avro names allow [A-Za-z_][A-Za-z0-9_]*; other characters become _x<HEX> as Iceberg's Java
// writer does, so both sanitise a column name the same way.
std::string AvroName(std::string_view name);

// Appends a non-null value of `type` (the value must already be of that type).
Status EncodeValue(Encoder& e, const Literal& value, const Type& type);

// Decodes one value written as `node` (not a union) into `type`; int widens to long, float to
// double, bytes and fixed hold decimals and uuids, strings may hold uuids.
Result<Literal> DecodeValue(Decoder& d, const Node& node, const TypePtr& type);

// The Iceberg type an Avro node stands for, from its kind and logicalType: used when neither
// the file nor the caller gives the partition spec.
Result<TypePtr> IcebergTypeOf(const Node& node);

}  // namespace floe::avro
