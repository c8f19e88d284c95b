// A delete is refused under serializable isolation (Iceberg's default) when another writer
// added rows its filter may match after the delete read the table; under snapshot isolation
// the same race lands, and the other writer's row survives the delete.
//   serializable_delete <folder>
#include <cstdio>
#include <string>

#include <floe/floe.h>

namespace {

floe::Rows Order(int64_t id, const char* country) {
  floe::Rows rows;
  rows.columns = {"order_id", "country"};
  rows.rows = {{id, std::string(country)}};
  return rows;
}

// Writer A deletes the German orders; writer B appends a German order after A has read the
// table and written its files, before A commits. Returns A's result.
floe::Result<floe::CommitInfo> Race(floe::Connection& a, floe::Connection& b, const std::string& table) {
  FLOE_ASSIGN_OR_RETURN(floe::Table a_table, a.LoadTable(table));
  FLOE_ASSIGN_OR_RETURN(floe::Table b_table, b.LoadTable(table));
  FLOE_RETURN_IF_ERROR(a_table.Append(Order(1, "DE")));
  FLOE_RETURN_IF_ERROR(a_table.Append(Order(2, "FR")));
  FLOE_ASSIGN_OR_RETURN(floe::Filter german, floe::Filter::Parse("country = 'DE'"));
  floe::WriteOptions options;
  floe::Status b_landed = floe::Ok();
  options.before_commit = [&] {
    auto appended = b_table.Append(Order(3, "DE"));
    if (!appended) b_landed = std::unexpected(appended.error());
  };
  auto deleted = a_table.Delete(german, options);
  FLOE_RETURN_IF_ERROR(b_landed);
  return deleted;
}

floe::Status Run(const std::string& folder) {
  const std::string uri = "sqlite://" + folder + "/catalog.db";
  FLOE_ASSIGN_OR_RETURN(floe::Connection a, floe::Connection::Open(uri));
  FLOE_ASSIGN_OR_RETURN(floe::Connection b, floe::Connection::Open(uri));
  FLOE_RETURN_IF_ERROR(a.CreateNamespace("sales"));
  const std::string schema = "order_id long not null, country string";
  FLOE_RETURN_IF_ERROR(a.CreateTable("sales.serializable", {.schema = schema}));
  FLOE_RETURN_IF_ERROR(a.CreateTable(
      "sales.snapshot", {.schema = schema, .properties = {{"write.delete.isolation-level", "snapshot"}}}));

  auto refused = Race(a, b, "sales.serializable");
  if (refused) return floe::Corrupt("the serializable delete landed; it should have been refused");
  if (refused.error().kind != floe::ErrorKind::kValidationFailed) return std::unexpected(refused.error());
  std::printf("serializable: refused as it should be: %s\n", refused.error().message.c_str());
  FLOE_ASSIGN_OR_RETURN(floe::Table serializable, a.LoadTable("sales.serializable"));
  FLOE_ASSIGN_OR_RETURN(floe::Rows kept, serializable.Scan());
  if (kept.size() != 3) return floe::Corrupt("the refused delete changed rows");

  FLOE_ASSIGN_OR_RETURN(floe::CommitInfo landed, Race(a, b, "sales.snapshot"));
  FLOE_ASSIGN_OR_RETURN(floe::Table snapshot, a.LoadTable("sales.snapshot"));
  FLOE_ASSIGN_OR_RETURN(floe::Rows left, snapshot.Scan());
  std::printf("snapshot isolation: landed after %d attempts, %zu rows left (B's German order survives)\n",
              landed.attempts, left.size());
  if (left.size() != 2) return floe::Corrupt("expected orders 2 and 3 to remain");
  return floe::Ok();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <folder>\n", argv[0]);
    return 2;
  }
  floe::Status done = Run(argv[1]);
  if (!done) {
    std::fprintf(stderr, "serializable_delete: %s\n", done.error().ToString().c_str());
    return 1;
  }
  std::printf("serializable_delete: ok\n");
  return 0;
}
