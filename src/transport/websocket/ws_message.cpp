// The WebSocket transport's message rules: classifying what arrives, framing what leaves, close codes.
#include "transport/websocket/ws_message.hpp"

namespace rwd::transport::ws {

std::uint16_t close_code_of(Refusal r) {
    switch (r) {
        case Refusal::text:
            return kCloseUnsupportedData;
        case Refusal::too_big:
            return kCloseTooBig;
        case Refusal::none:
        case Refusal::empty:
        case Refusal::unknown_class:
        case Refusal::misplaced_control:
            break;
    }
    return kClosePolicy;
}

std::string_view refusal_name(Refusal r) {
    switch (r) {
        case Refusal::none:
            return "none";
        case Refusal::text:
            return "text message";
        case Refusal::empty:
            return "empty message";
        case Refusal::unknown_class:
            return "unknown class byte";
        case Refusal::too_big:
            return "message too big";
        case Refusal::misplaced_control:
            return "misplaced control message";
    }
    return "unknown";
}

Incoming classify(std::span<const std::uint8_t> message, bool text, const Limits& limits,
                  bool awaiting_accept) {
    Incoming in;
    if (text) {
        in.refusal = Refusal::text;
        return in;
    }
    if (message.empty()) {
        in.refusal = Refusal::empty;
        return in;
    }
    const std::uint8_t cls = message[0];
    const auto payload = message.subspan(1);
    if (cls == kClassControl) {
        if (awaiting_accept && payload.size() == 1 && payload[0] == kControlAccept)
            in.accept = true;
        else
            in.refusal = Refusal::misplaced_control;
        return in;
    }
    if (cls != kClassUnreliable && cls != kClassReliable) {
        in.refusal = Refusal::unknown_class;
        return in;
    }
    if (awaiting_accept) {  // nothing may overtake the accept: it is the first message on the stream
        in.refusal = Refusal::misplaced_control;
        return in;
    }
    in.delivery = cls == kClassReliable ? Delivery::reliable_ordered : Delivery::unreliable;
    if (payload.size() > (in.delivery == Delivery::reliable_ordered ? limits.reliable : limits.unreliable)) {
        in.refusal = Refusal::too_big;
        return in;
    }
    in.payload = payload;
    return in;
}

std::vector<std::uint8_t> frame(Delivery delivery, std::span<const std::uint8_t> payload) {
    std::vector<std::uint8_t> out;
    out.reserve(payload.size() + 1);
    out.push_back(delivery == Delivery::reliable_ordered ? kClassReliable : kClassUnreliable);
    out.insert(out.end(), payload.begin(), payload.end());
    return out;
}

std::vector<std::uint8_t> accept_message() { return {kClassControl, kControlAccept}; }

std::uint16_t close_code(DisconnectReason reason) {
    return static_cast<std::uint16_t>(kCloseBase + static_cast<std::uint16_t>(reason));
}

DisconnectReason reason_of_close(std::uint16_t code, bool accepted) {
    if (!accepted) return code == kCloseRefused ? DisconnectReason::refused : DisconnectReason::timed_out;
    if (code >= kCloseBase && code < kCloseBase + 100) return DisconnectReason::remote;
    return DisconnectReason::timed_out;
}

std::size_t frame_overhead(std::size_t size, bool masked) {
    const std::size_t length = size < 126 ? 2 : size <= 0xFFFF ? 4 : 10;
    return length + (masked ? 4 : 0);
}

bool offers_subprotocol(std::string_view header) {
    while (!header.empty()) {
        const auto comma = header.find(',');
        auto token = header.substr(0, comma);
        while (!token.empty() && (token.front() == ' ' || token.front() == '\t')) token.remove_prefix(1);
        while (!token.empty() && (token.back() == ' ' || token.back() == '\t')) token.remove_suffix(1);
        if (token == kSubprotocol) return true;
        if (comma == std::string_view::npos) break;
        header.remove_prefix(comma + 1);
    }
    return false;
}

}  // namespace rwd::transport::ws
