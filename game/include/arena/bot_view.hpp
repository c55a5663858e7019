// bot_view_of: what an arena bot playing on a client sees: its predicted self, everyone else as the client
// draws.
#pragma once

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>

#include <rewind/core/time.hpp>
#include <rewind/session/client_server/client.hpp>

namespace arena {

/// The bot's view from `client` at `now`: the client's predicted own player, and every other player where the
/// client renders it (interpolated), with whether it is alive. Empty (self_slot -1) before a slot is given.
[[nodiscard]] BotView bot_view_of(rwd::client_server::Client<ArenaGame>& client, rwd::Micros now);

}  // namespace arena
