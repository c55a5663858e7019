// Input: lossless wire round-trip for valid inputs, rejection of invalid ones, and sanitize().
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <array>
#include <cstdint>

#include <rewind/wire/stream.hpp>

#include "arena/arena_game.hpp"

namespace arena {
namespace {

Input arbitrary_input() {
    Input in;
    in.move_x = *rc::gen::arbitrary<std::int8_t>();
    in.move_y = *rc::gen::arbitrary<std::int8_t>();
    in.buttons = *rc::gen::arbitrary<std::uint8_t>();
    in.view_delay = *rc::gen::arbitrary<std::uint8_t>();
    in.aim = *rc::gen::arbitrary<std::uint16_t>();
    in.view_fraction = *rc::gen::arbitrary<std::uint16_t>();
    in.has_origin = *rc::gen::arbitrary<bool>();
    in.origin_x = *rc::gen::arbitrary<std::uint16_t>();
    in.origin_y = *rc::gen::arbitrary<std::uint16_t>();
    return in;
}

RC_GTEST_PROP(Input, SanitizedInputsRoundTripLosslessly, ()) {
    std::uint32_t violations = 0;
    Input in = ArenaGame::sanitize(arbitrary_input(), violations);
    std::array<std::uint8_t, 16> buf{};  // 91 bits at most
    rwd::wire::WriteStream w(buf);
    RC_ASSERT(serialize(w, in));
    w.flush();
    rwd::wire::MeasureStream m;
    RC_ASSERT(serialize(m, in));
    RC_ASSERT(m.bits_used() == w.bits_used());
    const bool fire = (in.buttons & kFire) != 0;
    RC_ASSERT(w.bits_used() == 58u + (fire ? 1u : 0u) + (in.has_origin ? 32u : 0u));
    rwd::wire::ReadStream r(w.data());
    Input out;
    out.aim = 999;  // reading must overwrite everything
    RC_ASSERT(serialize(r, out));
    RC_ASSERT(out == in);
}

RC_GTEST_PROP(Input, SanitizeIsIdempotentAndCountsChanges, ()) {
    const Input raw = arbitrary_input();
    std::uint32_t v1 = 0;
    const Input once = ArenaGame::sanitize(raw, v1);
    std::uint32_t v2 = 0;
    const Input twice = ArenaGame::sanitize(once, v2);
    RC_ASSERT(once == twice);
    RC_ASSERT(v2 == 0u);
    RC_ASSERT((v1 == 0u) == (once == raw));
    RC_ASSERT(once.move_x >= -kAxisMax);
    RC_ASSERT(once.move_y >= -kAxisMax);
    RC_ASSERT((once.buttons & ~kAllButtons) == 0);
    RC_ASSERT(once.view_delay <= kMaxViewDelay);
    RC_ASSERT(!once.has_origin || (once.buttons & kFire) != 0);
    RC_ASSERT(once.has_origin || (once.origin_x == 0 && once.origin_y == 0));
    RC_ASSERT(once.aim == raw.aim);
}

TEST(Input, SanitizeFixesEachBadField) {
    Input bad;
    bad.move_x = -128;
    bad.move_y = -128;
    bad.buttons = 0xF0 | kFire;
    bad.view_delay = 200;
    std::uint32_t violations = 0;
    const Input ok = ArenaGame::sanitize(bad, violations);
    EXPECT_EQ(violations, 4u);
    EXPECT_EQ(ok.move_x, -kAxisMax);
    EXPECT_EQ(ok.move_y, -kAxisMax);
    EXPECT_EQ(ok.buttons, kFire);
    EXPECT_EQ(ok.view_delay, kMaxViewDelay);
    violations = 0;
    Input good;
    good.move_x = kAxisMax;
    good.buttons = kAllButtons;
    EXPECT_EQ(ArenaGame::sanitize(good, violations), good);
    EXPECT_EQ(violations, 0u);
}

TEST(Input, WritingAnInvalidInputFails) {
    for (int field = 0; field < 3; ++field) {
        Input in;
        if (field == 0) in.move_x = -128;
        if (field == 1) in.buttons = 0x80;
        if (field == 2) in.view_delay = kMaxViewDelay + 1;
        std::array<std::uint8_t, 16> buf{};
        rwd::wire::WriteStream w(buf);
        EXPECT_FALSE(serialize(w, in)) << field;
    }
}

TEST(Input, ReadingRejectsOutOfRangeAxesAndTruncatedData) {
    // Offset 255 in the 8-bit move_x field decodes above +127: rejected, never wrapped.
    std::array<std::uint8_t, 8> bytes{};
    bytes.fill(0xFF);
    rwd::wire::ReadStream r(bytes);
    Input in;
    EXPECT_FALSE(serialize(r, in));
    std::array<std::uint8_t, 3> shorty{};
    rwd::wire::ReadStream r2(shorty);
    EXPECT_FALSE(serialize(r2, in));
}

TEST(Input, NeutralInputIsTheDefault) {
    const Input in{};
    EXPECT_EQ(in.move_x, 0);
    EXPECT_EQ(in.buttons, 0);
    EXPECT_FALSE(ArenaGame::fires(in));
}

TEST(Input, AnOriginTravelsOnlyWithFire) {
    Input shot;
    shot.buttons = kFire;
    shot.has_origin = true;
    shot.origin_x = 12345;
    shot.origin_y = 54321;
    std::array<std::uint8_t, 16> buf{};
    rwd::wire::WriteStream w(buf);
    ASSERT_TRUE(serialize(w, shot));
    EXPECT_EQ(w.bits_used(), 91u);
    w.flush();
    rwd::wire::ReadStream r(w.data());
    Input back;
    ASSERT_TRUE(serialize(r, back));
    EXPECT_EQ(back, shot);

    // Without fire an origin is invalid: writing it fails, the sanitizer drops it and counts it.
    Input stray = shot;
    stray.buttons = kDash;
    std::array<std::uint8_t, 16> buf2{};
    rwd::wire::WriteStream w2(buf2);
    EXPECT_FALSE(serialize(w2, stray) && w2.ok());
    std::uint32_t violations = 0;
    const Input clean = ArenaGame::sanitize(stray, violations);
    EXPECT_FALSE(clean.has_origin);
    EXPECT_EQ(clean.origin_x, 0);
    EXPECT_EQ(clean.origin_y, 0);
    EXPECT_EQ(violations, 1u);
}

}  // namespace
}  // namespace arena
