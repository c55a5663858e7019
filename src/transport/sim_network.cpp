// SimNetwork: owns the endpoints and one LinkConditioner per direction; moves datagrams on virtual time.
#include <rewind/transport/sim_network.hpp>

#include "transport/sim_endpoint.hpp"
#include "transport/stream_link.hpp"

#include <algorithm>
#include <cassert>
#include <map>
#include <string>
#include <utility>

namespace rwd::transport {

namespace {

std::string key_of(const Address& a) { return a.host + ":" + std::to_string(a.port); }

constexpr std::uint64_t kStreamSeedSalt = 0x73747265616d5f5fULL;  // "stream__"
constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;

std::uint64_t fnv(std::uint64_t h, const void* data, std::size_t n) {
    const auto* p = static_cast<const std::uint8_t*>(data);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * kFnvPrime;
    return h;
}

std::uint64_t fnv(std::uint64_t h, const std::string& s) { return fnv(h, s.data(), s.size() + 1); }

}  // namespace

Status SimNetworkConfig::validate() const {
    if (Status s = default_link.validate(); !s.ok()) return s;
    if (reliable_rto.count <= 0) return Error{Errc::invalid_config, "reliable_rto must be > 0"};
    if (timeout.count <= 0) return Error{Errc::invalid_config, "timeout must be > 0"};
    if (keepalive_interval.count <= 0 || keepalive_interval >= timeout) {
        return Error{Errc::invalid_config, "keepalive_interval must be > 0 and < timeout"};
    }
    if (connect_retry.count <= 0) return Error{Errc::invalid_config, "connect_retry must be > 0"};
    if (connect_timeout.count <= 0) return Error{Errc::invalid_config, "connect_timeout must be > 0"};
    if (mtu < sim::kHeaderBytes + sim::kMaxMessageOverhead + 1 || mtu > 65507) {
        return Error{Errc::invalid_config, "mtu must be in [15, 65507]"};
    }
    if (max_reliable_queue == 0) return Error{Errc::invalid_config, "max_reliable_queue must be > 0"};
    if (max_malformed == 0) return Error{Errc::invalid_config, "max_malformed must be > 0"};
    return stream.validate();
}

Status SimStreamConfig::validate() const {
    if (segment_overhead > kMaxLinkPacketOverhead)
        return Error{Errc::invalid_config, "stream.segment_overhead must be <= 65535"};
    if (min_rto.count <= 0) return Error{Errc::invalid_config, "stream.min_rto must be > 0"};
    if (max_rto < min_rto || max_rto > kMaxLinkDelay)
        return Error{Errc::invalid_config, "stream.max_rto must be in [min_rto, 1 hour]"};
    return {};
}

namespace sim {

struct Link {
    Address from, to;
    LinkConditioner conditioner;
    std::string from_key, to_key;  // "host:port": the link's seed and every delivery's trace hash them
    std::uint64_t seed = 0;
    std::unique_ptr<StreamLink> stream;  // made by the first write of a stream endpoint
    Link* reverse = nullptr;             // to -> from, looked up by the first write

    // When the next datagram or stream write comes out, whichever is first.
    [[nodiscard]] std::optional<Micros> next_ready_time() const {
        auto t = conditioner.next_ready_time();
        if (stream) {
            const auto s = stream->next_ready_time();
            if (s && (!t || *s < *t)) t = s;
        }
        return t;
    }
    // Takes what next_ready_time() announced if it is due by `at`.
    bool pop_ready(Micros at, std::vector<std::uint8_t>& out) {
        const auto c = conditioner.next_ready_time();
        const auto s = stream ? stream->next_ready_time() : std::nullopt;
        if (s && (!c || *s < *c)) return stream->pop_ready(at, out);
        return conditioner.pop_ready(at, out);
    }
};

struct Inbox {
    std::vector<Link*> links;   // in creation order
    bool has_endpoint = false;  // else what arrives is dropped as undeliverable
};

}  // namespace sim

class SimNetwork::Impl final : public sim::Wire {
public:
    using Link = sim::Link;
    using Inbox = sim::Inbox;

    explicit Impl(const SimNetworkConfig& c) : config(c) {}

    Link& link(const Address& from, const Address& to) override {
        auto key = std::make_pair(key_of(from), key_of(to));
        auto it = links.find(key);
        if (it != links.end()) return it->second;
        const std::uint64_t link_seed =
            fnv(fnv(fnv(kFnvOffset, &config.seed, sizeof config.seed), key.first), key.second);
        auto [pos, inserted] =
            links.emplace(key, Link{from, to, LinkConditioner(config.default_link, link_seed), key.first,
                                    key.second, link_seed, nullptr, nullptr});
        incoming[key.second].links.push_back(&pos->second);
        return pos->second;
    }

