// FramePacer: frames due at the nominal rate times the session's speed, a stall's backlog capped.
#include <rewind/session/rollback/frame_pacer.hpp>

#include <gtest/gtest.h>

#include <limits>

namespace {

using rwd::Micros;
using rwd::rollback::FramePacer;

int run_for(FramePacer& p, Micros& now, Micros duration, Micros step, double speed) {
    int frames = 0;
    for (const Micros end = now + duration; now < end;) {
        now += step;
        for (int due = p.due(now, speed); due > 0; --due, ++frames) p.ran();
    }
    return frames;
}

TEST(FramePacer, SixtyFramesASecondAtSpeedOne) {
    FramePacer p(Micros{16'667});
    Micros now{5'000'000};
    EXPECT_EQ(p.due(now, 1.0), 0);                                           // starts the clock
    EXPECT_EQ(run_for(p, now, Micros{10'000'000}, Micros{1000}, 1.0), 599);  // 10 s / 16.667 ms, rounded down
}

TEST(FramePacer, FollowsTheRecommendedSpeed) {
    FramePacer p(Micros{10'000});
    Micros now{};
    (void)p.due(now, 1.0);
    EXPECT_EQ(run_for(p, now, Micros{1'000'000}, Micros{2000}, 0.95), 95);
    EXPECT_EQ(run_for(p, now, Micros{1'000'000}, Micros{2000}, 1.05), 105);
}

TEST(FramePacer, AStallOwesOnlyTheBacklogCap) {
    FramePacer p(Micros{10'000}, 4);
    Micros now{};
    (void)p.due(now, 1.0);
    now += Micros{2'000'000};  // a two-second stall
    EXPECT_EQ(p.due(now, 1.0), 4);
    EXPECT_EQ(p.due(now, 1.0), 4);  // nothing ran: still owed, not more
    p.ran();
    EXPECT_EQ(p.due(now, 1.0), 3);
    now -= Micros{50'000};  // a clock going backwards adds nothing
    EXPECT_EQ(p.due(now, 1.0), 3);
}

TEST(FramePacer, ANonFiniteSpeedCountsAsOne) {
    FramePacer p(Micros{10'000});
    Micros now{};
    (void)p.due(now, 1.0);
    now += Micros{20'000};
    EXPECT_EQ(p.due(now, std::numeric_limits<double>::quiet_NaN()), 2);
    now += Micros{10'000};
    EXPECT_EQ(p.due(now, std::numeric_limits<double>::infinity()), 3);
}

}  // namespace
