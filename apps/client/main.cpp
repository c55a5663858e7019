// rewind-client: the arena client (window with overlay, or headless bot), the 2-player rollback mode and the
// replay player.
#include "client/gui.hpp"
#include "client/headless.hpp"
#include "client/options.hpp"
#include "client/replay_mode.hpp"
#include "client/rollback_mode.hpp"

int main(int argc, char** argv) {
    apps::ClientOptions options;
    bool stop = false;
    const int code = apps::parse_client_options(argc, argv, options, stop);
    if (stop) return code;
    if (!options.replay.empty()) return apps::run_replay(options);
    if (options.model == "rollback") return apps::run_rollback(options);
    if (options.headless) return apps::run_headless(options);
    return apps::run_gui(options);
}
