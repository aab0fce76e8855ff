#pragma once

#include "core/run/RunArtifact.h"

#include <QList>
#include <QWidget>
#include <functional>
#include <optional>

class QVBoxLayout;

namespace sandpad {

// The files a run left (RunArtifact) in its notebook entry: images inline (scaled down), every
// file as a row with its name, size and type and Open / Save As. Open writes a temporary copy
// (mode 0600, never executable) and hands it to the desktop; types that the desktop could run
// (scripts, executables, .desktop files) are not opened, only saved.
class ArtifactList : public QWidget {
    Q_OBJECT
public:
    explicit ArtifactList(QWidget* parent = nullptr);

    // Where the content of a file not loaded with the history's preview comes from (the run's
    // stored copy, RunHistory; files over RunArtifact::jsonInlineBytes): asked when it is opened
    // or saved. Set it before setArtifacts(); without one such files cannot be opened or saved.
    using ContentSource = std::function<std::optional<QByteArray>(const QString& name)>;
    void setContentSource(ContentSource source) { m_contentSource = std::move(source); }
    void setArtifacts(const QList<RunArtifact>& artifacts, const QString& runId);
    int count() const { return m_artifacts.size(); }
    int imageCount() const { return m_images; }

    // Writes artifact i to `path`; false with *error set when it cannot (content not kept, I/O).
    bool saveTo(int i, const QString& path, QString* error) const;
    // A temporary copy for Open: its path, or empty with *error.
    QString temporaryCopy(int i, QString* error) const;
    // Whether Open may hand this file to the desktop.
    static bool mayOpen(const RunArtifact& artifact);

signals:
    void fileError(const QString& message);

private:
    void open(int i);
    void saveAs(int i);
    QVBoxLayout* m_layout;
    QList<RunArtifact> m_artifacts;
    QString m_runId;
    ContentSource m_contentSource;
    int m_images = 0;
};

} // namespace sandpad
