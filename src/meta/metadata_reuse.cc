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
using Spans = std::vector<std::pair<size_t, size_t>>;

constexpr std::string_view kSnapshots = "snapshots";
constexpr std::string_view kSnapshotLog = "snapshot-log";

// The table-uuid, to choose a previous document by: the first "table-uuid" key in the text,
// wherever it is (the top-level one comes first in every writer's layout). Only a hint: a
// wrong one picks a previous that shares fewer bytes, never a wrong result.
std::string TableUuidHint(std::string_view text) {
  constexpr std::string_view kKey = "\"table-uuid\"";
  size_t i = text.find(kKey);
  if (i == std::string_view::npos) return {};
  i = text.find('"', i + kKey.size());
  if (i == std::string_view::npos) return {};
  const size_t end = text.find('"', i + 1);
  if (end == std::string_view::npos) return {};
  return std::string(text.substr(i + 1, end - i - 1));
}

// A previous document is used only when its spans and lists line up one to one and its text
// parses back to exactly its metadata.
bool Usable(const PreviousDocument& previous) {
  if (!previous.metadata || !previous.text || !previous.text->reparses_exactly) return false;
  const MetadataText& t = *previous.text;
  const TableMetadata& m = *previous.metadata;
  if (t.snapshot_spans.size() != m.snapshots.size() || t.snapshot_ids.size() != m.snapshots.size() ||
      t.snapshot_log_spans.size() != m.snapshot_log.size())
    return false;
  for (size_t i = 0; i < m.snapshots.size(); ++i) {
    if (t.snapshot_ids[i] != m.snapshots[i].snapshot_id) return false;
  }
  for (const Spans* spans : {&t.snapshot_spans, &t.snapshot_log_spans}) {
    for (const auto& [begin, end] : *spans)
      if (begin > end || end > t.text.size()) return false;
  }
  return true;
}

// Finds, at a position of the new text, an element of one of the previous document's arrays
// whose bytes are there. Elements keep their order from one document to the next, so the one
// after the last match is tried first; an index by the first kPrefix bytes (which hold a
// snapshot's id, a log entry's time) serves the rest. A match is always confirmed on every
// byte.
class ElementMatcher {
 public:
  ElementMatcher(std::string_view previous_text, const Spans& previous_spans)
      : text_(previous_text), spans_(previous_spans) {}

  // The index of the previous element whose text starts `text` at `begin`.
  std::optional<size_t> MatchAt(std::string_view text, size_t begin) {
    const std::string_view rest = text.substr(begin);
    if (next_ < spans_.size() && rest.starts_with(Element(next_))) return next_++;
    if (rest.size() < kPrefix) return std::nullopt;
    if (!indexed_) BuildIndex();
    auto [from, to] = index_.equal_range(rest.substr(0, kPrefix));
    int tries = 0;  // bounded: many elements sharing a prefix must not make this quadratic
    for (auto it = from; it != to && tries < kMaxTries; ++it, ++tries) {
      if (rest.starts_with(Element(it->second))) {
        next_ = it->second + 1;
        return it->second;
      }
    }
    return std::nullopt;
  }

  size_t Length(size_t i) const { return spans_[i].second - spans_[i].first; }

 private:
  static constexpr size_t kPrefix = 48;
  static constexpr int kMaxTries = 8;

  std::string_view Element(size_t i) const { return text_.substr(spans_[i].first, Length(i)); }

  void BuildIndex() {
    indexed_ = true;
    index_.reserve(spans_.size());
    for (size_t i = 0; i < spans_.size(); ++i) {
      if (Length(i) >= kPrefix) index_.emplace(Element(i).substr(0, kPrefix), i);
    }
  }

  std::string_view text_;
  const Spans& spans_;
  size_t next_ = 0;
  bool indexed_ = false;
  std::unordered_multimap<std::string_view, size_t> index_;
};

// One top-level array whose elements may come from the previous document: where it lies in
// the new text, and for each element the previous element it equals, if any.
struct ReusedArray {
  std::optional<ElementMatcher> matcher;  // none without a usable previous
  std::optional<js::Span> array;           // the array, when the key occurs once and holds one
  int occurrences = 0;
  std::vector<js::Span> elements;
  std::vector<std::optional<size_t>> matches;  // per element: its previous element
};

