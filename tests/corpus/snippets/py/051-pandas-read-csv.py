import io
import pandas as pd

text = "date,close\n2024-01-02,10.5\n2024-01-03,11.0\n2024-01-04,10.75\n"
df = pd.read_csv(io.StringIO(text), parse_dates=["date"], index_col="date")
print(df)
print(df.close.pct_change().round(4).tolist())
