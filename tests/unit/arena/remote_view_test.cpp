// Owner-only fields: what other clients receive of a player, and the codec's one bit for the part they lack.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include <rewind/wire/stream.hpp>

#include "arena_test_util.hpp"

namespace arena::test {
namespace {

EntitySnapshot busy_player() {
    EntitySnapshot e;
    e.kind = EntityKind::kPlayer;
    e.flags = kPresent | kAlive;
    e.x = meters(10);
    e.y = meters(12);
    e.vx = 40;
    e.aim = 1234;
    e.hp = 80;
    e.ammo = 7;
    e.fire_cooldown = 3;
    e.alt_cooldown = 20;
    e.reload_timer = 0;
    e.dash_timer = 2;
    e.dash_cooldown = 30;
    e.shots = 9;
    e.score = 4;
    e.deaths = 1;
    e.rng = {0x1234, 0x5678};
    return e;
}

std::size_t full_bits(EntitySnapshot e) {
    rwd::wire::MeasureStream m;
    EXPECT_TRUE(serialize(m, e));
    return m.bits_used();
}

std::size_t delta_bits(EntitySnapshot e, const EntitySnapshot& base) {
    rwd::wire::MeasureStream m;
    EXPECT_TRUE(serialize_delta(m, e, base));
    return m.bits_used();
}

template <class Fn>
std::vector<std::uint8_t> bytes_of(Fn&& fn) {
    std::vector<std::uint8_t> buf(128);
    rwd::wire::WriteStream w{std::span<std::uint8_t>(buf)};
    EXPECT_TRUE(fn(w));
    w.flush();
    buf.resize(w.bytes_used());
    return buf;
}

TEST(RemoteView, OthersReceiveWhatTheyDrawAndNothingOfTheOwnersWeapons) {
    const EntitySnapshot e = busy_player();
    const EntitySnapshot r = ArenaGame::remote_view(e);
    EXPECT_EQ(r.ammo, 0);
    EXPECT_EQ(r.fire_cooldown, 0);
    EXPECT_EQ(r.alt_cooldown, 0);
    EXPECT_EQ(r.dash_cooldown, 0);
    EXPECT_EQ(r.shots, 0);
    EXPECT_EQ(r.rng, (std::array<std::uint64_t, 2>{}));
    // Everything drawn or moved stays.
    EXPECT_EQ(r.x, e.x);
    EXPECT_EQ(r.vx, e.vx);
    EXPECT_EQ(r.aim, e.aim);
    EXPECT_EQ(r.hp, e.hp);
    EXPECT_EQ(r.dash_timer, e.dash_timer);
    EXPECT_EQ(r.score, e.score);
    // A dead player keeps its generator: it picks where the player respawns, which every client predicts.
    EntitySnapshot dead = e;
    dead.flags = kPresent;
    dead.respawn_timer = 50;
    EXPECT_EQ(ArenaGame::remote_view(dead).rng, dead.rng);
    // Projectiles have no owner-only fields.
    EntitySnapshot rocket;
    rocket.kind = EntityKind::kProjectile;
    rocket.x = 5;
    rocket.ttl = 30;
    EXPECT_EQ(ArenaGame::remote_view(rocket), rocket);
}

TEST(RemoteView, TheOwnerOnlyPartCostsOneBitWhenAbsentOrUnchanged) {
    const EntitySnapshot e = busy_player();
    const EntitySnapshot r = ArenaGame::remote_view(e);
    // In full: the 7 owner-only fields (4+3+6+7+7+16+128 bits) are left out behind the one bit.
    EXPECT_EQ(full_bits(e) - full_bits(r), 4u + 3u + 6u + 7u + 7u + 16u + 128u);
    // As a delta: a remote view moving along costs the same bits as the owner's entity with its weapons
    // unchanged, and the owner's fields changing cost their group bits behind the one bit.
    EntitySnapshot moved = r;
    moved.x += 3;
    EXPECT_EQ(delta_bits(moved, r), delta_bits(
                                        [&] {
                                            EntitySnapshot m = e;
                                            m.x += 3;
                                            return m;
                                        }(),
                                        e));
    EntitySnapshot fired = e;
    fired.ammo = 6;
    EXPECT_EQ(delta_bits(fired, e), delta_bits(e, e) + 7u + 4u);  // the 7 group bits and 4 bits of ammo
}

TEST(RemoteView, RoundTripsAndRefusesAnOwnerPartThatSaysNothing) {
    for (const EntitySnapshot& v : {busy_player(), ArenaGame::remote_view(busy_player())}) {
        EntitySnapshot copy = v;
        const auto full = bytes_of([&](auto& w) { return serialize(w, copy); });
        rwd::wire::ReadStream rd(full);
        EntitySnapshot back;
        ASSERT_TRUE(serialize(rd, back));
        EXPECT_EQ(back, v);
        EntitySnapshot changed = v;
        changed.hp = 10;
        changed.ammo = v.ammo == 0 ? 0 : 2;
        const auto delta = bytes_of([&](auto& w) { return serialize_delta(w, changed, v); });
        rwd::wire::ReadStream rd2(delta);
        EntitySnapshot back2;
        ASSERT_TRUE(serialize_delta(rd2, back2, v));
        EXPECT_EQ(back2, changed);
    }
    // Hand-made: a remote view whose owner-part bit is set but every owner field is zero.
    const EntitySnapshot r = ArenaGame::remote_view(busy_player());
    std::vector<std::uint8_t> buf(64);
    rwd::wire::WriteStream w{std::span<std::uint8_t>(buf)};
    EntitySnapshot copy = r;
    ASSERT_TRUE(rwd::wire::serialize_enum(w, copy.kind, EntityKind::kProjectile));
    ASSERT_TRUE(detail::serialize_motion(w, copy));
    // flags, aim, hp, dash timer, respawn timer, score, deaths in full, then "owner part present".
    ASSERT_TRUE(rwd::wire::serialize_int(w, copy.flags, std::uint8_t{0}, kAllPlayerFlags));
    ASSERT_TRUE(detail::serialize_u16(w, copy.aim, 0xFFFF));
    ASSERT_TRUE(rwd::wire::serialize_int(w, copy.hp, std::int16_t{0}, kMaxHp));
    ASSERT_TRUE(detail::serialize_u16(w, copy.dash_timer, kDashTicks));
    ASSERT_TRUE(detail::serialize_u16(w, copy.respawn_timer, kRespawnTicks));
    ASSERT_TRUE(detail::serialize_i32_raw(w, copy.score));
    ASSERT_TRUE(detail::serialize_i32_raw(w, copy.deaths));
    bool present = true;
    ASSERT_TRUE(rwd::wire::serialize_bool(w, present));
    EntitySnapshot zeros{};
    ASSERT_TRUE(rwd::wire::serialize_int(w, zeros.ammo, std::uint8_t{0}, kRifleMagazine));
    ASSERT_TRUE(detail::serialize_u16(w, zeros.fire_cooldown, kRifleInterval));
    ASSERT_TRUE(detail::serialize_u16(w, zeros.alt_cooldown, kRocketCooldown));
    ASSERT_TRUE(detail::serialize_u16(w, zeros.reload_timer, kReloadTicks));
    ASSERT_TRUE(detail::serialize_u16(w, zeros.dash_cooldown, kDashCooldown));
    ASSERT_TRUE(detail::serialize_u16(w, zeros.shots, 0xFFFF));
    ASSERT_TRUE(rwd::wire::serialize_uint64(w, zeros.rng[0]) && rwd::wire::serialize_uint64(w, zeros.rng[1]));
    w.flush();
    buf.resize(w.bytes_used());
    rwd::wire::ReadStream rd(buf);
    EntitySnapshot back;
    EXPECT_FALSE(serialize(rd, back));
    EXPECT_EQ(rd.error(), rwd::Errc::malformed);
}

}  // namespace
}  // namespace arena::test
