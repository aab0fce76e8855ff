# An interactive bar chart: `label` is the category on the x axis, `group` the series.
sales = {
    "Q1": {"Hardware": 120, "Software": 80, "Services": 45},
    "Q2": {"Hardware": 135, "Software": 95, "Services": 52},
    "Q3": {"Hardware": 110, "Software": 120, "Services": 60},
    "Q4": {"Hardware": 160, "Software": 140, "Services": 71},
}

chart = {
    "type": "bar",
    "title": "Revenue by quarter (k$)",
    "x_label": "Quarter",
    "y_label": "Revenue (k$)",
    "elements": [
        {"label": quarter, "group": group, "value": value}
        for quarter, groups in sales.items()
        for group, value in groups.items()
    ],
}
result = {q: sum(g.values()) for q, g in sales.items()}
