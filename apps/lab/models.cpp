// The lab's model registry: add a model by writing its run function in its own file and one line here.
#include "model.hpp"
#include "rollback_model.hpp"

#include <array>

namespace lab {
namespace {

constexpr std::array kModels{
    ModelEntry{"client-server", "authoritative server, prediction, interpolation, lag compensation",
               &run_client_server, 1, 63, 8},
    ModelEntry{"rollback", "GGPO-style P2P rollback, 2..4 peers: rollback depth, re-simulation, determinism",
               &run_rollback, kMinPeers, kMaxPeers, kDefaultPeers},
    ModelEntry{"lockstep", "deterministic lockstep (prediction window 0), 2..4 peers: stalls, determinism",
               &run_lockstep, kMinPeers, kMaxPeers, kDefaultPeers},
};

}  // namespace

std::span<const ModelEntry> models() { return kModels; }

const ModelEntry* find_model(std::string_view name) {
    for (const ModelEntry& m : kModels)
        if (m.name == name) return &m;
    return nullptr;
}

}  // namespace lab
