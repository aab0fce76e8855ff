# A pandas session: build a table, group it, and show the summary as the result.
import pandas as pd

df = pd.DataFrame({
    "city": ["Lisbon", "Porto", "Lisbon", "Faro", "Porto", "Faro", "Lisbon"],
    "month": ["Jan", "Jan", "Feb", "Feb", "Mar", "Mar", "Mar"],
    "sales": [120, 95, 130, 60, 101, 72, 142],
})
print(df.to_string(index=False))
print()
result = df.groupby("city")["sales"].agg(["count", "sum", "mean"]).round(1)
