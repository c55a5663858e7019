// MetricsEndpoint: binding, the scrape handshake with the server loop, and an orderly stop.
#include "server/metrics_endpoint.hpp"

#include <httplib.h>

#include <chrono>
#include <filesystem>
#include <thread>

namespace apps {

MetricsEndpoint::MetricsEndpoint() : http_(std::make_unique<httplib::Server>()) {}

rwd::Result<std::unique_ptr<MetricsEndpoint>> MetricsEndpoint::create(const std::string& host,
                                                                      std::uint16_t port,
                                                                      const std::string& web_root,
                                                                      std::uint16_t ws_port) {
    std::unique_ptr<MetricsEndpoint> e(new MetricsEndpoint());
    httplib::Server& http = *e->http_;
    // One scrape at a time is plenty: Prometheus scrapes every few seconds. A web root's files (the browser
    // client's wasm is megabytes) get three more workers, so a slow download does not hold a scrape back.
    const std::size_t workers = web_root.empty() ? 1 : 4;
    http.new_task_queue = [workers] { return new httplib::ThreadPool(workers); };
    // No keep-alive and a short read timeout: an idle connection must neither hold the one worker nor delay
    // the shutdown.
    http.set_keep_alive_max_count(1);
    http.set_read_timeout(2, 0);
    MetricsEndpoint* self = e.get();
    http.Get("/metrics", [self](const httplib::Request&, httplib::Response& res) {
        std::string page = self->scrape();
        if (page.empty()) {
            res.status = 503;
            res.set_content("the server loop did not answer in time\n", "text/plain");
            return;
        }
        res.set_content(std::move(page), "text/plain; version=0.0.4; charset=utf-8");
    });
    http.Get("/", [](const httplib::Request&, httplib::Response& res) {
        res.set_content("rewind-server: metrics at /metrics\n", "text/plain");
    });
    if (!web_root.empty()) {
        // Files first (httplib looks at mount points before handlers): / is the page's index.html. A file
        // that would stand in for /metrics or /web-config.json is refused.
        for (const char* shadow : {"/metrics", "/web-config.json"})
            if (std::filesystem::exists(web_root + shadow))
                return rwd::Error{rwd::Errc::invalid_config, "--web-root holds " + std::string(shadow + 1) +
                                                                 ", which would hide the server's own"};
        if (!http.set_mount_point("/", web_root))
            return rwd::Error{rwd::Errc::invalid_config, "--web-root is not a directory: " + web_root};
        const std::string config = "{\"ws_port\": " + std::to_string(ws_port) + "}\n";
        http.Get("/web-config.json", [config](const httplib::Request&, httplib::Response& res) {
            res.set_content(config, "application/json");
        });
    }
    const int bound = port == 0 ? http.bind_to_any_port(host) : (http.bind_to_port(host, port) ? port : -1);
    if (bound <= 0)
        return rwd::Error{rwd::Errc::io_error,
                          "cannot listen for metrics on " + host + ":" + std::to_string(port)};
    e->port_ = static_cast<std::uint16_t>(bound);
    e->thread_ = std::thread([self] { self->http_->listen_after_bind(); });
    // stop() does nothing until the listening thread runs: wait for it, so a quick destruction cannot hang.
    for (int i = 0; i < 2000 && !http.is_running(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (!http.is_running()) {
        // Never seen; but stop() could not reach that thread, so neither join it nor free what it uses.
        e->thread_.detach();
        (void)e.release();
        return rwd::Error{rwd::Errc::io_error, "the metrics listener did not start"};
    }
    return e;
}

MetricsEndpoint::~MetricsEndpoint() {
    http_->stop();
    {
        std::lock_guard lock(mutex_);
        written_ = wanted_;  // a scrape still waiting gets the last page rather than waiting out kLoopWait
    }
    ready_.notify_all();
    if (thread_.joinable()) thread_.join();
}

std::string MetricsEndpoint::scrape() {
    std::unique_lock lock(mutex_);
    const std::uint64_t ticket = ++wanted_;
    if (!ready_.wait_for(lock, kLoopWait, [&] { return written_ >= ticket; })) {
        ++timeouts_;
        return {};
    }
    ++scrapes_;
    return page_;
}

void MetricsEndpoint::serve(const std::function<std::string()>& write) {
    std::uint64_t wanted = 0;
    {
        std::lock_guard lock(mutex_);
        if (wanted_ == written_) return;
        wanted = wanted_;
    }
    std::string page = write();  // outside the lock: the HTTP thread only waits
    {
        std::lock_guard lock(mutex_);
        page_ = std::move(page);
        written_ = wanted;
    }
    ready_.notify_all();
}

std::uint64_t MetricsEndpoint::scrapes() const {
    std::lock_guard lock(mutex_);
    return scrapes_;
}

std::uint64_t MetricsEndpoint::timeouts() const {
    std::lock_guard lock(mutex_);
    return timeouts_;
}

}  // namespace apps
