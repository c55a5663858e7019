/// The umbrella header: all of rewind's public API.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/sequence.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/transport.hpp>
