/// Server<G> member definitions: replaying the ticks since a late input arrived (via server.hpp).
#pragma once

#include <algorithm>
#include <optional>

namespace rwd::client_server {

template <class G>
void Server<G>::replay_late_inputs() {
    if (replay_.capacity() == 0) return;
    std::optional<Tick> from;
    bool copied = false;
    applied_.clear();
    for (int slot = 0; slot < core_.max_clients(); ++slot) {
        if (!core_.seated(slot)) continue;
        const auto i = static_cast<std::size_t>(slot);
        for (const auto& late : core_.late_inputs(slot)) {
            const TickRecord* held = (copied ? work_ : replay_).find(late.tick);
            if (!held || !held->repeated[i]) continue;  // older than the window, or not played as a repeat
            Input raw{};
            (void)decode_input(late.input, raw);  // validated when it arrived
            std::uint32_t violations = 0;
            const Input in = hooks::sanitize<G>(raw, violations);
            core_.add_violations(slot, violations);
            // The repeat was right (a shot is never repeated, so one that fires is not): nothing to redo.
            if (!lag_.fires(in) && same_state(in, held->inputs[i])) continue;
            if (!core_.take_replay_token(slot)) continue;
            if (!copied) work_ = replay_, copied = true;
            TickRecord* r = work_.find(late.tick);
            r->inputs[i] = in;
            r->repeated[i] = false;
            r->replaced[i] = true;
            // The ticks after it that repeated an input now repeat this one, as they would have.
            for (Tick t = late.tick + 1; t < core_.tick(); ++t) {
                TickRecord* q = work_.find(t);
                if (!q || !q->repeated[i]) break;
                q->inputs[i] = in;
            }
            applied_.push_back(Applied{slot, late.tick, late.input});
            if (!from || late.tick < *from) from = late.tick;
        }
    }
    if (from && replay_from(*from))
        for (const Applied& a : applied_) core_.late_input_replayed(a.slot, a.tick, a.bits);
}

template <class G>
bool Server<G>::replay_from(Tick from) {
    State s = work_.find(from)->before;
    pending_verdicts_.clear();
    extra_.clear();
    bool kept = true;
    int ran = 0;
    for (Tick t = from; t < core_.tick(); ++t) {
        TickRecord* r = work_.find(t);
        if (!r) {  // cannot happen (the ring holds every tick since `from`): never commit a partial replay
            kept = false;
            break;
        }
        r->before = s;
        lag_.begin_tick();
        for (int slot = 0; slot < core_.max_clients(); ++slot) {
            const auto i = static_cast<std::size_t>(slot);
            if (r->replaced[i] && lag_.fires(r->inputs[i])) {
                r->shot[i] = true;
                r->views[i] = judge_shot(slot, r->inputs[i], t, false);
                // As a live shot: never a view of the tick itself or later (the history holds newer ticks).
                if (!(r->views[i].from < t)) r->views[i] = ViewTime{t - 1, 0};
            }
            r->replaced[i] = false;
            if (r->shot[i]) aim(slot, r->views[i]);
        }
        lag_.step(s, std::span<const Input>(r->inputs));
        lag_.record(t, s);  // later shots of the replay look back at the replayed past
        ++ran;
        if constexpr (EmitsMessages<G>) {
            outbox_.clear();
            G::collect_messages(r->before, s, outbox_);
            std::vector<OutMessage> found;
            if (!messages_kept(r->messages, outbox_.items(), found)) {
                kept = false;  // a message the clients hold would not have been sent: the past stands
                break;
            }
            for (OutMessage& m : found) extra_.push_back(std::pair<Tick, OutMessage>{t, std::move(m)});
            r->messages = outbox_.items();
        }
    }
    core_.count_replay(ran, kept);
    // The world after tick t as the ring (the committed past, or the replayed one after the swap) holds it.
    const auto after_of = [this](Tick t) -> const State& {
        const TickRecord* next = replay_.find(t + 1);
        return next ? next->before : state_;
    };
    // Put back the hitboxes as the clients were shown them: later shots are judged where their shooters saw
    // the targets, not where the replay moved them.
    for (Tick t = from; t < core_.tick(); ++t) lag_.record(t, after_of(t));
    if (!kept) return false;
    std::swap(replay_, work_);
    state_ = s;
    after_ = s;
    for (const auto& [slot, verdict] : pending_verdicts_) core_.count_shot(slot, verdict);
    for (const auto& [t, m] : extra_) send_out(m, t);
    if (observer_)
        for (Tick t = from; t < core_.tick(); ++t)
            observer_(observer_user_, t, replay_.find(t)->before, after_of(t), true);
    if (recorder_)
        for (Tick t = from; t < core_.tick(); ++t) recorder_->on_tick(t, after_of(t), true);
    return true;
}

}  // namespace rwd::client_server
