import sys

print("leaving")
sys.exit(3)
