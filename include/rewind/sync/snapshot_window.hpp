/// SnapshotWindow: one peer's recent snapshots (entity lists) by sequence, and the acknowledged delta
/// baseline.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/sequence.hpp>
#include <rewind/core/tick.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rwd::sync {

/// Largest window a SnapshotWindow may keep (a baseline age must fit the snapshot's 8-bit age field).
inline constexpr std::size_t kMaxSnapshotWindow = 64;

/// The server keeps one per client: every snapshot it sent (the entity list the client holds after decoding
/// it), so that the next one can be delta-encoded against the newest one the client acknowledged. The client
/// keeps one too: every snapshot it decoded, so that it can find the baseline the server names. Entries are
/// keyed by the 16-bit snapshot sequence (wrap-aware); the newest `capacity` sequences are kept. Record is
/// any type; the window only stores vectors of it (their capacity is reused, so a warm window does not
/// allocate).
template <class Record>
class SnapshotWindow {
public:
    /// One stored snapshot.
    struct Entry {
        bool valid = false;            ///< holds a snapshot
        std::uint16_t sequence = 0;    ///< its per-peer snapshot sequence
        Tick tick{};                   ///< the server tick it describes
        std::vector<Record> entities;  ///< the entity list, sorted by id
    };

    /// A window of the newest `capacity` snapshots, 1..kMaxSnapshotWindow (clamped into that range).
    explicit SnapshotWindow(std::size_t capacity = 32) { set_capacity(capacity); }

    /// Changes the capacity (1..kMaxSnapshotWindow, clamped) and empties the window.
    void set_capacity(std::size_t capacity) {
        capacity_ = capacity < 1 ? 1 : (capacity > kMaxSnapshotWindow ? kMaxSnapshotWindow : capacity);
        // Slots are a power of two at least the capacity, so consecutive sequences never collide across the
        // 16-bit wrap; age checks use capacity_, not the slot count.
        std::size_t slots = 1;
        while (slots < capacity_) slots <<= 1;
        entries_.resize(slots);
        reset();
    }
    /// How many snapshots are kept.
    [[nodiscard]] std::size_t capacity() const { return capacity_; }

    /// Forgets everything (a new connection): no snapshot, no acknowledgement.
    void reset() {
        for (Entry& e : entries_) {
            e.valid = false;
            e.entities.clear();
        }
        has_newest_ = false;
        newest_ = 0;
        has_ack_ = false;
        acked_ = Tick{};
    }

    /// Stores a new snapshot `sequence` for `tick` and returns its (empty) entity list to fill. A sequence
    /// not newer than the newest stored is still stored if it is within the window (a client may store an old
    /// one), otherwise the returned list is a scratch list that is never found.
    std::vector<Record>& push(std::uint16_t sequence, Tick tick) {
        if (!has_newest_ || seq_greater(sequence, newest_)) {
            // Invalidate the slots the window slides past.
            const std::int32_t advance = has_newest_ ? seq_diff(sequence, newest_) : 1;
            for (std::int32_t k = 1; k <= advance && k <= static_cast<std::int32_t>(entries_.size()); ++k)
                slot(static_cast<std::uint16_t>(sequence - (advance - k))).valid = false;
            has_newest_ = true;
            newest_ = sequence;
        } else if (!in_window(sequence)) {
            scratch_.clear();
            return scratch_;
        }
        Entry& e = slot(sequence);
        e.valid = true;
        e.sequence = sequence;
        e.tick = tick;
        e.entities.clear();
        return e.entities;
    }

    /// The snapshot with `sequence`, or nullptr if it was never stored or fell out of the window.
    [[nodiscard]] const Entry* find(std::uint16_t sequence) const {
        if (!has_newest_ || !in_window(sequence)) return nullptr;
        const Entry& e = slot(sequence);
        return e.valid && e.sequence == sequence ? &e : nullptr;
    }

    /// The snapshot for server tick `tick`, or nullptr (the newest match if one tick was sent twice).
    [[nodiscard]] const Entry* find_tick(Tick tick) const {
        const Entry* best = nullptr;
        for (const Entry& e : entries_)
            if (e.valid && e.tick == tick && in_window(e.sequence) &&
                (!best || seq_greater(e.sequence, best->sequence)))
                best = &e;
        return best;
    }

    /// The stored snapshot with the earliest tick after `tick` (wrap-aware), or nullptr if none is in the
    /// window. A client drawing its world at a time between `tick` and `tick + 1` shows this snapshot's
    /// entities (the later of the two it interpolates between), so this is what it held at that time.
    [[nodiscard]] const Entry* first_after(Tick tick) const {
        const Entry* best = nullptr;
        for (const Entry& e : entries_)
            if (e.valid && e.tick > tick && in_window(e.sequence) && (!best || e.tick < best->tick))
                best = &e;
        return best;
    }

    /// Records the peer's acknowledgement of the snapshot for `tick` (untrusted: any value). Only a tick
    /// newer than the one already acknowledged and not newer than the newest stored snapshot moves the
    /// baseline (wrap-aware), so a bogus future tick cannot pin it; before any snapshot is stored there is
    /// nothing to acknowledge. Returns whether it moved.
    bool ack(Tick tick) {
        if (has_ack_ && !(tick > acked_)) return false;
        if (!has_newest_ || !slot(newest_).valid || tick > slot(newest_).tick) return false;
        has_ack_ = true;
        acked_ = tick;
        return true;
    }

    /// The snapshot to encode the next one against: the newest acknowledged one if it is still in the window,
    /// else nullptr (nothing acknowledged, an unknown tick, or too old: encode against the empty baseline).
    [[nodiscard]] const Entry* baseline() const { return has_ack_ ? find_tick(acked_) : nullptr; }

    /// Whether any snapshot has been stored.
    [[nodiscard]] bool has_newest() const { return has_newest_; }
    /// The newest sequence stored (0 before the first).
    [[nodiscard]] std::uint16_t newest_sequence() const { return newest_; }
    /// Whether an acknowledgement arrived.
    [[nodiscard]] bool has_ack() const { return has_ack_; }
    /// The newest acknowledged tick (Tick{} before the first).
    [[nodiscard]] Tick acked_tick() const { return acked_; }

private:
    [[nodiscard]] bool in_window(std::uint16_t sequence) const {
        const std::int32_t age = seq_diff(newest_, sequence);
        return age >= 0 && age < static_cast<std::int32_t>(capacity_);
    }
    Entry& slot(std::uint16_t sequence) { return entries_[sequence & (entries_.size() - 1)]; }
    [[nodiscard]] const Entry& slot(std::uint16_t sequence) const {
        return entries_[sequence & (entries_.size() - 1)];
    }

    std::size_t capacity_ = 32;
    std::vector<Entry> entries_;
    std::vector<Record> scratch_;
    bool has_newest_ = false;
    std::uint16_t newest_ = 0;
    bool has_ack_ = false;
    Tick acked_{};
};

}  // namespace rwd::sync
