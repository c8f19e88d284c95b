#include "meta/metadata_reuse.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "meta/json_internal.h"
#include "meta/json_scan.h"
#include "meta/metadata_json.h"

namespace floe {
namespace {

namespace js = json_scan;
using Json = nlohmann::json;

// Where a document's snapshots lie: the top-level "snapshots" array and its elements.
struct Layout {
  js::Span array;
  std::vector<js::Span> snapshots;
  std::string table_uuid;  // empty when absent or not a string
};

// nullopt when the document is not the plain case: exactly one top-level "snapshots" key
// holding an array of objects, and no top-level key spelled with escapes (which could spell
// "snapshots" in a way the scan does not see).
std::optional<Layout> Locate(std::string_view text) {
  auto members = js::ObjectMembers(text);
  if (!members) return std::nullopt;
  Layout out;
  int arrays = 0;
  for (const js::Member& m : *members) {
    if (m.raw_key.find('\\') != std::string_view::npos) return std::nullopt;
    if (m.raw_key == "snapshots") {
      out.array = m.value;
      ++arrays;
    } else if (m.raw_key == "table-uuid") {
      Json uuid = Json::parse(m.value.Of(text), nullptr, /*allow_exceptions=*/false);
      if (uuid.is_string()) out.table_uuid = uuid.get<std::string>();
    }
  }
  if (arrays != 1) return std::nullopt;
  auto elements = js::ArrayElements(text, out.array);
  if (!elements) return std::nullopt;
  for (const js::Span& e : *elements)
    if (text[e.begin] != '{') return std::nullopt;
  out.snapshots = std::move(*elements);
  return out;
}

// A previous document is used only when its spans and snapshots line up one to one and its
// text parses back to exactly its snapshots.
bool Usable(const PreviousDocument& previous) {
  if (!previous.metadata || !previous.text || !previous.text->reparses_exactly) return false;
  const MetadataText& t = *previous.text;
  const auto& snapshots = previous.metadata->snapshots;
  if (t.snapshot_spans.size() != snapshots.size() || t.snapshot_ids.size() != snapshots.size()) return false;
  for (size_t i = 0; i < snapshots.size(); ++i) {
    const auto [begin, end] = t.snapshot_spans[i];
    if (t.snapshot_ids[i] != snapshots[i].snapshot_id || begin > end || end > t.text.size()) return false;
  }
  return true;
}

// Finds the previous document's snapshot whose text equals given bytes. Snapshots keep their
// order from one document to the next, so the one after the last match is tried first; a
// hash index over all of them (first and last bytes and the length: cheap to build, nearly
// unique because a snapshot's id is among its first bytes) serves the rest. A candidate is
// always confirmed by comparing every byte.
class SnapshotMatcher {
 public:
  explicit SnapshotMatcher(const MetadataText& previous) : previous_(previous) {}

  std::optional<size_t> Find(std::string_view bytes) {
    if (next_ < previous_.snapshot_spans.size() && Text(next_) == bytes) return next_++;
    if (!indexed_) BuildIndex();
    auto [from, to] = index_.equal_range(Key(bytes));
    for (auto it = from; it != to; ++it) {
      if (Text(it->second) == bytes) {
        next_ = it->second + 1;
        return it->second;
      }
    }
    return std::nullopt;
  }

 private:
  std::string_view Text(size_t i) const {
    const auto [begin, end] = previous_.snapshot_spans[i];
    return std::string_view(previous_.text).substr(begin, end - begin);
  }

  static uint64_t Key(std::string_view bytes) {
    constexpr size_t kEdge = 64;
    const std::hash<std::string_view> hash;
    if (bytes.size() <= 2 * kEdge) return hash(bytes);
    return hash(bytes.substr(0, kEdge)) * 31 + hash(bytes.substr(bytes.size() - kEdge)) * 7 + bytes.size();
  }

  void BuildIndex() {
    indexed_ = true;
    index_.reserve(previous_.snapshot_spans.size());
    for (size_t i = 0; i < previous_.snapshot_spans.size(); ++i) index_.emplace(Key(Text(i)), i);
  }

