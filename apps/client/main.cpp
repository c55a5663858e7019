// rewind-client: the arena client (window with overlay, or headless bot) and the 2-player rollback mode.
#include "client/headless.hpp"
#include "client/options.hpp"

#include <cstdio>

namespace apps {
int run_gui(const ClientOptions& options);
}

int main(int argc, char** argv) {
    apps::ClientOptions options;
    bool stop = false;
    const int code = apps::parse_client_options(argc, argv, options, stop);
    if (stop) return code;
    if (options.model == "rollback") {
        std::fprintf(stderr, "rewind-client: --model rollback is not available in this build yet\n");
        return 2;
    }
    if (options.headless) return apps::run_headless(options);
    return apps::run_gui(options);
}
