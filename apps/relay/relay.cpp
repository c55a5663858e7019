// Relay: POSIX UDP sockets and ppoll(); one upstream socket and two LinkConditioners per client address.
#include "relay/relay.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <map>
#include <vector>

namespace relay {

using rwd::Errc;
using rwd::Error;
using rwd::Micros;
using rwd::Result;
using rwd::Status;
using rwd::transport::LinkConditioner;
using rwd::transport::LinkCounters;

namespace {

constexpr std::size_t kMaxDatagram = 65536;
constexpr int kMaxReadsPerSocket = 4096;  // per step, so one flooding client cannot starve the others

// SplitMix64: spreads (seed, ordinal, direction) into well-mixed, distinct conditioner seeds.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

int udp_socket() { return ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0); }

std::uint64_t key_of(const sockaddr_in& a) {
    return (static_cast<std::uint64_t>(ntohl(a.sin_addr.s_addr)) << 16) | ntohs(a.sin_port);
}

void add(LinkCounters& into, const LinkCounters& c) {
    into.submitted += c.submitted;
    into.dropped_mtu += c.dropped_mtu;
    into.dropped_queue += c.dropped_queue;
    into.dropped_burst += c.dropped_burst;
    into.dropped_random += c.dropped_random;
    into.duplicated += c.duplicated;
    into.reordered += c.reordered;
    into.delivered += c.delivered;
    into.bytes_submitted += c.bytes_submitted;
    into.bytes_delivered += c.bytes_delivered;
}

}  // namespace

Status RelayConfig::validate() const {
    if (server_host.empty() || server_port == 0)
        return Error{Errc::invalid_config, "server host and port are required"};
    if (listen_host.empty()) return Error{Errc::invalid_config, "listen_host must not be empty"};
    if (Status s = up.validate(); !s) return s;
    if (Status s = down.validate(); !s) return s;
    if (idle_timeout.count < 1000) return Error{Errc::invalid_config, "idle_timeout must be >= 1 ms"};
    if (max_clients < 1) return Error{Errc::invalid_config, "max_clients must be >= 1"};
    return {};
}

class Relay::Impl {
public:
    struct Mapping {
        sockaddr_in client{};
        int fd = -1;
        LinkConditioner up;
        LinkConditioner down;
        Micros last_active{};
    };

    explicit Impl(RelayConfig config) : config_(std::move(config)), buffer_(kMaxDatagram) {}
    ~Impl() {
        for (auto& [key, m] : mappings_) ::close(m.fd);
        if (listen_fd_ >= 0) ::close(listen_fd_);
    }
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    Status open() {
        addrinfo hints{};
        hints.ai_family = AF_INET;
        hints.ai_socktype = SOCK_DGRAM;
        addrinfo* found = nullptr;
        if (::getaddrinfo(config_.server_host.c_str(), nullptr, &hints, &found) != 0 || found == nullptr) {
            return Error{Errc::invalid_argument, "cannot resolve the server host"};
        }
        server_ = *reinterpret_cast<const sockaddr_in*>(found->ai_addr);
        server_.sin_port = htons(config_.server_port);
        ::freeaddrinfo(found);

        sockaddr_in local{};
        local.sin_family = AF_INET;
        local.sin_port = htons(config_.listen_port);
        if (::inet_pton(AF_INET, config_.listen_host.c_str(), &local.sin_addr) != 1) {
            return Error{Errc::invalid_config, "listen_host is not a numeric IPv4 address"};
        }
        listen_fd_ = udp_socket();
        if (listen_fd_ < 0) return Error{Errc::io_error, "cannot create a UDP socket"};
        if (::bind(listen_fd_, reinterpret_cast<const sockaddr*>(&local), sizeof local) != 0) {
            return Error{Errc::io_error,
                         "cannot bind the listen port (already in use, or not a local address)"};
        }
        socklen_t len = sizeof local;
        if (::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&local), &len) != 0) {
            return Error{Errc::io_error, "getsockname failed on the listen socket"};
        }
        port_ = ntohs(local.sin_port);
        return {};
    }

    void step(Micros now) {
        receive_from_clients(now);
        for (auto& [key, m] : mappings_) receive_from_server(m, now);
        for (auto& [key, m] : mappings_) deliver(m, now);
        expire(now);
    }

    void wait(Micros now, Micros max_wait) {
        Micros timeout = max_wait;
        std::vector<pollfd> fds;
        fds.reserve(mappings_.size() + 1);
        fds.push_back(pollfd{listen_fd_, POLLIN, 0});
        for (auto& [key, m] : mappings_) {
            fds.push_back(pollfd{m.fd, POLLIN, 0});
            for (const LinkConditioner* c : {&m.up, &m.down}) {
                if (auto due = c->next_ready_time()) timeout = std::min(timeout, *due - now);
            }
        }
        timeout = std::max(timeout, Micros{0});
        const timespec ts{static_cast<time_t>(timeout.count / 1'000'000),
                          static_cast<long>((timeout.count % 1'000'000) * 1000)};
        (void)::ppoll(fds.data(), fds.size(), &ts, nullptr);  // EINTR (a signal) simply returns early
    }

    [[nodiscard]] RelayStats stats() const {
        RelayStats s = closed_;
        s.clients = mappings_.size();
        for (const auto& [key, m] : mappings_) {
            add(s.up, m.up.counters());
            add(s.down, m.down.counters());
        }
        return s;
    }

    [[nodiscard]] std::uint16_t port() const { return port_; }

