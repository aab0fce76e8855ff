def countdown(n):
    while n > 0:
        yield n
        n -= 1

gen = countdown(5)
print(next(gen), list(gen))
print(sum(x * x for x in range(100)))
