// End to end: every program answers a bad command line the same way: exit code 2 and one line naming the
// option (and its valid range or values), before any work is done.
#include "e2e_common.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace e2e {
namespace {

struct BadCommandLine {
    std::string program;            ///< path of the binary
    std::vector<std::string> args;  ///< what is wrong in them
    std::string names;              ///< the one line must contain this (the option, its range or its values)
};

std::vector<BadCommandLine> cases() {
    const std::vector<std::string> relay{"--listen", "0", "--server", "127.0.0.1:9"};
    auto with = [](std::vector<std::string> base, std::initializer_list<std::string> more) {
        base.insert(base.end(), more);
        return base;
    };
    return {
        {kLabBin, {"--bogus"}, "--bogus"},
        {kLabBin, {"--players", "abc"}, "--players"},
        {kLabBin, {"--players", "0"}, "--players must be 1..63"},
        {kLabBin, {"--model", "rollback", "--players", "5"}, "--players must be 2..4"},
        {kLabBin, {"--model", "nope"}, "{client-server,rollback,lockstep}"},
        {kLabBin, {"--loss", "150"}, "--loss: 150 is not in 0..100 %"},
        {kLabBin, {"--up-jitter", "-1"}, "--up-jitter: -1 is not in 0..60000 ms"},
        {kLabBin, {"--profile", "nonsense"}, "intercontinental"},
        {kLabBin, {"--max-compensated-rtt-ms", "5000"}, "--max-compensated-rtt-ms must be 0..1000"},
        {kLabBin, {"--json", "/nonexistent-dir/r.json"}, "--json /nonexistent-dir/r.json: No such file"},
        {kLabBin, {"--plot", "/proc/rewind-lab-charts"}, "--plot /proc/rewind-lab-charts:"},
        {kRelayBin, {"--bogus"}, "--listen is required"},
        {kRelayBin, with(relay, {"--loss", "150"}), "--loss: 150 is not in 0..100 %"},
        {kRelayBin, with(relay, {"--profile", "nonsense"}), "{lan,broadband,wifi,mobile,intercontinental"},
        {kRelayBin, with(relay, {"--down-burst-len", "0"}), "--down-burst-len: 0 is not in 1..1e+06 packets"},
        {kServerBin, {"--bogus"}, "--bogus"},
        {kServerBin, {"--metrics-port", "70000"}, "--metrics-port: Value 70000 not in range 0 to 65535"},
        {kClientBin, {"--bogus"}, "--bogus"},
        {kTokenBin, {"keygen", "--bogus"}, "--bogus"},
        {kNetdemoBin, {"--bogus"}, "--bogus"},
    };
}

TEST(Options, EveryBadCommandLineExitsTwoWithOneLineNamingTheOption) {
    const std::string dir = test_dir("options");
    int n = 0;
    for (const BadCommandLine& c : cases()) {
        std::vector<std::string> argv{c.program};
        argv.insert(argv.end(), c.args.begin(), c.args.end());
        std::string shown = c.program;
        for (const std::string& a : c.args) shown += " " + a;
        Process p(argv, dir + "/" + std::to_string(n++) + ".log");
        const auto code = p.wait(10s);  // before any work: a lab run would take many seconds
        ASSERT_TRUE(code.has_value()) << shown << " still runs";
        EXPECT_EQ(*code, 2) << shown << "\n" << p.log();
        const std::string log = p.log();
        EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1) << shown << " printed:\n" << log;
        EXPECT_NE(log.find(c.names), std::string::npos) << shown << " printed:\n" << log;
    }
}

TEST(Options, HelpExitsZero) {
    const std::string dir = test_dir("options_help");
    for (const std::string& bin : {kLabBin, kRelayBin, kServerBin, kClientBin, kTokenBin, kNetdemoBin}) {
        Process p({bin, "--help"}, dir + "/" + bin.substr(bin.rfind('/') + 1) + ".log");
        const auto code = p.wait(10s);
        ASSERT_TRUE(code.has_value()) << bin;
        EXPECT_EQ(*code, 0) << bin << "\n" << p.log();
        EXPECT_NE(p.log().find("--help"), std::string::npos) << bin;
    }
}

}  // namespace
}  // namespace e2e
