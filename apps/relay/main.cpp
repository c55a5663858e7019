// rewind-relay: a UDP proxy between game clients and a server that impairs each direction like the lab's
// links.
#include "relay/link_args.hpp"
#include "relay/relay.hpp"

#include <rewind/transport/link_config.hpp>

#include "common/app_support.hpp"
#include "common/command_line.hpp"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace {

std::string link_text(const rwd::transport::LinkConfig& c) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1fms/%.1fms/%.2f%%", c.latency.millis(), c.jitter.millis(),
                  c.expected_loss() * 100.0);
    return buf;
}

// Adds --<prefix>latency, --<prefix>jitter, ... bound to `a`; prefix is "", "up-" or "down-".
void add_link_options(CLI::App& app, relay::LinkArgs& a, const std::string& prefix, const std::string& what) {
    const std::string group =
        prefix.empty() ? "Impairments (both directions)" : "Impairments (" + what + " only)";
    std::vector<std::string> profiles;
    for (auto name : rwd::transport::link_profile_names()) profiles.emplace_back(name);
    const CLI::Validator delay = apps::number_in(0.0, 60'000.0, "ms"),
                         percent = apps::number_in(0.0, 100.0, "%");
    app.add_option("--" + prefix + "profile", a.profile, "Named link profile as the base, " + what)
        ->check(CLI::IsMember(profiles))
        ->group(group);
    app.add_option("--" + prefix + "latency", a.latency_ms, "Mean one-way delay in ms, " + what)
        ->check(delay)
        ->group(group);
    app.add_option("--" + prefix + "jitter", a.jitter_ms, "Delay standard deviation in ms, " + what)
        ->check(delay)
        ->group(group);
    app.add_option("--" + prefix + "loss", a.loss_pct, "Random loss in percent, " + what)
        ->check(percent)
        ->group(group);
    app.add_option("--" + prefix + "burst", a.burst_pct,
                   "Chance per packet of starting a loss burst, percent, " + what)
        ->check(percent)
        ->group(group);
    app.add_option("--" + prefix + "burst-len", a.burst_len, "Mean loss-burst length in packets, " + what)
        ->check(apps::number_in(1.0, 1'000'000.0, "packets"))
        ->group(group);
    app.add_option("--" + prefix + "dup", a.dup_pct, "Duplication in percent, " + what)
        ->check(percent)
        ->group(group);
    app.add_option("--" + prefix + "reorder", a.reorder_pct, "Reordering in percent, " + what)
        ->check(percent)
        ->group(group);
    app.add_option("--" + prefix + "reorder-delay", a.reorder_delay_ms,
                   "Extra delay of a reordered packet, ms, " + what)
        ->check(delay)
        ->group(group);
    app.add_option("--" + prefix + "bandwidth", a.bandwidth_kbps,
                   "Bottleneck in kbit/s (0 = unlimited), " + what)
        ->group(group);
}

std::string profile_list() {
    std::string out;
    for (auto name : rwd::transport::link_profile_names())
        out += (out.empty() ? "" : ", ") + std::string(name);
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "rewind-relay: forwards UDP between clients and a server through a seeded link conditioner per "
        "direction and per client. Profiles: " +
        profile_list() +
        ". Each direction starts from its "
        "--up-/--down-profile, else --profile, else a perfect link; then the shared knobs apply, then the "
        "--up-*/--down-* ones."};
    relay::RelayConfig config;
    std::string server;
    double duration_s = 0.0;
    double stats_every_s = 1.0;
    double idle_s = 30.0;
    relay::LinkArgs common;
    relay::LinkArgs up;
    relay::LinkArgs down;
    app.add_option("--listen", config.listen_port, "UDP port clients send to (0 = pick one and print it)")
        ->required();
    app.add_option("--listen-host", config.listen_host, "Local IPv4 address to listen on")
        ->capture_default_str();
    app.add_option("--server", server, "The server as HOST:PORT")->required();
    app.add_option("--seed", config.seed, "Seed of every conditioner (printed; the same seed repeats a run)")
        ->capture_default_str();
    app.add_option("--duration", duration_s, "Exit after this many seconds (0 = run until SIGINT/SIGTERM)")
        ->capture_default_str();
    app.add_option("--stats-interval", stats_every_s, "Seconds between status lines (0 = none)")
        ->capture_default_str();
    app.add_option("--idle-timeout", idle_s, "Seconds of silence after which a client mapping is closed")
        ->capture_default_str();
    app.add_option("--max-clients", config.max_clients, "Client addresses mapped at once")
        ->capture_default_str();
    add_link_options(app, common, "", "both directions");
    add_link_options(app, up, "up-", "client to server");
    add_link_options(app, down, "down-", "server to client");
    if (auto code = apps::parse_command_line(app, argc, argv, "rewind-relay")) return *code;

    const auto colon = server.rfind(':');
    if (colon == std::string::npos || colon == 0) {
        std::fprintf(stderr, "rewind-relay: --server must be HOST:PORT, got '%s'\n", server.c_str());
        return 2;
    }
    config.server_host = server.substr(0, colon);
    try {
        const int port = std::stoi(server.substr(colon + 1));
        if (port < 1 || port > 65535) throw std::out_of_range("port");
        config.server_port = static_cast<std::uint16_t>(port);
    } catch (const std::exception&) {
        std::fprintf(stderr, "rewind-relay: bad port in --server '%s'\n", server.c_str());
        return 2;
    }
    if (duration_s < 0.0 || stats_every_s < 0.0 || idle_s <= 0.0) {
        std::fprintf(stderr,
                     "rewind-relay: --duration/--stats-interval must be >= 0 and --idle-timeout > 0\n");
        return 2;
    }
    config.idle_timeout = rwd::Micros::from_seconds(idle_s);
    for (auto [args, out, name] :
         {std::tuple{&up, &config.up, "up"}, std::tuple{&down, &config.down, "down"}}) {
        auto link = relay::build_link(common, *args);
        if (!link) {
            std::fprintf(stderr, "rewind-relay: %s link: %s (%.*s)\n", name,
                         rwd::error_name(link.code()).data(), static_cast<int>(link.error().detail.size()),
                         link.error().detail.data());
            return 2;
        }
        *out = link.value();
    }

    auto created = relay::Relay::create(config);
    if (!created) {
        std::fprintf(stderr, "rewind-relay: %s: %.*s\n", rwd::error_name(created.code()).data(),
                     static_cast<int>(created.error().detail.size()), created.error().detail.data());
        return 1;
    }
    relay::Relay& relay = *created.value();
    apps::SignalWaiter signals;  // SIGINT/SIGTERM wait until the loop looks: no handler, no global flag
    const apps::RealClock clock;
    const apps::KvLog log(stdout, "relay", clock);
    log.kvf(rwd::LogLevel::info, "event=listening host=%s port=%u server=%s:%u seed=%llu up=%s down=%s",
            config.listen_host.c_str(), relay.port(), config.server_host.c_str(), config.server_port,
            static_cast<unsigned long long>(config.seed), link_text(config.up).c_str(),
            link_text(config.down).c_str());

    const rwd::Micros stats_every = rwd::Micros::from_seconds(stats_every_s);
    rwd::Micros next_stats = clock.now() + stats_every;
    std::string last_status;  // a status line is printed only when something changed since the last one
    const rwd::Micros max_wait{20'000};
    const char* reason = "signal";
    while (!signals.sleep(rwd::Micros{0})) {
        const rwd::Micros now = clock.now();
        relay.step(now);
        if (duration_s > 0.0 && now >= rwd::Micros::from_seconds(duration_s)) {
            reason = "duration";
            break;
        }
        if (stats_every.count > 0 && now >= next_stats) {
            if (std::string status = relay.stats_line(); status != last_status) {
                log.kvf(rwd::LogLevel::info, "event=status %s", status.c_str());
                last_status = std::move(status);
            }
            next_stats = now + stats_every;
        }
        relay.wait(now, max_wait);
    }
    log.kvf(rwd::LogLevel::info, "event=exit reason=%s %s", signals.stopped() ? signals.name() : reason,
            relay.stats_line().c_str());
    return 0;
}
