/// A token match over SimNetwork with an attacker on the client's connection: bit-flipped copies, replays and
/// forged packets both ways (and a clear goodbye after the accept) are refused and counted exactly, nothing
/// reaches a decoder, no one is kicked, and the match plays out exactly as the same seed does without the
/// attacker.
#include "token_fixtures.hpp"
#include "unit/session/client_server/toy_harness.hpp"

#include <rewind/core/rng.hpp>

#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <optional>

using namespace authtest;
namespace cs = rwd::client_server;
namespace tr = rwd::transport;

namespace {

constexpr const char* kSimServer = "server:1";

/// The attacker: wraps the client's endpoint; after each genuine message (either way) it sometimes adds a
/// copy with one bit flipped, an older message again, or random bytes, on the same delivery.
class TamperingTransport final : public tr::Transport {
public:
    TamperingTransport(tr::Transport& inner, std::uint64_t seed) : inner_(inner), rng_(seed) {}

    rwd::Result<tr::PeerId> connect(const tr::Address& to) override { return inner_.connect(to); }
    void disconnect(tr::PeerId peer, tr::DisconnectReason r) override { inner_.disconnect(peer, r); }
    rwd::Status send(tr::PeerId peer, tr::Delivery d, std::span<const std::uint8_t> data) override {
        const rwd::Status s = inner_.send(peer, d, data);
        std::vector<std::uint8_t> copy(data.begin(), data.end());
        for (auto& extra : attack(copy, d, sent_, up_))
            if (inner_.send(peer, d, extra).ok()) ++injected_up;
        return s;
    }
    void update(Micros now) override { inner_.update(now); }
    bool poll(tr::TransportEvent& out) override {
        if (!pending_.empty()) {
            out = std::move(pending_.front());
            pending_.pop_front();
            return true;
        }
        if (!inner_.poll(out)) return false;
        if (out.type == tr::TransportEvent::Type::connected) {
            server_peer = out.peer;
            if (early_goodbye) {  // a clear goodbye "from the server" before it could even accept
                cs::Disconnect d{*early_goodbye};
                std::vector<std::uint8_t> bytes;
                EXPECT_TRUE(cs::encode_message(d, bytes).ok());
                pending_.push_back(tr::TransportEvent{
                    tr::TransportEvent::Type::message, out.peer, tr::Delivery::reliable_ordered, {}, bytes});
            }
        }
        if (out.type == tr::TransportEvent::Type::message)
            for (auto& extra : attack(out.data, out.delivery, received_, down_)) {
                pending_.push_back(
                    tr::TransportEvent{out.type, out.peer, out.delivery, {}, std::move(extra)});
                ++injected_down;
            }
        return true;
    }
    tr::PeerStats stats(tr::PeerId peer) const override { return inner_.stats(peer); }
    std::size_t max_message_size() const override { return inner_.max_message_size(); }
    std::size_t header_bytes() const override { return inner_.header_bytes(); }

    /// Hands the client a clear goodbye from "the server" on both lanes, as a refusal before the accept would
    /// be (after the accept it must be refused like any packet that does not open).
    void inject_clear_disconnect(tr::PeerId server) {
        cs::Disconnect d{cs::DisconnectCode::unauthorized};
        std::vector<std::uint8_t> bytes;
        EXPECT_TRUE(cs::encode_message(d, bytes).ok());
        for (auto lane : {tr::Delivery::reliable_ordered, tr::Delivery::unreliable}) {
            pending_.push_back(
                tr::TransportEvent{tr::TransportEvent::Type::message, server, lane, {}, bytes});
            ++injected_down;
        }
    }

