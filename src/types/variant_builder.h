// Building variant values from parts, for readers that reassemble a shredded variant (Parquet's
// variant shredding: an object's fields, or a whole value, stored in typed columns beside the
// binary `value`). The parts are a value's metadata dictionary, typed primitives and objects whose
// fields are themselves encoded values.
//
// Every function that reads encoded bytes checks each offset and length against them: hostile
// bytes give Corrupt, never a read past the end.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"
#include "types/literal.h"

namespace floe {

// A metadata dictionary that can grow: starts from a value's metadata and hands out the id of a
// key, adding keys it lacks (a shredded field's name need not be in the dictionary the writer
// kept). Ids of the keys already there never change, so value bytes that use them stay valid.
class VariantMetadataBuilder {
 public:
  static Result<VariantMetadataBuilder> FromMetadata(std::string_view metadata);

  uint32_t KeyId(std::string_view key);
  // The key of an id; Corrupt when the dictionary has no such id.
  Result<std::string_view> Key(uint64_t id) const;
  // The metadata bytes: the original ones when no key was added.
  std::string Finish() const;

 private:
  std::string original_;
  std::vector<std::string> keys_;
  std::map<std::string, uint32_t, std::less<>> ids_;
  size_t original_count_ = 0;
};

// One field of an object: its key's dictionary id and its encoded value.
struct VariantField {
  uint32_t key_id = 0;
  std::string value;
};

// The number of bytes the encoded value starting at `at` takes; Corrupt when it runs past the end.
Result<size_t> VariantValueSize(std::string_view value, size_t at = 0);

// The fields of an encoded object, each value copied out; InvalidArgument when the value is not an
// object (the caller names what it expected).
Result<std::vector<VariantField>> VariantObjectFields(std::string_view value);

// An object of these fields, laid out in key order as the encoding requires. Two fields with one
// key are Corrupt (a shredded field also present in the residual object is malformed shredding).
Result<std::string> BuildVariantObject(std::vector<VariantField> fields, const VariantMetadataBuilder& metadata);

// A typed value as a variant primitive. int_bits (8, 16 or 32) picks the width an int is stored
// with; types a variant cannot hold (struct, variant, geometry, ...) are InvalidArgument.
Result<std::string> EncodeVariantPrimitive(const Literal& value, int int_bits = 32);

// The variant null (a value that is present and null, as opposed to missing).
std::string VariantNullValue();

}  // namespace floe
