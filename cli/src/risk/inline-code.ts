/**
 * Shell commands hidden in interpreter one-liners (`python -c`, `node -e`, `perl -e`, `ruby -e`):
 * the string given to a process-spawning call (`os.system("…")`, `execSync('…')`,
 * `subprocess.run(["rm", "-rf", p])`, backticks, `%x(…)`, `qx(…)`), plus the code itself read as
 * shell, since one-liners are often shell written in the wrong place (`perl -e "rm -rf /"`).
 * The code's own dangerous calls (shutil.rmtree, fs.rmSync …) are matched by `code` rules.
 */
const SPAWN_CALL = new RegExp(
  String.raw`\b(?:system|popen|popen2|Popen|getoutput|getstatusoutput|check_output|check_call|call|run|exec|` +
    String.raw`exec[lv]p?e?|spawn[lv]?p?e?|execute|execSync|execFileSync|execFile|spawn|spawnSync|system2|shell|` +
    String.raw`run_command|shell_exec|passthru|proc_open|Command|IO\.popen|Open3\.\w+)\s*\(\s*` +
    String.raw`(\[[^\]]*\]|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|` +
    '`(?:[^`\\\\]|\\\\.)*`)',
  'g',
);
const SPAWN_CALL_NO_PAREN = /\b(?:system|exec)\s+("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/g;
/** Perl's quote operators given to a spawning call: `system(q{…})`, `exec qq(…)`, `system q[…]`. */
const PERL_QUOTED_SPAWN = new RegExp(
  String.raw`\b(?:system|exec)\s*\(?\s*q?q\s*(?:\{([^}]*)\}|` +
    String.raw`\(([^)]*)\)|\[([^\]]*)\]|<([^>]*)>|([/|!#~])((?:(?!\5)[^\\]|` +
    String.raw`\\.)*)\5)`,
  'g',
);
/** Code that runs a process at all (the command may be a variable: `c="rm -rf ~"; os.system(c)`). */
const SPAWNS = new RegExp(
  String.raw`\bDeno\.(run|Command)\b|\bBun\.(spawn|spawnSync|` +
    String.raw`\$)|\bos\.(system|popen|exec\w*|spawn\w*)\s*\(|` +
    String.raw`\bsubprocess\.|\bchild_process\b|\bexecSync\b|` +
    String.raw`\bspawnSync\b|\bsystem\s*[(\s]|\bexec\s*[(\s]|` +
    String.raw`\bIO\.popen|\bOpen3\b|\bshell_exec\b|\bpassthru\b|` +
    String.raw`\bproc_open\b|Runtime\.getRuntime|\bKernel\.(system|` +
    String.raw`spawn|exec)`,
);
/** A bracketed or parenthesised list of two or more string literals. */
const WORD_LIST =
  /[[(]\s*(?:(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*,\s*)+(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*,?\s*[\])]/g;
const BACKTICKS = /`((?:[^`\\]|\\.)+)`/g;
const QUOTED_EXEC = /(?:%x|qx)\s*(?:\(([^)]*)\)|\{([^}]*)\}|\[([^\]]*)\]|\/([^/]*)\/|\|([^|]*)\|)/g;
const STRING_LITERAL = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/g;

export function extractShellFromCode(code: string): string[] {
  const scripts = new Set<string>([code]);
  for (const match of code.matchAll(SPAWN_CALL)) scripts.add(literalToScript(match[1] ?? ''));
  for (const match of code.matchAll(SPAWN_CALL_NO_PAREN)) scripts.add(literalToScript(match[1] ?? ''));
  for (const match of code.matchAll(BACKTICKS)) scripts.add(match[1] ?? '');
  for (const match of code.matchAll(QUOTED_EXEC)) scripts.add(match.slice(1).find((g) => g !== undefined) ?? '');
  for (const match of code.matchAll(PERL_QUOTED_SPAWN))
    scripts.add([match[1], match[2], match[3], match[4], match[6]].find((g) => g !== undefined) ?? '');
  // The command is built elsewhere in the code: every string literal may be what runs.
  if (SPAWNS.test(code)) {
    for (const literal of stringLiterals(code)) if (/\s/.test(literal.trim())) scripts.add(literal);
    // …or a list of words kept in a variable: `my @a = ("rm", "-rf", "/"); system(@a)`.
    for (const match of code.matchAll(WORD_LIST)) scripts.add(literalToScript(`[${(match[0] ?? '').slice(1, -1)}]`));
  }
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

/** Code that builds paths from the home directory (`os.homedir()`, `expanduser`, `$ENV{HOME}` …). */
const MENTIONS_HOME = new RegExp(
  String.raw`homedir\s*\(|expanduser|Dir\.home|ENV\[\s*["']HOME["']\s*\]|` +
    String.raw`\$ENV\{\s*["']?HOME["']?\s*\}|getenv\s*\(\s*["']HOME["']|` +
    String.raw`environ(?:\.get\s*\(|\[)\s*["']HOME["']|` +
    String.raw`process\.env\.HOME|Path\.home\s*\(|os\.getenv\s*\(\s*["']HOME|` +
    String.raw`\$HOME\b`,
);

/**
 * The file paths an interpreter one-liner names: its string literals that look like paths, with a
 * Perl-style open mode removed (`">>/etc/hosts"`). When the code builds paths from the home
 * directory, a literal like `"/.aws/credentials"` or `".ssh"` is also read under `~`.
 */
export function pathsInCode(code: string): string[] {
  const literals = [...code.matchAll(STRING_LITERAL)].map((m) =>
    (m[1] ?? m[2] ?? '')
      .replace(/\\(["'\\])/g, '$1')
      .replace(/^\s*(\+?[<>]{1,2}&?|\|)\s*/, '')
      // The home directory interpolated into the literal: `"$ENV{HOME}/.aws"`, `"#{Dir.home}/.ssh"`, `f"{HOME}/…"`.
      .replace(
        new RegExp(
          String.raw`^(\$ENV\{\s*["']?HOME["']?\s*\}|\$\{?HOME\}?|` +
            String.raw`#\{\s*(Dir\.home|ENV\[\s*["']HOME["']\s*\])\s*\}|` +
            String.raw`\{\s*(HOME|home)\s*\})(?=\/)`,
        ),
        '~',
      )
      .trim(),
  );
  const home = MENTIONS_HOME.test(code);
  const found = new Set<string>();
  for (const [i, literal] of literals.entries()) {
    if (literal === '' || literal.length > 4096 || /\s{2}|\n/.test(literal)) continue;
    if (literal.startsWith('/') || literal.startsWith('~/') || literal === '~') found.add(literal);
    // A relative path (placed by the command's directory): `.env`, `.claude/settings.json`, `src/a.ts`.
    else if (/^\.{0,2}[\w-][\w.-]*(\/[\w.-]+)*\/?$/.test(literal) && (literal.includes('/') || literal.startsWith('.')))
      found.add(literal);
    if (!home) continue;
    if (literal.startsWith('/')) found.add(`~${literal}`);
    else if (/^\.?[\w.-]+(\/[\w.-]+)*$/.test(literal)) {
      found.add(`~/${literal}`);
      const next = literals[i + 1];
      if (next !== undefined && /^[\w.-]+(\/[\w.-]+)*$/.test(next)) found.add(`~/${literal}/${next}`);
    }
  }
  return [...found];
}

/** The string literals of some code, unescaped. */
export function stringLiterals(code: string): string[] {
  return [...code.matchAll(STRING_LITERAL)].map((m) => (m[1] ?? m[2] ?? '').replace(/\\(["'\\])/g, '$1'));
}
