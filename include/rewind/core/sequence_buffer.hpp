/// SequenceBuffer: a fixed window of the newest N entries keyed by a wrapping sequence or tick number (no
/// heap; a slot is first written when an entry is inserted in it).
#pragma once

#include <rewind/core/tick.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace rwd {

namespace detail {

/// Maps a SequenceBuffer key type to its raw unsigned representation.
template <class Key>
struct SeqKeyTraits;
/// 16-bit wire sequence numbers (Seq16).
template <>
struct SeqKeyTraits<std::uint16_t> {
    using Raw = std::uint16_t;
    static constexpr Raw raw(std::uint16_t k) { return k; }
    static constexpr std::uint16_t key(Raw r) { return r; }
};
/// Raw 32-bit tick numbers.
template <>
struct SeqKeyTraits<std::uint32_t> {
    using Raw = std::uint32_t;
    static constexpr Raw raw(std::uint32_t k) { return k; }
    static constexpr std::uint32_t key(Raw r) { return r; }
};
/// Tick.
template <>
struct SeqKeyTraits<Tick> {
    using Raw = std::uint32_t;
    static constexpr Raw raw(Tick k) { return k.value; }
    static constexpr Tick key(Raw r) { return Tick{r}; }
};

}  // namespace detail

/// The classic reliable.io / yojimbo sequence buffer: slot = sequence mod N, with each slot's sequence and a
/// valid flag stored beside it. Inserting a newer sequence invalidates every slot the window slides past, so
/// an entry that fell out of the window is never returned, also across the wrap. Comparisons are wrap-aware:
/// a sequence is newer when it is ahead the short way round the circle. Key is Seq16 (std::uint16_t),
/// std::uint32_t or Tick. N must be a power of two (so slots stay consecutive across the wrap) and at most
/// half the key's range (so "newer" is unambiguous).
template <class T, std::size_t N, class Key = std::uint16_t>
class SequenceBuffer {
    using Traits = detail::SeqKeyTraits<Key>;
    using Raw = typename Traits::Raw;
    static_assert(N > 0 && (N & (N - 1)) == 0, "SequenceBuffer capacity must be a power of two");
    static_assert(N <= (std::size_t{1} << (8 * sizeof(Raw) - 1)),
                  "SequenceBuffer capacity exceeds half the key range");
    static_assert(std::is_default_constructible_v<T> && std::is_move_assignable_v<T>,
                  "SequenceBuffer entries must be default constructible and assignable");

public:
    /// An empty buffer. A trivially copyable entry is not built before it is inserted: a buffer of large flat
    /// entries (a client's predicted worlds weigh megabytes) writes none of that memory until it is used.
    /// Other entries (a world that owns heap memory) are all built here, as value-initialized.
    SequenceBuffer() {}  // NOLINT(modernize-use-equals-default): = default would zero every slot

    /// The key type entries are stored under.
    using key_type = Key;
    /// The entry type.
    using value_type = T;

    /// Number of slots: the window keeps the newest N sequences.
    static constexpr std::size_t capacity() { return N; }

    /// Stores a fresh (value-initialized) entry for `seq` and returns it, or nullptr when `seq` is too old:
    /// at or beyond N behind the newest. A newer `seq` slides the window forward and drops the entries it
    /// passes. Inserting an existing sequence again resets its entry.
    T* insert(Key key) {
        const std::size_t i = claim(key);
        if (i == kTooOld) return nullptr;
        T* entry = nullptr;
        if constexpr (kBuiltOnInsert)
            entry = std::construct_at(&slots_[i].entry);
        else
            entry = &(slots_[i].entry = T{});
        valid_[i] = true;
        return entry;
    }
    /// As insert(key), with the entry a copy of `value`: one write of the entry where insert(key) and an
    /// assignment are two (for a large entry, such as a predicted world, that is most of the cost). `value`
    /// must not be an entry of this buffer.
    T* insert(Key key, const T& value) {
        static_assert(std::is_copy_constructible_v<T> && std::is_copy_assignable_v<T>,
                      "insert(key, value) copies the entry: T must be copyable (insert(key) needs no copy)");
        const std::size_t i = claim(key);
        if (i == kTooOld) return nullptr;
        T* entry = nullptr;
        if constexpr (kBuiltOnInsert)
            entry = std::construct_at(&slots_[i].entry, value);
        else
            entry = &(slots_[i].entry = value);
        valid_[i] = true;
        return entry;
    }

