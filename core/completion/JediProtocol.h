#pragma once

#include "core/completion/AssistTypes.h"

#include <QByteArray>

namespace sandpad {

// The JSON lines spoken with resources/runtime/jedi_service.py (docs/runtime-protocol.md,
// "Language service"). The answer is the sandbox's text: parsed defensively and bounded here, so
// that a broken or hostile service cannot hand the editor more than these caps.
class JediProtocol {
public:
    static constexpr int kMaxItems = 200;
    static constexpr int kMaxSignatures = 3;
    static constexpr int kMaxHelp = 5;
    static constexpr int kMaxName = 200;
    static constexpr int kMaxDoc = 16000;

    // One request line (with its newline). The column becomes Jedi's (code points).
    // reuse=false asks for a new jedi.Script (no kept inference, no cached context).
    static QByteArray requestLine(quint64 id, const AssistRequest& request, int deadlineMs, bool reuse = true);
    // The same request for a notebook session's interpreter (NotebookSession::askIdle, the assist
    // fetch): {"assist": {...}}, one line without its newline.
    static QByteArray sessionRequest(const AssistRequest& request, int deadlineMs);
    // The answer to `id`; ok=false with error "bad answer" when the line is not one.
    static AssistAnswer parseAnswer(const QByteArray& line, AssistKind kind);
    // A session's answer merged with the service's (both for one request): the session's
    // completions first (names of the live namespace), then the service's it lacks; its calltips
    // and help when it has some, else the service's. A failed one gives way to the other.
    static AssistAnswer merged(const AssistAnswer& session, const AssistAnswer& service);
    // The id a line answers (0 when it names none).
    static quint64 answerId(const QByteArray& line);
};

} // namespace sandpad
