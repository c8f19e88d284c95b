// `floe inspect` of a Puffin file: its footer as JSON, and what each deletion vector holds.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "floe/result.h"

namespace floe::parquet {

// Does `bytes` start like a Puffin file (the magic PFA1)?
bool LooksLikePuffin(std::string_view bytes);

// The whole file `bytes` (named `name` in errors): the footer's blobs and properties; a
// deletion-vector blob also gets "positions" (how many it holds, checked against its
// "cardinality" property) and its first and last position. A damaged footer or blob is Corrupt
// naming the file and the blob.
Result<nlohmann::json> DescribePuffinBytes(std::string_view bytes, const std::string& name);

}  // namespace floe::parquet
