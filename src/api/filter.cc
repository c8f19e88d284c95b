#include "api/api_internal.h"
#include "expr/parser.h"

namespace floe {

Filter::Filter() : impl_(std::make_shared<Impl>(Impl{True()})) {}

Result<Filter> Filter::Parse(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(Expr expr, ParseFilter(text));
  return Filter(std::make_shared<Impl>(Impl{std::move(expr)}));
}

Filter Filter::And(const Filter& other) const {
  return Filter(std::make_shared<Impl>(Impl{floe::And(impl_->expr, other.impl_->expr)}));
}

Filter Filter::Or(const Filter& other) const {
  return Filter(std::make_shared<Impl>(Impl{floe::Or(impl_->expr, other.impl_->expr)}));
}

std::string Filter::ToString() const { return floe::ToString(impl_->expr); }

}  // namespace floe
