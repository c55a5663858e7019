/// How rollback sessions use the game contract: optional predictor, Input <-> InputBits, State bytes for
/// forensics.
#pragma once

#include <rewind/session/game.hpp>
#include <rewind/session/rollback/protocol.hpp>
#include <rewind/wire/stream.hpp>

#include <concepts>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <vector>

namespace rwd::rollback {

/// Optional: `static Input predict_input(const Input& last_confirmed, Frame frames_since)` guesses a remote
/// player's input `frames_since` frames after its newest confirmed one. Without it the last input repeats.
template <class G>
concept HasInputPredictor = DeterministicGame<G> && requires(const typename G::Input& last, Frame gap) {
    { G::predict_input(last, gap) } -> std::same_as<typename G::Input>;
};

/// The prediction for a player whose newest confirmed input is `last`, `frames_since` frames later.
template <DeterministicGame G>
typename G::Input predict_input(const typename G::Input& last, Frame frames_since) {
    if constexpr (HasInputPredictor<G>) {
        return G::predict_input(last, frames_since);
    } else {
        (void)frames_since;
        return last;
    }
}

/// Serializes `in` with the game's serialize() into `out`; false if it does not fit kMaxInputBytes.
template <DeterministicGame G>
bool input_to_bits(const typename G::Input& in, InputBits& out) {
    out = InputBits{};
    typename G::Input copy = in;  // serialize() takes a mutable reference for all directions
    wire::WriteStream s(std::span<std::uint8_t>(out.bytes.data(), out.bytes.size()));
    if (!serialize(s, copy) || !s.ok()) return false;
    s.flush();
    out.size = static_cast<std::uint8_t>(s.bytes_used());
    return true;
}

/// Deserializes untrusted `bits` into `out`. Fails unless re-serializing the result gives the same bits, so
/// an invalid or non-canonical input from the network is rejected rather than simulated.
template <DeterministicGame G>
bool bits_to_input(const InputBits& bits, typename G::Input& out) {
    if (bits.size > kMaxInputBytes) return false;
    typename G::Input in{};
    wire::ReadStream s(std::span<const std::uint8_t>(bits.bytes.data(), bits.size));
    if (!serialize(s, in) || !s.ok()) return false;
    InputBits again;
    if (!input_to_bits<G>(in, again) || !(again == bits)) return false;
    out = in;
    return true;
}

/// The bytes of `state` for a desync report: the game's serialize(Stream&, State&) when it has one
/// (`serialized` set), else the raw object representation of a trivially copyable State (useful for a byte
/// diff between identical builds only), else nothing.
template <DeterministicGame G>
std::vector<std::uint8_t> state_to_bytes(const typename G::State& state, bool& serialized) {
    if constexpr (StateSerializable<G>) {
        typename G::State copy = state;
        wire::MeasureStream m;
        if (serialize(m, copy) && m.ok() && m.bytes_used() <= kMaxStateBytes) {
            std::vector<std::uint8_t> out(m.bytes_used() + 4);
            wire::WriteStream w(std::span<std::uint8_t>(out.data(), out.size()));
            if (serialize(w, copy) && w.ok()) {
                w.flush();
                out.resize(w.bytes_used());
                serialized = true;
                return out;
            }
        }
    }
    serialized = false;
    if constexpr (std::is_trivially_copyable_v<typename G::State>) {
        std::vector<std::uint8_t> raw(sizeof(typename G::State));
        std::memcpy(raw.data(), &state, sizeof(typename G::State));
        return raw;
    } else {
        return {};  // a heap world has no meaningful bytes of its own: give it serialize(Stream&, State&)
    }
}

/// Rebuilds a State from serialized bytes (only for games with serialize(Stream&, State&)); false otherwise.
template <DeterministicGame G>
bool state_from_bytes(std::span<const std::uint8_t> bytes, typename G::State& out) {
    if constexpr (StateSerializable<G>) {
        typename G::State s{};
        wire::ReadStream r(bytes);
        if (!serialize(r, s) || !r.ok()) return false;
        out = s;
        return true;
    } else {
        (void)bytes;
        (void)out;
        return false;
    }
}

}  // namespace rwd::rollback
