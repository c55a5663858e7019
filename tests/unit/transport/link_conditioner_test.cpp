// Statistical and behavioural tests of LinkConditioner: each impairment matches its config within stated
// tolerances.
#include <rewind/transport/link_conditioner.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace rwd::transport {
namespace {

using namespace rwd::literals;

constexpr std::size_t kPackets = 100'000;

struct Delivery {
    std::uint64_t id;
    Micros sent;
    Micros at;
};

std::vector<std::uint8_t> make_packet(std::uint64_t id, std::size_t size) {
    std::vector<std::uint8_t> p(std::max<std::size_t>(size, 8), 0);
    for (std::size_t i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(id >> (8 * i));
    return p;
}

std::uint64_t packet_id(const std::vector<std::uint8_t>& p) {
    std::uint64_t id = 0;
    for (std::size_t i = 0; i < 8; ++i) id |= static_cast<std::uint64_t>(p[i]) << (8 * i);
    return id;
}

// Sends `n` packets `spacing` apart and returns every delivery with its exact time, in delivery order.
std::vector<Delivery> run(LinkConditioner& link, std::size_t n, Micros spacing, std::size_t size = 64) {
    std::vector<Delivery> out;
    std::vector<std::uint8_t> buf;
    auto drain_until = [&](Micros limit) {
        while (auto t = link.next_ready_time()) {
            if (*t > limit) break;
            ASSERT_TRUE(link.pop_ready(*t, buf));
            const std::uint64_t id = packet_id(buf);
            out.push_back(Delivery{id, spacing * static_cast<std::int64_t>(id), *t});
        }
    };
    for (std::size_t i = 0; i < n; ++i) {
        const Micros now = spacing * static_cast<std::int64_t>(i);
        drain_until(now);
        link.submit(now, make_packet(i, size));
    }
    drain_until(Micros{INT64_MAX});
    return out;
}

TEST(LinkConditioner, RandomLossMatchesConfig) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        LinkConfig c;
        c.latency = 10_ms;
        c.loss = 0.05;
        LinkConditioner link(c, seed);
        const auto d = run(link, kPackets, 1_ms);
        const double measured = 1.0 - static_cast<double>(d.size()) / kPackets;
        // Tolerance ±0.3 percentage points (about 4 standard deviations at 100 000 packets).
        EXPECT_NEAR(measured, 0.05, 0.003);
        EXPECT_EQ(link.counters().dropped_random, kPackets - d.size());
        EXPECT_EQ(link.counters().dropped_burst, 0u);
        std::printf("[ stats    ] random loss: configured 5.00 %%, measured %.2f %% (seed %llu)\n",
                    measured * 100, static_cast<unsigned long long>(seed));
    }
}

TEST(LinkConditioner, BurstLossMatchesGilbertElliottStationaryLoss) {
    const std::uint64_t seed = 11;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    LinkConfig c;
    c.burst = BurstLoss{0.01, 0.25, 0.8, 0.0};
    const double expected = c.burst.stationary_loss();  // 0.01 / 0.26 * 0.8 = 3.08 %
    EXPECT_NEAR(expected, 0.01 / 0.26 * 0.8, 1e-12);
    LinkConditioner link(c, seed);
    const auto d = run(link, kPackets, 1_ms);
    std::vector<bool> lost(kPackets, true);
    for (const auto& x : d) lost[x.id] = false;
    const double measured = static_cast<double>(kPackets - d.size()) / kPackets;
    // Tolerance ±0.5 pp: bursts correlate losses, so the spread is ~2.6x that of independent loss.
    EXPECT_NEAR(measured, expected, 0.005);
    EXPECT_EQ(link.counters().dropped_burst, kPackets - d.size());
    // Losses come in bursts: after a loss, the next packet is lost far more often than on average.
    std::size_t after_loss = 0, both = 0;
    for (std::size_t i = 1; i < kPackets; ++i) {
        if (!lost[i - 1]) continue;
        ++after_loss;
        both += lost[i] ? 1 : 0;
    }
    const double conditional = static_cast<double>(both) / static_cast<double>(after_loss);
    EXPECT_GT(conditional, 0.4);  // the model gives 0.75 * 0.8 = 0.6
    std::printf(
        "[ stats    ] burst loss: stationary %.2f %%, measured %.2f %%, P(loss | previous lost) %.2f\n",
        expected * 100, measured * 100, conditional);
}

