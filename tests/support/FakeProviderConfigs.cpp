#include "FakeProviderConfigs.h"

#include "FakeServer.h"

namespace sandpad {

VercelConfig fakeVercelConfig(const FakeServer& fake)
{
    VercelConfig c;
    c.apiUrl = fake.base();
    c.token = QStringLiteral("vercel_test_token_123");
    c.teamId = QStringLiteral("team_fake");
    c.projectId = QStringLiteral("prj_fake");
    return c;
}

DaytonaConfig fakeDaytonaConfig(const FakeServer& fake)
{
    DaytonaConfig c;
    c.apiUrl = fake.base() + QStringLiteral("/api");
    c.apiKey = QStringLiteral("dtn_test_key_0123456789");
    c.organizationId = QStringLiteral("org_fake");
    return c;
}

} // namespace sandpad
