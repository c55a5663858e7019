// test_soak: the soak runs as GoogleTest tests (the client-server one cuts a bot's link once a minute).
// Without options it runs the short version (CTest, `make test`); `make soak` passes --clients 64 --minutes
// 60 for the hour. Options: --seed N --clients N --minutes M (both soaks) or --cs-minutes M / --rb-minutes M,
// --peers N, --sample-seconds S.
#include "soak/cs_soak.hpp"
#include "soak/rb_soak.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

using soak::SoakOptions;

class CsSoak : public testing::Test {
public:
    explicit CsSoak(SoakOptions o) : o_(o) {}
    void TestBody() override {
        SCOPED_TRACE("seed=" + std::to_string(o_.seed));
        const soak::CsSoakReport r = soak::run_cs_soak(o_);
        std::printf("[ soak ] %s\n", r.summary.c_str());
        ASSERT_EQ(r.playing_at_end, r.clients) << "every bot plays to the end";
        EXPECT_GE(r.simulated_seconds, o_.cs_minutes * 60.0 - 1.0);
        EXPECT_GT(r.events_checked, 0u);
        EXPECT_EQ(r.event_mismatches, 0u) << "a client's events differ from the server's log";
        EXPECT_EQ(r.events_out_of_sequence, 0u);
        EXPECT_GT(r.chats_checked, 0u);
        EXPECT_EQ(r.chat_gaps, 0u) << "a bot's chat lines reached someone out of order, twice or not at all";
        EXPECT_EQ(r.client_disconnects, 0u);
        // A reconnect a minute: each one gets its seat back and loses nothing, either way.
        EXPECT_GE(r.outages, static_cast<std::uint64_t>(o_.cs_minutes));
        EXPECT_EQ(r.client_reconnects, r.outages);
        EXPECT_EQ(r.client_resumes, r.outages);
        EXPECT_EQ(r.server_resumes, r.outages);
        EXPECT_EQ(r.resume_resyncs, 0u);
        EXPECT_EQ(r.messages_unsent, 0u);
        EXPECT_EQ(r.untracked_resumes, 0u);
        EXPECT_EQ(r.server_disconnects, 0u);
        EXPECT_EQ(r.server_malformed, 0u);
        EXPECT_EQ(r.client_malformed, 0u);
        EXPECT_GT(r.shots, 0u) << "the bots fought";
        EXPECT_TRUE(r.heap.plateaus(o_.heap_slack, o_.heap_slack_bytes))
            << "heap keeps growing: early peak " << r.heap.early_peak() << " late peak "
            << r.heap.late_peak();
    }

private:
    SoakOptions o_;
};

class RbSoak : public testing::Test {
public:
    explicit RbSoak(SoakOptions o) : o_(o) {}
    void TestBody() override {
        SCOPED_TRACE("seed=" + std::to_string(o_.seed));
        const soak::RbSoakReport r = soak::run_rb_soak(o_);
        std::printf("[ soak ] %s\n", r.summary.c_str());
        ASSERT_TRUE(r.running) << "the mesh never started";
        EXPECT_GE(r.simulated_seconds, o_.rb_minutes * 60.0 - 1.0);
        EXPECT_GT(r.frames_compared, 0u);
        EXPECT_EQ(r.checksum_mismatches, 0u) << "peers desynced";
        EXPECT_EQ(r.frames_missed, 0u);
        EXPECT_EQ(r.desync_events, 0u);
        EXPECT_EQ(r.disconnect_events, 0u);
        EXPECT_EQ(r.malformed, 0u);
        EXPECT_TRUE(r.heap.plateaus(o_.heap_slack, o_.heap_slack_bytes))
            << "heap keeps growing: early peak " << r.heap.early_peak() << " late peak "
            << r.heap.late_peak();
    }

private:
    SoakOptions o_;
};

bool parse(int argc, char** argv, SoakOptions& o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (i + 1 >= argc) return false;
        const char* v = argv[++i];
        if (a == "--seed")
            o.seed = std::strtoull(v, nullptr, 10);
        else if (a == "--clients")
            o.cs_clients = std::atoi(v);
        else if (a == "--peers")
            o.rb_peers = std::atoi(v);
        else if (a == "--minutes")
            o.cs_minutes = o.rb_minutes = std::atof(v);
        else if (a == "--cs-minutes")
            o.cs_minutes = std::atof(v);
        else if (a == "--rb-minutes")
            o.rb_minutes = std::atof(v);
        else if (a == "--sample-seconds")
            o.sample_seconds = std::atof(v);
        else
            return false;
    }
    return o.cs_clients >= 1 && o.cs_clients <= 64 && o.rb_peers >= 2 && o.rb_peers <= 8 &&
           o.sample_seconds > 0;
}

}  // namespace

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);  // takes the --gtest_ flags out
    SoakOptions o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr,
                     "usage: test_soak [--seed N] [--clients 1..64] [--peers 2..8] [--minutes M] "
                     "[--cs-minutes M] [--rb-minutes M] [--sample-seconds S]\n");
        return 2;
    }
    if (o.cs_minutes > 0)
        testing::RegisterTest("Soak", "ClientServer", nullptr, nullptr, __FILE__, __LINE__,
                              [o]() -> testing::Test* { return new CsSoak(o); });
    if (o.rb_minutes > 0)
        testing::RegisterTest("Soak", "Rollback", nullptr, nullptr, __FILE__, __LINE__,
                              [o]() -> testing::Test* { return new RbSoak(o); });
    return RUN_ALL_TESTS();
}
