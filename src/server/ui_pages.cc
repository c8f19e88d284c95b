#include "server/ui_pages.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "catalog/rest/rest_protocol.h"
#include "scan/history_layout.h"
#include "types/temporal.h"

namespace floe {
namespace {

// At most this many snapshots are drawn on the timeline (the newest); a longer history says
// how many older ones it leaves out, so a table of 10,000 snapshots still gives a small page.
constexpr size_t kTimelineRows = 200;

std::string Html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string Page(const std::string& title, const std::string& crumbs, const std::string& body) {
  return fmt::format(R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{0} - floe</title>
<style>
body {{ font: 14px/1.4 system-ui, sans-serif; margin: 1.5em 2em; color: #222; }}
h1 {{ font-size: 1.4em; }} h2 {{ font-size: 1.1em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }}
table {{ border-collapse: collapse; }} td, th {{ padding: 2px 10px 2px 0; text-align: left; vertical-align: top; }}
th {{ color: #555; font-weight: 600; }} code, .mono {{ font-family: ui-monospace, monospace; font-size: 12px; }}
nav a {{ color: #0b5cad; }} a {{ color: #0b5cad; text-decoration: none; }} .muted {{ color: #777; }}
.ref {{ fill: #0b5cad; }} .tag {{ fill: #9a5b00; }} .hint {{ color: #9a5b00; }}
</style></head>
<body><nav>{1}</nav>
<h1>{0}</h1>
{2}
</body></html>
)",
                     Html(title), crumbs, body);
}

std::string Crumbs(const std::string& ns = "", const std::string& table = "") {
  std::string out = R"(<a href="/ui">floe</a>)";
  if (!ns.empty()) out += fmt::format(R"( / <a href="{}">{}</a>)", UiNamespaceUrl(ns), Html(ns));
  if (!table.empty()) out += fmt::format(R"( / <a href="{}">{}</a>)", UiTableUrl(ns, table), Html(table));
  return out;
}


std::string Summary(const Snapshot& s, const char* key) {
  auto it = s.summary.find(key);
  return it == s.summary.end() ? "" : it->second;
}

std::string SchemaSection(const TableMetadata& m) {
  const Schema& schema = m.CurrentSchema();
  std::string out = fmt::format("<h2>Schema (id {})</h2><table><tr><th>id</th><th>name</th><th>type</th>"
                                "<th>required</th><th>identifier</th></tr>",
                                schema.schema_id());
  const auto& ids = schema.identifier_field_ids();
  for (const NestedField& f : schema.fields()) {
    bool identifier = std::find(ids.begin(), ids.end(), f.id) != ids.end();
    out += fmt::format("<tr><td>{}</td><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>", f.id,
                       Html(f.name), Html(f.type->ToString()), f.required ? "yes" : "", identifier ? "key" : "");
  }
  return out + "</table>";
}

std::string SpecAndOrderSection(const TableMetadata& m) {
  const Schema& schema = m.CurrentSchema();
  const PartitionSpec& spec = m.DefaultSpec();
  std::string out = fmt::format("<h2>Partition spec (id {})</h2>", spec.spec_id());
  if (spec.fields().empty()) {
    out += "<p class=\"muted\">unpartitioned</p>";
  } else {
    out += "<table><tr><th>name</th><th>transform</th><th>source</th></tr>";
    for (const PartitionField& f : spec.fields()) {
      out += fmt::format("<tr><td>{}</td><td><code>{}</code></td><td>{}</td></tr>", Html(f.name),
                         Html(f.transform.ToString()), Html(schema.FindColumnName(f.source_id)));
    }
    out += "</table>";
  }
  const SortOrder* order = m.SortOrderById(m.default_sort_order_id);
  out += fmt::format("<h2>Sort order (id {})</h2>", m.default_sort_order_id);
  if (order == nullptr || order->fields().empty()) return out + "<p class=\"muted\">unsorted</p>";
  out += "<table><tr><th>source</th><th>transform</th><th>direction</th><th>nulls</th></tr>";
  for (const SortField& f : order->fields()) {
    out += fmt::format("<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
                       Html(schema.FindColumnName(f.source_id)), Html(f.transform.ToString()),
                       f.direction == SortDirection::kAscending ? "asc" : "desc",
                       f.null_order == NullOrder::kNullsFirst ? "first" : "last");
  }
  return out + "</table>";
}

std::string PropertiesSection(const TableMetadata& m) {
  std::string out = "<h2>Properties</h2>";
  if (m.properties.empty()) return out + "<p class=\"muted\">none</p>";
  out += "<table>";
  for (const auto& [k, v] : m.properties) {
    out += fmt::format("<tr><td><code>{}</code></td><td><code>{}</code></td></tr>", Html(k), Html(v));
  }
  return out + "</table>";
}

// The history as an SVG timeline: a dot per snapshot, a lane per line of descent, lines from a
// snapshot to its parent, and the refs beside their snapshots.
std::string TimelineSection(const TableMetadata& m) {
  std::vector<HistoryRow> rows = LayoutHistory(m);
  std::string out = fmt::format("<h2>History ({} snapshots, {} refs)</h2>", m.snapshots.size(), m.refs.size());
  if (rows.empty()) return out + "<p class=\"muted\">no snapshots yet</p>";
  size_t shown = std::min(rows.size(), kTimelineRows);
  size_t lanes = 1;
  for (size_t i = 0; i < shown; ++i) lanes = std::max(lanes, rows[i].lanes);
  const int step = 22, lane_width = 16, left = 10;
  auto x = [&](size_t lane) { return left + static_cast<int>(lane) * lane_width; };
  auto y = [&](size_t row) { return 14 + static_cast<int>(row) * step; };
  int text_x = x(lanes) + 8;
  std::string svg = fmt::format(R"(<svg id="timeline" xmlns="http://www.w3.org/2000/svg" width="1100" height="{}">)",
                                y(shown) - step + 14);
  for (size_t i = 0; i + 1 < shown; ++i) {
    for (const auto& [from, to] : rows[i].edges) {
      svg += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#999" stroke-width="2"/>)", x(from), y(i),
                         x(to), y(i + 1));
    }
  }
  for (size_t i = 0; i < shown; ++i) {
    const HistoryRow& row = rows[i];
    const Snapshot& s = *row.snapshot;
    bool current = m.current_snapshot_id && *m.current_snapshot_id == s.snapshot_id;
    svg += fmt::format(R"(<circle class="snapshot" data-snapshot-id="{}" cx="{}" cy="{}" r="5" fill="{}"/>)",
                       s.snapshot_id, x(row.lane), y(i), current ? "#0b5cad" : "#fff");
    svg += fmt::format(R"(<circle cx="{}" cy="{}" r="5" fill="none" stroke="#0b5cad" stroke-width="1.5"/>)",
                       x(row.lane), y(i));
    std::string text = fmt::format(R"(<tspan class="mono">{}</tspan>)", s.snapshot_id);
    for (const std::string& label : row.labels) {
      bool tag = label.rfind("tag: ", 0) == 0;
      text += fmt::format(R"( <tspan class="{}" font-weight="600">[{}]</tspan>)", tag ? "tag" : "ref", Html(label));
    }
    text += fmt::format(" {} {}", Html(FormatCommitTime(s.timestamp_ms)), Html(s.operation()));
    std::string files = Summary(s, "added-data-files"), rows_added = Summary(s, "added-records");
    std::string removed = Summary(s, "deleted-data-files"), deletes = Summary(s, "added-delete-files");
    if (!files.empty()) text += " +" + Html(files) + " files";
    if (!removed.empty()) text += " -" + Html(removed) + " files";
    if (!deletes.empty()) text += " +" + Html(deletes) + " delete files";
    if (!rows_added.empty()) text += " +" + Html(rows_added) + " rows";
    svg += fmt::format(R"(<text x="{}" y="{}" font-size="12" dominant-baseline="middle">{}</text>)", text_x, y(i),
                       text);
  }
  out += svg + "</svg>";
  if (shown < rows.size()) {
    out += fmt::format("<p class=\"muted\">{} older snapshots not drawn (floe history --graph shows all)</p>",
                       rows.size() - shown);
  }
  return out;
}

// Bars of a file-size histogram; `width` and `height` of the whole plot.
std::string HistogramSvg(const PartitionStats& p, int width, int height, bool labels) {
  int64_t top = 1;
  for (int64_t c : p.size_histogram) top = std::max(top, c);
  int bar = width / static_cast<int>(kFileSizeBuckets);
  int plot = labels ? height - 14 : height;
  std::string svg = fmt::format(R"(<svg class="histogram" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}">)",
                                width, height);
  for (size_t b = 0; b < kFileSizeBuckets; ++b) {
    int h = static_cast<int>(static_cast<double>(p.size_histogram[b]) / static_cast<double>(top) * (plot - 2));
    if (p.size_histogram[b] > 0) h = std::max(h, 2);
    svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#0b5cad"><title>{} files {}</title></rect>)",
                       static_cast<int>(b) * bar + 1, plot - h, bar - 2, h, p.size_histogram[b],
                       Html(FileSizeBucketLabel(b)));
    if (labels) {
      svg += fmt::format(R"(<text x="{}" y="{}" font-size="10" text-anchor="middle">{}</text>)",
                         static_cast<int>(b) * bar + bar / 2, height - 2, Html(FileSizeBucketLabel(b)));
    }
  }
  return svg + "</svg>";
}

std::string FilesSection(const UiTable& t) {
  std::string out = "<h2>Files</h2>";
  if (t.stats == nullptr) return out + fmt::format("<p class=\"hint\">files not read: {}</p>", Html(t.files_error));
  const TableStats& s = *t.stats;
  const PartitionStats& total = s.total;
  out += fmt::format(
      "<p id=\"files-summary\">{} data files ({}, {} rows) in {} partitions; {} position and {} equality delete "
      "files; {} manifests; target file size {}</p>",
      total.data_files, Html(FormatByteSize(total.data_bytes)), total.records, s.partitions.size(),
      total.position_delete_files, total.equality_delete_files, s.manifests, Html(FormatByteSize(s.target_file_size)));
  out += "<p>File sizes, all partitions:</p>" + HistogramSvg(total, 480, 110, true);
  for (const std::string& hint : s.hints) out += fmt::format("<p class=\"hint\">{}</p>", Html(hint));
  if (s.partitions.empty()) return out;
  out += "<table id=\"partitions\"><tr><th>partition</th><th>data files</th><th>size</th><th>rows</th>"
         "<th>small files</th><th>delete files</th><th>sizes</th></tr>";
  for (const PartitionStats& p : s.partitions) {
    out += fmt::format(
        "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        Html(p.partition), p.data_files, Html(FormatByteSize(p.data_bytes)), p.records, p.small_files,
        p.position_delete_files + p.equality_delete_files, HistogramSvg(p, 120, 24, false));
  }
  return out + "</table>";
}

std::string DeletionVectorsSection(const UiTable& t) {
  if (t.metadata->format_version < 3) return "";
  std::string out = "<h2>Deletion vectors</h2>";
  if (t.deletion_vectors == nullptr) {
    return out + fmt::format("<p class=\"hint\">deletion vectors not read: {}</p>", Html(t.deletion_vectors_error));
  }
  const UiDeletionVectors& d = *t.deletion_vectors;
  if (d.vectors == 0) return out + "<p id=\"dv-summary\" class=\"muted\">no data file has a deletion vector</p>";
  out += fmt::format("<p id=\"dv-summary\">{} data files with a deletion vector, {} rows deleted{}</p>", d.vectors,
                     d.deleted_rows,
                     static_cast<int64_t>(d.shown.size()) < d.vectors
                         ? fmt::format("; the {} with most rows deleted below", d.shown.size())
                         : std::string());
  out += "<table id=\"deletion-vectors\"><tr><th>data file</th><th>rows</th><th>deleted</th><th>live</th>"
         "<th>vector (Puffin file, offset, length)</th></tr>";
  for (const UiDeletionVector& v : d.shown) {
    const std::string rows = v.data_rows >= 0 ? std::to_string(v.data_rows) : "?";
    const std::string live = v.data_rows >= 0 ? std::to_string(v.data_rows - v.deleted_rows) : "?";
    out += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code> {} +{}</td></tr>",
                       Html(v.data_file), rows, v.deleted_rows, live, Html(v.puffin_file), v.offset, v.length);
  }
  return out + "</table>";
}

std::string ActivitySection(const ActivitySeries& a) {
  static const char* kNames[kActivityKinds] = {"commits", "conflicts", "server retries"};
  static const char* kColors[kActivityKinds] = {"#0b5cad", "#b3261e", "#9a5b00"};
  std::string out = "<h2>Last hour</h2><table><tr>";
  for (size_t k = 0; k < kActivityKinds; ++k) {
    int64_t top = 1, sum = 0;
    for (int64_t c : a.counts[k]) top = std::max(top, c), sum += c;
    std::string svg = fmt::format(
        R"(<svg class="activity" data-kind="{}" data-total="{}" xmlns="http://www.w3.org/2000/svg" width="240" height="40">)",
        kNames[k], sum);
    for (size_t i = 0; i < kActivityMinutes; ++i) {
      int h = static_cast<int>(static_cast<double>(a.counts[k][i]) / static_cast<double>(top) * 38);
      if (a.counts[k][i] > 0) h = std::max(h, 2);
      svg += fmt::format(R"(<rect x="{}" y="{}" width="3" height="{}" fill="{}"/>)", static_cast<int>(i) * 4,
                         40 - h, h, kColors[k]);
    }
    svg += "</svg>";
    out += fmt::format("<td>{}<br>{} {} </td>", svg, sum, kNames[k]);
  }
  return out + "</tr></table><p class=\"muted\">per minute, newest on the right; counted by this server since it "
               "started</p>";
}

}  // namespace

std::string UiNamespaceUrl(const std::string& ns) { return "/ui/namespaces/" + PercentEncode(ns); }

std::string UiTableUrl(const std::string& ns, const std::string& table) {
  return UiNamespaceUrl(ns) + "/tables/" + PercentEncode(table);
}

std::string UiNamespacesPage(const std::vector<std::string>& namespaces) {
  std::string body = "<ul id=\"namespaces\">";
  for (const auto& ns : namespaces) body += fmt::format(R"(<li><a href="{}">{}</a></li>)", UiNamespaceUrl(ns), Html(ns));
  body += "</ul>";
  if (namespaces.empty()) body = "<p class=\"muted\">no namespaces you may read</p>";
  return Page("Namespaces", Crumbs(), body);
}

std::string UiTablesPage(const std::string& ns, const std::vector<std::string>& tables,
                         const std::vector<std::string>& views) {
  std::string body = "<ul id=\"tables\">";
  for (const auto& t : tables) body += fmt::format(R"(<li><a href="{}">{}</a></li>)", UiTableUrl(ns, t), Html(t));
  body += "</ul>";
  if (tables.empty()) body = "<p class=\"muted\">no tables</p>";
  if (!views.empty()) {
    body += "<h2>Views</h2><ul id=\"views\">";
    for (const auto& v : views) body += fmt::format(R"(<li>{} <span class="muted">view</span></li>)", Html(v));
    body += "</ul>";
  }
  return Page("Namespace " + ns, Crumbs(ns), body);
}

std::string UiTablePage(const UiTable& t) {
  const TableMetadata& m = *t.metadata;
  std::string body = fmt::format(
      "<p class=\"mono\">format v{} · uuid {} · {}</p>", m.format_version, Html(m.table_uuid),
      Html(t.metadata_location));
  body += SchemaSection(m) + SpecAndOrderSection(m) + PropertiesSection(m) + TimelineSection(m) + FilesSection(t) +
          DeletionVectorsSection(t) + ActivitySection(t.activity);
  return Page(t.namespace_name + "." + t.table_name, Crumbs(t.namespace_name, t.table_name), body);
}

std::string UiErrorPage(int status, const std::string& message) {
  return Page(fmt::format("{}", status), Crumbs(), fmt::format("<p>{}</p>", Html(message)));
}

}  // namespace floe
