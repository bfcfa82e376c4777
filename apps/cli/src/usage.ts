/** The usage text `zeng`, `zeng --help` and every usage error point to. */
export const USAGE = `zeng: the Z Engine coding agent

Usage:
  zeng ["PROMPT"] [options]    the interactive session in this folder (/help inside for keys)
  zeng -p "PROMPT" [options]   run one prompt headless and exit
  zeng demo                    the "fix the failing test" walkthrough (scripted model, no key, no network)
  zeng trust [DIR]             trust a project folder (default: the working directory)
  zeng mcp list [--cwd DIR]    start the folder's MCP servers, print each one's state, stop them
  zeng mcp login SERVER [--cwd DIR]   log in to a remote MCP server (OAuth, in your browser)
  zeng mcp logout SERVER [--cwd DIR]  forget its tokens
  zeng --help | --version

Options:
  --output-format FORMAT       -p only: text (default) | json | stream-json
  --permission-mode MODE       ask | acceptEdits | plan | bypass (default: the settings' mode, ask)
  --model MODEL                the main model (default: the settings' model.main)
  --resume ID                  continue the stored session ID (interactive: without ID, pick one)
  --continue                   continue the newest session of the project folder
  --cwd DIR                    the project folder (default: the working directory)
  --max-turns N                at most N model rounds in this turn

Environment:
  ZENGINE_PROVIDER (anthropic | openai), ZENGINE_BASE_URL, ZENGINE_API_KEY, ZENGINE_MODEL,
  ZENGINE_SHELL, ANTHROPIC_API_KEY, OPENAI_API_KEY, ZENGINE_HOME (data folder),
  ZENGINE_CONFIG_HOME (settings folder)

Exit codes: 0 completed, 1 failed or budget exhausted, 2 bad usage, 130 cancelled.
Interactive zeng needs a terminal; with stdout or stdin not a TTY it reads prompts line by line.
`;
