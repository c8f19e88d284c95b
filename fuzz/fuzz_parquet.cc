// libFuzzer target: Parquet files, footer and pages: open, then read every row group.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "parquet/output_sink.h"
#include "parquet/parquet_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto source = std::make_shared<floe::parquet::BufferSource>(
      std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.parquet");
  auto file = floe::parquet::ParquetFile::Open(source);
  if (!file) return 0;
  (void)floe::parquet::ReadParquetFile(*file);
  return 0;
}
