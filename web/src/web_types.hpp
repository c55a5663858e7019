// The session types the web client uses: Client<ArenaGame> and the game id the arena's server expects.
#pragma once

#include <arena/arena_game.hpp>

#include <rewind/session/client_server/client.hpp>

#include <cstdint>
#include <string_view>

namespace web {

/// The client session type of the page.
using ArenaClient = rwd::client_server::Client<arena::ArenaGame>;

/// The game id the arena programs present in connect_request ("AREN"), as apps::kArenaGameId.
inline constexpr std::uint32_t kArenaGameId = 0x4152454Eu;

/// The readable name of a client phase ("connecting", "playing", ...).
[[nodiscard]] std::string_view phase_name(rwd::client_server::ClientPhase p);

}  // namespace web
