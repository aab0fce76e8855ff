import sympy as sp

print(sp.factorint(360), sp.isprime(2 ** 31 - 1))
print(list(sp.primerange(1, 40)))
print(sp.Rational(1, 3) + sp.Rational(1, 6))
