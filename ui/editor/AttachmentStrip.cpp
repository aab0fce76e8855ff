#include "ui/editor/AttachmentStrip.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
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
    auto* attach = new QToolButton(this);
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
}

QString AttachmentStrip::attachFiles(const QStringList& paths)
{
    QStringList problems;
    for (const QString& path : paths) {
        const QFileInfo info(path);
        InputFile file{info.fileName(), {}};
        if (!info.isFile()) {
            problems << tr("%1 is not a file").arg(path);
            continue;
        }
        if (info.size() > RunInput::maxFileBytes) {
            problems << tr("%1 is larger than %2").arg(path, QLocale().formattedDataSize(RunInput::maxFileBytes));
            continue;
        }
        QFile in(path);
        if (!in.open(QIODevice::ReadOnly)) {
            problems << tr("cannot read %1: %2").arg(path, in.errorString());
            continue;
        }
        file.content = in.read(RunInput::maxFileBytes + 1);
        QList<InputFile> next = m_files;
        next.removeIf([&](const InputFile& f) { return f.name == file.name; });
        next << file;
        RunInput check;
        check.files = next;
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
    m_files.removeIf([&](const InputFile& f) { return f.name == name; });
    rebuild();
    emit changed();
}

QStringList AttachmentStrip::fileNames() const
{
    QStringList out;
    for (const InputFile& f : m_files)
        out << f.name;
    return out;
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
    input.files = m_files;
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
        delete item->widget();
        delete item;
    }
    const QLocale locale;
    for (const InputFile& f : std::as_const(m_files)) {
        auto* chip = new QWidget(this);
        auto* h = new QHBoxLayout(chip);
        h->setContentsMargins(4, 0, 0, 0);
        h->setSpacing(0);
        auto* label = new QLabel(tr("%1 (%2)").arg(f.name, locale.formattedDataSize(f.content.size())), chip);
        label->setTextFormat(Qt::PlainText);
        auto* remove = new QToolButton(chip);
        remove->setText(QStringLiteral("×"));
        remove->setAutoRaise(true);
        remove->setAccessibleName(tr("Remove %1").arg(f.name));
        const QString name = f.name;
        connect(remove, &QToolButton::clicked, this, [this, name] { removeFile(name); });
        h->addWidget(label);
        h->addWidget(remove);
        m_chips->addWidget(chip);
    }
}

} // namespace sandpad
