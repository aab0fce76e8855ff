#include "ui/editor/AttachmentStrip.h"

#include "core/files/FileRead.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

namespace sandpad {

namespace {

QStringList localFiles(const QMimeData* mime)
{
    QStringList out;
    if (!mime || !mime->hasUrls())
        return out;
    for (const QUrl& url : mime->urls())
        if (url.isLocalFile() && QFileInfo(url.toLocalFile()).isFile())
            out << url.toLocalFile();
    return out;
}

} // namespace

AttachmentStrip::AttachmentStrip(QWidget* parent)
    : QWidget(parent), m_chips(new QHBoxLayout), m_inputToggle(new QToolButton(this)), m_input(new QPlainTextEdit(this))
{
    setAccessibleName(tr("Run input"));
    auto* attach = m_attach = new QToolButton(this);
    attach->setText(tr("Attach Files…"));
    attach->setAutoRaise(true);
    attach->setToolTip(tr("Files placed read-only in the working directory of this tab's runs (or drop files on the editor)"));
    connect(attach, &QToolButton::clicked, this, &AttachmentStrip::chooseFiles);
    m_inputToggle->setText(tr("Input"));
    m_inputToggle->setCheckable(true);
    m_inputToggle->setAutoRaise(true);
    m_inputToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_inputToggle->setArrowType(Qt::RightArrow);
    m_inputToggle->setToolTip(tr("The runs' standard input (what input() and sys.stdin read)"));
    connect(m_inputToggle, &QToolButton::toggled, this, &AttachmentStrip::setInputShown);
    m_input->setAccessibleName(tr("Standard input of this tab's runs"));
    m_input->setPlaceholderText(tr("Empty: the run has no input"));
    m_input->setMaximumHeight(90);
    m_input->hide();
    connect(m_input, &QPlainTextEdit::textChanged, this, &AttachmentStrip::changed);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(0, 0, 0, 0);
    m_chips->setContentsMargins(0, 0, 0, 0);
    top->addWidget(attach);
    top->addLayout(m_chips);
    top->addStretch(1);
    top->addWidget(m_inputToggle);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(top);
    layout->addWidget(m_input);
    orderFocus({});
}

void AttachmentStrip::orderFocus(const QList<QWidget*>& removes)
{
    // Left to right, then the input box below (the toggle and the box were made first, so Tab
    // went Input before Attach Files).
    QWidget* previous = m_attach;
    for (QWidget* remove : removes) {
        setTabOrder(previous, remove);
        previous = remove;
    }
    setTabOrder(previous, m_inputToggle);
    setTabOrder(m_inputToggle, m_input);
}

QString AttachmentStrip::attachFiles(const QStringList& paths)
{
    QStringList problems;
    for (const QString& path : paths) {
        const QFileInfo info(path);
        Attachment attachment{InputFile{info.fileName(), {}}, info.absoluteFilePath(), false};
        if (!info.isFile()) {
            problems << tr("%1 is not a file").arg(path);
            continue;
        }
        if (info.size() > RunInput::maxFileBytes) {
            problems << tr("%1 is larger than %2").arg(path, QLocale().formattedDataSize(RunInput::maxFileBytes));
            continue;
        }
        // Checked again on the opened file (core/files/FileRead): swapped for a FIFO or a device
        // since, it is refused rather than hanging or filling the memory.
        FileRead::Result read = FileRead::read(path, RunInput::maxFileBytes);
        if (!read.ok()) {
            problems << read.error;
            continue;
        }
        attachment.file.content = std::move(read.bytes);
        QList<Attachment> next = m_files;
        next.removeIf([&](const Attachment& a) { return a.file.name == attachment.file.name; });
        next << attachment;
        RunInput check;
        for (const Attachment& a : std::as_const(next))
            check.files << a.file;
        if (const QString why = check.problem(); !why.isEmpty()) {
            problems << why;
            continue;
        }
        m_files = next;
    }
    rebuild();
    emit changed();
    const QString message = problems.join(u'\n');
    if (!message.isEmpty())
        emit attachFailed(message);
    return message;
}

void AttachmentStrip::removeFile(const QString& name)
{
    m_files.removeIf([&](const Attachment& a) { return a.file.name == name; });
    rebuild();
    emit changed();
}

QStringList AttachmentStrip::fileNames() const
{
    QStringList out;
    for (const Attachment& a : m_files)
        out << a.file.name;
    return out;
}

QStringList AttachmentStrip::missingFiles() const
{
    QStringList out;
    for (const Attachment& a : m_files)
        if (a.missing)
            out << a.file.name;
    return out;
}

QString AttachmentStrip::problem() const
{
    const QStringList missing = missingFiles();
    if (missing.isEmpty())
        return {};
    return tr("The attached file(s) %1 are missing (moved or deleted since they were attached): attach them "
              "again or remove them before running.", nullptr, int(missing.size()))
        .arg(missing.join(QStringLiteral(", ")));
}

TabInput AttachmentStrip::tabInput() const
{
    TabInput input;
    for (const Attachment& a : m_files)
        input.files.append({a.file.name, a.path});
    input.stdinText = inputText();
    input.inputShown = inputShown();
    return input;
}

QStringList AttachmentStrip::restore(const TabInput& input)
{
    QStringList missing;
    for (const TabInput::File& f : input.files) {
        // Read again from where it was attached; kept by its name when that is a file of
        // another name now (a renamed attach would change what the code opens).
        const QFileInfo info(f.path);
        const bool ok = info.fileName() == f.name && info.isFile() && attachFiles({f.path}).isEmpty();
        if (!ok) {
            m_files.removeIf([&](const Attachment& a) { return a.file.name == f.name; });
            m_files << Attachment{InputFile{f.name, {}}, f.path, true};
            missing << f.name;
        }
    }
    setInputText(input.stdinText);
    setInputShown(input.inputShown || !input.stdinText.isEmpty());
    rebuild();
    emit changed();
    return missing;
}

void AttachmentStrip::setInputText(const QString& text)
{
    m_input->setPlainText(text);
    if (!text.isEmpty())
        setInputShown(true);
}

QString AttachmentStrip::inputText() const
{
    return m_input->toPlainText();
}

bool AttachmentStrip::inputShown() const
{
    return m_input->isVisibleTo(this);
}

void AttachmentStrip::setInputShown(bool shown)
{
    m_inputToggle->setChecked(shown);
    m_inputToggle->setArrowType(shown ? Qt::DownArrow : Qt::RightArrow);
    m_input->setVisible(shown);
}

RunInput AttachmentStrip::runInput() const
{
    RunInput input;
    for (const Attachment& a : m_files)
        if (!a.missing)
            input.files << a.file;
    const QString text = m_input->toPlainText();
    if (!text.isEmpty()) // an empty box: no input at all, so input() says so
        input.stdinData = text.endsWith(u'\n') ? text.toUtf8() : (text + u'\n').toUtf8();
    return input;
}

void AttachmentStrip::chooseFiles()
{
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Attach Files"));
    if (!paths.isEmpty())
        attachFiles(paths);
}

void AttachmentStrip::watchDrops(QWidget* target)
{
    target->installEventFilter(this);
}

bool AttachmentStrip::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::DragEnter || event->type() == QEvent::DragMove) {
        auto* drag = static_cast<QDropEvent*>(event);
        if (!localFiles(drag->mimeData()).isEmpty()) {
            drag->acceptProposedAction();
            return true;
        }
    } else if (event->type() == QEvent::Drop) {
        auto* drop = static_cast<QDropEvent*>(event);
        const QStringList files = localFiles(drop->mimeData());
        if (!files.isEmpty()) {
            drop->acceptProposedAction();
            attachFiles(files);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void AttachmentStrip::rebuild()
{
    while (QLayoutItem* item = m_chips->takeAt(0)) {
        if (QWidget* chip = item->widget()) {
            chip->hide();
            chip->deleteLater(); // its remove button may be the one being clicked
        }
        delete item;
    }
    const QLocale locale;
    QList<QWidget*> removes;
    for (const Attachment& a : std::as_const(m_files)) {
        const InputFile& f = a.file;
        auto* chip = new QWidget(this);
        auto* h = new QHBoxLayout(chip);
        h->setContentsMargins(4, 0, 0, 0);
        h->setSpacing(0);
        auto* label = new QLabel(a.missing ? tr("%1 (missing)").arg(f.name)
                                           : tr("%1 (%2)").arg(f.name, locale.formattedDataSize(f.content.size())),
                                 chip);
        label->setTextFormat(Qt::PlainText);
        label->setObjectName(QStringLiteral("attachment"));
        label->setToolTip(a.missing ? tr("%1 is gone (moved or deleted): attach it again, or remove it. Runs of "
                                         "this tab wait until then.").arg(QDir::toNativeSeparators(a.path))
                                    : QDir::toNativeSeparators(a.path));
        if (a.missing) {
            QPalette p = label->palette();
            p.setColor(QPalette::WindowText, QColor(0xd3, 0x2f, 0x2f));
            label->setPalette(p);
            label->setAccessibleName(tr("%1, missing").arg(f.name));
        }
        auto* remove = new QToolButton(chip);
        remove->setText(QStringLiteral("×"));
        remove->setAutoRaise(true);
        remove->setAccessibleName(tr("Remove %1").arg(f.name));
        const QString name = f.name;
        connect(remove, &QToolButton::clicked, this, [this, name] { removeFile(name); });
        h->addWidget(label);
        h->addWidget(remove);
        m_chips->addWidget(chip);
        removes.append(remove);
    }
    orderFocus(removes);
}

} // namespace sandpad
