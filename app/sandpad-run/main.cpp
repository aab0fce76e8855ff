// sandpad-run: the headless CLI over the same core services as the GUI.
#include "RunCommand.h"

#include <QCoreApplication>

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sandpad"));
    QCoreApplication::setOrganizationName(QStringLiteral("sandpad"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDPAD_VERSION));
    return sandpad::RunCommand().exec(app.arguments());
}
