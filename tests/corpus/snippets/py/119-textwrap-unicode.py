import textwrap

print(textwrap.fill("Sandpad runs snippets in a sandbox and shows what they print, " * 3, width=40))
print("naïve café ✓ 漢字 🎉", len("🎉"))
