/// SpectatorSession: follows a match from the confirmed inputs a host broadcasts; never rolls back.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_contract.hpp>
#include <rewind/session/game_hooks.hpp>
#include <rewind/session/rollback/detail/spectator_core.hpp>
#include <rewind/session/rollback/game_traits.hpp>
#include <rewind/session/rollback/spectator_config.hpp>
#include <rewind/session/rollback/types.hpp>
#include <rewind/transport/transport.hpp>

#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace rwd::rollback {

/// Watches a match: handshakes with a host (a P2PSession with max_spectators > 0), receives every confirmed
/// input from frame 0, and simulates them in order. It plays one frame per advance() while it is close behind
/// and up to max_catchup_frames per advance() when it falls further behind (joining late, after a hiccup).
/// It can start before the host exists (it keeps knocking) and leave at any time (close()); the players never
/// wait for a spectator. This template owns the State and the simulation; the link to the host lives in the
/// compiled detail::SpectatorCore.
template <class G>
class SpectatorSession {
    static_assert(contract::deterministic_game<G>());

public:
    using State = typename G::State;  ///< the game's state
    using Input = typename G::Input;  ///< one player's input

    /// A session, or invalid_config.
    [[nodiscard]] static Result<std::unique_ptr<SpectatorSession>> create(transport::Transport& transport,
                                                                          transport::PeerId host,
                                                                          const SpectatorConfig& config,
                                                                          const State& initial) {
        if (Status s = config.validate(); !s.ok()) return s.error();
        if (G::kMaxPlayers < config.num_players)
            return Error{Errc::invalid_config, "num_players > G::kMaxPlayers"};
        return std::unique_ptr<SpectatorSession>(new SpectatorSession(transport, host, config, initial));
    }

    /// Network only: receive inputs, acknowledge, keep the handshake and timers going.
    void update(Micros now) { core_.update(now); }

    /// update(now), then simulates the frames due: one when close behind, up to max_catchup_frames when
    /// behind by more than catchup_threshold; none when the next frame's inputs have not arrived.
    AdvanceResult advance(Micros now) {
        AdvanceResult r = core_.plan_advance(now);
        for (int i = 0; i < r.frames_advanced; ++i) {
            const Frame f = core_.current_frame();
            for (int p = 0; p < G::kMaxPlayers; ++p) {
                const InputBits* bits = p < num_players_ ? core_.input(p, f) : nullptr;
                inputs_[static_cast<std::size_t>(p)] = bits != nullptr ? decode(*bits) : Input{};
            }
            hooks::step<G>(state_, std::span<const Input>(inputs_.data(), inputs_.size()));
            checksums_[static_cast<std::size_t>(f) % checksums_.size()] = {f, G::checksum(state_)};
            r.frame = f;
            core_.frame_done();
        }
        return r;
    }

    /// Says goodbye to the host; the host forgets this spectator at once.
    void close(Micros now) { core_.close(now); }

    /// The state at the start of current_frame().
    [[nodiscard]] const State& state() const { return state_; }
    /// The next frame to simulate.
    [[nodiscard]] Frame current_frame() const { return core_.current_frame(); }
    /// Frames the host has confirmed beyond ours (estimate from its last message).
    [[nodiscard]] Frame frames_behind() const { return core_.frames_behind(); }
    /// Whether the handshake is done.
    [[nodiscard]] bool running() const { return core_.running(); }
    /// The checksum of the state after `frame` if it is among the last 1024 simulated; false otherwise.
    bool frame_checksum(Frame frame, std::uint64_t& out) const {
        if (frame < 0) return false;
        const auto& e = checksums_[static_cast<std::size_t>(frame) % checksums_.size()];
        if (e.first != frame) return false;
        out = e.second;
        return true;
    }
    /// Pops the oldest event; false when none.
    bool poll_event(SessionEvent& out) { return core_.poll_event(out); }
    /// Why the host link ended (none while it lasts): too_far_behind when the host's input window had moved
    /// on.
    [[nodiscard]] LeaveReason leave_reason() const { return core_.leave_reason(); }
    /// advance() calls that ran more than one frame to catch up.
    [[nodiscard]] std::uint64_t catchups() const { return core_.catchups(); }
    /// Statistics of the link to the host.
    [[nodiscard]] PeerStatsRb host_stats() const { return core_.host_stats(); }

private:
    SpectatorSession(transport::Transport& transport, transport::PeerId host, const SpectatorConfig& config,
                     const State& initial)
        : core_(transport, host, config, &check_bits),
          num_players_(config.num_players),
          state_(initial),
          inputs_(static_cast<std::size_t>(G::kMaxPlayers)),
          checksums_(1024, {kNullFrame, 0}) {}

    /// The one place bits become an Input (the core holds checked bits only).
    static Input decode(const InputBits& bits) {
        Input in{};
        return bits_to_input<G>(bits, in) ? in : Input{};
    }
    /// The core's check of untrusted bits from the host.
    static bool check_bits(const InputBits& bits) {
        Input in{};
        return bits_to_input<G>(bits, in);
    }

    detail::SpectatorCore core_;
    int num_players_;
    State state_;
    std::vector<Input> inputs_;
    std::vector<std::pair<Frame, std::uint64_t>> checksums_;
};

}  // namespace rwd::rollback
