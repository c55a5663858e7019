/// The golden bytes docs/PROTOCOL.md gives for client-server messages carrying the arena's Input.
#include <arena/arena_game.hpp>
#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/packets.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

namespace cs = rwd::client_server;

std::vector<std::uint8_t> encode(cs::InputPacket<arena::Input>& p) {
    std::vector<std::uint8_t> out;
    EXPECT_TRUE(cs::encode_message(p, out).ok());
    return out;
}

TEST(ProtocolGolden, InputPacketWithOneArenaInput) {
    cs::InputPacket<arena::Input> p;
    p.sequence = 5;
    p.newest_tick = rwd::Tick{1000};
    p.count = 1;
    arena::Input in;
    in.move_x = 127;
    in.move_y = -64;
    in.buttons = arena::kFire;
    in.aim = 0x4000;
    in.view_delay = 6;
    in.view_fraction = 0x8000;
    p.inputs[0] = in;
    p.has_ack = true;
    p.ack_snapshot_tick = rwd::Tick{990};
    p.ping_time = 0x01020304;
    p.interpolation_delay_ms = 100;
    EXPECT_EQ(encode(p), (std::vector<std::uint8_t>{0x2B, 0x00, 0x40, 0x1F, 0x00, 0x00, 0x88, 0xFF,
                                                    0x4F, 0x00, 0x00, 0x19, 0x00, 0x80, 0xBD, 0x07,
                                                    0x00, 0x00, 0x08, 0x06, 0x04, 0x02, 0xC8, 0x00}));
}

TEST(ProtocolGolden, PingPacket) {
    cs::InputPacket<arena::Input> p;
    p.count = 0;
    p.ping_time = 250000;
    EXPECT_EQ(encode(p), (std::vector<std::uint8_t>{0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x48, 0xE8,
                                                    0x01, 0x00, 0x00, 0x00}));
}

}  // namespace
