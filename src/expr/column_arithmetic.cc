#include "expr/column_arithmetic.h"

#include <algorithm>

#include "expr/row_evaluator.h"
#include "expr/value_ops.h"

namespace floe {
namespace {


// out[i] = f(a[i], b[i]) with the scalar cases hoisted out of the loop.
template <typename T, typename F>
void Kernel(size_t n, bool a_scalar, T as, const T* a, bool b_scalar, T bs, const T* b, T* out, F f) {
  if (a_scalar) {
    for (size_t i = 0; i < n; ++i) out[i] = f(as, b[i]);
  } else if (b_scalar) {
    for (size_t i = 0; i < n; ++i) out[i] = f(a[i], bs);
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
  }
}

class ArithmeticEvaluator {
 public:
  explicit ArithmeticEvaluator(const ColumnBatch& batch) : batch_(batch), n_(batch.num_rows) {}

  Status EvalNumbers(const TermPtr& t, bool floating, TermValues* out) {
    switch (t->kind) {
      case Term::Kind::kLiteral:
        out->scalar = true;
        if (floating) {
          out->double_scalar = t->literal.type()->id() == TypeId::kFloat    ? t->literal.AsFloat()
                               : t->literal.type()->id() == TypeId::kDouble ? t->literal.AsDouble()
                                                                            : static_cast<double>(t->literal.AsInt64());
        } else {
          out->long_scalar = t->literal.AsInt64();
        }
        return Ok();
      case Term::Kind::kReference: {
        FLOE_ASSIGN_OR_RETURN(const Column* c, TermColumn(batch_, *t));
        out->nulls = c->nulls.empty() ? nullptr : c->nulls.data();
        TypeId id = c->type->id();
        if (!floating && id == TypeId::kLong) {
          out->longs = c->longs.data();
          return Ok();
        }
        if (floating && id == TypeId::kDouble) {
          out->doubles = c->doubles.data();
          return Ok();
        }
        auto fill = [&](auto&& value) {
          if (floating) {
            out->double_storage.resize(n_);
            for (size_t i = 0; i < n_; ++i) out->double_storage[i] = static_cast<double>(value(i));
            out->doubles = out->double_storage.data();
          } else {
            out->long_storage.resize(n_);
            for (size_t i = 0; i < n_; ++i) out->long_storage[i] = static_cast<int64_t>(value(i));
            out->longs = out->long_storage.data();
          }
        };
        switch (id) {
          case TypeId::kInt: fill([&](size_t i) { return c->ints[i]; }); return Ok();
          case TypeId::kLong: fill([&](size_t i) { return c->longs[i]; }); return Ok();
          case TypeId::kFloat:
            if (!floating) break;
            fill([&](size_t i) { return c->floats[i]; });
            return Ok();
          default: break;
        }
        return InvalidArgument("arithmetic on column '" + t->name + "' of type " + c->type->ToString());
      }
      case Term::Kind::kArithmetic: {
        TermValues a, b;
        FLOE_RETURN_IF_ERROR(EvalNumbers(t->left, floating, &a));
        FLOE_RETURN_IF_ERROR(EvalNumbers(t->right, floating, &b));
        if (a.scalar && b.scalar) {  // constant sub-term such as (2 * 3) in x + (2 * 3)
          out->scalar = true;
          auto l = ArithLong(t->arith, a.long_scalar, b.long_scalar);
          auto d = ArithDouble(t->arith, a.double_scalar, b.double_scalar);
          if (floating ? !d : !l) {
            out->null_storage.assign(n_, 1);
            out->nulls = out->null_storage.data();
          }
          out->long_scalar = l.value_or(0);
          out->double_scalar = d.value_or(0);
          return Ok();
        }
        if (a.nulls || b.nulls) {
          out->null_storage.resize(n_);
          for (size_t i = 0; i < n_; ++i) out->null_storage[i] = a.IsNull(i) || b.IsNull(i);
          out->nulls = out->null_storage.data();
        }
        if (floating) {
          out->double_storage.resize(n_);
          out->doubles = out->double_storage.data();
          ComputeDoubles(t->arith, a, b, out);
        } else {
          out->long_storage.resize(n_);
          out->longs = out->long_storage.data();
          ComputeLongs(t->arith, a, b, out);
        }
        return Ok();
      }
    }
    return InvalidArgument("unknown term");
  }

