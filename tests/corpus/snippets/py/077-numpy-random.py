import numpy as np

rng = np.random.default_rng(42)
print(rng.integers(0, 10, 8))
print(np.round(rng.random(3), 6))
