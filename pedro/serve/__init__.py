"""`pedro serve`: the OpenAI Responses API in front of any chat-completions server, with pedro's call extraction."""
