// StreamLink: in-order, lossless delivery under loss and jitter, head-of-line blocking, retransmission
// timing, the sender's unacknowledged bytes, counters and determinism.
#include "transport/stream_link.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace rwd::transport::sim {
namespace {

using namespace rwd::literals;

std::vector<std::uint8_t> numbered(std::uint32_t n) {
    return {static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(n >> 8u),
            static_cast<std::uint8_t>(n >> 16u), static_cast<std::uint8_t>(n >> 24u)};
}

std::uint32_t number_of(const std::vector<std::uint8_t>& v) {
    return v.size() < 4 ? 0xFFFFFFFFu
                        : static_cast<std::uint32_t>(v[0] | (v[1] << 8u) | (v[2] << 16u) | (v[3] << 24u));
}

LinkConfig clean(Micros latency) {
    LinkConfig c;
    c.latency = latency;
    return c;
}

struct Delivery {
    std::uint32_t number;
    Micros at;
};

// Drives a link in 1 ms steps: writes are given as (time, number); every delivery is recorded with its time.
struct Driver {
    StreamLink& link;
    std::vector<Delivery> out;
    Micros now{};
    void step_to(Micros t) {
        while (now < t) {
            now = now + 1_ms;
            link.advance(now);
            std::vector<std::uint8_t> b;
            while (link.pop_ready(now, b)) out.push_back(Delivery{number_of(b), now});
        }
    }
    void write(Micros t, std::uint32_t n, std::size_t bytes = 100) {
        step_to(t);
        link.write(t, numbered(n), bytes);
    }
    [[nodiscard]] Micros at(std::uint32_t n) const {
        for (const Delivery& d : out)
            if (d.number == n) return d.at;
        return Micros{-1};
    }
};

TEST(StreamLink, DeliversEveryWriteOnceAndInOrderUnderLossJitterDuplicationAndReordering) {
    for (std::uint64_t seed : {1ULL, 7ULL, 21ULL, 1234ULL}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        LinkConfig c;
        c.latency = 50_ms;
        c.jitter = 20_ms;
        c.loss = 0.10;
        c.burst = BurstLoss{0.02, 0.3, 1.0, 0.0};
        c.duplicate = 0.05;
        c.reorder = 0.05;
        StreamLink link(c, seed, SimStreamConfig{});
        link.set_return_path(50_ms, 20_ms);
        Driver d{link, {}, {}};
        constexpr std::uint32_t kWrites = 3000;
        for (std::uint32_t i = 0; i < kWrites; ++i) d.write(Micros{i * 5'000LL}, i, 60 + (i % 7) * 200);
        d.step_to(Micros{kWrites * 5'000LL} + 60'000_ms);
        ASSERT_EQ(d.out.size(), kWrites);
        for (std::uint32_t i = 0; i < kWrites; ++i) {
            ASSERT_EQ(d.out[i].number, i);
            if (i > 0) {
                ASSERT_GE(d.out[i].at, d.out[i - 1].at);
            }
        }
        const StreamCounters& k = link.counters();
        EXPECT_EQ(k.writes, kWrites);
        EXPECT_EQ(k.delivered, kWrites);
        EXPECT_GT(k.segments, kWrites);  // the long writes took two segments
        EXPECT_EQ(k.transmissions, k.segments + k.retransmissions);
        // About 12 % of copies lost (10 % random plus the bursts' ~6 %, overlapping), each sent again.
        EXPECT_GT(k.retransmissions, k.segments / 20);
        EXPECT_LT(k.retransmissions, k.segments / 3);
        EXPECT_GT(k.duplicates, 0u);
        EXPECT_GT(k.held_back, k.retransmissions);  // a loss holds back the segments behind it
        EXPECT_EQ(k.discarded, 0u);
        EXPECT_EQ(link.unacked_bytes(d.now), 0u);
    }
}

// 50 ms each way, no jitter: write n leaves at 10 n ms and arrives 50 ms later, unless lost.
TEST(StreamLink, ALostSegmentCostsAboutOneRoundTripAndHoldsBackEverythingWrittenAfterIt) {
    StreamLink link(clean(50_ms), 1, SimStreamConfig{});
    link.set_return_path(50_ms, 0_ms);
    EXPECT_EQ(link.rack_delay(), 125_ms);  // RTT 100 ms plus RACK's reordering window of RTT / 4
    Driver d{link, {}, {}};
    for (std::uint32_t n = 0; n < 40; ++n) {
        LinkConfig c = clean(50_ms);
        if (n == 10) c.loss = 1.0;  // only write 10's first copy is lost
        ASSERT_TRUE(link.set_config(c).ok());
        d.write(Micros{n * 10'000LL}, n);
    }
    d.step_to(1000_ms);
    ASSERT_EQ(d.out.size(), 40u);
    for (std::uint32_t n = 0; n < 10; ++n) EXPECT_EQ(d.at(n), Micros{n * 10'000LL + 50'000}) << n;
    // Write 11's ack (arrival 160 ms + 50 ms back) tells the sender at 210 ms; RACK waits until 100 + 125 ms,
    // then the copy takes 50 ms: 275 ms instead of 150 ms.
    EXPECT_EQ(d.at(10), 275_ms);
    // Writes 11..22 arrived in time but wait for write 10: head-of-line blocking. On a datagram link write 11
    // would be out at 160 ms.
    for (std::uint32_t n = 11; n <= 22; ++n) EXPECT_EQ(d.at(n), 275_ms) << n;
    EXPECT_EQ(d.at(23), 280_ms);
    const StreamCounters& k = link.counters();
    EXPECT_EQ(k.retransmissions, 1u);
    EXPECT_EQ(k.rto_retransmissions, 0u);
    EXPECT_EQ(k.held_back, 12u);
    EXPECT_EQ(k.max_held_back, 115_ms);  // write 11: arrived at 160 ms, delivered at 275 ms
}

TEST(StreamLink, ALostRetransmissionIsSentAgain) {
    StreamLink link(clean(50_ms), 1, SimStreamConfig{});
    link.set_return_path(50_ms, 0_ms);
    Driver d{link, {}, {}};
    LinkConfig lossy = clean(50_ms);
    lossy.loss = 1.0;
    ASSERT_TRUE(link.set_config(lossy).ok());
    d.write(0_ms, 0);  // lost
    ASSERT_TRUE(link.set_config(clean(50_ms)).ok());
    d.write(10_ms, 1);  // acked at 110 ms: write 0 is resent at max(110, 0 + 125) = 125 ms ...
    d.step_to(120_ms);
    ASSERT_TRUE(link.set_config(lossy).ok());
    d.step_to(126_ms);  // ... and lost again
    ASSERT_TRUE(link.set_config(clean(50_ms)).ok());
    d.write(130_ms, 2);  // acked at 230 ms: resent at max(230, 125 + 125) = 250 ms, arrives at 300 ms
    d.step_to(1000_ms);
    ASSERT_EQ(d.out.size(), 3u);
    EXPECT_EQ(d.at(0), 300_ms);
    EXPECT_EQ(d.at(1), 300_ms);
    EXPECT_EQ(d.at(2), 300_ms);
    EXPECT_EQ(link.counters().retransmissions, 2u);
    EXPECT_EQ(link.counters().rto_retransmissions, 0u);
}

TEST(StreamLink, WithNothingLaterAcknowledgedTheTimeoutFiresAndBacksOff) {
    SimStreamConfig sc;
    StreamLink link(clean(50_ms), 3, sc);
    link.set_return_path(50_ms, 0_ms);
    EXPECT_EQ(link.rto(0), 300_ms);  // RTT + min_rto
    EXPECT_EQ(link.rto(1), 600_ms);
    EXPECT_EQ(link.rto(40), sc.max_rto);
    Driver d{link, {}, {}};
    LinkConfig lossy = clean(50_ms);
    lossy.loss = 1.0;
    ASSERT_TRUE(link.set_config(lossy).ok());
    // A 2 s outage with a write every 20 ms; each copy is resent at 300, 900, 2100 ms after it was written.
    for (std::uint32_t n = 0; n < 100; ++n) d.write(Micros{n * 20'000LL}, n);
    d.step_to(2000_ms);
    EXPECT_TRUE(d.out.empty());
    ASSERT_TRUE(link.set_config(clean(50_ms)).ok());
    d.step_to(10'000_ms);
    ASSERT_EQ(d.out.size(), 100u);
    for (std::uint32_t n = 0; n < 100; ++n) ASSERT_EQ(d.out[n].number, n);
    // Write 0's third retransmission leaves at 2100 ms (300 + 600 + 1200) and arrives at 2150 ms.
    EXPECT_EQ(d.at(0), 2150_ms);
    EXPECT_GT(link.counters().rto_retransmissions, 100u);
}

TEST(StreamLink, UnackedBytesLastUntilTheAcknowledgmentIsBack) {
    StreamLink link(clean(50_ms), 1, SimStreamConfig{});
    link.set_return_path(30_ms, 0_ms);
    Driver d{link, {}, {}};
    d.write(0_ms, 0, 300);
    d.write(10_ms, 1, 200);
    EXPECT_EQ(link.unacked_bytes(10_ms), 500u);
    d.step_to(79_ms);
    EXPECT_EQ(link.unacked_bytes(79_ms), 500u);  // write 0 delivered at 50 ms, acked at 80 ms
    d.step_to(80_ms);
    EXPECT_EQ(link.unacked_bytes(80_ms), 200u);
    // Not yet read by the receiver makes no difference: the ack follows the delivery time.
    EXPECT_EQ(link.unacked_bytes(90_ms), 0u);
    d.step_to(90_ms);
    EXPECT_EQ(link.unacked_bytes(90_ms), 0u);

    // A lost segment stays unacknowledged, and so does everything behind it that has arrived.
    LinkConfig lossy = clean(50_ms);
    lossy.loss = 1.0;
    ASSERT_TRUE(link.set_config(lossy).ok());
    d.write(100_ms, 2, 400);
    ASSERT_TRUE(link.set_config(clean(50_ms)).ok());
    d.write(110_ms, 3, 100);
    d.step_to(200_ms);
    EXPECT_EQ(link.unacked_bytes(200_ms), 500u);
    d.step_to(1000_ms);
    EXPECT_EQ(link.unacked_bytes(1000_ms), 0u);
}

TEST(StreamLink, LongWritesAreCutIntoSegmentsAndTheWireCountsTheirHeaders) {
    LinkConfig c = clean(10_ms);
    c.mtu = 1200;
    SimStreamConfig sc;
    sc.segment_overhead = 52;  // MSS 1148
    StreamLink link(c, 1, sc);
    link.set_return_path(10_ms, 0_ms);
    Driver d{link, {}, {}};
    d.write(0_ms, 0, 3000);
    d.write(1_ms, 1, 0);  // a write without frames still travels (as a bare segment)
    d.step_to(100_ms);
    ASSERT_EQ(d.out.size(), 2u);
    const StreamCounters& k = link.counters();
    EXPECT_EQ(k.segments, 4u);
    EXPECT_EQ(k.stream_bytes, 3000u);
    EXPECT_EQ(k.wire_bytes, 3000u + 4u * 52u);
}

TEST(StreamLink, ResetDiscardsWhatIsInFlight) {
    StreamLink link(clean(50_ms), 1, SimStreamConfig{});
    link.set_return_path(50_ms, 0_ms);
    Driver d{link, {}, {}};
    d.write(0_ms, 0);
    d.write(1_ms, 1);
    link.reset();
    d.write(2_ms, 2);
    d.step_to(200_ms);
    ASSERT_EQ(d.out.size(), 1u);
    EXPECT_EQ(d.out[0].number, 2u);
    EXPECT_EQ(link.counters().discarded, 2u);
}

TEST(StreamLink, TheSameSeedGivesTheSameDeliveriesAndAnotherSeedOthers) {
    auto run = [](std::uint64_t seed) {
        LinkConfig c;
        c.latency = 80_ms;
        c.jitter = 20_ms;
        c.loss = 0.05;
        StreamLink link(c, seed, SimStreamConfig{});
        link.set_return_path(80_ms, 20_ms);
        Driver d{link, {}, {}};
        for (std::uint32_t n = 0; n < 500; ++n) d.write(Micros{n * 16'000LL}, n);
        d.step_to(20'000_ms);
        std::vector<std::int64_t> times;
        for (const auto& x : d.out) times.push_back(x.at.count);
        return times;
    };
    for (std::uint64_t seed : {1ULL, 7ULL}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        EXPECT_EQ(run(seed), run(seed));
    }
    EXPECT_NE(run(1), run(7));
}

}  // namespace
}  // namespace rwd::transport::sim
