#include "scan/partition_key.h"

namespace floe {

std::string PartitionKey(int spec_id, const std::vector<Literal>& partition) {
  std::string key = std::to_string(spec_id);
  for (const Literal& v : partition) {
    if (v.is_null()) {
      key += '\0';
      continue;
    }
    auto bytes = v.ToBinary();
    std::string b = bytes ? *bytes : v.ToString();
    key += '\1';
    uint32_t n = static_cast<uint32_t>(b.size());
    key.append(reinterpret_cast<const char*>(&n), sizeof n);
    key += b;
  }
  return key;
}

Result<TypePtr> PartitionTypeOf(const TableMetadata& table, const PartitionSpec& spec) {
  auto current = spec.PartitionType(table.CurrentSchema());
  if (current) return current;
  for (auto it = table.schemas.rbegin(); it != table.schemas.rend(); ++it) {
    auto type = spec.PartitionType(*it);
    if (type) return type;
  }
  return std::unexpected(current.error().WithContext("partition spec " + std::to_string(spec.spec_id())));
}

Result<TypePtr> PartitionTypeOf(const TableMetadata& table, int spec_id) {
  const PartitionSpec* spec = table.SpecById(spec_id);
  if (!spec) return Corrupt("partition spec " + std::to_string(spec_id) + " is not in the table metadata");
  return PartitionTypeOf(table, *spec);
}

}  // namespace floe
