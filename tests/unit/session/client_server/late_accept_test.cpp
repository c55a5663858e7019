/// An attempt whose accept comes too late (lost, and resent by a transport whose retransmission timeout
/// doubles on every loss, as ENet's does) after the server's snapshots already arrived: the next attempt
/// keeps no snapshot state of it.
#include "toy_harness.hpp"

#include <rewind/session/client_server/client.hpp>

#include <gtest/gtest.h>

#include <deque>
#include <string>

namespace {

using namespace toy;
using rwd::Micros;
namespace cs = rwd::client_server;
namespace tr = rwd::transport;

/// Around a client's endpoint: the reliable messages of its first connection reach the client `delay` after
/// the first of them arrived, in order; unreliable ones (snapshots) and later connections pass at once.
class LateAccept final : public tr::Transport {
public:
    LateAccept(tr::Transport& inner, Micros delay) : inner_(inner), delay_(delay) {}

    rwd::Result<tr::PeerId> connect(const tr::Address& to) override {
        auto id = inner_.connect(to);
        if (id.ok() && first_ == tr::kInvalidPeer) first_ = id.value();
        return id;
    }
    void disconnect(tr::PeerId peer, tr::DisconnectReason reason) override {
        if (peer == first_) held_.clear();
        inner_.disconnect(peer, reason);
    }
    rwd::Status send(tr::PeerId peer, tr::Delivery delivery, std::span<const std::uint8_t> data) override {
        return inner_.send(peer, delivery, data);
    }
    void update(Micros now) override {
        now_ = now;
        inner_.update(now);
    }
    bool poll(tr::TransportEvent& out) override {
        if (!held_.empty() && now_ >= release_at_) {
            out = std::move(held_.front());
            held_.pop_front();
            return true;
        }
        while (inner_.poll(out)) {
            const bool delayed = out.peer == first_ && out.type == tr::TransportEvent::Type::message &&
                                 out.delivery == tr::Delivery::reliable_ordered && !released_;
            if (!delayed) return true;
            if (held_.empty() && release_at_.count == 0) release_at_ = now_ + delay_;
            held_.push_back(std::move(out));
        }
        if (!held_.empty() && now_ >= release_at_) released_ = true;
        return false;
    }
    tr::PeerStats stats(tr::PeerId peer) const override { return inner_.stats(peer); }
    std::size_t max_message_size() const override { return inner_.max_message_size(); }
    std::size_t header_bytes() const override { return inner_.header_bytes(); }

private:
    tr::Transport& inner_;
    Micros delay_;
    Micros now_{};
    Micros release_at_{};
    bool released_ = false;
    tr::PeerId first_ = tr::kInvalidPeer;
    std::deque<tr::TransportEvent> held_;
};

/// The checklist link: 100 ms one way, 20 ms jitter, 5 % loss.
rwd::transport::LinkConfig checklist() { return link(100, 20, 0.05); }

/// Adds a client to `m` whose first connection gets its reliable messages `delay` late.
cs::Client<ToyGame>& add_late_client(Match<>& m, std::unique_ptr<LateAccept>& late, Micros delay) {
    const tr::Address a{"late", 100};
    m.client_addrs.push_back(a);
    late = std::make_unique<LateAccept>(*m.net->create_endpoint(a).value(), delay);
    m.clients.push_back(std::make_unique<cs::Client<ToyGame>>(*late, m.client_config));
    return *m.clients.back();
}

TEST(LateAccept, ANewAttemptKeepsNoSnapshotStateOfTheOneGivenUp) {
    // The first attempt hears ~5 s of snapshots (the server seated it) without its accept and is given up,
    // as in the relay e2e run that played 8.3 s of 20; the new connection's seat numbers its snapshots from 0
    // again. Judged against the old connection's newest sequence they would all be stale for as long as the
    // first attempt had heard (~150 of them), and the client would sync that much later.
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        std::unique_ptr<LateAccept> late;  // outlives the match, whose client uses it
        Match<> m(seed, checklist());
        auto& client = add_late_client(m, late, Micros{60'000'000});
        ASSERT_TRUE(client.connect(m.server_addr, m.now).ok());
        m.run(Micros{5'200'000});
        ASSERT_EQ(client.stats().connect_attempts, 1u);
        const auto heard = client.stats().snapshots_received;
        EXPECT_GT(heard, 100u);  // the server had seated the first attempt
        m.run(Micros{800'000});
        ASSERT_EQ(client.stats().connect_attempts, 2u);
        // The second connection is seated like any first one: playing within 2.5 s, no snapshot judged stale.
        EXPECT_TRUE(m.run_until_playing(Micros{2'500'000}));
        EXPECT_LE(client.stats().snapshots_stale, 2u);
        EXPECT_GT(client.stats().snapshots_received, heard);
        EXPECT_EQ(m.server->stats().connects, 2u);  // the first seat was left behind (the late accept)
    }
}

}  // namespace
