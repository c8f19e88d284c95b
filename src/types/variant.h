// The variant type's binary form (Parquet's variant encoding, unshredded): a value is two byte
// strings, a metadata (a dictionary of the object keys) and a value (a tree of typed items whose
// object fields name their keys by dictionary index).
//
// In a Column or Literal a variant is held packed in one byte string: the metadata's length as a
// 4-byte little-endian integer, the metadata, then the value. Every decode checks each offset and
// length against the bytes it has: hostile bytes give Corrupt, never a read past the end.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "floe/result.h"

namespace floe {

struct VariantBytes {
  std::string metadata;
  std::string value;
};

// JSON to variant: integers become the narrowest of int8..int64, other numbers doubles, strings
// short strings (< 64 bytes) or strings, objects and arrays their variant forms. The metadata's
// dictionary is sorted and holds each key once.
Result<VariantBytes> EncodeVariant(const nlohmann::json& json);

// Variant to JSON text. Types JSON lacks print as Iceberg's JSON single-value forms do: decimals as
// exact numbers, dates and timestamps as ISO 8601 strings, binary as hex strings, uuids in their
// 8-4-4-4-12 form.
Result<std::string> VariantToJsonText(std::string_view metadata, std::string_view value);

// The keys of a metadata's dictionary, by id (views into `metadata`).
Result<std::vector<std::string_view>> VariantMetadataKeys(std::string_view metadata);

// The packed in-memory form and back.
std::string PackVariant(std::string_view metadata, std::string_view value);
Result<VariantBytes> UnpackVariant(std::string_view packed);

// Parses JSON text and encodes it, packed; InvalidArgument naming the text when it is not JSON.
Result<std::string> PackedVariantFromJsonText(std::string_view text);
// The packed form printed as JSON text.
Result<std::string> PackedVariantToJsonText(std::string_view packed);

}  // namespace floe
