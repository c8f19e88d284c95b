// Tokens of the WHERE text (see parser.h for the language).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "floe/result.h"

namespace floe {

struct Token {
  enum class Kind : uint8_t {
    kIdentifier,  // bare word that is not a keyword
    kQuotedIdentifier,
    kKeyword,  // text holds the keyword in upper case
    kString,   // text holds the unescaped contents
    kHex,      // X'..': text holds the hex digits
    kNumber,
    kSymbol,  // = == != <> < <= > >= + - * / % ( ) , .
    kEnd,
  };
  Kind kind = Kind::kEnd;
  std::string text;
  std::string raw;  // the text as written (keywords keep their case here)
  size_t pos = 0;  // 0-based offset of the token's first character

  bool Is(Kind k, std::string_view t) const { return kind == k && text == t; }
  bool IsSymbol(std::string_view t) const { return Is(Kind::kSymbol, t); }
  bool IsKeyword(std::string_view t) const { return Is(Kind::kKeyword, t); }
};

// Splits text into tokens ending with one kEnd token. Errors name a 1-based position.
Result<std::vector<Token>> Tokenize(std::string_view text);

// "'='", "end of text", "'country'": how a token reads in an error message.
std::string Describe(const Token& token);

// " at position N" (1-based), the suffix of every lexer and parser error.
std::string AtPosition(size_t pos);

}  // namespace floe
