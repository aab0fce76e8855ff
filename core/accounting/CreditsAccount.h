#pragma once

#include <QString>

namespace sandpad {

class Database;

// The optional billing adapter. Off by default: usage is recorded and nothing is debited.
// When enabled, a run the balance cannot cover is refused before a sandbox is created, and the
// debit happens in UsageLedger::record's transaction. Balances are integer micro-dollars.
class CreditsAccount {
public:
    explicit CreditsAccount(Database& database);

    bool enabled() const;
    void setEnabled(bool enabled);
    qint64 balanceMicros() const;
    bool canPay(qint64 costMicros) const;   // true when disabled
    void topUp(qint64 micros);               // adds to the balance (positive amounts only)

private:
    Database& m_db;
};

} // namespace sandpad
