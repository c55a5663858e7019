/// ServerCore: what goes out: snapshots (header here, entity section from the game side); messages are in
/// server_messages.cpp.
#include "server_core_impl.hpp"

#include <rewind/wire/message.hpp>
#include <rewind/wire/stream.hpp>

#include <algorithm>

namespace rwd::client_server {

std::size_t ServerCore::Impl::transmit(Seat* s, transport::PeerId peer, transport::Delivery delivery,
                                       std::span<const std::uint8_t> data) {
    if (s != nullptr && s->channel) {
        const auto lane = auth::lane_of(delivery);
        if (!s->channel->seal(lane, data, sealed).ok()) return 0;
        data = sealed;
    }
    return transport.send(peer, delivery, data).ok() ? data.size() : 0;
}

void ServerCore::Impl::send_snapshots(Micros now) {
    game.begin_snapshots();  // the world is captured once, shared by every client's snapshot
    const std::size_t max_size = transport.max_message_size();
    const std::size_t datagram_overhead = kUdpIpHeaderBytes + transport.header_bytes();
    for (int i = 0; i < max_clients; ++i)
        if (seat(i).phase == Phase::seated) send_snapshot(i, now, max_size, datagram_overhead);
}

void ServerCore::Impl::send_snapshot(int slot, Micros now, std::size_t max_size,
                                     std::size_t datagram_overhead) {
    Seat& s = seat(slot);
    SnapshotHeader head;
    head.sequence = s.snapshot_sequence++;
    head.server_tick = tick - 1;  // the state after the tick just simulated
    head.has_input = s.has_applied;
    head.last_input_tick = s.last_applied_tick;
    // A repeated input a late one may still replace (the replay window and the budget allow it): the state
    // of its player is provisional, and the client does not correct its prediction to it.
    head.provisional = s.has_applied && config.late_input_replay_ticks > 0 && s.replay_tokens >= 1.0 &&
                       s.inputs.missing_within(config.late_input_replay_ticks);
    const double tick_us = 1e6 / config.tick_rate_hz;
    const double offset_us = std::clamp(s.inputs.arrival_offset_ticks() * tick_us,
                                        -double(kMaxArrivalOffsetUs), double(kMaxArrivalOffsetUs));
    head.arrival_offset_us = static_cast<std::int32_t>(offset_us);
    head.input_buffer_depth = static_cast<std::uint8_t>(std::clamp(s.inputs.depth(), 0, 255));
    head.pong_time = s.ping_time;
    const std::int64_t hold = s.has_ping ? (now - s.ping_at).count : 0;
    head.pong_hold_us = static_cast<std::uint32_t>(std::clamp<std::int64_t>(hold, 0, 0xFFFFFFFF));
    head.input_buffer_target = static_cast<std::uint8_t>(std::clamp(input_buffer_target(s), 0, 16));
    head.has_tick_reference = s.has_snapshot_ack;
    head.tick_reference = s.snapshot_ack;

    // The message is written into a buffer of the transport's largest size (less what sealing adds): a
    // snapshot that does not fit is an overflow (the byte budget keeps this to a single entity larger than a
    // datagram), anything else a failure.
    if (s.channel) max_size -= std::min(max_size, auth::kSealedOverheadBytes);
    buffer.resize(max_size);
    wire::WriteStream out{std::span<std::uint8_t>(buffer)};
    Framed<SnapshotHeader> framed{&head};
    const bool head_ok = serialize(out, framed);
    const std::size_t head_bits = out.bits_used();
    std::size_t budget = max_size;
    const auto& sc = config.snapshots;
    if (sc.budget_bytes > 0 && sc.burst_bytes > 0) {
        // A rate with a burst: the allowance grows by budget_bytes a snapshot up to burst_bytes.
        s.snapshot_allowance =
            s.has_allowance ? std::min<std::int64_t>(sc.burst_bytes, s.snapshot_allowance + sc.budget_bytes)
                            : sc.burst_bytes;  // a new client starts with the whole burst
        s.has_allowance = true;
        budget = std::min(budget, static_cast<std::size_t>(std::max<std::int64_t>(s.snapshot_allowance, 0)));
    } else if (sc.budget_bytes > 0) {
        budget = std::min(budget, static_cast<std::size_t>(sc.budget_bytes));
    }
    SnapshotSectionStats section;
    const bool ok = head_ok && game.write_snapshot_entities(slot, head, head_bits, budget, out, section);
    if (!ok || !out.ok()) {
        if (out.error() == Errc::out_of_space)
            ++stats.snapshot_overflow;
        else
            ++stats.send_failures;
        return;
    }
    out.flush();
    buffer.resize(out.bytes_used());
    const std::size_t sent = transmit(&s, s.peer, transport::Delivery::unreliable, buffer);
    if (sent == 0) {
        ++stats.send_failures;
        return;
    }
    game.commit_snapshot(slot, head);
    s.has_sent_snapshot = true;
    // The allowance counts the message, not what sealing adds to it (a fixed cost per packet, like the
    // transport's headers): encryption changes which entities a snapshot carries only when it comes within
    // 18 bytes of the datagram's limit.
    // What a snapshot spends beyond the allowance (the header and the pick that always goes) is owed for
    // one snapshot at most, so a client whose mandatory part exceeds the rate is not starved for long after.
    if (s.has_allowance)
        s.snapshot_allowance =
            std::max<std::int64_t>(s.snapshot_allowance - static_cast<std::int64_t>(buffer.size()),
                                   -static_cast<std::int64_t>(sc.budget_bytes));
    s.last_snapshot_tick = head.server_tick;
    ServerClientStats& st = s.stats;
    st.snapshot_wire_bytes_total += sent + datagram_overhead;
    st.snapshot_entity_bits_total += buffer.size() * 8 - std::min(buffer.size() * 8, section.header_bits);
    st.snapshot_entities_total += section.relevant;
    st.snapshots_with_baseline += section.has_baseline ? 1 : 0;
    st.entities_left_out_total += section.left_out;
    st.snapshots_budget_limited += section.left_out > 0 ? 1 : 0;
    st.snapshot_unpredicted_bytes_total += section.unpredicted_bytes;
    st.bytes_sent += sent;
    ++st.snapshots_sent;
    st.last_snapshot_bytes = buffer.size();
    st.max_snapshot_bytes = std::max(st.max_snapshot_bytes, buffer.size());
    st.snapshot_bytes_total += buffer.size();
    stats.snapshot_bytes += buffer.size();
    st.snapshot_kbps =
        snapshot_kbps(st.snapshot_wire_bytes_total, st.snapshots_sent, config.snapshot_rate_hz);
    ++stats.snapshots_sent;
}

}  // namespace rwd::client_server
