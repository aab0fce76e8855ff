#pragma once

#include "core/language/Language.h"

#include <QStringList>

namespace sandpad {

// Plain word completion, for JavaScript and for Python until a language service answers: the
// identifiers of the text and the language's keywords that start with what is typed. After a
// dot, the names that followed the same qualifier elsewhere in the text ("np." offers "sin"
// when "np.sin" was written before), which is most of what a snippet calls twice.
class WordCompleter {
public:
    static constexpr int kMaxCandidates = 60;

    // prefix: the identifier characters before the cursor; qualifier: the identifier before a
    // dot right before prefix ("np" for "np.si"), empty when there is none. Sorted, unique, the
    // prefix itself left out.
    static QStringList candidates(const QString& text, Language language, const QString& prefix,
                                  const QString& qualifier = {});
    static const QStringList& keywords(Language language);
};

} // namespace sandpad
