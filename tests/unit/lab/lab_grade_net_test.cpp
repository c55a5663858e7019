/// rewind-lab's grading on the scenario's network: late inputs and visible own corrections (item 3), events
/// and deaths (item 7), registration on the scenario (item 8), failure reasons, and the event bookkeeping.
#include "cs_events.hpp"
#include "cs_grade.hpp"
#include "grade.hpp"
#include "lab_figures_fixture.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using lab::CsFigures;
using lab_test::passing;
using lab_test::row;

/// Grades `f`; the row starting with `item` must pass or fail as told, and fail alone with a reason
/// containing `why`.
void expect_row(const CsFigures& f, const std::string& item, bool pass, const std::string& why = {}) {
    const lab::Verdict v = lab::grade_client_server(f, lab::CsRules{});
    const lab::Grade& g = row(v, item);
    EXPECT_EQ(g.pass, pass) << g.measured << " / " << g.why;
    EXPECT_EQ(v.failed(), pass ? 0 : 1);
    if (pass) {
        EXPECT_TRUE(g.why.empty()) << g.why;
    } else {
        EXPECT_NE(g.why.find(why), std::string::npos) << "why: " << g.why;
    }
}

TEST(LabGradeNet, LateInputsAreGradedOnTheScenario) {
    auto f = passing();
    f.main.inputs.late_share = 0.005;  // exactly the bound
    expect_row(f, "3 ", true);
    f.main.inputs.late_share = 0.0051;
    expect_row(f, "3 ", false, "late inputs 0.51 % > 0.5 %");
    f = passing();
    f.main.inputs.ticks_simulated = 0;
    expect_row(f, "3 ", false, "no inputs applied");
}

TEST(LabGradeNet, AVisibleOwnCorrectionFailsPrediction) {
    auto f = passing();
    f.main.prediction.own_visible = 1;
    f.main.prediction.own_visible_per_player_minute = 0.125;
    expect_row(f, "3 ", false, "1 own corrections >= 1 px (0.12 per player-minute)");
    // Below a pixel they are printed, not failed.
    f = passing();
    f.main.prediction.own = 40;
    expect_row(f, "3 ", true);
}

TEST(LabGradeNet, ScenarioRegistrationMustReach99Percent) {
    auto f = passing();
    f.main.shots.registered = 99;
    f.main.shots.not_registered = 1;
    expect_row(f, "8 ", true);
    f.main.shots.registered = 98;
    f.main.shots.not_registered = 2;
    expect_row(f, "8 ", false, "registration 98.0 % < 99 %");
}

TEST(LabGradeNet, MissesFromAnRttBeyondFullCompensationSayWhy) {
    auto f = passing();
    auto& s = f.main.shots;
    s.max_rewind_ms = -1;  // each client's own limit
    s.max_compensated_rtt_ms = 250;
    s.registered = 91;
    s.not_registered = 9;
    s.beyond_limit_share = 0.999;
    s.rewind_ms.median = 410;
    s.rewind_limit_ms.median = 373;
    f.main.clock.rtt_ms.median = 312;
    expect_row(
        f, "8 ", false,
        "registration 91.0 % < 99 % (median RTT 312 ms is beyond the 250 ms compensated in full: 99.9 % of "
        "shots were judged at the rewind limit, 37 ms after the view the shooter aimed at");
    // The same misses from a client within full compensation are not explained away by its RTT.
    f.main.clock.rtt_ms.median = 240;
    EXPECT_EQ(row(lab::grade_client_server(f, lab::CsRules{}), "8 ").why, "registration 91.0 % < 99 %");
}

TEST(LabGradeNet, HitsBeyondTheFixedCapNoLongerExcuseTheScenario) {
    auto f = passing();
    f.main.shots.registered = 60;
    f.main.shots.not_registered = 40;
    f.main.shots.beyond_cap_judged = 100;  // every hit needed more rewind than the cap: graded all the same
    expect_row(f, "8 ", false, "registration 60.0 % < 99 %");
}

