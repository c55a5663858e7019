// rewind-netdemo: two SimNetwork endpoints exchange 60 Hz unreliable traffic and reliable events under a link
// profile.
#include <rewind/transport/link_config.hpp>
#include <rewind/transport/sim_network.hpp>

#include "common/command_line.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace {

using namespace rwd;
using namespace rwd::transport;

struct Options {
    std::string profile = "checklist";
    std::optional<double> latency_ms, jitter_ms, loss_percent, correlation_ms;
    std::uint64_t seed = 1;
    double duration_s = 60.0;
};

constexpr std::int64_t kTickUs = 1'000'000 / 60;  // 60 Hz send rate
constexpr Micros kStep{1000};                     // endpoints update every virtual millisecond
constexpr int kReliableEvery = 30;                // a reliable event twice a second each way
constexpr std::size_t kSnapshotBytes = 64;
constexpr std::uint32_t kMaxTicks = 3600 * 60;  // --duration is at most an hour at 60 Hz

std::vector<std::uint8_t> encode(std::uint32_t number, Micros sent, std::size_t size) {
    std::vector<std::uint8_t> v(size, 0);
    for (int i = 0; i < 4; ++i) v[i] = static_cast<std::uint8_t>(number >> (8 * i));
    for (int i = 0; i < 8; ++i)
        v[4 + i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(sent.count) >> (8 * i));
    return v;
}

bool decode(const std::vector<std::uint8_t>& v, std::uint32_t& number, Micros& sent) {
    if (v.size() < 12) return false;  // untrusted, even here
    number = 0;
    std::uint64_t t = 0;
    for (int i = 0; i < 4; ++i) number |= static_cast<std::uint32_t>(v[i]) << (8 * i);
    for (int i = 0; i < 8; ++i) t |= static_cast<std::uint64_t>(v[4 + i]) << (8 * i);
    sent = Micros{static_cast<std::int64_t>(t)};
    return true;
}

// What one side measured about the traffic it received.
struct Receiver {
    std::vector<std::uint8_t> seen;
    std::uint32_t highest = 0;
    bool any = false;
    std::uint64_t unique = 0, copies = 0, late = 0;
    double delay_sum = 0, delay_sq = 0;
    std::uint32_t reliable_next = 0;
    bool reliable_in_order = true;
    double reliable_max_ms = 0;

    void on_message(const TransportEvent& e, Micros now) {
        std::uint32_t n = 0;
        Micros sent{};
        if (!decode(e.data, n, sent)) return;
        if (e.delivery == Delivery::reliable_ordered) {
            if (n != reliable_next) reliable_in_order = false;
            reliable_next = n + 1;
            reliable_max_ms = std::max(reliable_max_ms, (now - sent).millis());
            return;
        }
        if (n > kMaxTicks) return;  // the number sizes `seen`: never trust it beyond what a run can send
        if (n >= seen.size()) seen.resize(n + 1, 0);
        if (seen[n]++ != 0) {
            ++copies;
            return;
        }
        ++unique;
        if (any && n < highest) ++late;
        highest = any ? std::max(highest, n) : n;
        any = true;
        const double ms = (now - sent).millis();
        delay_sum += ms;
        delay_sq += ms * ms;
    }
};

