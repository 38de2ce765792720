/**
 * Shell commands hidden in interpreter one-liners (`python -c`, `node -e`, `perl -e`, `ruby -e`):
 * the string given to a process-spawning call (`os.system("…")`, `execSync('…')`,
 * `subprocess.run(["rm", "-rf", p])`, backticks, `%x(…)`, `qx(…)`), plus the code itself read as
 * shell, since one-liners are often shell written in the wrong place (`perl -e "rm -rf /"`).
 * The code's own dangerous calls (shutil.rmtree, fs.rmSync …) are matched by `code` rules.
 */
const SPAWN_CALL =
  /\b(?:system|popen|Popen|getoutput|getstatusoutput|check_output|check_call|call|run|exec|execSync|execFileSync|execFile|spawn|spawnSync|shell_exec|passthru|proc_open|Command|IO\.popen|Open3\.\w+)\s*\(\s*(\[[^\]]*\]|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`)/g;
const SPAWN_CALL_NO_PAREN = /\b(?:system|exec)\s+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/g;
const BACKTICKS = /`((?:[^`\\]|\\.)+)`/g;
const QUOTED_EXEC = /(?:%x|qx)\s*(?:\(([^)]*)\)|\{([^}]*)\}|\[([^\]]*)\]|\/([^/]*)\/|\|([^|]*)\|)/g;
const STRING_LITERAL = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g;

export function extractShellFromCode(code: string): string[] {
  const scripts = new Set<string>([code]);
  for (const match of code.matchAll(SPAWN_CALL)) scripts.add(literalToScript(match[1] ?? ''));
  for (const match of code.matchAll(SPAWN_CALL_NO_PAREN)) scripts.add(literalToScript(match[1] ?? ''));
  for (const match of code.matchAll(BACKTICKS)) scripts.add(match[1] ?? '');
  for (const match of code.matchAll(QUOTED_EXEC)) scripts.add(match.slice(1).find((g) => g !== undefined) ?? '');
  scripts.delete('');
  return [...scripts];
}

/** A string literal → its text; a list literal of strings → its items joined as argv. */
function literalToScript(literal: string): string {
  if (literal.startsWith('[')) {
    const items = [...literal.matchAll(STRING_LITERAL)].map((m) => m[1] ?? m[2] ?? '');
    return items.map((item) => (/^[\w@%+=:,./-]+$/.test(item) ? item : `'${item.replace(/'/g, "'\\''")}'`)).join(' ');
  }
  return unquote(literal);
}

function unquote(literal: string): string {
  const body = literal.slice(1, -1);
  return body.replace(/\\(["'`\\])/g, '$1').replace(/\\n/g, '\n');
}
