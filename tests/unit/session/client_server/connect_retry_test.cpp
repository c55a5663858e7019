/// The client's connection retries: an attempt that times out or loses its transport connection before the
/// accept is tried again after a growing backoff, for ClientConfig::connect_retry_for at most; 0 means one
/// attempt; a refusal is final.
#include "toy_harness.hpp"

#include <rewind/session/client_server/client.hpp>

#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <vector>

namespace {

using namespace toy;
using rwd::Micros;
namespace cs = rwd::client_server;
namespace tr = rwd::transport;

/// A transport whose server answers only from attempt `answer_on` on (0: never); earlier attempts are
/// silent, or end with `early_end` when that is set.
class FlakyTransport final : public tr::Transport {
public:
    int answer_on = 0;
    std::optional<tr::DisconnectReason> early_end;
    std::vector<Micros> attempts;  // when each connect() came
    int disconnects = 0;
    Micros now{};

    rwd::Result<tr::PeerId> connect(const tr::Address&) override {
        attempts.push_back(now);
        const auto id = static_cast<tr::PeerId>(attempts.size());
        if (answer_on > 0 && static_cast<int>(attempts.size()) >= answer_on) {
            inbox.push_back(tr::TransportEvent{tr::TransportEvent::Type::connected, id, {}, {}, {}});
            std::vector<std::uint8_t> bytes;
            cs::ConnectAccept ok{0, rwd::Tick{1000}, 60, 30, 2};
            (void)cs::encode_message(ok, bytes);
            tr::TransportEvent accept{
                tr::TransportEvent::Type::message, id, tr::Delivery::reliable_ordered, {}, {}};
            accept.data = std::move(bytes);
            inbox.push_back(std::move(accept));
        } else if (early_end) {
            tr::TransportEvent gone{tr::TransportEvent::Type::disconnected, id, {}, {}, {}};
            gone.reason = *early_end;
            inbox.push_back(std::move(gone));
        }
        return id;
    }
    void disconnect(tr::PeerId, tr::DisconnectReason) override { ++disconnects; }
    rwd::Status send(tr::PeerId, tr::Delivery, std::span<const std::uint8_t>) override { return {}; }
    void update(Micros t) override { now = t; }
    bool poll(tr::TransportEvent& out) override {
        if (inbox.empty()) return false;
        out = std::move(inbox.front());
        inbox.pop_front();
        return true;
    }
    tr::PeerStats stats(tr::PeerId) const override { return {}; }
    std::size_t max_message_size() const override { return 1200; }
    std::size_t header_bytes() const override { return 0; }

private:
    std::deque<tr::TransportEvent> inbox;
};

cs::ClientConfig config(Micros retry_for) {
    cs::ClientConfig c;
    c.connect_timeout = Micros{1'000'000};
    c.connect_retry_for = retry_for;
    return c;
}

/// Connects and updates every 10 ms until the client leaves `connecting` or `limit` passes.
void run(cs::Client<ToyGame>& client, FlakyTransport& t, Micros limit) {
    Micros now{5'000'000};
    t.now = now;
    ASSERT_TRUE(client.connect({"server", 1}, now).ok());
    const Micros end = now + limit;
    while (client.phase() == cs::ClientPhase::connecting && now < end) {
        now += Micros{10'000};
        client.update(now);
    }
}

TEST(ConnectRetry, AnUnansweredAttemptIsRetriedWithAGrowingBackoff) {
    FlakyTransport t;
    t.answer_on = 3;
    cs::Client<ToyGame> client{t, config(Micros{20'000'000})};
    run(client, t, Micros{30'000'000});
    EXPECT_EQ(client.phase(), cs::ClientPhase::syncing);  // accepted on the third attempt
    ASSERT_EQ(t.attempts.size(), 3u);
    EXPECT_EQ(client.stats().connect_attempts, 3u);
    // Each gap is the 1 s attempt plus the backoff: 250 ms, then 500 ms (to the 10 ms update grid).
    EXPECT_NEAR(static_cast<double>((t.attempts[1] - t.attempts[0]).count), 1'260'000.0, 20'000.0);
    EXPECT_NEAR(static_cast<double>((t.attempts[2] - t.attempts[1]).count), 1'510'000.0, 20'000.0);
    EXPECT_EQ(t.disconnects, 2);  // each abandoned attempt is closed
}

TEST(ConnectRetry, RetriesStopWhenTheRetryTimeIsSpent) {
    FlakyTransport t;  // never answers
    cs::Client<ToyGame> client{t, config(Micros{5'000'000})};
    run(client, t, Micros{30'000'000});
    EXPECT_EQ(client.phase(), cs::ClientPhase::disconnected);
    EXPECT_EQ(client.stats().disconnect_code, cs::DisconnectCode::timed_out);
    // Attempts at 0, 1.25, 2.75, 4.75 s; the next would start after 5 s + 1 s: it is not made.
    EXPECT_EQ(t.attempts.size(), 4u);
    EXPECT_LE((t.now - t.attempts.front()).count, 7'000'000);
}

TEST(ConnectRetry, ZeroMeansOneAttempt) {
    FlakyTransport t;
    cs::Client<ToyGame> client{t, config(Micros{0})};
    run(client, t, Micros{30'000'000});
    EXPECT_EQ(client.stats().disconnect_code, cs::DisconnectCode::timed_out);
    EXPECT_EQ(t.attempts.size(), 1u);
    EXPECT_NEAR(static_cast<double>((t.now - t.attempts.front()).count), 1'010'000.0, 20'000.0);
}

TEST(ConnectRetry, ALostConnectionBeforeTheAcceptIsRetried) {
    FlakyTransport t;
    t.answer_on = 2;
    t.early_end = tr::DisconnectReason::timed_out;  // the first attempt's transport gives up on its own
    cs::Client<ToyGame> client{t, config(Micros{20'000'000})};
    run(client, t, Micros{30'000'000});
    EXPECT_EQ(client.phase(), cs::ClientPhase::syncing);
    EXPECT_EQ(t.attempts.size(), 2u);
}

TEST(ConnectRetry, ARefusalIsFinal) {
    FlakyTransport t;
    t.early_end = tr::DisconnectReason::refused;  // full, or another protocol: an answer, not silence
    cs::Client<ToyGame> client{t, config(Micros{20'000'000})};
    run(client, t, Micros{30'000'000});
    EXPECT_EQ(client.phase(), cs::ClientPhase::disconnected);
    EXPECT_EQ(client.stats().disconnect_code, cs::DisconnectCode::transport);
    EXPECT_EQ(t.attempts.size(), 1u);
}

TEST(ConnectRetry, TheAcceptIsAwaitedForTheTimeoutFromTheHelloNotFromTheAttemptsStart) {
    // 450 ms each way: the transport connects after ~0.9 s and the accept to the hello takes another ~0.9 s,
    // more than the 1 s timeout counted from the attempt's start. Counted from the hello it arrives in time:
    // one attempt, one seat. (Counted from the start, every attempt was given up with its accept in flight,
    // and the server seated each one only to lose it again.)
    Match<> m(41, link(450, 0));
    m.client_config.connect_timeout = Micros{1'000'000};
    m.client_config.connect_retry_for = Micros{20'000'000};
    m.connect_client();
    ASSERT_TRUE(m.run_until_playing(Micros{15'000'000}));
    EXPECT_EQ(m.client(0).stats().connect_attempts, 1u);
    EXPECT_EQ(m.server->stats().connects, 1u);
    EXPECT_EQ(m.server->stats().disconnects, 0u);
}

TEST(ConnectRetry, TheRetryTimeIsValidated) {
    EXPECT_TRUE(config(Micros{0}).validate().ok());
    EXPECT_FALSE(config(Micros{-1}).validate().ok());
    EXPECT_FALSE(config(Micros{600'000'001}).validate().ok());
}

}  // namespace
