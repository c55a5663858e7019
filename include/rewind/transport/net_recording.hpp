/// Network recordings: every event a session took from its transport, every datagram it gave it, and every
/// call the program made of the session, with their times, so that the session can be re-run offline exactly
/// (layout in docs/REPLAY.md).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/time.hpp>
#include <rewind/transport/transport.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace rwd::transport {

/// The network recording format version this build writes and reads.
inline constexpr std::uint16_t kNetRecordingVersion = 1;

/// What a recording says about the session it holds.
struct NetRecordingHeader {
    std::string app;     ///< who recorded it (e.g. "rewind-client"), 1..64 printable bytes
    std::string config;  ///< the app's description of its session, to build the same one again
    std::uint64_t max_message_size = 0;  ///< what the recorded transport reported
    std::uint64_t header_bytes = 0;      ///< likewise
    friend bool operator==(const NetRecordingHeader&, const NetRecordingHeader&) = default;
};

/// One thing that happened, in the order it happened.
struct NetRecord {
    enum class Kind : std::uint8_t {
        app_update = 1,       ///< the program called update(now)
        app_input = 2,        ///< ... set the input (`bytes`: the game's serialize() of it)
        app_render = 3,       ///< ... asked for the entities to draw at `now`
        app_connect = 4,      ///< ... connect(`bytes`: "host:port", now)
        app_disconnect = 5,   ///< ... disconnect(now)
        app_kick = 6,         ///< ... kick(slot, code, now) (a server; `bytes`: slot, code)
        event = 16,           ///< the session took `event` from poll()
        connect_result = 17,  ///< connect() returned `peer` (kInvalidPeer: it failed)
        send = 18,            ///< the session sent `bytes` to `peer` with `delivery`
        stats_change =
            19,       ///< stats(`peer`) now reports `stats` (rtt, jitter, loss; recorded when they change)
        result = 32,  ///< the program's own outcome (`bytes`, e.g. its correction log), at the end
    };
    Kind kind = Kind::app_update;
    Micros now{};
    TransportEvent event;
    PeerId peer = kInvalidPeer;
    Delivery delivery = Delivery::unreliable;
    PeerStats stats;  ///< stats_change: rtt, jitter and loss
    std::vector<std::uint8_t> bytes;
    /// Whether this is one of the program's calls (app_*), as opposed to the transport's side.
    [[nodiscard]] bool app() const { return static_cast<std::uint8_t>(kind) < 16; }
};

/// A parsed recording.
struct NetRecordingData {
    NetRecordingHeader header;
    std::vector<NetRecord> records;
};

/// Parses untrusted bytes: malformed (not a recording, truncated, a bad record, a damaged file) or rejected
/// (another format version). Memory is bounded by the size of `bytes`.
[[nodiscard]] Result<NetRecordingData> parse_net_recording(std::span<const std::uint8_t> bytes);

/// Wraps the transport a session speaks on and records everything that crosses it; the session's owner notes
/// its own calls (Client<G>::record_to does that for a client).
class RecordingTransport final : public Transport {
public:
    /// Records `inner` (not owned). `header.max_message_size` and `header_bytes` are taken from `inner`.
    RecordingTransport(Transport& inner, NetRecordingHeader header);

    [[nodiscard]] Result<PeerId> connect(const Address& to) override;
    void disconnect(PeerId peer, DisconnectReason reason) override { inner_.disconnect(peer, reason); }
    [[nodiscard]] Status send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) override;
    void update(Micros now) override { inner_.update(now); }
    [[nodiscard]] bool poll(TransportEvent& out) override;
    [[nodiscard]] PeerStats stats(PeerId peer) const override;
    [[nodiscard]] std::size_t max_message_size() const override { return inner_.max_message_size(); }
    [[nodiscard]] std::size_t header_bytes() const override { return inner_.header_bytes(); }

    /// The program's calls, noted before they run.
    void note_update(Micros now) { note_time(NetRecord::Kind::app_update, now); }
    void note_input(std::span<const std::uint8_t> input);
    void note_render(Micros now) { note_time(NetRecord::Kind::app_render, now); }
    void note_connect(const Address& to, Micros now);
    void note_disconnect(Micros now) { note_time(NetRecord::Kind::app_disconnect, now); }
    void note_kick(int slot, std::uint8_t code, Micros now);
    /// The program's outcome, compared by whoever re-runs the recording.
    void note_result(std::span<const std::uint8_t> result);

    /// Records so far, and the size of the file they make.
    [[nodiscard]] std::size_t records() const { return records_; }
    [[nodiscard]] std::size_t size_bytes() const { return body_.size(); }
    /// The complete file.
    [[nodiscard]] std::vector<std::uint8_t> bytes() const;

private:
    void note_time(NetRecord::Kind kind, Micros now);
    Transport& inner_;
    NetRecordingHeader header_;
    mutable std::vector<std::uint8_t> body_;  // stats() is const, and records what it reports
    mutable std::size_t records_ = 0;
    mutable std::map<PeerId, PeerStats> reported_;  // the rtt, jitter and loss last recorded per peer
};

/// A transport that plays a recording back to a session built like the recorded one: poll() hands out the
/// recorded events, connect() the recorded result, send() compares each datagram with the recorded one. The
/// program's calls are read with next_app() and made by whoever drives the session (client_server's
/// replay_client does it for a client).
class PlaybackTransport final : public Transport {
public:
    explicit PlaybackTransport(const NetRecordingData& data);

    [[nodiscard]] Result<PeerId> connect(const Address& to) override;
    void disconnect(PeerId, DisconnectReason) override {}
    [[nodiscard]] Status send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) override;
    void update(Micros) override {}
    [[nodiscard]] bool poll(TransportEvent& out) override;
    /// The rtt, jitter and loss the recording reported for `peer` at this point (the rest 0).
    [[nodiscard]] PeerStats stats(PeerId peer) const override;
    [[nodiscard]] std::size_t max_message_size() const override;
    [[nodiscard]] std::size_t header_bytes() const override;

    /// The next program call (nullptr at the end), skipping and counting transport records the session did
    /// not take since the last one.
    [[nodiscard]] const NetRecord* next_app();

    /// What the re-run did differently from the recording.
    struct Divergence {
        std::uint64_t sends_compared = 0;    ///< datagrams sent and compared with the recorded ones
        std::uint64_t sends_differing = 0;   ///< of those, different bytes, peer or delivery
        std::uint64_t sends_extra = 0;       ///< datagrams sent where the recording has none
        std::uint64_t records_skipped = 0;   ///< recorded events, connect results or sends not taken
        std::uint64_t connects_missing = 0;  ///< connect() calls with no recorded result
        [[nodiscard]] bool none() const {
            return sends_differing == 0 && sends_extra == 0 && records_skipped == 0 && connects_missing == 0;
        }
    };
    [[nodiscard]] const Divergence& divergence() const { return divergence_; }
    /// The program's recorded outcome (empty when it noted none).
    [[nodiscard]] const std::vector<std::uint8_t>& recorded_result() const { return result_; }

private:
    [[nodiscard]] const NetRecord* at() const;
    const NetRecordingData& data_;
    mutable std::size_t cursor_ = 0;                // stats() is const, and takes its records
    mutable std::map<PeerId, PeerStats> reported_;  // per peer, the newest stats_change taken
    Divergence divergence_;
    std::vector<std::uint8_t> result_;
};

}  // namespace rwd::transport
