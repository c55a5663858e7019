/// Server<ArenaGame> over a MuxTransport (ENet and WebSocket on loopback) with connect tokens required: a
/// browser-style WebSocket client and a native UDP client play the same match and see each other; without a
/// token, beyond the seats, or sending garbage, a WebSocket client is refused or kicked exactly as a UDP one.
#include "integration/adversarial_client.hpp"
#include "unit/session/auth/token_fixtures.hpp"

#include <arena/arena_game.hpp>

#include <rewind/session/auth/connect_token.hpp>
#include <rewind/session/client_server/client.hpp>
#include <rewind/session/client_server/server.hpp>
#include <rewind/transport/enet_transport.hpp>
#include <rewind/transport/mux_transport.hpp>
#include <rewind/transport/websocket_transport.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace {

using namespace authtest;
using arena::ArenaGame;
namespace cs = rwd::client_server;
namespace tr = rwd::transport;

constexpr const char* kAddress = "127.0.0.1:7777";  // what the tokens name (the server's public address)

/// Session time: microseconds since the test started (the real clock, handed in).
struct Clock {
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    [[nodiscard]] Micros now() const {
        return Micros{
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start)
                .count()};
    }
};

std::vector<std::uint8_t> token(std::uint64_t client_id) {
    auth::TokenFields f = sample_fields(client_id, static_cast<std::uint8_t>(client_id));
    f.server_address = kAddress;
    f.game_id = 0x4152454Eu;
    auto t = auth::mint_token(f, backend_keys().secret_key, sealing_key());
    EXPECT_TRUE(t.ok());
    return t.ok() ? *t : std::vector<std::uint8_t>{};
}

/// The server on a mux of an ENet and a WebSocket endpoint, and the clients that join it.
struct MixedMatch {
    Clock clock;
    std::unique_ptr<tr::EnetTransport> udp;
    std::unique_ptr<tr::WebSocketTransport> web;
    std::unique_ptr<tr::MuxTransport> mux;
    std::unique_ptr<cs::Server<ArenaGame>> server;
    std::vector<std::unique_ptr<tr::Transport>> client_transports;
    std::vector<std::unique_ptr<cs::Client<ArenaGame>>> clients;

    std::uint32_t game_id = 0x4152454Eu;

    explicit MixedMatch(int seats, bool tokens = true, cs::ServerConfig sc = {}) {
        tr::EnetConfig ec;
        ec.bind_host = "127.0.0.1";
        udp = tr::EnetTransport::create(ec).value();
        tr::WebSocketConfig wc;
        wc.bind_host = "127.0.0.1";
        web = tr::WebSocketTransport::create(wc).value();
        mux = std::make_unique<tr::MuxTransport>(std::vector<tr::Transport*>{udp.get(), web.get()});
        if (!tokens) game_id = 0;  // what a raw hello names
        sc.game_id = game_id;
        sc.max_clients = seats;
        sc.max_malformed = 5;
        if (tokens) {
            auto req = requirement_for(kAddress);
            req.clock_offset = kIssued;  // session time 0 is the tokens' issue time
            sc.require_token = req;
        }
        server = std::make_unique<cs::Server<ArenaGame>>(*mux, sc, arena::new_match(7));
    }

    /// A client on a new endpoint of the kind asked for, presenting `tok` (none when empty).
    cs::Client<ArenaGame>& join(bool websocket, std::vector<std::uint8_t> tok, std::uint64_t client_id) {
        std::unique_ptr<tr::Transport> t;
        if (websocket) {
            tr::WebSocketConfig c;
            c.accept_incoming = false;
            t = tr::WebSocketTransport::create(c).value();
        } else {
            tr::EnetConfig c;
            c.bind_host = "127.0.0.1";
            c.accept_incoming = false;
            t = tr::EnetTransport::create(c).value();
        }
        cs::ClientConfig cc;
        cc.game_id = game_id;
        if (!tok.empty()) cc.session_keys = sample_keys(client_id, static_cast<std::uint8_t>(client_id));
        cc.connect_token = std::move(tok);
        cc.connect_retry_for = Micros{0};
        clients.push_back(std::make_unique<cs::Client<ArenaGame>>(*t, cc));
        client_transports.push_back(std::move(t));
        const std::uint16_t port = websocket ? web->local_address().port : udp->local_address().port;
        EXPECT_TRUE(clients.back()->connect(tr::Address{"127.0.0.1", port}, clock.now()).ok());
        return *clients.back();
    }

    /// Runs everyone in real time until `done()` or `limit`.
    bool run_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (!done()) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            const Micros now = clock.now();
            server->update(now);
            for (auto& c : clients) c->update(now);
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        return true;
    }
};

bool sees_player(cs::Client<ArenaGame>& c, int slot) {
    for (const auto& e : c.newest_snapshot_entities())
        if (e.snap.kind == arena::EntityKind::kPlayer && e.id == static_cast<std::uint32_t>(slot))
            return true;
    return false;
}

