// The values floe accepts for the table properties it reads, checked when a property is set.
//
// A property floe reads with the wrong kind of value (a word where a number goes) would
// otherwise be noticed only when a write uses it, or not at all. Set-properties updates are
// refused instead, naming the property, and the commit changes nothing. Properties floe does
// not read are kept as given.
#pragma once

#include <string>

#include "floe/result.h"

namespace floe {

Status CheckPropertyValue(const std::string& key, const std::string& value);

// A count property's value (a non-negative whole number) or a boolean one's (true or false,
// in any case); InvalidArgument naming the property and the value otherwise.
Result<int64_t> ParseCountProperty(const std::string& key, const std::string& value);
Result<bool> ParseBooleanProperty(const std::string& key, const std::string& value);

// The reserved property format-version's value: a format version floe writes (1 to 3);
// InvalidArgument naming the property and the value otherwise.
Result<int> ParseFormatVersionProperty(const std::string& value);

}  // namespace floe
