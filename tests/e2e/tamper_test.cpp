// End to end: an attacker in the middle of a token-authorized match (an ENet endpoint toward the client and
// another toward the server, forwarding every message) also sends bit-flipped copies, replays and forged
// packets both ways; the real server and client drop and count every one before decoding, and the honest
// player plays on as on a clean link.
#include "e2e_common.hpp"

#include <rewind/core/rng.hpp>
#include <rewind/transport/enet_transport.hpp>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <deque>
#include <thread>

namespace e2e {
namespace {

namespace tr = rwd::transport;

/// What the attacker added in one direction.
struct Injected {
    std::uint64_t flipped = 0, replayed = 0, forged = 0;
    [[nodiscard]] std::uint64_t total() const { return flipped + replayed + forged; }
};

/// One direction's tampering: after each genuine message it forwards, now and then a copy with one bit
/// flipped, a copy of an older message, or random bytes, on the same delivery.
class Tamperer {
public:
    explicit Tamperer(std::uint64_t seed) : rng_(seed) {}

    void forward(tr::Transport& to, tr::PeerId peer, tr::Delivery d, const std::vector<std::uint8_t>& msg,
                 bool tamper) {
        (void)to.send(peer, d, msg);
        auto& history = d == tr::Delivery::reliable_ordered ? reliable_ : unreliable_;
        history.push_back(msg);
        if (history.size() > 40) history.pop_front();
        if (!tamper) return;
        const std::uint64_t n = ++count_[d == tr::Delivery::reliable_ordered ? 1 : 0];
        if (n % 5 == 0 && !msg.empty()) {
            auto bad = msg;
            bad[rng_.next_u32() % bad.size()] ^= static_cast<std::uint8_t>(1u << (rng_.next_u32() % 8));
            if (to.send(peer, d, bad).ok()) ++injected.flipped;
        }
        if (n % 7 == 0 && history.size() > 1) {
            const auto& old = history[rng_.next_u32() % (history.size() - 1)];
            if (to.send(peer, d, old).ok()) ++injected.replayed;
        }
        if (n % 11 == 0) {
            std::vector<std::uint8_t> junk(1 + rng_.next_u32() % 120);
            for (auto& b : junk) b = static_cast<std::uint8_t>(rng_.next_u32());
            if (to.send(peer, d, junk).ok()) ++injected.forged;
        }
    }

    Injected injected;

private:
    rwd::Rng rng_;
    std::uint64_t count_[2] = {0, 0};
    std::deque<std::vector<std::uint8_t>> unreliable_, reliable_;
};

/// The attacker: one client in, one connection to the server out, tampering both ways while `active`.
class ManInTheMiddle {
public:
    ManInTheMiddle(int server_port, std::uint64_t seed) : up_tamper_(seed), down_tamper_(seed + 1) {
        tr::EnetConfig in;
        in.bind_host = "127.0.0.1";
        auto a = tr::EnetTransport::create(in);
        tr::EnetConfig out;
        out.bind_host = "127.0.0.1";
        out.accept_incoming = false;
        auto b = tr::EnetTransport::create(out);
        if (!a.ok() || !b.ok()) return;
        client_side_ = std::move(a.value());
        server_side_ = std::move(b.value());
        server_port_ = server_port;
        thread_ = std::thread([this] { run(); });
    }
    ~ManInTheMiddle() { stop(); }
    /// Stops the forwarding thread and waits for it (after this the counters are safe to read).
    void stop() {
        stop_ = true;
        if (thread_.joinable()) thread_.join();
    }
    [[nodiscard]] int port() const { return client_side_ ? client_side_->local_address().port : 0; }

