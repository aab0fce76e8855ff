def primes(limit):
    sieve = [True] * (limit + 1)
    sieve[:2] = [False, False]
    for i in range(2, int(limit ** 0.5) + 1):
        if sieve[i]:
            sieve[i * i::i] = [False] * len(sieve[i * i::i])
    return [i for i, p in enumerate(sieve) if p]

print(len(primes(10000)), primes(50))
