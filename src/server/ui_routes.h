// The routes of the web view (/ui, see server/ui_pages.h): which page a path names, who may see
// it, and the page itself.
//
// Authorization is the API's: a namespace page and its tables' pages need read on that
// namespace, the namespace list shows only what the caller may see. A caller without the right
// gets 403 and learns nothing about what exists there.
#pragma once

#include <string>
#include <string_view>

#include "catalog/catalog.h"
#include "server/auth.h"
#include "server/table_activity.h"

namespace floe {

struct UiReply {
  int status = 200;
  std::string html;
};

// True for /ui and every path below it.
bool IsUiPath(std::string_view raw_path);

// The page `raw_path` names (still percent-encoded). `principal` is nullptr when
// authentication is off (a loopback-only server). Errors are pages too, with their status.
UiReply HandleUi(Catalog& catalog, std::string_view raw_path, const Principal* principal,
                 const TableActivity& activity, int64_t now_ms);

}  // namespace floe
