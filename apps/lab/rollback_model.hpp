// The rollback and lockstep models of the lab (rollback_model.cpp): P2P peers, rollback and determinism
// figures.
#pragma once

#include "model.hpp"

namespace lab {

inline constexpr int kMinPeers = 2;      ///< the fewest peers a rollback or lockstep match takes
inline constexpr int kMaxPeers = 4;      ///< the most
inline constexpr int kDefaultPeers = 2;  ///< without --players

/// The rollback model: 2..4 bot peers, GGPO-style prediction and rollback (prediction window 8, input delay
/// 2).
ModelResult run_rollback(const LabOptions& options);
/// The lockstep model: the same peers with a prediction window of 0 and an input delay covering the link.
ModelResult run_lockstep(const LabOptions& options);

}  // namespace lab
