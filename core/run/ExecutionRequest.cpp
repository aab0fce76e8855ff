#include "core/run/ExecutionRequest.h"

namespace sandpad {

ExecutionRequest ExecutionRequest::adHoc(Language language, const QString& code, const QString& title)
{
    ExecutionRequest request;
    request.source = AdHocSource{language, code, title};
    return request;
}

ExecutionRequest ExecutionRequest::savedRevision(const QString& documentId, const QString& revisionId)
{
    ExecutionRequest request;
    request.source = SavedRevisionRef{documentId, revisionId};
    return request;
}

} // namespace sandpad
