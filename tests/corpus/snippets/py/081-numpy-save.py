import numpy as np

np.save("arr.npy", np.eye(3))
np.savetxt("arr.txt", np.arange(6).reshape(2, 3), fmt="%d")
print(np.load("arr.npy").trace(), open("arr.txt").read().split())
