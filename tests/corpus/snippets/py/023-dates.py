import datetime as dt
import matplotlib.pyplot as plt
import matplotlib.dates as mdates

days = [dt.date(2024, 1, 1) + dt.timedelta(days=i) for i in range(30)]
values = [i % 7 for i in range(30)]
fig, ax = plt.subplots()
ax.plot(days, values, marker="o")
ax.xaxis.set_major_formatter(mdates.DateFormatter("%b %d"))
fig.autofmt_xdate()
print(days[0], days[-1])
