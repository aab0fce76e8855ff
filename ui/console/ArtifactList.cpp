#include "ui/console/ArtifactList.h"

#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLocale>
#include <QMimeDatabase>
#include <QPixmap>
#include <QPushButton>
#include <QStandardPaths>
#include <QUrl>
#include <QVBoxLayout>

namespace sandpad {

namespace {

constexpr int kImageWidth = 320;

// The last part of an artifact's name, safe as a file name of ours.
QString baseName(const QString& name)
{
    QString base = name.section(u'/', -1);
    if (base.isEmpty() || base.startsWith(u'.'))
        base.prepend(QStringLiteral("file"));
    return base;
}

} // namespace

ArtifactList::ArtifactList(QWidget* parent) : QWidget(parent), m_layout(new QVBoxLayout(this))
{
    setAccessibleName(tr("Files the run left"));
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(2);
    hide();
}

bool ArtifactList::mayOpen(const RunArtifact& artifact)
{
    static const QMimeDatabase db;
    const QMimeType type = db.mimeTypeForName(artifact.mimeType);
    for (const char* risky : {"application/x-executable", "application/x-sharedlib", "application/x-shellscript",
                              "application/x-desktop", "application/x-msdownload", "application/x-perl",
                              "text/x-python", "application/javascript", "application/x-ms-dos-executable"})
        if (type.isValid() ? type.inherits(QLatin1String(risky)) : artifact.mimeType == QLatin1String(risky))
            return false;
    return !artifact.name.endsWith(QLatin1String(".desktop"));
}

void ArtifactList::setArtifacts(const QList<RunArtifact>& artifacts, const QString& runId)
{
    while (QLayoutItem* item = m_layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    m_artifacts = artifacts;
    m_runId = runId;
    m_images = 0;
    const QLocale locale;
    for (int i = 0; i < artifacts.size(); ++i) {
        const RunArtifact& a = artifacts[i];
        if (a.isImage() && !a.content.isEmpty()) {
            const QImage image = QImage::fromData(a.content);
            if (!image.isNull()) {
                auto* picture = new QLabel(this);
                picture->setPixmap(QPixmap::fromImage(image.width() > kImageWidth ? image.scaledToWidth(kImageWidth, Qt::SmoothTransformation) : image));
                picture->setAccessibleName(tr("Image %1").arg(a.name));
                m_layout->addWidget(picture);
                ++m_images;
            }
        }
        auto* row = new QWidget(this);
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto* label = new QLabel(row);
        label->setTextFormat(Qt::PlainText);
        label->setText(tr("%1  ·  %2  ·  %3").arg(a.name, locale.formattedDataSize(a.size), a.mimeType));
        label->setToolTip(tr("sha256 %1").arg(a.sha256));
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto* open = new QPushButton(tr("Open"), row);
        auto* save = new QPushButton(tr("Save As…"), row);
        open->setAccessibleName(tr("Open %1").arg(a.name));
        save->setAccessibleName(tr("Save %1 as").arg(a.name));
        const bool kept = !a.content.isEmpty() || a.size == 0 || m_contentSource;
        open->setEnabled(kept && mayOpen(a));
        save->setEnabled(kept);
        if (!kept)
            open->setToolTip(tr("This file's content is not loaded with the notebook's history"));
        else if (!mayOpen(a))
            open->setToolTip(tr("A file the desktop could run is not opened from here: save it and look at it first"));
        connect(open, &QPushButton::clicked, this, [this, i] { this->open(i); });
        connect(save, &QPushButton::clicked, this, [this, i] { saveAs(i); });
        h->addWidget(label, 1);
        h->addWidget(open);
        h->addWidget(save);
        m_layout->addWidget(row);
    }
    setVisible(!artifacts.isEmpty());
}

bool ArtifactList::saveTo(int i, const QString& path, QString* error) const
{
    if (i < 0 || i >= m_artifacts.size())
        return false;
    const RunArtifact& a = m_artifacts[i];
    QByteArray content = a.content;
    if (content.isEmpty() && a.size > 0) {
        // Not in the preview: read from the run's stored copy, only now.
        const std::optional<QByteArray> stored = m_contentSource ? m_contentSource(a.name) : std::nullopt;
        if (!stored || stored->size() != a.size) {
            *error = tr("The content of %1 is not loaded").arg(a.name);
            return false;
        }
        content = *stored;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(content) != content.size()) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QString ArtifactList::temporaryCopy(int i, QString* error) const
{
    if (i < 0 || i >= m_artifacts.size())
        return {};
    // One folder per run, private to this user; the file is never executable.
    const QString dir = QDir(QDir::tempPath()).filePath(QStringLiteral("sandpad-files-%1").arg(m_runId.left(8)));
    if (!QDir().mkpath(dir) || !QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner)) {
        *error = tr("Cannot make the folder %1").arg(dir);
        return {};
    }
    const QString path = QDir(dir).filePath(baseName(m_artifacts[i].name));
    QFile::remove(path);
    if (!saveTo(i, path, error))
        return {};
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
    return path;
}

void ArtifactList::open(int i)
{
    if (i < 0 || i >= m_artifacts.size() || !mayOpen(m_artifacts[i]))
        return;
    QString error;
    const QString path = temporaryCopy(i, &error);
    if (path.isEmpty() || !QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
        emit fileError(error.isEmpty() ? tr("No program opens %1").arg(m_artifacts[i].name) : error);
}

void ArtifactList::saveAs(int i)
{
    if (i < 0 || i >= m_artifacts.size())
        return;
    const QString start = QDir(QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).filePath(baseName(m_artifacts[i].name));
    const QString path = QFileDialog::getSaveFileName(this, tr("Save %1").arg(m_artifacts[i].name), start);
    if (path.isEmpty())
        return;
    QString error;
    if (!saveTo(i, path, &error))
        emit fileError(error);
}

} // namespace sandpad