TEST(LabGradeNet, HitsOnTargetsDeadOnTheServerAreLeftOut) {
    auto f = passing();
    f.main.shots.registered = 100;
    f.main.shots.not_registered = 30;
    f.main.shots.target_dead_on_server = 20;
    f.main.shots.shooter_dead_on_server = 10;
    expect_row(f, "8 ", true);
}

TEST(LabGradeNet, TooFewScenarioHitsAreNotAPass) {
    auto f = passing();
    f.main.shots.registered = 19;
    expect_row(f, "8 ", false, "scenario: 19 judged hits < 20");
}

TEST(LabGradeNet, ZeroLatencyStillGradedAt95Percent) {
    auto f = passing();
    f.zero_latency.shots.registered = 95;
    f.zero_latency.shots.not_registered = 5;
    f.zero_latency.shots.target_dead_on_server = 0;
    expect_row(f, "8 ", true);
    f.zero_latency.shots.registered = 94;
    f.zero_latency.shots.not_registered = 6;
    expect_row(f, "8 ", false, "0 ms registration 94.0 % < 95 %");
}

TEST(LabGradeNet, EveryLyingProbeShotMustBeClamped) {
    auto f = passing();
    f.main.shots.probe_clamped = 49;
    expect_row(f, "8 ", false, "49 of 50 probe lying shots clamped");
    f = passing();
    f.main.shots.probe_stale_shots = f.main.shots.probe_clamped = 0;
    expect_row(f, "8 ", false, "no lying shots");
}

TEST(LabGradeNet, EveryDeathOnceInOrderAtEveryClient) {
    auto f = passing();
    f.loss_10.channel.deaths_delivered = 127;
    f.loss_10.channel.deaths_missing = 1;
    expect_row(f, "7 ", false, "10% loss: deaths 127 of 128 delivered in order (1 missing");
    f = passing();
    f.main.channel.deaths_delivered = 479;
    f.main.channel.deaths_wrong = 1;
    expect_row(f, "7 ", false, "scenario: deaths 479 of 480");
    f = passing();
    f.main.channel.deaths_extra = 1;
    expect_row(f, "7 ", false, "1 extra");
    f = passing();
    f.loss_10.channel.death_receivers = 0;
    expect_row(f, "7 ", false, "no client to check deaths on");
    // A pass without deaths is not a failure: there was nothing to deliver.
    f = passing();
    f.loss_10.channel.deaths_expected = f.loss_10.channel.deaths_delivered = 0;
    expect_row(f, "7 ", true);
}

TEST(LabGradeNet, EventsBeforeTheDrainWindowAllArrive) {
    auto f = passing();
    f.loss_10.channel.events_received = 899;
    expect_row(f, "7 ", false, "events 899 of 900 received once, in order");
    f = passing();
    f.loss_10.channel.events_sent = f.loss_10.channel.events_received = 0;
    expect_row(f, "7 ", false, "no events sent");
}

TEST(LabGradeNet, TheLatencyRowIsShownNotGraded) {
    auto f = passing();
    f.main.latency.input_to_apply_ms = {100, 150, 147, 160, 163, 170};
    f.main.latency.view_age_ms = {100, 210, 210, 230, 237, 250};
    const lab::Verdict v = lab::grade_client_server(f, lab::CsRules{});
    const lab::Grade& g = row(v, "- End-to-end latency");
    EXPECT_FALSE(g.graded);
    EXPECT_NE(g.measured.find("median 147 ms, p99 163 ms"), std::string::npos) << g.measured;
    EXPECT_NE(g.measured.find("median 210 ms, p99 237 ms"), std::string::npos) << g.measured;
}

