from functools import lru_cache

@lru_cache(maxsize=None)
def paths(r, c):
    if r == 0 or c == 0:
        return 1
    return paths(r - 1, c) + paths(r, c - 1)

print(paths(16, 16), paths.cache_info().hits > 0)
