/// RingBuffer: a fixed-capacity FIFO with indexing and iteration, oldest first (no heap).
#pragma once

#include <array>
#include <cassert>
#include <compare>
#include <cstddef>
#include <iterator>
#include <type_traits>
#include <utility>

namespace rwd {

/// A FIFO of at most N values stored inline. push_back refuses when full; push_overwrite evicts the oldest.
/// Index 0 is the oldest element, size()-1 the newest. Slots hold default-constructed T when unused.
template <class T, std::size_t N>
class RingBuffer {
    static_assert(N > 0, "RingBuffer capacity must be positive");
    static_assert(std::is_default_constructible_v<T>, "RingBuffer elements must be default constructible");

    template <bool Const>
    class Iter;

public:
    /// The element type.
    using value_type = T;
    /// Mutable iterator, oldest to newest.
    using iterator = Iter<false>;
    /// Read-only iterator, oldest to newest.
    using const_iterator = Iter<true>;

    /// The fixed capacity.
    static constexpr std::size_t capacity() { return N; }
    /// Number of elements held.
    [[nodiscard]] constexpr std::size_t size() const { return size_; }
    /// Whether no elements are held.
    [[nodiscard]] constexpr bool empty() const { return size_ == 0; }
    /// Whether size() == capacity().
    [[nodiscard]] constexpr bool full() const { return size_ == N; }

    /// Appends `value` as the newest element; returns false (and leaves the buffer unchanged) when full.
    [[nodiscard]] constexpr bool push_back(T value) {
        if (full()) return false;
        items_[slot(size_)] = std::move(value);
        ++size_;
        return true;
    }

    /// Appends `value` as the newest element, evicting the oldest when full. Returns true if one was evicted.
    constexpr bool push_overwrite(T value) {
        if (full()) {
            items_[head_] = std::move(value);
            head_ = next(head_);
            return true;
        }
        items_[slot(size_)] = std::move(value);
        ++size_;
        return false;
    }

    /// Removes the oldest element. Precondition: !empty().
    constexpr void pop_front() {
        assert(!empty());
        if (empty()) return;
        items_[head_] = T{};
        head_ = next(head_);
        --size_;
    }
    /// Removes the newest element. Precondition: !empty().
    constexpr void pop_back() {
        assert(!empty());
        if (empty()) return;
        --size_;
        items_[slot(size_)] = T{};
    }
    /// Removes all elements.
    constexpr void clear() {
        while (!empty()) pop_front();
        head_ = 0;
    }

    /// The i-th oldest element (0 = oldest). Precondition: i < size().
    constexpr T& operator[](std::size_t i) {
        assert(i < size_);
        return items_[slot(i)];
    }
    /// The i-th oldest element (0 = oldest). Precondition: i < size().
    constexpr const T& operator[](std::size_t i) const {
        assert(i < size_);
        return items_[slot(i)];
    }
    /// The oldest element. Precondition: !empty().
    constexpr T& front() { return (*this)[0]; }
    /// The oldest element. Precondition: !empty().
    constexpr const T& front() const { return (*this)[0]; }
    /// The newest element. Precondition: !empty().
    constexpr T& back() { return (*this)[size_ - 1]; }
    /// The newest element. Precondition: !empty().
    constexpr const T& back() const { return (*this)[size_ - 1]; }

    /// Iterator to the oldest element.
    constexpr iterator begin() { return iterator(this, 0); }
    /// Iterator past the newest element.
    constexpr iterator end() { return iterator(this, size_); }
    /// Read-only iterator to the oldest element.
    constexpr const_iterator begin() const { return const_iterator(this, 0); }
    /// Read-only iterator past the newest element.
    constexpr const_iterator end() const { return const_iterator(this, size_); }
    /// Read-only iterator to the oldest element.
    constexpr const_iterator cbegin() const { return begin(); }
    /// Read-only iterator past the newest element.
    constexpr const_iterator cend() const { return end(); }

private:
    static constexpr std::size_t next(std::size_t s) { return s + 1 == N ? 0 : s + 1; }
    constexpr std::size_t slot(std::size_t i) const {
        const std::size_t s = head_ + i;  // head_ < N and i <= N, so one subtraction suffices
        return s >= N ? s - N : s;
    }

    /// Random-access iterator over logical positions 0..size().
    template <bool Const>
    class Iter {
        using Owner = std::conditional_t<Const, const RingBuffer, RingBuffer>;

    public:
        using iterator_category = std::random_access_iterator_tag;
        using iterator_concept = std::random_access_iterator_tag;
        using value_type = T;
        using difference_type = std::ptrdiff_t;
        using pointer = std::conditional_t<Const, const T*, T*>;
        using reference = std::conditional_t<Const, const T&, T&>;

        constexpr Iter() = default;
        constexpr Iter(Owner* owner, std::size_t pos) : owner_(owner), pos_(pos) {}
        /// A mutable iterator converts to a read-only one.
        template <bool C = Const, class = std::enable_if_t<C>>
        constexpr Iter(const Iter<false>& other) : owner_(other.owner_), pos_(other.pos_) {}  // NOLINT

        constexpr reference operator*() const { return (*owner_)[pos_]; }
        constexpr pointer operator->() const { return &(*owner_)[pos_]; }
        constexpr reference operator[](difference_type d) const { return *(*this + d); }

        constexpr Iter& operator++() {
            ++pos_;
            return *this;
        }
        constexpr Iter operator++(int) {
            Iter t = *this;
            ++pos_;
            return t;
        }
        constexpr Iter& operator--() {
            --pos_;
            return *this;
        }
        constexpr Iter operator--(int) {
            Iter t = *this;
            --pos_;
            return t;
        }
        constexpr Iter& operator+=(difference_type d) {
            pos_ = static_cast<std::size_t>(static_cast<difference_type>(pos_) + d);
            return *this;
        }
        constexpr Iter& operator-=(difference_type d) { return *this += -d; }
        friend constexpr Iter operator+(Iter it, difference_type d) { return it += d; }
        friend constexpr Iter operator+(difference_type d, Iter it) { return it += d; }
        friend constexpr Iter operator-(Iter it, difference_type d) { return it -= d; }
        friend constexpr difference_type operator-(const Iter& a, const Iter& b) {
            return static_cast<difference_type>(a.pos_) - static_cast<difference_type>(b.pos_);
        }
        friend constexpr bool operator==(const Iter& a, const Iter& b) { return a.pos_ == b.pos_; }
        friend constexpr auto operator<=>(const Iter& a, const Iter& b) { return a.pos_ <=> b.pos_; }

    private:
        friend class Iter<!Const>;
        Owner* owner_ = nullptr;
        std::size_t pos_ = 0;
    };

    std::array<T, N> items_{};
    std::size_t head_ = 0;
    std::size_t size_ = 0;
};

}  // namespace rwd