  const MetadataText& previous_;
  size_t next_ = 0;
  bool indexed_ = false;
  std::unordered_multimap<uint64_t, size_t> index_;
};

std::shared_ptr<const MetadataText> IndexText(std::string text, const TableMetadata& m, const Layout& layout) {
  auto out = std::make_shared<MetadataText>();
  out->format_version = m.format_version;
  out->snapshot_ids.reserve(m.snapshots.size());
  out->snapshot_spans.reserve(m.snapshots.size());
  for (size_t i = 0; i < m.snapshots.size(); ++i) {
    out->snapshot_ids.push_back(m.snapshots[i].snapshot_id);
    out->snapshot_spans.emplace_back(layout.snapshots[i].begin, layout.snapshots[i].end);
  }
  out->text = std::move(text);
  return out;
}

// The snapshots of `text`, reused from `previous` or parsed; nullopt when any of them does
// not parse (the full parse then tells why).
std::optional<std::vector<Snapshot>> ReadSnapshots(std::string_view text, const Layout& layout,
                                                   const PreviousDocument& previous, size_t& reused) {
  SnapshotMatcher matcher(*previous.text);
  std::vector<Snapshot> out;
  out.reserve(layout.snapshots.size());
  for (const js::Span& span : layout.snapshots) {
    const std::string_view bytes = span.Of(text);
    if (auto found = matcher.Find(bytes)) {
      out.push_back(previous.metadata->snapshots[*found]);
      ++reused;
      continue;
    }
    Json j = Json::parse(bytes, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return std::nullopt;
    auto snapshot = SnapshotFromJson(j);
    if (!snapshot) return std::nullopt;
    out.push_back(std::move(*snapshot));
  }
  return out;
}

// The document minus its snapshots, read with the snapshots given; nullopt on any error.
std::optional<TableMetadata> ReadRest(std::string_view text, const Layout& layout, std::vector<Snapshot> snapshots) {
  std::string rest;
  rest.reserve(text.size() - (layout.array.end - layout.array.begin) + 2);
  rest.append(text.substr(0, layout.array.begin + 1));  // up to and with '['
  rest.append(text.substr(layout.array.end - 1));       // from ']'
  Json j = Json::parse(rest, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  // The parser must see the array the scan saw, now empty.
  auto it = j.find("snapshots");
  if (it == j.end() || !it->is_array() || !it->empty()) return std::nullopt;
  auto m = internal::TableMetadataFromJson(j, &snapshots);
  if (!m) return std::nullopt;
  return std::move(*m);
}

Result<IndexedMetadata> Parse(std::string text, const std::optional<Layout>& layout, const PreviousDocument& previous) {
  IndexedMetadata out;
  bool parsed = false;
  if (layout && Usable(previous)) {
    if (auto snapshots = ReadSnapshots(text, *layout, previous, out.reused_snapshots)) {
      if (auto m = ReadRest(text, *layout, std::move(*snapshots))) {
        out.metadata = std::move(*m);
        parsed = true;
      }
    }
  }
  if (!parsed) {
    // No previous to reuse, or something unusual: the full parse decides, errors included.
    out.reused_snapshots = 0;
    FLOE_ASSIGN_OR_RETURN(out.metadata, ParseTableMetadata(text));
  }
  // A parsed list has one snapshot per array element; anything else means the scan and the
  // parser disagree, and the text is then not indexed.
  if (layout && layout->snapshots.size() == out.metadata.snapshots.size())
    out.text = IndexText(std::move(text), out.metadata, *layout);
  return out;
}

}  // namespace

Result<IndexedMetadata> ParseTableMetadataReusing(std::string text, const PreviousDocument& previous) {
  std::optional<Layout> layout = Locate(text);
  return Parse(std::move(text), layout, previous);
}

Result<IndexedMetadata> ParseTableMetadataReusing(std::string text, const FindPreviousDocument& find_previous) {
  std::optional<Layout> layout = Locate(text);
  PreviousDocument previous;
  if (layout) previous = find_previous(layout->table_uuid);
  return Parse(std::move(text), layout, previous);
}

}  // namespace floe
