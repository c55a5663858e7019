// NetPlayer: one arena client over real UDP (EnetTransport, optionally conditioned), optionally driven by a
// bot.
#pragma once

#include "common/app_support.hpp"

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>
#include <arena/bot_view.hpp>

#include <rewind/core/log.hpp>
#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/resume_ticket.hpp>
#include <rewind/transport/conditioned_transport.hpp>
#include <rewind/transport/enet_transport.hpp>
#include <rewind/transport/net_recording.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace apps {

/// The game id the arena programs present in connect_request ("AREN"); server and client must agree.
inline constexpr std::uint32_t kArenaGameId = 0x4152454Eu;

/// The client session type the programs use.
using ArenaClient = rwd::client_server::Client<arena::ArenaGame>;

/// How a NetPlayer connects and plays.
struct NetPlayerConfig {
    rwd::transport::Address server{"127.0.0.1", 7777};  ///< where the server listens
    int tick_rate_hz = 60;                              ///< must match the server's
    bool bot = false;                                   ///< a bot chooses the inputs
    std::uint64_t bot_seed = 1;                         ///< the bot's seed
    std::uint64_t link_seed = 1;                        ///< seed of the client-side link conditioner
    std::vector<std::uint8_t> connect_token;  ///< sent in the hello (servers started with --public-key)
    rwd::auth::SessionKeys session_keys{};    ///< the token's keys: every packet after the hello is sealed
    rwd::Logger logger{};                     ///< the session's log hook
    std::string record_net;  ///< record everything the session sees and does here (rewind-lab --replay-net)
    rwd::Micros reconnect_for{60'000'000};  ///< ClientConfig::reconnect_for
    /// Where the seat's resume ticket is kept (written whenever the seat changes; read at start: a restarted
    /// client asks for its seat back). Empty: nowhere.
    std::string resume_file;
    /// Where fresh credentials come from when a reconnection needs them (--token @FILE): re-read then.
    std::string token_file;
};

/// One arena client: a client-only EnetTransport, wrapped in a ConditionedTransport (perfect until the links
/// are changed), a Client<ArenaGame>, and, for bots, an arena::Bot that picks the input
/// each tick from arena::bot_view_of().
class NetPlayer {
public:
    /// A bound client endpoint (ephemeral port) and a connect attempt to config.server; io_error etc. on
    /// failure.
    [[nodiscard]] static rwd::Result<std::unique_ptr<NetPlayer>> start(const NetPlayerConfig& config,
                                                                       rwd::Micros now);

    /// Moves the session to `now`; a bot picks its input whenever the client's tick moved.
    void update(rwd::Micros now);
    /// Says goodbye (client_quit) and flushes it.
    void quit(rwd::Micros now);
    /// With --record-net: notes the correction log as the outcome and writes the file; says what it wrote.
    [[nodiscard]] rwd::Status save_net_recording(std::string& what);
    /// After the session ended: a new connection to the same server (a fresh seat, retried as the first).
    [[nodiscard]] rwd::Status reconnect(rwd::Micros now);
    /// The server this player connects to.
    [[nodiscard]] const rwd::transport::Address& server() const { return config_.server; }

    /// The session.
    [[nodiscard]] ArenaClient& client() { return *client_; }
    /// The session (read only).
    [[nodiscard]] const ArenaClient& client() const { return *client_; }
    /// The client-side link conditioner (change its links to impair this client's own traffic).
    [[nodiscard]] rwd::transport::ConditionedTransport& link() { return *conditioned_; }
    /// The real UDP endpoint.
    [[nodiscard]] rwd::transport::EnetTransport& udp() { return *udp_; }
    /// The real UDP endpoint (read only).
    [[nodiscard]] const rwd::transport::EnetTransport& udp() const { return *udp_; }
    /// The input a bot chose last (neutral for a human-driven player).
    [[nodiscard]] const arena::Input& last_bot_input() const { return bot_input_; }
    /// The measured RTT averaged over every tick played so far, in ms (0 before the first sample). Unlike
    /// the client's RTT (a median of the last few pings) it shows the link's mean, not its current swing.
    [[nodiscard]] double rtt_mean_ms() const {
        return rtt_ticks_ == 0 ? 0.0 : rtt_sum_ms_ / static_cast<double>(rtt_ticks_);
    }
    /// Whether the session is playing.
    /// The slots of the remote players any snapshot so far carried (bit i: slot i).
    [[nodiscard]] std::uint64_t players_seen() const { return players_seen_; }
    [[nodiscard]] bool playing() const {
        return client_->phase() == rwd::client_server::ClientPhase::playing;
    }
    /// Whether the link was lost and the client is trying to get its seat back.
    [[nodiscard]] bool reconnecting() const {
        return client_->phase() == rwd::client_server::ClientPhase::reconnecting;
    }
    /// Logs what changed in the connection since the last call: event=link_lost, event=reconnected (with
    /// whether the seat came back), event=waiting_for_token.
    void log_link_changes(const KvLog& log);
    /// Whether the session has ended (disconnected, refused or timed out).
    [[nodiscard]] bool ended() const {
        return client_->phase() == rwd::client_server::ClientPhase::disconnected;
    }

private:
    NetPlayer() = default;

    NetPlayerConfig config_;
    std::unique_ptr<rwd::transport::EnetTransport> udp_;
    std::unique_ptr<rwd::transport::ConditionedTransport> conditioned_;
    std::unique_ptr<rwd::transport::RecordingTransport> recording_;  // --record-net
    std::unique_ptr<ArenaClient> client_;
    std::optional<arena::Bot> bot_;
    arena::Input bot_input_{};
    rwd::Tick last_tick_{};
    std::uint64_t players_seen_ = 0;  // bit per slot: remote players this client's snapshots carried
    bool has_tick_ = false;
    double rtt_sum_ms_ = 0.0;
    std::uint64_t rtt_ticks_ = 0;
    std::optional<rwd::client_server::ResumeTicket> saved_ticket_;  // what resume_file holds
    rwd::Micros next_token_check_{};
    rwd::client_server::ClientPhase logged_phase_ = rwd::client_server::ClientPhase::idle;
    bool logged_waiting_ = false;
    std::uint64_t logged_resumes_ = 0;

    void keep_ticket();
    void refresh_credentials(rwd::Micros now);
};

/// With --record-net: writes the recording and logs event=net_recording_saved (or _not_saved with the
/// reason).
void save_net_recording(NetPlayer& player, const KvLog& log);

}  // namespace apps
