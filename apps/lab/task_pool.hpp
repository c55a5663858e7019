// Runs independent tasks (the lab's passes) on a few threads; each task writes only its own result.
#pragma once

#include <functional>
#include <vector>

namespace lab {

/// Threads a run uses for `jobs` (0: one per core) and `tasks` tasks: at least 1, at most `tasks`.
[[nodiscard]] int task_threads(int jobs, int tasks);

/// Runs every task once, on up to task_threads(jobs, tasks.size()) threads, taking them in order: put the
/// longest first. Returns when all are done. A task's exception is rethrown here (the first in task order)
/// after the others finish. With one thread the tasks run here, one after another.
void run_tasks(const std::vector<std::function<void()>>& tasks, int jobs);

}  // namespace lab
