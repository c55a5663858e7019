// SimNetwork endpoints across the 16-bit wrap of packet sequence numbers and reliable message ids.
#include "unit/transport/sim_harness.hpp"

#include <cstdio>

namespace rwd::transport {
namespace {

using namespace rwd::literals;
using testing::Harness;
using testing::kServer;
using testing::number_of;
using testing::numbered;
using Type = TransportEvent::Type;

// 70 000 reliable messages (more than 2^16 ids) and well over 2^16 packets each way, through loss,
// duplication and reordering: every message arrives exactly once and in order, and the connection stays up.
TEST(SimWrap, ReliableIdsAndPacketSequencesWrapCleanly) {
    for (std::uint64_t seed : {3u, 4u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        SimNetworkConfig c;
        c.seed = seed;
        c.default_link.latency = 10_ms;
        c.default_link.jitter = 3_ms;
        c.default_link.loss = 0.1;
        c.default_link.duplicate = 0.05;
        c.default_link.reorder = 0.05;
        c.default_link.reorder_delay = 5_ms;
        Harness h(c);
        auto& server = h.add_server(2);
        auto& client = h.add_client(0);
        const PeerId peer = client.transport->connect(kServer).value();
        h.run_until(200_ms);
        ASSERT_EQ(server.of(Type::connected).size(), 1u);
        constexpr std::uint32_t kMessages = 70'000;
        std::uint32_t sent = 0;
        // One message per millisecond: the client sends at least one packet a step, so after 70 s its packet
        // sequence has wrapped too.
        double rtt_sum = 0, loss_sum = 0;
        int samples = 0;
        for (; sent < kMessages; ++sent) {
            ASSERT_TRUE(client.transport->send(peer, Delivery::reliable_ordered, numbered(sent)).ok());
            h.run_until(h.now + 1_ms);
            if (sent >= 60'000 && sent % 500 == 0) {  // after the wrap, while traffic flows
                const PeerStats st = client.transport->stats(peer);
                rtt_sum += st.rtt.millis();
                loss_sum += st.loss;
                ++samples;
            }
        }
        h.run_until(h.now + 5_s);
        std::uint32_t expected = 0;
        bool in_order = true;
        for (const auto& e : server.events) {
            if (e.event.type != Type::message) continue;
            if (number_of(e.event.data) != expected) in_order = false;
            ++expected;
        }
        EXPECT_TRUE(in_order);
        EXPECT_EQ(expected, kMessages);
        EXPECT_TRUE(server.of(Type::disconnected).empty());
        const PeerStats st = client.transport->stats(peer);
        EXPECT_GT(st.packets_sent, 65'536u);  // the packet sequence really wrapped
        // Acks still match their packets after the wrap: RTT and loss stay what the link says. Expected RTT:
        // 2 x 10 ms, plus the reorder delay on 5 % of the packets and up to a 1 ms update step per hop.
        const double rtt = rtt_sum / samples, loss = loss_sum / samples;
        EXPECT_NEAR(rtt, 21.5, 2.5);
        EXPECT_NEAR(loss, 0.10, 0.03);
        std::printf(
            "[ stats    ] wrap seed %llu: %u reliable messages in order over %llu packets, rtt %.1f ms, loss "
            "%.1f %%\n",
            static_cast<unsigned long long>(seed), expected, static_cast<unsigned long long>(st.packets_sent),
            rtt, loss * 100);
    }
}

}  // namespace
}  // namespace rwd::transport
