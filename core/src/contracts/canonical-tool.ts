import type { CanonicalTool } from './events.js';

/**
 * Tool names of the supported agents → the canonical kinds the risk engine judges: Claude Code
 * and agentx-code, then Codex CLI, Gemini CLI, Copilot CLI and Cursor (names that differ only
 * by case are different tools: Copilot's `edit`, Claude Code's `Edit`). One table for the
 * framework adapters (captures) and the gate (live hook calls), so a call is classified the same
 * way whichever path it takes. The canonical kinds map to themselves,
 * so a Score API client may send `shell` as well as `Bash`. This module imports nothing at run
 * time: the gate's fast path loads it.
 */
export const CANONICAL_TOOL_NAMES: Readonly<Record<string, CanonicalTool>> = Object.freeze({
  Bash: 'shell',
  Read: 'read',
  Write: 'write',
  Edit: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
  Grep: 'search',
  Glob: 'search',
  LS: 'search',
  WebFetch: 'fetch',
  WebSearch: 'fetch',
  // Codex CLI
  shell_command: 'shell',
  exec_command: 'shell',
  write_stdin: 'shell',
  local_shell: 'shell',
  apply_patch: 'edit',
  view_image: 'read',
  read_file: 'read',
  list_dir: 'search',
  grep_files: 'search',
  web_search: 'fetch',
  // Gemini CLI
  run_shell_command: 'shell',
  read_many_files: 'read',
  write_file: 'write',
  replace: 'edit',
  glob: 'search',
  search_file_content: 'search',
  grep_search: 'search',
  list_directory: 'search',
  web_fetch: 'fetch',
  google_web_search: 'fetch',
  // Copilot CLI
  powershell: 'shell',
  write_bash: 'shell',
  write_powershell: 'shell',
  view: 'read',
  create: 'write',
  str_replace: 'edit',
  str_replace_editor: 'edit',
  grep: 'search',
  // Cursor
  Shell: 'shell',
  ReadFile: 'read',
  Delete: 'write',
  StrReplace: 'edit',
  EditNotebook: 'edit',
  SemanticSearch: 'search',
  CallMcpTool: 'mcp',
  shell: 'shell',
  bash: 'shell',
  read: 'read',
  write: 'write',
  edit: 'edit',
  search: 'search',
  fetch: 'fetch',
  mcp: 'mcp',
});

/**
 * The canonical kind of a tool name: MCP tools (`mcp__server__tool`, Gemini CLI's `mcp_server_tool`) are `mcp`, unknown
 * names `other`.
 */
export function canonicalToolOf(toolName: string): CanonicalTool {
  if (toolName.startsWith('mcp_')) return 'mcp';
  return Object.hasOwn(CANONICAL_TOOL_NAMES, toolName) ? (CANONICAL_TOOL_NAMES[toolName] as CanonicalTool) : 'other';
}
