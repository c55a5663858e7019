// Replication: the range coder's starting table for the arena's entity lists, built once from the trained
// entries.
#include "arena/arena_game.hpp"
#include "snapshot_model_table.hpp"

#include <memory>

namespace arena {

const rwd::wire::RangeModel& ArenaGame::snapshot_model() {
    // Built on first use (thread-safe) and kept for the program's life: every stream points into it.
    static const std::unique_ptr<const rwd::wire::RangeModel> model = [] {
        auto m = std::make_unique<rwd::wire::RangeModel>();
        const rwd::Status st = m->set(detail::snapshot_model_entries());
        (void)st;  // every generated entry is valid (the table static_asserts it)
        return std::unique_ptr<const rwd::wire::RangeModel>(std::move(m));
    }();
    return *model;
}

}  // namespace arena
