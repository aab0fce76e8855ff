#include "TempDatabase.h"

#include <QRegularExpression>
#include <QSqlQuery>
#include <QTest>

namespace sandpad {

bool TempDatabase::open()
{
    close();
    m_dir = std::make_unique<QTemporaryDir>();
    if (!m_dir->isValid()) {
        m_error = QStringLiteral("no temporary folder: ") + m_dir->errorString();
        return false;
    }
    return reopen();
}

bool TempDatabase::reopen()
{
    m_db.reset();
    m_db = std::make_unique<Database>(m_dir->path());
    const bool opened = m_db->open();
    m_error = m_db->error();
    return opened;
}

void TempDatabase::initTest()
{
    QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
    QVERIFY2(open(), qPrintable(error()));
}

int TempDatabase::rowCount(const QString& table)
{
    QSqlQuery q(m_db->connection());
    if (!q.exec(QStringLiteral("SELECT COUNT(*) FROM ") + table) || !q.next())
        return -1;
    return q.value(0).toInt();
}

void TempDatabase::close()
{
    m_db.reset();
    m_dir.reset();
    m_error.clear();
}

} // namespace sandpad
