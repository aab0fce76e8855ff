#pragma once

#include <QString>
#include <QStringList>

namespace sandpad {

// The `!pip install` lines of a Python snippet (also `%pip install`, as in Jupyter). They are not
// Python: the lines are blanked (kept as empty lines so traceback line numbers match the editor)
// and their packages are installed before the program runs.
class PipDirectives {
public:
    // The packages every runtime already has; `!pip install` of one of these is skipped.
    static const QStringList& basePackages();

    static PipDirectives parse(const QString& code);

    // The code with every directive line replaced by an empty line.
    const QString& code() const { return m_code; }
    // Every requested package in order, flags (`-q`, `--upgrade`, ...) dropped, version
    // specifiers kept (`requests==2.31`), duplicates removed.
    const QStringList& packages() const { return m_packages; }
    // packages() minus the base set (names compared case/`-`/`_`/`.`-insensitively, ignoring
    // specifiers and extras).
    QStringList packagesToInstall() const;
    // 1-based line numbers of the directive lines.
    const QList<int>& directiveLines() const { return m_lines; }

    // "Requests_OAuthlib[socks]>=1.0" -> "requests-oauthlib" (PEP 503 normalization).
    static QString normalizedName(const QString& requirement);

private:
    QString m_code;
    QStringList m_packages;
    QList<int> m_lines;
};

} // namespace sandpad
