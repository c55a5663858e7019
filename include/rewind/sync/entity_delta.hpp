/// Entity-list delta coding: a snapshot's entities against a baseline both sides hold (unchanged ~1 bit).
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/wire/context.hpp>
#include <rewind/wire/message.hpp>
#include <rewind/wire/serialize.hpp>
#include <rewind/wire/stream.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <vector>

namespace rwd::sync {

/// Most entities one entity list may hold unless the caller says otherwise (the count is
/// attacker-controlled).
inline constexpr std::uint32_t kDefaultMaxEntities = 1023;

/// How one baseline entity is coded, in baseline (id) order. The reference of a baseline entity is its
/// baseline value advanced by the game's prediction over the baseline's age (the baseline value itself when
/// there is no prediction): both sides compute it from data they both hold.
enum class EntityOp : std::uint8_t {
    unchanged = 0,  ///< `0`: equal to its reference (the prediction held)
    changed = 1,    ///< `10` + sync::serialize_change(value, reference)
    removed = 2,    ///< `110`: no longer in the list (left the area of interest, or gone)
    stale = 3,      ///< `111`: left out by the byte budget: the list keeps the baseline value, the client may
                    ///< keep a newer one it already has for display
};

/// Range-coder model groups (wire::set_context) of the list's own fields; a game's serialize and
/// serialize_delta may use the groups from kFirstGameContext on.
inline constexpr std::uint32_t kOpContext = 0;         ///< each baseline entity's op
inline constexpr std::uint32_t kEnteringContext = 1;   ///< the entering count and ids
inline constexpr std::uint32_t kFirstGameContext = 2;  ///< the first group left to the game

/// Counters of a decoder of untrusted entity lists.
struct EntityDeltaStats {
    std::uint64_t decoded = 0;           ///< lists accepted
    std::uint64_t rejected = 0;          ///< lists refused (all reasons below together)
    std::uint64_t unknown_baseline = 0;  ///< the named baseline is not held (never received, or too old)
    std::uint64_t malformed = 0;  ///< bad bits: truncated, out of range, ids not ascending, non-canonical
    std::uint64_t too_many = 0;   ///< more entities than the limit
};

namespace detail {

// The op and entering-id coders are compiled once for every stream type rewind codes with
// (RWD_WIRE_FOR_EACH_STREAM, src/sync/entity_delta.cpp), not in every list coder that calls them.

/// The op prefix: `0`, `10`, `110`, `111`.
template <class Stream>
bool serialize_entity_op(Stream& s, EntityOp& op);

/// Bits of the uint32 LEB128 varint of `v` (8 per 7-bit group).
constexpr std::size_t varint_bits(std::uint32_t v) {
    std::size_t groups = 1;
    while (v >= 128u) {
        v >>= 7u;
        ++groups;
    }
    return groups * 8;
}

/// An entering entity's id: the first as a varint, later ones as the gap to the previous entering id:
/// `1` + 4 bits (gap - 1) for gaps 1..16, else `0` + varint(gap) with gap > 16 (one encoding per value).
template <class Stream>
bool serialize_entering_id(Stream& s, bool first, std::uint32_t previous, std::uint32_t& id);

}  // namespace detail

/// Bits of an op prefix.
constexpr std::size_t entity_op_bits(EntityOp op) {
    return op == EntityOp::unchanged ? 1u : (op == EntityOp::changed ? 2u : 3u);
}
/// Upper bound of the bits an entering entity's id takes, wherever it falls in the entering list.
constexpr std::size_t entering_id_bits_max(std::uint32_t id) { return 1 + detail::varint_bits(id); }
/// Bits of the entering-count field for `entering` entities under `max_entities`.
constexpr std::size_t entering_count_bits(std::uint32_t entering, std::uint32_t max_entities) {
    return entering == 0 ? 1u : 1u + static_cast<std::size_t>(wire::bits_required(max_entities - 1));
}

/// Bits of the game's full encoding of one entity (its serialize()).
template <class Snap>
std::size_t full_entity_bits(const Snap& v) {
    Snap copy = v;
    wire::MeasureStream m;
    (void)serialize(m, copy);  // the game's codec (ADL)
    return m.bits_used();
}
/// Whether the game codes `Snap` against a reference: an ADL serialize_delta() for the bit-packing streams.
/// Decided once per entity type, so a writer, a reader and a size estimate never disagree on it.
template <class Snap>
concept HasSerializeDelta = requires(wire::WriteStream& w, wire::ReadStream& r, wire::MeasureStream& m,
                                     Snap& v, const Snap& base) {
    serialize_delta(w, v, base);
    serialize_delta(r, v, base);
    serialize_delta(m, v, base);
};

/// A changed entity against its reference: the game's serialize_delta() (ADL) when it has one, else its
/// whole serialize().
template <class Stream, class Snap>
bool serialize_change(Stream& s, Snap& v, const Snap& reference) {
    if constexpr (HasSerializeDelta<Snap>) {
        static_assert(
            requires { serialize_delta(s, v, reference); },
            "serialize_delta must take every stream the library codes with: make it a template over "
            "Stream, like serialize()");
        return serialize_delta(s, v, reference);
    } else {
        return serialize(s, v);
    }
}

/// Bits of the game's delta encoding of `v` against `base` (sync::serialize_change()).
template <class Snap>
std::size_t delta_entity_bits(const Snap& v, const Snap& base) {
    Snap copy = v;
    wire::MeasureStream m;
    (void)serialize_change(m, copy, base);
    return m.bits_used();
}

/// Writes, reads or measures an entity list `view` against `baseline` (both sorted by strictly ascending id):
///   for each baseline entity in id order, its op (EntityOp) and for `changed` the game's delta against its
///   reference (`reference[i]` when `reference` is given: the same ids as `baseline`, each advanced by the
///   game's prediction; else the baseline value);
///   then `0` if nothing enters, else `1` + (count - 1) in bits_required(max_entities - 1) bits, and per
///   entering entity (ascending ids not in the baseline) its id (detail::serialize_entering_id) and the
///   game's full serialize(). `stale` lists (ascending) the ids kept at their baseline value because the
///   budget left them out.
/// Writing: `view` and `stale` are inputs (a stale entity must equal its baseline value); inconsistent input
/// fails with invalid_argument. Reading: both are outputs, overwritten (treat them as scratch: on failure
/// they hold partial data); everything is checked: a `changed` entity equal to its reference, an entering id
/// that is in the baseline, not ascending or over the limit, a count the remaining bits cannot hold -> the
/// stream fails.
template <class Stream, class Record>
bool serialize_entity_delta(Stream& s, std::span<const Record> baseline, std::vector<Record>& view,
                            std::vector<std::uint32_t>& stale,
                            std::uint32_t max_entities = kDefaultMaxEntities,
                            std::span<const Record> reference = {}) {
    if (max_entities < 1) return s.fail(Errc::invalid_argument), false;
    if (!reference.empty() && reference.size() != baseline.size())
        return s.fail(Errc::invalid_argument), false;  // our own data
    if constexpr (Stream::is_reading) {
        view.clear();
        stale.clear();
    }
    // Pass 1: the baseline entities.
    std::size_t j = 0, k = 0;
    std::uint32_t entering = 0;
    for (std::size_t i = 0; i < baseline.size(); ++i) {
        const Record& b = baseline[i];
        const Record& ref = reference.empty() ? b : reference[i];
        if (i > 0 && b.id <= baseline[i - 1].id)
            return s.fail(Errc::invalid_argument), false;  // our own data
        if (ref.id != b.id) return s.fail(Errc::invalid_argument), false;
        EntityOp op = EntityOp::removed;
        if constexpr (!Stream::is_reading) {
            while (j < view.size() && view[j].id < b.id) ++entering, ++j;
            if (j < view.size() && view[j].id == b.id) {
                const bool is_stale = k < stale.size() && stale[k] == b.id;
                if (is_stale) {
                    ++k;
                    if (!(view[j].snap == b.snap)) return s.fail(Errc::invalid_argument), false;
                    op = EntityOp::stale;
                } else {
                    op = view[j].snap == ref.snap ? EntityOp::unchanged : EntityOp::changed;
                }
            }
        }
        wire::set_context(s, kOpContext);  // on a range coder: the ops share one model, whatever came before
        if (!detail::serialize_entity_op(s, op)) return false;
        if (op == EntityOp::changed) {
            if constexpr (Stream::is_reading) {
                Record r = ref;
                if (!sync::serialize_change(s, r.snap, ref.snap))
                    return s.fail(Errc::malformed), false;  // the game's codec
                if (r.snap == ref.snap)
                    return s.fail(Errc::malformed), false;  // "changed" must change something
                view.push_back(r);
            } else {
                auto v = view[j].snap;
                if (!sync::serialize_change(s, v, ref.snap)) return s.fail(Errc::invalid_argument), false;
            }
        } else if constexpr (Stream::is_reading) {
            if (op == EntityOp::unchanged) view.push_back(ref);
            if (op == EntityOp::stale) view.push_back(b), stale.push_back(b.id);
        }
        if constexpr (!Stream::is_reading)
            if (op != EntityOp::removed) ++j;
    }
    if constexpr (!Stream::is_reading) {
        if (k != stale.size()) return s.fail(Errc::invalid_argument), false;  // a stale id not in both lists
        entering += static_cast<std::uint32_t>(view.size() - j);
        if (view.size() > max_entities) return s.fail(Errc::length_too_long), false;
    }

    // The entering count.
    wire::set_context(s, kEnteringContext);
    bool any = entering > 0;
    if (!wire::serialize_bool(s, any)) return false;
    if (any) {
        std::uint32_t c = entering - 1;
        if (!wire::serialize_int(s, c, 0u, max_entities - 1)) return false;
        entering = c + 1;
    }
    if constexpr (Stream::is_reading) {
        // Attacker-controlled count: each entering entity takes at least 5 bits of id.
        if (view.size() + entering > max_entities) return s.fail(Errc::length_too_long), false;
        if (std::size_t{entering} * 5 > s.bits_remaining()) return s.fail(Errc::length_too_long), false;
    }

    // Pass 2: the entering entities, ascending ids.
    std::uint32_t previous = 0;
    if constexpr (Stream::is_reading) {
        const std::size_t kept = view.size();
        std::size_t bi = 0;
        for (std::uint32_t n = 0; n < entering; ++n) {
            Record r{};
            wire::set_context(s, kEnteringContext);
            if (!detail::serialize_entering_id(s, n == 0, previous, r.id)) return false;
            while (bi < baseline.size() && baseline[bi].id < r.id) ++bi;
            if (bi < baseline.size() && baseline[bi].id == r.id) return s.fail(Errc::malformed), false;
            if (!serialize(s, r.snap)) return s.fail(Errc::malformed), false;  // game codec (ADL)
            previous = r.id;
            view.push_back(r);
        }
        // Two ascending runs with no id in both (an entering id in the baseline was refused): merge them.
        if (view.size() > kept) {
            const auto mid = view.begin() + static_cast<std::ptrdiff_t>(kept);
            std::vector<Record> merged;
            merged.reserve(view.size());
            std::merge(std::make_move_iterator(view.begin()), std::make_move_iterator(mid),
                       std::make_move_iterator(mid), std::make_move_iterator(view.end()),
                       std::back_inserter(merged),
                       [](const Record& a, const Record& b) { return a.id < b.id; });
            view.swap(merged);
        }
    } else {
        std::size_t bi = 0;
        bool first = true;
        for (std::size_t v = 0; v < view.size(); ++v) {
            if (v > 0 && view[v].id <= view[v - 1].id) return s.fail(Errc::invalid_argument), false;
            while (bi < baseline.size() && baseline[bi].id < view[v].id) ++bi;
            if (bi < baseline.size() && baseline[bi].id == view[v].id) continue;
            std::uint32_t id = view[v].id;
            wire::set_context(s, kEnteringContext);
            if (!detail::serialize_entering_id(s, first, previous, id)) return false;
            auto snap = view[v].snap;
            if (!serialize(s, snap)) return s.fail(Errc::invalid_argument), false;  // game codec (ADL)
            previous = view[v].id;
            first = false;
        }
    }
    return s.ok();
}

/// Most ticks a prediction advances a baseline: a baseline is at most kMaxSnapshotWindow snapshots old, and
/// a server tick older than this is no baseline worth predicting from.
inline constexpr std::int32_t kMaxPredictionTicks = 65535;

/// The ticks from a baseline's server tick to the snapshot's, held to 0..kMaxPredictionTicks (the snapshot's
/// tick comes from the network: a tick before its baseline predicts nothing).
constexpr std::int32_t prediction_ticks(std::int64_t baseline_tick_to_now) {
    return baseline_tick_to_now < 0
               ? 0
               : static_cast<std::int32_t>(std::min<std::int64_t>(baseline_tick_to_now, kMaxPredictionTicks));
}

/// The `reference` of serialize_entity_delta: every baseline entity, its value advanced by `predict(snap,
/// ticks)` (the game's deterministic prediction; both ends must compute it bit for bit alike).
template <class Record, class Predict>
void predict_records(std::span<const Record> baseline, std::int32_t ticks, Predict&& predict,
                     std::vector<Record>& out) {
    out.assign(baseline.begin(), baseline.end());
    for (Record& r : out) r.snap = predict(r.snap, ticks);
}

/// Encodes `view` against `baseline` into `out` (resized to the bytes used; the last byte zero-padded).
template <class Record>
[[nodiscard]] Status encode_entity_delta(std::span<const Record> baseline, const std::vector<Record>& view,
                                         const std::vector<std::uint32_t>& stale,
                                         std::vector<std::uint8_t>& out,
                                         std::uint32_t max_entities = kDefaultMaxEntities,
                                         std::span<const Record> reference = {}) {
    auto& v = const_cast<std::vector<Record>&>(view);  // the writer only reads it
    auto& st = const_cast<std::vector<std::uint32_t>&>(stale);
    wire::MeasureStream m;
    if (!serialize_entity_delta(m, baseline, v, st, max_entities, reference))
        return Error{m.error(), "entity list does not encode"};
    out.assign((m.bits_used() + 7) / 8, 0);
    wire::WriteStream w{std::span<std::uint8_t>(out)};
    if (!serialize_entity_delta(w, baseline, v, st, max_entities, reference))
        return Error{w.error(), "entity list does not encode"};
    w.flush();
    return {};
}

/// Decodes an untrusted entity list against `baseline`. All or nothing: `view` and `stale` change only on
/// success (the client keeps its last good list otherwise); the outcome is counted in `stats`. Nothing but
/// zero padding may follow the list.
template <class Record>
[[nodiscard]] Status decode_entity_delta(std::span<const std::uint8_t> data, std::span<const Record> baseline,
                                         std::vector<Record>& view, std::vector<std::uint32_t>& stale,
                                         EntityDeltaStats& stats,
                                         std::uint32_t max_entities = kDefaultMaxEntities,
                                         std::span<const Record> reference = {}) {
    std::vector<Record> v;
    std::vector<std::uint32_t> st;
    wire::ReadStream r(data);
    const bool ok = serialize_entity_delta(r, baseline, v, st, max_entities, reference) &&
                    r.bits_remaining() < 8 && wire::serialize_align(r);
    if (!ok) {
        ++stats.rejected;
        if (r.error() == Errc::length_too_long)
            ++stats.too_many;
        else
            ++stats.malformed;
        return Error{r.ok() ? Errc::malformed : r.error(), "entity list rejected"};
    }
    ++stats.decoded;
    view.swap(v);
    stale.swap(st);
    return {};
}

/// For display: `view` with each stale entity replaced by its value in `previous` (the newest list the client
/// already shows), when `previous` has it. Both lists sorted by id; `stale` ascending.
template <class Record>
void refresh_stale(std::span<const Record> previous, std::span<const std::uint32_t> stale,
                   std::vector<Record>& view) {
    std::size_t p = 0, k = 0;
    for (Record& r : view) {
        while (k < stale.size() && stale[k] < r.id) ++k;
        if (k >= stale.size()) break;
        if (stale[k] != r.id) continue;
        ++k;
        while (p < previous.size() && previous[p].id < r.id) ++p;
        if (p < previous.size() && previous[p].id == r.id) r.snap = previous[p].snap;
    }
}

}  // namespace rwd::sync