    std::atomic<bool> active{false};  ///< tamper now (else forward only)
    std::atomic<bool> stop_{false};
    Tamperer up_tamper_, down_tamper_;  // read after the thread stopped

private:
    void run() {
        const auto start = std::chrono::steady_clock::now();
        tr::PeerId client = tr::kInvalidPeer, server = tr::kInvalidPeer;
        bool server_up = false, accepted = false;
        std::vector<tr::TransportEvent> held;  // the client's messages until the server side is connected
        while (!stop_) {
            const rwd::Micros now{std::chrono::duration_cast<std::chrono::microseconds>(
                                      std::chrono::steady_clock::now() - start)
                                      .count()};
            client_side_->update(now);
            server_side_->update(now);
            for (tr::TransportEvent ev; client_side_->poll(ev);) {
                if (ev.type == tr::TransportEvent::Type::connected && client == tr::kInvalidPeer) {
                    client = ev.peer;
                    auto s = server_side_->connect(
                        tr::Address{"127.0.0.1", static_cast<std::uint16_t>(server_port_)});
                    if (s.ok()) server = s.value();
                } else if (ev.type == tr::TransportEvent::Type::message && ev.peer == client) {
                    if (!server_up)
                        held.push_back(std::move(ev));
                    else  // the client's messages are tampered with only once the server seated it
                        up_tamper_.forward(*server_side_, server, ev.delivery, ev.data, active && accepted);
                }
            }
            for (tr::TransportEvent ev; server_side_->poll(ev);) {
                if (ev.type == tr::TransportEvent::Type::connected && ev.peer == server) {
                    server_up = true;
                    for (auto& h : held) up_tamper_.forward(*server_side_, server, h.delivery, h.data, false);
                    held.clear();
                } else if (ev.type == tr::TransportEvent::Type::message && ev.peer == server) {
                    accepted = true;
                    down_tamper_.forward(*client_side_, client, ev.delivery, ev.data, active.load());
                }
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
    }

    std::unique_ptr<tr::EnetTransport> client_side_, server_side_;
    int server_port_ = 0;
    std::thread thread_;
};

std::uint64_t report_u64(const nlohmann::json& r, const char* key) {
    return r.contains(key) ? r[key].get<std::uint64_t>() : ~std::uint64_t{0};
}

TEST(E2E, ForgedReplayedAndAlteredPacketsAreDroppedAndCountedAndThePlayerPlaysOn) {
    const std::string dir = test_dir("tamper");
    const std::uint64_t seed = 4242;
    SCOPED_TRACE("seed=" + std::to_string(seed) + " logs in " + dir);
    // The backend's keys, a server that requires tokens, and one player's credentials.
    Process keygen({kTokenBin, "keygen", "--secret-key", dir + "/backend.secret", "--public-key",
                    dir + "/backend.public", "--sealing-key", dir + "/servers.sealing", "--force"},
                   dir + "/keygen.log");
    ASSERT_EQ(keygen.wait(10s).value_or(-1), 0) << keygen.log();
    auto server = start_server(dir, {"--public-key", dir + "/backend.public", "--sealing-key",
                                     dir + "/servers.sealing", "--status-interval", "0"});
    ASSERT_GT(server.port, 0);
    const auto listening = server.proc->wait_for_line("event=listening", 0s);
    ASSERT_TRUE(listening);
    EXPECT_NE(listening->find("encryption=chacha20poly1305"), std::string::npos) << *listening;
    Process mint(
        {kTokenBin, "mint", "--secret-key", dir + "/backend.secret", "--sealing-key",
         dir + "/servers.sealing", "--client-id", "7", "--server", "127.0.0.1:" + std::to_string(server.port),
         "--expires-in", "60s", "--out", dir + "/client.credentials"},
        dir + "/mint.log");
    ASSERT_EQ(mint.wait(10s).value_or(-1), 0) << mint.log();

    ManInTheMiddle mitm(server.port, seed);
    ASSERT_GT(mitm.port(), 0);
    Process client(
        {kClientBin, "--headless", "--bot", "--connect", "127.0.0.1:" + std::to_string(mitm.port()),
         "--token", "@" + dir + "/client.credentials", "--duration", "12", "--seed", "5"},
        dir + "/client.log");
    ASSERT_TRUE(client.wait_for_line("event=playing", 10s)) << client.log();
    mitm.active = true;
    std::this_thread::sleep_for(8s);
    mitm.active = false;  // the last injections settle before the player leaves
    const auto code = client.wait(30s);
    ASSERT_TRUE(code);
    EXPECT_EQ(*code, 0) << client.log();
    server.proc->signal(SIGTERM);
    const auto server_code = server.proc->wait(10s);
    ASSERT_TRUE(server_code);
    EXPECT_EQ(*server_code, 0);
    mitm.stop();
    const Injected up = mitm.up_tamper_.injected, down = mitm.down_tamper_.injected;

    const auto r = final_report(client);
    ASSERT_TRUE(r.is_object());
    const auto bye = server.proc->wait_for_line("event=exit", 0s);
    ASSERT_TRUE(bye) << server.proc->log();
    const auto server_rejected =
        kv_int(*bye, "rejected_forged").value_or(0) + kv_int(*bye, "rejected_replayed").value_or(0) +
        kv_int(*bye, "rejected_truncated").value_or(0) + kv_int(*bye, "rejected_stale").value_or(0);
    const std::uint64_t client_rejected =
        report_u64(r, "rejected_forged") + report_u64(r, "rejected_replayed") +
        report_u64(r, "rejected_truncated") + report_u64(r, "rejected_stale");
    std::printf(
        "[ measured ] injected toward the server: %llu flipped, %llu replayed, %llu forged; server refused "
        "%lld (%s)\n[ measured ] injected toward the client: %llu flipped, %llu replayed, %llu forged; "
        "client "
        "refused %llu (forged %llu, replayed %llu, truncated %llu, stale %llu)\n",
        static_cast<unsigned long long>(up.flipped), static_cast<unsigned long long>(up.replayed),
        static_cast<unsigned long long>(up.forged), static_cast<long long>(server_rejected), bye->c_str(),
        static_cast<unsigned long long>(down.flipped), static_cast<unsigned long long>(down.replayed),
        static_cast<unsigned long long>(down.forged), static_cast<unsigned long long>(client_rejected),
        static_cast<unsigned long long>(report_u64(r, "rejected_forged")),
        static_cast<unsigned long long>(report_u64(r, "rejected_replayed")),
        static_cast<unsigned long long>(report_u64(r, "rejected_truncated")),
        static_cast<unsigned long long>(report_u64(r, "rejected_stale")));
    EXPECT_TRUE(r["encrypted"].get<bool>());
    // Enough of an attack to mean something, and every injected packet refused: ENet delivers each once, so
    // the counts match exactly (nothing injected was lost on loopback, none slipped through).
    // (About 0.43 injections per genuine message: some 200 toward the server over 8 s of 60 Hz inputs, some
    // 100 toward the client over 30 Hz snapshots and the events.)
    EXPECT_GT(up.total(), 150u);
    EXPECT_GT(down.total(), 75u);
    EXPECT_GT(up.flipped, 0u);
    EXPECT_GT(up.replayed, 0u);
    EXPECT_EQ(static_cast<std::uint64_t>(server_rejected), up.total());
    EXPECT_EQ(client_rejected, down.total());
    // Nothing reached a decoder, nobody was kicked, and the player played as on a clean link.
    EXPECT_EQ(kv_int(*bye, "malformed").value_or(-1), 0);
    EXPECT_EQ(kv_int(*bye, "kicked_garbage").value_or(-1), 0);
    EXPECT_EQ(kv_int(*bye, "kicked_cheating").value_or(-1), 0);
    EXPECT_EQ(kv_int(*bye, "connects").value_or(-1), 1);
    EXPECT_EQ(r["malformed"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(r["events_out_of_order"].get<std::uint64_t>(), 0u);
    EXPECT_EQ(r["disconnect"].get<std::string>(), "client_quit");
    const double played = r["played_s"].get<double>();
    EXPECT_GT(played, 10.0);
    EXPECT_GE(static_cast<double>(r["snapshots_received"].get<std::uint64_t>()), 0.8 * 30.0 * played);
    EXPECT_EQ(r["corrections"].get<std::uint64_t>(), 0u) << "alone on a clean link, prediction must be exact";
}

}  // namespace
}  // namespace e2e
