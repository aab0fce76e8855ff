# An interactive line chart with a datetime x axis: assign a dict to `chart`.
import datetime as dt
import math

start = dt.date(2026, 1, 1)
days = [start + dt.timedelta(days=i) for i in range(90)]

chart = {
    "type": "line",
    "title": "Daily visitors (first quarter)",
    "x_label": "Date",
    "y_label": "Visitors",
    "x_scale": "datetime",
    "elements": [
        {"label": "Website",
         "points": [[d.isoformat(), round(1000 + 300 * math.sin(i / 7) + 4 * i)] for i, d in enumerate(days)]},
        {"label": "Mobile app",
         "points": [[d.isoformat(), round(600 + 200 * math.cos(i / 9) + 6 * i)] for i, d in enumerate(days)]},
    ],
}
print(f"{len(days)} days per series")
