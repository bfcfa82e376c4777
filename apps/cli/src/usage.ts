/** The usage text `zeng`, `zeng --help` and every usage error point to. */
export const USAGE = `zeng: the Z Engine coding agent

Usage:
  zeng ["PROMPT"] [options]    the interactive session in this folder (/help inside for keys)
  zeng -p "PROMPT" [options]   run one prompt headless and exit
  zeng demo                    the "fix the failing test" walkthrough (scripted model, no key, no network)
  zeng trust [DIR]             trust a project folder (default: the working directory)
  zeng mcp list [--cwd DIR]    start the folder's MCP servers, print each one's state, stop them
  zeng mcp add [-s local|project|user] [-t stdio|http|sse] [-e K=V] [-H "K: V"] NAME CMD|URL [ARGS...]
  zeng mcp remove [-s SCOPE] NAME
  zeng mcp get NAME [--cwd DIR]
  zeng mcp login SERVER [--cwd DIR]   log in to a remote MCP server (OAuth, in your browser)
  zeng mcp logout SERVER [--cwd DIR]  forget its tokens
  zeng config get KEY | set [-g] KEY VALUE | list
  zeng login                   store an API key (read from stdin) in auth.json
  zeng web [--open] [--port N] start the web UI
  zeng doctor [--cwd DIR]      check the key, provider, git, sandbox, ripgrep, trust, settings, MCP servers
  zeng acp [options]           an Agent Client Protocol agent on stdio, for editors (zeng acp --help)
  zeng mcp serve [options]     an MCP server that runs tasks for other agents (zeng mcp serve --help)
  zeng --help | --version

Options:
  --output-format FORMAT       -p only: text (default) | json | stream-json | claude-json | claude-stream-json
  --permission-mode MODE       ask | acceptEdits | plan | bypass, or Claude Code's default | bypassPermissions | dontAsk
  --model MODEL                the main model (default: the settings' model.main)
  --resume ID                  continue the stored session ID (interactive: without ID, pick one)
  --continue                   continue the newest session of the project folder
  --cwd DIR                    the project folder (default: the working directory)
  --max-turns N                at most N model rounds in this turn

claude -p's flags (-p only; with one of them json/stream-json write Claude Code's shapes):
  --allowedTools / --disallowedTools RULES...   --system-prompt[-file] / --append-system-prompt[-file]
  --add-dir DIR...  --mcp-config FILE|JSON... [--strict-mcp-config]  --settings FILE|JSON
  -c, -r ID  --max-budget-usd N  --fallback-model M  --json-schema JSON|FILE  --input-format stream-json
  --verbose  --include-partial-messages  --dangerously-skip-permissions  (-p without a prompt reads stdin)

Environment:
  ZENGINE_PROVIDER (anthropic | openai), ZENGINE_BASE_URL, ZENGINE_API_KEY, ZENGINE_MODEL,
  ZENGINE_SHELL, ANTHROPIC_API_KEY, OPENAI_API_KEY, ZENGINE_HOME (data folder),
  ZENGINE_CONFIG_HOME (settings folder)

Exit codes: 0 completed, 1 failed or budget exhausted, 2 bad usage, 130 cancelled.
Interactive zeng needs a terminal; with stdout or stdin not a TTY it reads prompts line by line.
`;
