// The provider-conformance cases against the command provider with its shipped example program
// (resources/runtime/command-provider-example.py, which runs each sandbox in bwrap).
#include "ProviderConformance.h"

#include "core/providers/command/CommandProvider.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace sandpad;

class TestConformanceCommand : public ProviderConformance {
    Q_OBJECT
    QTemporaryDir m_tempRoot; // the example's TMPDIR: other suites running at once make folders too

    static int sandboxDirs()
    {
        return int(QDir(QDir::tempPath()).entryList({QStringLiteral("sandpad-cmd-*")}, QDir::Dirs).size());
    }

protected:
    std::shared_ptr<SandboxProvider> makeProvider() override
    {
        if (!m_tempRoot.isValid())
            return nullptr;
        // As /tmp: the sandbox user (uid 65534 when this runs as root) must reach the folders in it.
        QFile::setPermissions(m_tempRoot.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                                     QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
        qputenv("TMPDIR", QFile::encodeName(m_tempRoot.path())); // inherited by the example program
        CommandProviderConfig c;
        c.program = QStringLiteral(SANDPAD_SOURCE_DIR "/resources/runtime/command-provider-example.py");
        c.killGraceMs = 3000;
        return std::make_shared<CommandProvider>(c);
    }
    // The example keeps each sandbox in a sandpad-cmd-* folder and removes it on destroy.
    void verifyNothingLeft() override { QCOMPARE(sandboxDirs(), 0); }
};

QTEST_GUILESS_MAIN(TestConformanceCommand)
#include "test_conformance_command.moc"
