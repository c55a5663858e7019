// Snapshot bandwidth in the lab: per-client delta/full measurement, the interest check, and the two checklist
// grades.
#include "bandwidth_grades.hpp"

#include "stats_util.hpp"

#include <rewind/session/client_server/packets.hpp>
#include <rewind/session/client_server/stats.hpp>
#include <rewind/wire/stream.hpp>

#include <algorithm>
#include <cmath>

namespace lab {

namespace cs = rwd::client_server;
using arena::ArenaGame;

void BandwidthMeter::sample_full(const arena::State& s, std::size_t transport_header_bytes) {
    // The full snapshot: the same header as a real one, then every entity in full (messages.hpp
    // serialize_entities).
    cs::SnapshotPacket<ArenaGame::EntityRecord> header;
    header.has_input = true;
    cs::Framed<cs::SnapshotPacket<ArenaGame::EntityRecord>> f{&header};
    const std::size_t header_bits =
        rwd::wire::measure_bits(f) - 8;  // minus the age (7) and "nothing enters" (1) bits
    std::vector<ArenaGame::EntityRecord> world;
    ArenaGame::capture(s, world);
    rwd::wire::MeasureStream m;
    (void)cs::serialize_entities(m, world);
    const double payload = std::ceil(static_cast<double>(header_bits + m.bits_used()) / 8.0);
    full_wire_bytes_ += payload + static_cast<double>(cs::kUdpIpHeaderBytes + transport_header_bytes);
    full_samples_ += 1;
}

void BandwidthMeter::record_world(rwd::Tick tick, const arena::State& s) {
    if (worlds_.size() >= 64) {
        worlds_.front().first = tick;  // reuse the oldest entry's storage
        worlds_.push_back(std::move(worlds_.front()));
        worlds_.pop_front();
    } else {
        worlds_.emplace_back(tick, std::vector<ArenaGame::EntityRecord>{});
    }
    ArenaGame::capture(s, worlds_.back().second);
}

void BandwidthMeter::sample_interest(rwd::Tick tick, int slot, const std::vector<std::uint32_t>& received_ids,
                                     double radius_m) {
    if (radius_m <= 0) return;
    const auto w =
        std::find_if(worlds_.begin(), worlds_.end(), [&](const auto& p) { return p.first == tick; });
    if (w == worlds_.end()) return;
    const auto& world = w->second;
    const std::uint32_t own = ArenaGame::player_entity(slot);
    const auto me = std::find_if(world.begin(), world.end(), [&](const auto& e) { return e.id == own; });
    if (me == world.end()) return;
    ++interest_checks_;
    // The same test as the server's: squared grid distance against the radius in grid units.
    const auto r = static_cast<std::uint64_t>(std::llround(radius_m / ArenaGame::kMetersPerUnit));
    const rwd::sync::GridPoint centre{me->snap.x, me->snap.y};
    for (const auto& e : world) {
        if (e.id == own) continue;
        const bool inside = rwd::sync::distance_squared({e.snap.x, e.snap.y}, centre) <= r * r;
        const bool got = std::find(received_ids.begin(), received_ids.end(), e.id) != received_ids.end();
        if (!inside) {
            ++outside_total_;
            if (got) ++outside_received_;
        } else {
            ++inside_total_;
            if (!got) ++inside_missing_;
        }
    }
}

void BandwidthMeter::add_client(const cs::ServerClientStats& sv, int snapshot_rate_hz) {
    if (sv.snapshots_sent == 0) return;
    kbps_.push_back(cs::snapshot_kbps(sv.snapshot_wire_bytes_total, sv.snapshots_sent, snapshot_rate_hz));
    wire_bytes_ += static_cast<double>(sv.snapshot_wire_bytes_total);
    payload_bytes_ += static_cast<double>(sv.snapshot_bytes_total);
    unpredicted_bytes_ += static_cast<double>(sv.snapshot_unpredicted_bytes_total);
    snapshots_ += static_cast<double>(sv.snapshots_sent);
    entity_bits_ += static_cast<double>(sv.snapshot_entity_bits_total);
    entities_ += static_cast<double>(sv.snapshot_entities_total);
    with_baseline_ += static_cast<double>(sv.snapshots_with_baseline);
    left_out_ += static_cast<double>(sv.entities_left_out_total);
    budget_limited_ += static_cast<double>(sv.snapshots_budget_limited);
}

void BandwidthMeter::finish(BandwidthFigures& out) const {
    out.snapshot_kbps = distribution(kbps_);
    if (snapshots_ > 0) {
        out.wire_bytes_per_snapshot = wire_bytes_ / snapshots_;
        out.payload_bytes_per_snapshot = payload_bytes_ / snapshots_;
        out.unpredicted_payload_bytes_per_snapshot = unpredicted_bytes_ / snapshots_;
        out.relevant_per_snapshot = entities_ / snapshots_;
        out.baseline_share = with_baseline_ / snapshots_;
        out.budget_limited_share = budget_limited_ / snapshots_;
    }
    if (entities_ > 0) {
        out.bits_per_entity = entity_bits_ / entities_;
        out.left_out_share = left_out_ / entities_;
    }
    if (full_samples_ > 0) {
        out.full_wire_bytes_per_snapshot = full_wire_bytes_ / full_samples_;
        if (out.full_wire_bytes_per_snapshot > 0)
            out.ratio_vs_full = out.wire_bytes_per_snapshot / out.full_wire_bytes_per_snapshot;
    }
    out.interest_checks = interest_checks_;
    out.outside_aoi_received = outside_received_;
    out.outside_aoi_seen = outside_total_;
    out.inside_aoi_missing = inside_missing_;
    out.inside_aoi_seen = inside_total_;
}

cs::SnapshotConfig lab_snapshot_config() {
    cs::SnapshotConfig c;
    c.aoi_radius_m = 16.0;  // the arena is 64 m across: a client sees about a fifth of it
    c.cell_size_m = 8.0;
    // A safety valve, not the normal path: the goal is 32 kbit/s per client (133 bytes a datagram at 30
    // snapshots/s, about 95 of them snapshot message), met by the codec, not by leaving entities out. The
    // budget caps a client at 200 bytes a snapshot on average (about 64 kbit/s: above what a client in the
    // thick of a fight takes), up to eight snapshots' worth at once, so a respawn into a crowd, a join or a
    // burst of rockets goes out whole.
    c.budget_bytes = 200;
    c.burst_bytes = kBurstSnapshots * c.budget_bytes;
    c.measure_previous_codec = true;  // the Delta compression row prints both sizes
    return c;
}

PassConfig bandwidth_pass(const PassConfig& main, double duration_s) {
    PassConfig p = main;
    p.name = "bandwidth_64";
    p.players = 64;
    p.duration_s = duration_s;
    p.snapshot_rate = 30;
    p.probe = false;
    p.series = false;
    p.compare_own = false;
    p.record_path.clear();  // the recording is of the main pass
    p.bandwidth_check = true;
    return p;
}

void grade_bandwidth(const PassFigures& pass64, Verdict& v) {
    const BandwidthFigures& b = pass64.bandwidth;
    Checks d;
    d.need(pass64.players >= 64, "%d players < 64", pass64.players);
    d.need(b.snapshot_kbps.count > 0, "no snapshot bandwidth measured");
    d.need(b.snapshot_kbps.median <= 32.0, "median %.1f kbps > 32 kbps", b.snapshot_kbps.median);
    // The budget is a safety valve: nothing relevant postponed in steady state, no copy older than two
    // snapshots behind the newest.
    d.need(b.left_out_share <= 0.01, "%.1f%% of entities postponed > 1%%", 100.0 * b.left_out_share);
    const StalenessFigures& st = pass64.staleness;
    d.need(st.behind_newest_ms.count > 0, "no staleness measured");
    d.need(st.behind_newest_ms.p99 <= 2 * st.snapshot_interval_ms,
           "staleness p99 %.0f ms > 2 snapshots (%.0f ms)", st.behind_newest_ms.p99,
           2 * st.snapshot_interval_ms);
    Checks i;
    i.need(b.outside_aoi_seen > 0, "no entity outside an area of interest to check");
    i.need(b.outside_aoi_received == 0, "%llu entities outside the AoI held",
           static_cast<unsigned long long>(b.outside_aoi_received));
    v.add("- Delta compression",
          fmt("%.1f kbps (≤ 32), postponed %.1f %% (≤ 1), p99 lag %.0f ms (≤ %.0f)", b.snapshot_kbps.median,
              100.0 * b.left_out_share, st.behind_newest_ms.p99, 2 * st.snapshot_interval_ms),
          fmt("%d players: %.1f kbps per client (median, p95 %.1f), %.0f B/snapshot, %.1f bits/entity, "
              "%.0f%% of full "
              "(%.0f B), %.1f%% of entities postponed by the budget (in %.1f%% of snapshots); payload %.0f B "
              "(previous codec %.0f B); copies behind the newest snapshot p99 %.0f ms, max %.0f ms (since "
              "their snapshot arrived: median %.0f, p99 %.0f ms)",
              pass64.players, b.snapshot_kbps.median, b.snapshot_kbps.p95, b.wire_bytes_per_snapshot,
              b.bits_per_entity, 100.0 * b.ratio_vs_full, b.full_wire_bytes_per_snapshot,
              100.0 * b.left_out_share, 100.0 * b.budget_limited_share, b.payload_bytes_per_snapshot,
              b.unpredicted_payload_bytes_per_snapshot, st.behind_newest_ms.p99, st.behind_newest_ms.max,
              st.since_arrival_ms.median, st.since_arrival_ms.p99),
          "median <= 32 kbps at 64 players, <= 1% postponed, staleness p99 <= 2 snapshots", d);
    // Everything the server sends a client: snapshots, reliable events (hits only to those who can see them,
    // deaths, scores, every player's chat line each second) and the transport's acks, as the transport
    // measures its datagrams (its own header included, the 28 B UDP/IP header not).
    Checks down;
    down.need(b.kbps_down.count > 0, "no down traffic measured");
    down.need(b.kbps_down.median <= 48.0, "median %.1f kbps > 48 kbps", b.kbps_down.median);
    v.add("- Down traffic",
          fmt("%.1f kbps (≤ 48), of it snapshots %.1f kbps", b.kbps_down.median, b.snapshot_kbps.median),
          fmt("64 players: all the server sends a client: median %.1f kbps (p95 %.1f), of it snapshots %.1f "
              "kbps; "
              "%.0f events/s per client (%.0f of them chat lines)",
              b.kbps_down.median, b.kbps_down.p95, b.snapshot_kbps.median, b.events_per_client_s,
              b.chats_per_client_s),
          "median <= 48 kbps", down);
    v.add("- Interest management",
          fmt("%llu of %llu entities outside the AoI held",
              static_cast<unsigned long long>(b.outside_aoi_received),
              static_cast<unsigned long long>(b.outside_aoi_seen)),
          fmt("%llu of %llu entities outside the AoI held by the client; %llu of %llu inside not (yet) held",
              static_cast<unsigned long long>(b.outside_aoi_received),
              static_cast<unsigned long long>(b.outside_aoi_seen),
              static_cast<unsigned long long>(b.inside_aoi_missing),
              static_cast<unsigned long long>(b.inside_aoi_seen)),
          "0 outside received", i);
}

}  // namespace lab
