// End to end: rewind-server --metrics-port serves a Prometheus page that promtool accepts, and the real
// Prometheus server (Debian's package) scrapes it: its HTTP API then answers queries on rewind's series.
#include "e2e_common.hpp"

#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

namespace e2e {
namespace {

bool have(const char* program) {
    return std::system((std::string("command -v ") + program + " >/dev/null 2>&1").c_str()) == 0;
}

/// A TCP port that was free a moment ago on 127.0.0.1 (for Prometheus's own web port).
int free_tcp_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = ntohs(a.sin_port);
    ::close(fd);
    return port;
}

/// The value of the first series Prometheus returns for `query`, if it returns any.
std::optional<double> query(httplib::Client& prometheus, const std::string& q, std::string& said) {
    const auto res = prometheus.Get("/api/v1/query", httplib::Params{{"query", q}}, httplib::Headers{});
    if (!res || res->status != 200) return std::nullopt;
    said = res->body;
    const auto j = nlohmann::json::parse(res->body, nullptr, false);
    if (j.is_discarded() || j.value("status", "") != "success") return std::nullopt;
    const auto& result = j["data"]["result"];
    if (!result.is_array() || result.empty()) return std::nullopt;
    return std::stod(result[0]["value"][1].get<std::string>());
}

TEST(E2E, PrometheusScrapesTheServersMetrics) {
    const std::string dir = test_dir("metrics");
    auto server = start_server(
        dir, {"--bots", "3", "--status-interval", "0", "--metrics-port", "0", "--metrics-host", "127.0.0.1"});
    ASSERT_GT(server.port, 0);
    const auto line = server.proc->wait_for_line("event=metrics_listening", 10s);
    ASSERT_TRUE(line) << server.proc->log();
    const int metrics_port = static_cast<int>(kv_int(*line, "port").value_or(0));
    ASSERT_GT(metrics_port, 0) << *line;
    ASSERT_TRUE(server.proc->wait_for_line("slot 2", 15s)) << server.proc->log();

    // The page itself: served with the exposition format's content type, and lint-clean. The third bot's seat
    // may be logged a moment before the bot itself knows it: ask until the page counts three.
    httplib::Client page_client("127.0.0.1", metrics_port);
    auto page = page_client.Get("/metrics");
    for (int i = 0;
         i < 50 && page && page->body.find("rewind_players{kind=\"bot\"} 3\n") == std::string::npos; ++i) {
        std::this_thread::sleep_for(100ms);
        page = page_client.Get("/metrics");
    }
    ASSERT_TRUE(page) << "no answer from /metrics";
    EXPECT_EQ(page->status, 200);
    EXPECT_EQ(page->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
    EXPECT_NE(page->body.find("rewind_players{kind=\"bot\"} 3\n"), std::string::npos) << page->body;
    EXPECT_NE(page->body.find("# TYPE rewind_tick_duration_seconds histogram\n"), std::string::npos);
    const auto missing = page_client.Get("/nothing");
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->status, 404);
    if (have("promtool")) {
        const std::string file = dir + "/page.txt";
        std::ofstream(file) << page->body;
        EXPECT_EQ(
            std::system(("promtool check metrics < " + file + " > " + dir + "/promtool.log 2>&1").c_str()), 0)
            << "promtool check metrics found problems: see " << dir << "/promtool.log";
    }

    if (!have("prometheus"))
        GTEST_SKIP() << "the prometheus package is not installed (scripts/setup.sh installs it)";
    const int web_port = free_tcp_port();
    ASSERT_GT(web_port, 0);
    const std::string config = dir + "/prometheus.yml";
    std::ofstream(config) << "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                          << "scrape_configs:\n  - job_name: rewind\n    static_configs:\n"
                          << "      - targets: ['127.0.0.1:" << metrics_port << "']\n";
    std::filesystem::remove_all(dir + "/tsdb");
    Process prometheus({"prometheus", "--config.file=" + config, "--storage.tsdb.path=" + dir + "/tsdb",
                        "--web.listen-address=127.0.0.1:" + std::to_string(web_port)},
                       dir + "/prometheus.log");
    httplib::Client api("127.0.0.1", web_port);
    api.set_connection_timeout(1, 0);
    // Two scrapes of a live server: ticks went on between them.
    std::string said;
    std::optional<double> ticks_rate;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (!ticks_rate && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(500ms);
        ticks_rate = query(api, "irate(rewind_ticks_total{job=\"rewind\"}[10s])", said);
    }
    ASSERT_TRUE(ticks_rate) << "Prometheus never had two scrapes of rewind_ticks_total; its last answer: "
                            << said << "\nits log:\n"
                            << prometheus.log();
    std::printf("[ measured ] Prometheus: rewind_ticks_total rises at %.1f ticks/s\n", *ticks_rate);
    // The tick rate between the last two scrapes; a loaded machine may stall a scrape or the loop a little.
    EXPECT_NEAR(*ticks_rate, 60.0, 30.0);
    EXPECT_EQ(query(api, "max_over_time(up{job=\"rewind\"}[10s])", said), 1.0) << said;
    EXPECT_EQ(query(api, "rewind_players{kind=\"bot\"}", said), 3.0) << said;
    EXPECT_EQ(query(api, "rewind_clients_seated", said), 3.0) << said;
    const auto challenges = query(api, "rewind_transport_challenges_answered_total", said);
    ASSERT_TRUE(challenges) << said;
    EXPECT_GE(*challenges, 3.0);
    const auto p99 =
        query(api, "histogram_quantile(0.99, rate(rewind_tick_duration_seconds_bucket[10s]))", said);
    ASSERT_TRUE(p99) << said;
    EXPECT_GT(*p99, 0.0);  // a figure, not a speed test: the machine may be busy
    std::printf("[ measured ] Prometheus: p99 tick time %.3f ms\n", *p99 * 1000.0);

    // Every query of the Grafana dashboard in deploy/ is valid PromQL and finds rewind's series.
    std::ifstream dashboard_file(std::string(E2E_SOURCE_DIR) + "/deploy/grafana/rewind-server.json");
    const auto dashboard = nlohmann::json::parse(dashboard_file, nullptr, false);
    ASSERT_FALSE(dashboard.is_discarded()) << "deploy/grafana/rewind-server.json is not JSON";
    int queries = 0;
    for (const auto& panel : dashboard["panels"])
        for (const auto& target : panel["targets"]) {
            std::string expr = target["expr"].get<std::string>();
            for (std::size_t at; (at = expr.find("$instance")) != std::string::npos;)
                expr.replace(at, 9, ".*");
            EXPECT_TRUE(query(api, expr, said)) << panel["title"] << ": " << expr << " -> " << said;
            ++queries;
        }
    EXPECT_GE(queries, 10);

    prometheus.signal(SIGTERM);
    EXPECT_TRUE(prometheus.wait(20s));
    server.proc->signal(SIGTERM);
    const auto code = server.proc->wait(10s);
    ASSERT_TRUE(code);
    EXPECT_EQ(*code, 0) << server.proc->log();
}

}  // namespace
}  // namespace e2e
