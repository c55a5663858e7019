// The WebSocket transport's message rules without sockets: classifying, framing, close codes, sizes, the
// subprotocol header.
#include "transport/websocket/ws_message.hpp"

#include <gtest/gtest.h>

namespace rwd::transport::ws {
namespace {

using Bytes = std::vector<std::uint8_t>;
const Limits kLimits{4, 8};

TEST(WsMessage, ClassifiesEachClassAndRefusesEverythingElse) {
    const Bytes unreliable{0x00, 1, 2, 3, 4};
    auto in = classify(unreliable, false, kLimits, false);
    EXPECT_EQ(in.refusal, Refusal::none);
    EXPECT_EQ(in.delivery, Delivery::unreliable);
    EXPECT_EQ(Bytes(in.payload.begin(), in.payload.end()), (Bytes{1, 2, 3, 4}));
    const Bytes reliable{0x01, 1, 2, 3, 4, 5, 6, 7, 8};
    in = classify(reliable, false, kLimits, false);
    EXPECT_EQ(in.refusal, Refusal::none);
    EXPECT_EQ(in.delivery, Delivery::reliable_ordered);
    EXPECT_EQ(in.payload.size(), 8u);
    const Bytes empty_payload{0x00};
    EXPECT_EQ(classify(empty_payload, false, kLimits, false).refusal, Refusal::none);  // an empty message

    EXPECT_EQ(classify(Bytes{0x00, 1, 2, 3, 4, 5}, false, kLimits, false).refusal, Refusal::too_big);
    EXPECT_EQ(classify(Bytes{0x01, 1, 2, 3, 4, 5, 6, 7, 8, 9}, false, kLimits, false).refusal,
              Refusal::too_big);
    EXPECT_EQ(classify(Bytes{}, false, kLimits, false).refusal, Refusal::empty);
    EXPECT_EQ(classify(Bytes{0x03, 1}, false, kLimits, false).refusal, Refusal::unknown_class);
    EXPECT_EQ(classify(Bytes{0xFF}, false, kLimits, false).refusal, Refusal::unknown_class);
    EXPECT_EQ(classify(Bytes{0x00, 1}, true, kLimits, false).refusal, Refusal::text);
}

TEST(WsMessage, TheAcceptIsTakenOnlyByAClientAwaitingItAndOnlyItFirst) {
    const Bytes accept = accept_message();
    EXPECT_EQ(accept, (Bytes{0x02, 0x01}));
    EXPECT_TRUE(classify(accept, false, kLimits, true).accept);
    EXPECT_EQ(classify(accept, false, kLimits, false).refusal, Refusal::misplaced_control);  // a second one
    EXPECT_EQ(classify(Bytes{0x02, 0x01, 0x00}, false, kLimits, true).refusal, Refusal::misplaced_control);
    EXPECT_EQ(classify(Bytes{0x02, 0x02}, false, kLimits, true).refusal, Refusal::misplaced_control);
    EXPECT_EQ(classify(Bytes{0x01, 9}, false, kLimits, true).refusal,
              Refusal::misplaced_control);  // before it
}

TEST(WsMessage, RefusalsCloseWithTheirRfcCodes) {
    EXPECT_EQ(close_code_of(Refusal::text), 1003);
    EXPECT_EQ(close_code_of(Refusal::too_big), 1009);
    for (auto r : {Refusal::empty, Refusal::unknown_class, Refusal::misplaced_control})
        EXPECT_EQ(close_code_of(r), 1008) << refusal_name(r);
}

TEST(WsMessage, FramingPutsTheClassByteFirst) {
    const Bytes payload{7, 8};
    EXPECT_EQ(frame(Delivery::unreliable, payload), (Bytes{0x00, 7, 8}));
    EXPECT_EQ(frame(Delivery::reliable_ordered, payload), (Bytes{0x01, 7, 8}));
}

TEST(WsMessage, CloseCodesCarryTheReasonAndRefusalOnlyBeforeTheAccept) {
    EXPECT_EQ(close_code(DisconnectReason::remote), 4002);
    EXPECT_EQ(close_code(DisconnectReason::kicked), 4005);
    EXPECT_EQ(reason_of_close(4004, false), DisconnectReason::refused);
    EXPECT_EQ(reason_of_close(4002, false), DisconnectReason::timed_out);
    EXPECT_EQ(reason_of_close(1000, false), DisconnectReason::timed_out);
    EXPECT_EQ(reason_of_close(4002, true), DisconnectReason::remote);
    EXPECT_EQ(reason_of_close(4005, true), DisconnectReason::remote);
    EXPECT_EQ(reason_of_close(1001, true), DisconnectReason::timed_out);
    EXPECT_EQ(reason_of_close(4100, true), DisconnectReason::timed_out);
}

TEST(WsMessage, FrameOverheadFollowsRfc6455Lengths) {
    EXPECT_EQ(frame_overhead(125, false), 2u);
    EXPECT_EQ(frame_overhead(126, false), 4u);
    EXPECT_EQ(frame_overhead(65535, false), 4u);
    EXPECT_EQ(frame_overhead(65536, false), 10u);
    EXPECT_EQ(frame_overhead(10, true), 6u);
}

TEST(WsMessage, TheSubprotocolIsFoundAmongOthersAndOnlyExactly) {
    EXPECT_TRUE(offers_subprotocol("rewind.1"));
    EXPECT_TRUE(offers_subprotocol("chat, rewind.1"));
    EXPECT_TRUE(offers_subprotocol(" rewind.1 ,\tchat"));
    EXPECT_FALSE(offers_subprotocol(""));
    EXPECT_FALSE(offers_subprotocol("rewind.10"));
    EXPECT_FALSE(offers_subprotocol("rewind"));
    EXPECT_FALSE(offers_subprotocol("chat,,rewind.2"));
}

}  // namespace
}  // namespace rwd::transport::ws
