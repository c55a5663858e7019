/// The umbrella header: all of rewind's public API.
#pragma once

#include <rewind/core/checksum.hpp>
#include <rewind/core/fixed_step.hpp>
#include <rewind/core/log.hpp>
#include <rewind/core/result.hpp>
#include <rewind/core/ring_buffer.hpp>
#include <rewind/core/rng.hpp>
#include <rewind/core/sequence_buffer.hpp>
#include <rewind/core/sequence.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/enet_transport.hpp>
#include <rewind/transport/link_conditioner.hpp>
#include <rewind/transport/link_config.hpp>
#include <rewind/transport/sim_network.hpp>
#include <rewind/transport/transport.hpp>
#include <rewind/wire/bit_reader.hpp>
#include <rewind/wire/bit_writer.hpp>
#include <rewind/wire/message.hpp>
#include <rewind/wire/quantize.hpp>
#include <rewind/wire/quat.hpp>
#include <rewind/wire/serialize.hpp>
#include <rewind/wire/stream.hpp>
