// The type of a JSON-lines column guessed from the values a sample holds (`floe create --like`).
//
// Scalars are guessed from their text as CSV cells are (boolean, long, double, date, timestamp,
// else string); an object is a struct of the keys seen in any row (in the order first seen), an
// array a list of one element type guessed from every element. A column that holds both an
// object and an array, or a nested value and a scalar, has no type: the guess says where.
// Field ids are assigned as Iceberg assigns fresh ids: a struct's fields first, then, field by
// field, what is nested inside them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "floe/result.h"
#include "types/type.h"

namespace floe {

// The narrowest of long < double < string (and boolean, date, timestamp) that holds every text.
struct ScalarGuess {
  bool any = false, is_long = true, is_double = true, is_bool = true, is_date = true, is_timestamp = true;
  void See(const std::string& text);
  TypePtr Guess() const;
};

class JsonTypeGuess {
 public:
  // Widens the guess by one value (ordered_json: keys keep the file's order); `where` (e.g.
  // "data.jsonl line 3") names it in errors.
  Status See(const nlohmann::ordered_json& value, const std::string& path, const std::string& where);

  // The top-level fields of an object guess (the columns), with fresh ids from 1.
  Result<std::vector<NestedField>> Columns() const;

 private:
  enum class Kind { kNone, kScalar, kObject, kArray };
  struct Member;
  Result<TypePtr> TypeOf(const std::string& path, int* next_id) const;
  Result<std::vector<NestedField>> FieldsOf(const std::string& path, int* next_id) const;

  Kind kind_ = Kind::kNone;
  ScalarGuess scalar_;
  std::vector<Member> members_;             // an object's keys, first seen first
  std::shared_ptr<JsonTypeGuess> element_;  // an array's elements
};

struct JsonTypeGuess::Member {
  std::string name;
  JsonTypeGuess guess;
};

}  // namespace floe
