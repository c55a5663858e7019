// AgonesSdk: the request queue, the worker that posts it to the sidecar, and failure accounting.
#include "server/agones_sdk.hpp"

#include <httplib.h>

#include <algorithm>
#include <cstdlib>

namespace apps {

AgonesSdk::AgonesSdk(std::uint16_t port)
    : http_(std::make_unique<httplib::Client>("127.0.0.1", port)), worker_([this] { run(); }) {
    http_->set_connection_timeout(1, 0);
    http_->set_read_timeout(2, 0);
}

AgonesSdk::~AgonesSdk() { finish(); }

void AgonesSdk::finish() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (worker_.joinable()) worker_.join();
}

std::uint16_t AgonesSdk::port_from_environment() {
    const char* text = std::getenv("AGONES_SDK_HTTP_PORT");
    if (text == nullptr) return 9358;
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    return end != text && *end == '\0' && v > 0 && v < 65536 ? static_cast<std::uint16_t>(v) : 9358;
}

void AgonesSdk::ready() { post("/ready", "{}"); }
void AgonesSdk::health() { post("/health", "{}"); }
void AgonesSdk::shutdown() { post("/shutdown", "{}"); }
void AgonesSdk::player_connect(const std::string& id) {
    post("/alpha/player/connect", "{\"playerID\":\"" + id + "\"}");
}
void AgonesSdk::player_disconnect(const std::string& id) {
    post("/alpha/player/disconnect", "{\"playerID\":\"" + id + "\"}");
}

void AgonesSdk::post(std::string path, std::string body) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) return;
        // A slow sidecar must not make Ready and Health pile up: one of each waiting is enough.
        if ((path == "/ready" || path == "/health") &&
            std::any_of(queue_.begin(), queue_.end(), [&](const Request& r) { return r.path == path; }))
            return;
        queue_.push_back(Request{std::move(path), std::move(body)});
    }
    wake_.notify_one();
}

void AgonesSdk::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, and everything queued went out
        Request r = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        const auto res = http_->Post(r.path, r.body, "application/json");
        std::string failure;
        if (!res)
            failure = r.path + ": " + httplib::to_string(res.error());
        else if (res->status < 200 || res->status >= 300)
            failure = r.path + ": HTTP " + std::to_string(res->status);
        lock.lock();
        if (failure.empty()) {
            ++sent_;
            if (r.path == "/ready") ready_ok_ = true;
        } else {
            ++failed_;
            if (first_failure_.empty()) first_failure_ = failure;
        }
    }
}

bool AgonesSdk::ready_acknowledged() const {
    std::lock_guard lock(mutex_);
    return ready_ok_;
}

std::uint64_t AgonesSdk::sent() const {
    std::lock_guard lock(mutex_);
    return sent_;
}

std::uint64_t AgonesSdk::failed() const {
    std::lock_guard lock(mutex_);
    return failed_;
}

std::string AgonesSdk::first_failure() const {
    std::lock_guard lock(mutex_);
    return first_failure_;
}

}  // namespace apps
