/// WorldPlayer: plays a world recording of a client-server match tick by tick, checks it, and seeks from its
/// keyframes.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/core/rng.hpp>
#include <rewind/session/client_server/game_message.hpp>
#include <rewind/session/client_server/world_recording.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_contract.hpp>
#include <rewind/wire/stream.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace rwd::client_server {

/// The world at one recorded tick at a time. Every step() applies a tick's changes and compares the whole
/// world with the checksum the server recorded; seek() starts from the nearest keyframe at or before the
/// target (a keyframe holds the whole world), never from the first tick.
template <class G>
class WorldPlayer {
public:
    using EntitySnapshot = typename G::EntitySnapshot;
    using EntityRecord = typename G::EntityRecord;

    /// A player at the first recorded tick; malformed when a recorded entity does not decode as G's
    /// EntitySnapshot (or does not re-encode to the same bytes).
    [[nodiscard]] static Result<WorldPlayer> create(WorldRecordingData data) {
        std::vector<EntitySnapshot> decoded;
        for (const auto& t : data.ticks()) {
            for (const auto& e : data.entries(t)) {
                EntitySnapshot snap{};
                if (!e.removed && !decode(data.bytes(e), snap))
                    return Error{Errc::malformed,
                                 "a recorded entity does not decode as this game's EntitySnapshot"};
                decoded.push_back(snap);
            }
        }
        return WorldPlayer(std::move(data), std::move(decoded));
    }

    /// Recorded ticks.
    [[nodiscard]] std::size_t size() const { return data_.ticks().size(); }
    /// The index of the tick shown (0..size()-1).
    [[nodiscard]] std::size_t position() const { return pos_; }
    /// The server tick shown.
    [[nodiscard]] Tick tick() const { return size() == 0 ? Tick{} : data_.ticks()[pos_].tick; }
    /// Whether the last recorded tick is shown.
    [[nodiscard]] bool at_end() const { return pos_ + 1 >= size(); }
    /// The header.
    [[nodiscard]] const WorldRecordingHeader& header() const { return data_.header(); }
    /// Every entity of the tick shown, by ascending id.
    [[nodiscard]] const std::vector<EntityRecord>& entities() const { return records_; }
    /// The messages the server sent on the tick shown, in the order sent.
    [[nodiscard]] std::span<const RecordedMessage> messages() const { return messages_at(tick()); }
    /// The messages sent on `t`.
    [[nodiscard]] std::span<const RecordedMessage> messages_at(Tick t) const {
        const auto& all = data_.messages();
        const auto [lo, hi] = std::equal_range(all.begin(), all.end(), t.value, ByTick{});
        return std::span<const RecordedMessage>(all).subspan(static_cast<std::size_t>(lo - all.begin()),
                                                             static_cast<std::size_t>(hi - lo));
    }
    /// A recorded message as a client receives it (for read_message_as<G>).
    [[nodiscard]] static Message as_message(const RecordedMessage& m) {
        Message out;
        out.type = m.message.type;
        out.reliable = m.message.reliable;
        out.tick = m.tick;
        out.payload = m.message.payload;
        return out;
    }

    /// Shows the next tick; false (nothing done) at the end.
    bool step() {
        if (at_end()) return false;
        apply(pos_ + 1);
        return true;
    }
    /// Shows tick index `index` (clamped), from the nearest keyframe at or before it.
    void seek(std::size_t index) {
        if (size() == 0) return;
        index = std::min(index, size() - 1);
        const auto k = std::upper_bound(keyframes_.begin(), keyframes_.end(), index);
        const std::size_t key = *std::prev(k);  // the first tick is a keyframe
        if (!(pos_ <= index && pos_ >= key)) apply(key);
        while (pos_ < index) apply(pos_ + 1);
    }

    /// Ticks whose world was compared with its recorded checksum (each once).
    [[nodiscard]] std::uint64_t checksums_verified() const { return verified_; }
    /// Comparisons that differed (a tick shown again after a seek is compared again).
    [[nodiscard]] std::uint64_t checksum_mismatches() const { return mismatches_; }
    /// Ticks applied since the player was made (the cost of seeking).
    [[nodiscard]] std::uint64_t ticks_applied() const { return applied_; }
    /// The checksum of the world shown, as world_checksum() computes it.
    [[nodiscard]] std::uint64_t world_checksum_now() const {
        world_scratch_.clear();
        for (const auto& [id, entry] : current_)
            world_scratch_.push_back(WorldEntityBytes{id, data_.bytes(data_.all_entries()[entry])});
        return world_checksum(world_scratch_);
    }

private:
    using Entry = WorldRecordingData::Entry;
    struct ByTick {
        bool operator()(const RecordedMessage& m, std::uint32_t t) const { return m.tick.value < t; }
        bool operator()(std::uint32_t t, const RecordedMessage& m) const { return t < m.tick.value; }
    };

