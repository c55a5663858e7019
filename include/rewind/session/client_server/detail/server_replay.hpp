/// ReplayTick and ReplayRing (internal): the server's record of its last ticks, for replaying late inputs.
#pragma once

#include <rewind/core/tick.hpp>
#include <rewind/session/client_server/message_outbox.hpp>
#include <rewind/sync/view_time.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace rwd::client_server {

/// One simulated tick as the server ran it: the world before it, every seat's input, which of them were
/// repeats, the view times its shots were judged at, and the messages the game sent after it.
template <class G>
struct ReplayTick {
    Tick tick{};
    bool valid = false;
    typename G::State before{};
    std::array<typename G::Input, G::kMaxPlayers> inputs{};
    std::array<bool, G::kMaxPlayers> repeated{};  ///< played with the previous input repeated (fires nothing)
    std::array<bool, G::kMaxPlayers> replaced{};  ///< a replay put the late real input here (judge its shot)
    std::array<bool, G::kMaxPlayers> shot{};      ///< fired, judged at views[slot]
    std::array<ViewTime, G::kMaxPlayers> views{};
    std::vector<OutMessage> messages;  ///< the game's messages sent for it (a replay must send them again)
};

/// The last `capacity` ticks, indexed by tick. capacity 0 records nothing (no replays).
template <class G>
class ReplayRing {
public:
    explicit ReplayRing(int capacity) : ticks_(static_cast<std::size_t>(capacity > 0 ? capacity : 0)) {}

    /// The record for `tick`, reset for a new tick (nullptr with capacity 0).
    ReplayTick<G>* record(Tick tick) {
        if (ticks_.empty()) return nullptr;
        ReplayTick<G>& r = ticks_[tick.value % ticks_.size()];
        r.tick = tick;
        r.valid = true;
        r.repeated.fill(false);
        r.replaced.fill(false);
        r.shot.fill(false);
        r.messages.clear();
        return &r;
    }
    /// The record of `tick` if it is held.
    [[nodiscard]] ReplayTick<G>* find(Tick tick) {
        if (ticks_.empty()) return nullptr;
        ReplayTick<G>& r = ticks_[tick.value % ticks_.size()];
        return r.valid && r.tick == tick ? &r : nullptr;
    }
    /// Forgets every tick.
    void clear() {
        for (ReplayTick<G>& r : ticks_) r.valid = false;
    }
    /// Ticks it can hold.
    [[nodiscard]] int capacity() const { return static_cast<int>(ticks_.size()); }

private:
    std::vector<ReplayTick<G>> ticks_;
};

/// Whether two worlds are the same (== if the game defines it, else their bytes if those say so); false when
/// that cannot be told, so that a world the app may have changed is never replayed over.
template <class S>
bool same_state(const S& a, const S& b) {
    if constexpr (std::equality_comparable<S>)
        return a == b;
    else if constexpr (std::has_unique_object_representations_v<S>)
        return std::memcmp(&a, &b, sizeof(S)) == 0;
    else
        return false;
}

/// Whether every message of `sent` is also in `again` (as a multiset), and the ones of `again` that are not
/// into `extra`.
inline bool messages_kept(const std::vector<OutMessage>& sent, const std::vector<OutMessage>& again,
                          std::vector<OutMessage>& extra) {
    std::vector<bool> used(again.size(), false);
    for (const OutMessage& m : sent) {
        bool found = false;
        for (std::size_t i = 0; i < again.size() && !found; ++i)
            if (!used[i] && m == again[i]) used[i] = found = true;
        if (!found) return false;
    }
    for (std::size_t i = 0; i < again.size(); ++i)
        if (!used[i]) extra.push_back(again[i]);
    return true;
}

}  // namespace rwd::client_server
