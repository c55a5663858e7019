/// MsgGame: the toy game with message types of its own (an announcement, a vote, an emote, a shout, a ping),
/// and a SimNetwork match whose clients can also send crafted bytes on their own connection.
#pragma once

#include "toy_harness.hpp"

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/transport/link_config.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace msg_test {

namespace cs = rwd::client_server;
namespace tr = rwd::transport;

/// Server to clients, reliable: a numbered line of text. Its serialize takes up to 60 bytes of text, but its
/// spec caps the payload at 48: the sender must refuse more.
struct Announcement {
    static constexpr cs::MessageSpec kMessage{"announcement", cs::MessageDirection::to_client,
                                              cs::MessageDelivery::reliable, 48};
    std::uint32_t seq = 0;
    std::string text;  ///< at most 60 bytes (and 48 minus the rest on the wire)
    friend bool operator==(const Announcement&, const Announcement&) = default;
};
template <class Stream>
bool serialize(Stream& s, Announcement& m) {
    return rwd::wire::serialize_bits(s, m.seq, 32) && rwd::wire::serialize_string(s, m.text, 60);
}

/// Client to server, reliable: a numbered vote for one of three choices. Generous rate: honest traffic stays
/// under it even when a stalled reliable channel delivers seconds of votes at once.
struct Vote {
    static constexpr cs::MessageSpec kMessage{
        "vote", cs::MessageDirection::to_server, cs::MessageDelivery::reliable, 8, 20, 60};
    std::uint32_t seq = 0;
    std::uint8_t choice = 0;  ///< 0..2
    friend bool operator==(const Vote&, const Vote&) = default;
};
template <class Stream>
bool serialize(Stream& s, Vote& m) {
    return rwd::wire::serialize_bits(s, m.seq, 32) &&
           rwd::wire::serialize_int(s, m.choice, std::uint8_t{0}, std::uint8_t{2});
}

/// Client to server, reliable, tightly rate limited: 2 a second, 5 in a burst.
struct Emote {
    static constexpr cs::MessageSpec kMessage{
        "emote", cs::MessageDirection::to_server, cs::MessageDelivery::reliable, 4, 2, 5};
    std::uint16_t id = 0;
    friend bool operator==(const Emote&, const Emote&) = default;
};
template <class Stream>
bool serialize(Stream& s, Emote& m) {
    return rwd::wire::serialize_int(s, m.id, std::uint16_t{0}, std::uint16_t{0xFFFF});
}

/// Client to server, reliable, with a high rate: for filling the server's inbox. Its text may be longer than
/// its spec's 24 bytes allow: the client must refuse that.
struct Shout {
    static constexpr cs::MessageSpec kMessage{
        "shout", cs::MessageDirection::to_server, cs::MessageDelivery::reliable, 24, 2000, 2000};
    std::uint32_t seq = 0;
    std::string text;  ///< at most 64 bytes (and 24 minus the rest on the wire)
    friend bool operator==(const Shout&, const Shout&) = default;
};
template <class Stream>
bool serialize(Stream& s, Shout& m) {
    return rwd::wire::serialize_bits(s, m.seq, 32) && rwd::wire::serialize_string(s, m.text, 64);
}

/// Either way, unreliable: a numbered ping with a stamp derived from its number (so a damaged one shows).
struct Ping {
    static constexpr cs::MessageSpec kMessage{
        "ping", cs::MessageDirection::both, cs::MessageDelivery::unreliable, 12, 100, 200};
    std::uint32_t seq = 0;
    std::uint32_t stamp = 0;
    friend bool operator==(const Ping&, const Ping&) = default;
};
template <class Stream>
bool serialize(Stream& s, Ping& m) {
    return rwd::wire::serialize_bits(s, m.seq, 32) && rwd::wire::serialize_bits(s, m.stamp, 32);
}

/// The ping numbered `seq` as its sender makes it.
inline Ping ping(std::uint32_t seq) { return Ping{seq, seq * 2654435761u + 12345u}; }

/// The toy game with the message types above.
struct MsgGame : toy::ToyGame {
    using Messages = cs::MessageList<Announcement, Vote, Emote, Shout, Ping>;
    // The same step (lag compensation typed for this game).
    static void step(State& s, std::span<const Input> inputs, const rwd::RewoundTargets<MsgGame>*) {
        ToyGame::step(s, inputs, nullptr);
    }
};

/// The wire id of M in MsgGame.
template <class M>
constexpr cs::MessageId id_of() {
    return cs::message_id<MsgGame, M>();
}

/// A transport that passes everything through to `inner` and remembers the server's peer id, so a test can
/// send crafted bytes on the same connection as the Client that uses it.
class Tap final : public tr::Transport {
public:
    explicit Tap(tr::Transport& inner) : inner_(inner) {}
    rwd::Result<tr::PeerId> connect(const tr::Address& to) override {
        auto r = inner_.connect(to);
        if (r.ok()) server_ = r.value();
        return r;
    }
    void disconnect(tr::PeerId peer, tr::DisconnectReason reason) override {
        inner_.disconnect(peer, reason);
    }
    rwd::Status send(tr::PeerId peer, tr::Delivery d, std::span<const std::uint8_t> data) override {
        return inner_.send(peer, d, data);
    }
    void update(rwd::Micros now) override { inner_.update(now); }
    bool poll(tr::TransportEvent& out) override { return inner_.poll(out); }
    tr::PeerStats stats(tr::PeerId peer) const override { return inner_.stats(peer); }
    std::size_t max_message_size() const override { return inner_.max_message_size(); }
    std::size_t header_bytes() const override { return inner_.header_bytes(); }

    /// Sends `msg` framed (encode_message) to the server, as the client's own bytes.
    template <class Msg>
    void send_framed(Msg msg, tr::Delivery d) {
        std::vector<std::uint8_t> bytes;
        ASSERT_TRUE(cs::encode_message(msg, bytes).ok());
        ASSERT_TRUE(inner_.send(server_, d, bytes).ok());
    }

private:
    tr::Transport& inner_;
    tr::PeerId server_ = tr::kInvalidPeer;
};

/// A match of MsgGame whose clients all talk through a Tap.
struct MsgMatch : toy::Match<MsgGame> {
    std::vector<std::unique_ptr<Tap>> taps;

    explicit MsgMatch(std::uint64_t seed, const tr::LinkConfig& link = {}) : Match(seed, link) {}
    ~MsgMatch() { clients.clear(); }  // before the taps they use
    MsgMatch(const MsgMatch&) = delete;
    MsgMatch& operator=(const MsgMatch&) = delete;

    /// Adds a client on a Tap, connects it and returns its index.
    int connect_tapped_client() {
        const int i = static_cast<int>(clients.size());
        tr::Address a{"client" + std::to_string(i), static_cast<std::uint16_t>(100 + i)};
        client_addrs.push_back(a);
        taps.resize(clients.size() + 1);
        taps.back() = std::make_unique<Tap>(*net->create_endpoint(a).value());
        clients.push_back(std::make_unique<cs::Client<MsgGame>>(*taps.back(), client_config));
        EXPECT_TRUE(clients.back()->connect(server_addr, now).ok());
        return i;
    }
    /// Client i's tap.
    Tap& tap(int i) { return *taps[static_cast<std::size_t>(i)]; }
};

/// The hostile link profile: 300 ms ± 100 ms, 25 % loss, 25 % duplication, 10 % reordering.
inline tr::LinkConfig hostile() { return tr::link_profile("hostile").value(); }

}  // namespace msg_test
