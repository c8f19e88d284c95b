// WriteTableMetadata: the metadata document's text, written fast where history makes it long.
//
// A table with 10,000 snapshots has a document of several MB, almost all of it snapshots and
// the two logs, and every commit writes a new one. Building an nlohmann value of that and
// dumping it took ~100 ms a commit; appending the text directly takes a few. The small, varied
// parts (schemas, specs, sort orders, properties, refs, statistics) still go through nlohmann.
//
// The output is byte for byte nlohmann's compact dump of the whole document
// (internal::WriteTableMetadataReference; metadata_writer_test.cc compares the two): no
// whitespace between tokens, empty containers as [] and {}, strings escaped as nlohmann
// escapes them. Compact, as Iceberg's Java and Python libraries write it: every commit writes
// and every reader parses the whole history, and indentation made it half as long again.
// Strings holding non-ASCII bytes are escaped by nlohmann itself, which also replaces invalid
// UTF-8 exactly as before.
#include <charconv>

#include "meta/json_internal.h"
#include "meta/metadata_json.h"
#include "meta/metadata_writer.h"

namespace floe {
namespace {

using internal::Ordered;

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  void Raw(std::string_view text) { out_.append(text); }

  // True once String() has written a string that was not UTF-8.
  bool replaced() const { return replaced_; }

  void Int(int64_t v) {
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    (void)ec;  // 24 characters hold any int64
    out_.append(buf, end);
  }

  void String(std::string_view s) {
    const size_t start = out_.size();
    out_.push_back('"');
    size_t run = 0;  // start of the pending stretch that needs no escaping
    for (size_t i = 0; i < s.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(s[i]);
      if (c >= 0x80) {
        // Multi-byte UTF-8 (or bytes that are not UTF-8): nlohmann's own rules, unchanged.
        out_.resize(start);
        const Ordered value = std::string(s);  // not braces: those make an array
        try {
          out_.append(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::strict));
        } catch (const nlohmann::json::type_error&) {
          // Not UTF-8: written with replacement characters, so the text no longer reads back
          // as the string it was written from.
          replaced_ = true;
          out_.append(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        }
        return;
      }
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      out_.append(s.data() + run, i - run);
      run = i + 1;
      switch (c) {
        case '"': out_.append("\\\""); break;
        case '\\': out_.append("\\\\"); break;
        case '\b': out_.append("\\b"); break;
        case '\f': out_.append("\\f"); break;
        case '\n': out_.append("\\n"); break;
        case '\r': out_.append("\\r"); break;
        case '\t': out_.append("\\t"); break;
        default: {
          static constexpr char kHex[] = "0123456789abcdef";
          const char escaped[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xf]};
          out_.append(escaped, sizeof escaped);
        }
      }
    }
    out_.append(s.data() + run, s.size() - run);
    out_.push_back('"');
  }

  // Starts member `key` of an object.
  void Key(std::string_view key, bool first) {
    if (!first) out_.push_back(',');
    String(key);
    out_.push_back(':');
  }

  // A value nlohmann writes.
  void Nested(const Ordered& value) { out_.append(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)); }

 private:
  std::string& out_;
  bool replaced_ = false;
};

// One snapshot as an element of the top-level "snapshots" array.
void WriteSnapshot(Writer& w, const Snapshot& s, bool v1) {
  w.Raw("{");
  w.Key("snapshot-id", true);
  w.Int(s.snapshot_id);
  if (s.parent_snapshot_id) {
    w.Key("parent-snapshot-id", false);
    w.Int(*s.parent_snapshot_id);
  }
  // v1 snapshots have no sequence number; v2 readers default a missing one to 0.
  if (!(v1 && s.sequence_number == 0)) {
    w.Key("sequence-number", false);
    w.Int(s.sequence_number);
  }
  w.Key("timestamp-ms", false);
  w.Int(s.timestamp_ms);
  w.Key("summary", false);
  // "operation" first, as other engines write it; the rest in key order.
  w.Raw("{");
  bool first = true;
  if (auto it = s.summary.find("operation"); it != s.summary.end()) {
    w.Key("operation", true);
    w.String(it->second);
    first = false;
  }
  for (const auto& [k, v] : s.summary) {
    if (k == "operation") continue;
    w.Key(k, first);
    w.String(v);
    first = false;
  }
  w.Raw("}");
  if (!s.manifest_list.empty()) {
    w.Key("manifest-list", false);
    w.String(s.manifest_list);
  } else {
    w.Key("manifests", false);
    w.Raw("[");
    for (size_t i = 0; i < s.v1_manifests.size(); ++i) {
      if (i > 0) w.Raw(",");
      w.String(s.v1_manifests[i]);
    }
    w.Raw("]");
  }
  if (s.schema_id) {
    w.Key("schema-id", false);
    w.Int(*s.schema_id);
  }
  if (s.first_row_id) {
    w.Key("first-row-id", false);
    w.Int(*s.first_row_id);
  }
  if (s.added_rows) {
    w.Key("added-rows", false);
    w.Int(*s.added_rows);
  }
  w.Raw("}");
}