    bool active = false;
    std::optional<cs::DisconnectCode> early_goodbye;  // set: injected right after the transport connects
    tr::PeerId server_peer = tr::kInvalidPeer;        // the server as the client's endpoint knows it
    std::uint64_t injected_up = 0, injected_down = 0;

private:
    std::vector<std::vector<std::uint8_t>> attack(const std::vector<std::uint8_t>& msg, tr::Delivery d,
                                                  std::deque<std::vector<std::uint8_t>>& history,
                                                  std::uint64_t& count) {
        std::vector<std::vector<std::uint8_t>> out;
        if (active) {
            ++count;
            if (count % 3 == 0 && !msg.empty()) {
                auto bad = msg;
                bad[rng_.next_u32() % bad.size()] ^= static_cast<std::uint8_t>(1u << (rng_.next_u32() % 8));
                out.push_back(std::move(bad));
            }
            if (count % 4 == 0 && !history.empty()) out.push_back(history[rng_.next_u32() % history.size()]);
            if (count % 8 == 6 && !history.empty()) out.push_back(history.front());  // the oldest kept
            if (count % 5 == 0) {
                std::vector<std::uint8_t> junk(rng_.next_u32() % 90);
                for (auto& b : junk) b = static_cast<std::uint8_t>(rng_.next_u32());
                out.push_back(std::move(junk));
            }
        }
        if (d == tr::Delivery::unreliable) {
            history.push_back(msg);
            if (history.size() > 300) history.pop_front();  // some beyond the replay window: stale
        }
        return out;
    }

