// placeholder
#include "client/options.hpp"
namespace apps { int run_gui(const ClientOptions&) { return 2; } }
