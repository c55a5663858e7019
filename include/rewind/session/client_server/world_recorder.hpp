/// WorldRecorder: a server-side recording of a client-server match at full rate (every entity of every tick,
/// every message sent), written as a world recording file (docs/REPLAY.md).
#pragma once

#include <rewind/core/recording_file.hpp>
#include <rewind/core/result.hpp>
#include <rewind/session/client_server/server_recorder.hpp>
#include <rewind/session/client_server/world_recording.hpp>
#include <rewind/session/game.hpp>
#include <rewind/session/game_contract.hpp>
#include <rewind/wire/stream.hpp>

#include <array>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace rwd::client_server {

/// Give it to Server<G>::set_recorder. A tick is written once no late-input replay can change it any more
/// (`replay_window` ticks after it: ServerConfig::late_input_replay_ticks, or more); bytes() and save() write
/// the rest.
template <class G>
class WorldRecorder final : public ServerRecorder<G> {
public:
    using State = typename G::State;
    using EntityRecord = typename G::EntityRecord;

    /// A recorder with a keyframe (the whole world) every `keyframe_ticks` ticks; invalid_argument when the
    /// header does not validate, keyframe_ticks < 1 or replay_window < 0.
    [[nodiscard]] static Result<std::unique_ptr<WorldRecorder>> create(WorldRecordingHeader header,
                                                                       int keyframe_ticks,
                                                                       int replay_window) {
        if (replay_window < 0) return Error{Errc::invalid_argument, "replay_window must be >= 0"};
        auto w = WorldWriter::create(std::move(header), keyframe_ticks);
        if (!w.ok()) return w.error();
        return std::unique_ptr<WorldRecorder>(new WorldRecorder(std::move(w.value()), replay_window));
    }

    void on_tick(Tick tick, const State& after, bool replayed) override {
        Pending* p = nullptr;
        if (replayed) {
            for (Pending& q : pending_)
                if (q.tick == tick) p = &q;
            if (p == nullptr) {  // already written: the window is shorter than the server's replays
                ++late_replays_;
                return;
            }
        } else {
            pending_.emplace_back();
            p = &pending_.back();
            p->tick = tick;
        }
        capture(after, *p);
        while (pending_.size() > static_cast<std::size_t>(window_) + 1) flush_one();
    }
    void on_message(Tick tick, const OutMessage& message) override {
        if (!writer_.add_message(tick, message).ok()) ++errors_;
    }

    /// Ticks and messages recorded (written or pending).
    [[nodiscard]] std::size_t ticks() const { return writer_.ticks() + pending_.size(); }
    [[nodiscard]] std::size_t messages() const { return writer_.messages(); }
    /// Bytes recorded so far (the ticks still held back for replays not counted).
    [[nodiscard]] std::size_t size_bytes() const { return writer_.size_bytes(); }
    /// Replayed ticks that arrived after they were written (0 when the window covers the server's replays).
    [[nodiscard]] std::uint64_t late_replays() const { return late_replays_; }
    /// Ticks or messages the writer refused (an entity over 255 bytes, a message over the limit).
    [[nodiscard]] std::uint64_t errors() const { return errors_; }
    /// Writes every pending tick and returns the whole file.
    [[nodiscard]] std::vector<std::uint8_t> bytes() {
        while (!pending_.empty()) flush_one();
        return writer_.bytes();
    }
    /// bytes() to `path`.
    [[nodiscard]] Status save(const std::string& path) { return write_recording_file(path, bytes()); }

private:
    struct Pending {
        Tick tick{};
        std::vector<std::uint8_t> blob;                 // the serialized entities, back to back
        std::vector<std::array<std::uint32_t, 3>> ids;  // id, offset, size
    };

    WorldRecorder(WorldWriter writer, int window) : writer_(std::move(writer)), window_(window) {}

    void capture(const State& after, Pending& p) {
        records_.clear();
        G::capture(after, records_);
        p.blob.clear();
        p.ids.clear();
        for (EntityRecord& r : records_) {
            std::array<std::uint8_t, kMaxRecordedEntityBytes> buf{};
            wire::WriteStream s(std::span<std::uint8_t>(buf.data(), buf.size()));
            if (!serialize(s, r.snap) || !s.ok()) {
                ++errors_;
                continue;
            }
            s.flush();
            const auto n = static_cast<std::uint32_t>(s.bytes_used());
            p.ids.push_back({r.id, static_cast<std::uint32_t>(p.blob.size()), n});
            p.blob.insert(p.blob.end(), buf.begin(), buf.begin() + n);
        }
    }
    void flush_one() {
        const Pending& p = pending_.front();
        world_.clear();
        for (const auto& [id, offset, size] : p.ids)
            world_.push_back(
                WorldEntityBytes{id, std::span<const std::uint8_t>(p.blob).subspan(offset, size)});
        if (!writer_.add_tick(p.tick, world_).ok()) ++errors_;
        pending_.pop_front();
    }

    WorldWriter writer_;
    int window_;
    std::deque<Pending> pending_;
    std::vector<EntityRecord> records_;    // scratch
    std::vector<WorldEntityBytes> world_;  // scratch
    std::uint64_t late_replays_ = 0;
    std::uint64_t errors_ = 0;
};

}  // namespace rwd::client_server
