// Per-peer state of a SimNetwork endpoint: packet acks, reliable queues and the measured link statistics.
#pragma once

#include <rewind/core/sequence.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/transport.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <vector>

namespace rwd::transport::sim {

inline constexpr std::size_t kSentBuffer = 1024;     // sent packets remembered for acks and loss
inline constexpr std::size_t kReliableWindow = 256;  // reliable messages in flight before the sender waits
inline constexpr std::size_t kReceiveWindow = 1024;  // reliable messages buffered ahead of the next expected
inline constexpr std::size_t kLossWindow = 256;      // packets the loss figure is computed over

// Smoothed RTT and its mean deviation as in RFC 6298.
struct RttEstimator {
    bool have = false;
    double srtt_us = 0.0;
    double rttvar_us = 0.0;
    void add(Micros sample) {
        const auto r = static_cast<double>(sample.count);
        if (!have) {
            have = true;
            srtt_us = r;
            rttvar_us = r / 2.0;
            return;
        }
        rttvar_us += (std::abs(r - srtt_us) - rttvar_us) / 4.0;
        srtt_us += (r - srtt_us) / 8.0;
    }
};

// Outcomes (acked or not) of the last kLossWindow packets.
struct LossWindow {
    std::array<bool, kLossWindow> lost{};
    std::size_t next = 0, count = 0, lost_count = 0;
    void add(bool was_lost) {
        if (count == kLossWindow)
            lost_count -= lost[next] ? 1 : 0;
        else
            ++count;
        lost[next] = was_lost;
        lost_count += was_lost ? 1 : 0;
        next = (next + 1) % kLossWindow;
    }
    [[nodiscard]] double fraction() const {
        return count == 0 ? 0.0 : static_cast<double>(lost_count) / static_cast<double>(count);
    }
};

// Bytes per fixed window, turned into kilobits per second when the window closes.
struct RateMeter {
    static constexpr Micros kWindow{500'000};
    Micros window_start{};
    std::uint64_t bytes = 0;
    double kbps = 0.0;
    void add(std::size_t n) { bytes += n; }
    void tick(Micros now) {
        const Micros elapsed = now - window_start;
        if (elapsed < kWindow) return;
        kbps = static_cast<double>(bytes) * 8.0 / 1000.0 / elapsed.seconds();
        bytes = 0;
        window_start = now;
    }
};

struct SentPacket {
    bool used = false;
    bool acked = false;
    bool evaluated = false;  // counted in the loss window already
    Seq16 seq = 0;
    Micros sent_at{};
    std::vector<std::uint16_t> reliable_ids;
};

struct OutMessage {
    std::uint16_t id = 0;
    bool sent = false;
    bool acked = false;
    Micros last_sent{};
    std::vector<std::uint8_t> data;
};

struct InSlot {
    bool used = false;
    std::uint16_t id = 0;
    std::vector<std::uint8_t> data;
};

// A ring of N slots keyed by a sequence number (slot = key mod N) whose storage grows to the highest slot
// used: a connection that sends a hundred packets holds a hundred slots, not N.
template <class T, std::size_t N>
class GrowingRing {
public:
    // The slot of `key`, made (value-initialized) if the ring had not grown that far.
    T& at(std::size_t key) {
        const std::size_t i = key % N;
        if (i >= slots_.size()) slots_.resize(i + 1);
        return slots_[i];
    }
    // The slot of `key`, or nullptr when the ring never grew that far (an unused slot).
    [[nodiscard]] T* find(std::size_t key) {
        const std::size_t i = key % N;
        return i < slots_.size() ? &slots_[i] : nullptr;
    }

private:
    std::vector<T> slots_;
};

/// One direction between two addresses, owned by the network (defined in sim_network.cpp).
struct Link;

struct Peer {
    PeerId id = kInvalidPeer;
    Address address;
    Link* link = nullptr;    // this endpoint -> address, looked up at the first send
    bool outgoing = false;   // we called connect()
    bool connected = false;  // handshake done
    Micros created_at{}, last_heard{}, last_sent{}, last_connect_attempt{};
    std::size_t malformed = 0;

    // Packet sequence and acks.
    Seq16 next_seq = 0;
    Seq16 oldest_unevaluated = 0;
    GrowingRing<SentPacket, kSentBuffer> sent;  // by packet sequence
    bool have_received = false;
    Seq16 remote_latest = 0;
    std::uint32_t remote_bits = 0;
    bool ack_pending = false;
    // The peer's newest data packet so far and the ack it carried: an ack is "fresh" (a clean RTT sample)
    // only when it differs from the one in the peer's packet right before it.
    bool have_peer_packet = false;
    Seq16 peer_packet_seq = 0;
    bool peer_packet_ack_valid = false;
    Seq16 peer_packet_ack = 0;

    // Messages.
    std::deque<std::vector<std::uint8_t>> unreliable_out;
    // Stream endpoints: the unreliable message held while the stream is backed up (the newest one).
    bool has_held = false;
    std::vector<std::uint8_t> held;
    std::uint64_t seen_transmissions = 0, seen_retransmissions = 0;  // the stream's counters, last update
    LossWindow stream_loss;               // of the stream's segment copies: lost (sent again) or not
    std::deque<OutMessage> reliable_out;  // ordered by id, front = oldest not yet acked
    // SimEndpoint::has_due()'s memo of a scan of the reliable window that found nothing due: the earliest
    // send time of a message in it not yet acked (the front one always is: acked fronts are popped, and an
    // unsent one would have been due). Every push to reliable_out and every pop from it clears `valid`. Until
    // then, sends only move a message's time later and acks only remove messages, so the remembered time is
    // never later than the real earliest: no message can be due before oldest_sent + timeout.
    struct QuietWindow {
        bool valid = false;
        Micros oldest_sent{};
    };
    QuietWindow quiet;
    std::uint16_t next_message_id = 0;
    std::uint16_t next_expected = 0;
    GrowingRing<InSlot, kReceiveWindow> received;  // by reliable message id

    // Statistics.
    RttEstimator rtt;
    LossWindow loss;
    RateMeter rate_sent, rate_received;
    PeerStats stats;
};

}  // namespace rwd::transport::sim
