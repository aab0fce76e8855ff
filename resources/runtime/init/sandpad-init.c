/* sandpad-init: PID 1 of a local Sandpad sandbox (started by bwrap --as-pid-1).
 *
 *   sandpad-init [--status-fd N] [--lifeline-fd N [--wait]] [--close-from N]
 *                [--rlimit NAME=SOFT[:HARD]]... -- PROGRAM [ARG]...
 *
 * Why our own init instead of bwrap's: bwrap's PID 1 keeps the environment bwrap was started with
 * and is dumpable with the snippet's uid, so a snippet could read /proc/1/environ and rewrite
 * /proc/1/mem (e.g. clear the parent-death signal that ties the sandbox to the app). This init
 * makes itself non-dumpable before anything of the user exists, holds no descriptor but its
 * status pipe, installs no signal handler (PID 1 of a namespace receives no signal from inside
 * that it does not handle), and ends - taking the whole PID namespace with it - as soon as the
 * program it started ends.
 *
 * It also sets the program's resource limits (instead of an extra prlimit exec) and reports to the
 * host on the status descriptor, which the program cannot write to:
 *   "exec PID\n"             the program was executed (the sandbox is set up)
 *   "error MESSAGE\n"        it could not be (bad option, exec failure); exit status 127
 *   "exit CODE\n" / "signal N\n"   how the program ended; init then exits with CODE or 128+N
 * The lifeline is a pipe whose only writer is the app: when it ends (EOF - the app exited or
 * crashed, or the host is done with the sandbox) init exits and the kernel kills the namespace.
 * This holds where a parent-death signal cannot: bwrap would arm one only just before it executes
 * init (too late if the app died a moment earlier), and one on bwrap itself would kill it midway
 * through its set-up, leaving its half-made child waiting forever. With --wait, the program starts only
 * once a byte arrives there: the host finishes setting the sandbox up from outside (its network)
 * before any user code runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

enum { kMaxLimits = 16 };

struct limit {
    int resource;
    struct rlimit value;
};

static int g_status_fd = -1;

static void report(const char *format, ...) __attribute__((format(printf, 1, 2)));

static void report(const char *format, ...)
{
    if (g_status_fd < 0)
        return;
    char line[256];
    va_list args;
    va_start(args, format);
    int n = vsnprintf(line, sizeof line, format, args);
    va_end(args);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line)
        n = sizeof line - 1;
    const char *p = line;
    while (n > 0) {
        ssize_t w = write(g_status_fd, p, (size_t)n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (int)w;
    }
}

static void fail(const char *what)
{
    report("error %s\n", what);
    _exit(127);
}

static int parse_fd(const char *text)
{
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno || !end || *end || value < 0 || value > 1 << 20)
        return -1;
    return (int)value;
}

static int parse_value(const char *text, rlim_t *out)
{
    if (strcmp(text, "unlimited") == 0) {
        *out = RLIM_INFINITY;
        return 0;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno || !end || *end || text[0] == '-' || text[0] == '\0')
        return -1;
    *out = (rlim_t)value;
    return 0;
}

/* NAME=SOFT[:HARD] */
static int parse_limit(const char *text, struct limit *out)
{
    static const struct {
        const char *name;
        int resource;
    } names[] = {
        {"nproc", RLIMIT_NPROC}, {"fsize", RLIMIT_FSIZE}, {"nofile", RLIMIT_NOFILE},
        {"core", RLIMIT_CORE},   {"cpu", RLIMIT_CPU},     {"as", RLIMIT_AS},
        {"data", RLIMIT_DATA},   {"stack", RLIMIT_STACK}, {"memlock", RLIMIT_MEMLOCK},
        {"msgqueue", RLIMIT_MSGQUEUE}, {"sigpending", RLIMIT_SIGPENDING},
    };
    const char *eq = strchr(text, '=');
    if (!eq)
        return -1;
    const size_t len = (size_t)(eq - text);
    int resource = -1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        if (strlen(names[i].name) == len && strncmp(names[i].name, text, len) == 0)
            resource = names[i].resource;
    if (resource < 0)
        return -1;
    char soft[64];
    const char *colon = strchr(eq + 1, ':');
    const size_t softLen = colon ? (size_t)(colon - eq - 1) : strlen(eq + 1);
    if (softLen == 0 || softLen >= sizeof soft)
        return -1;
    memcpy(soft, eq + 1, softLen);
    soft[softLen] = '\0';
    out->resource = resource;
    if (parse_value(soft, &out->value.rlim_cur) != 0)
        return -1;
    if (colon) {
        if (parse_value(colon + 1, &out->value.rlim_max) != 0)
            return -1;
    } else {
        out->value.rlim_max = out->value.rlim_cur;
    }
    return out->value.rlim_cur <= out->value.rlim_max ? 0 : -1;
}

