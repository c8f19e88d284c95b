// Helpers shared by the avro room's tests (not part of the library).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace floe::avro_test {

// The fixtures folder, or empty when there is none (tests then skip).
inline std::string FixturesDir() {
  if (const char* env = std::getenv("FLOE_FIXTURES"); env && *env && std::filesystem::exists(env)) return env;
  std::string dir = std::string(FLOE_SOURCE_DIR) + "/../shared/fixtures";
  return std::filesystem::exists(dir) ? dir : std::string();
}

inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace floe::avro_test
