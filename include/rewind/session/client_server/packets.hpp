/// InputPacket<Input> and SnapshotPacket<EntityRecord>: the two messages that carry the game's own types, and
/// their serialize() (the fixed parts are the compiled InputPacketHead/Tail and SnapshotHeader).
#pragma once

#include <rewind/session/client_server/message_codec.hpp>
#include <rewind/session/client_server/messages.hpp>
#include <rewind/sync/entity_delta.hpp>
#include <rewind/sync/snapshot_window.hpp>
#include <rewind/wire/message.hpp>
#include <rewind/wire/range_coder.hpp>
#include <rewind/wire/serialize.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

namespace rwd::client_server {

/// Client inputs. inputs[0] is for newest_tick, inputs[i] for newest_tick - i, count of them valid. A packet
/// with count 0 is a ping (and snapshot ack) only: the client sends those while it syncs its clock, before it
/// ticks.
template <class Input>
struct InputPacket {
    std::uint16_t sequence = 0;  ///< per-connection packet counter (loss measurement)
    Tick newest_tick{};          ///< the client tick of inputs[0]
    std::uint8_t count = 1;      ///< 0..kInputsPerPacket
    std::array<Input, kInputsPerPacket> inputs{};
    bool has_ack = false;                      ///< whether ack_snapshot_tick is valid
    Tick ack_snapshot_tick{};                  ///< newest snapshot decoded (baseline for deltas)
    std::uint32_t ping_time = 0;               ///< client clock in microseconds, low 32 bits; echoed back
    std::uint16_t interpolation_delay_ms = 0;  ///< how far behind the server the client draws others, 0..1000
};

/// Where a range-coded entity section is built or read (the coder's models are large: a sender or receiver
/// keeps one and reuses it for every snapshot).
struct RangeSectionScratch {
    std::vector<std::uint8_t> bytes;               ///< the coded list
    std::optional<wire::RangeWriteStream> writer;  ///< re-made per section: every section decodes on its own
    std::optional<wire::RangeReadStream> reader;   ///< ditto
    /// The game's trained starting table (null: every model starts at 1/2). A writer codes with it; a reader
    /// decodes with it the lists whose `trained` bit says so.
    const wire::RangeModel* model = nullptr;
    /// When set, a writer also counts every list it really writes (not measures) into it.
    wire::RangeModelTrainer* trainer = nullptr;
};

/// The entity section of a snapshot: every entity the client holds after it, delta-coded against a baseline.
template <class EntityRecord>
struct SnapshotEntities {
    std::uint8_t baseline_age = 0;       ///< 0: no baseline; else sequence - the baseline's sequence (1..64)
    std::vector<EntityRecord> entities;  ///< sorted by strictly ascending id
    std::vector<std::uint32_t>
        stale;  ///< ids left out by the byte budget: entities[] holds the baseline value
    /// Not on the wire: the baseline's entities. The writer sets it with baseline_age; a reader gets it from
    /// the baseline finder it passes to read_snapshot_entities() / decode_snapshot().
    std::span<const EntityRecord> baseline{};
    /// Not on the wire: the baseline advanced by the game's prediction (same ids; empty: no prediction), what
    /// each entity is coded against. The writer sets it; a reader gets it from its predictor.
    std::span<const EntityRecord> reference{};
    /// Not on the wire: a writer that sets it range-codes the list with it (null: bit-packed).
    RangeSectionScratch* range = nullptr;
    /// Whether the list is range-coded: a reader sets it; a writer with it set and no `range` range-codes the
    /// list with a scratch of its own (so what was read re-encodes to the same bytes).
    bool range_coded = false;
    /// Not on the wire: the trained table a range-coded list was coded with (null: none). A reader sets it; a
    /// writer without its own `range` codes with it.
    const wire::RangeModel* model = nullptr;
};

/// Most bytes a range-coded entity list may take when only measured (a real datagram bounds it first).
inline constexpr std::size_t kMaxRangeSectionBytes = 65536;

/// The predictor of a reader that has none: a snapshot coded against a predicted baseline is refused.
struct NoPrediction {
    /// Cannot predict (false).
    template <class EntityRecord>
    bool operator()(std::uint16_t /*baseline_sequence*/, std::span<const EntityRecord> /*baseline*/,
                    std::span<const EntityRecord>& /*reference*/) const {
        return false;
    }
};

/// Server state for one client: the header, then the entity section delta-coded against the snapshot sent
/// `baseline_age` sequences earlier (which the client acknowledged), or the empty list when baseline_age is
/// 0.
template <class EntityRecord>
struct SnapshotPacket : SnapshotHeader, SnapshotEntities<EntityRecord> {
    bool baseline_missing = false;  ///< not on the wire: a read failed because the named baseline is not held
};

/// InputPacket fields; the inputs go through the game's ADL serialize(Stream&, Input&).
template <class Stream, class Input>
bool serialize(Stream& s, InputPacket<Input>& m) {
    InputPacketHead head{m.sequence, m.newest_tick, m.count};
    if (!serialize(s, head)) return false;
    m.sequence = head.sequence;
    m.newest_tick = head.newest_tick;
    m.count = head.count;
    for (int i = 0; i < m.count; ++i) {
        if (!serialize(s, m.inputs[static_cast<std::size_t>(i)])) {  // the game's quantized input (ADL)
            s.fail(Errc::malformed);
            return false;
        }
    }
    InputPacketTail tail{m.has_ack, m.ack_snapshot_tick, m.ping_time, m.interpolation_delay_ms};
    if (!serialize(s, tail)) return false;
    m.has_ack = tail.has_ack;
    m.ack_snapshot_tick = tail.ack_snapshot_tick;
    m.ping_time = tail.ping_time;
    m.interpolation_delay_ms = tail.interpolation_delay_ms;
    return true;
}

/// A full entity list: a count, then per entity its id gap and the game's serialize(). Snapshots no longer
/// use it (they are delta-coded against a baseline); it stays as the reference "full quantized snapshot" that
/// bandwidth figures are compared with.
template <class Stream, class EntityRecord>
bool serialize_entities(Stream& s, std::vector<EntityRecord>& entities) {
    auto count = static_cast<std::uint32_t>(entities.size());
    if (!wire::serialize_int(s, count, 0u, kMaxSnapshotEntities)) return false;
    if constexpr (Stream::is_reading) {
        // The count is attacker-controlled: every entity takes at least 2 bits, so a larger count is a lie.
        if (std::size_t{count} * 2 > s.bits_remaining()) return s.fail(Errc::length_too_long), false;
        entities.resize(count);
    }
    std::uint32_t previous = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        auto& e = entities[i];
        // Ids ascend strictly: the first is sent in full, then small gaps (1..16) in 5 bits, others in 33.
        std::uint32_t gap = i == 0 ? e.id : e.id - previous;
        if constexpr (!Stream::is_reading)
            if (i > 0 && e.id <= previous) return s.fail(Errc::invalid_argument), false;
        bool small = i > 0 && gap >= 1 && gap <= 16;
        if (!wire::serialize_bool(s, small)) return false;
        if constexpr (Stream::is_reading)
            if (i == 0 && small)
                return s.fail(Errc::malformed), false;  // the first id is always sent in full
        if (small) {
            std::uint32_t g = gap - 1;
            if (!wire::serialize_bits(s, g, 4)) return false;
            gap = g + 1;
        } else if (!wire::serialize_bits(s, gap, 32)) {
            return false;
        }
        if constexpr (Stream::is_reading) {
            // Reject anything that is not strictly ascending (a zero gap or one that wraps past 2^32).
            if (i > 0 && (gap == 0 || previous + gap <= previous)) return s.fail(Errc::malformed), false;
            if (i > 0 && !small && gap <= 16)
                return s.fail(Errc::malformed), false;  // one encoding per value
            e.id = i == 0 ? gap : previous + gap;
        }
        previous = e.id;
        if (!serialize(s, e.snap)) return s.fail(Errc::malformed), false;  // the game's entity codec (ADL)
    }
    return s.ok();
}