    Inbox& inbox(const Address& to) override { return incoming[key_of(to)]; }

    std::vector<std::uint8_t> buffer() override {
        if (spare.empty()) return {};
        std::vector<std::uint8_t> b = std::move(spare.back());
        spare.pop_back();
        b.clear();
        return b;
    }
    void recycle(std::vector<std::uint8_t>&& bytes) override {
        if (spare.size() < kMaxSpareBuffers && bytes.capacity() > 0) spare.push_back(std::move(bytes));
    }

    void transmit(Micros at, Link& l, std::vector<std::uint8_t> bytes) override {
        ++stats.datagrams_sent;
        l.conditioner.submit(at, std::move(bytes));
    }

    // The link's stream, made on first use with the link's impairments; its return path is read each time,
    // so set_link() on either direction takes effect.
    sim::StreamLink& stream_of(Link& l) {
        if (!l.stream) {
            // A seed of its own, so a stream never shares draws with the link's datagram conditioner.
            l.stream = std::make_unique<sim::StreamLink>(l.conditioner.config(), l.seed ^ kStreamSeedSalt,
                                                         config.stream);
        }
        if (l.reverse == nullptr) l.reverse = &link(l.to, l.from);
        const LinkConfig& back = l.reverse->conditioner.config();
        l.stream->set_return_path(back.latency, back.jitter);
        return *l.stream;
    }

    void write_stream(Micros at, Link& l, std::vector<std::uint8_t> bytes,
                      std::size_t stream_bytes) override {
        ++stats.datagrams_sent;
        stream_of(l).write(at, std::move(bytes), stream_bytes);
    }
    bool stream_in_loss_state(Micros at, Link& l) override { return stream_of(l).in_loss_state(at); }
    void reset_stream(Link& l) override {
        if (l.stream) l.stream->reset();
    }
    void count_replaced(Link& l) override { stream_of(l).count_replaced(); }
    StreamCounters stream_counters(Link& l) override {
        return l.stream ? l.stream->counters() : StreamCounters{};
    }

    // Takes every datagram due by `at` for the inbox's address, earliest first across its incoming links (a
    // tie goes to the link made first). A merge: the links are scanned once for what is due, and then only
    // the link just taken from is asked again, so a server's inbox of many links is not scanned per datagram.
    void collect(Micros at, Inbox& in, std::vector<Datagram>& out) override {
        out.clear();
        for (Link* l : in.links)
            if (l->stream) l->stream->advance(at);
        due.clear();
        for (std::size_t i = 0; i < in.links.size(); ++i) {
            const auto t = in.links[i]->next_ready_time();
            if (t && *t <= at) due.push_back(Due{*t, i});
        }
        while (!due.empty()) {
            const auto next = std::min_element(due.begin(), due.end(), [](const Due& a, const Due& b) {
                return a.at < b.at || (a.at == b.at && a.link < b.link);
            });
            Link* l = in.links[next->link];
            const Micros taken_at = next->at;
            Datagram d{l->from, {}};
            if (!l->pop_ready(at, d.bytes)) return;
            ++stats.datagrams_delivered;
            trace = fnv(trace, &taken_at.count, sizeof taken_at.count);
            trace = fnv(fnv(trace, l->from_key), l->to_key);
            trace = fnv(trace, d.bytes.data(), d.bytes.size());
            out.push_back(std::move(d));
            const auto t = l->next_ready_time();
            if (t && *t <= at)
                next->at = *t;
            else
                due.erase(next);
        }
    }

    void count_malformed() override { ++stats.malformed; }
    void count_unknown_sender() override { ++stats.unknown_sender; }

    // Datagrams due at addresses with no endpoint are dropped and counted.
    void drain_orphans(Micros at) {
        std::vector<std::uint8_t> sink;
        for (auto& [key, in] : incoming) {
            if (in.has_endpoint) continue;
            for (Link* l : in.links) {
                if (l->stream) l->stream->advance(at);
                while (l->conditioner.pop_ready(at, sink) || (l->stream && l->stream->pop_ready(at, sink))) {
                    ++stats.datagrams_undeliverable;
                    recycle(std::move(sink));
                }
            }
        }
    }

