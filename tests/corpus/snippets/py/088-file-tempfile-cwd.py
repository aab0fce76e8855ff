import os
import tempfile

with tempfile.NamedTemporaryFile("w", dir=".", suffix=".tmp", delete=False) as f:
    f.write("x")
print(os.path.basename(f.name).endswith(".tmp"), os.path.getsize(f.name))
os.remove(f.name)