/// Writes (or measures) an entity section: the baseline age in 7 bits (0..64); with a baseline, one bit:
/// whether each entity is coded against its baseline value advanced by the game's prediction (`reference`,
/// same ids as `baseline`) or against the plain baseline value (`reference` empty); one bit: whether the list
/// is range-coded (`range` given and the coded list fits what is left of the stream; a list that does not fit
/// goes bit-packed); if so, one bit: whether its models start from the game's trained table (range->model)
/// rather than 1/2, then the stream is byte-aligned and the rest of the message is the list,
/// wire::RangeWriteStream, models starting afresh; then `entities` with `stale` delta-coded that way
/// (sync::serialize_entity_delta, at most kMaxSnapshotEntities).
template <class Stream, class EntityRecord>
bool write_entity_section(Stream& s, std::uint8_t baseline_age, std::span<const EntityRecord> baseline,
                          std::vector<EntityRecord>& entities, std::vector<std::uint32_t>& stale,
                          std::span<const EntityRecord> reference = {},
                          RangeSectionScratch* range = nullptr) {
    static_assert(!Stream::is_reading, "read with read_snapshot_entities()");
    if (baseline_age == 0 && !baseline.empty()) return s.fail(Errc::invalid_argument), false;
    if (!reference.empty() && reference.size() != baseline.size())
        return s.fail(Errc::invalid_argument), false;
    if (!wire::serialize_int(s, baseline_age, std::uint8_t{0},
                             static_cast<std::uint8_t>(sync::kMaxSnapshotWindow)))
        return false;
    bool predicted = !reference.empty();
    if (baseline_age != 0 && !wire::serialize_bool(s, predicted)) return false;
    bool coded = range != nullptr;
    if (coded) {
        // Coded for real first, even when only measuring (the size is the coder's, to the byte), into what
        // is left of the message after the flag and the alignment. A list the coder cannot fit there (it
        // costs a little more than packing on incompressible fields, and the budget is priced in packed
        // bits) goes bit-packed instead.
        const std::size_t pad = (8 - (s.bits_used() + 1) % 8) % 8;  // after the flag, to the byte
        const std::size_t left = s.bits_remaining() >= 1 + pad ? (s.bits_remaining() - 1 - pad) / 8 : 0;
        range->bytes.resize(std::min(left, kMaxRangeSectionBytes));
        auto& w = range->model != nullptr
                      ? range->writer.emplace(std::span<std::uint8_t>(range->bytes), *range->model)
                      : range->writer.emplace(std::span<std::uint8_t>(range->bytes));
        const bool ok =
            sync::serialize_entity_delta(w, baseline, entities, stale, kMaxSnapshotEntities, reference);
        w.flush();
        if (!ok || !w.ok()) {
            if (w.error() != Errc::out_of_space) return s.fail(w.error()), false;
            coded = false;
        }
    }
    if (!wire::serialize_bool(s, coded)) return false;
    if (!coded)
        return sync::serialize_entity_delta(s, baseline, entities, stale, kMaxSnapshotEntities, reference);
    bool trained = range->model != nullptr;
    if (!wire::serialize_bool(s, trained) || !wire::serialize_align(s)) return false;
    for (const std::uint8_t byte : range->writer->data()) {
        std::uint32_t v = byte;
        if (!s.serialize_bits(v, 8)) return false;
    }
    if constexpr (Stream::is_writing) {
        if (range->trainer != nullptr && s.ok()) {
            // The list went out: count it, coding it again the same way (same table, same bytes) through a
            // writer that counts, so the game's codec runs on no stream type of its own for training.
            auto& t = range->model != nullptr
                          ? range->writer.emplace(std::span<std::uint8_t>(range->bytes), *range->model)
                          : range->writer.emplace(std::span<std::uint8_t>(range->bytes));
            t.count_into(*range->trainer);
            (void)sync::serialize_entity_delta(t, baseline, entities, stale, kMaxSnapshotEntities, reference);
            t.flush();
        }
    }
    return s.ok();
}

