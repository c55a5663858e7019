// Reliable messages and deaths, server versus every client, graded up to the start of the drain window.
#include "cs_events.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <tuple>

namespace lab {
namespace cs = rwd::client_server;

rwd::Micros drain_window(const rwd::transport::LinkConfig& up, const rwd::transport::LinkConfig& down,
                         rwd::Micros min_rto) {
    const double down_worst = static_cast<double>(down.latency.count + 4 * down.jitter.count);
    const double rtt = static_cast<double>(up.latency.count + down.latency.count);
    const double rtt_dev = std::hypot(static_cast<double>(up.jitter.count), double(down.jitter.count));
    const double rto = std::max(static_cast<double>(min_rto.count), rtt + 4.0 * rtt_dev);
    // Every copy of a message is lost with the link's loss; n sends all fail with loss^n.
    const double loss = std::clamp(down.expected_loss(), 0.0, 0.9);
    const int sends =
        loss > 0 ? std::max(1, static_cast<int>(std::ceil(std::log(1e-6) / std::log(loss)))) : 1;
    return rwd::Micros{static_cast<std::int64_t>(std::llround(down_worst + sends * rto + 100'000.0))};
}

void compare_deaths(std::span<const DeathRecord> expected, std::span<const DeathRecord> received,
                    ChannelFigures& out) {
    out.deaths_expected += expected.size();
    const std::size_t both = std::min(expected.size(), received.size());
    for (std::size_t i = 0; i < both; ++i)
        ++(expected[i] == received[i] ? out.deaths_delivered : out.deaths_wrong);
    if (expected.size() > both) out.deaths_missing += expected.size() - both;
    if (received.size() > both) out.deaths_extra += received.size() - both;
}

namespace {

/// The death `m` reports, if it is one.
std::optional<DeathRecord> death_of(rwd::Tick tick, const cs::OutMessage& m) {
    constexpr auto kDeath = cs::message_id<arena::ArenaGame, arena::DeathMessage>();
    arena::DeathMessage d;
    if (m.type != kDeath || !cs::decode_payload(m.payload, d).ok()) return std::nullopt;
    return DeathRecord{tick.value, d.victim, d.killer, d.weapon};
}

/// Deaths ordered by tick, then victim, killer and weapon (a strict total order over every field).
bool death_order(const DeathRecord& a, const DeathRecord& b) {
    const auto key = [](const DeathRecord& d) {
        return std::tuple(d.tick, d.victim, d.killer, static_cast<int>(d.weapon));
    };
    return key(a) < key(b);
}

}  // namespace

void compare_sent_deaths(std::span<const DeathRecord> final_deaths, std::span<const SentDeath> sent,
                         std::uint32_t replay_window, ChannelFigures& out) {
    std::uint32_t newest = 0;
    std::vector<DeathRecord> b;
    for (const SentDeath& d : sent) {
        const bool by_replay = d.lag >= 1 && d.lag <= replay_window;
        if (d.record.tick < newest) ++out.deaths_sent_late;
        if ((d.record.tick < newest && !by_replay) || d.lag > replay_window) ++out.deaths_out_of_turn;
        newest = std::max(newest, d.record.tick);
        b.push_back(d.record);
    }
    out.deaths_on_server += final_deaths.size();
    out.deaths_sent += sent.size();
    std::vector<DeathRecord> a(final_deaths.begin(), final_deaths.end()), only;
    std::sort(a.begin(), a.end(), death_order);
    std::sort(b.begin(), b.end(), death_order);
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only), death_order);
    out.deaths_unsent += only.size();
    only.clear();
    std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only), death_order);
    out.deaths_not_final += only.size();
}

void EventCheck::on_server_tick(rwd::Tick tick, const arena::State& before, const arena::State& after) {
    // The lab asks the game the same question the server asks it after every tick.
    scratch_.clear();
    arena::ArenaGame::collect_messages(before, after, scratch_);
    for (const cs::OutMessage& m : scratch_.items())
        if (const auto d = death_of(tick, m)) deaths_.push_back(*d);
}

void EventCheck::on_sent(rwd::Tick tick, rwd::Tick server_tick, const cs::OutMessage& m,
                         std::span<const bool> seated) {
    if (const auto d = death_of(tick, m))
        sent_.push_back(Death{SentDeath{*d, static_cast<std::uint32_t>(server_tick - tick)},
                              std::vector<bool>(seated.begin(), seated.end())});
}

void EventCheck::on_client_message(std::size_t seat, const cs::Message& m) {
    if (!m.reliable) return;
    Client& c = clients_[seat];
    c.sequences.push_back(m.sequence);
    arena::DeathMessage d;
    if (cs::read_message_as<arena::ArenaGame>(m, d))
        c.deaths.push_back(DeathRecord{m.tick.value, d.victim, d.killer, d.weapon});
}

void EventCheck::cut(rwd::Tick next_tick) {
    cut_ = true;
    cut_tick_ = next_tick.value;
}

void EventCheck::cut_seat(std::size_t seat, std::uint64_t events_sent) {
    clients_[seat].cut_events = events_sent;
}

void EventCheck::finish(std::span<const int> slot_of_seat, ChannelFigures& out) const {
    if (!cut_) return;
    std::vector<DeathRecord> final_deaths;
    std::vector<SentDeath> sent;
    for (const DeathRecord& d : deaths_)
        if (d.tick < cut_tick_) final_deaths.push_back(d);
    for (const Death& d : sent_)
        if (d.sent.record.tick < cut_tick_) sent.push_back(d.sent);
    compare_sent_deaths(final_deaths, sent, replay_window_, out);
    for (std::size_t i = 0; i < clients_.size() && i < slot_of_seat.size(); ++i) {
        const int slot = slot_of_seat[i];
        if (slot < 0) continue;
        const Client& c = clients_[i];
        // Events: the first cut_events sequences must have arrived exactly as 0, 1, 2, ... (once, in order).
        out.events_sent += c.cut_events;
        std::uint64_t in_order = 0;
        for (std::uint32_t seq : c.sequences) {
            if (in_order >= c.cut_events || seq != in_order) break;
            ++in_order;
        }
        out.events_received += in_order;
        // Deaths: those the server sent this client before the cut, against those it received from them.
        ++out.death_receivers;
        std::vector<DeathRecord> expected, received;
        for (const Death& d : sent_)
            if (d.sent.record.tick < cut_tick_ && static_cast<std::size_t>(slot) < d.seated.size() &&
                d.seated[static_cast<std::size_t>(slot)])
                expected.push_back(d.sent.record);
        for (const DeathRecord& r : c.deaths)
            if (r.tick < cut_tick_) received.push_back(r);
        compare_deaths(expected, received, out);
    }
}

}  // namespace lab
