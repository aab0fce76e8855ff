#include "providers/local/SeccompFilter.h"

#include <seccomp.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sandpad {

namespace {

struct Built {
    QByteArray bytes;
    QString error;
    int rules = 0;
};

// Calls that a snippet never needs and that widen the kernel attack surface or let it escape
// (namespaces, mounts, tracing, keyrings, BPF, io_uring which bypasses seccomp, modules).
const char* const kDenied[] = {
    "ptrace", "keyctl", "add_key", "request_key",
    "mount", "umount2", "pivot_root", "move_mount", "open_tree", "fsopen", "fsmount", "fsconfig",
    "fspick", "mount_setattr",
    "unshare", "setns", "bpf", "perf_event_open", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
    "process_vm_readv", "process_vm_writev", "acct", "swapon", "swapoff", "syslog", "quotactl",
    // Another process's descriptors, secret memory no one can see or count, the LDT (old
    // kernel bugs), file handles that bypass paths.
    "pidfd_getfd", "memfd_secret", "modify_ldt", "open_by_handle_at", "name_to_handle_at",
    // SysV shared memory and message queues hold memory that belongs to no process (the memory
    // watchdog could not count it); POSIX shm in /dev/shm (a sized tmpfs) is what Python and
    // node use.
    "shmget", "shmat", "msgget", "msgsnd",
};

// Socket families a snippet may use; every other one fails with EAFNOSUPPORT (AF_VSOCK, for one,
// is not per network namespace on every kernel; AF_ALG, AF_KEY, AF_PACKET, ... are kernel attack
// surface no snippet needs).
constexpr int kAllowedFamilies[] = {AF_UNIX, AF_INET, AF_INET6, AF_NETLINK};

// personality() flags that weaken the address space (no ASLR, executable data, page 0 mapped).
constexpr scmp_datum_t kDeniedPersonality[] = {0x0040000 /* ADDR_NO_RANDOMIZE */, 0x0400000 /* READ_IMPLIES_EXEC */,
                                               0x0100000 /* MMAP_PAGE_ZERO */, 0x0200000 /* ADDR_COMPAT_LAYOUT */,
                                               0x0800000 /* ADDR_LIMIT_32BIT */, 0x8000000 /* ADDR_LIMIT_3GB */};

Built build()
{
    Built out;
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        out.error = QStringLiteral("seccomp_init failed");
        return out;
    }
    // x32 shares the x86_64 audit arch; adding it makes the same rules cover its numbering.
    // Other foreign arches (i386 via int 0x80) hit the default bad-arch action: kill.
    if (seccomp_arch_native() == SCMP_ARCH_X86_64)
        seccomp_arch_add(ctx, SCMP_ARCH_X32);

    auto fail = [&](const QString& what, int rc) {
        out.error = QStringLiteral("%1: %2").arg(what, QString::fromLocal8Bit(strerror(-rc)));
    };

