import sys

print("done early")
sys.exit(0)
print("not reached")
