import sympy as sp

x = sp.symbols("x")
sp.pprint(sp.Integral(sp.sqrt(1 / x), x), use_unicode=True)
print(sp.latex(sp.Rational(3, 4) * x ** 2))
