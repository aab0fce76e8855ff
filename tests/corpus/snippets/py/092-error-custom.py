class BudgetExceeded(Exception):
    pass

spent = 120
if spent > 100:
    raise BudgetExceeded(f"spent {spent}")
