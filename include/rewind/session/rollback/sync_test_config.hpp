/// SyncTestConfig: the knobs of a SyncTestSession.
#pragma once

#include <rewind/core/result.hpp>

namespace rwd::rollback {

/// The knobs of a SyncTestSession.
struct SyncTestConfig {
    int num_players = 2;     ///< every player is local: the test feeds all inputs
    int check_distance = 2;  ///< frames rolled back every frame, 1..kMaxPredictionWindow

    /// invalid_config when a value is out of range.
    [[nodiscard]] Status validate() const;
};

}  // namespace rwd::rollback
