// MetricsEndpoint: rewind-server's HTTP port (cpp-httplib): /metrics, whose page the server's own loop writes
// when a scrape asks (no figure is read from another thread), and the browser client's files (--web-root).
#pragma once

#include <rewind/core/result.hpp>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace httplib {
class Server;
}

namespace apps {

class MetricsEndpoint {
public:
    /// Listens on host:port (0 = a port the OS picks) or io_error with the reason. A non-empty `web_root`
    /// is served as static files (invalid_config when it is not a directory), with /web-config.json
    /// naming `ws_port` (the WebSocket port the page connects to; 0: none).
    [[nodiscard]] static rwd::Result<std::unique_ptr<MetricsEndpoint>> create(
        const std::string& host, std::uint16_t port, const std::string& web_root = {},
        std::uint16_t ws_port = 0);
    ~MetricsEndpoint();
    MetricsEndpoint(const MetricsEndpoint&) = delete;
    MetricsEndpoint& operator=(const MetricsEndpoint&) = delete;

    /// The port bound.
    [[nodiscard]] std::uint16_t port() const { return port_; }
    /// Called by the server loop every iteration: when a scrape waits, `write` builds the page (on this
    /// thread) and the scrape gets it.
    void serve(const std::function<std::string()>& write);
    /// Scrapes answered, and those that got 503 because the loop did not answer in time.
    [[nodiscard]] std::uint64_t scrapes() const;
    [[nodiscard]] std::uint64_t timeouts() const;

    /// How long a scrape waits for the loop before it is told 503 Service Unavailable.
    static constexpr std::chrono::milliseconds kLoopWait{2000};

private:
    MetricsEndpoint();
    std::string scrape();  // on the HTTP thread

    std::unique_ptr<httplib::Server> http_;
    std::thread thread_;
    std::uint16_t port_ = 0;
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    std::uint64_t wanted_ = 0;   // scrapes asked for
    std::uint64_t written_ = 0;  // pages the loop wrote (the newest answers every scrape asked before it)
    std::string page_;
    std::uint64_t scrapes_ = 0;
    std::uint64_t timeouts_ = 0;
};

}  // namespace apps
