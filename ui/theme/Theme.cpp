#include "ui/theme/Theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace sandpad {

namespace {

// What the desktop gave the application, captured before the first change, for "system".
struct SystemLook {
    bool captured = false;
    QString style;
    QPalette palette;
};

SystemLook& systemLook()
{
    static SystemLook look;
    if (!look.captured && qApp) {
        look.captured = true;
        look.style = QApplication::style()->name();
        look.palette = QApplication::palette();
    }
    return look;
}

QString& currentName()
{
    static QString name = QStringLiteral("system");
    return name;
}

} // namespace

QStringList Theme::names()
{
    return {QStringLiteral("system"), QStringLiteral("light"), QStringLiteral("dark")};
}

QString Theme::displayName(const QString& name)
{
    if (name == QLatin1String("light"))
        return QApplication::tr("Light");
    if (name == QLatin1String("dark"))
        return QApplication::tr("Dark");
    return QApplication::tr("System");
}

QPalette Theme::darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31), base(0x1e, 0x1f, 0x22), text(0xdf, 0xe1, 0xe5);
    const QColor disabledText(0x7c, 0x7f, 0x86), highlight(0x3d, 0x7c, 0xd6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3d, 0x42));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabledText);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4e));
    p.setColor(QPalette::Midlight, QColor(0x38, 0x3a, 0x3f));
    p.setColor(QPalette::Mid, QColor(0x24, 0x25, 0x29));
    p.setColor(QPalette::Dark, QColor(0x19, 0x1a, 0x1d));
    p.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0e));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xa8, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb3, 0x8c, 0xff));
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    p.setColor(QPalette::Disabled, QPalette::Base, window);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x4a, 0x4d, 0x53));
    return p;
}

void Theme::apply(const QString& name)
{
    const SystemLook& system = systemLook();
    const QString wanted = names().contains(name) ? name : QStringLiteral("system");
    if (wanted == QLatin1String("system")) {
        if (QApplication::style()->name() != system.style)
            QApplication::setStyle(QStyleFactory::create(system.style));
        QApplication::setPalette(system.palette);
    } else {
        if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
            QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(wanted == QLatin1String("dark") ? darkPalette()
                                                                  : QApplication::style()->standardPalette());
    }
    currentName() = wanted;
}

QString Theme::current()
{
    return currentName();
}

} // namespace sandpad
