"""A syntax error in the bot's code: the process dies at start-up with a traceback whose
lines the CRASH fault must quote intact."""

SOURCE = "def decide(view, options):\n    return options[0\n"
exec(compile(SOURCE, "my_bot_logic.py", "exec"))
