/// ClientCore: construction, connecting and ending, sending messages, the received message stream, and the
/// facade over ClientCore::Impl.
#include "session/client_server/client_core_impl.hpp"

#include <rewind/core/log.hpp>

#include <algorithm>
#include <cassert>
#include <utility>

namespace rwd::client_server::detail {
namespace {

/// The clock-sync config with the client's tick rate copied in.
sync::ClockSyncConfig clock_sync_config(const ClientConfig& c) {
    sync::ClockSyncConfig cc = c.clock_sync;
    cc.tick_rate_hz = c.tick_rate_hz;
    return cc;
}

}  // namespace

ClientCore::Impl::Impl(transport::Transport& transport, const ClientConfig& config, int max_players,
                       ClientGameAccess& game, MessageTable messages)
    : transport_(transport),
      config_(config),
      max_players_(max_players),
      game_(game),
      step_(FixedStepConfig{config.tick_rate_hz, config.max_tick_catchup}),
      clock_(clock_sync_config(config)),
      messages_(std::move(messages)) {
    assert(config.validate().ok());
}

void ClientCore::Impl::quit() {
    if (server_ == transport::kInvalidPeer) {
        if (phase_ == ClientPhase::reconnecting) end(DisconnectCode::client_quit);  // between attempts
        return;
    }
    Disconnect bye{DisconnectCode::client_quit};
    send(transport::Delivery::reliable_ordered, bye);
    transport_.disconnect(server_, transport::DisconnectReason::local);
    end(DisconnectCode::client_quit);
}

void ClientCore::Impl::end(DisconnectCode code) {
    if (phase_ == ClientPhase::disconnected || phase_ == ClientPhase::idle) return;
    if (stats_.disconnect_code == DisconnectCode::none) stats_.disconnect_code = code;
    phase_ = ClientPhase::disconnected;
    server_ = transport::kInvalidPeer;
    // Losing the server (or never reaching it) is a warning; a goodbye, a kick or a refusal is information.
    const bool lost = stats_.disconnect_code == DisconnectCode::timed_out ||
                      stats_.disconnect_code == DisconnectCode::transport;
    logf(config_.logger, lost ? LogLevel::warn : LogLevel::info, "disconnected: %s",
         disconnect_code_name(stats_.disconnect_code).data());
}

void ClientCore::Impl::attempt_failed(DisconnectCode code, Micros now) {
    if (server_ != transport::kInvalidPeer)
        transport_.disconnect(server_, transport::DisconnectReason::local);
    server_ = transport::kInvalidPeer;
    if (now + backoff_ - first_attempt_ > config_.connect_retry_for) {
        logf(config_.logger, LogLevel::warn, "no answer from %s:%u after %llu attempts in %.1f s: giving up",
             server_address_.host.c_str(), server_address_.port,
             static_cast<unsigned long long>(stats_.connect_attempts), (now - first_attempt_).seconds());
        end(code);
        return;
    }
    logf(config_.logger, LogLevel::info, "no answer from %s:%u yet (attempt %llu); retrying in %.2f s",
         server_address_.host.c_str(), server_address_.port,
         static_cast<unsigned long long>(stats_.connect_attempts), backoff_.seconds());
    retry_at_ = now + backoff_;
    backoff_ = std::min(backoff_ * 2, Micros{4'000'000});
}

bool ClientCore::Impl::start_attempt(Micros now) {
    retry_at_.reset();
    auto peer = transport_.connect(server_address_);
    if (!peer.ok()) {
        end(DisconnectCode::transport);
        return false;
    }
    server_ = peer.value();
    connect_started_ = now;
    ++stats_.connect_attempts;
    channel_.reset();  // a new connection: its accept brings new keys
    // A new seat numbers its snapshots from 0 again: judged against what an abandoned attempt heard before
    // its accept, they would all be stale until they caught up. (Reconnecting, the last seat's snapshots are
    // kept until the accept: the world stays drawn meanwhile.)
    if (phase_ == ClientPhase::connecting) forget_connection_snapshots();
    return true;
}

void ClientCore::Impl::forget_connection_snapshots() {
    has_snapshot_ = false;
    game_.forget_snapshots();
    has_seq_ = false;
    unreliable_sequence_ = 0;
    unreliable_seen_.reset();
}

bool ClientCore::Impl::take_message(Message&& m) {
    // The server is trusted to mean well, not its bytes: a type this game does not have, one that never
    // travels to clients, or a payload that does not decode as its type is counted and dropped.
    const MessageRule* rule = messages_.find(m.type);
    if (rule == nullptr || rule->spec.direction == MessageDirection::to_server ||
        m.reliable != (rule->spec.delivery == MessageDelivery::reliable) ||
        m.payload.size() > rule->spec.max_bytes || !rule->decodes(m.payload)) {
        ++stats_.messages_refused;
        return false;
    }
    inbox_.push_back(std::move(m));
    if (inbox_.size() > kMaxQueuedMessages) inbox_.pop_front();
    return true;
}

ClientCore::ClientCore(transport::Transport& transport, const ClientConfig& config, int max_players,
                       ClientGameAccess& game, MessageTable messages)
    : impl_(new Impl(transport, config, max_players, game, std::move(messages))) {}

ClientCore::~ClientCore() { delete impl_; }

Status ClientCore::connect(const transport::Address& server, Micros now, const ResumeTicket* ticket) {
    Impl& m = *impl_;
    if (m.phase_ == ClientPhase::connecting || m.phase_ == ClientPhase::syncing ||
        m.phase_ == ClientPhase::playing || m.phase_ == ClientPhase::reconnecting)
        return Error{Errc::already_exists, "already connected"};
    if (ticket && ticket->slot >= m.max_players_) return Error{Errc::invalid_argument, "no such slot"};
    m.transport_.update(now);  // the endpoint must know the time before it stamps the connect attempt
    auto peer = m.transport_.connect(server);
    if (!peer.ok()) return peer.error();
    m.server_ = peer.value();
    m.server_address_ = server;
    m.phase_ = ClientPhase::connecting;
    m.channel_.reset();
    m.connect_started_ = now;
    m.last_heard_ = now;
    m.first_attempt_ = now;
    m.retry_at_.reset();
    m.backoff_ = Micros{250'000};
    m.stats_.connect_attempts = 1;
    m.stats_.disconnect_code = DisconnectCode::none;
    m.slot_ = -1;
    m.forget_connection_snapshots();
    m.expected_message_ = 0;
    m.last_message_tick_ = Tick{};
    m.resume_ = ticket ? std::optional<ResumeTicket>(*ticket) : std::nullopt;
    m.sent_log_.clear();
    m.sent_count_ = 0;
    m.grace_offered_ = false;
    m.force_resync_ = false;
    m.waiting_for_credentials_ = false;
    return {};
}

std::optional<ResumeTicket> ClientCore::resume_ticket() const {
    const Impl& m = *impl_;
    if (m.resume_) return m.resume_;  // reconnecting: the claim being made
    if (m.slot_ < 0 || !m.grace_offered_ ||
        (m.phase_ != ClientPhase::syncing && m.phase_ != ClientPhase::playing))
        return std::nullopt;
    return ResumeTicket{static_cast<std::uint8_t>(m.slot_), m.secret_, true, m.expected_message_};
}

void ClientCore::set_credentials(const std::vector<std::uint8_t>& token, const auth::SessionKeys& keys) {
    Impl& m = *impl_;
    m.config_.connect_token = token;
    m.config_.session_keys = keys;
    if (m.waiting_for_credentials_) {
        m.waiting_for_credentials_ = false;
        m.retry_at_ = m.last_now_;  // try again at once
    }
}

bool ClientCore::needs_credentials() const { return impl_->waiting_for_credentials_; }

void ClientCore::disconnect(Micros) { impl_->quit(); }

Micros ClientCore::time_since_update(Micros now) const {
    return impl_->has_now_ ? now - impl_->last_now_ : Micros{0};
}

Micros ClientCore::server_silence(Micros now) const {
    const Impl& m = *impl_;
    if (m.phase_ == ClientPhase::reconnecting) return std::max(Micros{0}, now - m.last_heard_);
    if (m.phase_ != ClientPhase::syncing && m.phase_ != ClientPhase::playing) return Micros{0};
    return std::max(Micros{0}, now - m.last_heard_);
}

bool ClientCore::connection_interrupted(Micros now) const {
    return server_silence(now) > impl_->config_.interruption_notice;
}

void ClientCore::update(Micros now) { impl_->update(now); }

Status ClientCore::send_chat(const std::string& text) {
    if (text.size() > kMaxChatBytes) return Error{Errc::length_too_long, "chat text too long"};
    std::vector<std::uint8_t> payload;
    if (Status st = encode_payload(Chat{0, text}, payload); !st.ok()) return st;
    return send_message(kChatMessageId, payload, true);
}

Status ClientCore::send_message(MessageId type, const std::vector<std::uint8_t>& payload, bool reliable) {
    Impl& m = *impl_;
    if (m.phase_ != ClientPhase::playing && m.phase_ != ClientPhase::syncing) return Errc::not_connected;
    bool sent = false;
    if (reliable) {
        ClientMessage msg{type, payload};
        sent = m.send(transport::Delivery::reliable_ordered, msg);
        if (sent) {
            // Numbered and kept: if the link goes before it arrives, the comeback resends it.
            m.sent_log_.push_back(Impl::SentMessage{m.sent_count_++, std::move(msg)});
            if (m.sent_log_.size() > kClientResendLog) m.sent_log_.pop_front();
        }
    } else {
        UnreliableMessage msg{m.tick_, type, payload, m.unreliable_sequence_++};
        sent = m.send(transport::Delivery::unreliable, msg);
    }
    return sent ? Status{} : Status{Errc::rejected};
}

bool ClientCore::poll_message(Message& out) {
    auto& inbox = impl_->inbox_;
    if (inbox.empty()) return false;
    out = std::move(inbox.front());
    inbox.pop_front();
    return true;
}

void ClientCore::note_correction(Micros now) { impl_->correction_times_.push_back(now); }

ClientPhase ClientCore::phase() const { return impl_->phase_; }
int ClientCore::slot() const { return impl_->slot_; }
Tick ClientCore::tick() const { return impl_->tick_; }
Tick ClientCore::newest_server_tick() const { return impl_->newest_snapshot_tick_; }
const ClientStats& ClientCore::stats() const { return impl_->stats_; }
ClientStats& ClientCore::adapter_stats() { return impl_->stats_; }
const sync::ClockSync& ClientCore::clock() const { return impl_->clock_; }
const ClientConfig& ClientCore::config() const { return impl_->config_; }

}  // namespace rwd::client_server::detail
