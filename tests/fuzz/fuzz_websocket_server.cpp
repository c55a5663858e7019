/// libFuzzer target: the WebSocket server path on real loopback TCP. Each input is one connection's bytes:
/// with a first byte below 0x80 they follow a valid upgrade request (frames: lengths, masks, opcodes,
/// reserved bits, fragments, control frames, oversize messages, class bytes), else they are sent as they are
/// (the HTTP request itself). The client then shuts its side; the server must end the connection, report
/// nothing it should not (no message over its class's limit, no message from a peer never connected, no
/// connect it did not accept) and hold no peer afterwards. A violation aborts (libFuzzer reports it as a
/// crash).
#include <rewind/transport/websocket_transport.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <string>

namespace {

namespace tp = rwd::transport;
using rwd::Micros;

constexpr std::size_t kMaxMessage = 64;
constexpr std::size_t kMaxReliable = 1024;

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "websocket server invariant broken: %s\n", what);
    std::abort();
}

Micros real_now() {
    using namespace std::chrono;
    return Micros{duration_cast<microseconds>(steady_clock::now().time_since_epoch()).count()};
}

tp::WebSocketTransport& server() {
    static std::unique_ptr<tp::WebSocketTransport> s = [] {
        tp::WebSocketConfig c;
        c.bind_host = "127.0.0.1";
        c.max_peers = 4;
        c.max_message_size = kMaxMessage;
        c.max_reliable_size = kMaxReliable;
        c.max_reliable_backlog = kMaxReliable;
        c.handshake_timeout = Micros{200'000};
        auto t = tp::WebSocketTransport::create(c);
        if (!t.ok()) fail("cannot listen");
        return std::move(t.value());
    }();
    return *s;
}

const std::string kUpgrade =
    "GET /rewind HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
    "Sec-WebSocket-Protocol: rewind.1\r\n\r\n";

std::set<tp::PeerId> connected;  // peers reported connected and not yet disconnected

void drain_events() {
    tp::TransportEvent e;
    while (server().poll(e)) {
        switch (e.type) {
            case tp::TransportEvent::Type::connected:
                if (!connected.insert(e.peer).second) fail("a peer connected twice");
                break;
            case tp::TransportEvent::Type::disconnected:
                if (connected.erase(e.peer) != 1) fail("a disconnect for a peer never connected");
                break;
            case tp::TransportEvent::Type::message:
                if (!connected.count(e.peer)) fail("a message from a peer not connected");
                if (e.data.size() >
                    (e.delivery == tp::Delivery::reliable_ordered ? kMaxReliable : kMaxMessage))
                    fail("a message over its class's limit");
                // Answer like a server would: the backlog rule and writes run on a live, garbage-fed peer.
                (void)server().send(e.peer, e.delivery, e.data);
                break;
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0 || size > 8192) return 0;
    tp::WebSocketTransport& s = server();
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(s.local_address().port);
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&to), sizeof(to)) != 0) fail("cannot connect");
    char sink[4096];
    bool server_closed = false;
    std::string answer;  // what the server sent, up to the end of its HTTP answer
    // Reads what the server sent (never blocks); notes when it closed.
    auto drain = [&] {
        pollfd p{fd, POLLIN, 0};
        while (!server_closed && ::poll(&p, 1, 0) > 0) {
            const auto n = ::recv(fd, sink, sizeof(sink), MSG_DONTWAIT);
            if (n <= 0) {
                server_closed = true;
                break;
            }
            if (answer.find("\r\n\r\n") == std::string::npos)
                answer.append(sink, static_cast<std::size_t>(std::min<long>(n, 4096)));
        }
    };
    auto pump = [&] {
        s.update(real_now());
        drain_events();
        drain();
    };
    if (data[0] < 0x80) {  // a valid upgrade first; the frames go only after the answer (as a client must)
        const auto n = ::send(fd, kUpgrade.data(), kUpgrade.size(), MSG_NOSIGNAL);
        if (n != static_cast<long>(kUpgrade.size())) fail("cannot send the upgrade");
        for (int round = 0; round < 20000 && answer.find("\r\n\r\n") == std::string::npos && !server_closed;
             ++round) {
            pump();
            if (round > 50) ::usleep(50);
        }
        if (answer.rfind("HTTP/1.1 101", 0) != 0) fail("a valid upgrade was not answered 101");
    }
    const std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    std::size_t sent = 0;
    if (bytes.empty()) ::shutdown(fd, SHUT_WR);
    // Send, then shut the writing side; pump until the server has closed the connection.
    for (int round = 0; round < 20000 && !server_closed; ++round) {
        if (sent < bytes.size()) {
            const auto n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (n > 0) sent += static_cast<std::size_t>(n);
            if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) sent = bytes.size();  // reset by the server
            if (sent == bytes.size()) ::shutdown(fd, SHUT_WR);
        }
        pump();
        if (!server_closed && round > 50) ::usleep(50);
    }
    ::close(fd);
    if (!server_closed) fail("the server did not end a connection whose client shut its side");
    for (int round = 0; round < 100 && !connected.empty(); ++round) {
        s.update(real_now());
        drain_events();
    }
    if (!connected.empty() || s.peer_count() != 0) fail("a peer outlived its connection");
    // One connection at a time never fills the handshake places or the seats: a refusal means a leaked count.
    if (s.counters().refused_full != 0) fail("a handshake place or a seat leaked");
    return 0;
}
