/**
 * Write, then run: files whose content a tool runs later — package.json scripts, makefiles,
 * conftest.py and setup.py, editor tasks, MCP server entries, git hooks, CI workflows, shell
 * scripts and any script run by path. What such a file makes runnable is read here, from its name
 * and text, as shell payloads and code; the normalizer judges them like any command, both when the
 * file is written (a file tool's content, `cat > Makefile <<EOF`) and when it is run (`npm test`,
 * `make`, `pytest`, `bash scripts/x.sh`, `./x.sh`: the file is read at gate time, bounded).
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { recipesOf, type Payload } from './channels.js';

/** How much of a file run by a command is read; a larger file is not judged but asked about. */
export const RUN_FILE_LIMIT = 64 * 1024;

export interface Runnable {
  /** Shell text the file makes runnable, with where it comes from (`package.json scripts.test`). */
  scripts: Payload[];
  /** Code in a language the file runs as (conftest.py, a script with a `#!/usr/bin/env python3`). */
  code: Array<{ language: string; code: string; via: string }>;
  /** Something the file runs by itself, without being asked (a task with runOn folderOpen). */
  autorun: string[];
}

/** npm's lifecycle scripts that `npm install` (or `npm ci`, `npm pack`) runs by itself. */
export const INSTALL_SCRIPTS = [
  'preinstall',
  'install',
  'postinstall',
  'prepare',
  'preprepare',
  'postprepare',
  'prepublish',
  'prepack',
  'postpack',
  'dependencies',
];
/** Scripts judged when package.json is written: the ones npm runs by itself or on the usual verbs. */
const WRITE_TIME_SCRIPTS = new Set([
  ...INSTALL_SCRIPTS,
  'pretest',
  'test',
  'posttest',
  'prestart',
  'start',
  'poststart',
]);

const SHELL_SCRIPT = /\.(sh|bash|zsh|ksh|command)$/;
const CODE_BY_EXTENSION: Record<string, string> = {
  '.py': 'python',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
  '.ts': 'node',
  '.pl': 'perl',
  '.rb': 'ruby',
  '.php': 'php',
  '.lua': 'lua',
  '.ps1': 'pwsh',
};
const SHEBANG_LANGUAGE: Array<[RegExp, string]> = [
  [/\b(ba|z|da|k|mk|a)?sh\b/, 'shell'],
  [/\bpython[0-9.]*\b/, 'python'],
  [/\b(node|deno|bun|tsx|ts-node)\b/, 'node'],
  [/\bperl\b/, 'perl'],
  [/\bruby\b/, 'ruby'],
  [/\bphp\b/, 'php'],
  [/\b(pwsh|powershell)\b/, 'pwsh'],
];
const GIT_HOOK = /(^|\/)\.(git\/hooks|husky|githooks)\/[^/]+$/;
const WORKFLOW = new RegExp(
  String.raw`(^|/)(\.(github|forgejo|gitea)/workflows/[^/]+\.ya?ml|\.gitlab-ci\.ya?ml|azure-pipelines\.ya?ml|` +
    String.raw`\.circleci/config\.ya?ml|bitbucket-pipelines\.ya?ml)$`,
);
const MCP_CONFIG = new RegExp(
  String.raw`(^|/)(\.mcp\.json|mcp\.json|\.(cursor|vscode|roo)/mcp\.json|\.gemini/settings\.json|` +
    String.raw`claude_desktop_config\.json|` +
    String.raw`\.claude\.json|cline_mcp_settings\.json|\.codex/config\.toml)$`,
);
const PYTHON_RUN_BY_TOOLS = /(^|\/)(conftest|setup|noxfile|sitecustomize|usercustomize|fabfile|tasks|dodo)\.py$|\.pth$/;

