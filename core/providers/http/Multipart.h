#pragma once

#include <QByteArray>
#include <QList>
#include <optional>

class QHttpMultiPart;

namespace sandpad {

// multipart/form-data both ways, for Daytona's toolbox (POST /files/bulk-upload sends one,
// POST /files/bulk-download answers one).
struct MultipartPart {
    QByteArray name;        // Content-Disposition name
    QByteArray filename;    // Content-Disposition filename (may be empty)
    QByteArray contentType; // the part's Content-Type (may be empty)
    QByteArray body;
};

class Multipart {
public:
    // The parts of a body whose Content-Type header is `contentType` (which names the boundary);
    // nullopt when it is not multipart or is malformed (no closing boundary).
    static std::optional<QList<MultipartPart>> parse(const QByteArray& contentType, const QByteArray& body);

    // A form for QNetworkAccessManager (the caller owns it): a text field when `filename` is empty,
    // else a file part (application/octet-stream).
    static QHttpMultiPart* form(const QList<MultipartPart>& parts);
};

} // namespace sandpad
