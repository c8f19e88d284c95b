// Manifest writing through FileIO lives in avro/manifest_io.h, with the rest of manifest I/O.
// Kept so that code including this header still compiles; include avro/manifest_io.h.
#pragma once

#include "avro/manifest_io.h"
