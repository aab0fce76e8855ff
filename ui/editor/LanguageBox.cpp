#include "ui/editor/LanguageBox.h"

#include <QAccessibleWidget>

namespace sandpad {

namespace {

class AccessibleLanguageBox : public QAccessibleWidget {
public:
    explicit AccessibleLanguageBox(QWidget* w) : QAccessibleWidget(w, QAccessible::ComboBox) {}

    QString text(QAccessible::Text t) const override
    {
        auto* box = static_cast<QComboBox*>(widget());
        if (t == QAccessible::Name)
            return box->accessibleName();
        if (t == QAccessible::Value)
            return box->currentText();
        return QAccessibleWidget::text(t);
    }
    QStringList actionNames() const override
    {
        return QAccessibleWidget::actionNames() << QAccessibleActionInterface::showMenuAction();
    }
    void doAction(const QString& name) override
    {
        if (name == QAccessibleActionInterface::showMenuAction())
            static_cast<QComboBox*>(widget())->showPopup();
        else
            QAccessibleWidget::doAction(name);
    }
};

QAccessibleInterface* languageBoxFactory(const QString& className, QObject* object)
{
    if (className == QLatin1String("sandpad::LanguageBox") && object && object->isWidgetType())
        return new AccessibleLanguageBox(static_cast<QWidget*>(object));
    return nullptr;
}

} // namespace

LanguageBox::LanguageBox(QWidget* parent) : QComboBox(parent)
{
    static const bool installed = (QAccessible::installFactory(languageBoxFactory), true);
    Q_UNUSED(installed);
    setFocusPolicy(Qt::StrongFocus);
}

} // namespace sandpad
