/// serialize(Stream&, State&): the whole state, every field at full width, for desync forensics dumps.
#pragma once

#include "arena/state.hpp"

namespace arena {

/// Reads, writes or measures the whole State bit for bit (about 10 KB), so a dump from one machine can be
/// diffed against another's with ArenaGame::describe_diff.
/// Defined and instantiated for every library stream (RWD_WIRE_FOR_EACH_STREAM) in state_codec.cpp.
template <class Stream>
bool serialize(Stream& s, State& st);

}  // namespace arena
