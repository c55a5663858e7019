// Private to the lab: the state of one client-server pass while it runs (cs_match.cpp, cs_frame.cpp).
#pragma once

#include "bandwidth_grades.hpp"
#include "cs_events.hpp"
#include "cs_latency.hpp"
#include "cs_match.hpp"
#include "cs_probe.hpp"
#include "cs_recording.hpp"
#include "cs_shots.hpp"
#include "sample_runs.hpp"
#include "sealed_endpoint.hpp"

#include <arena/arena_game.hpp>
#include <arena/bot.hpp>

#include <rewind/core/rng.hpp>
#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/server.hpp>
#include <rewind/transport/sim_network.hpp>

#include <array>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace lab {

using Server = rwd::client_server::Server<arena::ArenaGame>;
using Client = rwd::client_server::Client<arena::ArenaGame>;

/// One bot-driven client and what the lab tracks about it.
struct Seat {
    rwd::transport::Address addr;
    std::unique_ptr<Client> client;
    arena::Bot bot;
    rwd::Rng rng;  ///< frame timing and the script
    rwd::Micros next_frame{};
    bool playing = false;  ///< reached the playing phase
    int slot = -1;
    std::uint64_t seen_corrections = 0;
    std::uint64_t last_snapshots = 0;
    std::optional<rwd::Micros> last_snapshot_at;
    std::deque<std::pair<rwd::Tick, rwd::Micros>> arrivals;  ///< (server tick, arrival) of recent snapshots
    rwd::Micros next_chat{};
    std::uint32_t chats_sent = 0;
    std::map<int, std::uint32_t> next_chat_from;  ///< speaker slot -> next chat number expected from it
    std::optional<rwd::Tick> half_tick;           ///< client tick at the half-way mark
    rwd::Micros half_at{};
    bool has_drawn = false;
    std::int32_t drawn_x = 0, drawn_y = 0, pred_x = 0, pred_y = 0;
    std::uint64_t last_snaps = 0;
    arena::State before_update{};       ///< the client's predicted world before this frame's update()
    arena::Input input{};               ///< the input given to the client (its ticks this frame use it)
    std::uint64_t server_repeated = 0;  ///< the server's inputs_repeated for its slot, last tick
    int cut_slot = -1;                  ///< its slot when the drain window began (-1: not playing yet)

    Seat(rwd::transport::Address a, std::unique_ptr<Client> c, std::uint64_t seed, const arena::BotConfig& bc)
        : addr(std::move(a)), client(std::move(c)), bot(seed, bc), rng(seed, 0x6c6162) {}
};

/// A running pass.
class Match {
public:
    explicit Match(const PassConfig& config);
    Match(const Match&) = delete;  // the server holds pointers to it (tick observer, recorder tap)
    Match& operator=(const Match&) = delete;
    /// Runs the pass to its end and gathers the figures.
    PassFigures run();

private:
    void server_step(rwd::Micros now);
    void on_server_tick(rwd::Tick tick);
    static void observe_tick(void* user, rwd::Tick tick, const arena::State& before,
                             const arena::State& after, bool replayed);
    void judge_final(rwd::Tick tick);
    void sample(rwd::Micros now);
    void client_frame(Seat& s, int index, rwd::Micros now);
    void collect_corrections(Seat& s, int index, rwd::Micros now);
    void sample_staleness(const Seat& s, rwd::Micros now);
    void take_events(Seat& s, int index);
    void cut_events();
    void finish_inputs();
    void finish_transport();  ///< cs_transport.cpp
    bool touching_other(int slot, rwd::Tick tick) const;
    arena::Input script_input(Seat& s, rwd::Micros now) const;
    void finish();

    PassConfig cfg_;
    double tick_us_ = 0;
    rwd::Micros start_{1'000'000};
    rwd::Micros end_{};
    rwd::Micros half_{};        ///< the second half of the pass starts here
    rwd::Micros drain_{};       ///< events sent in the last drain_ of the pass are not graded
    bool cut_done_ = false;     ///< the drain window has begun
    rwd::Micros server_now_{};  ///< time of the server update being run
    std::unique_ptr<rwd::transport::SimNetwork> net_;
    rwd::transport::Address server_addr_{"server", 1};
    std::unique_ptr<Server> server_;
    BandwidthMeter bandwidth_;      ///< snapshot bandwidth and interest figures
    std::size_t header_bytes_ = 0;  ///< the transport's header per datagram
    std::vector<Seat> seats_;
    std::unique_ptr<SealedEndpoint> probe_endpoint_;  // the probe's sealing, in a sealed pass
    std::unique_ptr<Probe> probe_;
    rwd::client_server::ServerClientStats probe_stats_{};  // the probe's seat stats, last seen while seated
    ShotTracker shots_;
    EventCheck events_;       ///< item 7: events and deaths, server vs clients
    LatencyTracker latency_;  ///< input-to-apply latency, view age, repeated inputs
    CsRecording recording_;   ///< --save-replay: the server's world recording
    /// The server's recorder: passes everything on to the world recording (if any) and every message sent,
    /// in send order, to events_.
    struct SendTap : rwd::client_server::ServerRecorder<arena::ArenaGame> {
        explicit SendTap(Match* m) : match(m) {}
        Match* match;
        rwd::client_server::ServerRecorder<arena::ArenaGame>* inner = nullptr;
        void on_tick(rwd::Tick tick, const arena::State& after, bool replayed) override;
        void on_message(rwd::Tick tick, const rwd::client_server::OutMessage& message) override;
    };
    SendTap tap_{this};
    /// The server's recent ticks as they stand (replays overwrite them), judged once final.
    struct Ran {
        std::uint32_t tick = 0;
        bool valid = false;
        arena::State before{}, after{};
    };
    static constexpr std::size_t kRanTicks = 32;  // > ServerConfig::late_input_replay_ticks (at most 16)
    std::vector<Ran> ran_ = std::vector<Ran>(kRanTicks);
    bool has_judged_ = false;  ///< next_judge_ is set
    rwd::Tick next_judge_{};   ///< the oldest tick not judged yet
    rwd::Micros next_sample_{};
    std::vector<arena::ArenaGame::EntityRecord> scratch_;
    std::map<std::uint32_t, std::uint64_t>
        client_own_hash_;  ///< compare_own: tick -> first prediction's hash
    /// Where every player was on the server's recent ticks (ring by tick), to tell pushes from
    /// mispredictions.
    struct Body {
        std::int32_t x = 0, y = 0;
        bool alive = false;
    };
    static constexpr std::size_t kBodyTicks = 64;
    std::vector<std::array<Body, arena::kMaxPlayers>> bodies_ =
        std::vector<std::array<Body, arena::kMaxPlayers>>(kBodyTicks);
    std::vector<std::uint32_t> body_tick_ = std::vector<std::uint32_t>(kBodyTicks, 0xFFFFFFFFu);

    // Samples gathered while running (second half of the match unless noted).
    std::vector<double> offsets_, leads_, rtts_, delays_, buffers_, kbps_down_, kbps_up_;
    std::vector<double> errors_, movement_errors_, own_errors_, gaps_ms_;
    SampleRuns behind_newest_ms_, since_arrival_ms_;  // staleness samples (StalenessFigures)
    std::vector<double> input_depths_, input_targets_, rewind_limits_, offset_targets_;
    PassFigures fig_;
};

}  // namespace lab
