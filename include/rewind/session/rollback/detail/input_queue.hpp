/// InputQueue: one player's confirmed inputs by frame, the inputs actually simulated, and its disconnect
/// frame.
#pragma once

#include <rewind/session/rollback/types.hpp>

#include <array>
#include <cstddef>

namespace rwd::rollback::detail {

/// A ring of one player's inputs keyed by frame. Confirmed inputs arrive in order (frame last+1 only); the
/// ring also remembers which input each simulated frame used, so a late confirmed input can be checked
/// against the prediction it replaces. Once disconnected at frame D, every frame after D reads as the neutral
/// Input{}.
template <class Input>
class InputQueue {
public:
    /// Frames the ring holds: far more than the prediction window plus the input delay plus resend backlog.
    static constexpr Frame kCapacity = 256;

    /// The newest frame of the contiguous confirmed run, or kNullFrame.
    [[nodiscard]] Frame last_confirmed() const { return last_; }
    /// Whether the player left; its input is neutral after disconnect_frame().
    [[nodiscard]] bool disconnected() const { return disconnected_; }
    /// The last frame with real input of a disconnected player.
    [[nodiscard]] Frame disconnect_frame() const { return disconnect_frame_; }
    /// Whether the input of frame `f` is final (confirmed, or neutral after a disconnect).
    [[nodiscard]] bool known(Frame f) const { return disconnected_ || f <= last_; }
    /// Whether frame `f` is still stored as a confirmed input.
    [[nodiscard]] bool stored(Frame f) const { return f >= 0 && f <= last_ && f > last_ - kCapacity; }

    /// The confirmed input of a stored frame (check stored(f) first).
    [[nodiscard]] const Input& confirmed(Frame f) const { return inputs_[slot(f)]; }

    /// Appends the confirmed input of frame last_confirmed()+1. Refused (false) when that would overwrite a
    /// frame at or after `oldest_needed` (the sender will send it again later) or when `f` is not the next
    /// frame.
    bool push(Frame f, const Input& in, Frame oldest_needed) {
        if (f != last_ + 1) return false;
        if (oldest_needed != kNullFrame && f - oldest_needed >= kCapacity) return false;
        inputs_[slot(f)] = in;
        last_ = f;
        return true;
    }

    /// The final input of frame `f` if known(f): neutral after a disconnect, else the confirmed one.
    /// Otherwise `prediction` (the caller computes it from last_input()).
    [[nodiscard]] Input input_or(Frame f, const Input& prediction) const {
        if (disconnected_ && f > disconnect_frame_) return Input{};
        if (stored(f)) return inputs_[slot(f)];
        return prediction;
    }
    /// The newest confirmed input (neutral before the first), base of predictions.
    [[nodiscard]] Input last_input() const { return last_ >= 0 ? inputs_[slot(last_)] : Input{}; }

    /// Remembers that frame `f` was simulated with `in`.
    void set_used(Frame f, const Input& in) {
        used_[slot(f)] = in;
        used_frame_[slot(f)] = f;
    }
    /// The input frame `f` was last simulated with, or nullptr if unknown.
    [[nodiscard]] const Input* used(Frame f) const {
        return f >= 0 && used_frame_[slot(f)] == f ? &used_[slot(f)] : nullptr;
    }

    /// Marks the player gone after frame `last` (lowering an earlier disconnect frame if `last` is earlier).
    /// Returns true when the neutral run now starts earlier than before.
    bool disconnect(Frame last) {
        if (disconnected_ && last >= disconnect_frame_) return false;
        disconnected_ = true;
        disconnect_frame_ = last;
        return true;
    }

    /// Forgets everything (a new match).
    void reset() { *this = InputQueue{}; }

private:
    static std::size_t slot(Frame f) {
        return static_cast<std::size_t>(f) & static_cast<std::size_t>(kCapacity - 1);
    }

    std::array<Input, kCapacity> inputs_{};
    std::array<Input, kCapacity> used_{};
    std::array<Frame, kCapacity> used_frame_ = make_unused();
    Frame last_ = kNullFrame;
    bool disconnected_ = false;
    Frame disconnect_frame_ = kNullFrame;

    static constexpr std::array<Frame, kCapacity> make_unused() {
        std::array<Frame, kCapacity> a{};
        a.fill(kNullFrame);
        return a;
    }
};

}  // namespace rwd::rollback::detail
