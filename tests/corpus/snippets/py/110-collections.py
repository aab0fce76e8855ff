from collections import Counter, defaultdict, deque, namedtuple

print(Counter("mississippi").most_common(3))
d = defaultdict(list)
for word in ["apple", "avocado", "banana"]:
    d[word[0]].append(word)
print(dict(d))
q = deque(range(5), maxlen=3)
Point = namedtuple("Point", "x y")
print(q, Point(1, 2))