struct Layout {
  ReusedArray snapshots;
  ReusedArray snapshot_log;
};

// Scans `text`, matching the two arrays' elements against `previous` (when usable) as it goes:
// a matched element's bytes are compared, not scanned. nullopt when the document is not the
// plain case: an object with exactly one top-level "snapshots" array of objects and no
// top-level key spelled with escapes (which could spell "snapshots" unseen).
std::optional<Layout> Locate(std::string_view text, const PreviousDocument* previous) {
  Layout layout;
  if (previous) {
    layout.snapshots.matcher.emplace(previous->text->text, previous->text->snapshot_spans);
    layout.snapshot_log.matcher.emplace(previous->text->text, previous->text->snapshot_log_spans);
  }
  auto array_of = [&](std::string_view key) -> ReusedArray* {
    return key == kSnapshots ? &layout.snapshots : key == kSnapshotLog ? &layout.snapshot_log : nullptr;
  };
  auto members = js::ObjectMembers(text, [&](std::string_view key, size_t index, size_t begin) -> size_t {
    ReusedArray* a = array_of(key);
    if (!a || !a->matcher) return 0;
    if (index == 0) a->matches.clear();  // a repeated key starts over (and is refused below)
    a->matches.resize(index + 1);
    auto found = a->matcher->MatchAt(text, begin);
    if (!found) return 0;
    a->matches[index] = *found;
    return a->matcher->Length(*found);
  });
  if (!members) return std::nullopt;
  for (js::Member& m : *members) {
    if (m.raw_key.find('\\') != std::string_view::npos) return std::nullopt;
    ReusedArray* a = array_of(m.raw_key);
    if (!a) continue;
    ++a->occurrences;
    if (text[m.value.begin] == '[') {
      a->array = m.value;
      a->elements = std::move(m.elements);
    }
  }
  for (ReusedArray* a : {&layout.snapshots, &layout.snapshot_log}) {
    if (a->occurrences != 1 || !a->array) {
      a->array.reset();
      continue;
    }
    a->matches.resize(a->elements.size());
    for (const js::Span& e : a->elements)
      if (text[e.begin] != '{') return std::nullopt;
  }
  if (!layout.snapshots.array) return std::nullopt;
  return layout;
}