TEST(LabGradeNet, AFailedRowPrintsItsReasons) {
    lab::Checks c;
    EXPECT_TRUE(c.need(true, "never shown"));
    EXPECT_FALSE(c.need(false, "registration %.1f %% < %d %%", 64.7, 99));
    EXPECT_FALSE(c.need(false, "second"));
    EXPECT_EQ(c.why(), "registration 64.7 % < 99 %; second");
    lab::Verdict v;
    v.add("8 Lag compensation", "f", "m", "t", c);
    ASSERT_EQ(v.grades.size(), 1u);
    EXPECT_FALSE(v.grades[0].pass);
    std::FILE* out = std::tmpfile();
    ASSERT_NE(out, nullptr);
    lab::print_verdict(v, out);
    std::rewind(out);
    std::string text(4096, '\0');
    text.resize(std::fread(text.data(), 1, text.size(), out));
    std::fclose(out);
    EXPECT_NE(text.find("why: registration 64.7 % < 99 %; second"), std::string::npos) << text;
}

TEST(LabEvents, WhatTheServerSentIsEveryDeathOfItsFinalTicksOnceInTickOrderButForReplays) {
    using arena::Weapon;
    using Sent = std::vector<lab::SentDeath>;
    constexpr std::uint32_t kWindow = 8;
    const lab::DeathRecord a{10, 1, 2, Weapon::rifle}, b{20, 3, 1, Weapon::rifle},
        c{20, 4, 1, Weapon::launcher};
    const std::vector<lab::DeathRecord> final_deaths{a, b, c};
    // In tick order, each on its own tick: nothing to say.
    lab::ChannelFigures plain;
    lab::compare_sent_deaths(final_deaths, Sent{{a, 0}, {b, 0}, {c, 0}}, kWindow, plain);
    EXPECT_EQ(plain.deaths_on_server, 3u);
    EXPECT_EQ(plain.deaths_sent, 3u);
    EXPECT_EQ(
        plain.deaths_sent_late + plain.deaths_unsent + plain.deaths_not_final + plain.deaths_out_of_turn, 0u);
    // A replay 4 ticks back found `a` after `b` and `c` were sent, and sent it then: allowed, counted late.
    lab::ChannelFigures late;
    lab::compare_sent_deaths(final_deaths, Sent{{b, 0}, {c, 0}, {a, 4}}, kWindow, late);
    EXPECT_EQ(late.deaths_sent_late, 1u);
    EXPECT_EQ(late.deaths_out_of_turn, 0u);
    EXPECT_EQ(late.deaths_unsent + late.deaths_not_final, 0u);
    // The same order without a replay, or from further back than any replay goes: out of turn.
    lab::ChannelFigures reordered;
    lab::compare_sent_deaths(final_deaths, Sent{{b, 0}, {c, 0}, {a, 0}}, kWindow, reordered);
    EXPECT_EQ(reordered.deaths_out_of_turn, 1u);
    lab::ChannelFigures too_late;
    lab::compare_sent_deaths(final_deaths, Sent{{a, kWindow + 1}, {b, 0}, {c, 0}}, kWindow, too_late);
    EXPECT_EQ(too_late.deaths_out_of_turn, 1u);
    // One never sent, one sent twice, one with another killer than the final tick's.
    lab::ChannelFigures wrong;
    lab::compare_sent_deaths(final_deaths, Sent{{a, 0}, {a, 0}, {{20, 3, 2, Weapon::rifle}, 0}}, kWindow,
                             wrong);
    EXPECT_EQ(wrong.deaths_unsent, 2u);     // b and c
    EXPECT_EQ(wrong.deaths_not_final, 2u);  // the second a, and b with another killer
    // Clients are held to the order sent, position by position (compare_deaths).
    lab::ChannelFigures received;
    lab::compare_deaths(std::vector<lab::DeathRecord>{b, c, a}, std::vector<lab::DeathRecord>{a, b, c},
                        received);
    EXPECT_EQ(received.deaths_wrong, 3u);
}

