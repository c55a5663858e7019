// AgonesSdk: rewind-server's side of the Agones SDK's local HTTP API (the sidecar on localhost): Ready,
// Health, Shutdown and player tracking, sent from a worker thread so the server loop never waits on HTTP.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace httplib {
class Client;
}

namespace apps {

class AgonesSdk {
public:
    /// A client of the sidecar at 127.0.0.1:`port` (Agones sets AGONES_SDK_HTTP_PORT; 9358 by default).
    explicit AgonesSdk(std::uint16_t port);
    ~AgonesSdk();  // finish()
    AgonesSdk(const AgonesSdk&) = delete;
    AgonesSdk& operator=(const AgonesSdk&) = delete;

    /// The port from AGONES_SDK_HTTP_PORT, or 9358 when it is unset or not a port.
    [[nodiscard]] static std::uint16_t port_from_environment();

    /// Sends what is queued, then stops the worker (later requests are dropped).
    void finish();

    void ready();                                   ///< POST /ready: the server listens and takes players
    void health();                                  ///< POST /health: still alive (every few seconds)
    void shutdown();                                ///< POST /shutdown: the match is over
    void player_connect(const std::string& id);     ///< POST /alpha/player/connect
    void player_disconnect(const std::string& id);  ///< POST /alpha/player/disconnect

    /// Whether the sidecar answered a Ready with 2xx (until then the server resends it with each Health).
    [[nodiscard]] bool ready_acknowledged() const;
    /// Requests the sidecar answered with 2xx, and those that failed (no sidecar, refused, an error status).
    [[nodiscard]] std::uint64_t sent() const;
    [[nodiscard]] std::uint64_t failed() const;
    /// The first failure, in words ("" while none failed).
    [[nodiscard]] std::string first_failure() const;

private:
    struct Request {
        std::string path;
        std::string body;
    };
    void post(std::string path, std::string body);
    void run();

    std::unique_ptr<httplib::Client> http_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Request> queue_;
    bool stopping_ = false;
    std::uint64_t sent_ = 0;
    std::uint64_t failed_ = 0;
    std::string first_failure_;
    bool ready_ok_ = false;
    std::thread worker_;  // last: starts after everything it uses exists
};

}  // namespace apps
