// The lab's model registry: add a model by writing its run function in its own file and one line here.
#include "model.hpp"

#include <array>

namespace lab {
namespace {

constexpr std::array kModels{
    ModelEntry{"client-server", "authoritative server, prediction, interpolation, lag compensation", &run_client_server},
};

}  // namespace

std::span<const ModelEntry> models() { return kModels; }

const ModelEntry* find_model(std::string_view name) {
    for (const ModelEntry& m : kModels)
        if (m.name == name) return &m;
    return nullptr;
}

}  // namespace lab