// The array's elements, from the previous document where matched, else parsed; nullopt when
// one does not parse (the full parse then tells why). With `movable`, the previous elements
// are moved out of it: each at most once (a second match means a repeated element, which the
// full parse then judges).
template <typename T, typename F>
std::optional<std::vector<T>> ReadElements(std::string_view text, const ReusedArray& a, const std::vector<T>& previous,
                                           std::vector<T>* movable, F from_json, size_t& reused) {
  std::vector<T> out;
  out.reserve(a.elements.size());
  std::vector<bool> moved(movable ? movable->size() : 0);
  for (size_t i = 0; i < a.elements.size(); ++i) {
    if (const std::optional<size_t> k = a.matches[i]) {
      if (movable) {
        if (moved[*k]) return std::nullopt;
        moved[*k] = true;
        out.push_back(std::move((*movable)[*k]));
      } else {
        out.push_back(previous[*k]);
      }
      ++reused;
      continue;
    }
    Json j = Json::parse(a.elements[i].Of(text), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return std::nullopt;
    auto item = from_json(j);
    if (!item) return std::nullopt;
    out.push_back(std::move(*item));
  }
  return out;
}

// The document with the contents of the arrays read apart cut out ("snapshots": [] ...), read
// with those lists given; nullopt on any error.
std::optional<TableMetadata> ReadRest(std::string_view text, const Layout& layout, internal::ParsedLists lists) {
  std::vector<js::Span> cuts{*layout.snapshots.array};
  if (lists.snapshot_log) cuts.push_back(*layout.snapshot_log.array);
  if (cuts.size() == 2 && cuts[1].begin < cuts[0].begin) std::swap(cuts[0], cuts[1]);
  std::string rest;
  rest.reserve(text.size());
  size_t from = 0;
  for (const js::Span& cut : cuts) {
    rest.append(text.substr(from, cut.begin + 1 - from));  // up to and with '['
    from = cut.end - 1;                                    // on from ']'
  }
  rest.append(text.substr(from));
  auto parsed = internal::ParseMetadataText(rest);
  if (!parsed || !parsed->is_object()) return std::nullopt;
  const Json& j = *parsed;
  // The parser must see the arrays the scan saw, now empty.
  for (std::string_view key : {kSnapshots, kSnapshotLog}) {
    if (key == kSnapshotLog && !lists.snapshot_log) continue;
    auto it = j.find(key);
    if (it == j.end() || !it->is_array() || !it->empty()) return std::nullopt;
  }
  auto m = internal::TableMetadataFromJson(j, lists);
  if (!m) return std::nullopt;
  return std::move(*m);
}

// `movable`: the previous document itself when it was handed over, whose snapshots may be
// moved out (log entries are small: they are copied).
std::optional<TableMetadata> ReadReusing(std::string_view text, const Layout& layout, const TableMetadata& previous,
                                         TableMetadata* movable, size_t& reused) {
  auto snapshots = ReadElements(text, layout.snapshots, previous.snapshots, movable ? &movable->snapshots : nullptr,
                                SnapshotFromJson, reused);
  if (!snapshots) return std::nullopt;
  std::optional<std::vector<SnapshotLogEntry>> log;
  if (layout.snapshot_log.array) {
    size_t ignored = 0;
    log = ReadElements(text, layout.snapshot_log, previous.snapshot_log, static_cast<std::vector<SnapshotLogEntry>*>(nullptr),
                       internal::SnapshotLogEntryFromJson, ignored);
    if (!log) return std::nullopt;
  }
  return ReadRest(text, layout, internal::ParsedLists{&*snapshots, log ? &*log : nullptr});
}

std::shared_ptr<const MetadataText> IndexText(std::string text, const TableMetadata& m, const Layout& layout) {
  auto out = std::make_shared<MetadataText>();
  out->format_version = m.format_version;
  for (size_t i = 0; i < m.snapshots.size(); ++i) {
    out->snapshot_ids.push_back(m.snapshots[i].snapshot_id);
    out->snapshot_spans.emplace_back(layout.snapshots.elements[i].begin, layout.snapshots.elements[i].end);
  }
  if (layout.snapshot_log.array && layout.snapshot_log.elements.size() == m.snapshot_log.size()) {
    for (const js::Span& e : layout.snapshot_log.elements) out->snapshot_log_spans.emplace_back(e.begin, e.end);
  } else if (!m.snapshot_log.empty()) {
    return nullptr;  // a previous must line up on both lists
  }
  out->text = std::move(text);
  return out;
}

}  // namespace

Result<IndexedMetadata> ParseTableMetadataReusing(std::string text, const FindPreviousDocument& find_previous) {
  const PreviousDocument previous = find_previous ? find_previous(TableUuidHint(text)) : PreviousDocument{};
  const bool usable = Usable(previous);
  const std::optional<Layout> layout = Locate(text, usable ? &previous : nullptr);
  IndexedMetadata out;
  std::optional<TableMetadata> reused;
  if (layout && usable) {
    // Created non-const and held by no one else (PreviousDocument::handed_over): moving out of
    // it is safe, and no one sees it after.
    TableMetadata* movable = previous.handed_over && previous.metadata.use_count() == 1
                                 ? const_cast<TableMetadata*>(previous.metadata.get())
                                 : nullptr;
    reused = ReadReusing(text, *layout, *previous.metadata, movable, out.reused_snapshots);
  }
  if (reused) {
    out.metadata = std::move(*reused);
  } else {
    // No previous to reuse, or something unusual: the full parse decides, errors included.
    out.reused_snapshots = 0;
    FLOE_ASSIGN_OR_RETURN(out.metadata, ParseTableMetadata(text));
  }
  // A parsed list has one entry per array element; anything else means the scan and the
  // parser disagree, and the text is then not indexed.
  if (layout && layout->snapshots.elements.size() == out.metadata.snapshots.size())
    out.text = IndexText(std::move(text), out.metadata, *layout);
  return out;
}

Result<IndexedMetadata> ParseTableMetadataReusing(std::string text, const PreviousDocument& previous) {
  return ParseTableMetadataReusing(std::move(text), [&](std::string_view) { return previous; });
}

}  // namespace floe
