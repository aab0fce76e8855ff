#include "core/providers/local/SeccompFilter.h"

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

// Adds rules to a filter and counts them; the first failure is kept and ends the build.
class Rules {
public:
    explicit Rules(scmp_filter_ctx ctx) : m_ctx(ctx) {}
    // action for `nr` when the comparisons (0 or 1 of them) hold.
    void add(uint32_t action, int nr, const QString& what, const scmp_arg_cmp* cmp = nullptr)
    {
        if (!m_error.isEmpty())
            return;
        const int rc = cmp ? seccomp_rule_add(m_ctx, action, nr, 1, *cmp) : seccomp_rule_add(m_ctx, action, nr, 0);
        if (rc < 0)
            m_error = QStringLiteral("%1: %2").arg(what, QString::fromLocal8Bit(strerror(-rc)));
        else
            ++m_count;
    }
    void add(uint32_t action, int nr, const QString& what, const scmp_arg_cmp& cmp) { add(action, nr, what, &cmp); }
    // By name: a call unknown to this libseccomp, or absent on this architecture, has nothing to deny.
    void addNamed(uint32_t action, const char* name)
    {
        const int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR || !m_error.isEmpty())
            return;
        const int rc = seccomp_rule_add(m_ctx, action, nr, 0);
        if (rc < 0 && rc != -EOPNOTSUPP && rc != -EDOM)
            m_error = QStringLiteral("rule for %1: %2").arg(QLatin1String(name), QString::fromLocal8Bit(strerror(-rc)));
        else if (rc == 0)
            ++m_count;
    }
    int count() const { return m_count; }
    QString error() const { return m_error; }

private:
    scmp_filter_ctx m_ctx;
    int m_count = 0;
    QString m_error;
};

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

    Rules rules(ctx);
    for (const char* name : kDenied)
        rules.addNamed(SCMP_ACT_ERRNO(EPERM), name);
    // memfd_create: a memfd passed over a unix socket and closed holds memory no process shows
    // (the memory watchdog could not count it). Nothing of python3, numpy, pandas, matplotlib,
    // multiprocessing or node 20 calls it; ENOSYS lets a library fall back to a file.
    rules.addNamed(SCMP_ACT_ERRNO(ENOSYS), "memfd_create");
    // clone3 takes its flags in memory that seccomp cannot inspect: ENOSYS makes glibc fall back
    // to clone, whose flags we can check.
    rules.addNamed(SCMP_ACT_ERRNO(ENOSYS), "clone3");
    // No new namespaces through clone (x86_64/arm64: flags are argument 0).
    for (scmp_datum_t flag : {CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWIPC,
                              CLONE_NEWUTS, CLONE_NEWCGROUP})
        rules.add(SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), QStringLiteral("clone flag rule"),
                  SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
    // Socket families: the kernel reads the family as a 32-bit int, so every rule looks at the low
    // 32 bits only. Values 0..63 one by one (allowed ones excepted), anything larger (or
    // negative) through its high bits.
    for (const int call : {SCMP_SYS(socket), SCMP_SYS(socketpair)}) {
        for (scmp_datum_t family = 0; family < 64; ++family) {
            bool allowed = false;
            for (int ok : kAllowedFamilies)
                allowed = allowed || scmp_datum_t(ok) == family;
            if (!allowed)
                rules.add(SCMP_ACT_ERRNO(EAFNOSUPPORT), call, QStringLiteral("socket family rule"),
                          SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffULL, family));
        }
        for (int bit = 6; bit < 32; ++bit)
            rules.add(SCMP_ACT_ERRNO(EAFNOSUPPORT), call, QStringLiteral("socket family rule"),
                      SCMP_A0(SCMP_CMP_MASKED_EQ, scmp_datum_t(1) << bit, scmp_datum_t(1) << bit));
    }
    for (scmp_datum_t flag : kDeniedPersonality)
        rules.add(SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), QStringLiteral("personality rule"),
                  SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
    // TIOCSTI / TIOCLINUX: the kernel compares the command as 32 bits, so the rule must too, or
    // 0x100005412 slips past an equality test.
    for (scmp_datum_t request : {scmp_datum_t(TIOCSTI), scmp_datum_t(TIOCLINUX)})
        rules.add(SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), QStringLiteral("ioctl rule"),
                  SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffULL, request));
    out.rules = rules.count();
    if (!rules.error().isEmpty()) {
        out.error = rules.error();
        seccomp_release(ctx);
        return out;
    }
    auto fail = [&](const QString& what, int rc) {
        out.error = QStringLiteral("%1: %2").arg(what, QString::fromLocal8Bit(strerror(-rc)));
    };

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
