// Tests for SequenceBuffer: window semantics, invalidation as the window slides, and behaviour across the
// wrap.
#include <rewind/core/sequence.hpp>
#include <rewind/core/sequence_buffer.hpp>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace rwd {
namespace {

struct Entry {
    int value = 0;
};

TEST(SequenceBuffer, EmptyFindsNothing) {
    SequenceBuffer<Entry, 8> buf;
    EXPECT_FALSE(buf.has_newest());
    EXPECT_EQ(buf.capacity(), 8u);
    for (std::uint32_t s = 0; s < 65536; s += 97) EXPECT_FALSE(buf.exists(static_cast<Seq16>(s)));
    EXPECT_FALSE(buf.is_too_old(12345));
}

TEST(SequenceBuffer, InsertFindRemove) {
    SequenceBuffer<Entry, 16> buf;
    Entry* e = buf.insert(100);
    ASSERT_NE(e, nullptr);
    e->value = 7;
    EXPECT_TRUE(buf.has_newest());
    EXPECT_EQ(buf.newest(), 100);
    ASSERT_NE(buf.find(100), nullptr);
    EXPECT_EQ(buf.find(100)->value, 7);
    EXPECT_FALSE(buf.exists(101));
    EXPECT_FALSE(buf.exists(100 + 16)) << "same slot, different sequence";
    const auto& cbuf = buf;
    EXPECT_EQ(cbuf.find(100)->value, 7);
    buf.remove(116);  // not present: no effect on 100
    EXPECT_TRUE(buf.exists(100));
    buf.remove(100);
    EXPECT_FALSE(buf.exists(100));
    EXPECT_EQ(buf.newest(), 100) << "remove does not move the window";
}

TEST(SequenceBuffer, InsertResetsAnExistingEntry) {
    SequenceBuffer<Entry, 4> buf;
    buf.insert(3)->value = 9;
    Entry* again = buf.insert(3);
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->value, 0);
}

TEST(SequenceBuffer, InsertWithAValueStoresACopyUnderTheSameWindowRules) {
    SequenceBuffer<Entry, 8> buf;
    Entry* e = buf.insert(40, Entry{5});
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->value, 5);
    EXPECT_EQ(buf.find(40), e);
    EXPECT_EQ(buf.insert(40, Entry{6})->value, 6) << "a second insert replaces the entry";
    EXPECT_EQ(buf.insert(40)->value, 0) << "and insert(key) still value-initializes over it";
    EXPECT_EQ(buf.insert(32, Entry{1}), nullptr) << "40 - 8 is out of the window";
    ASSERT_NE(buf.insert(47, Entry{2}), nullptr);
    EXPECT_EQ(buf.find(47)->value, 2);
    ASSERT_NE(buf.insert(48, Entry{3}), nullptr);
    EXPECT_FALSE(buf.exists(40)) << "the window slid past 40";
}

TEST(SequenceBuffer, AFreshBufferHoldsNoEntryWhateverItsMemoryHeld) {
    // Slots are built by insert() only: an entry never inserted is never found, even where the buffer's
    // storage held another buffer's entries.
    alignas(SequenceBuffer<Entry, 8>) unsigned char storage[sizeof(SequenceBuffer<Entry, 8>)];
    auto* first = new (storage) SequenceBuffer<Entry, 8>();
    for (std::uint16_t s = 0; s < 8; ++s) first->insert(s, Entry{s + 100});
    first->~SequenceBuffer();
    auto* second = new (storage) SequenceBuffer<Entry, 8>();
    for (std::uint16_t s = 0; s < 8; ++s) EXPECT_FALSE(second->exists(s));
    EXPECT_EQ(second->insert(3)->value, 0);
    second->~SequenceBuffer();
}

// A flat entry whose value-initialization throws (its copy is trivial, so it is built in place).
struct ThrowsWhenFresh {
    ThrowsWhenFresh() { throw std::runtime_error("fresh"); }
    explicit ThrowsWhenFresh(int v) : value(v) {}
    int value;
};

TEST(SequenceBuffer, AnEntryThatFailsToBuildLeavesNoEntry) {
    static_assert(std::is_trivially_copyable_v<ThrowsWhenFresh>);
    SequenceBuffer<ThrowsWhenFresh, 8> buf;
    ASSERT_NE(buf.insert(3, ThrowsWhenFresh{5}), nullptr);
    EXPECT_THROW(buf.insert(3), std::runtime_error);
    EXPECT_FALSE(buf.exists(3)) << "the slot's old entry was replaced, the new one never built";
    ASSERT_NE(buf.insert(3, ThrowsWhenFresh{6}), nullptr);
    EXPECT_EQ(buf.find(3)->value, 6);
}

