// Partition transforms: identity, bucket[N], truncate[W], year, month, day, hour, void.
#pragma once

#include <string>

#include "types/literal.h"
#include "types/type.h"

namespace floe {

// kUnknown: a transform floe does not know, kept by its name so that a table another engine
// partitioned or sorted with it stays readable (its metadata written back unchanged, scans without
// pruning on it); it is never evaluated.
enum class TransformKind { kIdentity, kBucket, kTruncate, kYear, kMonth, kDay, kHour, kVoid, kUnknown };

class Transform {
 public:
  Transform() = default;
  Transform(TransformKind kind, int param = 0) : kind_(kind), param_(param) {}

  static Transform Identity() { return Transform(TransformKind::kIdentity); }
  static Transform Bucket(int n) { return Transform(TransformKind::kBucket, n); }
  static Transform Truncate(int width) { return Transform(TransformKind::kTruncate, width); }
  static Transform Year() { return Transform(TransformKind::kYear); }
  static Transform Month() { return Transform(TransformKind::kMonth); }
  static Transform Day() { return Transform(TransformKind::kDay); }
  static Transform Hour() { return Transform(TransformKind::kHour); }
  static Transform Void() { return Transform(TransformKind::kVoid); }
  static Transform Unknown(std::string name);

  // "identity", "bucket[16]", "truncate[4]", "year", ..., "void" (Iceberg's JSON spelling).
  static Result<Transform> Parse(std::string_view text);
  // A transform read from table metadata: one Parse knows, else Unknown(text).
  static Transform FromMetadata(std::string_view text);
  std::string ToString() const;

  TransformKind kind() const { return kind_; }
  int param() const { return param_; }  // bucket count or truncate width

  // Whether this transform applies to a source type, and the type of its result.
  bool CanTransform(const Type& source) const;
  Result<TypePtr> ResultType(const TypePtr& source) const;

  // Applies the transform; null in, null out (void: always null).
  Result<Literal> Apply(const Literal& value) const;

  // Monotonic transforms (all but bucket and void) let range predicates project.
  bool PreservesOrder() const {
    return kind_ != TransformKind::kBucket && kind_ != TransformKind::kVoid && kind_ != TransformKind::kUnknown;
  }
  bool is_unknown() const { return kind_ == TransformKind::kUnknown; }
  // year/month/day/hour: a coarser time unit of the same source.
  bool IsTimeTransform() const {
    return kind_ == TransformKind::kYear || kind_ == TransformKind::kMonth || kind_ == TransformKind::kDay ||
           kind_ == TransformKind::kHour;
  }

  friend bool operator==(const Transform& a, const Transform& b) {
    return a.kind_ == b.kind_ && a.param_ == b.param_ && a.name_ == b.name_;
  }

 private:
  TransformKind kind_ = TransformKind::kIdentity;
  int param_ = 0;
  std::string name_;  // an unknown transform's text
};

// The bucket hash of a value as the spec defines it (appendix B), before the modulo.
Result<int32_t> BucketHash(const Literal& value);

}  // namespace floe