    /// The entry for `seq`, or nullptr if it was never inserted, was removed or fell out of the window.
    T* find(Key key) {
        const Raw seq = Traits::raw(key);
        const std::size_t i = index_of(seq);
        return valid_[i] && sequence_[i] == seq ? &slots_[i].entry : nullptr;
    }
    /// The entry for `seq`, or nullptr (const).
    const T* find(Key key) const { return const_cast<SequenceBuffer*>(this)->find(key); }

    /// Whether an entry for `seq` is present.
    [[nodiscard]] bool exists(Key key) const { return find(key) != nullptr; }

    /// Drops the entry for `seq` if present (the window does not move).
    void remove(Key key) {
        const Raw seq = Traits::raw(key);
        const std::size_t i = index_of(seq);
        if (valid_[i] && sequence_[i] == seq) valid_[i] = false;
    }

    /// Whether anything has been inserted since construction or reset().
    [[nodiscard]] bool has_newest() const { return has_newest_; }
    /// The newest sequence ever inserted (the head of the window); Key{} before the first insert.
    [[nodiscard]] Key newest() const { return Traits::key(newest_); }

    /// Whether `seq` would be refused by insert() as too old.
    [[nodiscard]] bool is_too_old(Key key) const { return has_newest_ && too_old(Traits::raw(key)); }

    /// Empties the buffer; the next insert starts a new window anywhere.
    void reset() {
        valid_.fill(false);
        has_newest_ = false;
        newest_ = 0;
    }

private:
    /// A trivially copyable entry is built in its slot by insert() only (a slot that was never valid holds no
    /// entry, and copying the buffer copies its bytes); any other lives in its slot from construction and is
    /// assigned by insert().
    static constexpr bool kBuiltOnInsert = std::is_trivially_copyable_v<T>;
    union LazySlot {
        LazySlot() {}  // NOLINT(modernize-use-equals-default): leaves the entry unbuilt
        T entry;
    };
    struct BuiltSlot {
        T entry{};
    };
    using SlotType = std::conditional_t<kBuiltOnInsert, LazySlot, BuiltSlot>;

    static constexpr std::size_t kTooOld = N;
    /// insert()'s window step: the slot index for `key`, left invalid until insert() has built its entry (an
    /// entry that fails to build leaves no valid slot), or kTooOld.
    std::size_t claim(Key key) {
        const Raw seq = Traits::raw(key);
        if (!has_newest_) {
            has_newest_ = true;
            newest_ = seq;
        } else if (is_newer(seq, newest_)) {
            invalidate_range(static_cast<Raw>(newest_ + 1u), seq);
            newest_ = seq;
        } else if (too_old(seq)) {
            return kTooOld;
        }
        const std::size_t i = index_of(seq);
        sequence_[i] = seq;
        valid_[i] = false;
        return i;
    }
    static constexpr std::size_t index_of(Raw seq) { return static_cast<std::size_t>(seq) & (N - 1); }
    static constexpr bool is_newer(Raw a, Raw b) {
        using Signed = std::make_signed_t<Raw>;
        return static_cast<Signed>(static_cast<Raw>(a - b)) > 0;
    }
    /// Behind the newest by N or more (or "ahead" by more than half the circle, which reads as behind).
    [[nodiscard]] bool too_old(Raw seq) const {
        return !is_newer(seq, newest_) && static_cast<Raw>(newest_ - seq) >= N;
    }
    /// Invalidates slots for sequences first..last inclusive (wrap-aware); all slots if that spans N or more.
    void invalidate_range(Raw first, Raw last) {
        const std::size_t span = static_cast<std::size_t>(static_cast<Raw>(last - first)) + 1;
        if (span >= N) {
            valid_.fill(false);
            return;
        }
        for (std::size_t k = 0; k < span; ++k) valid_[index_of(static_cast<Raw>(first + k))] = false;
    }

    std::array<SlotType, N> slots_;
    std::array<Raw, N> sequence_{};
    std::array<bool, N> valid_{};
    Raw newest_ = 0;
    bool has_newest_ = false;
};

}  // namespace rwd
