# Reads bound inputs from argv and prints one portable result. Illustrative only.
import json, sys
from lib.rules import RULES
print(json.dumps({"kind": "observe"}))