  void ComputeLongs(ArithOp op, const TermValues& a, const TermValues& b, TermValues* out) {
    using U = uint64_t;
    int64_t* r = out->long_storage.data();
    auto run = [&](auto f) { Kernel<int64_t>(n_, a.scalar, a.long_scalar, a.longs, b.scalar, b.long_scalar, b.longs, r, f); };
    switch (op) {
      case ArithOp::kAdd: run([](int64_t x, int64_t y) { return static_cast<int64_t>(static_cast<U>(x) + static_cast<U>(y)); }); return;
      case ArithOp::kSub: run([](int64_t x, int64_t y) { return static_cast<int64_t>(static_cast<U>(x) - static_cast<U>(y)); }); return;
      case ArithOp::kMul: run([](int64_t x, int64_t y) { return static_cast<int64_t>(static_cast<U>(x) * static_cast<U>(y)); }); return;
      case ArithOp::kDiv:
      case ArithOp::kMod:
        // The common `x % 2`: a divisor that can neither be zero nor overflow.
        if (b.scalar && b.long_scalar != 0 && b.long_scalar != -1) {
          if (op == ArithOp::kDiv) {
            run([](int64_t x, int64_t y) { return x / y; });
          } else {
            run([](int64_t x, int64_t y) { return x % y; });
          }
          return;
        }
        for (size_t i = 0; i < n_; ++i) {
          auto v = ArithLong(op, a.LongAt(i), b.LongAt(i));
          r[i] = v.value_or(0);
          if (!v) MarkNull(out, i);
        }
        return;
    }
  }

  void ComputeDoubles(ArithOp op, const TermValues& a, const TermValues& b, TermValues* out) {
    double* r = out->double_storage.data();
    auto run = [&](auto f) { Kernel<double>(n_, a.scalar, a.double_scalar, a.doubles, b.scalar, b.double_scalar, b.doubles, r, f); };
    switch (op) {
      case ArithOp::kAdd: run([](double x, double y) { return x + y; }); return;
      case ArithOp::kSub: run([](double x, double y) { return x - y; }); return;
      case ArithOp::kMul: run([](double x, double y) { return x * y; }); return;
      default:
        for (size_t i = 0; i < n_; ++i) {
          auto v = ArithDouble(op, a.DoubleAt(i), b.DoubleAt(i));
          r[i] = v.value_or(0);
          if (!v) MarkNull(out, i);
        }
        return;
    }
  }

  void MarkNull(TermValues* out, size_t i) {
    if (out->null_storage.empty()) {
      out->null_storage.assign(n_, 0);
      if (out->nulls) std::copy(out->nulls, out->nulls + n_, out->null_storage.begin());
      out->nulls = out->null_storage.data();
    }
    out->null_storage[i] = 1;
  }

 private:
  const ColumnBatch& batch_;
  size_t n_;
};

}  // namespace

Result<const Column*> TermColumn(const ColumnBatch& batch, const Term& t) {
  const Column* c = FindColumn(batch, t.field_id);
  if (!c) return InvalidArgument("column '" + t.name + "' (field id " + std::to_string(t.field_id) + ") is not in the batch");
  if (c->length != batch.num_rows && c->type->is_primitive())
    return InvalidArgument("column '" + t.name + "' has " + std::to_string(c->length) + " values for " +
                           std::to_string(batch.num_rows) + " rows");
  return c;
}

Status ComputeTerm(const TermPtr& term, bool floating, const ColumnBatch& batch, TermValues* out) {
  return ArithmeticEvaluator(batch).EvalNumbers(term, floating, out);
}

}  // namespace floe
