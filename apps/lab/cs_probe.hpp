// The adversarial probe: a modified client speaking the client-server protocol by hand to test server
// authority.
#pragma once

#include <arena/arena_game.hpp>

#include <rewind/core/tick.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/transport.hpp>

#include <cstdint>
#include <vector>

namespace lab {

/// When the probe misbehaves, as times since the match started.
struct ProbeSchedule {
    rwd::Micros run_from{};     ///< walks at full deflection from here (baseline top speed)
    rwd::Micros bad_from{};     ///< sends out-of-range input packets from here
    int bad_packets = 10;       ///< how many (below the server's malformed kick limit)
    rwd::Micros flood_from{};   ///< claims four ticks of input per tick from here ...
    rwd::Micros flood_until{};  ///< ... until here
    rwd::Micros stale_from{};   ///< fires claiming a view ~1 s old from here ...
    rwd::Micros stale_until{};  ///< ... until here
};

/// A client that connects like any other, then sends what a modified client could: axes beyond the wire
/// range, an impossible input count, more inputs than ticks, and shots stamped with a view older than the
/// rewind cap.
class Probe {
public:
    /// A probe on `transport` that will connect to `server`; `lead_ticks` is how far ahead of the newest
    /// snapshot it stamps its inputs (the lab derives it from the configured latencies).
    Probe(rwd::transport::Transport& transport, const rwd::transport::Address& server, int tick_rate_hz,
          double lead_ticks, ProbeSchedule schedule, std::vector<std::uint8_t> token = {});

    /// Starts connecting.
    void connect(rwd::Micros start);
    /// Takes in messages and sends this moment's packets.
    void update(rwd::Micros now);

    /// The slot the server gave the probe, or -1.
    [[nodiscard]] int slot() const { return slot_; }
    /// Out-of-range packets sent.
    [[nodiscard]] std::uint64_t bad_packets_sent() const { return bad_sent_; }
    /// Packets sent in the flood phase.
    [[nodiscard]] std::uint64_t flood_packets_sent() const { return flood_sent_; }
    /// Ticks on which a fire input with a stale view was sent.
    [[nodiscard]] std::uint64_t stale_fire_inputs() const { return stale_fires_; }
    /// True once the server said goodbye.
    [[nodiscard]] bool dropped() const { return dropped_; }

private:
    void on_message(const std::vector<std::uint8_t>& data, rwd::Micros now);
    void send_inputs(rwd::Tick newest, const arena::Input& in, rwd::Micros now);
    void send_bad(rwd::Tick newest);

    rwd::transport::Transport& transport_;
    rwd::transport::Address server_;
    std::vector<std::uint8_t> token_;  // its connect token (a sealed pass), sent in the hello
    rwd::transport::PeerId peer_ = rwd::transport::kInvalidPeer;
    double tick_us_ = 0;
    double lead_ticks_ = 0;
    ProbeSchedule schedule_;
    rwd::Micros start_{};
    int slot_ = -1;
    bool has_snapshot_ = false;
    rwd::Tick snapshot_tick_{};
    rwd::Micros snapshot_at_{};
    bool has_sent_ = false;
    rwd::Tick last_sent_{};
    std::uint16_t sequence_ = 0;
    std::uint64_t bad_sent_ = 0;
    std::uint64_t flood_sent_ = 0;
    std::uint64_t stale_fires_ = 0;
    bool dropped_ = false;
    std::vector<std::uint8_t> buffer_;
};

}  // namespace lab
