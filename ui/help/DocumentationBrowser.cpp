#include "ui/help/DocumentationBrowser.h"

#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

// The bundle lives in this static library: registered explicitly (Q_INIT_RESOURCE cannot be used
// inside a namespace), or the linker could leave it out.
static void initHelpResources() { Q_INIT_RESOURCE(help); }

namespace sandpad {

namespace {
const QString kRoot = QStringLiteral(":/sandpad/docs");

QString titleOf(const QString& path)
{
    QFile f(path);
    if (f.open(QIODevice::ReadOnly))
        for (const QByteArray& line : f.readAll().split('\n'))
            if (line.startsWith("# "))
                return QString::fromUtf8(line.mid(2)).trimmed();
    return path.section(QLatin1Char('/'), -1);
}
} // namespace

QStringList DocumentationBrowser::pages()
{
    static const bool registered = (initHelpResources(), true);
    Q_UNUSED(registered);
    QStringList result{kRoot + QStringLiteral("/README.md")};
    const QDir docs(kRoot + QStringLiteral("/docs"));
    for (const QString& name : docs.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name))
        result << docs.filePath(name);
    return result;
}

DocumentationBrowser::DocumentationBrowser(QWidget* parent)
    : QDialog(parent), m_list(new QListWidget(this)), m_browser(new QTextBrowser(this))
{
    setWindowTitle(tr("Documentation — Sandpad"));
    setAccessibleName(tr("Documentation"));
    m_list->setAccessibleName(tr("Documentation pages"));
    m_browser->setAccessibleName(tr("Documentation page"));
    m_browser->setOpenLinks(false); // resolved here: inside the bundle, or out to the browser
    for (const QString& page : pages()) {
        auto* item = new QListWidgetItem(titleOf(page), m_list);
        item->setData(Qt::UserRole, page);
    }
    connect(m_list, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item)
            showPage(item->data(Qt::UserRole).toString());
    });
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")
            || url.scheme() == QLatin1String("mailto")) {
            QDesktopServices::openUrl(url);
            return;
        }
        if (url.isRelative() && url.path().isEmpty()) { // "#section"
            m_browser->scrollToAnchor(url.fragment());
            return;
        }
        const QUrl resolved = m_browser->source().resolved(url);
        const QString path = QLatin1Char(':') + resolved.path();
        if (QFile::exists(path))
            showPage(path);
        else
            m_browser->setToolTip(tr("Not in the bundled documentation: %1").arg(url.toString()));
    });
    auto* split = new QSplitter(this);
    split->addWidget(m_list);
    split->addWidget(m_browser);
    split->setStretchFactor(1, 1);
    split->setSizes({220, 680});
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    resize(960, 700);
    m_list->setCurrentRow(0);
}

void DocumentationBrowser::showPage(const QString& resourcePath)
{
    QUrl url(QStringLiteral("qrc") + resourcePath);
    m_browser->setSource(url, QTextDocument::MarkdownResource);
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toString() == resourcePath && m_list->currentRow() != i)
            m_list->setCurrentRow(i);
}

} // namespace sandpad