    WorldPlayer(WorldRecordingData data, std::vector<EntitySnapshot> decoded)
        : data_(std::move(data)), decoded_(std::move(decoded)) {
        for (std::size_t i = 0; i < data_.ticks().size(); ++i) {
            if (data_.ticks()[i].keyframe) keyframes_.push_back(i);
        }
        checked_.assign(data_.ticks().size(), false);
        if (!data_.ticks().empty()) apply(0);
    }

    static bool decode(std::span<const std::uint8_t> bytes, EntitySnapshot& out) {
        EntitySnapshot snap{};
        wire::ReadStream r(bytes);
        if (!serialize(r, snap) || !r.ok() || r.bytes_used() != bytes.size()) return false;
        std::array<std::uint8_t, kMaxRecordedEntityBytes> again{};
        wire::WriteStream w(std::span<std::uint8_t>(again.data(), again.size()));
        EntitySnapshot copy = snap;
        if (!serialize(w, copy) || !w.ok()) return false;
        w.flush();
        if (w.bytes_used() != bytes.size() || !std::equal(bytes.begin(), bytes.end(), again.begin()))
            return false;
        out = snap;
        return true;
    }

    // Shows tick index `i`: a keyframe replaces the world, a delta merges into the one shown (index i - 1).
    void apply(std::size_t i) {
        const auto& t = data_.ticks()[i];
        if (t.keyframe) current_.clear();
        next_.clear();
        std::size_t a = 0;
        for (std::uint32_t k = 0; k < t.count; ++k) {
            const std::uint32_t entry = t.first + k;
            const Entry& e = data_.all_entries()[entry];
            while (a < current_.size() && current_[a].first < e.id) next_.push_back(current_[a++]);
            if (a < current_.size() && current_[a].first == e.id) ++a;  // replaced or removed
            if (!e.removed) next_.emplace_back(e.id, entry);
        }
        while (a < current_.size()) next_.push_back(current_[a++]);
        current_.swap(next_);
        records_.clear();
        for (const auto& [id, entry] : current_) {
            EntityRecord r{};
            r.id = id;
            r.snap = decoded_[entry];
            records_.push_back(r);
        }
        pos_ = i;
        ++applied_;
        if (!checked_[i]) {  // each tick counted once, in whatever order seeks show it
            checked_[i] = true;
            ++verified_;
        }
        if (world_checksum_now() != t.checksum) ++mismatches_;
    }

    WorldRecordingData data_;
    std::vector<EntitySnapshot> decoded_;  // by entry, in file order (removals hold a default value)
    std::vector<std::size_t> keyframes_;   // tick indices of the keyframes
    std::vector<std::pair<std::uint32_t, std::uint32_t>> current_;  // the world shown: id, entry
    std::vector<std::pair<std::uint32_t, std::uint32_t>> next_;     // scratch
    std::vector<EntityRecord> records_;
    mutable std::vector<WorldEntityBytes> world_scratch_;
    std::size_t pos_ = 0;
    std::vector<bool> checked_;  // by tick index: compared with its checksum at least once
    std::uint64_t verified_ = 0;
    std::uint64_t mismatches_ = 0;
    std::uint64_t applied_ = 0;
};

/// What verify_world() found.
struct WorldVerdict {
    std::size_t ticks = 0;                  ///< ticks played
    std::uint64_t checksums_verified = 0;   ///< ticks compared with their recorded checksum
    std::uint64_t checksum_mismatches = 0;  ///< comparisons that differed
    int seeks = 0;                          ///< seeks to seeded ticks
    int seek_mismatches = 0;                ///< seeks that showed another world than the straight play
    double seek_ticks_mean = 0;             ///< ticks applied per seek
    std::size_t messages = 0;               ///< messages in the recording
    [[nodiscard]] bool exact() const { return checksum_mismatches == 0 && seek_mismatches == 0; }
};

/// Checks a recording: plays every tick from the first (each world against its recorded checksum), then seeks
/// to `seeks` ticks drawn from `seed` and compares each world with the straight play's.
template <class G>
WorldVerdict verify_world(WorldPlayer<G>& player, int seeks, std::uint64_t seed) {
    WorldVerdict v;
    player.seek(0);
    std::vector<std::uint64_t> straight;
    straight.push_back(player.world_checksum_now());
    while (player.step()) straight.push_back(player.world_checksum_now());
    v.ticks = player.size();
    Rng rng(seed, 0x5EE5);
    const std::uint64_t before = player.ticks_applied();
    for (int i = 0; i < seeks && player.size() > 0; ++i) {
        const std::size_t target = rng.uniform(static_cast<std::uint32_t>(player.size()));
        player.seek(target);
        ++v.seeks;
        if (player.position() != target || player.world_checksum_now() != straight[target])
            ++v.seek_mismatches;
    }
    if (v.seeks > 0)
        v.seek_ticks_mean =
            static_cast<double>(player.ticks_applied() - before) / static_cast<double>(v.seeks);
    v.checksums_verified = player.checksums_verified();
    v.checksum_mismatches = player.checksum_mismatches();
    return v;
}

}  // namespace rwd::client_server
