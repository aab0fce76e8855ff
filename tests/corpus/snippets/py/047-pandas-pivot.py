import pandas as pd

df = pd.DataFrame({
    "year": [2022, 2022, 2023, 2023, 2023],
    "kind": ["a", "b", "a", "b", "b"],
    "value": [1, 2, 3, 4, 5],
})
print(df.pivot_table(index="year", columns="kind", values="value", aggfunc="sum", fill_value=0))
