/// ConditionedTransport: per-peer, per-direction LinkConditioners around another Transport's messages.
#include <rewind/transport/conditioned_transport.hpp>

#include <utility>

namespace rwd::transport {

namespace {

void add(LinkCounters& to, const LinkCounters& c) {
    to.submitted += c.submitted;
    to.dropped_mtu += c.dropped_mtu;
    to.dropped_queue += c.dropped_queue;
    to.dropped_burst += c.dropped_burst;
    to.dropped_random += c.dropped_random;
    to.duplicated += c.duplicated;
    to.reordered += c.reordered;
    to.delivered += c.delivered;
    to.bytes_submitted += c.bytes_submitted;
    to.bytes_delivered += c.bytes_delivered;
}

// Each peer and direction draws from its own stream, so one peer's traffic never shifts another's decisions.
std::uint64_t derive_seed(std::uint64_t seed, PeerId peer, int direction) {
    return seed ^
           (0x9E3779B97F4A7C15ull * (std::uint64_t{peer} * 2u + static_cast<std::uint64_t>(direction) + 1u));
}

}  // namespace

Status ConditionedLinks::validate() const {
    if (auto s = up.validate(); !s.ok()) return s;
    return down.validate();
}

ConditionedTransport::ConditionedTransport(Transport& inner, const ConditionedLinks& links,
                                           std::uint64_t seed)
    : inner_(inner), links_(links.validate().ok() ? links : ConditionedLinks{}), seed_(seed) {}

ConditionedTransport::~ConditionedTransport() = default;

Status ConditionedTransport::set_links(const ConditionedLinks& links) {
    if (auto s = links.validate(); !s.ok()) return s;
    links_ = links;
    for (auto& [peer, pl] : peers_) {
        (void)pl.up->unreliable.set_config(links_.up);  // validated above
        (void)pl.down->unreliable.set_config(links_.down);
    }
    return {};
}

ConditionedCounters ConditionedTransport::counters() const {
    ConditionedCounters c = closed_;
    for (const auto& [peer, pl] : peers_) {
        add(c.up, pl.up->unreliable.counters());
        add(c.down, pl.down->unreliable.counters());
    }
    c.reliable_delayed = reliable_delayed_;
    c.discarded_on_close = discarded_;
    return c;
}

ConditionedTransport::PeerLinks& ConditionedTransport::links_for(PeerId peer) {
    auto it = peers_.find(peer);
    if (it != peers_.end()) return it->second;
    PeerLinks pl;
    pl.up = std::make_unique<Direction>(
        Direction{LinkConditioner(links_.up, derive_seed(seed_, peer, 0)), {}, {}});
    pl.down = std::make_unique<Direction>(
        Direction{LinkConditioner(links_.down, derive_seed(seed_, peer, 1)), {}, {}});
    return peers_.emplace(peer, std::move(pl)).first->second;
}

void ConditionedTransport::drop_peer(PeerId peer) {
    auto it = peers_.find(peer);
    if (it == peers_.end()) return;
    for (Direction* d : {it->second.up.get(), it->second.down.get()}) {
        discarded_ += d->unreliable.in_flight() + d->reliable.size();
    }
    add(closed_.up, it->second.up->unreliable.counters());
    add(closed_.down, it->second.down->unreliable.counters());
    peers_.erase(it);
}

Result<PeerId> ConditionedTransport::connect(const Address& to) { return inner_.connect(to); }

void ConditionedTransport::disconnect(PeerId peer, DisconnectReason reason) {
    drop_peer(peer);
    inner_.disconnect(peer, reason);
}

void ConditionedTransport::hold_reliable(Direction& d, const LinkConfig& config, Micros now,
                                         std::vector<std::uint8_t> data) {
    // Reliable-ordered: the latency only, never earlier than the message before it (order is the contract).
    Micros at = now + config.latency;
    if (at < d.last_reliable_at) at = d.last_reliable_at;
    d.last_reliable_at = at;
    if (config.latency.count > 0) ++reliable_delayed_;
    d.reliable.push_back(Held{at, std::move(data)});
}

Status ConditionedTransport::send(PeerId peer, Delivery delivery, std::span<const std::uint8_t> data) {
    // Refuse what the inner transport would refuse now, not later when nobody can be told.
    if (delivery == Delivery::unreliable && data.size() > inner_.max_message_size())
        return Error{Errc::length_too_long, "unreliable message larger than max_message_size()"};
    Direction& up = *links_for(peer).up;
    std::vector<std::uint8_t> bytes(data.begin(), data.end());
    if (delivery == Delivery::reliable_ordered) {
        hold_reliable(up, links_.up, now_, std::move(bytes));
    } else {
        up.unreliable.submit(now_, std::move(bytes));
    }
    release_up(now_);  // a perfect link passes the message on at once
    return {};
}

void ConditionedTransport::release_up(Micros now) {
    std::vector<std::uint8_t> data;
    for (auto& [peer, pl] : peers_) {
        Direction& d = *pl.up;
        while (!d.reliable.empty() && d.reliable.front().at <= now) {
            (void)inner_.send(peer, Delivery::reliable_ordered,
                              d.reliable.front().data);  // its failure = the peer's
            d.reliable.pop_front();
        }
        while (d.unreliable.pop_ready(now, data)) (void)inner_.send(peer, Delivery::unreliable, data);
    }
}

void ConditionedTransport::release_down(Micros now) {
    std::vector<std::uint8_t> data;
    for (auto& [peer, pl] : peers_) {
        Direction& d = *pl.down;
        while (!d.reliable.empty() && d.reliable.front().at <= now) {
            TransportEvent ev;
            ev.type = TransportEvent::Type::message;
            ev.peer = peer;
            ev.delivery = Delivery::reliable_ordered;
            ev.data = std::move(d.reliable.front().data);
            ready_.push_back(std::move(ev));
            d.reliable.pop_front();
        }
        while (d.unreliable.pop_ready(now, data)) {
            TransportEvent ev;
            ev.type = TransportEvent::Type::message;
            ev.peer = peer;
            ev.delivery = Delivery::unreliable;
            ev.data = data;
            ready_.push_back(std::move(ev));
        }
    }
}

void ConditionedTransport::update(Micros now) {
    if (now > now_) now_ = now;  // the conditioners need a clock that never goes back
    release_up(now_);
    inner_.update(now_);
    TransportEvent ev;
    while (inner_.poll(ev)) {
        if (ev.type == TransportEvent::Type::message) {
            Direction& down = *links_for(ev.peer).down;
            if (ev.delivery == Delivery::reliable_ordered) {
                hold_reliable(down, links_.down, now_, std::move(ev.data));
            } else {
                down.unreliable.submit(now_, std::move(ev.data));
            }
            continue;
        }
        if (ev.type == TransportEvent::Type::disconnected) {
            release_down(now_);  // what was due before the goodbye still comes first
            drop_peer(ev.peer);
        }
        ready_.push_back(std::move(ev));
    }
    release_down(now_);
}

bool ConditionedTransport::poll(TransportEvent& out) {
    if (ready_.empty()) return false;
    out = std::move(ready_.front());
    ready_.pop_front();
    return true;
}

PeerStats ConditionedTransport::stats(PeerId peer) const { return inner_.stats(peer); }

std::size_t ConditionedTransport::max_message_size() const { return inner_.max_message_size(); }

std::size_t ConditionedTransport::header_bytes() const { return inner_.header_bytes(); }

}  // namespace rwd::transport
