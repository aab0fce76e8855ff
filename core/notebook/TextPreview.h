#pragma once

#include <QString>

namespace sandpad {

// A bounded excerpt of a text for display: whole lines from the head or the tail, each line
// longer than the limit cut with a marker that says how long it was, and a marker line for the
// lines left out. What a snippet printed can be megabytes on one line; a text widget that is
// given that lays it out for minutes, so everything shown of a run goes through here (the
// console's live view cuts lines the same way, see ui/console/ConsoleWriter).
class TextPreview {
public:
    enum class Keep { Head, Tail };
    struct Limits {
        int maxLines = 200;
        qsizetype maxLineChars = 1000; // a cut line plus its marker stays within this
        qsizetype maxChars = 64 * 1024; // the whole excerpt, markers included (about)
    };

    // The marker that ends a cut line: "… [line cut: 10,000,000 characters; Save or Copy has
    // the whole text]".
    static QString lineCutMarker(qint64 lineChars);
    // The marker line for lines left out, e.g. "… [1,234 earlier lines not shown; …]".
    static QString linesLeftOutMarker(qint64 lines, Keep keep);
    // Whether a shown text holds a cut line's marker / a marker line for lines left out.
    static bool hasCutLine(const QString& shown);
    static bool hasLinesLeftOut(const QString& shown);
    // 1234567 -> "1,234,567" (the locale's grouping; English grouping for the C locale).
    static QString formatCount(qint64 n);

    static TextPreview make(const QString& text, Keep keep, const Limits& limits);
    static TextPreview make(const QString& text, Keep keep) { return make(text, keep, Limits{}); }

    const QString& text() const { return m_text; }
    bool isCut() const { return m_cut; }           // anything left out or cut
    qint64 wholeChars() const { return m_wholeChars; }

private:
    QString m_text;
    bool m_cut = false;
    qint64 m_wholeChars = 0;
};

} // namespace sandpad
