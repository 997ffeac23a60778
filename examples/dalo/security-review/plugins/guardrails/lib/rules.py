RULES = ["no curl | sh", "no secrets in prompts"]
