/// libFuzzer target: the decrypting receive path (SecureChannel::open) on an attacker's mix of arbitrary
/// packets, altered genuine ones and replays, on both lanes; nothing but a genuine packet ever opens, each
/// opens at most once, opens to exactly what was sealed, and a refusal never stops later genuine packets.
#include <rewind/session/auth/secure_channel.hpp>

#include <fuzzer/FuzzedDataProvider.h>
#include <sodium.h>

#include <algorithm>
#include <array>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <utility>
#include <vector>

namespace auth = rwd::auth;

namespace {

/// The keys of this execution: a hash of the whole input. Every input is its own connection, so the bytes
/// the fuzzer saw sealed in other executions (it learns them from comparisons) are another connection's and
/// must not open here; the same input always gives the same keys (crashes reproduce).
auth::SessionKeys keys_of(const std::uint8_t* data, std::size_t size) {
    std::array<std::uint8_t, auth::kSessionKeysBytes> h{};
    crypto_generichash(h.data(), h.size(), data, size, nullptr, 0);
    auth::SessionKeys k;
    std::copy(h.begin(), h.begin() + auth::kSessionKeyBytes, k.client_to_server.begin());
    std::copy(h.begin() + auth::kSessionKeyBytes, h.end(), k.server_to_client.begin());
    return k;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    FuzzedDataProvider in(data, size);
    if (sodium_init() < 0) std::abort();
    const auth::SessionKeys keys = keys_of(data, size);
    auth::SecureChannel client(keys, auth::SecureChannel::Side::client);
    auth::SecureChannel server(keys, auth::SecureChannel::Side::server);
    struct Sent {
        auth::Lane lane;
        std::vector<std::uint8_t> plain, sealed;
    };
    std::vector<Sent> sent;
    std::set<std::pair<int, std::vector<std::uint8_t>>> opened;  // (lane, sealed bytes) already opened
    std::vector<std::uint8_t> out;
    while (in.remaining_bytes() > 0 && sent.size() < 4096) {
        const auto lane = in.ConsumeBool() ? auth::Lane::reliable : auth::Lane::unreliable;
        const int action = in.ConsumeIntegralInRange(0, 3);
        std::vector<std::uint8_t> packet;
        if (action == 0) {  // the client seals something new
            Sent s{lane, in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange(0, 64)), {}};
            if (!client.seal(lane, s.plain, s.sealed).ok()) std::abort();
            if (s.sealed.size() != s.plain.size() + auth::kSealedOverheadBytes) std::abort();
            sent.push_back(std::move(s));
            if (in.ConsumeBool()) continue;  // held back: delivered later, or never
            packet = sent.back().sealed;
        } else if (action == 1 && !sent.empty()) {  // a genuine packet, again or late
            packet = sent[in.ConsumeIntegralInRange<std::size_t>(0, sent.size() - 1)].sealed;
        } else if (action == 2 && !sent.empty()) {  // a genuine packet altered in flight
            packet = sent[in.ConsumeIntegralInRange<std::size_t>(0, sent.size() - 1)].sealed;
            const std::size_t at = in.ConsumeIntegralInRange<std::size_t>(0, packet.size() - 1);
            packet[at] = static_cast<std::uint8_t>(packet[at] ^ in.ConsumeIntegralInRange(1, 255));
        } else {  // anything at all
            packet = in.ConsumeBytes<std::uint8_t>(in.ConsumeIntegralInRange(0, 96));
        }
        // Genuine means byte for byte a packet the client sealed on this lane in this execution, however it
        // got here.
        const Sent* match = nullptr;
        for (const Sent& s : sent)
            if (s.lane == lane && s.sealed == packet) match = &s;
        const auth::OpenError e = server.open(lane, packet, out);
        if (e == auth::OpenError::none) {
            if (match == nullptr) std::abort();  // a forgery opened
            if (out != match->plain) std::abort();
            if (!opened.insert({static_cast<int>(lane), packet}).second) std::abort();  // opened twice
        } else {
            if (!out.empty()) std::abort();
            if (e == auth::OpenError::truncated && packet.size() >= auth::kSealedOverheadBytes) std::abort();
        }
    }
    // Whatever came before, the next genuine packet of each lane opens.
    for (const auto lane : {auth::Lane::unreliable, auth::Lane::reliable}) {
        std::vector<std::uint8_t> sealed;
        const std::vector<std::uint8_t> plain{1, 2, 3};
        if (!client.seal(lane, plain, sealed).ok()) std::abort();
        if (server.open(lane, sealed, out) != auth::OpenError::none || out != plain) std::abort();
    }
    return 0;
}
