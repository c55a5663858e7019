/// PredictedHistory: what a client remembers of each predicted tick for reconciliation, its own player there
/// (the whole world for a game without capture_entity).
#pragma once

#include <rewind/core/sequence_buffer.hpp>
#include <rewind/core/tick.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_hooks.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace rwd::client_server::detail {

/// The last N ticks' own player as predicted (or as rebuilt from a snapshot). A game with the capture_entity
/// hook keeps just that snapshot per tick; any other keeps the whole world, on the heap and allocated at the
/// first tick remembered (N worlds can weigh megabytes), and captures it when asked.
template <class G, std::size_t N>
class PredictedHistory {
public:
    using State = typename G::State;
    using EntitySnapshot = typename G::EntitySnapshot;
    using EntityRecord = typename G::EntityRecord;

    /// Remembers `s`, the world after tick `t`, whose own player is the one in `slot` (none if negative).
    void remember(Tick t, const State& s, int slot, std::vector<EntityRecord>& scratch) {
        if constexpr (kOwnOnly) {
            owns_.insert(
                t, slot >= 0 ? hooks::capture_entity<G>(s, G::player_entity(slot), scratch) : std::nullopt);
        } else {
            (void)slot, (void)scratch;
            if (!states_) states_ = std::make_unique<SequenceBuffer<State, N, Tick>>();
            states_->insert(t, s);
        }
    }
    /// The player in `slot` (the one remember() was told) after tick `t`: nullopt if `t` is not remembered,
    /// `slot` is negative or the player was not in the world.
    [[nodiscard]] std::optional<EntitySnapshot> own_at(Tick t, int slot, std::vector<EntityRecord>& scratch) {
        if constexpr (kOwnOnly) {
            (void)scratch;
            const std::optional<EntitySnapshot>* kept = owns_.find(t);
            return kept != nullptr && slot >= 0 ? *kept : std::nullopt;
        } else {
            const State* at = states_ ? states_->find(t) : nullptr;
            if (at == nullptr || slot < 0) return std::nullopt;
            return hooks::capture_entity<G>(*at, G::player_entity(slot), scratch);
        }
    }
    /// Forgets every tick.
    void reset() {
        if constexpr (kOwnOnly) {
            owns_.reset();
        } else if (states_) {
            states_->reset();
        }
    }

private:
    static constexpr bool kOwnOnly = HasCaptureEntity<G>;
    struct Nothing {};
    [[no_unique_address]] std::conditional_t<kOwnOnly, SequenceBuffer<std::optional<EntitySnapshot>, N, Tick>,
                                             Nothing>
        owns_;
    [[no_unique_address]] std::conditional_t<kOwnOnly, Nothing,
                                             std::unique_ptr<SequenceBuffer<State, N, Tick>>>
        states_;
};

}  // namespace rwd::client_server::detail
