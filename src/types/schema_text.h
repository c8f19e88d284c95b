// The schema text people type: "order_id long, country string not null, price decimal(10,2)",
// nested types included:
//
//   tags list<string>                  (also array<string>; list<string not null>: required elements)
//   attrs map<string, int>             (keys are always required; map<string, int not null>)
//   addr struct<street: string, zip int not null>   (the colon after a field name is optional)
//
// nested to any depth. A name holding spaces or any of , : < > ( ) [ ] ` is written in
// backticks (`first name`), a backtick inside doubled. Keywords and primitive names are
// case-insensitive; names keep their case, and two siblings may not differ only in case.
#pragma once

#include <string>
#include <string_view>

#include "types/schema.h"

namespace floe {

// Field ids as Iceberg assigns fresh ones: the top-level fields 1..n in order, then each
// field's nested fields depth-first (a struct's own fields before what they hold; a list's
// element, a map's key then value, before what those hold). "not null" (or "required") makes a
// field required. Errors name the column and the 1-based position in the text.
Result<Schema> ParseSchemaText(std::string_view text);

// One type in the same text ("list<struct<x: int>>"), its nested ids numbered from 1 as above.
Result<TypePtr> ParseTypeText(std::string_view text);

// `type` with fresh ids for everything it nests, numbered after *last_id (which ends at the
// highest id given); a primitive is returned as it is.
TypePtr AssignFreshIds(const TypePtr& type, int* last_id);

// The inverse for printing: "order_id long not null, tags list<string>"; it parses back to the
// same schema (docs and default values are not part of the text).
std::string SchemaToText(const Schema& schema);
std::string TypeToText(const Type& type);

}  // namespace floe
