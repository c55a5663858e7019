/// A lab pass with connect tokens and every packet sealed (--encrypt) plays out exactly as the plain pass of
/// the same seed: only the bytes on the wire grow, by the 18 bytes sealing adds to each packet.
#include "cs_match.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace {

lab::PassConfig short_pass(bool sealed) {
    lab::PassConfig p;
    p.players = 4;
    p.duration_s = 8;
    p.seed = 31;
    p.probe = true;  // the adversarial client, with valid credentials when sealed
    p.up.latency = p.down.latency = rwd::Micros{50'000};
    p.up.jitter = p.down.jitter = rwd::Micros{10'000};
    p.up.loss = p.down.loss = 0.02;
    p.sealed = sealed;
    return p;
}

/// The figures without what sealing is expected to change (bytes on the wire) or what is not simulated
/// (wall time).
nlohmann::json gameplay(const lab::PassFigures& f) {
    nlohmann::json j = f;
    j.erase("bandwidth");
    j["transport"].erase("wire_kbps_down");
    j["transport"].erase("wire_kbps_up");
    j.erase("wall_s");
    return j;
}

}  // namespace

TEST(LabSealedPass, PlaysExactlyAsThePlainPassAndOnlyTheWireGrows) {
    SCOPED_TRACE("seed=31");
    const lab::PassFigures plain = lab::run_pass(short_pass(false));
    const lab::PassFigures sealed = lab::run_pass(short_pass(true));
    EXPECT_EQ(sealed.playing, 4);
    EXPECT_TRUE(sealed.authority.probe_seated);
    EXPECT_GT(sealed.shots.rifle_shots, 0u);
    EXPECT_EQ(gameplay(sealed), gameplay(plain));
    // Every snapshot is its message plus 18 bytes; the message itself is the same.
    EXPECT_DOUBLE_EQ(sealed.bandwidth.mean_snapshot_bytes, plain.bandwidth.mean_snapshot_bytes);
    EXPECT_NEAR(sealed.bandwidth.wire_bytes_per_snapshot - plain.bandwidth.wire_bytes_per_snapshot, 18.0,
                1e-6);
    // Inputs go 60 a second each way up: 18 x 8 x 60 = 8.64 kbit/s more, within the transport's noise.
    EXPECT_NEAR(sealed.bandwidth.kbps_up.mean - plain.bandwidth.kbps_up.mean, 8.64, 1.0);
    // On the wire (IP headers and every datagram handed to the link, lost ones too) both ways grow.
    EXPECT_GT(sealed.transport.wire_kbps_down, plain.transport.wire_kbps_down);
    EXPECT_GT(sealed.transport.wire_kbps_up, plain.transport.wire_kbps_up);
}