    // Creates the endpoint at `address` (which must be free) and marks its inbox as delivered.
    Transport* add_endpoint(const Address& address, std::size_t max_peers, bool accept_incoming,
                            SimSocket socket) {
        const std::string key = key_of(address);
        auto e = std::make_unique<sim::SimEndpoint>(*this, config, address, max_peers, accept_incoming, now,
                                                    socket == SimSocket::stream);
        Transport* t = e.get();
        endpoints.emplace(key, std::move(e));
        incoming[key].has_endpoint = true;
        return t;
    }

    SimNetworkConfig config;
    Micros now{};
    SimNetworkStats stats;
    std::uint64_t trace = kFnvOffset;
    std::map<std::pair<std::string, std::string>, Link> links;  // (from, to) -> link; map nodes never move
    std::map<std::string, Inbox> incoming;                      // to -> its links; map nodes never move
    std::map<std::string, std::unique_ptr<sim::SimEndpoint>> endpoints;
    // Read datagrams' buffers, handed out again by buffer(): at most this many are kept.
    static constexpr std::size_t kMaxSpareBuffers = 256;
    std::vector<std::vector<std::uint8_t>> spare;
    // collect()'s links with a datagram due: the time of the next one and the link's place in its inbox.
    struct Due {
        Micros at;
        std::size_t link;
    };
    std::vector<Due> due;
};

SimNetwork::SimNetwork(const SimNetworkConfig& config) : impl_(std::make_unique<Impl>(config)) {
    assert(config.validate().ok() && "SimNetworkConfig does not validate; use SimNetwork::create()");
}

SimNetwork::~SimNetwork() = default;

Result<std::unique_ptr<SimNetwork>> SimNetwork::create(const SimNetworkConfig& config) {
    if (Status s = config.validate(); !s.ok()) return s.error();
    return std::make_unique<SimNetwork>(config);
}

Result<Transport*> SimNetwork::listen(const Address& address, std::size_t max_peers, SimSocket socket) {
    if (impl_->endpoints.count(key_of(address)) != 0) return Error{Errc::already_exists, "address in use"};
    return impl_->add_endpoint(address, max_peers, true, socket);
}

Result<Transport*> SimNetwork::create_endpoint(const Address& address, SimSocket socket) {
    if (impl_->endpoints.count(key_of(address)) != 0) return Error{Errc::already_exists, "address in use"};
    constexpr std::size_t kOutgoingLimit = 1024;
    return impl_->add_endpoint(address, kOutgoingLimit, false, socket);
}

void SimNetwork::close_endpoint(const Address& address) {
    const std::string key = key_of(address);
    if (impl_->endpoints.erase(key) != 0) impl_->incoming[key].has_endpoint = false;
}

Status SimNetwork::set_link(const Address& from, const Address& to, const LinkConfig& config) {
    if (Status s = config.validate(); !s.ok()) return s;
    sim::Link& l = impl_->link(from, to);
    if (l.stream) (void)l.stream->set_config(config);  // validated above
    return l.conditioner.set_config(config);
}

Status SimNetwork::set_links(const Address& a, const Address& b, const LinkConfig& config) {
    if (Status s = set_link(a, b, config); !s.ok()) return s;
    return set_link(b, a, config);
}

LinkConfig SimNetwork::link(const Address& from, const Address& to) const {
    auto it = impl_->links.find(std::make_pair(key_of(from), key_of(to)));
    return it == impl_->links.end() ? impl_->config.default_link : it->second.conditioner.config();
}

std::optional<LinkCounters> SimNetwork::link_counters(const Address& from, const Address& to) const {
    auto it = impl_->links.find(std::make_pair(key_of(from), key_of(to)));
    if (it == impl_->links.end()) return std::nullopt;
    return it->second.conditioner.counters();
}

std::optional<StreamCounters> SimNetwork::stream_counters(const Address& from, const Address& to) const {
    auto it = impl_->links.find(std::make_pair(key_of(from), key_of(to)));
    if (it == impl_->links.end() || !it->second.stream) return std::nullopt;
    return it->second.stream->counters();
}

void SimNetwork::inject(Micros now, const Address& from, const Address& to,
                        std::vector<std::uint8_t> datagram) {
    impl_->transmit(now, impl_->link(from, to), std::move(datagram));
}

void SimNetwork::advance_to(Micros now) {
    impl_->now = std::max(impl_->now, now);
    for (auto& [key, e] : impl_->endpoints) e->update(impl_->now);
    impl_->drain_orphans(impl_->now);
}

Micros SimNetwork::now() const { return impl_->now; }
const SimNetworkStats& SimNetwork::stats() const { return impl_->stats; }
std::uint64_t SimNetwork::trace_hash() const { return impl_->trace; }
const SimNetworkConfig& SimNetwork::config() const { return impl_->config; }

}  // namespace rwd::transport