TEST(SequenceBuffer, EntriesThatOwnMemoryFollowTheSameRules) {
    SequenceBuffer<std::vector<int>, 4> buf;
    ASSERT_NE(buf.insert(1, std::vector<int>{1, 2, 3}), nullptr);
    EXPECT_EQ(*buf.find(1), (std::vector<int>{1, 2, 3}));
    EXPECT_TRUE(buf.insert(1)->empty()) << "insert(key) resets an entry that owns memory too";
    buf.insert(2, std::vector<int>(100, 7));
    buf.insert(6, std::vector<int>{9});  // slides past 2: slot 2 is reused
    EXPECT_FALSE(buf.exists(2));
    EXPECT_EQ(*buf.find(6), std::vector<int>{9});
}

TEST(SequenceBuffer, CopiesWithItsEntriesAndTakesMoveOnlyEntries) {
    // An entry that is trivially destructible but not trivially copyable is held built, so the buffer copies.
    SequenceBuffer<std::pair<int, int>, 8> a;
    a.insert(3, std::pair<int, int>{1, 2});
    SequenceBuffer<std::pair<int, int>, 8> b;
    b = a;
    ASSERT_NE(b.find(3), nullptr);
    EXPECT_EQ(*b.find(3), (std::pair<int, int>{1, 2}));
    // A flat entry copies as bytes: inserted entries survive, the rest stay absent.
    SequenceBuffer<Entry, 8> c;
    c.insert(5, Entry{9});
    const SequenceBuffer<Entry, 8> d = c;
    EXPECT_EQ(d.find(5)->value, 9);
    EXPECT_FALSE(d.exists(4));
    // A move-only entry needs only insert(key).
    SequenceBuffer<std::unique_ptr<int>, 4> m;
    *m.insert(1) = std::make_unique<int>(7);
    EXPECT_EQ(**m.find(1), 7);
}

TEST(SequenceBuffer, RejectsTooOldAcceptsLateWithinWindow) {
    SequenceBuffer<Entry, 8> buf;
    ASSERT_NE(buf.insert(20), nullptr);
    EXPECT_NE(buf.insert(13), nullptr) << "20 - 7 is the oldest in the window";
    EXPECT_EQ(buf.insert(12), nullptr) << "20 - 8 is out";
    EXPECT_TRUE(buf.is_too_old(12));
    EXPECT_FALSE(buf.is_too_old(13));
    EXPECT_FALSE(buf.is_too_old(500)) << "newer is never too old";
    EXPECT_EQ(buf.newest(), 20);
    EXPECT_TRUE(buf.exists(13));
    EXPECT_TRUE(buf.exists(20));
}

TEST(SequenceBuffer, SlidingWindowDropsPassedEntries) {
    SequenceBuffer<Entry, 8> buf;
    for (Seq16 s = 0; s < 8; ++s) buf.insert(s)->value = s;
    for (Seq16 s = 0; s < 8; ++s) EXPECT_TRUE(buf.exists(s));
    buf.insert(10);  // window is now 3..10
    EXPECT_FALSE(buf.exists(0));
    EXPECT_FALSE(buf.exists(1));
    EXPECT_FALSE(buf.exists(2));
    for (Seq16 s = 3; s < 8; ++s) EXPECT_EQ(buf.find(s)->value, s);
    EXPECT_FALSE(buf.exists(8)) << "never inserted, slot cleared";
    EXPECT_FALSE(buf.exists(9));
    EXPECT_TRUE(buf.exists(10));
    buf.insert(100);  // jump of more than N: everything else is gone
    for (Seq16 s = 0; s < 100; ++s) EXPECT_FALSE(buf.exists(s)) << s;
    EXPECT_TRUE(buf.exists(100));
}

TEST(SequenceBuffer, WorksAcrossThe16BitWrap) {
    SequenceBuffer<Entry, 32> buf;
    for (std::uint32_t i = 0; i < 40; ++i) {
        const auto s = static_cast<Seq16>(65520u + i);
        buf.insert(s)->value = static_cast<int>(i);
    }
    const auto newest = static_cast<Seq16>(65520u + 39);  // 23 after wrapping
    EXPECT_EQ(buf.newest(), newest);
    for (std::uint32_t i = 0; i < 40; ++i) {
        const auto s = static_cast<Seq16>(65520u + i);
        if (i < 8) {
            EXPECT_FALSE(buf.exists(s)) << s;
            EXPECT_TRUE(buf.is_too_old(s)) << s;
        } else {
            ASSERT_TRUE(buf.exists(s)) << s;
            EXPECT_EQ(buf.find(s)->value, static_cast<int>(i));
        }
    }
    EXPECT_EQ(buf.insert(65527), nullptr) << "before the wrap and just out of the window";
    EXPECT_NE(buf.insert(65528), nullptr) << "the oldest sequence still in the window";
    EXPECT_NE(buf.insert(65535), nullptr) << "before the wrap but within the window";
}

