// SimNetwork endpoints at the trust boundary: crafted datagrams from a connected peer's address.
#include "unit/transport/sim_harness.hpp"

#include <rewind/core/rng.hpp>

namespace rwd::transport {
namespace {

using namespace rwd::literals;
using testing::Harness;
using testing::kServer;
using Type = TransportEvent::Type;

void put_u16(std::vector<std::uint8_t>& b, std::uint32_t v) {
    b.push_back(static_cast<std::uint8_t>(v));
    b.push_back(static_cast<std::uint8_t>(v >> 8));
}

// A data datagram (see src/transport/sim_protocol.hpp): kind, seq, ack, ack bits, then the messages.
std::vector<std::uint8_t> data_header(std::uint16_t seq) {
    std::vector<std::uint8_t> b{1};
    put_u16(b, seq);
    put_u16(b, 0);
    for (int i = 0; i < 4; ++i) b.push_back(0);
    return b;
}

void add_reliable(std::vector<std::uint8_t>& b, std::uint16_t id, std::size_t size) {
    b.push_back(1);
    put_u16(b, id);
    put_u16(b, static_cast<std::uint32_t>(size));
    b.insert(b.end(), size, std::uint8_t{0xAB});
}

struct Connected {
    explicit Connected(const SimNetworkConfig& c) : h(c), server(h.add_server(4)), client(h.add_client(0)) {
        peer = client.transport->connect(kServer).value();
        h.run_until(100_ms);
        EXPECT_EQ(server.of(Type::connected).size(), 1u);
    }
    Harness h;
    testing::Node& server;
    testing::Node& client;
    PeerId peer = kInvalidPeer;
};

// The link may carry big datagrams, but no honest endpoint sends one above the network's MTU: a larger one is
// malformed, so a peer cannot park 64 KiB messages in the receive window.
TEST(SimHostile, DatagramAboveTheMtuIsMalformed) {
    SimNetworkConfig c;
    c.default_link.mtu = 65507;
    Connected x(c);
    std::vector<std::uint8_t> big = data_header(1000);
    add_reliable(big, 0, 3000);  // message id 0 is the next one the server expects
    x.h.net.inject(x.h.now, testing::client_address(0), kServer, big);
    x.h.run_until(x.h.now + 10_ms);
    EXPECT_TRUE(x.server.of(Type::message).empty());
    EXPECT_EQ(x.h.net.stats().malformed, 1u);
    // A datagram of exactly the MTU is fine.
    std::vector<std::uint8_t> fits = data_header(1001);
    add_reliable(fits, 0, c.mtu - fits.size() - 5);
    ASSERT_EQ(fits.size(), c.mtu);
    x.h.net.inject(x.h.now, testing::client_address(0), kServer, fits);
    x.h.run_until(x.h.now + 10_ms);
    ASSERT_EQ(x.server.of(Type::message).size(), 1u);
    EXPECT_EQ(x.server.of(Type::message)[0].event.data.size(), c.mtu - 9 - 5);
}

// Well-formed headers with random sequence numbers, acks, ack bits and reliable ids near the receiver's
// window, mixed with the honest client's own traffic: nothing crashes (run under ASan/UBSan), no delivered
// message is longer than the transport carries, and the server stays responsive.
TEST(SimHostile, CraftedDataPacketsNeverBreakTheEndpoint) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        SCOPED_TRACE("seed=" + std::to_string(seed));
        SimNetworkConfig c;
        c.seed = seed;
        c.default_link.latency = 5_ms;
        c.max_malformed = 1'000'000;
        Connected x(c);
        Rng rng(seed);
        for (int i = 0; i < 3000; ++i) {
            std::vector<std::uint8_t> b{static_cast<std::uint8_t>(rng.uniform(2) == 0 ? 0x01 : 0x81)};
            put_u16(b, rng.next_u32());
            put_u16(b, rng.next_u32());
            for (int k = 0; k < 4; ++k) b.push_back(static_cast<std::uint8_t>(rng.next_u32()));
            const std::uint32_t messages = rng.uniform(4);
            for (std::uint32_t m = 0; m < messages; ++m) {
                if (rng.uniform(2) == 0) {
                    // Ids around the receive window and around the 16-bit wrap.
                    const std::uint32_t id =
                        rng.uniform(2) == 0 ? rng.uniform(2048) : 65536 - 1 - rng.uniform(2048);
                    add_reliable(b, static_cast<std::uint16_t>(id), rng.uniform(64));
                } else {
                    b.push_back(0);
                    put_u16(b, rng.uniform(64));
                    b.insert(b.end(), rng.uniform(64), std::uint8_t{0xCD});  // length may not match
                }
            }
            if (rng.uniform(8) == 0 && !b.empty())
                b.resize(rng.uniform(static_cast<std::uint32_t>(b.size())));
            x.h.net.inject(x.h.now, testing::client_address(0), kServer, std::move(b));
            if (i % 20 == 0) {
                ASSERT_TRUE(
                    x.client.transport->send(x.peer, Delivery::unreliable, std::vector<std::uint8_t>{7})
                        .ok());
                x.h.run_until(x.h.now + 1_ms);
            }
        }
        x.h.run_until(x.h.now + 200_ms);
        // Crafted framing may cut messages anywhere, but none can be longer than the transport carries.
        for (const auto& e : x.server.of(Type::message)) {
            EXPECT_LE(e.event.data.size(), x.server.transport->max_message_size());
        }
        EXPECT_GT(x.h.net.stats().malformed, 0u);
        EXPECT_TRUE(x.server.of(Type::disconnected).empty());
        // Still serving: a fresh unreliable message from the honest client gets through.
        const std::size_t before = x.server.of(Type::message).size();
        ASSERT_TRUE(
            x.client.transport->send(x.peer, Delivery::unreliable, std::vector<std::uint8_t>{7}).ok());
        x.h.run_until(x.h.now + 50_ms);
        EXPECT_EQ(x.server.of(Type::message).size(), before + 1);
    }
}

}  // namespace
}  // namespace rwd::transport
