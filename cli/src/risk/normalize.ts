import path from 'node:path';
import { parseShell, printedText, UPSTREAM_OVERFLOW, type RawCommand, type Redirect } from './shell-parse.js';
import { READ_LIMITS, ReadBudget } from './budget.js';
import { channelPayloads, gitSettingPayload, variablePayload, type Payload } from './channels.js';
import { extractShellFromCode, pathsInCode, stringLiterals } from './inline-code.js';
import { hostClasses } from './hosts.js';
import { SHELLS, WRAPPERS, inlineCodeOf, interpreterFamily, skipOptions } from './wrappers.js';

/**
 * Raw simple commands → the commands that actually run: wrappers (sudo, env, timeout, xargs,
 * parallel, find -exec, ssh …) peeled off, `bash -c` and `eval` strings parsed again, git's
 * global options (`-C dir`) applied, interpreter one-liners collected, and `cd` followed so every
 * command knows the directory it runs in (null once that cannot be known).
 */
export interface ParsedCommand {
  /** argv with argv[0] reduced to the lower-cased program name (`/bin/RM` → `rm`). */
  argv: string[];
  cwd: string | null;
  env: Record<string, string>;
  /** Wrappers and re-parses this command came through, outermost first (`sudo`, `bash -c`). */
  via: string[];
  redirects: Redirect[];
  inputFrom: string[];
  /** More arguments arrive at run time (xargs, parallel reading stdin). */
  argsFromStdin: boolean;
}

export interface InlineCode {
  language: string;
  code: string;
  via: string[];
  /** The file paths the code names (see pathsInCode), and where they are relative to. */
  paths: string[];
  /** The host classes of the URLs the code names (see hosts.ts). */
  hosts: string[];
  cwd: string | null;
  env: Record<string, string>;
}

export interface Normalized {
  commands: ParsedCommand[];
  code: InlineCode[];
  /** Every shell text parsed, the original first (text rules look at all of them). */
  scripts: string[];
  factors: string[];
  parseErrors: number;
}

export interface NormalizeContext {
  cwd: string | null;
  home: string;
  /** What reading may spend (default: a fresh READ_LIMITS budget); it notes what was not read. */
  budget?: ReadBudget;
}

interface Frame {
  cwd: string | null;
  env: Record<string, string>;
  via: string[];
  depth: number;
  inputFrom: string[];
  argsFromStdin: boolean;
  redirects: Redirect[];
}

const MAX_DEPTH = READ_LIMITS.depth;
const MAX_COMMANDS = READ_LIMITS.commands;
/** Marks an argument whose value is only known at run time (xargs input, find matches …). */
export const RUNTIME_VALUE = '${RUNTIME_INPUT}';

export function normalizeShell(text: string, context: NormalizeContext): Normalized {
  const out: Normalized = { commands: [], code: [], scripts: [], factors: [], parseErrors: 0 };
  const walker = new Walker(out, context.home, context.budget ?? new ReadBudget());
  walker.script(text, { cwd: context.cwd, env: {}, via: [], depth: 0, inputFrom: [], argsFromStdin: false, redirects: [] });
  return out;
}

/** Per wrapper, every option that takes a value (its chdir options included). */
const WRAPPER_VALUE_OPTIONS = new Map(Object.entries(WRAPPERS).map(([name, spec]) => [name, [...spec.valueOptions, ...(spec.chdirOptions ?? [])]]));

const DOWNLOADERS = new Set(['curl', 'wget', 'aria2c', 'http', 'https', 'fetch']);
const DOWNLOAD_OUTPUT_OPTIONS = new Set(['-o', '--output', '-O', '--output-document']);

class Walker {
  /** Files a downloader wrote earlier in the same command line, by basename → downloader. */
  private readonly downloaded = new Map<string, string>();
  /** Files written earlier in the same command line with literal text (`echo 'rm -rf ~' > x.sh`), by basename → text. */
  private readonly writtenScripts = new Map<string, string>();

  constructor(
    private readonly out: Normalized,
    private readonly home: string,
    private readonly budget: ReadBudget,
  ) {}

