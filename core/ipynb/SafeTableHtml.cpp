#include "core/ipynb/SafeTableHtml.h"

#include "core/ipynb/SafeHtml.h"

namespace sandpad {

std::optional<QString> SafeTableHtml::sanitize(const QString& html)
{
    return SafeHtml::reduce(html, SafeHtml::Profile::Tables).html;
}

} // namespace sandpad
