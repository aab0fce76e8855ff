import sympy as sp

x = sp.symbols("x")
print(sp.diff(sp.sin(x) * sp.exp(x), x))
print(sp.integrate(1 / (1 + x ** 2), (x, 0, sp.oo)))
print(sp.limit(sp.sin(x) / x, x, 0))
