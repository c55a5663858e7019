/// SecureChannel: one connection's packets after the handshake, encrypted and authenticated with libsodium's
/// ChaCha20-Poly1305 (IETF) under the per-connection keys its connect token carried, with a sequence per
/// lane and a replay window, so a forged, replayed, truncated or altered packet is refused before decoding.
#pragma once

#include <rewind/core/result.hpp>
#include <rewind/transport/transport.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace rwd::auth {

/// Bytes of one direction's key.
inline constexpr std::size_t kSessionKeyBytes = 32;
/// One direction's key.
using SessionKey = std::array<std::uint8_t, kSessionKeyBytes>;

/// The two keys of one connection, drawn at random by the backend for every token: the token carries them
/// sealed for the servers, and the backend hands them to the client beside it.
struct SessionKeys {
    SessionKey client_to_server{};  ///< seals what the client sends
    SessionKey server_to_client{};  ///< seals what the server sends
    /// Same bytes.
    friend bool operator==(const SessionKeys&, const SessionKeys&) = default;
    /// True when every byte is zero (no keys given).
    [[nodiscard]] bool empty() const;
    /// True when neither key is all zero and the two differ (what a backend must draw).
    [[nodiscard]] bool usable() const;
};
/// Bytes of both keys side by side (client to server first), as credentials carry them.
inline constexpr std::size_t kSessionKeysBytes = 2 * kSessionKeyBytes;

/// Bytes of a connection's salt.
inline constexpr std::size_t kConnectionSaltBytes = 16;
/// What makes one connection's keys its own: the server draws it for every connection it seats (from its
/// process salt and a counter) and sends it in the clear in its accept.
using ConnectionSalt = std::array<std::uint8_t, kConnectionSaltBytes>;
/// Random bytes a server draws once per process (the app draws them: the library never does).
using ProcessSalt = std::array<std::uint8_t, kConnectionSaltBytes>;

/// The salt of the server's `n`-th keyed connection: keyed BLAKE2b of `n` under `process`.
[[nodiscard]] ConnectionSalt connection_salt(const ProcessSalt& process, std::uint64_t n);
/// The keys of one connection: each of the token's keys hashed (keyed BLAKE2b) with its direction and `salt`.
/// A token seated twice (a recorded hello replayed, or a server restarted within the token's lifetime) gets
/// other keys each time, so no packet of one connection opens on another and no nonce repeats.
[[nodiscard]] SessionKeys connection_keys(const SessionKeys& token_keys, const ConnectionSalt& salt);

/// Bytes a sealed packet adds: the low 16 bits of its sequence, then the 16-byte Poly1305 tag.
inline constexpr std::size_t kSealedOverheadBytes = 2 + 16;
/// Packets of an unreliable lane this much older than the newest one are refused as stale.
inline constexpr std::uint64_t kReplayWindowPackets = 256;

/// The two sequences of a connection, one per delivery class: the unreliable one takes packets in any order
/// inside its replay window, the reliable one (delivered in order) only packets newer than the last.
enum class Lane : std::uint8_t { unreliable = 0, reliable = 1 };
/// The lane of a transport delivery class.
[[nodiscard]] constexpr Lane lane_of(transport::Delivery d) {
    return d == transport::Delivery::reliable_ordered ? Lane::reliable : Lane::unreliable;
}

/// Why open() refused a packet. Append only: the values index the servers' and clients' counters.
enum class OpenError : std::uint8_t {
    none = 0,   ///< opened
    truncated,  ///< shorter than the sequence and tag
    forged,     ///< the tag does not check out: forged, altered in flight, or sealed with other keys
    replayed,   ///< its sequence was opened already, or a reliable one went back (a copy, altered or not:
                ///< refused before the tag is checked)
    stale,      ///< its sequence is older than the replay window (refused before the tag is checked)
};
/// Number of OpenError values (for per-reason counters).
inline constexpr std::size_t kOpenErrorCount = 5;
/// The readable name of an OpenError, e.g. "forged".
[[nodiscard]] std::string_view open_error_name(OpenError e);

/// Seals what one side sends and opens what it receives. Each direction has its own key, and the nonce is the
/// packet's 64-bit sequence, its lane and the sending side, so the two sides never share a nonce even under
/// equal keys. Sequences are never reused while the channel lives (it cannot be copied); the keys are wiped
/// when it dies. Give it connection_keys(), never a token's keys as they are.
class SecureChannel {
public:
    /// Which end of the connection this channel is (which key seals, which opens).
    enum class Side : std::uint8_t { client = 0, server = 1 };

    /// A channel for `side` of the connection with `keys`.
    SecureChannel(const SessionKeys& keys, Side side);
    ~SecureChannel();
    SecureChannel(const SecureChannel&) = delete;             ///< a copy would seal with the same nonces
    SecureChannel& operator=(const SecureChannel&) = delete;  ///< a copy would seal with the same nonces

    /// Writes the sealed form of `plain` (sequence, ciphertext, tag: plain.size() + kSealedOverheadBytes
    /// bytes) to `out`, replacing its contents; `clear` is authenticated with it but not carried (the caller
    /// sends it in the clear). `plain` and `clear` must not alias `out`. Fails with io_error only if
    /// libsodium cannot start.
    [[nodiscard]] Status seal(Lane lane, std::span<const std::uint8_t> plain, std::vector<std::uint8_t>& out,
                              std::span<const std::uint8_t> clear = {});
    /// Opens an untrusted packet of `lane` into `out` (replaced), `clear` being the bytes authenticated with
    /// it in the clear; none, or why it was refused (then `out` is empty and no state changed: a refused
    /// packet never moves a replay window). `packet` and `clear` must not alias `out`.
    [[nodiscard]] OpenError open(Lane lane, std::span<const std::uint8_t> packet,
                                 std::vector<std::uint8_t>& out, std::span<const std::uint8_t> clear = {});

private:
    struct Window {
        bool any = false;                     // a packet was opened (newest is valid)
        std::uint64_t newest = 0;             // the newest sequence opened
        std::array<std::uint64_t, 4> seen{};  // bit i: newest - i was opened (256 packets)
    };
    Side side_;
    SessionKey send_key_{};
    SessionKey receive_key_{};
    std::array<std::uint64_t, 2> next_send_{};
    std::array<Window, 2> windows_{};
};

}  // namespace rwd::auth
