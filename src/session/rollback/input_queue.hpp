/// InputQueue: one player's confirmed input bits by frame, the bits each simulated frame used, its
/// disconnect.
#pragma once

#include <rewind/session/rollback/protocol.hpp>
#include <rewind/session/rollback/types.hpp>

#include <array>
#include <cstddef>

namespace rwd::rollback::detail {

/// A ring of one player's inputs keyed by frame, as the opaque bits the game's serialize() wrote. Confirmed
/// inputs arrive in order (frame last+1 only); the ring also remembers which bits each simulated frame used,
/// so a late confirmed input can be checked against the prediction it replaces. Once disconnected at frame D,
/// every frame after D is neutral; a player who joins the slot at frame J makes frames D+1..J-1 a neutral gap
/// and plays from J (only the newest join is remembered: older gaps lie far behind every window).
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
    [[nodiscard]] bool stored(Frame f) const {
        return f >= first_ && f >= 0 && f <= last_ && f > last_ - kCapacity && !in_gap(f);
    }
    /// Whether frame `f` reads as neutral because the player left before it (or joined after it).
    [[nodiscard]] bool neutral(Frame f) const {
        return (disconnected_ && f > disconnect_frame_) || in_gap(f);
    }
    /// The frame the slot's current player joined at, kNullFrame when it played from the start.
    [[nodiscard]] Frame join_frame() const { return join_; }
    /// Joined: the previous player's last real input frame.
    [[nodiscard]] Frame gap_last() const { return gap_last_; }
    /// The join frame before the newest (kNullFrame when none): reports about that player's leave still
    /// count.
    [[nodiscard]] Frame previous_join() const { return prev_join_; }
    /// The oldest frame this queue holds inputs of (a joiner's queues start where its state does).
    [[nodiscard]] Frame first() const { return first_; }

    /// The confirmed bits of a stored frame (check stored(f) first).
    [[nodiscard]] const InputBits& confirmed(Frame f) const { return inputs_[slot(f)]; }
    /// The newest confirmed bits, base of predictions; nullptr before the first (predict from neutral).
    [[nodiscard]] const InputBits* last_input() const {
        return stored(last_) ? &inputs_[slot(last_)] : nullptr;
    }

    /// Appends the confirmed bits of frame last_confirmed()+1. Refused (false) when that would overwrite a
    /// frame at or after `oldest_needed` (the sender will send it again later) or when `f` is not the next
    /// frame.
    bool push(Frame f, const InputBits& in, Frame oldest_needed) {
        if (f != last_ + 1) return false;
        if (oldest_needed != kNullFrame && f - oldest_needed >= kCapacity) return false;
        inputs_[slot(f)] = in;
        last_ = f;
        return true;
    }

    /// Remembers that frame `f` was simulated with `used`; nullptr = with an input that has no canonical bits
    /// (any confirmed input then differs from it).
    void set_used(Frame f, const InputBits* used) {
        if (used == nullptr) {
            used_frame_[slot(f)] = kNullFrame;
            return;
        }
        used_[slot(f)] = *used;
        used_frame_[slot(f)] = f;
    }
    /// The bits frame `f` was last simulated with, or nullptr if unknown.
    [[nodiscard]] const InputBits* used(Frame f) const {
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

    /// A new player takes the (disconnected) slot from frame `join` on: the frames after the leave and before
    /// `join` stay neutral, inputs are taken from `join`. False (and nothing changed) when the slot is not
    /// disconnected or `join` is not after its leave.
    bool rejoin(Frame join) {
        if (!disconnected_ || join <= disconnect_frame_ || join <= join_) return false;
        prev_join_ = join_;
        gap_last_ = disconnect_frame_;
        join_ = join;
        disconnected_ = false;
        disconnect_frame_ = kNullFrame;
        last_ = join - 1;
        return true;
    }
    /// Moves the start of the gap earlier (a peer knew the previous player left earlier); true when it moved.
    bool lower_gap(Frame last) {
        if (join_ == kNullFrame || last >= gap_last_) return false;
        gap_last_ = last;
        return true;
    }
    /// Starts the queue at frame `first` (a joiner, whose state begins there): every earlier frame is known
    /// and none is stored.
    void start_at(Frame first) {
        first_ = first;
        last_ = first - 1;
    }

private:
    static std::size_t slot(Frame f) {
        return static_cast<std::size_t>(f) & static_cast<std::size_t>(kCapacity - 1);
    }
    static constexpr std::array<Frame, kCapacity> make_unused() {
        std::array<Frame, kCapacity> a{};
        a.fill(kNullFrame);
        return a;
    }

    std::array<InputBits, kCapacity> inputs_{};
    std::array<InputBits, kCapacity> used_{};
    std::array<Frame, kCapacity> used_frame_ = make_unused();
    [[nodiscard]] bool in_gap(Frame f) const { return join_ != kNullFrame && f > gap_last_ && f < join_; }

    Frame last_ = kNullFrame;
    Frame first_ = 0;
    bool disconnected_ = false;
    Frame disconnect_frame_ = kNullFrame;
    Frame join_ = kNullFrame;
    Frame gap_last_ = kNullFrame;
    Frame prev_join_ = kNullFrame;
};

}  // namespace rwd::rollback::detail
