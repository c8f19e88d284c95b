// The REST catalog's view routes over a floe Catalog (rows of server/rest_routes.cc): the same
// grants, location confinement and limits as the table routes. A view commit is decided by its
// requirement (assert-view-uuid) and by the catalog's compare-and-swap: of two concurrent
// replaces of one version, one lands and the other gets 409 CommitFailedException (the client
// reloads and decides again); the server does not retry a view commit for the client.
#pragma once

#include "server/rest_handlers.h"

namespace floe::catalog_routes {

RestReply ListViews(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply CreateView(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply LoadView(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);  // GET and HEAD
RestReply ReplaceView(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply DropView(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply RenameView(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);
RestReply RegisterView(Catalog& catalog, const RestRequest& request, const RequestPolicy& policy);

}  // namespace floe::catalog_routes
