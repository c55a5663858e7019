/// rewind-lab in-process: options, a short seeded client-server run, its JSON and the exit code it implies.
#include "model.hpp"
#include "options.hpp"
#include "report.hpp"

#include <gtest/gtest.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

lab::LabOptions parse(std::vector<std::string> args) {
    lab::LabOptions o;
    CLI::App app;
    lab::add_options(app, o);
    args.insert(args.begin(), "rewind-lab");
    std::vector<const char*> argv;
    for (auto& a : args) argv.push_back(a.c_str());
    app.parse(static_cast<int>(argv.size()), argv.data());
    return o;
}

TEST(LabOptions, ProfileThenBothThenDirection) {
    const auto o =
        parse({"--profile", "checklist", "--loss", "10", "--up-latency", "30", "--down-jitter", "0"});
    ASSERT_TRUE(o.validate().ok());
    const auto up = lab::up_link(o).value();
    const auto down = lab::down_link(o).value();
    EXPECT_EQ(up.latency.count, 30'000);
    EXPECT_EQ(down.latency.count, 100'000);
    EXPECT_EQ(up.jitter.count, 20'000);
    EXPECT_EQ(down.jitter.count, 0);
    EXPECT_DOUBLE_EQ(up.loss, 0.10);
    EXPECT_DOUBLE_EQ(down.loss, 0.10);
}

TEST(LabOptions, TickRateTheArenaDoesNotRunAtIsRefused) {
    EXPECT_TRUE(parse({"--tick-rate", "60"}).validate().ok());
    for (const char* rate : {"30", "120"}) {
        const auto s = parse({"--tick-rate", rate}).validate();
        ASSERT_FALSE(s.ok()) << rate;
        EXPECT_NE(s.error().detail.find("only at 60 Hz"), std::string::npos) << s.error().detail;
    }
}

/// True when the command line is refused: by the parser's own checks (CLI11) or by validate().
bool refused(std::vector<std::string> args) {
    try {
        return !parse(std::move(args)).validate().ok();
    } catch (const CLI::ParseError&) {
        return true;
    }
}

TEST(LabOptions, BadValuesAreRefused) {
    EXPECT_TRUE(refused({"--players", "0"}));
    EXPECT_TRUE(refused({"--profile", "nowhere"}));
    EXPECT_TRUE(refused({"--loss", "150"}));
    EXPECT_TRUE(refused({"--snapshot-rate", "90"}));
    EXPECT_TRUE(refused({"--model", "rollback", "--players", "5"}));
    EXPECT_TRUE(refused({"--model", "lockstep", "--players", "1"}));
    EXPECT_TRUE(refused({"--max-compensated-rtt-ms", "1001"}));
    EXPECT_FALSE(refused({"--model", "rollback", "--players", "4"}));
    EXPECT_FALSE(refused({"--model", "rollback"}));  // its own default, 2 peers
    EXPECT_EQ(parse({"--model", "rollback"}).player_count(), 2);
    EXPECT_EQ(parse({}).player_count(), 8);
    EXPECT_EQ(lab::find_model("teleport"), nullptr);
    ASSERT_NE(lab::find_model("client-server"), nullptr);
}

TEST(LabRun, ShortChecklistRunHasEveryFigureAndAnHonestExitCode) {
    const std::uint64_t seed = 7;
    SCOPED_TRACE("seed=" + std::to_string(seed));
    auto o = parse({"--players", "4", "--duration", "10", "--seed", std::to_string(seed), "--quiet"});
    ASSERT_TRUE(o.validate().ok());
    const lab::ModelResult r = lab::find_model(o.model)->run(o);
    const nlohmann::json j = lab::report_json(o, r);
    for (const char* key : {"model", "options", "header", "figures", "checklist", "passed", "failed"})
        EXPECT_TRUE(j.contains(key)) << key;
    for (const char* pass : {"main", "zero_latency", "shared_step", "loss_10"}) {
        const auto& p = j["figures"]["passes"][pass];
        for (const char* key : {"tick", "clock", "prediction", "inputs", "latency", "shared", "interp",
                                "authority", "channel", "shots", "bandwidth"})
            EXPECT_TRUE(p.contains(key)) << pass << "." << key;
        for (const char* key : {"late_share", "buffer_depth_ticks", "added_latency_ms"})
            EXPECT_TRUE(p["inputs"].contains(key)) << pass << ".inputs." << key;
        for (const char* key : {"input_to_apply_ms", "view_age_ms"})
            EXPECT_TRUE(p["latency"].contains(key)) << pass << ".latency." << key;
        for (const char* key : {"drain_ms", "deaths_on_server", "deaths_expected", "deaths_delivered"})
            EXPECT_TRUE(p["channel"].contains(key)) << pass << ".channel." << key;
        for (const char* key : {"beyond_limit_share", "server_beyond_limit", "rewind_limit_ms"})
            EXPECT_TRUE(p["shots"].contains(key)) << pass << ".shots." << key;
        EXPECT_EQ(p["playing"].get<int>(), p["players"].get<int>()) << pass;
    }
    EXPECT_FALSE(j["figures"]["passes"]["main"]["series"].empty());
    EXPECT_EQ(j["checklist"].size(), 13u);  // 12 graded rows and the end-to-end latency row
    EXPECT_GT(j["figures"]["passes"]["main"]["latency"]["input_to_apply_ms"]["count"].get<int>(), 0);
    EXPECT_GT(j["figures"]["passes"]["main"]["latency"]["view_age_ms"]["count"].get<int>(), 0);
    for (const auto& row : j["checklist"]) {
        EXPECT_TRUE(row.contains("why"));
        if (row["graded"].get<bool>() && !row["pass"].get<bool>()) {
            EXPECT_FALSE(row["why"].get<std::string>().empty()) << row["item"].get<std::string>();
        }
    }
    // Properties that do not depend on tuning: one shared step, server authority, channels.
    for (const auto& row : j["checklist"]) {
        const std::string item = row["item"];
        if (item.rfind("4 ", 0) == 0 || item.rfind("6 ", 0) == 0 || item.rfind("7 ", 0) == 0) {
            EXPECT_TRUE(row["pass"].get<bool>()) << item << ": " << row["measured"].get<std::string>();
        }
    }
    // The exit code is the verdict: 0 only when every graded item passed.
    std::FILE* sink = std::tmpfile();
    ASSERT_NE(sink, nullptr);
    const int code = lab::report(o, r, sink);
    std::fclose(sink);
    EXPECT_EQ(code, r.verdict.failed() == 0 ? 0 : 1);
}

TEST(LabRun, NoRewindAllowedFailsLagCompensation) {
    // A real configuration, not a test hook: with a 0 ms rewind cap the server cannot honour what shooters
    // saw.
    auto o = parse({"--players", "4", "--duration", "10", "--seed", "7", "--max-rewind-ms", "0", "--quiet"});
    ASSERT_TRUE(o.validate().ok());
    const lab::ModelResult r = lab::find_model(o.model)->run(o);
    bool found = false;
    for (const auto& g : r.verdict.grades)
        if (g.item.rfind("8 ", 0) == 0) {
            found = true;
            EXPECT_FALSE(g.pass) << g.measured;
        }
    EXPECT_TRUE(found);
    std::FILE* sink = std::tmpfile();
    ASSERT_NE(sink, nullptr);
    EXPECT_EQ(lab::report(o, r, sink), 1);
    std::fclose(sink);
}

}  // namespace
