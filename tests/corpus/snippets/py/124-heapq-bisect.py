import bisect
import heapq

h = [5, 1, 8, 3, 9, 2]
heapq.heapify(h)
print([heapq.heappop(h) for _ in range(3)])
grades = [60, 70, 80, 90]
print(["FDCBA"[bisect.bisect(grades, s)] for s in (55, 65, 85, 95)])
