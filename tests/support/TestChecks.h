#pragma once

#include <QTest>

// Runs a shared check (a function that uses QVERIFY/QCOMPARE, which only return from the check)
// and ends the calling test function too when the check failed, as an inline assertion would.
#define SANDPAD_CHECK(call)                                                                        \
    do {                                                                                           \
        call;                                                                                      \
        if (QTest::currentTestFailed())                                                            \
            return;                                                                                \
    } while (false)