TEST(LinkConditioner, LatencyAndJitterDistributionMatchConfig) {
    for (std::uint64_t seed : {5u, 6u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        LinkConfig c;
        c.latency = 100_ms;
        c.jitter = 20_ms;
        LinkConditioner link(c, seed);
        // Sent 100 ms apart, the FIFO rule practically never binds, so the raw delay distribution shows.
        const auto d = run(link, kPackets, 100_ms);
        ASSERT_EQ(d.size(), kPackets);
        double sum = 0, sum_sq = 0;
        std::size_t within_one_sigma = 0;
        for (const auto& x : d) {
            const double ms = (x.at - x.sent).millis();
            sum += ms;
            sum_sq += ms * ms;
            within_one_sigma += std::abs(ms - 100.0) <= 20.0 ? 1 : 0;
        }
        const double mean = sum / kPackets;
        const double stddev = std::sqrt(sum_sq / kPackets - mean * mean);
        const double inside = static_cast<double>(within_one_sigma) / kPackets;
        EXPECT_NEAR(mean, 100.0, 1.0);      // mean within 1 ms
        EXPECT_NEAR(stddev, 20.0, 2.0);     // standard deviation within 10 %
        EXPECT_NEAR(inside, 0.6827, 0.01);  // normal shape: 68.3 % within one sigma, ±1 pp
        std::printf(
            "[ stats    ] delay: configured 100 ± 20 ms, measured mean %.2f ms, stddev %.2f ms, "
            "%.1f %% within 1 sigma\n",
            mean, stddev, inside * 100);
    }
}

TEST(LinkConditioner, JitterAloneNeverReorders) {
    const std::uint64_t seed = 21;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    LinkConfig c;
    c.latency = 50_ms;
    c.jitter = 20_ms;
    LinkConditioner link(c, seed);
    const auto d = run(link, kPackets, 5_ms);  // far closer together than the jitter spread
    ASSERT_EQ(d.size(), kPackets);
    double sum = 0;
    for (std::size_t i = 0; i < d.size(); ++i) {
        ASSERT_EQ(d[i].id, i) << "jitter reordered packet " << d[i].id;
        if (i > 0) {
            EXPECT_GE(d[i].at, d[i - 1].at);
        }
        sum += (d[i].at - d[i].sent).millis();
    }
    // Pending delivery times are handed out in sending order, so keeping the order costs no extra delay.
    std::printf("[ stats    ] ordered jitter at 5 ms spacing: mean delay %.2f ms (configured 50 ± 20)\n",
                sum / kPackets);
    EXPECT_NEAR(sum / kPackets, 50.0, 1.0);
}

TEST(LinkConditioner, CorrelatedJitterKeepsItsSpreadAtSixtyHertz) {
    for (std::int64_t correlation_ms : {0, 100}) {
        const std::uint64_t seed = 25;
        SCOPED_TRACE("seed=" + std::to_string(seed) + " correlation_ms=" + std::to_string(correlation_ms));
        LinkConfig c;
        c.latency = 100_ms;
        c.jitter = 20_ms;
        c.jitter_correlation = Micros::from_millis(correlation_ms);
        LinkConditioner link(c, seed);
        const auto d = run(link, kPackets, Micros{16'667});
        double sum = 0, sum_sq = 0;
        for (std::size_t i = 0; i < d.size(); ++i) {
            ASSERT_EQ(d[i].id, i);
            const double ms = (d[i].at - d[i].sent).millis();
            sum += ms;
            sum_sq += ms * ms;
        }
        const double mean = sum / kPackets, stddev = std::sqrt(sum_sq / kPackets - mean * mean);
        EXPECT_NEAR(mean, 100.0, 1.0);
        // Independent jitter must give up spread to stay in order; correlated jitter keeps it (within 10 %).
        if (correlation_ms > 0) {
            EXPECT_NEAR(stddev, 20.0, 2.0);
        } else {
            EXPECT_LT(stddev, 15.0);
        }
        std::printf(
            "[ stats    ] 60 Hz, 100 ± 20 ms, correlation %lld ms: mean %.2f ms, stddev %.2f ms, in order\n",
            static_cast<long long>(correlation_ms), mean, stddev);
    }
}

TEST(LinkConditioner, DuplicationMatchesConfig) {
    const std::uint64_t seed = 31;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    LinkConfig c;
    c.latency = 20_ms;
    c.jitter = 2_ms;
    c.duplicate = 0.10;
    LinkConditioner link(c, seed);
    const auto d = run(link, kPackets, 1_ms);
    std::vector<int> copies(kPackets, 0);
    for (const auto& x : d) ++copies[x.id];
    std::size_t twice = 0;
    for (int n : copies) {
        ASSERT_GE(n, 1);
        ASSERT_LE(n, 2);
        twice += n == 2 ? 1 : 0;
    }
    const double measured = static_cast<double>(twice) / kPackets;
    EXPECT_NEAR(measured, 0.10, 0.005);  // ±0.5 pp
    EXPECT_EQ(link.counters().duplicated, twice);
    std::printf("[ stats    ] duplication: configured 10.00 %%, measured %.2f %%\n", measured * 100);
}

TEST(LinkConditioner, ReorderingMatchesConfig) {
    const std::uint64_t seed = 41;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    LinkConfig c;
    c.latency = 30_ms;
    c.reorder = 0.10;
    c.reorder_delay = 30_ms;
    LinkConditioner link(c, seed);
    const auto d = run(link, kPackets, 10_ms);
    ASSERT_EQ(d.size(), kPackets);
    // A packet is reordered when it arrives after a packet sent later than it.
    std::uint64_t highest = 0;
    std::size_t late = 0;
    for (std::size_t i = 0; i < d.size(); ++i) {
        if (i > 0 && d[i].id < highest) ++late;
        highest = std::max(highest, d[i].id);
    }
    const double measured = static_cast<double>(late) / kPackets;
    // Held 30 ms at 10 ms spacing, a held packet is overtaken unless the next two are held too (1 %): 9.9 %.
    EXPECT_NEAR(measured, 0.10, 0.005);  // ±0.5 pp
    EXPECT_NEAR(static_cast<double>(link.counters().reordered) / kPackets, 0.10, 0.005);
    std::printf(
        "[ stats    ] reordering: configured 10.00 %%, measured %.2f %% arrive after a later packet\n",
        measured * 100);
}

TEST(LinkConditioner, BandwidthCapsThroughputAndQueues) {
    const std::uint64_t seed = 51;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    LinkConfig c;
    c.latency = 10_ms;
    c.bandwidth_kbps = 256;
    c.queue_bytes = 8 * 1024;
    LinkConditioner link(c, seed);
    // Offer 200-byte packets every millisecond: (200 + 28) * 8 bit/ms = 1824 kbit/s, seven times the cap.
    std::size_t max_queue = 0;
    std::vector<std::uint8_t> buf;
    std::uint64_t bytes = 0;
    Micros first{}, last{};
    Micros max_delay{};
    for (std::int64_t ms = 0; ms < 10'000; ++ms) {
        const Micros now = Micros::from_millis(ms);
        while (link.pop_ready(now, buf)) {
            if (bytes == 0) first = now;
            last = now;
            bytes += buf.size() + c.packet_overhead;
            max_delay =
                std::max(max_delay, now - Micros::from_millis(static_cast<std::int64_t>(packet_id(buf))));
        }
        link.submit(now, make_packet(static_cast<std::uint64_t>(ms), 200));
        max_queue = std::max(max_queue, link.queued_bytes(now));
    }
    const double kbps = static_cast<double>(bytes) * 8.0 / 1000.0 / (last - first).seconds();
    EXPECT_NEAR(kbps, 256.0, 256.0 * 0.02);  // within 2 % of the cap
    EXPECT_GT(link.counters().dropped_queue, 0u);
    EXPECT_LE(max_queue, c.queue_bytes);
    // A full queue adds queue_bytes / rate of delay: 8192 B * 8 / 256 kbit/s = 256 ms on top of the latency.
    EXPECT_GT(max_delay, 200_ms);
    EXPECT_LT(max_delay, 10_ms + 260_ms + 5_ms);
    std::printf(
        "[ stats    ] bandwidth: cap 256 kbps, measured %.1f kbps, %llu queue drops, max delay %.0f ms\n",
        kbps, static_cast<unsigned long long>(link.counters().dropped_queue), max_delay.millis());
}

TEST(LinkConditioner, MtuDropsOversizedPackets) {
    LinkConfig c;
    c.mtu = 500;
    LinkConditioner link(c, 1);
    link.submit(0_ms, make_packet(1, 501));
    link.submit(0_ms, make_packet(2, 500));
    std::vector<std::uint8_t> buf;
    ASSERT_TRUE(link.pop_ready(0_ms, buf));
    EXPECT_EQ(packet_id(buf), 2u);
    EXPECT_FALSE(link.pop_ready(1_s, buf));
    EXPECT_EQ(link.counters().dropped_mtu, 1u);
    EXPECT_EQ(link.counters().delivered, 1u);
}

LinkConfig everything() {
    LinkConfig c = link_profile("hostile").value();
    c.burst = BurstLoss{0.02, 0.3, 0.7, 0.0};
    c.bandwidth_kbps = 2000;
    return c;
}

TEST(LinkConditioner, SameSeedSameTraceDifferentSeedDifferent) {
    const std::uint64_t seed = 77;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    auto trace = [](std::uint64_t s) {
        LinkConditioner link(everything(), s);
        const auto d = run(link, 20'000, 2_ms, 100);
        std::vector<std::pair<std::uint64_t, std::int64_t>> t;
        for (const auto& x : d) t.emplace_back(x.id, x.at.count);
        return t;
    };
    const auto a = trace(seed);
    EXPECT_EQ(a, trace(seed));
    EXPECT_NE(a, trace(seed + 1));
}

TEST(LinkConditioner, SwitchingOneImpairmentLeavesTheOthersDecisionsAlone) {
    // Each impairment has its own random stream: adding duplication must not change which packets are lost.
    LinkConfig c;
    c.loss = 0.2;
    LinkConditioner a(c, 9);
    c.duplicate = 0.3;
    LinkConditioner b(c, 9);
    std::vector<bool> got_a(1000), got_b(1000);
    for (const auto& x : run(a, 1000, 1_ms)) got_a[x.id] = true;
    for (const auto& x : run(b, 1000, 1_ms)) got_b[x.id] = true;
    EXPECT_EQ(got_a, got_b);
}

TEST(LinkConditioner, ConfigChangesApplyToLaterPackets) {
    LinkConfig c;
    c.latency = 20_ms;
    LinkConditioner link(c, 3);
    link.submit(0_ms, make_packet(0, 8));
    c.latency = 150_ms;
    ASSERT_TRUE(link.set_config(c).ok());
    link.submit(1_ms, make_packet(1, 8));
    EXPECT_EQ(link.next_ready_time(), std::optional<Micros>(20_ms));
    std::vector<std::uint8_t> buf;
    ASSERT_TRUE(link.pop_ready(20_ms, buf));
    EXPECT_EQ(link.next_ready_time(), std::optional<Micros>(151_ms));
    c.loss = 2.0;
    EXPECT_EQ(link.set_config(c).code(), Errc::invalid_config);
    EXPECT_EQ(link.config().latency, 150_ms);
}

TEST(LinkConditioner, AGivenWireSizeIsWhatTheMtuAndTheBottleneckSee) {
    LinkConfig c;
    c.latency = 10_ms;
    c.bandwidth_kbps = 8;  // one byte per millisecond
    c.packet_overhead = 0;
    c.queue_bytes = 4000;
    c.mtu = 1200;
    LinkConditioner l(c, 1);
    l.submit(0_ms, std::vector<std::uint8_t>(8, 0), 1000);  // an 8-byte tag standing for 1000 bytes
    l.submit(0_ms, std::vector<std::uint8_t>(8, 0), 1300);  // over the MTU
    ASSERT_EQ(l.next_ready_time(), std::optional<Micros>(1010_ms));
    std::vector<std::uint8_t> out;
    ASSERT_TRUE(l.pop_ready(1010_ms, out));
    EXPECT_EQ(out.size(), 8u);
    EXPECT_EQ(l.counters().dropped_mtu, 1u);
    EXPECT_EQ(l.counters().bytes_submitted, 2300u);
}

}  // namespace
}  // namespace rwd::transport
