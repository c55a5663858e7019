// One rollback or lockstep lab pass: bot-driven P2P peers of the arena or swarm in a full mesh over
// SimNetwork, on virtual time.
#pragma once

#include "rb_figures.hpp"

#include <rewind/transport/link_config.hpp>

#include <cstdint>
#include <string>

namespace lab {

/// The game a rollback/lockstep pass runs: the arena (a flat State) or swarm (a world on the heap, rolled
/// back through save/load hooks).
enum class RbGame { arena, swarm };

/// What one rollback/lockstep pass runs.
struct RbPassConfig {
    RbGame game = RbGame::arena;    ///< which game the peers play
    int players = 2;                ///< peers, one local bot player each (2..4)
    double duration_s = 60;         ///< simulated seconds after the transport mesh connected
    std::uint64_t seed = 1;         ///< network, bots and frame timing
    int tick_rate = 60;             ///< simulation frames per second (nominal)
    double fps = 144;               ///< each peer's render loop rate (its frame clock is polled this often)
    double frame_jitter = 0.25;     ///< render frame time spread
    int input_delay = 2;            ///< frames between a local input and the frame it is used in (the least)
    bool adapt_input_delay = true;  ///< each session sizes its delay to its links (P2PConfig)
    int max_prediction = 8;         ///< prediction window; 0 = lockstep
    rwd::transport::LinkConfig up;  ///< lower-numbered peer -> higher-numbered peer
    rwd::transport::LinkConfig down;  ///< higher-numbered peer -> lower-numbered peer
    std::string replay_path;          ///< write peer 0's confirmed frames here as a replay file ("" = none)
};

/// Runs the pass: connects the mesh, runs every peer's session at its recommended speed with bots choosing
/// inputs from the peer's own predicted state, then checks determinism (peers against each other and against
/// a single-process replay of the inputs the bots sent). Returns what it measured.
RbFigures run_rb_pass(const RbPassConfig& config);

}  // namespace lab
