/// The golden bytes docs/PROTOCOL.md gives for client-server messages carrying the arena's Input and
/// entities.
#include <arena/arena_game.hpp>
#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/packets.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
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
    // A fire without an origin: its has_origin bit (0) follows view_fraction.
    EXPECT_EQ(encode(p), (std::vector<std::uint8_t>{0x2B, 0x00, 0x40, 0x1F, 0x00, 0x00, 0x88, 0xFF,
                                                    0x4F, 0x00, 0x00, 0x19, 0x00, 0x80, 0x7A, 0x0F,
                                                    0x00, 0x00, 0x10, 0x0C, 0x08, 0x04, 0x90, 0x01}));
}

TEST(ProtocolGolden, PingPacket) {
    cs::InputPacket<arena::Input> p;
    p.count = 0;
    p.ping_time = 250000;
    EXPECT_EQ(encode(p), (std::vector<std::uint8_t>{0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x48, 0xE8,
                                                    0x01, 0x00, 0x00, 0x00}));
}

// The worked example of a range-coded entity section (docs/PROTOCOL.md, "Worked example: a range-coded
// section"): baseline (age 1) holds player 0 and player 1; player 0 moved 5 units along x, player 1 is
// unchanged, player 2 entered. Untrained models (the trained bit 0), so the bytes do not depend on the table.
std::vector<std::uint8_t> range_section() {
    using Record = arena::ArenaGame::EntityRecord;
    arena::EntitySnapshot p0;
    p0.flags = arena::kPresent | arena::kAlive;
    p0.hp = arena::kMaxHp;
    p0.x = 1000;
    p0.y = 2000;
    arena::EntitySnapshot p1 = p0;
    p1.x = 3000;
    const std::vector<Record> baseline = {{0, p0}, {1, p1}};
    std::vector<Record> now = baseline;
    now[0].snap.x += 5;
    arena::EntitySnapshot p2 = p0;
    p2.x = 4000;
    now.push_back({2, p2});
    std::vector<std::uint32_t> stale;
    cs::RangeSectionScratch range;
    std::vector<std::uint8_t> buf(64);
    rwd::wire::WriteStream w(buf);
    EXPECT_TRUE(cs::write_entity_section(w, std::uint8_t{1}, std::span<const Record>(baseline), now, stale,
                                         {}, &range));
    w.flush();
    return {w.data().begin(), w.data().begin() + static_cast<std::ptrdiff_t>(w.bytes_used())};
}

TEST(ProtocolGolden, RangeCodedEntitySection) {
    const std::vector<std::uint8_t> golden = {0x01, 0x01, 0xB3, 0x1F, 0xF8, 0x01, 0x12,
                                              0xA0, 0x67, 0xC5, 0x24, 0x62, 0x4A, 0xA8,
                                              0x57, 0x49, 0x3D, 0x14, 0x1D, 0x38, 0x00};
    EXPECT_EQ(range_section(), golden);
}

}  // namespace
