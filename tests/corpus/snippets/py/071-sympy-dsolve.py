import sympy as sp

t = sp.symbols("t")
f = sp.Function("f")
print(sp.dsolve(f(t).diff(t, 2) + f(t), f(t)))