TEST(SequenceBuffer, FarAheadTheShortWayRoundIsOld) {
    SequenceBuffer<Entry, 64> buf;
    buf.insert(10);
    EXPECT_EQ(buf.insert(static_cast<Seq16>(10 + 40000)), nullptr) << "40000 ahead reads as 25536 behind";
    EXPECT_EQ(buf.newest(), 10);
    EXPECT_NE(buf.insert(static_cast<Seq16>(10 + 30000)), nullptr);
    EXPECT_EQ(buf.newest(), static_cast<Seq16>(10 + 30000));
    EXPECT_FALSE(buf.exists(10));
}

TEST(SequenceBuffer, TickKeysAndUint32WrapAt2To32) {
    SequenceBuffer<int, 128, Tick> ticks;
    static_assert(std::is_same_v<decltype(ticks)::key_type, Tick>);
    Tick t{0xFFFFFFC0u};
    for (int i = 0; i < 200; ++i) *ticks.insert(t + i) = i;
    EXPECT_EQ(ticks.newest(), t + 199);
    EXPECT_FALSE(ticks.exists(t + 71));
    EXPECT_EQ(*ticks.find(t + 72), 72);
    ASSERT_NE(ticks.find(Tick{100}), nullptr);
    EXPECT_EQ(*ticks.find(Tick{100}), 164) << "Tick{100} is t + 164 after the wrap";
    EXPECT_FALSE(ticks.exists(Tick{0})) << "t + 64 fell out of the window";
    SequenceBuffer<int, 128, std::uint32_t> raw;
    *raw.insert(0xFFFFFFFFu) = 1;
    *raw.insert(5u) = 2;
    EXPECT_EQ(*raw.find(0xFFFFFFFFu), 1);
    EXPECT_EQ(raw.newest(), 5u);
    EXPECT_FALSE(raw.exists(0xFFFFFFFFu + 128u));
}

TEST(SequenceBuffer, ResetForgetsEverything) {
    SequenceBuffer<Entry, 8> buf;
    buf.insert(1000);
    buf.reset();
    EXPECT_FALSE(buf.has_newest());
    EXPECT_FALSE(buf.exists(1000));
    EXPECT_NE(buf.insert(3), nullptr) << "a fresh window starts anywhere";
    EXPECT_EQ(buf.newest(), 3);
}

// Model check: a std::map with the same window rules must agree with the buffer after any operation sequence,
// including long runs that wrap the 16-bit space.
RC_GTEST_PROP(SequenceBuffer, AgreesWithAMapModel, ()) {
    constexpr std::size_t kN = 16;
    SequenceBuffer<Entry, kN> buf;
    std::map<Seq16, int> model;
    bool has = false;
    Seq16 newest = *rc::gen::arbitrary<Seq16>();
    const auto ops = *rc::gen::container<std::vector<std::pair<int, int>>>(
        rc::gen::pair(rc::gen::inRange(0, 10), rc::gen::inRange(-40, 40)));
    int counter = 0;
    for (auto [op, delta] : ops) {
        const auto s = static_cast<Seq16>(newest + delta);
        if (op < 7) {  // insert
            Entry* e = buf.insert(s);
            const bool newer = !has || seq_greater(s, newest);
            const bool old = has && !newer && seq_diff(newest, s) >= static_cast<int>(kN);
            RC_ASSERT((e == nullptr) == old);
            if (e) {
                e->value = ++counter;
                if (newer) newest = s;
                has = true;
                model[s] = counter;
            }
        } else {  // remove
            buf.remove(s);
            model.erase(s);
        }
        for (auto it = model.begin(); it != model.end();) {  // the model's window rule
            it = seq_diff(newest, it->first) >= static_cast<int>(kN) ? model.erase(it) : std::next(it);
        }
        for (int d = -40; d <= 40; ++d) {
            const auto q = static_cast<Seq16>(newest + d);
            const auto m = model.find(q);
            const Entry* e = buf.find(q);
            RC_ASSERT((e != nullptr) == (m != model.end()));
            if (e) RC_ASSERT(e->value == m->second);
        }
    }
}

}  // namespace
}  // namespace rwd
