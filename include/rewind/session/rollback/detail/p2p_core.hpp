/// P2PCore: the compiled, game-independent core behind P2PSession (internal; apps and tests use P2PSession).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/session/rollback/desync.hpp>
#include <rewind/session/rollback/protocol.hpp>
#include <rewind/session/rollback/types.hpp>
#include <rewind/transport/transport.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace rwd::rollback::detail {

/// Whether untrusted input bits decode to a canonical Input of the game (the adapter's decoder).
using InputCheck = bool (*)(const InputBits& bits);

/// Where the input of one player for one frame comes from.
struct FrameInput {
    const InputBits* bits =
        nullptr;             ///< confirmed bits, or a prediction's base; nullptr = the neutral Input{}
    bool predicted = false;  ///< not known yet: predict from `bits` (the newest confirmed input)
    Frame frames_since = 0;  ///< predicted: frames after that newest confirmed input
};

/// Time spent in one simulated frame, measured with the config's optional clock.
struct SimTiming {
    std::uint64_t save_ns = 0;  ///< copying the state into the save ring
    std::uint64_t step_ns = 0;  ///< inside G::step
};

/// A state's bytes for desync forensics.
struct StateBytes {
    std::vector<std::uint8_t> bytes;  ///< serialize(State) output, or the raw object representation
    bool serialized = false;          ///< bytes came from serialize(State)
    std::uint64_t checksum = 0;       ///< G::checksum of that state
};

/// What the core asks of the game-typed adapter: the state, its save ring and the simulation live there.
class GameAccess {
public:
    /// Saves the current state as the start of `frame`, then steps it with the inputs frame_input() gives.
    virtual SimTiming simulate(Frame frame) = 0;
    /// Restores the state saved at the start of `frame`; false when the save ring no longer holds it.
    virtual bool load(Frame frame) = 0;
    /// The checksum of the state after `frame` while the save ring (or the current state) holds it.
    virtual bool checksum_after(Frame frame, std::uint64_t& out) const = 0;
    /// Keeps the state after `frame` for forensics (the adapter bounds how many).
    virtual void keep_snapshot(Frame frame) = 0;
    /// Forgets kept states of frames after `frame` (a disconnect rewrote them).
    virtual void forget_snapshots_after(Frame frame) = 0;
    /// The bytes of the kept state after `frame`; false when none is kept.
    virtual bool snapshot_bytes(Frame frame, StateBytes& out) const = 0;
    /// The bytes of the state at the start of `frame` while the save ring (or the current state) holds it,
    /// for a joiner; false when it is gone or the State has no serialize(Stream&, State&).
    virtual bool saved_bytes(Frame frame, StateBytes& out) const = 0;
    /// Joiner: replaces the state with `bytes` (from serialize(Stream&, State&)) as the start of frame
    /// `next`; `checksum` is G::checksum of what was loaded. False when the bytes do not deserialize.
    virtual bool load_bytes(std::span<const std::uint8_t> bytes, std::uint64_t& checksum) = 0;
    /// Fills report.diff field by field when the game can (report.remote_state has arrived); else leaves it.
    virtual void describe_diff(const DesyncReport& report, std::string& diff) const = 0;

protected:
    ~GameAccess() = default;
};

/// Seats, peer links, handshake, input exchange as bits, acks, time sync, disconnects, the spectator feed,
/// checksum and forensic exchange, events and statistics of one P2PSession. It decides what to simulate and
/// when; the adapter (GameAccess) simulates. Every method mirrors the P2PSession method of the same name.
class P2PCore {
public:
    /// `neutral`: the bits of Input{}, nullptr when it has none that decode back to it; `check` validates
    /// received bits. `config` must validate.
    P2PCore(transport::Transport& transport, const P2PConfig& config, InputCheck check,
            const InputBits* neutral, GameAccess& game);
    ~P2PCore();
    P2PCore(const P2PCore&) = delete;
    P2PCore& operator=(const P2PCore&) = delete;

    [[nodiscard]] Status add_local_player(int slot);
    [[nodiscard]] Status add_remote_player(int slot, transport::PeerId peer);
    [[nodiscard]] Status add_spectator(transport::PeerId peer);
    [[nodiscard]] Status add_open_slot(int slot);
    [[nodiscard]] Status join_as(int slot);
    /// Takes the encoded input of local `slot` for the next frame.
    [[nodiscard]] Status add_local_input(int slot, const InputBits& bits);
    void update(Micros now);
    AdvanceResult advance(Micros now);
    void close(Micros now);
    void disconnect_player(int slot);
    [[nodiscard]] Status set_input_delay(int frames);

    /// The input of `slot` to simulate frame `f` with.
    [[nodiscard]] FrameInput frame_input(int slot, Frame f) const;
    /// Records the bits frame `f` of `slot` was simulated with (nullptr: a prediction without canonical
    /// bits).
    void set_used(int slot, Frame f, const InputBits* used);
    /// The bits of Input{} (nullptr when Input{} does not serialize canonically).
    [[nodiscard]] const InputBits* neutral_bits() const;
    /// The final input of `slot` at `f`: false if no longer stored; `out` nullptr = neutral.
    [[nodiscard]] bool confirmed_input(int slot, Frame f, const InputBits*& out) const;

    [[nodiscard]] int input_delay() const;
    [[nodiscard]] int effective_input_delay() const;
    [[nodiscard]] Frame last_local_input_frame() const;
    [[nodiscard]] Frame current_frame() const;
    [[nodiscard]] Frame confirmed_frame() const;
    [[nodiscard]] bool running() const;
    [[nodiscard]] double frames_ahead() const;
    [[nodiscard]] double time_scale() const;
    bool poll_event(SessionEvent& out);
    [[nodiscard]] PlayerKind player_kind(int slot) const;
    [[nodiscard]] SessionStats stats() const;
    [[nodiscard]] std::vector<PeerStatsRb> peer_stats() const;
    [[nodiscard]] const std::vector<DesyncReport>& desync_reports() const;
    [[nodiscard]] const P2PConfig& config() const;
    [[nodiscard]] int num_spectators() const;

    class Impl;  ///< the state and logic (src/session/rollback/p2p_core_impl.hpp)

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace rwd::rollback::detail
