#pragma once

#include <QtGlobal>

class FakeServer;

// What a remote sandbox's own clock was given, as the fakes logged it (the remote session's idle
// allowance, docs/runtime-protocol.md "Remote sessions").
// Vercel: every create's `timeout` plus every `extend-timeout` duration, in ms.
qint64 vercelTimeoutGrantedMs(FakeServer& vercel);
