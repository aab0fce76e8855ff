# DataFrame and math: display() shows a pandas table, formulas and Markdown in the notebook,
# in order with what the code prints (Sandpad's display() needs no IPython).
import numpy as np
import pandas as pd
import sympy as sp

from sandpad import Markdown

display(Markdown("## Monthly sales\nA table keeps its index, column names and dtypes; "
                 "**Copy as TSV/CSV** copies the selection or the whole table."))
rng = np.random.default_rng(7)
df = pd.DataFrame({
    "month": pd.date_range("2026-01-01", periods=6, freq="MS").strftime("%b"),
    "units": rng.integers(80, 160, 6),
    "price": rng.uniform(9.5, 12.5, 6).round(2),
}).set_index("month")
df["revenue"] = df["units"] * df["price"]
display(df)
print("best month:", df["revenue"].idxmax())

x = sp.symbols("x")
f = sp.exp(-x**2 / 2) * sp.cos(x)
display(sp.Eq(sp.Symbol("f'(x)"), sp.diff(f, x)))
display(sp.Integral(sp.exp(-x**2), (x, -sp.oo, sp.oo)), sp.integrate(sp.exp(-x**2), (x, -sp.oo, sp.oo)))
print("done")

result = df.describe()  # a DataFrame result is shown as a table too