/// Writes (or measures) the entity section of `m` (write_entity_section).
template <class Stream, class EntityRecord>
bool write_snapshot_entities(Stream& s, SnapshotEntities<EntityRecord>& m) {
    std::unique_ptr<RangeSectionScratch> local;
    RangeSectionScratch* range = m.range;
    if (range == nullptr && m.range_coded) {
        range = (local = std::make_unique<RangeSectionScratch>()).get();
        range->model = m.model;
    }
    return write_entity_section(s, m.baseline_age, m.baseline, m.entities, m.stale, m.reference, range);
}

/// Reads the entity section of the snapshot with `sequence`. `find(baseline_sequence)` returns the entity
/// list of a snapshot this reader decoded before (a `const std::vector<EntityRecord>*`), or nullptr when it
/// does not hold it: then `baseline_missing` is set and the read fails. The age is attacker-controlled: it
/// only selects among lists this reader itself decoded. For a predicted section, `predict(baseline_sequence,
/// baseline, reference&)` sets `reference` to the baseline advanced by the game's prediction (a span valid
/// through the read) and returns true, or returns false when the reader cannot predict (the read fails). A
/// range-coded list is decoded with `range` (a local one when null).
template <class EntityRecord, class Find, class Predict = NoPrediction>
bool read_snapshot_entities(wire::ReadStream& s, std::uint16_t sequence, SnapshotEntities<EntityRecord>& m,
                            Find&& find, bool& baseline_missing, Predict&& predict = {},
                            RangeSectionScratch* range = nullptr) {
    baseline_missing = false;
    m.baseline = {};
    m.reference = {};
    m.range_coded = false;
    m.model = nullptr;
    if (!wire::serialize_int(s, m.baseline_age, std::uint8_t{0},
                             static_cast<std::uint8_t>(sync::kMaxSnapshotWindow)))
        return false;
    if (m.baseline_age != 0) {
        const std::vector<EntityRecord>* base = find(static_cast<std::uint16_t>(sequence - m.baseline_age));
        if (!base) {
            baseline_missing = true;
            return s.fail(Errc::malformed), false;
        }
        m.baseline = std::span<const EntityRecord>(*base);
        bool predicted = false;
        if (!wire::serialize_bool(s, predicted)) return false;
        // An empty baseline has nothing to predict: its writer says 0 (one encoding per list).
        if (predicted && m.baseline.empty()) return s.fail(Errc::malformed), false;
        if (predicted &&
            !predict(static_cast<std::uint16_t>(sequence - m.baseline_age), m.baseline, m.reference))
            return s.fail(Errc::malformed), false;
    }
    bool coded = false;
    if (!wire::serialize_bool(s, coded)) return false;
    m.range_coded = coded;
    if (!coded)
        return sync::serialize_entity_delta(s, m.baseline, m.entities, m.stale, kMaxSnapshotEntities,
                                            m.reference);
    bool trained = false;
    if (!wire::serialize_bool(s, trained) || !wire::serialize_align(s)) return false;
    std::unique_ptr<RangeSectionScratch> local;
    if (range == nullptr) range = (local = std::make_unique<RangeSectionScratch>()).get();
    // A list coded with a trained table this reader does not hold cannot be decoded.
    if (trained && range->model == nullptr) return s.fail(Errc::malformed), false;
    m.model = trained ? range->model : nullptr;
    range->bytes.clear();
    while (s.bits_remaining() >= 8) {
        std::uint32_t byte = 0;
        if (!s.serialize_bits(byte, 8)) return false;
        range->bytes.push_back(static_cast<std::uint8_t>(byte));
    }
    auto& r = m.model != nullptr
                  ? range->reader.emplace(std::span<const std::uint8_t>(range->bytes), *m.model)
                  : range->reader.emplace(std::span<const std::uint8_t>(range->bytes));
    if (!sync::serialize_entity_delta(r, m.baseline, m.entities, m.stale, kMaxSnapshotEntities,
                                      m.reference) ||
        !r.finish())
        return s.fail(r.error() == Errc::length_too_long ? Errc::length_too_long : Errc::malformed), false;
    // r.finish() accepts only the writer's own ending (the coder's last bytes have slack that other byte
    // strings could use), so every list has one encoding.
    return true;
}

