// Runs independent tasks (the lab's passes) on a few threads; each task writes only its own result.
#include "task_pool.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>

namespace lab {

int task_threads(int jobs, int tasks) {
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int wanted = jobs > 0 ? jobs : cores;
    return std::max(1, std::min(wanted, tasks));
}

void run_tasks(const std::vector<std::function<void()>>& tasks, int jobs) {
    const int threads = task_threads(jobs, static_cast<int>(tasks.size()));
    std::vector<std::exception_ptr> errors(tasks.size());
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i = next++; i < tasks.size(); i = next++) {
            try {
                tasks[i]();
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(work);
    work();
    pool.clear();  // joins
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace lab
