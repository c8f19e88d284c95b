#include "expr/lexer.h"

#include <cctype>

namespace floe {
namespace {

const char* const kKeywords[] = {"AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "BETWEEN", "TRUE", "FALSE", "NAN"};

std::string Upper(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// Bytes of multi-byte UTF-8 characters count as letters, so non-ASCII names need no quotes.
bool IsWordStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool IsWordChar(char c) { return IsWordStart(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '$'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Reads a quoted run starting at text[start] == quote, where a doubled quote stands for one.
Result<std::string> ReadQuoted(std::string_view text, size_t start, size_t* end, const char* what) {
  char quote = text[start];
  std::string out;
  size_t i = start + 1;
  while (true) {
    if (i >= text.size()) return InvalidArgument(std::string("unterminated ") + what + " starting" + AtPosition(start));
    if (text[i] == quote) {
      if (i + 1 < text.size() && text[i + 1] == quote) {
        out.push_back(quote);
        i += 2;
        continue;
      }
      *end = i + 1;
      return out;
    }
    out.push_back(text[i++]);
  }
}

}  // namespace

std::string Describe(const Token& t) {
  switch (t.kind) {
    case Token::Kind::kEnd: return "end of text";
    case Token::Kind::kString: return "'" + t.text + "'";
    case Token::Kind::kQuotedIdentifier: return "\"" + t.text + "\"";
    case Token::Kind::kHex: return "X'" + t.text + "'";
    default: return "'" + t.text + "'";
  }
}

Result<std::vector<Token>> Tokenize(std::string_view text) {
  std::vector<Token> out;
  size_t i = 0;
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    Token t;
    t.pos = i;
    if (i >= text.size()) {
      out.push_back(std::move(t));
      return out;
    }
    char c = text[i];
    if ((c == 'X' || c == 'x') && i + 1 < text.size() && text[i + 1] == '\'') {
      size_t end = 0;
      FLOE_ASSIGN_OR_RETURN(t.text, ReadQuoted(text, i + 1, &end, "hex string"));
      for (char h : t.text)
        if (!std::isxdigit(static_cast<unsigned char>(h)) || t.text.size() % 2)
          return InvalidArgument("invalid hex string" + AtPosition(i));
      t.kind = Token::Kind::kHex;
      i = end;
    } else if (IsWordStart(c)) {
      size_t start = i;
      while (i < text.size() && IsWordChar(text[i])) ++i;
      std::string_view word = text.substr(start, i - start);
      std::string upper = Upper(word);
      t.kind = Token::Kind::kIdentifier;
      t.text = std::string(word);
      t.raw = t.text;
      for (const char* k : kKeywords) {
        if (upper == k) {
          t.kind = Token::Kind::kKeyword;
          t.text = upper;
        }
      }
    } else if (IsDigit(c)) {
      size_t start = i;
      while (i < text.size() && IsDigit(text[i])) ++i;
      if (i + 1 < text.size() && text[i] == '.' && IsDigit(text[i + 1])) {
        ++i;
        while (i < text.size() && IsDigit(text[i])) ++i;
      }
      if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        size_t j = i + 1;
        if (j < text.size() && (text[j] == '+' || text[j] == '-')) ++j;
        if (j < text.size() && IsDigit(text[j])) {
          i = j;
          while (i < text.size() && IsDigit(text[i])) ++i;
        }
      }
      if (i < text.size() && (IsWordChar(text[i]) || text[i] == '.'))
        return InvalidArgument("invalid number '" + std::string(text.substr(start, i + 1 - start)) + "'" + AtPosition(start));
      t.kind = Token::Kind::kNumber;
      t.text = std::string(text.substr(start, i - start));
    } else if (c == '\'') {
      size_t end = 0;
      FLOE_ASSIGN_OR_RETURN(t.text, ReadQuoted(text, i, &end, "string"));
      t.kind = Token::Kind::kString;
      i = end;
    } else if (c == '"' || c == '`') {
      size_t end = 0;
      FLOE_ASSIGN_OR_RETURN(t.text, ReadQuoted(text, i, &end, "quoted name"));
      if (t.text.empty()) return InvalidArgument("empty quoted name" + AtPosition(i));
      t.kind = Token::Kind::kQuotedIdentifier;
      i = end;
    } else {
      static const char* const kTwo[] = {"==", "!=", "<>", "<=", ">="};
      t.kind = Token::Kind::kSymbol;
      for (const char* two : kTwo) {
        if (text.substr(i, 2) == two) t.text = two;
      }
      if (t.text.empty()) {
        if (std::string_view("=<>+-*/%(),.").find(c) == std::string_view::npos) {
          std::string shown = std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c) : "\\x" + [&] {
            static const char* kDigits = "0123456789ABCDEF";
            unsigned char u = c;
            return std::string{kDigits[u >> 4], kDigits[u & 15]};
          }();
          return InvalidArgument("unexpected character '" + shown + "'" + AtPosition(i));
        }
        t.text = std::string(1, c);
      }
      i += t.text.size();
    }
    out.push_back(std::move(t));
  }
}

std::string AtPosition(size_t pos) { return " at position " + std::to_string(pos + 1); }

}  // namespace floe
