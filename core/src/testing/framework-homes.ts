/**
 * Environment variables that relocate a coding agent's state away from HOME (Claude Code, Codex,
 * Gemini CLI, Copilot CLI, and the XDG base a few of them honour). Tests unset them so that only
 * the temp HOME, or a variable the test sets itself, decides where an adapter looks.
 */
export const FRAMEWORK_HOME_VARIABLES = [
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'GEMINI_CLI_HOME',
  'COPILOT_HOME',
  'XDG_CONFIG_HOME',
] as const;
