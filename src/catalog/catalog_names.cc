// Namespace and table names: their text form and the checks made before a name becomes part of
// a path or a database key.
#include <cstdio>

#include "catalog/catalog.h"

namespace floe {
namespace {

// The name as it can be shown in a message: control characters become \xNN.
std::string Printable(std::string_view name) {
  std::string out;
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace

Status ValidateName(std::string_view name, std::string_view what) {
  auto bad = [&](std::string_view why) {
    std::string shown = Printable(name.substr(0, 64)) + (name.size() > 64 ? "..." : "");
    return InvalidArgument("invalid " + std::string(what) + " name '" + shown + "': " + std::string(why));
  };
  if (name.empty()) return bad("it is empty");
  // Each name is one folder of a path: longer than a file name may be, it could never be created.
  if (name.size() > kMaxNameBytes) {
    return bad("it is " + std::to_string(name.size()) + " bytes long; the limit is " + std::to_string(kMaxNameBytes) +
               " bytes (the longest file name a file system allows)");
  }
  if (name == "." || name == "..") return bad("'.' and '..' name folders, not tables or namespaces");
  for (unsigned char c : name) {
    if (c == '/' || c == '\\') return bad("it contains a path separator ('/' or '\\')");
    if (c < 0x20 || c == 0x7f) return bad("it contains a control character");
  }
  return Ok();
}

std::string NamespaceToString(const Namespace& ns) {
  std::string out;
  for (size_t i = 0; i < ns.size(); ++i) {
    if (i) out += '.';
    out += ns[i];
  }
  return out;
}

Result<Namespace> ParseNamespace(std::string_view text) {
  if (text.empty()) return InvalidArgument("invalid namespace '': it is empty");
  Namespace ns;
  size_t start = 0;
  while (true) {
    size_t dot = text.find('.', start);
    std::string_view part = text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    auto valid = ValidateName(part, "namespace");
    if (!valid) return std::unexpected(valid.error().WithContext("in namespace '" + std::string(text) + "'"));
    ns.emplace_back(part);
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return ns;
}

std::string TableIdentifier::ToString() const {
  return ns.empty() ? name : NamespaceToString(ns) + "." + name;
}

Result<TableIdentifier> TableIdentifier::Parse(std::string_view text) {
  size_t dot = text.rfind('.');
  if (dot == std::string_view::npos) {
    return InvalidArgument("invalid table identifier '" + std::string(text) +
                           "': expected <namespace>.<table>, e.g. db.events");
  }
  TableIdentifier id;
  FLOE_ASSIGN_OR_RETURN(id.ns, ParseNamespace(text.substr(0, dot)));
  id.name = std::string(text.substr(dot + 1));
  FLOE_RETURN_IF_ERROR(ValidateName(id.name, "table"));
  return id;
}

Status ValidateNamespace(const Namespace& ns) {
  if (ns.empty()) return InvalidArgument("invalid namespace: it has no parts");
  // Every level is a folder and a parent the catalog lists: the depth bounds both.
  if (ns.size() > kMaxNamespaceDepth) {
    return InvalidArgument("invalid namespace: it has " + std::to_string(ns.size()) + " levels; the limit is " +
                           std::to_string(kMaxNamespaceDepth) + " (namespace depth)");
  }
  for (const auto& part : ns) {
    FLOE_RETURN_IF_ERROR(ValidateName(part, "namespace"));
    // Catalogs store and print a namespace as its parts joined by '.', so a part holding a
    // '.' could not be told apart from two parts.
    if (part.find('.') != std::string::npos) {
      return InvalidArgument("invalid namespace name '" + part + "': it contains '.', which separates levels");
    }
  }
  return Ok();
}

Status ValidateIdentifier(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(id.ns));
  return ValidateName(id.name, "table");
}

std::unexpected<Error> NamespaceNotFound(std::string_view ns) {
  return NotFound("Namespace does not exist: " + std::string(ns));
}
bool IsNamespaceNotFound(const Error& error) {
  return error.kind == ErrorKind::kNotFound && error.message.starts_with("Namespace does not exist: ");
}
std::unexpected<Error> NamespaceAlreadyExists(std::string_view ns) {
  return AlreadyExists("Namespace already exists: " + std::string(ns));
}
std::unexpected<Error> TableNotFound(std::string_view table) {
  return NotFound("Table does not exist: " + std::string(table));
}
std::unexpected<Error> TableAlreadyExists(std::string_view table) {
  return AlreadyExists("Table already exists: " + std::string(table));
}

std::unexpected<Error> ViewNotFound(std::string_view view) {
  return NotFound("View does not exist: " + std::string(view));
}
std::unexpected<Error> ViewAlreadyExists(std::string_view view) {
  return AlreadyExists("View already exists: " + std::string(view));
}
std::unexpected<Error> TableWithSameNameExists(std::string_view name) {
  return AlreadyExists("Table with same name already exists: " + std::string(name));
}
std::unexpected<Error> ViewWithSameNameExists(std::string_view name) {
  return AlreadyExists("View with same name already exists: " + std::string(name));
}

}  // namespace floe