private:
    Mapping* mapping_for(const sockaddr_in& from, Micros now) {
        const std::uint64_t key = key_of(from);
        if (auto it = mappings_.find(key); it != mappings_.end()) return &it->second;
        if (mappings_.size() >= config_.max_clients) {
            ++closed_.dropped_no_slot;
            return nullptr;
        }
        const int fd = udp_socket();
        if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&server_), sizeof server_) != 0) {
            if (fd >= 0) ::close(fd);
            ++closed_.send_errors;
            return nullptr;
        }
        const std::uint64_t ordinal = closed_.clients_total++;
        Mapping m{from, fd, LinkConditioner(config_.up, mix(config_.seed ^ mix(ordinal * 2))),
                  LinkConditioner(config_.down, mix(config_.seed ^ mix(ordinal * 2 + 1))), now};
        return &mappings_.emplace(key, std::move(m)).first->second;
    }

    void receive_from_clients(Micros now) {
        for (int i = 0; i < kMaxReadsPerSocket; ++i) {
            sockaddr_in from{};
            socklen_t len = sizeof from;
            const ssize_t n = ::recvfrom(listen_fd_, buffer_.data(), buffer_.size(), 0,
                                         reinterpret_cast<sockaddr*>(&from), &len);
            if (n < 0) return;  // EAGAIN: drained (other errors: try again next step)
            if (len != sizeof from || from.sin_family != AF_INET) continue;
            Mapping* m = mapping_for(from, now);
            if (m == nullptr) continue;
            m->last_active = now;
            m->up.submit(now, std::vector<std::uint8_t>(buffer_.begin(), buffer_.begin() + n));
        }
    }

    void receive_from_server(Mapping& m, Micros now) {
        for (int i = 0; i < kMaxReadsPerSocket; ++i) {
            const ssize_t n = ::recv(m.fd, buffer_.data(), buffer_.size(), 0);
            if (n < 0) return;  // EAGAIN, or ECONNREFUSED after an ICMP error: nothing to forward
            m.last_active = now;
            m.down.submit(now, std::vector<std::uint8_t>(buffer_.begin(), buffer_.begin() + n));
        }
    }

    void deliver(Mapping& m, Micros now) {
        std::vector<std::uint8_t> packet;
        while (m.up.pop_ready(now, packet)) {
            if (::send(m.fd, packet.data(), packet.size(), 0) < 0) ++closed_.send_errors;
        }
        while (m.down.pop_ready(now, packet)) {
            if (::sendto(listen_fd_, packet.data(), packet.size(), 0,
                         reinterpret_cast<const sockaddr*>(&m.client), sizeof m.client) < 0) {
                ++closed_.send_errors;
            }
        }
    }

    void expire(Micros now) {
        for (auto it = mappings_.begin(); it != mappings_.end();) {
            Mapping& m = it->second;
            if (now - m.last_active > config_.idle_timeout && m.up.in_flight() == 0 &&
                m.down.in_flight() == 0) {
                add(closed_.up, m.up.counters());
                add(closed_.down, m.down.counters());
                ++closed_.clients_expired;
                ::close(m.fd);
                it = mappings_.erase(it);
            } else {
                ++it;
            }
        }
    }

    RelayConfig config_;
    std::vector<std::uint8_t> buffer_;
    int listen_fd_ = -1;
    std::uint16_t port_ = 0;
    sockaddr_in server_{};
    std::map<std::uint64_t, Mapping> mappings_;
    RelayStats closed_;  // counters of closed mappings plus relay-wide counts
};

Result<std::unique_ptr<Relay>> Relay::create(const RelayConfig& config) {
    if (Status s = config.validate(); !s) return s.error();
    auto impl = std::make_unique<Impl>(config);
    if (Status s = impl->open(); !s) return s.error();
    return std::unique_ptr<Relay>(new Relay(std::move(impl)));
}

Relay::Relay(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Relay::~Relay() = default;
void Relay::step(Micros now) { impl_->step(now); }
void Relay::wait(Micros now, Micros max_wait) { impl_->wait(now, max_wait); }
std::uint16_t Relay::port() const { return impl_->port(); }
RelayStats Relay::stats() const { return impl_->stats(); }

std::string Relay::stats_line() const {
    const RelayStats s = stats();
    std::string line;
    auto add = [&line](const char* key, unsigned long long value) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%s%s=%llu", line.empty() ? "" : " ", key, value);
        line += buf;
    };
    add("clients", s.clients);
    add("clients_total", s.clients_total);
    add("clients_expired", s.clients_expired);
    for (const auto& [prefix, c] : {std::pair{"up", &s.up}, std::pair{"down", &s.down}}) {
        const std::string p = prefix;
        add((p + "_in").c_str(), c->submitted);
        add((p + "_out").c_str(), c->delivered);
        add((p + "_lost").c_str(), c->dropped_random + c->dropped_burst);
        add((p + "_dup").c_str(), c->duplicated);
        add((p + "_reord").c_str(), c->reordered);
        add((p + "_qdrop").c_str(), c->dropped_queue);
        add((p + "_mtu").c_str(), c->dropped_mtu);
    }
    add("errors", s.send_errors + s.dropped_no_slot);
    return line;
}

}  // namespace relay
