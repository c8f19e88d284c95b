// libFuzzer target: the variant decoder and the pieces that reassemble shredded variants. The
// first two bytes give the metadata's length; the metadata and then the value follow.
//   - a value that decodes prints JSON that parses, and that JSON encodes and decodes again;
//   - a value's size, when it has one, lies within its bytes;
//   - an object's fields, rebuilt through a metadata builder (with one key added), decode.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "types/variant.h"
#include "types/variant_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  const size_t metadata_size = std::min<size_t>(size - 2, static_cast<size_t>(data[0]) | static_cast<size_t>(data[1]) << 8);
  const std::string_view metadata = in.substr(2, metadata_size), value = in.substr(2 + metadata_size);

  auto text = floe::VariantToJsonText(metadata, value);
  if (text) {
    nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) std::abort();  // the decoder printed something that is not JSON
    auto again = floe::EncodeVariant(j);
    if (!again) std::abort();  // JSON the decoder printed is never too deep to encode
    if (!floe::VariantToJsonText(again->metadata, again->value)) std::abort();
  }
  auto value_size = floe::VariantValueSize(value);
  if (value_size && *value_size > value.size()) std::abort();

  auto builder = floe::VariantMetadataBuilder::FromMetadata(metadata);
  auto fields = floe::VariantObjectFields(value);
  if (builder && fields) {
    fields->push_back({builder->KeyId("\x01fuzz-added"), floe::VariantNullValue()});
    auto object = floe::BuildVariantObject(*fields, *builder);
    // Rebuilt from fields that sized correctly, with every id checked against the dictionary:
    // the new object decodes whenever each field's own value does.
    if (object && text && !floe::VariantToJsonText(builder->Finish(), *object)) std::abort();
  }
  return 0;
}
