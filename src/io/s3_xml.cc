#include "io/s3_xml.h"

#include <cstdlib>

namespace floe {

std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view tag) {
  std::vector<std::string_view> out;
  const std::string open = "<" + std::string(tag);
  const std::string close = "</" + std::string(tag) + ">";
  size_t pos = 0;
  while ((pos = xml.find(open, pos)) != std::string_view::npos) {
    size_t after = pos + open.size();
    if (after >= xml.size()) break;
    char next = xml[after];
    if (next != '>' && next != ' ' && next != '/') {  // <KeyCount> is not <Key>
      pos = after;
      continue;
    }
    size_t gt = xml.find('>', after);
    if (gt == std::string_view::npos) break;
    if (xml[gt - 1] == '/') {  // <Tag/>
      out.emplace_back();
      pos = gt + 1;
      continue;
    }
    size_t end = xml.find(close, gt + 1);
    if (end == std::string_view::npos) break;
    out.push_back(xml.substr(gt + 1, end - gt - 1));
    pos = end + close.size();
  }
  return out;
}

std::optional<std::string> XmlText(std::string_view xml, std::string_view tag) {
  auto elements = XmlElements(xml, tag);
  if (elements.empty()) return std::nullopt;
  return XmlDecode(elements.front());
}

std::string XmlDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    size_t semi = text.find(';', i);
    if (semi == std::string_view::npos || semi - i > 10) {
      out += text[i];
      continue;
    }
    std::string_view entity = text.substr(i + 1, semi - i - 1);
    if (entity == "lt") {
      out += '<';
    } else if (entity == "gt") {
      out += '>';
    } else if (entity == "amp") {
      out += '&';
    } else if (entity == "quot") {
      out += '"';
    } else if (entity == "apos") {
      out += '\'';
    } else if (entity.size() > 1 && entity[0] == '#') {
      std::string digits(entity.substr(1));
      long code = digits[0] == 'x' ? std::strtol(digits.c_str() + 1, nullptr, 16) : std::strtol(digits.c_str(), nullptr, 10);
      // UTF-8 of the code point.
      if (code < 0x80) {
        out += static_cast<char>(code);
      } else if (code < 0x800) {
        out += static_cast<char>(0xC0 | (code >> 6));
        out += static_cast<char>(0x80 | (code & 0x3F));
      } else if (code < 0x10000) {
        out += static_cast<char>(0xE0 | (code >> 12));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
      } else {
        out += static_cast<char>(0xF0 | (code >> 18));
        out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (code & 0x3F));
      }
    } else {
      out += text.substr(i, semi - i + 1);
    }
    i = semi;
  }
  return out;
}

std::string XmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace floe
