#pragma once

#include "ui/charts/ChartData.h"

#include <QJsonObject>
#include <QString>
#include <memory>
#include <optional>

namespace sandpad {

class ChartSpec;

// Turns a chart dictionary, validated by core's ChartSpec (one set of rules for the runtime, the
// CLI and the GUI), into the plain numbers the viewer draws.
class ChartSpecAdapter {
public:
    // Returns the chart, or nullopt with *error set to ChartSpec's message naming the field.
    static std::optional<ChartData> parse(const QJsonObject& spec, QString* error);
    // With an owner (the same chart, shared), line and scatter points are shared, not copied.
    static ChartData fromSpec(const ChartSpec& spec, const std::shared_ptr<const ChartSpec>& owner = {});
    static ChartData fromSpec(const std::shared_ptr<const ChartSpec>& spec) { return fromSpec(*spec, spec); }
};

} // namespace sandpad
