import sympy as sp

x = sp.symbols("x")
result = sp.integrate(x * sp.exp(-x), (x, 0, sp.oo))
print("computed")
