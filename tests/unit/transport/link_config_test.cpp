// Tests of LinkConfig validation, the Gilbert–Elliott stationary loss and the named profiles.
#include <rewind/transport/link_conditioner.hpp>
#include <rewind/transport/link_config.hpp>

#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace rwd::transport {
namespace {

using namespace rwd::literals;

TEST(LinkConfig, DefaultIsAPerfectValidLink) {
    LinkConfig c;
    EXPECT_TRUE(c.validate().ok());
    EXPECT_EQ(c.expected_loss(), 0.0);
}

TEST(LinkConfig, ValidateNamesWhatIsWrong) {
    LinkConfig c;
    c.loss = 1.5;
    EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    c = {};
    c.jitter = Micros{-1};
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.burst.p_good_to_bad = 0.1;
    c.burst.p_bad_to_good = 0.0;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.bandwidth_kbps = 100;
    c.queue_bytes = 100;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.mtu = 8;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.duplicate = -0.1;
    EXPECT_FALSE(c.validate().ok());
}

// Delays and sizes are summed into int64 microseconds and byte counts; absurd values would overflow (UB), so
// validate() caps them.
TEST(LinkConfig, ValidateCapsValuesThatWouldOverflow) {
    for (Micros LinkConfig::*field : {&LinkConfig::latency, &LinkConfig::jitter,
                                      &LinkConfig::jitter_correlation, &LinkConfig::reorder_delay}) {
        LinkConfig c;
        c.*field = kMaxLinkDelay;
        EXPECT_TRUE(c.validate().ok());
        c.*field = Micros{INT64_MAX / 2};
        EXPECT_EQ(c.validate().code(), Errc::invalid_config);
    }
    LinkConfig c;
    c.packet_overhead = kMaxLinkPacketOverhead + 1;
    EXPECT_FALSE(c.validate().ok());
    c = {};
    c.queue_bytes = kMaxLinkQueueBytes + 1;
    EXPECT_FALSE(c.validate().ok());
}

// The largest valid values run through the conditioner without overflow (checked by the UBSan build).
TEST(LinkConfig, LargestValidValuesAreSafeInTheConditioner) {
    LinkConfig c;
    c.latency = kMaxLinkDelay;
    c.jitter = kMaxLinkDelay;
    c.jitter_correlation = kMaxLinkDelay;
    c.reorder = 0.5;
    c.reorder_delay = kMaxLinkDelay;
    c.duplicate = 0.5;
    c.bandwidth_kbps = 1;
    c.queue_bytes = kMaxLinkQueueBytes;
    c.packet_overhead = kMaxLinkPacketOverhead;
    c.mtu = 65507;
    ASSERT_TRUE(c.validate().ok());
    LinkConditioner link(c, 5);
    const Micros start = Micros{INT64_MAX / 4};  // a process that has been up a long time
    for (int i = 0; i < 100; ++i) link.submit(start + Micros{i}, std::vector<std::uint8_t>(65507, 1));
    EXPECT_GT(link.queued_bytes(start + Micros{100}), 0u);
    const auto t = link.next_ready_time();
    ASSERT_TRUE(t.has_value());
    EXPECT_GE(*t, start);
    std::vector<std::uint8_t> out;
    EXPECT_TRUE(link.pop_ready(*t, out));
}

TEST(LinkConfig, StationaryLossOfTheTwoStateChain) {
    BurstLoss b{0.05, 0.45, 1.0, 0.0};
    EXPECT_NEAR(b.stationary_loss(), 0.1, 1e-12);
    b.loss_in_good = 0.01;
    EXPECT_NEAR(b.stationary_loss(), 0.1 + 0.9 * 0.01, 1e-12);
    LinkConfig c;
    c.loss = 0.1;
    c.burst = BurstLoss{0.05, 0.45, 1.0, 0.0};
    EXPECT_NEAR(c.expected_loss(), 1.0 - 0.9 * 0.9, 1e-12);
}

TEST(LinkConfig, EveryProfileExistsAndValidates) {
    ASSERT_EQ(link_profile_names().size(), 7u);
    for (std::string_view name : link_profile_names()) {
        SCOPED_TRACE(std::string(name));
        auto p = link_profile(name);
        ASSERT_TRUE(p.ok());
        EXPECT_TRUE(p->validate().ok());
    }
    EXPECT_EQ(link_profile("moon").code(), Errc::invalid_argument);
}

TEST(LinkConfig, ChecklistAndHostileProfiles) {
    const LinkConfig checklist = link_profile("checklist").value();
    EXPECT_EQ(checklist.latency, 100_ms);
    EXPECT_EQ(checklist.jitter, 20_ms);
    EXPECT_DOUBLE_EQ(checklist.loss, 0.05);
    const LinkConfig hostile = link_profile("hostile").value();
    EXPECT_EQ(hostile.latency, 300_ms);
    EXPECT_EQ(hostile.jitter, 100_ms);
    EXPECT_DOUBLE_EQ(hostile.loss, 0.25);
    EXPECT_DOUBLE_EQ(hostile.duplicate, 0.25);
    EXPECT_DOUBLE_EQ(hostile.reorder, 0.10);
    // Profiles get worse in the order a reader expects.
    EXPECT_LT(link_profile("lan")->latency, link_profile("broadband")->latency);
    EXPECT_LT(link_profile("broadband")->expected_loss(), link_profile("mobile")->expected_loss());
}

}  // namespace
}  // namespace rwd::transport
