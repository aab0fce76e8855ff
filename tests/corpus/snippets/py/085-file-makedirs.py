import os

os.makedirs("out/deep", exist_ok=True)
for name in ("a.txt", "b.txt"):
    with open(os.path.join("out/deep", name), "w") as f:
        f.write(name)
print(sorted(os.listdir("out/deep")))
