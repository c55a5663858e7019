/// PredictionHistory: the client's rings of inputs and predicted states, and reconciliation by rewind and
/// replay.
#pragma once

#include <rewind/core/tick.hpp>

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace rwd::sync {

/// The result of comparing the predicted and the authoritative controlled entity at one tick (returned by the
/// comparison callback given to PredictionHistory::reconcile()). fields == 0 means "prediction was right".
template <class E>
struct EntityDiff {
    using Entity = E;                   ///< the entity snapshot type (e.g. G::EntitySnapshot)
    E predicted{};                      ///< what the client predicted
    E authoritative{};                  ///< what the server computed
    std::uint32_t fields = 0;           ///< bitmask of differing fields (e.g. G::diff_fields)
    std::int64_t position_error_q = 0;  ///< position distance in grid units (e.g. G::position_error_q)
};

/// One correction, for the debug overlay and the lab: (tick, predicted, authoritative, fields, position
/// error).
template <class E>
struct Correction {
    Tick tick{};                        ///< the acknowledged tick the states were compared at
    E predicted{};                      ///< the client's prediction for that tick
    E authoritative{};                  ///< the server's result for that tick
    std::uint32_t fields = 0;           ///< which fields differed (bitmask)
    std::int64_t position_error_q = 0;  ///< position error in grid units
    int replayed_ticks = 0;             ///< pending inputs replayed on top of the authoritative state
    bool history_missing = false;       ///< the acknowledged tick had left the ring: nothing to compare with
};

/// What reconcile() did.
enum class ReconcileStatus : std::uint8_t {
    confirmed,   ///< the prediction matched: nothing changed
    corrected,   ///< rewound to the server state and replayed the pending inputs (see the correction)
    stale_ack,   ///< not newer than an acknowledgement already handled: ignored
    future_ack,  ///< newer than anything predicted (untrusted or corrupt): ignored
    empty,       ///< no prediction yet: ignored
};

/// reconcile()'s answer: the status and, when corrected, the correction record.
template <class E>
struct ReconcileResult {
    ReconcileStatus status = ReconcileStatus::empty;
    Correction<E> correction{};  ///< meaningful when status == corrected
};

/// Counters of everything PredictionHistory sees and does.
struct PredictionStats {
    std::uint64_t recorded = 0;        ///< predicted ticks recorded
    std::uint64_t resets = 0;          ///< restarts (reset() or a non-consecutive record())
    std::uint64_t acks = 0;            ///< acknowledgements handled (confirmed + corrected)
    std::uint64_t confirmed = 0;       ///< acknowledgements where the prediction was right
    std::uint64_t corrections = 0;     ///< acknowledgements that needed a rewind and replay
    std::uint64_t replayed_ticks = 0;  ///< inputs replayed over all corrections
    std::uint64_t history_misses = 0;  ///< corrections whose acknowledged tick had left the ring
    std::uint64_t stale_acks = 0;      ///< acknowledgements older than one handled already
    std::uint64_t future_acks = 0;     ///< acknowledgements for ticks never predicted
};

/// The last N ticks of the client's own inputs and predicted states (state_at(t) = the state after tick t's
/// input). On an authoritative result for tick `ack`, reconcile() drops the acknowledged inputs, compares the
/// predicted entity at `ack` with the server's through a callback, and if they differ, rewinds to the server
/// state and replays every pending input through the step callback, rewriting the stored predictions.
/// The ack tick comes from the network: it is bounded and compared wrap-aware; loops never exceed N steps.
template <class State, class Input, int N = 128>
class PredictionHistory {
    static_assert(N >= 2, "a prediction history needs at least two ticks");

public:
    /// Starts again from `state`, the state after tick `tick` (e.g. the first authoritative snapshot).
    void reset(Tick tick, const State& state) {
        for (Slot& s : slots_) s.valid = false;
        Slot& s = slot(tick);
        s.tick = tick;
        s.state = state;
        s.input = Input{};
        s.has_input = false;
        s.valid = true;
        newest_ = tick;
        oldest_ = tick;
        has_state_ = true;
        has_ack_ = false;
        ++stats_.resets;
    }

    /// Records that tick `tick` applied `input` and produced `state_after`. Ticks must follow newest_tick()
    /// one by one; anything else (a clock resync) restarts the history at `tick`.
    void record(Tick tick, const Input& input, const State& state_after) {
        if (!has_state_ || tick != newest_ + 1) reset(tick, state_after);
        Slot& s = slot(tick);
        s.tick = tick;
        s.input = input;
        s.has_input = true;
        s.state = state_after;
        s.valid = true;
        newest_ = tick;
        if (newest_ - oldest_ >= N) oldest_ = newest_ - (N - 1);
        ++stats_.recorded;
    }

    /// Reconciles with the server's `authoritative` state after tick `ack`.
    ///   compare(const State& predicted, const State& authoritative) -> EntityDiff<E>  (fields 0: no
    ///   correction) step(State& s, const Input& in, Tick t)                                     (the game's
    ///   step, one tick)
    template <class Compare, class Step>
    auto reconcile(Tick ack, const State& authoritative, Compare&& compare, Step&& step)
        -> ReconcileResult<typename std::invoke_result_t<Compare&, const State&, const State&>::Entity> {
        using E = typename std::invoke_result_t<Compare&, const State&, const State&>::Entity;
        ReconcileResult<E> out;
        if (!has_state_) {
            out.status = ReconcileStatus::empty;
            return out;
        }
        if (ack > newest_) {
            ++stats_.future_acks;
            out.status = ReconcileStatus::future_ack;
            return out;
        }
        if (has_ack_ && ack <= acked_) {
            ++stats_.stale_acks;
            out.status = ReconcileStatus::stale_ack;
            return out;
        }
        acked_ = ack;
        has_ack_ = true;
        ++stats_.acks;
        const bool known = ack >= oldest_ && slot(ack).valid && slot(ack).tick == ack;
        auto diff = known ? compare(std::as_const(slot(ack).state), authoritative)
                          : compare(authoritative, authoritative);
        if (known && diff.fields == 0) {
            ++stats_.confirmed;
            out.status = ReconcileStatus::confirmed;
            return out;
        }
        // Rewind to the server's truth and replay every input it has not processed yet.
        State s = authoritative;
        if (known) slot(ack).state = s;
        // newest_ - ack may be huge when ack is ancient: start no further back than the ring reaches.
        Tick t = (newest_ - ack) >= N ? oldest_ : ack + 1;
        int replayed = 0;
        for (; t <= newest_; ++t) {
            Slot& sl = slot(t);
            if (!sl.valid || sl.tick != t || !sl.has_input) continue;
            step(s, std::as_const(sl.input), t);
            sl.state = s;
            ++replayed;
        }
        ++stats_.corrections;
        stats_.replayed_ticks += static_cast<std::uint64_t>(replayed);
        if (!known) ++stats_.history_misses;
        out.status = ReconcileStatus::corrected;
        out.correction = Correction<E>{ack,
                                       diff.predicted,
                                       diff.authoritative,
                                       known ? diff.fields : 0u,
                                       known ? diff.position_error_q : 0,
                                       replayed,
                                       !known};
        return out;
    }

    /// True once reset() or record() has stored a state.
    [[nodiscard]] bool has_state() const { return has_state_; }
    /// The newest predicted state (after newest_tick()); only valid when has_state().
    [[nodiscard]] const State& latest_state() const { return slots_[index(newest_)].state; }
    /// The newest predicted tick.
    [[nodiscard]] Tick newest_tick() const { return newest_; }
    /// The oldest tick still in the ring.
    [[nodiscard]] Tick oldest_tick() const { return oldest_; }
    /// True once an acknowledgement has been handled.
    [[nodiscard]] bool has_ack() const { return has_ack_; }
    /// The newest acknowledged tick.
    [[nodiscard]] Tick acked_tick() const { return acked_; }
    /// Inputs predicted but not acknowledged yet (what the next correction would replay).
    [[nodiscard]] int pending() const {
        if (!has_state_) return 0;
        if (!has_ack_) return (newest_ - oldest_);
        const std::int32_t d = newest_ - acked_;
        return d < 0 ? 0 : (d > N ? N : d);
    }
    /// The predicted state after tick `t`, or nullptr if it is not in the ring.
    [[nodiscard]] const State* state_at(Tick t) const {
        const Slot& s = slots_[index(t)];
        return has_state_ && t >= oldest_ && t <= newest_ && s.valid && s.tick == t ? &s.state : nullptr;
    }
    /// The input recorded for tick `t`, or nullptr if it is not in the ring.
    [[nodiscard]] const Input* input_at(Tick t) const {
        const Slot& s = slots_[index(t)];
        return has_state_ && t >= oldest_ && t <= newest_ && s.valid && s.tick == t && s.has_input ? &s.input
                                                                                                   : nullptr;
    }
    /// Everything counted so far.
    [[nodiscard]] const PredictionStats& stats() const { return stats_; }

private:
    struct Slot {
        Tick tick{};
        Input input{};
        State state{};
        bool has_input = false;
        bool valid = false;
    };

    static std::size_t index(Tick t) { return t.value % static_cast<std::uint32_t>(N); }
    Slot& slot(Tick t) { return slots_[index(t)]; }

    std::array<Slot, N> slots_{};
    Tick newest_{};
    Tick oldest_{};
    Tick acked_{};
    bool has_state_ = false;
    bool has_ack_ = false;
    PredictionStats stats_{};
};

}  // namespace rwd::sync
