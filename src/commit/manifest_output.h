// Manifest writing through FileIO lives in table_files/manifest_io.h, with the rest of manifest I/O.
// Kept so that code including this header still compiles; include table_files/manifest_io.h.
#pragma once

#include "table_files/manifest_io.h"
