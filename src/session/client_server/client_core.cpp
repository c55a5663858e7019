/// ClientCore: construction, connecting and ending, chat, the event stream, and the facade over
/// ClientCore::Impl.
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
                       ClientGameAccess& game)
    : transport_(transport),
      config_(config),
      max_players_(max_players),
      game_(game),
      step_(FixedStepConfig{config.tick_rate_hz, config.max_tick_catchup}),
      clock_(clock_sync_config(config)) {
    assert(config.validate().ok());
}

void ClientCore::Impl::quit() {
    if (server_ == transport::kInvalidPeer) return;
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
    return true;
}

void ClientCore::Impl::on_event(Event&& ev) {
    if (ev.sequence != expected_event_) ++stats_.events_out_of_order;
    expected_event_ = ev.sequence + 1;
    last_event_tick_ = ev.tick;
    ++stats_.events_received;
    events_.push_back(std::move(ev));
    if (events_.size() > kMaxQueuedEvents) events_.pop_front();
}

ClientCore::ClientCore(transport::Transport& transport, const ClientConfig& config, int max_players,
                       ClientGameAccess& game)
    : impl_(new Impl(transport, config, max_players, game)) {}

ClientCore::~ClientCore() { delete impl_; }

Status ClientCore::connect(const transport::Address& server, Micros now) {
    Impl& m = *impl_;
    if (m.phase_ == ClientPhase::connecting || m.phase_ == ClientPhase::syncing ||
        m.phase_ == ClientPhase::playing)
        return Error{Errc::already_exists, "already connected"};
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
    m.has_snapshot_ = false;
    m.game_.forget_snapshots();
    m.has_seq_ = false;
    m.expected_event_ = 0;
    m.last_event_tick_ = Tick{};
    return {};
}

void ClientCore::disconnect(Micros) { impl_->quit(); }

Micros ClientCore::time_since_update(Micros now) const {
    return impl_->has_now_ ? now - impl_->last_now_ : Micros{0};
}

Micros ClientCore::server_silence(Micros now) const {
    const Impl& m = *impl_;
    if (m.phase_ != ClientPhase::syncing && m.phase_ != ClientPhase::playing) return Micros{0};
    return std::max(Micros{0}, now - m.last_heard_);
}

bool ClientCore::connection_interrupted(Micros now) const {
    return server_silence(now) > impl_->config_.interruption_notice;
}

void ClientCore::update(Micros now) { impl_->update(now); }

Status ClientCore::send_chat(const std::string& text) {
    Impl& m = *impl_;
    if (m.phase_ != ClientPhase::playing && m.phase_ != ClientPhase::syncing) return Errc::not_connected;
    if (text.size() > kMaxChatBytes) return Error{Errc::length_too_long, "chat text too long"};
    ChatRequest chat{text};
    return m.send(transport::Delivery::reliable_ordered, chat) ? Status{} : Status{Errc::rejected};
}

bool ClientCore::poll_event(Event& out) {
    auto& events = impl_->events_;
    if (events.empty()) return false;
    out = std::move(events.front());
    events.pop_front();
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
