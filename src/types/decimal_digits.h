// The digit arithmetic of decimal values (an unscaled __int128 and a precision of at most 38
// digits), in one place for casts, comparisons and arithmetic.
#pragma once

namespace floe {

// The most digits a decimal holds; 10^38 < 2^127, so every power up to it fits an __int128.
inline constexpr int kMaxDecimalPrecision = 38;

// 10^n, for 0 <= n <= kMaxDecimalPrecision.
constexpr __int128 PowerOfTen(int n) {
  __int128 p = 1;
  for (int i = 0; i < n; ++i) p *= 10;
  return p;
}

// Whether `unscaled` has at most `digits` digits: |unscaled| < 10^digits (0 <= digits <= 38).
constexpr bool FitsDigits(__int128 unscaled, int digits) {
  const __int128 limit = PowerOfTen(digits);
  return unscaled < limit && unscaled > -limit;
}

}  // namespace floe