int run(const Options& o) {
    auto profile = link_profile(o.profile);
    if (!profile) {
        std::fprintf(stderr, "unknown profile '%s'; known:", o.profile.c_str());
        for (auto n : link_profile_names())
            std::fprintf(stderr, " %.*s", static_cast<int>(n.size()), n.data());
        std::fprintf(stderr, "\n");
        return 2;
    }
    LinkConfig link = *profile;
    if (o.latency_ms) link.latency = Micros{std::llround(*o.latency_ms * 1000.0)};
    if (o.jitter_ms) link.jitter = Micros{std::llround(*o.jitter_ms * 1000.0)};
    if (o.correlation_ms) link.jitter_correlation = Micros{std::llround(*o.correlation_ms * 1000.0)};
    if (o.loss_percent) link.loss = *o.loss_percent / 100.0;
    SimNetworkConfig config;
    config.seed = o.seed;
    config.default_link = link;
    config.timeout = Micros{10'000'000};
    auto net = SimNetwork::create(config);
    if (!net) {
        std::fprintf(stderr, "invalid link: %.*s\n", static_cast<int>(net.error().detail.size()),
                     net.error().detail.data());
        return 2;
    }
    SimNetwork& sim = **net;
    const Address server_addr{"server", 40000}, client_addr{"client", 50000};
    Transport* server = sim.listen(server_addr, 8).value();
    Transport* client = sim.create_endpoint(client_addr).value();
    const PeerId to_server = client->connect(server_addr).value();
    PeerId to_client = kInvalidPeer;
    bool client_up = false;

    Receiver at_server, at_client;
    std::uint32_t ticks = 0, reliable_sent = 0;
    double rtt_sum = 0, jitter_sum = 0, loss_sum = 0, kbps_sum = 0;
    int stat_samples = 0;
    bool failed_connection = false;
    const Micros end = Micros::from_seconds(o.duration_s);
    Micros next_tick{}, next_sample = Micros{2'000'000};
    const Micros drain = Micros{10'000'000};  // after the traffic stops, let reliable retransmissions finish

    for (Micros now{}; now <= end + drain; now += kStep) {
        if (now >= next_tick && now <= end && client_up && to_client != kInvalidPeer) {
            (void)client->send(to_server, Delivery::unreliable, encode(ticks, now, kSnapshotBytes));
            (void)server->send(to_client, Delivery::unreliable, encode(ticks, now, kSnapshotBytes));
            if (ticks % kReliableEvery == 0) {
                (void)client->send(to_server, Delivery::reliable_ordered, encode(reliable_sent, now, 16));
                (void)server->send(to_client, Delivery::reliable_ordered, encode(reliable_sent, now, 16));
                ++reliable_sent;
            }
            ++ticks;
            next_tick += Micros{kTickUs};
        } else if (now >= next_tick) {
            next_tick = now + Micros{kTickUs};
        }
        sim.advance_to(now);
        TransportEvent e;
        while (server->poll(e)) {
            if (e.type == TransportEvent::Type::connected) to_client = e.peer;
            if (e.type == TransportEvent::Type::disconnected) failed_connection = true;
            if (e.type == TransportEvent::Type::message) at_server.on_message(e, now);
        }
        while (client->poll(e)) {
            if (e.type == TransportEvent::Type::connected) client_up = true;
            if (e.type == TransportEvent::Type::disconnected) failed_connection = true;
            if (e.type == TransportEvent::Type::message) at_client.on_message(e, now);
        }
        if (now >= next_sample && now <= end && client_up) {
            const PeerStats s = client->stats(to_server);
            rtt_sum += s.rtt.millis();
            jitter_sum += s.jitter.millis();
            loss_sum += s.loss;
            kbps_sum += s.kbps_sent;
            ++stat_samples;
            next_sample += Micros{1'000'000};
        }
    }

    const double n = std::max<double>(1.0, static_cast<double>(at_server.unique));
    const double mean = at_server.delay_sum / n;
    const double stddev = std::sqrt(std::max(0.0, at_server.delay_sq / n - mean * mean));
    const double sent_ticks = std::max<double>(1.0, ticks);
    const double samples = std::max(1, stat_samples);
    std::printf("rewind-netdemo: profile %s, seed %llu, %.0f s virtual, 60 Hz, %zu-byte snapshots each way\n",
                o.profile.c_str(), static_cast<unsigned long long>(o.seed), o.duration_s, kSnapshotBytes);
    std::printf("  %-34s %12s %12s\n", "client -> server", "configured", "measured");
    std::printf("  %-34s %12.1f %12.1f\n", "one-way delay, mean (ms)", link.latency.millis(), mean);
    std::printf("  %-34s %12.1f %12.1f\n", "one-way delay, stddev (ms)", link.jitter.millis(), stddev);
    std::printf("  %-34s %12.2f %12.2f\n", "loss (%)", link.expected_loss() * 100,
                (1.0 - static_cast<double>(at_server.unique) / sent_ticks) * 100);
    std::printf("  %-34s %12.2f %12.2f\n", "duplicated (%)", link.duplicate * 100,
                static_cast<double>(at_server.copies) / sent_ticks * 100);
    std::printf("  %-34s %12.2f %12.2f\n", "arrived after a later one (%)", link.reorder * 100,
                static_cast<double>(at_server.late) / sent_ticks * 100);
    std::printf("  %-34s %12.1f %12.1f\n", "client stats: RTT (ms)", 2 * link.latency.millis(),
                rtt_sum / samples);
    std::printf("  %-34s %12s %12.1f\n", "client stats: jitter (ms)", "-", jitter_sum / samples);
    std::printf("  %-34s %12.2f %12.2f\n", "client stats: loss (%)", link.expected_loss() * 100,
                loss_sum / samples * 100);
    std::printf("  %-34s %12s %12.1f\n", "client stats: kbps sent", "-", kbps_sum / samples);
    const bool ok_up = at_server.reliable_in_order && at_server.reliable_next == reliable_sent;
    const bool ok_down = at_client.reliable_in_order && at_client.reliable_next == reliable_sent;
    std::printf(
        "  reliable events: %u sent each way; server got %u (%s, max delay %.0f ms), client got %u (%s, max "
        "delay %.0f ms)\n",
        reliable_sent, at_server.reliable_next, at_server.reliable_in_order ? "in order" : "OUT OF ORDER",
        at_server.reliable_max_ms, at_client.reliable_next,
        at_client.reliable_in_order ? "in order" : "OUT OF ORDER", at_client.reliable_max_ms);
    std::printf(
        "  jitter: correlated over %.0f ms and never reordering on its own; RTT and loss stats are the "
        "client's\n"
        "        own estimates from acks\n",
        link.jitter_correlation.millis());
    if (failed_connection || !client_up) {
        std::printf("FAIL: the connection did not stay up\n");
        return 1;
    }
    if (!ok_up || !ok_down || reliable_sent == 0) {
        std::printf("FAIL: reliable delivery incomplete or out of order\n");
        return 1;
    }
    std::printf("OK: reliable delivery complete and in order\n");
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "rewind-netdemo: the simulated network under a link profile, measured against its configuration"};
    Options o;
    std::string names;
    for (auto n : link_profile_names()) names += (names.empty() ? "" : ", ") + std::string(n);
    app.add_option("--profile", o.profile, "link profile, per direction: " + names)->capture_default_str();
    app.add_option("--latency", o.latency_ms, "override one-way latency (ms)")
        ->check(CLI::Range(0.0, 10000.0));
    app.add_option("--jitter", o.jitter_ms, "override jitter, stddev of one-way delay (ms)")
        ->check(CLI::Range(0.0, 10000.0));
    app.add_option("--jitter-correlation", o.correlation_ms,
                   "override jitter time constant (ms, 0 = independent)")
        ->check(CLI::Range(0.0, 100000.0));
    app.add_option("--loss", o.loss_percent, "override random loss (percent, 0-100)")
        ->check(CLI::Range(0.0, 100.0));
    app.add_option("--seed", o.seed, "random seed; the same seed replays the same run")
        ->capture_default_str();
    app.add_option("--duration", o.duration_s, "virtual seconds of traffic")
        ->check(CLI::Range(0.1, 3600.0))
        ->capture_default_str();
    if (auto code = apps::parse_command_line(app, argc, argv, "rewind-netdemo")) return *code;
    return run(o);
}
