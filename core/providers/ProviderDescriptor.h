#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

namespace sandpad {

struct AppSettings;
class SandboxProvider;
struct ProviderDescriptor;

// One setting of a provider: what Settings shows for it, where it is kept, what overrides it.
// Every member has an initializer: descriptors name only the ones they set (designated
// initializers, without -Wmissing-field-initializers).
struct ProviderField {
    enum class Kind {
        Text,    // an identifier or a name
        Url,     // an address
        Program, // the path of an executable (Settings adds Browse…)
    };
    QString key{};               // stored as "<provider>/<key>" (AppSettings::providerValues)
    QString label{};             // the form's, with its mnemonic: "T&eam ID:"
    QString environmentVariable{}; // overrides the field when set and not empty
    // Typed into the OS keychain (SecretStore, under the environment variable's name), never into
    // AppSettings.
    bool secret = false;
    Kind kind = Kind::Text;
    QString placeholder{};       // what an empty field means
    // A value offered by a button after the page's help (the example that comes with Sandpad);
    // no button when it returns an empty string.
    QString suggestionLabel{};
    std::function<QString()> suggestion{};
};

// What a provider's factory reads: its fields as the settings hold them (stored, or as the
// Settings form holds them while validating), the environment over them, and its secrets.
class ProviderSettings {
public:
    ProviderSettings(const ProviderDescriptor& descriptor, const AppSettings& settings,
                     const QHash<QString, QString>& secrets);

    const AppSettings& settings() const { return m_settings; } // the general ones (the memory limit)
    QString stored(const QString& key) const;                  // trimmed; empty when not set
    bool overridden(const QString& key) const;                 // by its environment variable
    // The environment variable's value (trimmed) when it overrides the field, else the stored one.
    QString value(const QString& key) const;
    // A secret: its environment variable when set (the variable wins), else the one typed in
    // Settings and not yet stored (an empty one: the stored one is being forgotten), else the
    // OS keychain's.
    QString secret(const QString& key) const;

private:
    QString variable(const QString& key) const;

    const ProviderDescriptor& m_descriptor;
    const AppSettings& m_settings;
    const QHash<QString, QString>& m_secrets;
};

// A provider as the rest of Sandpad knows it: its name, what Settings shows for it, and how it is
// built from the settings. Each provider folder describes its own (e.g. VercelProvider::descriptor());
// ProviderRegistry lists them.
struct ProviderDescriptor {
    QString name;                // stored in settings, SANDPAD_PROVIDER, sandpad-run --provider
    QString displayName;
    QList<ProviderField> fields; // in the form's order
    QString help;                // a paragraph after the fields; a provider without fields: its page
    // Builds the provider; nullptr means none (execution refused). Throws
    // ProviderError(NotConfigured) when what it needs is missing.
    std::function<std::shared_ptr<SandboxProvider>(const ProviderSettings&)> create;

    const ProviderField* field(const QString& key) const; // null when it has no such field
    QString settingsKey(const QString& key) const { return name + QLatin1Char('/') + key; }
};

} // namespace sandpad
