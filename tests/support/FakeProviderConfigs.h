#pragma once

#include "core/providers/daytona/DaytonaConfig.h"
#include "core/providers/vercel/VercelConfig.h"

class FakeServer;

namespace sandpad {

// Configs that reach a running tests/fakes server with the credentials it accepts; the base
// packages and timeouts are left to the caller.
VercelConfig fakeVercelConfig(const FakeServer& fake);   // fake_vercel.py
DaytonaConfig fakeDaytonaConfig(const FakeServer& fake); // fake_daytona.py

} // namespace sandpad