    tr::Transport& inner_;
    rwd::Rng rng_;
    std::deque<std::vector<std::uint8_t>> sent_, received_;
    std::uint64_t up_ = 0, down_ = 0;
    std::deque<tr::TransportEvent> pending_;
};

/// The server of these matches: tokens required.
cs::ServerConfig token_server_config() {
    cs::ServerConfig sc;
    sc.game_id = kGameId;
    sc.require_token = requirement_for(kSimServer);
    return sc;
}

/// Its one client: a valid token and its keys.
cs::ClientConfig token_client_config() {
    auth::TokenFields f = sample_fields();
    f.server_address = kSimServer;
    cs::ClientConfig cc;
    cc.game_id = kGameId;
    cc.connect_token = auth::mint_token(f, backend_keys().secret_key, sealing_key()).value();
    cc.session_keys = f.keys;
    return cc;
}

struct Outcome {
    std::uint64_t server_checksum = 0, client_checksum = 0;
    cs::ServerStats server;
    cs::ClientStats client;
    std::uint64_t injected_up = 0, injected_down = 0;
};

/// A 12 s token match of one moving, firing client on a 40 ms link, attacked (or not) from 1 s to 11 s.
Outcome play(std::uint64_t seed, bool attacked) {
    tr::SimNetworkConfig nc;
    nc.seed = seed;
    nc.default_link.latency = Micros{40'000};
    tr::SimNetwork net(nc);
    tr::Address server_addr{"server", 1};
    auto* server_ep = net.listen(server_addr, 8).value();
    const cs::ServerConfig sc = token_server_config();
    cs::Server<toy::ToyGame> server(*server_ep, sc, toy::ToyGame::State{});
    const cs::ClientConfig cc = token_client_config();
    TamperingTransport attacker(*net.create_endpoint(tr::Address{"client", 100}).value(), seed + 1);
    cs::Client<toy::ToyGame> client(attacker, cc);
    Micros now{1'000'000};
    EXPECT_TRUE(client.connect(server_addr, now).ok());
    for (int frame = 0; frame < 12'000; ++frame) {
        now += Micros{1000};
        attacker.active = attacked && frame >= 1000 && frame < 11'000;
        if (attacked && frame == 6000) attacker.inject_clear_disconnect(attacker.server_peer);
        client.set_input(toy::move(frame % 2000 < 1000 ? 60 : -40, 30, frame % 300 < 10));
        server.update(now);
        client.update(now);
    }
    return Outcome{toy::ToyGame::checksum(server.state()),
                   toy::ToyGame::checksum(client.predicted_state()),
                   server.stats(),
                   client.stats(),
                   attacker.injected_up,
                   attacker.injected_down};
}

/// A token client whose connection first gets a clear goodbye with `code`: its phase after 3 s, and its
/// stats.
std::pair<cs::ClientPhase, cs::ClientStats> early_goodbye(cs::DisconnectCode code) {
    tr::SimNetworkConfig nc;
    nc.seed = 6062;
    tr::SimNetwork net(nc);
    tr::Address server_addr{"server", 1};
    const cs::ServerConfig sc = token_server_config();
    cs::Server<toy::ToyGame> server(*net.listen(server_addr, 8).value(), sc, toy::ToyGame::State{});
    const cs::ClientConfig cc = token_client_config();
    TamperingTransport attacker(*net.create_endpoint(tr::Address{"client", 100}).value(), 1);
    attacker.early_goodbye = code;
    cs::Client<toy::ToyGame> client(attacker, cc);
    Micros now{1'000'000};
    EXPECT_TRUE(client.connect(server_addr, now).ok());
    for (int frame = 0; frame < 3000; ++frame) {
        now += Micros{1000};
        server.update(now);
        client.update(now);
    }
    return {client.phase(), client.stats()};
}

std::uint64_t sum(const std::array<std::uint64_t, auth::kOpenErrorCount>& a) {
    std::uint64_t n = 0;
    for (auto v : a) n += v;
    return n;
}

}  // namespace

TEST(SealedSession, BeforeTheAcceptOnlyARefusalIsTakenInTheClear) {
    SCOPED_TRACE("seed=6062");
    // A goodbye a server never sends before its accept (cheating is a kick of a seated client): refused.
    const auto [phase, st] = early_goodbye(cs::DisconnectCode::cheating);
    EXPECT_EQ(phase, cs::ClientPhase::playing);
    EXPECT_EQ(st.packets_rejected[static_cast<std::size_t>(auth::OpenError::forged)], 1u);
    // A refusal in the clear is the server's answer to the hello: taken (an attacker on the path can send
    // one, as it could drop the hello).
    const auto [refused_phase, refused] = early_goodbye(cs::DisconnectCode::unauthorized);
    EXPECT_EQ(refused_phase, cs::ClientPhase::disconnected);
    EXPECT_EQ(refused.disconnect_code, cs::DisconnectCode::unauthorized);
}

TEST(SealedSession, AnAttackerOnTheConnectionChangesNothingButTheCounters) {
    const std::uint64_t seed = 6061;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    const Outcome clean = play(seed, false);
    const Outcome attacked = play(seed, true);
    EXPECT_EQ(clean.injected_up + clean.injected_down, 0u);
    EXPECT_GT(attacked.injected_up, 400u);    // 60 inputs a second
    EXPECT_GT(attacked.injected_down, 200u);  // 30 snapshots a second and the events
    // Every injected packet refused, by the side it was aimed at, before decoding.
    EXPECT_EQ(sum(attacked.server.packets_rejected), attacked.injected_up);
    EXPECT_EQ(sum(attacked.client.packets_rejected), attacked.injected_down);
    for (auto e : {auth::OpenError::forged, auth::OpenError::replayed, auth::OpenError::truncated,
                   auth::OpenError::stale}) {
        EXPECT_GT(attacked.server.packets_rejected[static_cast<std::size_t>(e)], 0u)
            << auth::open_error_name(e);
        EXPECT_GT(attacked.client.packets_rejected[static_cast<std::size_t>(e)], 0u)
            << auth::open_error_name(e);
    }
    EXPECT_EQ(attacked.server.malformed, 0u);
    EXPECT_EQ(attacked.server.unexpected, 0u);
    EXPECT_EQ(attacked.client.malformed, 0u);
    EXPECT_EQ(attacked.server.kicked_garbage + attacked.server.kicked_cheating, 0u);
    EXPECT_EQ(attacked.server.connects, 1u);
    EXPECT_EQ(sum(clean.server.packets_rejected) + sum(clean.client.packets_rejected), 0u);
    // The match itself is the clean one, tick for tick.
    EXPECT_EQ(attacked.server.tick, clean.server.tick);
    EXPECT_EQ(attacked.server_checksum, clean.server_checksum);
    EXPECT_EQ(attacked.client_checksum, clean.client_checksum);
    EXPECT_EQ(attacked.client.corrections, clean.client.corrections);
}
