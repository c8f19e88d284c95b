#include "cli/help_examples.h"

#include <map>
#include <string>

namespace floe::cli {
namespace {

// Keyed by the command's path below `floe`. Each example runs as written on the table the
// README and `floe demo` use (sales.orders), or on an obvious file name.
const std::map<std::string, std::string>& Examples() {
  static const std::map<std::string, std::string> examples = {
      {"namespace", "floe namespace create sales"},
      {"namespace create", "floe namespace create sales --property owner=analytics"},
      {"namespace list", "floe namespace list --format json"},
      {"namespace drop", "floe namespace drop sales"},
      {"create", "floe create sales.orders --schema 'order_id long, country string, ts timestamp' "
                 "--partition-by 'country, day(ts)'"},
      {"list", "floe list sales --format csv"},
      {"drop", "floe drop sales.orders --purge"},
      {"rename", "floe rename sales.orders sales.orders_2025"},
      {"register", "floe register sales.orders warehouse/sales/orders/metadata/00003-….metadata.json"},
      {"properties", "floe properties sales.orders --set commit.retry.num-retries=10"},
      {"inspect", "floe inspect warehouse/sales/orders/metadata/snap-….avro"},
      {"cat", "floe cat warehouse/sales/orders/data/00000-….parquet --limit 10"},
      {"scan", "floe scan sales.orders --where \"country = 'DE'\" --columns order_id,ts --format csv"},
      {"snapshots", "floe snapshots sales.orders --format json"},
      {"history", "floe history sales.orders --graph"},
      {"stats", "floe stats sales.orders --format json"},
      {"refs", "floe refs sales.orders"},
      {"files", "floe files /backups/orders --allow-moved-paths"},
      {"data-files", "floe data-files sales.orders --ref audit"},
      {"delete-files", "floe delete-files sales.orders"},
      {"manifests", "floe manifests sales.orders --format csv"},
      {"partitions", "floe partitions sales.orders"},
      {"entries", "floe entries sales.orders --snapshot 3051729675574597004"},
      {"metadata-log", "floe metadata-log sales.orders"},
      {"schema", "floe schema sales.orders --format json"},
      {"schema add-column", "floe schema add-column sales.orders discount 'decimal(10,2)'"},
      {"schema rename-column", "floe schema rename-column sales.orders ts ordered_at"},
      {"schema drop-column", "floe schema drop-column sales.orders discount"},
      {"schema update-column", "floe schema update-column sales.orders quantity --type long --optional"},
      {"schema move-column", "floe schema move-column sales.orders country --after order_id"},
      {"rollback", "floe rollback sales.orders --to 2026-01-01T10:00:00"},
      {"tag", "floe tag create sales.orders end-of-year"},
      {"tag create", "floe tag create sales.orders end-of-year --at 3051729675574597004"},
      {"tag drop", "floe tag drop sales.orders end-of-year"},
      {"branch", "floe branch create sales.orders audit"},
      {"branch create", "floe branch create sales.orders audit"},
      {"branch drop", "floe branch drop sales.orders audit"},
      {"cherry-pick", "floe cherry-pick sales.orders 3051729675574597004"},
      {"partition-spec", "floe partition-spec add sales.orders 'bucket(16, order_id)'"},
      {"partition-spec add", "floe partition-spec add sales.orders 'bucket(16, order_id)'"},
      {"partition-spec remove", "floe partition-spec remove sales.orders order_id_bucket"},
      {"upsert", "floe upsert sales.orders corrections.csv --key order_id"},
      {"append", "floe append sales.orders orders.csv more-orders.parquet"},
      {"delete", "floe delete sales.orders --where \"country = 'DE' AND order_id % 2 = 0\""},
      {"update", "floe update sales.orders --set 'amount_cents = amount_cents * 2' --where \"country = 'FR'\""},
      {"overwrite", "floe overwrite sales.orders january.csv --where \"ts < '2026-02-01T00:00:00'\""},
      {"ingest", "floe ingest sales.orders day-*.csv --producers 4\n"
                 "  tail -f events.jsonl | floe ingest sales.orders --batch-rows 5000"},
      {"serve", "FLOE_CATALOG=sqlite:///srv/catalog.db floe serve --listen 0.0.0.0:8181 --tokens-file /etc/floe/tokens"},
      {"demo", "cd \"$(mktemp -d)\" && floe demo"},
      {"completion", "source <(floe completion bash)"},
      {"expire-snapshots", "floe expire-snapshots sales.orders --older-than 2026-11-01T00:00:00 --retain-last 10"},
      {"remove-orphan-files", "floe remove-orphan-files sales.orders --dry-run"},
      {"rewrite-data-files", "floe rewrite-data-files sales.orders --where \"country = 'DE'\" --partial-progress"},
      {"rewrite-manifests", "floe rewrite-manifests sales.orders"},
      {"maintain", "floe maintain sales.orders"},
      {"schema set-identifier", "floe schema set-identifier sales.orders order_id"},
  };
  return examples;
}

void AddBelow(CLI::App& command, const std::string& path) {
  for (CLI::App* sub : command.get_subcommands([](CLI::App*) { return true; })) {
    std::string sub_path = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    auto it = Examples().find(sub_path);
    if (it != Examples().end()) sub->footer(sub->get_footer() + "\nExample:\n  " + it->second);
    AddBelow(*sub, sub_path);
  }
}

}  // namespace

void AddHelpExamples(CLI::App& app) { AddBelow(app, ""); }

}  // namespace floe::cli
