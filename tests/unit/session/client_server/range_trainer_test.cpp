/// SnapshotConfig::range_trainer: every range-coded list the server sends is counted, and counting it changes
/// nothing the server sends.
#include "toy_harness.hpp"

#include <rewind/wire/range_training.hpp>

#include <gtest/gtest.h>

#include <memory>

namespace {

namespace cs = rwd::client_server;
using rwd::Micros;

struct TrainerRun {
    std::uint64_t snapshots = 0, bytes = 0;
};

TrainerRun run(rwd::wire::RangeModelTrainer* trainer) {
    cs::ServerConfig sc;
    sc.snapshots.range_trainer = trainer;
    toy::Match<> m(17, {}, sc);
    m.connect_client();
    m.connect_client();
    EXPECT_TRUE(m.run_until_playing());
    m.run(Micros{1'000'000});
    TrainerRun r;
    for (int slot = 0; slot < 2; ++slot) {
        r.snapshots += m.server->client_stats(slot).snapshots_sent;
        r.bytes += m.server->client_stats(slot).snapshot_bytes_total;
    }
    return r;
}

TEST(RangeTrainer, CountsTheListsSentAndChangesNoByte) {
    const auto trainer = std::make_unique<rwd::wire::RangeModelTrainer>();
    const TrainerRun plain = run(nullptr);
    const TrainerRun counted = run(trainer.get());
    ASSERT_GT(plain.snapshots, 20u);
    EXPECT_EQ(counted.snapshots, plain.snapshots);
    EXPECT_EQ(counted.bytes, plain.bytes);  // the same snapshots, byte for byte in size
    // One message per range-coded list (a list that went bit-packed is not counted), each a few coded bits.
    EXPECT_GT(trainer->messages(), 0u);
    EXPECT_LE(trainer->messages(), counted.snapshots);
    EXPECT_GE(trainer->bits(), trainer->messages());
}

}  // namespace
