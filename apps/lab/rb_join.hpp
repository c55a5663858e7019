// The rollback late-join pass: a third player joins a running arena match, another crashes and comes back to
// its slot, both by state transfer; the peers must agree with each other and with a plain replay.
#pragma once

#include <rewind/transport/link_config.hpp>

#include <nlohmann/json.hpp>

#include <cstdint>

namespace lab {

/// What the join pass runs: three slots, slot 2 open at the start.
struct RbJoinConfig {
    std::uint64_t seed = 1;
    int tick_rate = 60;
    double join_at_s = 20;    ///< slot 2's player starts and joins
    double drop_at_s = 30;    ///< slot 1's machine crashes
    double rejoin_at_s = 40;  ///< slot 1's player starts again (a new address) and takes its slot back
    double end_s = 50;
    rwd::transport::LinkConfig up;    ///< lower-numbered machine -> higher-numbered one
    rwd::transport::LinkConfig down;  ///< higher -> lower
};

/// What it measured.
struct RbJoinFigures {
    bool joined = false;                 ///< the newcomer loaded the state and played
    bool rejoined = false;               ///< the returning player did
    std::int64_t frames = 0;             ///< frames of the first machine's replayed timeline
    std::uint64_t pair_comparisons = 0;  ///< confirmed-frame hashes compared between machines
    std::uint64_t pair_mismatches = 0;
    std::int32_t first_mismatch = -1;      ///< the first frame two machines disagree on (-1: none)
    std::uint64_t replay_comparisons = 0;  ///< hashes compared with the single-process replay
    std::uint64_t replay_mismatches = 0;
    std::uint64_t desyncs = 0;          ///< desync events and reports, all machines
    double join_stall_ms = 0;           ///< the longest stall of the machines already playing, join
    double rejoin_stall_ms = 0;         ///< the same, rejoin
    double bound_ms = 0;                ///< the join timeout: no one waits longer for a joiner
    std::int32_t join_frame = -1;       ///< the newcomer's first frame
    std::int32_t rejoin_frame = -1;     ///< the returning player's first frame
    std::uint64_t catch_up_frames = 0;  ///< frames the two joiners fast-forwarded
    double state_bytes = 0;             ///< size of the arena state sent
};

void to_json(nlohmann::json& j, const RbJoinFigures& f);

/// Runs the pass on virtual time.
RbJoinFigures run_rb_join_pass(const RbJoinConfig& config);

}  // namespace lab
