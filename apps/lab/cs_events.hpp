// Item 7's bookkeeping: which reliable events each client must have received by the end of a pass, and
// whether every death on the server reached every client once, in order.
#pragma once

#include "cs_figures.hpp"

#include <arena/arena_game.hpp>

#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/messages.hpp>
#include <rewind/transport/link_config.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace lab {

/// How long before the end of a pass a reliable event must have been sent to be graded: the worst one-way
/// delay down (mean + 4 sigma of jitter) plus as many retransmission timeouts as it takes for the chance that
/// every copy was lost to fall below one in a million, plus 100 ms of polling slack. The RTO is what the
/// transport uses: at least `min_rto`, else RTT + 4 x its deviation.
rwd::Micros drain_window(const rwd::transport::LinkConfig& up, const rwd::transport::LinkConfig& down,
                         rwd::Micros min_rto);

/// One death as the server reported it or a client received it.
struct DeathRecord {
    std::uint32_t tick = 0;                       ///< server tick it happened on
    std::uint8_t victim = 0;                      ///< who died
    std::uint8_t killer = 0;                      ///< who killed (the victim itself when nobody did)
    arena::Weapon weapon = arena::Weapon::rifle;  ///< what dealt the killing blow
    friend bool operator==(const DeathRecord&, const DeathRecord&) = default;
};

/// Compares, position by position, the deaths a client received with those the server sent it, adding to
/// the deaths_* figures of `out` (expected, delivered, missing, extra, wrong).
void compare_deaths(std::span<const DeathRecord> expected, std::span<const DeathRecord> received,
                    ChannelFigures& out);

/// A death as the server sent it: `lag` ticks after its own tick (0 on the tick it happened; 1..window when a
/// late-input replay found it).
struct SentDeath {
    DeathRecord record;
    std::uint32_t lag = 0;
};

/// Compares the deaths the server sent (in send order) with those of its final ticks: each final death sent
/// once and nothing else (deaths_unsent, deaths_not_final); deaths go out in tick order except those a replay
/// of at most `replay_window` ticks found (deaths_sent_late counts those sent after a later tick's death;
/// deaths_out_of_turn those sent late or out of order in any other way, which must be none); also counts
/// deaths_on_server and deaths_sent.
void compare_sent_deaths(std::span<const DeathRecord> final_deaths, std::span<const SentDeath> sent,
                         std::uint32_t replay_window, ChannelFigures& out);

/// Collects the server's deaths and what every client received, and grades them at the end of the pass.
class EventCheck {
public:
    /// `seats` bot clients; the server replays late inputs at most `replay_window` ticks back.
    EventCheck(std::size_t seats, std::uint32_t replay_window)
        : clients_(seats), replay_window_(replay_window) {}

    /// The server's final run of `tick` (turning `before` into `after`): its deaths are the match's.
    void on_server_tick(rwd::Tick tick, const arena::State& before, const arena::State& after);
    /// The server sent `m` for `tick` just now (ServerRecorder::on_message, in the order it sends), while
    /// simulating `server_tick` (a replay's message has an older tick); `seated` tells which slots held a
    /// client then (a death goes to exactly those). A late-input replay sends the deaths it found after those
    /// of later ticks: clients must receive them in this order.
    void on_sent(rwd::Tick tick, rwd::Tick server_tick, const rwd::client_server::OutMessage& m,
                 std::span<const bool> seated);
    /// The client of seat `seat` polled `m` (its reliable messages are graded).
    void on_client_message(std::size_t seat, const rwd::client_server::Message& m);
    /// The drain window starts: events sent from here on are not graded. `next_tick` is the server's next
    /// tick (deaths on it and later are not graded).
    void cut(rwd::Tick next_tick);
    /// Records, at the cut, how many events the server had sent to the client of `seat`.
    void cut_seat(std::size_t seat, std::uint64_t events_sent);
    /// Fills the event and death figures of `out`; `slot_of_seat[seat]` is the slot of a seat that played
    /// to the end connected, or -1 to leave it out.
    void finish(std::span<const int> slot_of_seat, ChannelFigures& out) const;

private:
    struct Client {
        std::vector<std::uint32_t> sequences;  ///< every event sequence received, in arrival order
        std::vector<DeathRecord> deaths;       ///< every death received, in arrival order
        std::uint64_t cut_events = 0;          ///< events sent to it before the cut
    };
    struct Death {
        SentDeath sent;
        std::vector<bool> seated;  ///< which slots the server sent it to
    };
    std::vector<Client> clients_;
    std::vector<DeathRecord> deaths_;  ///< every death of the server's final ticks, in tick order
    std::vector<Death> sent_;          ///< every death the server sent, in the order it sent them
    rwd::client_server::MessageOutbox<arena::ArenaGame> scratch_;
    std::uint32_t replay_window_;
    bool cut_ = false;
    std::uint32_t cut_tick_ = 0;
};

}  // namespace lab