/** What a file with this path and text makes runnable; an empty answer when it runs nothing known. */
export function runnableContent(filePath: string, text: string): Runnable {
  const out: Runnable = { scripts: [], code: [], autorun: [] };
  const name = path.posix.basename(filePath);
  if (name === 'package.json') {
    for (const [script, body] of packageScripts(text)) {
      if (WRITE_TIME_SCRIPTS.has(script)) out.scripts.push({ via: `package.json scripts.${script}`, script: body });
    }
    return out;
  }
  if (/^(GNUmakefile|[Mm]akefile)$|\.mk$/.test(name)) {
    out.scripts.push(...recipesOf(text, `${name} recipe`));
    return out;
  }
  if (/^[Jj]ustfile$|\.just$/.test(name)) {
    for (const line of text.split('\n')) {
      if (/^\s+\S/.test(line)) out.scripts.push({ via: `${name} recipe`, script: line.trim().replace(/^[@-]+/, '') });
    }
    return out;
  }
  if (/(^|\/)\.vscode\/tasks\.json$/.test(filePath) || name === 'tasks.json') {
    readTasks(text, out);
    return out;
  }
  if (MCP_CONFIG.test(filePath)) {
    readMcpServers(text, name, out);
    return out;
  }
  if (WORKFLOW.test(filePath)) {
    readWorkflow(text, name, out);
    return out;
  }
  if (GIT_HOOK.test(filePath)) {
    out.scripts.push({ via: `git hook ${name}`, script: text });
    return out;
  }
  if (PYTHON_RUN_BY_TOOLS.test(filePath)) {
    out.code.push({ language: 'python', code: text, via: `${name} (run by pytest, pip or python)` });
    return out;
  }
  const language = scriptLanguage(filePath, text);
  if (language === 'shell') out.scripts.push({ via: `script ${name}`, script: text });
  else if (language !== undefined) out.code.push({ language, code: text, via: `script ${name}` });
  return out;
}

/** The language a script file runs in: its `#!` line, else its extension; undefined for anything else. */
export function scriptLanguage(filePath: string, text: string): string | undefined {
  const first = text.startsWith('#!') ? text.slice(0, text.indexOf('\n') >>> 0) : '';
  if (first !== '') for (const [re, language] of SHEBANG_LANGUAGE) if (re.test(first)) return language;
  if (SHELL_SCRIPT.test(filePath)) return 'shell';
  return CODE_BY_EXTENSION[path.posix.extname(filePath)];
}

/** package.json's scripts, by name (text that is not JSON is read with a pattern, as written). */
export function packageScripts(text: string): Map<string, string> {
  const scripts = new Map<string, string>();
  try {
    const parsed = JSON.parse(text) as { scripts?: unknown };
    if (parsed && typeof parsed.scripts === 'object' && parsed.scripts !== null) {
      for (const [key, value] of Object.entries(parsed.scripts)) if (typeof value === 'string') scripts.set(key, value);
      return scripts;
    }
  } catch {
    // Not JSON (or cut short): read the "name": "command" pairs as written.
  }
  for (const m of text.matchAll(/"([A-Za-z0-9:_.-]+)"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
    let body = m[2] ?? '';
    try {
      body = JSON.parse(`"${body}"`) as string;
    } catch {
      // an escape JSON does not know: the text as written
    }
    scripts.set(m[1] ?? '', body);
  }
  return scripts;
}

/** VS Code tasks: every task's command (with its args); one with `runOn: folderOpen` runs when the folder opens. */
function readTasks(text: string, out: Runnable): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '').replace(/,(\s*[}\]])/g, '$1'));
  } catch {
    parsed = undefined;
  }
  const list = parsed && typeof parsed === 'object' ? (parsed as { tasks?: unknown }).tasks : undefined;
  const tasks = Array.isArray(list) ? (list as Array<Record<string, unknown>>) : [];
  for (const task of tasks) {
    if (!task || typeof task !== 'object') continue;
    const command = wordsOf(task['command'], task['args']).join(' ');
    const label = typeof task['label'] === 'string' ? task['label'] : 'task';
    if (command.trim() !== '') out.scripts.push({ via: `.vscode/tasks.json ${label}`, script: command });
    const options = task['runOptions'];
    if (options && typeof options === 'object' && (options as Record<string, unknown>)['runOn'] === 'folderOpen') {
      out.autorun.push(`task '${label}' runs when the folder is opened`);
    }
  }
  if (tasks.length === 0 && /"runOn"\s*:\s*"folderOpen"/.test(text)) {
    out.autorun.push('a task runs when the folder is opened');
  }
}

