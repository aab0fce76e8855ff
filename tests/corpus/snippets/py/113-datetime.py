import datetime as dt

start = dt.datetime(2024, 2, 28, 22, 30)
end = start + dt.timedelta(hours=5)
print(end.isoformat(), end.strftime("%A %d %B"), (end - start).total_seconds())
