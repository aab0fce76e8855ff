# An interactive scatter chart: two clusters of points.
import random

random.seed(7)

def cluster(cx, cy, n):
    return [[round(random.gauss(cx, 0.6), 3), round(random.gauss(cy, 0.6), 3)] for _ in range(n)]

chart = {
    "type": "scatter",
    "title": "Height vs. weight (synthetic)",
    "x_label": "Height (m)",
    "y_label": "Weight (100 kg)",
    "elements": [
        {"label": "Group A", "points": cluster(1.6, 0.6, 60)},
        {"label": "Group B", "points": cluster(1.8, 0.85, 60)},
    ],
}
