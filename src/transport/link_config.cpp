// LinkConfig validation and the named link profiles.
#include <rewind/transport/link_config.hpp>

#include <array>

namespace rwd::transport {

namespace {

bool is_probability(double p) { return p >= 0.0 && p <= 1.0; }  // false for NaN too

constexpr std::array<std::string_view, 7> kProfileNames = {
    "lan", "broadband", "wifi", "mobile", "intercontinental", "hostile", "checklist",
};

LinkConfig make(std::int64_t latency_us, std::int64_t jitter_us, double loss) {
    LinkConfig c;
    c.latency = Micros{latency_us};
    c.jitter = Micros{jitter_us};
    c.loss = loss;
    return c;
}

}  // namespace

double BurstLoss::stationary_loss() const {
    if (!enabled()) return 0.0;
    const double total = p_good_to_bad + p_bad_to_good;
    const double bad = total > 0.0 ? p_good_to_bad / total : 0.0;  // both 0: the chain stays in good
    return bad * loss_in_bad + (1.0 - bad) * loss_in_good;
}

double LinkConfig::expected_loss() const { return 1.0 - (1.0 - loss) * (1.0 - burst.stationary_loss()); }

Status LinkConfig::validate() const {
    if (latency.count < 0) return Error{Errc::invalid_config, "latency must be >= 0"};
    if (jitter.count < 0) return Error{Errc::invalid_config, "jitter must be >= 0"};
    if (jitter_correlation.count < 0) return Error{Errc::invalid_config, "jitter_correlation must be >= 0"};
    if (!is_probability(loss)) return Error{Errc::invalid_config, "loss must be in [0, 1]"};
    if (!is_probability(duplicate)) return Error{Errc::invalid_config, "duplicate must be in [0, 1]"};
    if (!is_probability(reorder)) return Error{Errc::invalid_config, "reorder must be in [0, 1]"};
    if (reorder_delay.count < 0) return Error{Errc::invalid_config, "reorder_delay must be >= 0"};
    if (!is_probability(burst.p_good_to_bad) || !is_probability(burst.p_bad_to_good) ||
        !is_probability(burst.loss_in_bad) || !is_probability(burst.loss_in_good)) {
        return Error{Errc::invalid_config, "burst probabilities must be in [0, 1]"};
    }
    if (burst.p_good_to_bad > 0.0 && burst.p_bad_to_good <= 0.0) {
        return Error{Errc::invalid_config, "burst.p_bad_to_good must be > 0 (the bad state must end)"};
    }
    if (latency > kMaxLinkDelay || jitter > kMaxLinkDelay || jitter_correlation > kMaxLinkDelay ||
        reorder_delay > kMaxLinkDelay) {
        return Error{Errc::invalid_config,
                     "latency, jitter, jitter_correlation and reorder_delay must be <= 1 hour"};
    }
    if (queue_bytes > kMaxLinkQueueBytes) return Error{Errc::invalid_config, "queue_bytes must be <= 1 GiB"};
    if (packet_overhead > kMaxLinkPacketOverhead) {
        return Error{Errc::invalid_config, "packet_overhead must be <= 65535"};
    }
    if (mtu < 16 || mtu > 65507) return Error{Errc::invalid_config, "mtu must be in [16, 65507]"};
    if (bandwidth_kbps > 0 && queue_bytes < mtu) {
        return Error{Errc::invalid_config, "queue_bytes must hold at least one mtu-sized packet"};
    }
    return {};
}

// Profile figures are one-way, per direction. Rationale:
//   lan              wired LAN: 1 ms, no loss.
//   broadband        good home fibre/cable to a nearby server: 20 ms, 2 ms jitter, 0.2 % loss, 50 Mbit/s.
//   wifi             busy home Wi-Fi: 15 ms, 8 ms jitter, 0.5 % random loss plus short bursts (mean 3
//   packets,
//                    ~0.8 % stationary), a little duplication and reordering, 20 Mbit/s.
//   mobile           4G on the move: 60 ms, 25 ms jitter, 1 % random loss plus bursts (mean 5 packets, ~2.2 %
//                    stationary), 1 % reordering, 2 Mbit/s with a 16 KiB queue.
//   intercontinental Europe <-> US west coast: 150 ms, 5 ms jitter, 0.5 % loss, 0.2 % reordering.
//   hostile          worse than any playable link, for robustness tests: 300 ms, 100 ms jitter, 25 % loss,
//                    25 % duplication, 10 % reordering.
//   checklist        the reference checklist's test link: 100 ms, 20 ms jitter, 5 % loss.
Result<LinkConfig> link_profile(std::string_view name) {
    if (name == "lan") return make(1'000, 100, 0.0);
    if (name == "broadband") {
        LinkConfig c = make(20'000, 2'000, 0.002);
        c.bandwidth_kbps = 50'000;
        c.queue_bytes = 64 * 1024;
        return c;
    }
    if (name == "wifi") {
        LinkConfig c = make(15'000, 8'000, 0.005);
        c.burst = BurstLoss{0.004, 1.0 / 3.0, 0.66, 0.0};
        c.duplicate = 0.001;
        c.reorder = 0.002;
        c.reorder_delay = Micros{20'000};
        c.bandwidth_kbps = 20'000;
        c.queue_bytes = 64 * 1024;
        return c;
    }
    if (name == "mobile") {
        LinkConfig c = make(60'000, 25'000, 0.01);
        c.burst = BurstLoss{0.005, 0.2, 0.9, 0.0};
        c.duplicate = 0.002;
        c.reorder = 0.01;
        c.reorder_delay = Micros{40'000};
        c.bandwidth_kbps = 2'000;
        c.queue_bytes = 16 * 1024;
        return c;
    }
    if (name == "intercontinental") {
        LinkConfig c = make(150'000, 5'000, 0.005);
        c.reorder = 0.002;
        return c;
    }
    if (name == "hostile") {
        LinkConfig c = make(300'000, 100'000, 0.25);
        c.duplicate = 0.25;
        c.reorder = 0.10;
        c.reorder_delay = Micros{50'000};
        return c;
    }
    if (name == "checklist") return make(100'000, 20'000, 0.05);
    return Error{Errc::invalid_argument, "unknown link profile"};
}

std::span<const std::string_view> link_profile_names() { return kProfileNames; }

}  // namespace rwd::transport