  script(given: string, frame: Frame): void {
    // `eval "$(echo 'rm -rf ~')"`, `sh -c "$(printf …)"`: a substitution that only prints a literal is that literal.
    const printed = /^\s*(?:\$\(|`)\s*(?:echo|printf)\s+(?:-[neE]+\s+)?(['"])([\s\S]*)\1\s*(?:\)|`)\s*$/.exec(given);
    const text = printed ? (printed[2] ?? '') : given;
    if (frame.depth > MAX_DEPTH) {
      this.budget.stop('depth', `nesting deeper than ${MAX_DEPTH} levels was not unwrapped`);
      return;
    }
    // Once the clock or the command count ran out, no more text is parsed.
    if (!this.budget.reading) return;
    this.out.scripts.push(text);
    const parsed = parseShell(text, this.budget);
    if (parsed.hasError) {
      this.out.parseErrors += 1;
      this.factor(parsed.repairedWith !== undefined ? `parsed after closing an unterminated ${JSON.stringify(parsed.repairedWith)}` : 'shell syntax error: scored on the parts that parsed');
    }
    const state = { ...frame, env: { ...frame.env } };
    for (const raw of parsed.commands) {
      // The commands this parse yielded are read (they are bounded by the command count).
      if (this.out.commands.length >= MAX_COMMANDS) {
        this.budget.stop('commands', `more than ${MAX_COMMANDS} commands: the rest were not read`);
        break;
      }
      Object.assign(state.env, parsed.assignments);
      this.raw(raw, state);
    }
  }

  private raw(raw: RawCommand, state: Frame): void {
    const env = { ...state.env, ...raw.assignments };
    const frame: Frame = {
      ...state,
      env,
      inputFrom: [...state.inputFrom, ...raw.inputFrom],
      redirects: [...state.redirects, ...raw.redirects],
    };
    // A leading word like `A-B=2` is not a valid assignment, so bash would run it as a
    // program; it cannot be one in practice, so the command behind it is judged as well.
    const words = [...raw.words];
    while (words.length > 1 && (words[0] ?? '').includes('=') && /^[^/]*=/.test(words[0] ?? '')) words.shift();
    if (words.length === 0) {
      if (raw.redirects.length > 0) this.emit([], frame);
      return;
    }
    // `a=rm; $a -rf /`, `a=r; b=m; $a$b -rf /`: a command name built from variables set earlier is expanded.
    if (words[0]?.includes('$') && !words[0].includes('$(')) {
      let unknown = false;
      const expanded = words[0].replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (whole, name: string) => {
        const value = env[name];
        if (value === undefined || /[$`]/.test(value)) unknown = true;
        return value ?? whole;
      });
      // Split as the shell splits an unquoted expansion: on the characters of IFS when it was set (`IFS=_; c=rm_-rf_~; $c`).
      const ifs = env['IFS'];
      const separators = ifs === undefined ? /\s+/ : new RegExp(`[${ifs.replace(/[\\\]^-]/g, '\\$&')}]+`);
      const split = ifs === '' ? [expanded] : expanded.split(separators).filter((w) => w !== '');
      if (!unknown && split.length > 0) words.splice(0, 1, ...split);
    }
    // `$(echo rm) -rf ~`, `` `printf rm` -rf ~ ``: a substitution that only prints a literal is that literal.
    const printedName = /^(?:\$\(|`)\s*(?:echo|printf)\s+(?:-[neE]+\s+)?(['"]?)([^'"`()$;|&<>]*)\1\s*(?:\)|`)$/.exec(words[0] ?? '');
    if (printedName && (printedName[2] ?? '').trim() !== '') words.splice(0, 1, ...(printedName[2] ?? '').trim().split(/\s+/));
    const name = programName(words[0] ?? '');
    if (name === 'cd' || name === 'pushd' || (name === 'builtin' && programName(words[1] ?? '') === 'cd')) {
      const args = words.slice(name === 'builtin' ? 2 : 1).filter((w) => !/^-[LPe@]+$/.test(w));
      state.cwd = this.changeDir(state.cwd, args[0]);
    }
    if (raw.stdinText !== undefined) this.stdinScript(words, raw.stdinText, frame);
    this.trackWrittenScript(raw, words, frame);
    // `PAGER='sh -c …' man ls`, `GIT_SSH_COMMAND=… git fetch`: a variable the program runs.
    for (const [key, value] of Object.entries(raw.assignments)) {
      const payload = variablePayload(key, value);
      if (payload) this.channel(payload, frame);
    }
    this.argv(words, frame);
  }

  private changeDir(cwd: string | null, target: string | undefined): string | null {
    if (target === undefined || target === '~') return this.home;
    if (target === '-' || /[$`*?]/.test(target)) return null;
    const expanded = target.startsWith('~/') ? path.posix.join(this.home, target.slice(2)) : target;
    if (path.posix.isAbsolute(expanded)) return path.posix.resolve(expanded);
    return cwd === null ? null : path.posix.resolve(cwd, expanded);
  }

  /** A heredoc or herestring fed to a shell or an interpreter is code too. */
  private stdinScript(allWords: string[], text: string, frame: Frame): void {
    // `echo … | sudo bash`, `| env -i sh`, `| nice python3`: the wrappers pass stdin through.
    let words = allWords;
    for (let guard = 0; guard < 8; guard += 1) {
      const head = programName(words[0] ?? '');
      const spec = Object.hasOwn(WRAPPERS, head) ? WRAPPERS[head] : undefined;
      if (head === 'env') {
        let i = 1;
        while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] ?? '') || (words[i] ?? '').startsWith('-'))) i += 1;
        words = words.slice(i);
      } else if (spec) {
        const rest = words.slice(1);
        const { index } = skipOptions(rest, WRAPPER_VALUE_OPTIONS.get(head) ?? []);
        words = rest.slice(index + (spec.skip ?? 0));
      } else break;
    }
    const name = programName(words[0] ?? '');
    const operands = words.slice(1).filter((w) => !w.startsWith('-') || w === '-');
    if (SHELLS.has(name) && !words.slice(1).some((w) => /^-[a-z]*c[a-z]*$/.test(w)) && operands.every((w) => w === '-')) {
      this.script(text, { ...frame, via: [...frame.via, `${name} <<stdin`], depth: frame.depth + 1 });
    }
    const family = interpreterFamily(name);
    if (family && operands.every((w) => w === '-')) this.inlineCode(family, text, frame, `${name} <<stdin`);
    // `echo 'all:; rm -rf ~' | make -f -`: make runs the recipes of the makefile on its stdin.
    if (name === 'make' || name === 'gmake') {
      const args = words.slice(1);
      const fromStdin = args.some((w, i) => ((w === '-f' || w === '--file' || w === '--makefile') && args[i + 1] === '-') || w === '-f-' || w === '--file=-' || w === '--makefile=-');
      if (fromStdin) for (const payload of makeRecipes(text, 'make -f - recipe')) this.channel(payload, frame);
    }
    // `echo 'rm -rf ~' | at now`: at and batch run their stdin with /bin/sh later (unless -f names a file).
    if ((name === 'at' || name === 'batch') && !words.slice(1).some((w) => /^-[a-zA-Z]*f/.test(w))) {
      this.script(text, { ...frame, via: [...frame.via, `${name} <<stdin`], depth: frame.depth + 1 });
    }
  }

  /**
   * `echo 'rm -rf ~' > x.sh && bash x.sh` (or `./x.sh`, `source x.sh`): literal text written to a
   * file earlier in the same command line is read as the script a later command runs from it.
   */
  private trackWrittenScript(raw: RawCommand, words: string[], frame: Frame): void {
    const text = printedText(raw);
    if (text !== undefined) {
      for (const redirect of raw.redirects) {
        if (/^\d*>>?\|?$|^&>>?$/.test(redirect.op) && redirect.target && !/^&?\d$/.test(redirect.target)) {
          const key = redirect.target.slice(redirect.target.lastIndexOf('/') + 1);
          // A manifest whose commands a tool runs later: package.json's install scripts, a Makefile's recipes.
          for (const payload of manifestCommands(key, text)) this.channel(payload, frame);
          // `>>` appends: the file runs everything written to it.
          const before = redirect.op.includes('>>') ? this.writtenScripts.get(key) : undefined;
          this.writtenScripts.set(key, before === undefined ? text : `${before}\n${text}`);
        }
      }
      return;
    }
    if (this.writtenScripts.size === 0) return;
    const name = programName(words[0] ?? '');
    const runner = SHELLS.has(name) || name === 'source' || name === '.';
    const operands = runner ? words.slice(1).filter((a) => !a.startsWith('-')).slice(0, 1) : [words[0] ?? ''];
    for (const operand of operands) {
      const script = this.writtenScripts.get(operand.slice(operand.lastIndexOf('/') + 1));
      if (script !== undefined) this.script(script, { ...frame, via: [...frame.via, `runs written ${operand}`], depth: frame.depth + 1 });
    }
  }

  argv(words: string[], frame: Frame): void {
    if (this.out.commands.length >= MAX_COMMANDS) {
      this.budget.stop('commands', `more than ${MAX_COMMANDS} commands: the rest were not read`);
      return;
    }
    const name = programName(words[0] ?? '');
    const args = words.slice(1);
    if (frame.depth > MAX_DEPTH) {
      this.emit([name, ...args], frame);
      return;
    }
    const deeper = (via: string, extra: Partial<Frame> = {}): Frame => ({ ...frame, ...extra, via: [...frame.via, via], depth: frame.depth + 1 });
    for (const payload of channelPayloads(name, args)) this.channel(payload, frame);
    // `smbclient -c 'put FILE'`, `-c 'get REMOTE FILE'`: the local files are operands like any other.
    if (name === 'smbclient') {
      const script = args.findIndex((a) => a === '-c' || a === '--command');
      const local = script >= 0 ? (args[script + 1] ?? '').split(';').flatMap((c) => /^\s*(put|mput|get|mget)\s+(.*)$/.exec(c)?.[2]?.trim().split(/\s+/).slice(0, 2) ?? []) : [];
      if (local.length > 0) {
        this.emit([name, ...args.filter((_, i) => i !== script && i !== script + 1), ...local], frame);
        return;
      }
    }

    if (name === 'busybox' || name === 'toybox') {
      if (args.length > 0) this.argv(args, deeper(name));
      else this.emit([name], frame);
      return;
    }
    if (name === 'env') return this.env(args, frame, deeper);
    if ((name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') && ['exec', 'dlx', 'x'].includes(args[0] ?? '')) {
      const { index } = skipOptions(args.slice(1), ['-p', '--package', '-c', '--call', '-w', '--workspace']);
      const rest = args.slice(1 + index);
      this.emit([name, ...args.slice(0, 1 + index)], frame);
      if (rest.length > 0) this.argv(rest, deeper(`${name} ${args[0]}`));
      return;
    }
    if (name === 'git') return this.git(args, frame);
    // `npm pkg set scripts.x="cmd"`, `npm set-script x "cmd"`: a script npm runs in a shell later.
    if (name === 'npm' || name === 'pnpm' || name === 'yarn') {
      const scripts = args[0] === 'set-script' && args[2] !== undefined ? [args[2]] : args[0] === 'pkg' && args[1] === 'set' ? args.slice(2).flatMap((a) => (/^scripts\.[^=]+=/.test(a) ? [a.slice(a.indexOf('=') + 1)] : [])) : [];
      for (const script of scripts) if (script.trim() !== '') this.channel({ via: `${name} script`, script }, frame);
    }
    if (name === 'xargs') return this.xargs(args, frame, deeper);
    if (name === 'parallel') return this.parallel(args, frame, deeper);
    if (name === 'find') return this.find(args, frame, deeper);
    if (name === 'ssh') return this.ssh(args, frame, deeper);
    if (name === 'eval') {
      this.emit([name, ...args], frame);
      if (args.length > 0) this.script(args.join(' '), deeper('eval'));
      return;
    }
    if (name === 'su') return this.su(args, frame, deeper);
    if (SHELLS.has(name)) return this.shell(name, args, frame, deeper);
    const family = interpreterFamily(name);
    if (family) return this.interpreter(name, family, args, frame);
    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (wrapper) {
      const { index, values } = skipOptions(args, WRAPPER_VALUE_OPTIONS.get(name) ?? []);
      const start = index + (wrapper.skip ?? 0);
      let cwd = frame.cwd;
      for (const [option, value] of values) if (wrapper.chdirOptions?.includes(option)) cwd = this.changeDir(cwd, value);
      this.emit([name, ...args.slice(0, start)], frame);
      const rest = args.slice(start);
      if (rest.length === 0) return;
      if (name === 'watch') this.script(rest.join(' '), deeper(name, { cwd }));
      else if (name === 'flock' && (rest[0] === '-c' || rest[0] === '--command')) this.script(rest.slice(1).join(' '), deeper(name, { cwd }));
      else this.argv(rest, deeper(name, { cwd }));
      return;
    }
    this.emit([name, ...args], frame);
  }

  private env(args: string[], frame: Frame, deeper: (via: string, extra?: Partial<Frame>) => Frame): void {
    const env = { ...frame.env };
    let cwd = frame.cwd;
    let i = 0;
    const queue = [...args];
    while (i < queue.length) {
      const arg = queue[i] ?? '';
      if (arg === '--') {
        i += 1;
        break;
      }
      if (arg === '-' || arg === '-i' || arg === '--ignore-environment' || arg === '-0' || arg === '-v' || arg === '--null' || arg === '--debug') {
        i += 1;
      } else if (/^-(u|-unset)(=|$)/.test(arg) || /^-u./.test(arg)) {
        i += arg === '-u' || arg === '--unset' ? 2 : 1;
      } else if (/^-(C|-chdir)(=|$)/.test(arg) || /^-C./.test(arg)) {
        const value = arg === '-C' || arg === '--chdir' ? queue[i + 1] : arg.replace(/^(-C|--chdir=)/, '');
        cwd = this.changeDir(cwd, value);
        i += arg === '-C' || arg === '--chdir' ? 2 : 1;
      } else if (/^-(P)(=|$)/.test(arg) || /^-P./.test(arg)) {
        i += arg === '-P' ? 2 : 1;
      } else if (/^-(S|-split-string)(=|$)/.test(arg) || /^-S./.test(arg)) {
        const value = arg === '-S' || arg === '--split-string' ? queue[i + 1] ?? '' : arg.replace(/^(-S|--split-string=)/, '');
        queue.splice(i, arg === '-S' || arg === '--split-string' ? 2 : 1, ...value.split(/\s+/).filter(Boolean));
      } else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) {
        const eq = arg.indexOf('=');
        env[arg.slice(0, eq)] = arg.slice(eq + 1);
        const payload = variablePayload(arg.slice(0, eq), arg.slice(eq + 1));
        if (payload) this.channel(payload, frame);
        i += 1;
      } else if (arg.startsWith('-')) {
        i += 1;
      } else {
        break;
      }
    }
    const rest = queue.slice(i);
    // Bare `env` prints the environment; with a command it is only a wrapper (recorded in `via`).
    if (rest.length === 0) this.emit(['env', ...queue.slice(0, i)], frame);
    else this.argv(rest, deeper('env', { cwd, env }));
  }

  private git(args: string[], frame: Frame): void {
    let cwd = frame.cwd;
    const env = { ...frame.env };
    let i = 0;
    while (i < args.length) {
      const arg = args[i] ?? '';
      if (arg === '--') {
        i += 1;
        break;
      }
      if (!arg.startsWith('-')) break;
      if (arg === '-C') {
        cwd = this.changeDir(cwd, args[i + 1]);
        i += 2;
      } else if (arg.startsWith('-C')) {
        cwd = this.changeDir(cwd, arg.slice(2));
        i += 1;
      } else if (arg === '-c' || (arg.startsWith('-c') && arg.includes('='))) {
        // `git -c alias.x='!cmd' x`, `-c core.pager=cmd`, `-c core.sshCommand=cmd`: git runs cmd in a shell.
        const payload = gitSettingPayload(arg === '-c' ? args[i + 1] ?? '' : arg.slice(2));
        if (payload) this.channel(payload, frame);
        i += arg === '-c' ? 2 : 1;
      } else if (arg === '--config-env' || arg.startsWith('--config-env=')) {
        // `git --config-env=core.pager=VAR`: the setting's value is $VAR. Known (an assignment in
        // effect), it is assessed like `-c key=value`; unknown, the setting runs "$VAR".
        const spec = arg === '--config-env' ? (args[i + 1] ?? '') : arg.slice('--config-env='.length);
        const eq = spec.lastIndexOf('=');
        if (eq > 0) {
          const name = spec.slice(eq + 1);
          const known = Object.prototype.hasOwnProperty.call(frame.env, name) ? frame.env[name] : undefined;
          const payload = gitSettingPayload(`${spec.slice(0, eq)}=${known ?? `"$${name}"`}`);
          if (payload) this.channel({ via: payload.via.replace(/^git /, 'git --config-env '), script: payload.script }, frame);
        }
        i += arg === '--config-env' ? 2 : 1;
      } else if (arg === '-c' || arg === '--git-dir' || arg === '--work-tree' || arg === '--namespace' || arg === '--exec-path' || arg === '--super-prefix' || arg === '--list-cmds') {
        if (arg === '--work-tree' || arg === '--git-dir') env[arg === '--git-dir' ? 'GIT_DIR' : 'GIT_WORK_TREE'] = args[i + 1] ?? '';
        i += 2;
      } else {
        const eq = arg.indexOf('=');
        if (eq > 0 && (arg.startsWith('--work-tree') || arg.startsWith('--git-dir'))) env[arg.startsWith('--git-dir') ? 'GIT_DIR' : 'GIT_WORK_TREE'] = arg.slice(eq + 1);
        i += 1;
      }
    }
    const via = cwd !== frame.cwd ? [...frame.via, 'git -C'] : frame.via;
    // `git config [--global] core.pager 'cmd'`: a setting git runs in a shell, stored for every later
    // git command — judged like `-c core.pager=cmd`.
    const rest = args.slice(i);
    if (rest[0] === 'config') {
      const words = rest.slice(1).filter((w) => !/^--(global|local|system|worktree|add|replace-all|type=\S+|bool|path|int)$/.test(w));
      const set = words[0] === 'set' ? words.slice(1) : words;
      const [key, value] = set;
      if (key !== undefined && value !== undefined && !key.startsWith('-')) {
        const payload = gitSettingPayload(`${key}=${value}`);
        if (payload) this.channel({ via: payload.via.replace(/^git /, 'git config '), script: payload.script }, frame);
      }
    }
    this.emit(['git', ...rest], { ...frame, cwd, env, via });
  }

  private xargs(args: string[], frame: Frame, deeper: (via: string, extra?: Partial<Frame>) => Frame): void {
    const valueOptions = ['-I', '-J', '-L', '-l', '-n', '-P', '-s', '-d', '-E', '-e', '-a', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-lines', '--max-chars', '--eof', '--process-slot-var', '--replace', '-R', '-S'];
    // `-i` and `--replace` take an optional attached value only.
    const { index, values } = skipOptions(args, valueOptions.filter((o) => o !== '--replace'));
    let placeholder: string | undefined;
    for (const [option, value] of values) {
      if (option === '-I' || option === '-J') placeholder = value || '{}';
      if (option === '-i' || option === '--replace') placeholder = value || '{}';
    }
    const template = args.slice(index);
    this.emit(['xargs', ...args.slice(0, index)], frame);
    const command = template.length > 0 ? template : ['echo'];
    const substituted = placeholder ? command.map((w) => w.split(placeholder ?? '{}').join(RUNTIME_VALUE)) : command;
    this.argv(substituted, deeper('xargs', { argsFromStdin: true }));
  }

  private parallel(args: string[], frame: Frame, deeper: (via: string, extra?: Partial<Frame>) => Frame): void {
    const valueOptions = ['-j', '--jobs', '-S', '--sshlogin', '--results', '--res', '-a', '--arg-file', '-d', '--delimiter', '-N', '--max-args', '-n', '--joblog', '--tmpdir', '--timeout', '--delay', '--colsep', '-C', '--workdir', '--wd', '-E', '--memfree', '--load', '--retries', '--tag-string', '--basefile', '--return', '--transfer-file'];
    const { index, values } = skipOptions(args, valueOptions);
    const remote = values.some(([o]) => o === '-S' || o === '--sshlogin');
    const rest = args.slice(index);
    const sep = rest.findIndex((w) => /^:::[:+]*$/.test(w));
    const template = sep < 0 ? rest : rest.slice(0, sep);
    const lists: string[][] = [];
    if (sep >= 0) {
      let current: string[] | undefined;
      for (const word of rest.slice(sep)) {
        if (/^:::[:+]*$/.test(word)) {
          current = [];
          lists.push(current);
        } else current?.push(word);
      }
    }
    this.emit(['parallel', ...args.slice(0, index)], frame);
    const next = deeper('parallel', { argsFromStdin: sep < 0, cwd: remote ? null : frame.cwd });
    if (template.length === 0) {
      for (const list of lists) for (const item of list) this.script(item, next);
      return;
    }
    const combos = combinations(lists.filter((l) => l.length > 0), 32);
    if (combos.length === 0) {
      this.argv(template.map((w) => w.replace(/\{[0-9]*[./#%]*\}/g, RUNTIME_VALUE)), next);
      return;
    }
    for (const combo of combos) {
      let used = false;
      const argv = template.map((w) =>
        w.replace(/\{([0-9]*)[./#%]*\}/g, (_m, n: string) => {
          used = true;
          return n ? combo[Number(n) - 1] ?? '' : combo.join(' ');
        }),
      );
      this.argv(used ? argv : [...argv, ...combo], next);
    }
  }

  private find(args: string[], frame: Frame, deeper: (via: string, extra?: Partial<Frame>) => Frame): void {
    const kept: string[] = [];
    // `{}` is a file found under the first search root: keep the root so `find / -exec rm {}` is judged by `/`.
    const root = args.find((a) => !/^[-(!)]/.test(a)) ?? '.';
    const match = `${root.replace(/\/+$/, '')}/${RUNTIME_VALUE}`;
    let i = 0;
    while (i < args.length) {
      const arg = args[i] ?? '';
      if (arg === '-exec' || arg === '-execdir' || arg === '-ok' || arg === '-okdir') {
        const end = args.findIndex((w, k) => k > i && (w === ';' || w === '+'));
        const stop = end < 0 ? args.length : end;
        const template = args.slice(i + 1, stop).map((w) => w.split('{}').join(match));
        if (template.length > 0) this.argv(template, deeper(`find ${arg}`));
        kept.push(arg);
        i = stop + 1;
        continue;
      }
      kept.push(arg);
      i += 1;
    }
    this.emit(['find', ...kept], frame);
  }

  private ssh(args: string[], frame: Frame, deeper: (via: string, extra?: Partial<Frame>) => Frame): void {
    const { index } = skipOptions(args, ['-p', '-i', '-l', '-o', '-F', '-J', '-L', '-R', '-D', '-b', '-c', '-E', '-e', '-m', '-O', '-Q', '-S', '-W', '-w', '-B', '-I']);
    const remote = args.slice(index + 1);
    this.emit(['ssh', ...args.slice(0, index + 1)], frame);
    if (remote.length > 0) this.script(remote.join(' '), deeper('ssh', { cwd: null }));
  }

  private su(args: string[], frame: Frame, deeper: (via: string, extra?: Partial<Frame>) => Frame): void {
    this.emit(['su', ...args], frame);
    const c = args.findIndex((w) => w === '-c' || w === '--command');
    const script = c >= 0 ? args[c + 1] : undefined;
    if (script) this.script(script, deeper('su -c'));
  }

  private shell(name: string, args: string[], frame: Frame, deeper: (via: string, extra?: Partial<Frame>) => Frame): void {
    let i = 0;
    let inline = false;
    while (i < args.length) {
      const arg = args[i] ?? '';
      if (arg === '--' || arg === '-') {
        i += 1;
        break;
      }
      if (!/^[-+]/.test(arg)) break;
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg)) inline = true;
      i += arg === '-o' || arg === '+o' || arg === '-O' || arg === '+O' || arg === '--rcfile' || arg === '--init-file' ? 2 : 1;
    }
    this.emit([name, ...args], frame);
    if (!inline) return;
    const script = args[i];
    if (script === undefined) {
      if (frame.argsFromStdin) this.emit([name, '-c', RUNTIME_VALUE], { ...frame, via: [...frame.via, `${name} -c`] });
      return;
    }
    this.script(script, deeper(`${name} -c`));
  }

  private interpreter(name: string, family: string, args: string[], frame: Frame): void {
    this.emit([name, ...args], frame);
    const inline = inlineCodeOf(family, args);
    if (inline) this.inlineCode(family, inline.code, frame, `${name} ${inline.option}`);
  }

  /**
   * A payload of an execution channel runs as a shell command: parsed as such, with the channel in
   * `via`. An empty payload is an interactive shell the program opens (recorded as `sh`).
   */
  private channel(payload: Payload, frame: Frame): void {
    const next = { ...frame, via: [...frame.via, payload.via], depth: frame.depth + 1 };
    // `ProxyCommand=;sh …`: a leading separator only ends an empty command.
    const script = payload.script.replace(/^[\s;&|]+/, '');
    if (script.trim() === '') this.emit(['sh'], next);
    else this.script(script, next);
  }

  private inlineCode(language: string, code: string, frame: Frame, via: string): void {
    const hosts = [...new Set(stringLiterals(code).flatMap((literal) => hostClasses(literal)))];
    this.out.code.push({ language, code, via: [...frame.via, via], paths: pathsInCode(code), hosts, cwd: frame.cwd, env: frame.env });
    for (const script of extractShellFromCode(code)) this.script(script, { ...frame, via: [...frame.via, via], depth: frame.depth + 1 });
  }

  private emit(argv: string[], frame: Frame): void {
    if (this.out.commands.length >= MAX_COMMANDS) {
      this.budget.stop('commands', `more than ${MAX_COMMANDS} commands: the rest were not read`);
      return;
    }
    if (frame.inputFrom.includes(UPSTREAM_OVERFLOW)) this.budget.stop('upstream', `a pipeline of more than ${READ_LIMITS.upstream} distinct programs: what flows into its later stages was not all read`);
    const written = this.trackDownloads(argv, frame);
    // `dd of=FILE` writes FILE.
    if (argv[0] === 'dd') for (const arg of argv) if (arg.startsWith('of=') && arg.length > 3) written.push(arg.slice(3));
    // `git log --output=/etc/passwd`, `pytest --log-file F`: an option naming a file the program writes.
    if (!DOWNLOADERS.has(argv[0] ?? '')) written.push(...outputOptionFiles(argv));
    this.out.commands.push({
      argv,
      cwd: frame.cwd,
      env: frame.env,
      via: frame.via,
      // A downloader's output file (`curl -o F`, `wget -O F`, `aria2c -d D -o F`) is written like `> F`.
      redirects: written.length > 0 ? [...frame.redirects, ...written.map((target) => ({ op: '>', target }))] : frame.redirects,
      inputFrom: frame.inputFrom,
      argsFromStdin: frame.argsFromStdin,
    });
  }

  /**
   * `curl -o x.sh URL && sh x.sh` (or `./x.sh`, `python x.py`) runs what was downloaded: the
   * runner is recorded a second time, as if the download were piped into it.
   */
  private trackDownloads(argv: string[], frame: Frame): string[] {
    const name = argv[0] ?? '';
    if (DOWNLOADERS.has(name)) {
      const options = argv.flatMap((arg, i) => (DOWNLOAD_OUTPUT_OPTIONS.has(arg) || /^-[a-zA-Z]+[oO]$/.test(arg) ? [argv[i + 1] ?? ''] : /^--output(-document)?=/.test(arg) ? [arg.slice(arg.indexOf('=') + 1)] : /^-[oO]./.test(arg) ? [arg.slice(2)] : [])).filter((o) => o !== '' && o !== '-');
      // aria2c writes into `-d DIR` (named by `-o`, or by the URL), wget into `-P DIR`.
      const dirOption = name === 'aria2c' ? ['-d', '--dir'] : name === 'wget' ? ['-P', '--directory-prefix'] : [];
      const dir = argv.flatMap((arg, i) => (dirOption.includes(arg) ? [argv[i + 1] ?? ''] : dirOption[1] !== undefined && arg.startsWith(`${dirOption[1]}=`) ? [arg.slice(dirOption[1].length + 1)] : dirOption[0] !== undefined && arg.startsWith(dirOption[0]) && arg.length > 2 && !arg.startsWith('--') ? [arg.slice(2)] : [])).at(-1);
      const written = dir ? (options.length > 0 ? options.map((o) => `${dir.replace(/\/+$/, '')}/${o}`) : [`${dir.replace(/\/+$/, '')}/download`]) : options;
      const outputs = [...written, ...frame.redirects.filter((r) => /^\d*>>?\|?$|^&>>?$/.test(r.op)).map((r) => r.target)];
      for (const output of outputs) if (output && output !== '-') this.downloaded.set(output.slice(output.lastIndexOf('/') + 1), name);
      return written;
    }
    if (this.downloaded.size === 0) return [];
    const runner = SHELLS.has(name) || interpreterFamily(name) !== undefined || name === 'source' || name === '.';
    const operands = runner ? argv.slice(1).filter((a) => !a.startsWith('-')).slice(0, 1) : [name];
    for (const operand of operands) {
      const downloader = this.downloaded.get(operand.slice(operand.lastIndexOf('/') + 1));
      if (downloader === undefined) continue;
      const program = runner ? name : 'sh';
      this.out.commands.push({ argv: [program], cwd: frame.cwd, env: frame.env, via: [...frame.via, `runs downloaded ${operand}`], redirects: [], inputFrom: [downloader], argsFromStdin: false });
    }
    return [];
  }

  private factor(text: string): void {
    if (!this.out.factors.includes(text)) this.out.factors.push(text);
  }
}

/** npm's lifecycle scripts that `npm install` (or `npm ci`, `npm pack`) runs by itself. */
const INSTALL_SCRIPTS = new Set(['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare', 'prepublish', 'prepack', 'postpack', 'dependencies']);

/** Commands a file written with this text makes a tool run later (see raw()): by the file's name. */
function manifestCommands(fileName: string, text: string): Payload[] {
  if (fileName === 'package.json') {
    const found: Payload[] = [];
    for (const m of text.matchAll(/"([A-Za-z:-]+)"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
      if (!INSTALL_SCRIPTS.has(m[1] ?? '')) continue;
      let script = m[2] ?? '';
      try {
        script = JSON.parse(`"${script}"`) as string;
      } catch {
        // an escape JSON does not know: the text as written
      }
      found.push({ via: `package.json scripts.${m[1]}`, script });
    }
    return found;
  }
  if (/^(GNUmakefile|[Mm]akefile)$|\.mk$/.test(fileName)) return makeRecipes(text, `${fileName} recipe`);
  return [];
}

/** The shell commands of a makefile's recipes: tab-indented lines, and what follows `target: prerequisites ;`. */
function makeRecipes(text: string, via: string): Payload[] {
  const found: Payload[] = [];
  for (const line of text.split('\n')) {
    const recipe = line.startsWith('\t') ? line.slice(1) : /^[^\t#=:]+::?[^=;]*;(.*)$/.exec(line)?.[1];
    if (recipe === undefined) continue;
    // `@` (silent), `-` (ignore errors) and `+` prefixes; `$$` is a `$` for the shell.
    const script = recipe.replace(/^[\s@+-]+/, '').replace(/\$\$/g, '$');
    if (script.trim() !== '') found.push({ via, script });
  }
  return found;
}

/** Long options that name a file the program writes, as `--name=FILE` or (those marked) `--name FILE`. */
const OUTPUT_OPTIONS = new Map<string, boolean>([
  ['--output', false],
  ['--output-file', true],
  ['--output-document', true],
  ['--outfile', true],
  ['--out-file', true],
  ['--log-file', true],
  ['--logfile', true],
]);

function outputOptionFiles(argv: string[]): string[] {
  const files: string[] = [];
  for (let i = 1; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!OUTPUT_OPTIONS.has(name)) continue;
    const value = eq > 0 ? arg.slice(eq + 1) : OUTPUT_OPTIONS.get(name) ? (argv[i + 1] ?? '') : '';
    if (value !== '' && value !== '-' && /^[~/.]/.test(value)) files.push(value);
  }
  return files;
}

export function programName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1).toLowerCase();
}

function combinations(lists: string[][], cap: number): string[][] {
  let result: string[][] = lists.length > 0 ? [[]] : [];
  for (const list of lists) {
    const next: string[][] = [];
    for (const prefix of result) for (const item of list) if (next.length < cap) next.push([...prefix, item]);
    result = next;
  }
  return result;
}