int main(int argc, char **argv)
{
    /* First: nothing of the user runs yet, and from now on no process of the sandbox may read or
     * write this one's memory, environment or descriptors (same uid, but not dumpable). */
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        fail("cannot make PID 1 non-dumpable");

    struct limit limits[kMaxLimits];
    int nlimits = 0;
    int lifeline = -1;
    int wait_go = 0;
    int i = 1;
    for (; i < argc; ++i) {
        if (strcmp(argv[i], "--") == 0) {
            ++i;
            break;
        }
        if (strcmp(argv[i], "--status-fd") == 0 && i + 1 < argc) {
            g_status_fd = parse_fd(argv[++i]);
            if (g_status_fd < 0 || fcntl(g_status_fd, F_SETFD, FD_CLOEXEC) != 0)
                _exit(127);
        } else if (strcmp(argv[i], "--lifeline-fd") == 0 && i + 1 < argc) {
            lifeline = parse_fd(argv[++i]);
            if (lifeline < 0 || fcntl(lifeline, F_SETFD, FD_CLOEXEC) != 0)
                fail("bad --lifeline-fd");
        } else if (strcmp(argv[i], "--close-from") == 0 && i + 1 < argc) {
            /* Descriptors meant for bwrap, not for the program (e.g. the host's info reader). */
            const int first = parse_fd(argv[++i]);
            if (first < 3)
                fail("bad --close-from");
            for (int fd = first; fd < 1024; ++fd)
                if (fd != g_status_fd && fd != lifeline)
                    close(fd);
        } else if (strcmp(argv[i], "--wait") == 0) {
            wait_go = 1;
        } else if (strcmp(argv[i], "--rlimit") == 0 && i + 1 < argc) {
            if (nlimits == kMaxLimits || parse_limit(argv[++i], &limits[nlimits]) != 0)
                fail("bad --rlimit");
            ++nlimits;
        } else {
            fail("unknown option");
        }
    }
    if (i >= argc)
        fail("no program given");
    char **program = argv + i;

    if (wait_go) {
        if (lifeline < 0)
            fail("--wait needs --lifeline-fd");
        char byte;
        ssize_t got;
        while ((got = read(lifeline, &byte, 1)) < 0 && errno == EINTR) {
        }
        if (got != 1)
            _exit(127); /* the app is gone: never start the program */
    }

    /* SIGCHLD through a signalfd, so that one poll() watches the children and the lifeline. */
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, NULL);
    const int sigfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sigfd < 0)
        fail("signalfd failed");

    if (lifeline >= 0) { /* the app died while bwrap set us up: start nothing */
        struct pollfd p = {lifeline, POLLIN, 0};
        if (poll(&p, 1, 0) == 1 && (p.revents & POLLHUP) && !(p.revents & POLLIN))
            _exit(137);
    }

    int exec_pipe[2];
    if (pipe2(exec_pipe, O_CLOEXEC) != 0)
        fail("pipe2 failed");

    const pid_t child = fork();
    if (child < 0)
        fail("fork failed");
    if (child == 0) {
        /* The program: its own limits, default signal handling, then exec. */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        for (int k = 0; k < nlimits; ++k) {
            if (setrlimit(limits[k].resource, &limits[k].value) != 0) {
                const int err = errno;
                (void)!write(exec_pipe[1], &err, sizeof err);
                _exit(127);
            }
        }
        execvp(program[0], program);
        const int err = errno;
        (void)!write(exec_pipe[1], &err, sizeof err);
        _exit(127);
    }

    /* PID 1 keeps only its status pipe: the program's stdio, result channel and job socket are
     * the program's alone (and their ends close when it does). */
    close(exec_pipe[1]);
    int err = 0;
    ssize_t got;
    while ((got = read(exec_pipe[0], &err, sizeof err)) < 0 && errno == EINTR) {
    }
    close(exec_pipe[0]);
    /* Keep the status pipe, the lifeline and the signalfd; close everything else. */
    for (int fd = 0; fd < 1024; ++fd) {
        if (fd != g_status_fd && fd != lifeline && fd != sigfd)
            close(fd);
    }
    if (got > 0) {
        report("error cannot start %s: %s\n", program[0], strerror(err));
        int status;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        _exit(127);
    }
#ifdef SANDPAD_INIT_TEST_REPORT_DELAY_US
    /* A test build only: a PID 1 that is scheduled late, after its program has finished. */
    usleep(SANDPAD_INIT_TEST_REPORT_DELAY_US);
#endif
    report("exec %d\n", (int)child);

    for (;;) {
        struct pollfd p[2] = {{sigfd, POLLIN, 0}, {lifeline, POLLIN, 0}};
        if (poll(p, lifeline >= 0 ? 2 : 1, -1) < 0) {
            if (errno == EINTR)
                continue;
            report("error poll: %s\n", strerror(errno));
            _exit(127);
        }
        if (lifeline >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
            char byte;
            if (read(lifeline, &byte, 1) <= 0) { /* EOF: the app is gone or done with us */
                report("error the host ended the sandbox\n");
                _exit(137);
            }
        }
        struct signalfd_siginfo info;
        while (read(sigfd, &info, sizeof info) > 0) {
        }
        for (;;) {
            int status = 0;
            const pid_t pid = waitpid(-1, &status, WNOHANG);
            if (pid == 0)
                break;
            if (pid < 0) {
                if (errno == EINTR)
                    continue;
                report("error waitpid: %s\n", strerror(errno));
                _exit(127);
            }
            if (pid != child)
                continue; /* an orphan of the sandbox, reaped */
            if (WIFEXITED(status)) {
                report("exit %d\n", WEXITSTATUS(status));
                _exit(WEXITSTATUS(status));
            }
            if (WIFSIGNALED(status)) {
                report("signal %d\n", WTERMSIG(status));
                _exit(128 + WTERMSIG(status));
            }
        }
    }
}
