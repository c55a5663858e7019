/// libFuzzer target: SimNetwork's datagram parser (header, acks, messages, handshake) through
/// SimNetwork::inject.
///
/// A listening endpoint has one honest peer connected and exchanging reliable and unreliable messages; the
/// input is a list of raw datagrams injected onto the link, each from the honest peer's address (forged) or a
/// stranger's. Whatever arrives must never crash, the honest reliable stream must stay exactly-once and in
/// order while only strangers send (a forgery of the honest address may take over ids: the simulator has no
/// authentication), strangers can never end the honest connection, and no endpoint queue may grow unbounded.
#include <rewind/transport/sim_network.hpp>

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

using rwd::Micros;
namespace tp = rwd::transport;

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "sim datagram invariant broken: %s\n", what);
    std::abort();
}

/// A reliable message carrying its own index, so the receiver can check exactly-once order.
std::vector<std::uint8_t> numbered(std::uint32_t n) {
    return {static_cast<std::uint8_t>(n), static_cast<std::uint8_t>(n >> 8u),
            static_cast<std::uint8_t>(n >> 16u), 0x5A};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    tp::SimNetworkConfig nc;
    nc.seed = 3;
    tp::SimNetwork net(nc);
    const tp::Address server_addr{"server", 1}, honest_addr{"honest", 2}, stranger{"stranger", 3};
    tp::Transport* server = net.listen(server_addr, 4).value();
    tp::Transport* honest = net.create_endpoint(honest_addr).value();
    const tp::PeerId to_server = honest->connect(server_addr).value();
    Micros now{1'000};
    tp::PeerId from_honest = tp::kInvalidPeer;
    std::uint32_t sent = 0, received = 0;
    bool honest_gone = false;
    bool forged_any =
        false;  // SimNetwork has no authentication: a forged datagram may take over a message id
    tp::TransportEvent ev;
    for (int round = 0; round < 200 && in.remaining_bytes() > 0; ++round) {
        if (!honest_gone && from_honest != tp::kInvalidPeer) {
            if (honest->send(to_server, tp::Delivery::reliable_ordered, numbered(sent)).ok()) ++sent;
            (void)honest->send(to_server, tp::Delivery::unreliable, numbered(0xFFFFFFu));
        }
        const int datagrams = in.ConsumeIntegralInRange(0, 4);
        for (int i = 0; i < datagrams; ++i) {
            const bool forged = in.ConsumeBool();
            forged_any = forged_any || forged;
            net.inject(now, forged ? honest_addr : stranger, server_addr,
                       in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, 1400)));
        }
        if (in.ConsumeIntegralInRange(0, 3) == 0) {  // and the other way: the honest endpoint is attacked too
            forged_any = true;                       // (forged as the server: it may say goodbye)
            net.inject(now, server_addr, honest_addr,
                       in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange<std::size_t>(0, 64)));
        }
        now += Micros{in.ConsumeIntegralInRange<std::int64_t>(1'000, 50'000)};
        net.advance_to(now);
        while (server->poll(ev)) {
            if (ev.type == tp::TransportEvent::Type::connected && from_honest == tp::kInvalidPeer)
                from_honest = ev.peer;
            if (ev.type == tp::TransportEvent::Type::disconnected && ev.peer == from_honest)
                honest_gone = true;
            if (ev.type != tp::TransportEvent::Type::message || ev.peer != from_honest) continue;
            if (ev.data.size() != 4 || ev.data[3] != 0x5A)
                continue;  // forged payloads may get through: not ours
            const std::uint32_t n = ev.data[0] | (ev.data[1] << 8u) | (ev.data[2] << 16u);
            if (ev.delivery != tp::Delivery::reliable_ordered) continue;
            if (forged_any) continue;
            if (n != received) fail("honest reliable message lost, repeated or out of order");
            ++received;
        }
        while (honest->poll(ev)) {
            if (ev.type == tp::TransportEvent::Type::disconnected) honest_gone = true;
        }
        if (received > sent) fail("more reliable messages than sent");
        if (!forged_any && honest_gone) fail("strangers' datagrams ended an honest connection");
    }
    return 0;
}
