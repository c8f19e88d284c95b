// A public TableDefinition as the catalog's CreateTableRequest (src/api only).
#pragma once

#include "catalog/catalog.h"
#include "floe/table_definition.h"

namespace floe {

// The request `definition` asks for, or the first problem with it (CheckTableDefinition's order).
Result<CreateTableRequest> CreateRequestFor(const TableDefinition& definition, DefinitionPart* failed_part);

}  // namespace floe