// A top-level array whose elements `write_one` writes.
template <typename T, typename F>
void WriteArray(Writer& w, const std::vector<T>& items, F write_one) {
  w.Raw("[");
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) w.Raw(",");
    write_one(items[i]);
  }
  w.Raw("]");
}

// The document into `doc`; with `record`, where each snapshot went; snapshots found in
// `previous` are copied from its text.
void Write(const TableMetadata& m, const MetadataText* previous, MetadataText& doc, bool record) {
  std::string& out = doc.text;
  // Snapshots dominate a long history's document; ~500 bytes each is a fair first guess.
  out.reserve(4096 + (previous ? previous->text.size() : m.snapshots.size() * 500) + m.snapshot_log.size() * 60 +
              m.metadata_log.size() * 130);
  if (previous && previous->format_version != m.format_version) previous = nullptr;  // v1 writes differ
  doc.format_version = m.format_version;
  Writer w(out);
  w.Raw("{");
  bool first = true;
  const Ordered head = internal::MetadataHeadToOrdered(m);
  for (const auto& [key, value] : head.items()) {
    w.Key(key, first);
    w.Nested(value);
    first = false;
  }
  const bool v1 = m.format_version == 1;
  w.Key("snapshots", first);
  size_t next_previous = 0;  // snapshots keep their order, so the search resumes where it stopped
  WriteArray(w, m.snapshots, [&](const Snapshot& s) {
    const size_t begin = out.size();
    size_t found = next_previous;
    if (previous) {
      const auto& ids = previous->snapshot_ids;
      while (found < ids.size() && ids[found] != s.snapshot_id) ++found;
    }
    if (previous && found < previous->snapshot_ids.size()) {
      const auto [from, to] = previous->snapshot_spans[found];
      out.append(previous->text, from, to - from);
      next_previous = found + 1;
    } else {
      WriteSnapshot(w, s, v1);
    }
    if (record) {
      doc.snapshot_ids.push_back(s.snapshot_id);
      doc.snapshot_spans.emplace_back(begin, out.size());
    }
  });
  w.Key("statistics", false);
  w.Nested(internal::StatisticsToOrdered(m));
  w.Key("partition-statistics", false);
  w.Nested(internal::PartitionStatisticsToOrdered(m));
  // Both logs hold {"timestamp-ms": ..., <what>: ...} entries.
  auto log_entry = [&](int64_t timestamp_ms, std::string_view key, auto write_value) {
    w.Raw("{");
    w.Key("timestamp-ms", true);
    w.Int(timestamp_ms);
    w.Key(key, false);
    write_value();
    w.Raw("}");
  };
  w.Key("snapshot-log", false);
  WriteArray(w, m.snapshot_log, [&](const SnapshotLogEntry& e) {
    const size_t begin = out.size();
    log_entry(e.timestamp_ms, "snapshot-id", [&] { w.Int(e.snapshot_id); });
    if (record) doc.snapshot_log_spans.emplace_back(begin, out.size());
  });
  w.Key("metadata-log", false);
  WriteArray(w, m.metadata_log, [&](const MetadataLogEntry& e) {
    log_entry(e.timestamp_ms, "metadata-file", [&] { w.String(e.metadata_file); });
  });
  w.Raw("}");
  doc.reparses_exactly = !w.replaced();
}

}  // namespace

std::string WriteTableMetadata(const TableMetadata& m) {
  MetadataText doc;
  Write(m, nullptr, doc, /*record=*/false);
  return std::move(doc.text);
}

std::shared_ptr<const MetadataText> WriteTableMetadataText(const TableMetadata& m, const MetadataText* previous) {
  auto doc = std::make_shared<MetadataText>();
  doc->snapshot_ids.reserve(m.snapshots.size());
  doc->snapshot_spans.reserve(m.snapshots.size());
  doc->snapshot_log_spans.reserve(m.snapshot_log.size());
  Write(m, previous, *doc, /*record=*/true);
  return doc;
}

}  // namespace floe
