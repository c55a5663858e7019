// Match::SendTap: the server's recorder in a lab pass, passing ticks on to the world recording and every
// message sent, in send order, to the death check.
#include "cs_match_impl.hpp"

#include <array>

namespace lab {

namespace cs = rwd::client_server;

void Match::SendTap::on_tick(rwd::Tick tick, const arena::State& after, bool replayed) {
    if (inner != nullptr) inner->on_tick(tick, after, replayed);
}

void Match::SendTap::on_message(rwd::Tick tick, const cs::OutMessage& message) {
    if (inner != nullptr) inner->on_message(tick, message);
    std::array<bool, arena::kMaxPlayers> seated{};
    for (int i = 0; i < match->server_->max_clients(); ++i)
        seated[static_cast<std::size_t>(i)] = match->server_->seated(i);
    match->events_.on_sent(tick, match->server_->tick(), message, seated);
}

}  // namespace lab