TEST(LabEvents, DeathsComparedPositionByPosition) {
    using arena::Weapon;
    const lab::DeathRecord a{10, 1, 2, Weapon::rifle}, b{20, 3, 1, Weapon::rifle},
        c{30, 2, 2, Weapon::launcher};
    const std::vector<lab::DeathRecord> expected{a, b, c};
    lab::ChannelFigures same;
    lab::compare_deaths(expected, expected, same);
    EXPECT_EQ(same.deaths_expected, 3u);
    EXPECT_EQ(same.deaths_delivered, 3u);
    lab::ChannelFigures lost;
    lab::compare_deaths(expected, std::vector<lab::DeathRecord>{a, c}, lost);
    EXPECT_EQ(lost.deaths_delivered, 1u);
    EXPECT_EQ(lost.deaths_wrong, 1u);
    EXPECT_EQ(lost.deaths_missing, 1u);
    lab::ChannelFigures twice;
    lab::compare_deaths(expected, std::vector<lab::DeathRecord>{a, b, c, c}, twice);
    EXPECT_EQ(twice.deaths_delivered, 3u);
    EXPECT_EQ(twice.deaths_extra, 1u);
    lab::ChannelFigures swapped;
    lab::compare_deaths(expected, std::vector<lab::DeathRecord>{b, a, c}, swapped);
    EXPECT_EQ(swapped.deaths_wrong, 2u);
    lab::ChannelFigures other_killer;
    lab::compare_deaths(expected, std::vector<lab::DeathRecord>{a, {20, 3, 2, Weapon::rifle}, c},
                        other_killer);
    EXPECT_EQ(other_killer.deaths_wrong, 1u);
}

TEST(LabEvents, OnlyEventsSentBeforeTheCutAreGradedAndMustArriveInSequence) {
    lab::EventCheck check(3, 8);
    namespace cs = rwd::client_server;
    auto event = [](std::uint32_t seq) {
        cs::Message m;
        m.sequence = seq;
        m.reliable = true;
        m.type = cs::kChatMessageId;
        EXPECT_TRUE(cs::encode_payload(cs::Chat{0, "hi"}, m.payload).ok());
        return m;
    };
    cs::Message unreliable = event(0);  // not on the reliable channel: not graded (it would break the order)
    unreliable.reliable = false;
    check.on_client_message(0, event(0));
    check.on_client_message(0, unreliable);
    for (std::uint32_t s : {1u, 2u, 3u}) check.on_client_message(0, event(s));  // 4th after the cut
    for (std::uint32_t s : {0u, 2u}) check.on_client_message(1, event(s));      // 1 never came
    check.cut(rwd::Tick{100});
    check.cut_seat(0, 3);
    check.cut_seat(1, 3);
    check.cut_seat(2, 5);
    lab::ChannelFigures out;
    const std::vector<int> slots{0, 1, -1};  // seat 2 did not play to the end: left out
    check.finish(slots, out);
    EXPECT_EQ(out.events_sent, 6u);
    EXPECT_EQ(out.events_received, 4u);
    EXPECT_EQ(out.death_receivers, 2u);
    EXPECT_EQ(out.deaths_expected, 0u);
}

TEST(LabEvents, TheDrainWindowCoversDelayAndRetransmissions) {
    rwd::transport::LinkConfig perfect;
    EXPECT_EQ(lab::drain_window(perfect, perfect, rwd::Micros{100'000}).count, 200'000);  // one RTO + slack
    rwd::transport::LinkConfig checklist;
    checklist.latency = rwd::Micros{100'000};
    checklist.jitter = rwd::Micros{20'000};
    checklist.loss = 0.05;
    // 180 ms worst one-way, RTO 200 + 4 x 28.3 ms, 5 sends (0.05^5 < 1e-6), 100 ms slack.
    EXPECT_NEAR(static_cast<double>(lab::drain_window(checklist, checklist, rwd::Micros{100'000}).count),
                180'000 + 5 * (200'000 + 4 * 28'284.3) + 100'000, 2.0);
    rwd::transport::LinkConfig lossier = checklist;
    lossier.loss = 0.10;
    EXPECT_GT(lab::drain_window(lossier, lossier, rwd::Micros{100'000}).count,
              lab::drain_window(checklist, checklist, rwd::Micros{100'000}).count);
}

}  // namespace
