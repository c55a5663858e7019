// WebSocketTransport refuses what breaks its rules or RFC 6455 (text, unknown class, oversize, unmasked or
// reserved-bit frames, a client's control message, garbage instead of HTTP) with a close and a counter.
#include "unit/transport/net_harness.hpp"
#include "unit/transport/raw_ws_client.hpp"

namespace rwd::transport {
namespace {

using testing::pump_ws_until;
using testing::RawWsClient;
using testing::WsNode;
using Type = TransportEvent::Type;

constexpr std::uint8_t kText = 0x1;
constexpr std::uint8_t kBinary = 0x2;

/// A server with small limits and one raw client that completed the handshake and read the accept.
struct Seated {
    WsNode server;
    RawWsClient raw;
    bool up = false;
    static WebSocketConfig config() {
        WebSocketConfig c;
        c.bind_host = "127.0.0.1";
        c.max_message_size = 64;
        c.max_reliable_size = 256;
        return c;
    }
    Seated() : server{WebSocketTransport::create(config()).value(), {}}, raw(server.port()) {
        raw.send(RawWsClient::upgrade("/rewind", "rewind.1"));
        up = pump_ws_until({&server}, [&] {
            raw.drain();
            // 101, then the accept: an unmasked binary frame 02 01.
            const auto& r = raw.received();
            return r.size() >= 4 && r[r.size() - 4] == 0x82 && r[r.size() - 3] == 0x02 &&
                   r[r.size() - 2] == 0x02 && r[r.size() - 1] == 0x01;
        });
    }
    /// Sends `frame`, pumps until the server reports the peer gone; the close code the server sent.
    int refused_with(const std::vector<std::uint8_t>& frame) {
        raw.send_bytes(frame);
        const bool gone = pump_ws_until({&server}, [&] {
            raw.drain();
            return server.count(Type::disconnected) == 1 && raw.close_code() != 0;
        });
        return gone ? raw.close_code() : -1;
    }
};

TEST(WebSocketGarbageTest, AValidClassedMessageIsDelivered) {
    Seated s;
    ASSERT_TRUE(s.up) << s.raw.received_text();
    s.raw.send_bytes(RawWsClient::frame(kBinary, {0x01, 'h', 'i'}));
    ASSERT_TRUE(pump_ws_until({&s.server}, [&] { return s.server.count(Type::message) == 1; }));
    EXPECT_EQ(s.server.of(Type::message)[0].data, (std::vector<std::uint8_t>{'h', 'i'}));
    EXPECT_EQ(s.server.of(Type::message)[0].delivery, Delivery::reliable_ordered);
}

TEST(WebSocketGarbageTest, ATextMessageIsRefusedWith1003) {
    Seated s;
    ASSERT_TRUE(s.up);
    EXPECT_EQ(s.refused_with(RawWsClient::frame(kText, {'h', 'i'})), 1003);
    EXPECT_EQ(s.server.of(Type::disconnected)[0].reason, DisconnectReason::kicked);
    EXPECT_EQ(s.server.transport->counters().messages_refused, 1u);
}

TEST(WebSocketGarbageTest, AnEmptyMessageAnUnknownClassAndAClientsControlMessageAreRefusedWith1008) {
    for (const std::vector<std::uint8_t>& payload :
         {std::vector<std::uint8_t>{}, std::vector<std::uint8_t>{0x07, 1},
          std::vector<std::uint8_t>{0x02, 1}}) {
        Seated s;
        ASSERT_TRUE(s.up);
        EXPECT_EQ(s.refused_with(RawWsClient::frame(kBinary, payload)), 1008);
        EXPECT_EQ(s.server.transport->counters().messages_refused, 1u);
        EXPECT_EQ(s.server.count(Type::message), 0u);
    }
}

TEST(WebSocketGarbageTest, AMessageOverItsClassLimitIsRefusedWith1009) {
    Seated s;
    ASSERT_TRUE(s.up);
    std::vector<std::uint8_t> unreliable(1 + 65, 0);  // 65 > max_message_size 64
    unreliable[0] = 0x00;
    EXPECT_EQ(s.refused_with(RawWsClient::frame(kBinary, unreliable)), 1009);

    Seated t;
    ASSERT_TRUE(t.up);
    std::vector<std::uint8_t> huge(1 + 4000, 0);  // over the frame limit: the WebSocket layer refuses it
    huge[0] = 0x01;
    EXPECT_EQ(t.refused_with(RawWsClient::frame(kBinary, huge)), 1009);
    EXPECT_EQ(t.server.transport->counters().messages_refused, 1u);
}

TEST(WebSocketGarbageTest, BrokenFramesAreProtocolErrorsClosedWith1002) {
    const std::vector<std::vector<std::uint8_t>> broken = {
        RawWsClient::frame(kBinary, {0x00, 1}, /*masked=*/false),  // a client must mask
        RawWsClient::frame(0x3, {0x00, 1}),                        // a reserved opcode
        {0xF2, 0x82, 0, 0, 0, 0, 0x00, 0x01},                      // reserved bits set
        {0x09, 0x80 | 126, 0x00, 0x10, 1, 2, 3, 4},                // a fragmented ping (FIN clear)
    };
    for (const auto& frame : broken) {
        Seated s;
        ASSERT_TRUE(s.up);
        EXPECT_EQ(s.refused_with(frame), 1002);
        EXPECT_EQ(s.server.transport->counters().protocol_errors, 1u);
        EXPECT_EQ(s.server.count(Type::message), 0u);
    }
}

TEST(WebSocketGarbageTest, GarbageInsteadOfAnUpgradeIsAHandshakeFailureAndTakesNoSeat) {
    WsNode server{WebSocketTransport::create(Seated::config()).value(), {}};
    RawWsClient raw(server.port());
    raw.send("\x16\x03\x01 this is not HTTP at all\r\n\r\n");
    ASSERT_TRUE(pump_ws_until({&server}, [&] { return !raw.drain(); }));
    EXPECT_EQ(server.transport->counters().handshake_failures, 1u);  // the HTTP parser refused it
    EXPECT_EQ(server.count(Type::connected), 0u);
}

}  // namespace
}  // namespace rwd::transport
