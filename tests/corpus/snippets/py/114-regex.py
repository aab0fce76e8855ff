import re

text = "Call 555-1234 or 555-9876; fax 555-0000."
print(re.findall(r"\d{3}-\d{4}", text))
m = re.search(r"(?P<area>\d{3})-(?P<num>\d{4})", text)
print(m.group("num"), re.sub(r"\d", "#", text))