/** MCP server entries (`mcpServers`, `servers`, `[mcp_servers.x]`): each server's command and args start a process. */
function readMcpServers(text: string, name: string, out: Runnable): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const root = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  for (const key of ['mcpServers', 'servers', 'mcp_servers']) {
    const servers = root[key];
    if (!servers || typeof servers !== 'object') continue;
    for (const [server, spec] of Object.entries(servers as Record<string, unknown>)) {
      if (!spec || typeof spec !== 'object') continue;
      const entry = spec as Record<string, unknown>;
      const words = wordsOf(entry['command'], entry['args']);
      if (words.length > 0) {
        out.scripts.push({ via: `${name} MCP server ${server}`, script: words.map(quoteWord).join(' ') });
      }
    }
  }
  // TOML (Codex's config.toml): `command = "…"` and `args = [ … ]` lines.
  if (parsed === undefined) {
    for (const m of text.matchAll(/^\s*command\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:\n\s*args\s*=\s*\[([^\]]*)\])?/gm)) {
      const args = [...(m[2] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((a) => a[1] ?? '');
      out.scripts.push({ via: `${name} MCP server`, script: [m[1] ?? '', ...args].map(quoteWord).join(' ') });
    }
  }
}

/**
 * CI workflows: the shell of every `run:` step (GitHub, Forgejo) and `script:` item (GitLab, …).
 * `${{ secrets.NAME }}` becomes `$SECRETS_NAME`, so a secret sent in a request is seen as one.
 */
function readWorkflow(text: string, name: string, out: Runnable): void {
  const source = text
    .replace(/\$\{\{\s*secrets\.([A-Za-z0-9_]+)\s*\}\}/g, '$SECRETS_$1')
    .replace(/\$\{\{\s*toJSON\(\s*secrets\s*\)\s*\}\}/gi, '$ALL_SECRETS_JSON');
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const m = /^(\s*)(?:-\s+)?(run|script|before_script|after_script|command)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const indent = (m[1] ?? '').length;
    const value = (m[3] ?? '').trim();
    const block: string[] = [];
    if (value === '' || /^[|>][-+]?$/.test(value)) {
      for (let k = i + 1; k < lines.length; k += 1) {
        const next = lines[k] ?? '';
        if (next.trim() !== '' && next.search(/\S/) <= indent) break;
        block.push(next.trim().replace(/^-\s+/, ''));
        i = k;
      }
    } else block.push(value.replace(/^["']|["']$/g, ''));
    const script = block.join('\n').trim();
    if (script !== '') out.scripts.push({ via: `${name} ${m[2]} step`, script });
  }
}

/** A command and its args list, as words (what is not text is left out). */
function wordsOf(command: unknown, args: unknown): string[] {
  return [command, ...(Array.isArray(args) ? args : [])].filter((w): w is string => typeof w === 'string');
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

export type FileRead = { text: string } | { unreadable: string } | null;

/**
 * A file a command runs, read at gate time: the first RUN_FILE_LIMIT bytes of a regular file.
 * Null when it does not exist (nothing runs, or an earlier part of the command makes it); an
 * `unreadable` reason when it is larger than the limit, not a regular file, or cannot be read.
 * Opened without blocking, so a FIFO or device put in a file's place cannot hang the gate.
 */
export function readRunFile(absolute: string): FileRead {
  let fd: number;
  try {
    fd = openSync(absolute, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { unreadable: `${absolute} could not be read (${code ?? 'error'})` };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { unreadable: `${absolute} is not a regular file` };
    const buffer = Buffer.alloc(Math.min(stat.size, RUN_FILE_LIMIT));
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    // A compiled program is not a script: it is judged by its name, like any program.
    if (buffer.subarray(0, Math.min(read, 8000)).includes(0)) return null;
    if (stat.size > RUN_FILE_LIMIT) {
      return { unreadable: `${absolute} is ${stat.size} bytes: only files up to ${RUN_FILE_LIMIT} bytes are read` };
    }
    return { text: buffer.subarray(0, read).toString('utf8') };
  } catch (error) {
    return { unreadable: `${absolute} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  } finally {
    closeSync(fd);
  }
}