    for (const char* name : kDenied) {
        const int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR)
            continue; // unknown to this libseccomp: nothing to deny
        const int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
        if (rc < 0 && rc != -EOPNOTSUPP && rc != -EDOM) {
            fail(QStringLiteral("rule for %1").arg(QLatin1String(name)), rc);
            seccomp_release(ctx);
            return out;
        }
        ++out.rules;
    }
    // memfd_create: a memfd passed over a unix socket and closed holds memory no process shows
    // (the memory watchdog could not count it). Nothing of python3, numpy, pandas, matplotlib,
    // multiprocessing or node 20 calls it; ENOSYS lets a library fall back to a file.
    if (const int nr = seccomp_syscall_resolve_name("memfd_create"); nr != __NR_SCMP_ERROR) {
        if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0) == 0)
            ++out.rules;
    }
    // clone3 takes its flags in memory that seccomp cannot inspect: ENOSYS makes glibc fall back
    // to clone, whose flags we can check.
    if (const int nr = seccomp_syscall_resolve_name("clone3"); nr != __NR_SCMP_ERROR) {
        if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0) == 0)
            ++out.rules;
    }
    // No new namespaces through clone (x86_64/arm64: flags are argument 0).
    const scmp_datum_t nsFlags[] = {CLONE_NEWUSER, CLONE_NEWNS,  CLONE_NEWPID,   CLONE_NEWNET,
                                    CLONE_NEWIPC,  CLONE_NEWUTS, CLONE_NEWCGROUP};
    for (scmp_datum_t flag : nsFlags) {
        const int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                                        SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
        if (rc < 0) {
            fail(QStringLiteral("clone flag rule"), rc);
            seccomp_release(ctx);
            return out;
        }
        ++out.rules;
    }
    // Socket families: the kernel reads the family as a 32-bit int, so every rule looks at the low
    // 32 bits only. Values 0..63 one by one (allowed ones excepted), anything larger (or
    // negative) through its high bits.
    for (const int call : {SCMP_SYS(socket), SCMP_SYS(socketpair)}) {
        for (scmp_datum_t family = 0; family < 64; ++family) {
            bool allowed = false;
            for (int ok : kAllowedFamilies)
                allowed = allowed || scmp_datum_t(ok) == family;
            if (allowed)
                continue;
            const int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), call, 1,
                                            SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffULL, family));
            if (rc < 0) {
                fail(QStringLiteral("socket family rule"), rc);
                seccomp_release(ctx);
                return out;
            }
            ++out.rules;
        }
        for (int bit = 6; bit < 32; ++bit) {
            const scmp_datum_t mask = scmp_datum_t(1) << bit;
            const int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), call, 1,
                                            SCMP_A0(SCMP_CMP_MASKED_EQ, mask, mask));
            if (rc < 0) {
                fail(QStringLiteral("socket family rule"), rc);
                seccomp_release(ctx);
                return out;
            }
            ++out.rules;
        }
    }
    for (scmp_datum_t flag : kDeniedPersonality) {
        const int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 1,
                                        SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
        if (rc < 0) {
            fail(QStringLiteral("personality rule"), rc);
            seccomp_release(ctx);
            return out;
        }
        ++out.rules;
    }
    // TIOCSTI / TIOCLINUX: the kernel compares the command as 32 bits, so the rule must too, or
    // 0x100005412 slips past an equality test.
    const scmp_datum_t ioctls[] = {TIOCSTI, TIOCLINUX};
    for (scmp_datum_t req : ioctls) {
        const int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                                        SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffULL, req));
        if (rc < 0) {
            fail(QStringLiteral("ioctl rule"), rc);
            seccomp_release(ctx);
            return out;
        }
        ++out.rules;
    }

    const int fd = memfd_create("sandpad-seccomp", MFD_CLOEXEC);
    if (fd < 0) {
        out.error = QStringLiteral("memfd_create failed");
        seccomp_release(ctx);
        return out;
    }
    const int rc = seccomp_export_bpf(ctx, fd);
    seccomp_release(ctx);
    if (rc < 0) {
        fail(QStringLiteral("seccomp_export_bpf"), rc);
        ::close(fd);
        return out;
    }
    const off_t size = lseek(fd, 0, SEEK_END);
    if (size > 0) {
        out.bytes.resize(size);
        if (pread(fd, out.bytes.data(), size, 0) != size) {
            out.bytes.clear();
            out.error = QStringLiteral("could not read the exported filter back");
        }
    } else {
        out.error = QStringLiteral("empty filter");
    }
    ::close(fd);
    return out;
}

const Built& cached()
{
    static std::once_flag once;
    static Built built;
    std::call_once(once, [] { built = build(); });
    return built;
}

} // namespace

QByteArray SeccompFilter::bpf() { return cached().bytes; }
QString SeccompFilter::buildError() { return cached().error; }
int SeccompFilter::ruleCount() { return cached().rules; }

} // namespace sandpad
