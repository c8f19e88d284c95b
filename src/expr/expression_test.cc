#include "expr/expression.h"

#include <gtest/gtest.h>

#include "expr/binder.h"
#include "expr/parser.h"

namespace floe {
namespace {

TEST(ExpressionTest, Placeholder) { EXPECT_EQ(ToString(Equal("country", Literal::String("DE"))), "ref(name=\"country\") == \"DE\""); }

}  // namespace
}  // namespace floe