TEST(WebSocketSession, ABrowserAndANativeClientWithTokensPlayTogetherAndSeeEachOther) {
    MixedMatch m(4);
    auto& browser = m.join(true, token(11), 11);
    auto& native = m.join(false, token(12), 12);
    ASSERT_TRUE(m.run_until(
        [&] {
            return browser.phase() == cs::ClientPhase::playing && native.phase() == cs::ClientPhase::playing;
        },
        std::chrono::seconds(10)));
    ASSERT_TRUE(m.run_until(
        [&] { return sees_player(browser, native.slot()) && sees_player(native, browser.slot()); },
        std::chrono::seconds(5)));
    (void)m.run_until([] { return false; }, std::chrono::milliseconds(1000));  // a second of play
    // On loopback every snapshot the server sent the WebSocket client arrives (but those still in flight).
    const auto sent = m.server->client_stats(browser.slot()).snapshots_sent;
    EXPECT_GT(sent, 10u);
    EXPECT_GE(browser.stats().snapshots_received + 3, sent);
    EXPECT_EQ(m.server->stats().packets_rejected[static_cast<std::size_t>(auth::OpenError::forged)], 0u);
    EXPECT_EQ(m.web->counters().connections_accepted, 1u);
}

TEST(WebSocketSession, WithoutATokenOrBeyondTheSeatsAWebSocketClientIsRefusedLikeAUdpOne) {
    MixedMatch m(1);
    auto& seated = m.join(true, token(21), 21);
    ASSERT_TRUE(
        m.run_until([&] { return seated.phase() == cs::ClientPhase::playing; }, std::chrono::seconds(10)));
    auto& tokenless = m.join(true, {}, 0);
    auto& late = m.join(true, token(22), 22);
    ASSERT_TRUE(m.run_until(
        [&] {
            return tokenless.phase() == cs::ClientPhase::disconnected &&
                   late.phase() == cs::ClientPhase::disconnected;
        },
        std::chrono::seconds(10)));
    EXPECT_EQ(tokenless.stats().disconnect_code, cs::DisconnectCode::unauthorized);
    EXPECT_EQ(late.stats().disconnect_code, cs::DisconnectCode::server_full);
    EXPECT_EQ(m.server->stats().refusals[static_cast<std::size_t>(cs::DisconnectCode::unauthorized)], 1u);
    EXPECT_EQ(m.server->stats().refusals[static_cast<std::size_t>(cs::DisconnectCode::server_full)], 1u);
    EXPECT_EQ(seated.phase(), cs::ClientPhase::playing);
}

TEST(WebSocketSession, AWebSocketClientSendingGarbageInsteadOfItsHelloIsKickedAndCounted) {
    MixedMatch m(2);
    // The attacker speaks WebSocket correctly, but sends junk where its hello should be.
    tr::WebSocketConfig c;
    c.accept_incoming = false;
    auto raw = tr::WebSocketTransport::create(c).value();
    const auto peer = raw->connect(tr::Address{"127.0.0.1", m.web->local_address().port}).value();
    bool up = false, gone = false;
    std::uint64_t sent = 0;
    ASSERT_TRUE(m.run_until(
        [&] {
            raw->update(m.clock.now());
            tr::TransportEvent e;
            while (raw->poll(e)) {
                if (e.type == tr::TransportEvent::Type::connected) up = true;
                if (e.type == tr::TransportEvent::Type::disconnected) gone = true;
            }
            if (up && !gone) {
                std::vector<std::uint8_t> junk(40, static_cast<std::uint8_t>(sent++));
                (void)raw->send(peer, tr::Delivery::reliable_ordered, junk);
            }
            return gone;
        },
        std::chrono::seconds(10)));
    EXPECT_GE(m.server->stats().malformed, 5u);
    EXPECT_EQ(m.server->seated_count(), 0);
}

TEST(WebSocketSession, AnInputFloodOverWebSocketIsRateLimitedAndKickedAsCheatingAsOverUdp) {
    cs::ServerConfig sc;
    sc.abuse_window = Micros{200'000};  // five abusive windows in about a second of real time
    MixedMatch m(2, /*tokens=*/false, sc);
    auto& honest = m.join(true, {}, 0);
    tr::WebSocketConfig c;
    c.accept_incoming = false;
    auto endpoint = tr::WebSocketTransport::create(c).value();
    adversary::Attacker a(*endpoint, tr::Address{"127.0.0.1", m.web->local_address().port});
    a.connect(m.clock.now());
    ASSERT_TRUE(m.run_until(
        [&] {
            a.pump(m.clock.now());
            return a.seated() && honest.phase() == cs::ClientPhase::playing;
        },
        std::chrono::seconds(10)));
    const int slot = a.slot();
    arena::Input east;
    east.move_x = arena::kAxisMax;
    ASSERT_TRUE(m.run_until(
        [&] {
            a.pump(m.clock.now());
            for (int i = 0; i < 4; ++i) (void)a.send_inputs(m.server->tick() + 2, east, 4);  // ~4000 a second
            return a.told() != cs::DisconnectCode::none;
        },
        std::chrono::seconds(15)));
    EXPECT_EQ(a.told(), cs::DisconnectCode::cheating);
    EXPECT_EQ(m.server->stats().kicked_cheating, 1u);
    EXPECT_FALSE(m.server->seated(slot));
    EXPECT_EQ(honest.phase(), cs::ClientPhase::playing);
}

}  // namespace
