/// ClientCore::Impl: losing the link while playing and coming back to the seat (reconnect attempts with a
/// backoff, the resume hello, the wait for fresh credentials).
#include "session/client_server/client_core_impl.hpp"

#include <rewind/core/log.hpp>

#include <algorithm>

namespace rwd::client_server::detail {

ConnectRequest ClientCore::Impl::hello() const {
    ConnectRequest h{kProtocolId, kProtocolVersion, config_.game_id, config_.connect_token};
    if (resume_) {
        h.resume = true;
        h.resume_slot = resume_->slot;
        h.resume_secret = resume_->secret;
        h.resume_has_messages = resume_->has_messages;
        h.resume_next_message = resume_->next_message;
    }
    return h;
}

void ClientCore::Impl::link_lost(DisconnectCode code, Micros now) {
    const bool may_resume = (phase_ == ClientPhase::syncing || phase_ == ClientPhase::playing) &&
                            grace_offered_ && slot_ >= 0 && config_.reconnect_for.count > 0;
    if (!may_resume) return end(code);
    if (server_ != transport::kInvalidPeer)
        transport_.disconnect(server_, transport::DisconnectReason::local);
    server_ = transport::kInvalidPeer;
    channel_.reset();
    resume_ = ResumeTicket{static_cast<std::uint8_t>(slot_), secret_, true, expected_message_};
    phase_ = ClientPhase::reconnecting;
    lost_at_ = now;
    backoff_ = Micros{250'000};
    retry_at_ = now + backoff_;
    stats_.connect_attempts = 0;
    ++stats_.reconnects;
    logf(config_.logger, LogLevel::warn, "lost the link to %s:%u: reconnecting to slot %d for up to %.0f s",
         server_address_.host.c_str(), server_address_.port, slot_, config_.reconnect_for.seconds());
}

void ClientCore::Impl::resend_after(std::uint32_t taken) {
    if (taken > sent_count_) {
        // The seat took more than this client sent: a restarted process (a ticket). Its numbering goes on
        // from the server's count.
        sent_log_.clear();
        sent_count_ = taken;
        return;
    }
    // What the log no longer reaches back to is lost, and counted.
    const std::uint32_t missing = sent_count_ - taken;
    const auto held = static_cast<std::uint32_t>(sent_log_.size());
    if (missing > held) stats_.messages_unsent += missing - held;
    for (std::size_t i = sent_log_.size() - std::min(missing, held); i < sent_log_.size(); ++i) {
        ClientMessage m = sent_log_[i].message;
        if (send(transport::Delivery::reliable_ordered, m)) ++stats_.messages_resent;
    }
}

void ClientCore::Impl::reconnect_failed(Micros now) {
    if (server_ != transport::kInvalidPeer)
        transport_.disconnect(server_, transport::DisconnectReason::local);
    server_ = transport::kInvalidPeer;
    channel_.reset();
    if (now + backoff_ - lost_at_ > config_.reconnect_for) {
        logf(config_.logger, LogLevel::warn, "could not reconnect in %.0f s (%llu attempts): giving up",
             (now - lost_at_).seconds(), static_cast<unsigned long long>(stats_.connect_attempts));
        // end() only ends a session that is on: the reconnection counts as one.
        return end(DisconnectCode::timed_out);
    }
    logf(config_.logger, LogLevel::info, "reconnect attempt %llu failed; next in %.2f s",
         static_cast<unsigned long long>(stats_.connect_attempts), backoff_.seconds());
    retry_at_ = now + backoff_;
    backoff_ = std::min(backoff_ * 2, Micros{4'000'000});
}

}  // namespace rwd::client_server::detail
