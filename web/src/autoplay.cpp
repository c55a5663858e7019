// Autoplay: one arena::Bot decision per client tick, from arena::bot_view_of().
#include "autoplay.hpp"

#include <arena/bot_view.hpp>

namespace web {

using rwd::Micros;

arena::Input Autoplay::input(ArenaClient& client, Micros now) {
    if (client.phase() != rwd::client_server::ClientPhase::playing) return input_;
    if (!started_) {
        started_ = true;
        start_ = now;
    }
    const rwd::Tick t = client.tick();
    if (last_tick_ && *last_tick_ == t) return input_;
    last_tick_ = t;
    input_ = bot_.think(arena::bot_view_of(client, now));
    return input_;
}

}  // namespace web
