import pandas as pd

sales = pd.DataFrame({
    "region": ["n", "s", "n", "e", "s", "n"],
    "units": [3, 5, 2, 8, 1, 4],
    "price": [9.5, 7.0, 9.5, 4.25, 7.0, 10.0],
})
sales["revenue"] = sales.units * sales.price
print(sales.groupby("region").agg(units=("units", "sum"), revenue=("revenue", "mean")))
