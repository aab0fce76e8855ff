// Samples a sandbox given its PID 1's host pid, for test_sandbox_memory's unprivileged case (it
// runs this as another uid): prints one line of key=value pairs, then describe().
#include "core/providers/local/SandboxMemory.h"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: sandbox_memory_probe PID1\n");
        return 2;
    }
    sandpad::localsandbox::SandboxMemory memory(pid_t(std::atoi(argv[1])));
    const auto s = memory.sample(0);
    std::printf("valid=%d total=%lld anon=%lld shmem=%lld tmpfs=%lld sockq=%lld processes=%d unreadable=%d "
                "approximate=%d\n%s\n",
                s.valid() ? 1 : 0, static_cast<long long>(s.totalBytes), static_cast<long long>(s.anonBytes),
                static_cast<long long>(s.shmemBytes), static_cast<long long>(s.tmpfsBytes),
                static_cast<long long>(s.socketQueuedBytes), s.processes, s.unreadable, s.shmemApproximate ? 1 : 0,
                qPrintable(s.describe()));
    return s.valid() ? 0 : 1;
}
