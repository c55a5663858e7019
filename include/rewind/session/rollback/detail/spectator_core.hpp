/// SpectatorCore: the compiled, game-independent core behind SpectatorSession (internal).
#pragma once

#include <rewind/core/time.hpp>
#include <rewind/session/rollback/detail/p2p_core.hpp>
#include <rewind/session/rollback/protocol.hpp>
#include <rewind/session/rollback/spectator_config.hpp>
#include <rewind/session/rollback/types.hpp>
#include <rewind/transport/transport.hpp>

#include <cstdint>
#include <memory>

namespace rwd::rollback::detail {

/// The link to the host, the handshake, the confirmed input bits received, acks, events and statistics of one
/// SpectatorSession. It decides how many frames are due; the adapter simulates them. Methods mirror the
/// SpectatorSession methods of the same name.
class SpectatorCore {
public:
    /// `config` must validate; `check` validates received input bits.
    SpectatorCore(transport::Transport& transport, transport::PeerId host, const SpectatorConfig& config,
                  InputCheck check);
    ~SpectatorCore();
    SpectatorCore(const SpectatorCore&) = delete;
    SpectatorCore& operator=(const SpectatorCore&) = delete;

    void update(Micros now);
    /// update(now), then the frames due: `frames_advanced` of them from current_frame() (none unless
    /// advanced). The adapter simulates each with input() and reports it with frame_done().
    AdvanceResult plan_advance(Micros now);
    /// The input bits of `slot` in frame `f` (received, since the plan made it due); nullptr = neutral.
    [[nodiscard]] const InputBits* input(int slot, Frame f) const;
    /// One due frame was simulated.
    void frame_done();
    void close(Micros now);

    [[nodiscard]] Frame current_frame() const;
    [[nodiscard]] Frame frames_behind() const;
    [[nodiscard]] bool running() const;
    bool poll_event(SessionEvent& out);
    [[nodiscard]] LeaveReason leave_reason() const;
    [[nodiscard]] std::uint64_t catchups() const;
    [[nodiscard]] PeerStatsRb host_stats() const;

    class Impl;  ///< the state and logic (src/session/rollback/spectator_core.cpp)

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace rwd::rollback::detail
