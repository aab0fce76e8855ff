#include "ui/examples/ExampleLibrary.h"

#include <QCoreApplication>
#include <QFile>

// The resources live in a static library: make sure its registration is linked in.
static void initSandpadResources() { Q_INIT_RESOURCE(resources); }

namespace sandpad {

QString Example::code() const
{
    initSandpadResources();
    QFile file(QStringLiteral(":/sandpad/examples/") + fileName);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

QList<Example> ExampleLibrary::all()
{
    auto tr = [](const char* text) { return QCoreApplication::translate("ExampleLibrary", text); };
    return {
        {QStringLiteral("sine_wave"), tr("Sine wave (matplotlib PNG)"), QStringLiteral("sine_wave.py"), Language::Python},
        {QStringLiteral("line_dates"), tr("Line chart with dates"), QStringLiteral("line_dates.py"), Language::Python},
        {QStringLiteral("scatter"), tr("Scatter chart"), QStringLiteral("scatter.py"), Language::Python},
        {QStringLiteral("grouped_bar"), tr("Grouped bar chart"), QStringLiteral("grouped_bar.py"), Language::Python},
        {QStringLiteral("pandas_table"), tr("pandas table"), QStringLiteral("pandas_table.py"), Language::Python},
        {QStringLiteral("sympy_session"), tr("sympy session"), QStringLiteral("sympy_session.py"), Language::Python},
        {QStringLiteral("dataframe_math"), tr("DataFrame and math"), QStringLiteral("dataframe_math.py"), Language::Python},
        {QStringLiteral("javascript_snippet"), tr("JavaScript snippet"), QStringLiteral("javascript_snippet.js"), Language::JavaScript},
    };
}

std::optional<Example> ExampleLibrary::find(const QString& name)
{
    for (const Example& e : all())
        if (e.name == name || e.fileName == name)
            return e;
    return std::nullopt;
}

} // namespace sandpad