/// SnapshotPacket fields. Reading this way holds no baselines: only a snapshot with baseline_age 0 decodes
/// (decode_snapshot() takes a baseline finder).
template <class Stream, class EntityRecord>
bool serialize(Stream& s, SnapshotPacket<EntityRecord>& m) {
    if (!serialize(s, static_cast<SnapshotHeader&>(m))) return false;
    if constexpr (Stream::is_reading) {
        const auto none = [](std::uint16_t) -> const std::vector<EntityRecord>* { return nullptr; };
        return read_snapshot_entities(s, m.sequence, m, none, m.baseline_missing);
    } else {
        return write_snapshot_entities(s, m);
    }
}

/// Decodes a whole snapshot datagram into `m`, resolving the baseline it names with `find` (as in
/// read_snapshot_entities; a list coded with the game's trained table needs `range` with its `model` set).
/// On failure `m` may hold partial data and m.baseline_missing says whether the named baseline was the
/// reason.
template <class EntityRecord, class Find, class Predict = NoPrediction>
[[nodiscard]] Status decode_snapshot(std::span<const std::uint8_t> data, SnapshotPacket<EntityRecord>& m,
                                     Find&& find, Predict&& predict = {},
                                     RangeSectionScratch* range = nullptr) {
    wire::ReadStream s(data);
    SnapshotHeader& head = m;
    Framed<SnapshotHeader> f{&head};
    const bool ok =
        serialize(s, f) && read_snapshot_entities(s, m.sequence, m, find, m.baseline_missing, predict, range);
    return wire::finish_read(s, ok);
}

}  // namespace rwd::client_server
