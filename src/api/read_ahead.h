// Reads batches from a RowSource on a thread of its own, a few batches ahead of the consumer,
// so that reading and converting input overlaps writing it (Table::AppendFiles on two cores).
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "rows/row_writes.h"

namespace floe {

class ReadAhead {
 public:
  // `source` is called only from the reading thread, until it returns false or an error.
  // At most `depth` batches wait unconsumed (memory: depth + 2 batches).
  ReadAhead(RowSource source, size_t depth = 2);
  ~ReadAhead();  // stops the reader (it finishes the batch it is reading) and joins it
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // The next batch in the source's order; false at the end; the source's error, once.
  Result<bool> Next(ColumnBatch* batch);
  RowSource AsSource() {
    return [this](ColumnBatch* b) { return Next(b); };
  }

 private:
  void Loop();

  RowSource source_;
  const size_t depth_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<ColumnBatch> ready_;
  bool done_ = false;     // the source returned false or failed
  Status error_ = Ok();   // its error, if it failed
  bool stop_ = false;     // the consumer went away
  std::thread thread_;
};

}  // namespace floe
