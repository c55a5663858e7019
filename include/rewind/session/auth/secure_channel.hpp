/// SecureChannel: one connection's packets after the handshake, encrypted and authenticated with libsodium's
/// ChaCha20-Poly1305 (IETF) under the per-connection keys its connect token carried, with a sequence per
/// lane and a replay window, so a forged, replayed, truncated or altered packet is refused before decoding.
#pragma once

#include <rewind/core/result.hpp>

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
};
/// Bytes of both keys side by side (client to server first), as credentials carry them.
inline constexpr std::size_t kSessionKeysBytes = 2 * kSessionKeyBytes;

/// Bytes a sealed packet adds: the low 16 bits of its sequence, then the 16-byte Poly1305 tag.
inline constexpr std::size_t kSealedOverheadBytes = 2 + 16;
/// Packets of an unreliable lane this much older than the newest one are refused as stale.
inline constexpr std::uint64_t kReplayWindowPackets = 256;

/// The two sequences of a connection, one per delivery class: the unreliable one takes packets in any order
/// inside its replay window, the reliable one (delivered in order) only packets newer than the last.
enum class Lane : std::uint8_t { unreliable = 0, reliable = 1 };

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

/// Seals what one side sends and opens what it receives. Each direction has its own key, so the two sides
/// never share a nonce; the nonce is the packet's 64-bit sequence and its lane. Sequences are never reused
/// while the channel lives; the keys are wiped when it dies.
class SecureChannel {
public:
    /// Which end of the connection this channel is (which key seals, which opens).
    enum class Side : std::uint8_t { client, server };

    /// A channel for `side` of the connection with `keys`.
    SecureChannel(const SessionKeys& keys, Side side);
    ~SecureChannel();
    /// Copies the keys and sequence state (the copy must not send on the same connection as the original).
    SecureChannel(const SecureChannel&) = default;
    /// Copies the keys and sequence state.
    SecureChannel& operator=(const SecureChannel&) = default;

    /// Writes the sealed form of `plain` (sequence, ciphertext, tag: plain.size() + kSealedOverheadBytes
    /// bytes) to `out`, replacing its contents. Fails with io_error only if libsodium cannot start.
    [[nodiscard]] Status seal(Lane lane, std::span<const std::uint8_t> plain, std::vector<std::uint8_t>& out);
    /// Opens an untrusted packet of `lane` into `out` (replaced); none, or why it was refused (then `out` is
    /// empty and no state changed: a refused packet never moves a replay window).
    [[nodiscard]] OpenError open(Lane lane, std::span<const std::uint8_t> packet,
                                 std::vector<std::uint8_t>& out);
    /// Forgets what was received (a new connection with the same keys starts its sequences again); what this
    /// side sends keeps counting up, so no nonce is ever sealed twice.
    void restart_receiving();

private:
    struct Window {
        bool any = false;                     // a packet was opened (newest is valid)
        std::uint64_t newest = 0;             // the newest sequence opened
        std::array<std::uint64_t, 4> seen{};  // bit i: newest - i was opened (256 packets)
    };
    SessionKey send_key_{};
    SessionKey receive_key_{};
    std::array<std::uint64_t, 2> next_send_{};
    std::array<Window, 2> windows_{};
};

}  // namespace rwd::auth
