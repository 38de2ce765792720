import path from 'node:path';
import { parseShell, printedText, UPSTREAM_OVERFLOW, type RawCommand, type Redirect } from './shell-parse.js';
import { READ_LIMITS, ReadBudget } from './budget.js';
import { channelPayloads, gitSettingPayload, recipesOf, variablePayload, type Payload } from './channels.js';
import { extractShellFromCode, pathsInCode, stringLiterals } from './inline-code.js';
import { hostClasses } from './hosts.js';
import { INTERPRETERS, LOADER, SHELLS, WRAPPERS, inlineCodeOf, interpreterFamily, skipOptions } from './wrappers.js';
import { FIND_MATCH } from './paths.js';
import {
  INSTALL_SCRIPTS,
  packageScripts,
  runnableContent,
  scriptLanguage,
  type FileRead,
  type Runnable,
} from './runnable-files.js';

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
  /** Files the command runs that could not be read to judge (too large, not a regular file, unreadable). */
  unread: string[];
}

export interface NormalizeContext {
  cwd: string | null;
  home: string;
  /** What reading may spend (default: a fresh READ_LIMITS budget); it notes what was not read. */
  budget?: ReadBudget;
  /**
   * Reads a file a command runs (a script by path, package.json for `npm test`, a Makefile for
   * `make`, conftest.py for `pytest`), bounded (see readRunFile); without it, such files are not read.
   */
  readFile?: (absolute: string) => FileRead;
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
  const out: Normalized = { commands: [], code: [], scripts: [], factors: [], parseErrors: 0, unread: [] };
  const walker = new Walker(out, context.home, context.budget ?? new ReadBudget(), context.readFile);
  walker.script(text, {
    cwd: context.cwd,
    env: {},
    via: [],
    depth: 0,
    inputFrom: [],
    argsFromStdin: false,
    redirects: [],
  });
  return out;
}

/**
 * What a file makes runnable (see runnable-files.ts), normalized as commands and code: the shell
 * payloads parsed with the file's origin in `via` (`writes package.json scripts.postinstall`).
 * For a file tool's write: the content is judged for what it will run.
 */
export function normalizeRunnable(runnable: Runnable, context: NormalizeContext & { verb: string }): Normalized {
  const out: Normalized = { commands: [], code: [], scripts: [], factors: [], parseErrors: 0, unread: [] };
  const walker = new Walker(out, context.home, context.budget ?? new ReadBudget(), context.readFile);
  const frame: Frame = {
    cwd: context.cwd,
    env: {},
    via: [],
    depth: 0,
    inputFrom: [],
    argsFromStdin: false,
    redirects: [],
  };
  walker.runnable(runnable, frame, context.verb);
  return out;
}

/** A shell named by its path: a word of its own, or inside an option value (after `=`, `,`, a quote, `!`, a space). */
const SHELL_PATH =
  /(?:^|[\s=,:'"!;(])((?:\/usr)?(?:\/local)?\/s?bin\/(?:ba|z|da|k|mk|c|tc|a|fi|r|y|po)?sh)(?=$|[\s,;'")])/;

/**
 * Programs that take a shell's path as data — they list, read, compare, copy, checksum, inspect,
 * watch or configure the file (`ls -l /bin/sh`, `chsh -s /bin/zsh`, `cp /bin/sh x`) — so a shell
 * path among their arguments is not a shell they start (see shellPathArguments).
 */
const SHELL_PATH_AS_DATA = new Set([
  'ls',
  'll',
  'cat',
  'bat',
  'file',
  'stat',
  'readlink',
  'realpath',
  'which',
  'whereis',
  'type',
  'hash',
  'test',
  '[',
  '[[',
  'ldd',
  'strings',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'b2sum',
  'cksum',
  'shasum',
  'md5',
  'du',
  'wc',
  'head',
  'tail',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'diff',
  'cmp',
  'hexdump',
  'xxd',
  'od',
  'objdump',
  'nm',
  'readelf',
  'otool',
  'lipo',
  'codesign',
  'spctl',
  'xattr',
  'mdls',
  'chmod',
  'chown',
  'chgrp',
  'chsh',
  'lchsh',
  'ypchsh',
  'usermod',
  'useradd',
  'adduser',
  'dscl',
  'cp',
  'mv',
  'ln',
  'install',
  'echo',
  'printf',
  'getfacl',
  'setfacl',
  'lsattr',
  'chattr',
  'dpkg',
  'dpkg-query',
  'dpkg-divert',
  'apt-file',
  'debsums',
  'update-alternatives',
  'alternatives',
  'tree',
  'touch',
  'rm',
  'unlink',
  'shellcheck',
  'shfmt',
  'less',
  'more',
  'sort',
  'uniq',
  'cut',
  'locate',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'set',
  'alias',
  'base64',
  'gpg',
  'patchelf',
  'chrpath',
  'upx',
  'strip',
  'getcap',
  'lsof',
  'fuser',
  'pgrep',
  'pkill',
  'killall',
  'ps',
  'auditctl',
  'aa-complain',
  'aa-enforce',
  'semanage',
  'restorecon',
  'tar',
  'gtar',
  'bsdtar',
  'zip',
  'unzip',
  'gzip',
  'xz',
  'bzip2',
  'zstd',
  '7z',
  'scp',
  'rsync',
  'sftp',
  'ssh',
  'docker',
  'podman',
  'nerdctl',
  'kubectl',
  'oc',
  'ctr',
  'crictl',
  'lxc',
  'vagrant',
  'gdb',
  'tmux',
  'awk',
  'gawk',
  'mawk',
  'nawk',
  'sed',
  'gsed',
  'vim',
  'vi',
  'nvim',
  'nano',
  'code',
  'subl',
  'emacs',
  'git',
  'man',
  'info',
  'apropos',
  'whatis',
  'command',
  'builtin',
  'compgen',
  'complete',
  'tput',
  'shasum',
  'rpm',
  'brew',
  'apt',
  'apt-get',
  'yum',
  'dnf',
  'apk',
  'pacman',
  'zypper',
  'snap',
  'flatpak',
  'nix',
  'nix-env',
  'port',
  'cat',
  'tac',
  'nl',
  'fold',
  'column',
  'jq',
  'yq',
  'find',
  'fd',
  'mdfind',
  'stat',
  'namei',
  'id',
  'getent',
  'sudoedit',
]);

/** Per wrapper, every option that takes a value (its chdir options included). */
const WRAPPER_VALUE_OPTIONS = new Map(
  Object.entries(WRAPPERS).map(([name, spec]) => [name, [...spec.valueOptions, ...(spec.chdirOptions ?? [])]]),
);

const DOWNLOADERS = new Set(['curl', 'wget', 'aria2c', 'http', 'https', 'fetch']);
const DOWNLOAD_OUTPUT_OPTIONS = new Set(['-o', '--output', '-O', '--output-document']);

class Walker {
  /** Files a downloader wrote earlier in the same command line, by basename → downloader. */
  private readonly downloaded = new Map<string, string>();
  /** Directories a `git clone` earlier in the same command line fills (absolute when the cwd is known). */
  private readonly cloned: string[] = [];
  /**
   * Files written earlier in the same command line with literal text (`echo 'rm -rf ~' > x.sh`), by basename → text.
   */
  private readonly writtenScripts = new Map<string, string>();

  /** Files read for what they run, in this assessment (each is read and judged once). */
  private readonly filesRead = new Set<string>();
  /** Simple commands this assessment may read: the limit, plus one more for each file read that got a budget. */
  private maxCommands = MAX_COMMANDS;

  constructor(
    private readonly out: Normalized,
    private readonly home: string,
    private readonly budget: ReadBudget,
    private readonly readFile?: (absolute: string) => FileRead,
  ) {}

  /** A runnable file's payloads and code, judged under `${verb} ${origin}` in via. */
  runnable(runnable: Runnable, frame: Frame, verb: string): void {
    for (const payload of runnable.scripts)
      this.channel({ via: `${verb} ${payload.via}`, script: payload.script }, frame);
    for (const code of runnable.code) this.inlineCode(code.language, code.code, frame, `${verb} ${code.via}`);
  }

  script(given: string, frame: Frame): void {
    // `eval "$(echo 'rm -rf ~')"`, `sh -c "$(printf …)"`: a substitution that only prints a literal is that literal.
    const printed = /^\s*(?:\$\(|`)\s*(?:echo|printf)\s+(?:-[neE]+\s+)?(['"])([\s\S]*)\1\s*(?:\)|`)\s*$/.exec(given);
    // …and so is one whose literal goes through a decoder: `sh -c "$(echo cm0gLXJmIH4= | base64 -d)"`.
    const text = printed ? (printed[2] ?? '') : (this.substitutionText(given) ?? given);
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
      this.factor(
        parsed.repairedWith !== undefined
          ? `parsed after closing an unterminated ${JSON.stringify(parsed.repairedWith)}`
          : 'shell syntax error: scored on the parts that parsed',
      );
    }
    const state = { ...frame, env: { ...frame.env } };
    for (const raw of parsed.commands) {
      // The commands this parse yielded are read (they are bounded by the command count).
      if (this.out.commands.length >= this.maxCommands) {
        this.budget.stop('commands', `more than ${this.maxCommands} commands: the rest were not read`);
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
      // Split as the shell splits an unquoted expansion: on the characters of IFS when it was set (`IFS=_; c=rm_-rf_~;
      // $c`).
      const ifs = env['IFS'];
      const separators = ifs === undefined ? /\s+/ : new RegExp(`[${ifs.replace(/[\\\]^-]/g, '\\$&')}]+`);
      const split = ifs === '' ? [expanded] : expanded.split(separators).filter((w) => w !== '');
      if (!unknown && split.length > 0) words.splice(0, 1, ...split);
    }
    // `$(echo rm) -rf ~`, `` `printf rm` -rf ~ ``: a substitution that only prints a literal is that literal.
    // `$(which sh)`, `` `command -v bash` ``: the program found on PATH by that name.
    for (let i = 0; i < words.length; i += 1) {
      const found = /^(?:\$\(|`)\s*(?:which|command\s+-v|type\s+-[pP]|whereis\s+-b)\s+([\w.+-]+)\s*(?:\)|`)$/.exec(
        words[i] ?? '',
      );
      if (found) words[i] = `/usr/bin/${found[1] ?? ''}`;
    }
    const printedName = /^(?:\$\(|`)\s*(?:echo|printf)\s+(?:-[neE]+\s+)?(['"]?)([^'"`()$;|&<>]*)\1\s*(?:\)|`)$/.exec(
      words[0] ?? '',
    );
    if (printedName && (printedName[2] ?? '').trim() !== '')
      words.splice(0, 1, ...(printedName[2] ?? '').trim().split(/\s+/));
    else if (/^(?:\$\(|`)/.test(words[0] ?? '')) {
      // `$(echo cm0gLXJmIH4= | base64 -d)`: a decoded literal in command position is the command it decodes to.
      const decoded = this.substitutionText(words[0] ?? '');
      if (decoded !== undefined && decoded.trim() !== '') {
        this.script([decoded, ...words.slice(1)].join(' '), {
          ...frame,
          via: [...frame.via, 'decoded $(…)'],
          depth: frame.depth + 1,
        });
        return;
      }
    }
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

  /**
   * The text a command substitution prints when it only prints a literal, maybe through decoders
   * (`$(echo … | base64 -d)`, `` `printf … | xxd -r -p` ``); undefined for anything else.
   */
  private substitutionText(text: string): string | undefined {
    const m = /^\s*(?:\$\(([\s\S]*)\)|`([\s\S]*)`)\s*$/.exec(text);
    const inner = m?.[1] ?? m?.[2];
    if (inner === undefined || !/\b(base64|base32|xxd|rev)\b/.test(inner) || !this.budget.reading) return undefined;
    const parsed = parseShell(inner, this.budget);
    const last = parsed.commands.at(-1);
    if (parsed.hasError || last === undefined) return undefined;
    return printedText(last);
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
        while (
          i < words.length &&
          (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] ?? '') || (words[i] ?? '').startsWith('-'))
        )
          i += 1;
        words = words.slice(i);
      } else if (spec) {
        const rest = words.slice(1);
        const { index } = skipOptions(rest, WRAPPER_VALUE_OPTIONS.get(head) ?? []);
        words = rest.slice(index + (spec.skip ?? 0));
      } else break;
    }
    const name = programName(words[0] ?? '');
    const operands = words.slice(1).filter((w) => !w.startsWith('-') || w === '-');
    if (SHELLS.has(name) && shellReadsStdin(words.slice(1))) {
      this.script(text, { ...frame, via: [...frame.via, `${name} <<stdin`], depth: frame.depth + 1 });
    }
    const family = interpreterFamily(name);
    if (family && operands.every((w) => w === '-')) this.inlineCode(family, text, frame, `${name} <<stdin`);
    // `echo 'all:; rm -rf ~' | make -f -`: make runs the recipes of the makefile on its stdin.
    if (name === 'make' || name === 'gmake') {
      const args = words.slice(1);
      const fromStdin = args.some(
        (w, i) =>
          ((w === '-f' || w === '--file' || w === '--makefile') && args[i + 1] === '-') ||
          w === '-f-' ||
          w === '--file=-' ||
          w === '--makefile=-',
      );
      if (fromStdin) for (const payload of recipesOf(text, 'make -f - recipe')) this.channel(payload, frame);
    }
    // `ed file <<< '!sh'`: ed (and ex) run a line starting with `!` as a shell command.
    if (
      name === 'ed' ||
      name === 'red' ||
      name === 'ex' ||
      ((name === 'vim' || name === 'vi') && words.includes('-e'))
    ) {
      for (const line of text.split('\n'))
        if (/^\s*:?!/.test(line)) this.channel({ via: `${name} !`, script: line.replace(/^\s*:?!/, '') }, frame);
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
          // A file whose content a tool runs later: package.json's scripts, a Makefile's recipes, a
          // task, an MCP server, a git hook, a CI workflow (see runnable-files.ts).
          const runnable = runnableContent(redirect.target, text);
          // A plain script is run (and judged) when a later part of the line runs it.
          if (
            runnable.scripts.every((p) => !p.via.startsWith('script ')) &&
            runnable.code.every((c) => !c.via.startsWith('script '))
          )
            this.runnable(runnable, frame, 'writes');
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
    const operands = runner
      ? words
          .slice(1)
          .filter((a) => !a.startsWith('-'))
          .slice(0, 1)
      : [words[0] ?? ''];
    for (const operand of operands) {
      const script = this.writtenScripts.get(operand.slice(operand.lastIndexOf('/') + 1));
      if (script !== undefined)
        this.script(script, { ...frame, via: [...frame.via, `runs written ${operand}`], depth: frame.depth + 1 });
    }
    // Handed to another program (`nmap --script=$TF`, `gdb -x $TF`, `python $TF`): the written text
    // is read as code — what it spawns runs (`os.execute("/bin/sh")`).
    if (runner) return;
    for (const arg of words.slice(1)) {
      const value = arg.startsWith('-') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
      if (value === '' || value.startsWith('-')) continue;
      const script = this.writtenScripts.get(value.slice(value.lastIndexOf('/') + 1));
      if (script !== undefined)
        this.inlineCode(interpreterFamily(name) ?? 'script', script, frame, `${name} reads written ${value}`);
    }
  }

  argv(words: string[], frame: Frame): void {
    if (this.out.commands.length >= this.maxCommands) {
      this.budget.stop('commands', `more than ${this.maxCommands} commands: the rest were not read`);
      return;
    }
    const name = programName(words[0] ?? '');
    const args = words.slice(1);
    if (frame.depth > MAX_DEPTH) {
      this.emit([name, ...args], frame);
      return;
    }
    const deeper = (via: string, extra: Partial<Frame> = {}): Frame => ({
      ...frame,
      ...extra,
      via: [...frame.via, via],
      depth: frame.depth + 1,
    });
    const payloads = channelPayloads(name, args);
    for (const payload of payloads) this.channel(payload, frame);
    if (this.readFile !== undefined) this.filesRun(name, words[0] ?? '', args, frame);
    // `smbclient -c 'put FILE'`, `-c 'get REMOTE FILE'`: the local files are operands like any other.
    if (name === 'smbclient') {
      const script = args.findIndex((a) => a === '-c' || a === '--command');
      const local =
        script >= 0
          ? (args[script + 1] ?? '')
              .split(';')
              .flatMap((c) => /^\s*(put|mput|get|mget)\s+(.*)$/.exec(c)?.[2]?.trim().split(/\s+/).slice(0, 2) ?? [])
          : [];
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
    if (
      (name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') &&
      ['exec', 'dlx', 'x'].includes(args[0] ?? '')
    ) {
      const { index } = skipOptions(args.slice(1), ['-p', '--package', '-c', '--call', '-w', '--workspace']);
      const rest = args.slice(1 + index);
      this.emit([name, ...args.slice(0, 1 + index)], frame);
      if (rest.length > 0) this.argv(rest, deeper(`${name} ${args[0]}`));
      return;
    }
    if (name === 'git') return this.git(args, frame);
    // `npm pkg set scripts.x="cmd"`, `npm set-script x "cmd"`: a script npm runs in a shell later.
    if (name === 'npm' || name === 'pnpm' || name === 'yarn') {
      const scripts =
        args[0] === 'set-script' && args[2] !== undefined
          ? [args[2]]
          : args[0] === 'pkg' && args[1] === 'set'
            ? args.slice(2).flatMap((a) => (/^scripts\.[^=]+=/.test(a) ? [a.slice(a.indexOf('=') + 1)] : []))
            : [];
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
    if (this.runsOperands(name, args, frame, deeper)) return;
    if (SHELLS.has(name)) return this.shell(name, args, frame, deeper);
    const family = interpreterFamily(name);
    if (family) return this.interpreter(name, family, args, frame);
    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (wrapper) {
      const { index, values } = skipOptions(args, WRAPPER_VALUE_OPTIONS.get(name) ?? []);
      const start = index + (wrapper.skip ?? 0);
      let cwd = frame.cwd;
      for (const [option, value] of values)
        if (wrapper.chdirOptions?.includes(option)) cwd = this.changeDir(cwd, value);
      this.emit([name, ...args.slice(0, start)], frame);
      const rest = args.slice(start);
      if (rest.length === 0) return;
      if (name === 'watch') this.script(rest.join(' '), deeper(name, { cwd }));
      else if (name === 'flock' && (rest[0] === '-c' || rest[0] === '--command'))
        this.script(rest.slice(1).join(' '), deeper(name, { cwd }));
      else this.argv(rest, deeper(name, { cwd }));
      return;
    }
    if (payloads.length === 0 && !SHELL_PATH_AS_DATA.has(name)) this.shellPathArguments(name, args, frame);
    this.emit([name, ...args], frame);
  }

  /**
   * Write, then run: a command that runs a file — a script by path (`./x.sh`, `bash scripts/x.sh`,
   * `python tools/x.py`, `source env.sh`), package.json's scripts (`npm install`, `npm test`, `yarn
   * build`), a makefile's recipes (`make`), conftest.py (`pytest`), setup.py (`pip install .`) — is
   * judged by the file's content, read now (see readRunFile). A file that cannot be read is noted
   * in `unread` (the answer is then at least `ask`); one that does not exist runs nothing yet.
   */
  private filesRun(name: string, word0: string, args: string[], frame: Frame): void {
    const dir = frame.cwd;
    const place = (p: string, from: string | null = dir): string | null => {
      const expanded = p === '~' || p.startsWith('~/') ? this.home + p.slice(1) : p;
      if (/[$`*?]/.test(expanded)) return null;
      if (path.posix.isAbsolute(expanded)) return path.posix.normalize(expanded);
      return from === null ? null : path.posix.resolve(from, expanded);
    };
    const operand = (list: string[], valueOptions: string[] = []): string | undefined => {
      for (let i = 0; i < list.length; i += 1) {
        const arg = list[i] ?? '';
        if (arg === '--') return list[i + 1];
        if (valueOptions.includes(arg)) i += 1;
        else if (!arg.startsWith('-') && !arg.startsWith('+')) return arg;
        else if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg) && SHELLS.has(name)) return undefined;
      }
      return undefined;
    };
    const script = (file: string | null, kind: 'script' | 'code' | 'shell', language?: string): void => {
      if (file === null) return;
      const text = this.readOnce(file);
      if (text === undefined) return;
      const shown = dir !== null && file.startsWith(`${dir}/`) ? file.slice(dir.length + 1) : file;
      if (kind === 'shell')
        return this.script(text, { ...frame, via: [...frame.via, `runs file ${shown}`], depth: frame.depth + 1 });
      const lang = kind === 'code' ? language : scriptLanguage(file, text);
      if (lang === 'shell')
        this.script(text, { ...frame, via: [...frame.via, `runs file ${shown}`], depth: frame.depth + 1 });
      else if (lang !== undefined) this.inlineCode(lang, text, frame, `runs file ${shown}`);
    };
    const family = interpreterFamily(name);
    if (word0.includes('/') && !SHELLS.has(name) && family === undefined && !Object.hasOwn(WRAPPERS, name))
      return script(place(word0), 'script');
    if (SHELLS.has(name) || name === 'source' || name === '.') {
      // A shell reading stdin (`| bash`, `| bash -s -- ARGS`) runs no file: its stdin is judged as a script.
      if (SHELLS.has(name) && shellReadsStdin(args)) return;
      const file = operand(args, [...SHELL_VALUE_OPTIONS]);
      return file === undefined ? undefined : script(place(file), 'shell');
    }
    if (family !== undefined && SCRIPT_RUNNERS.has(family) && inlineCodeOf(family, args) === undefined) {
      if (args.includes('-m') && /^(pytest|py\.test)$/.test(args[args.indexOf('-m') + 1] ?? ''))
        return this.conftest(dir, script);
      if (args.includes('-m') && /^pip$/.test(args[args.indexOf('-m') + 1] ?? ''))
        return this.pipInstall(args.slice(args.indexOf('-m') + 2), place, script);
      const file = operand(args, INTERPRETERS_VALUE_OPTIONS[family] ?? []);
      if (file === undefined || args.slice(0, args.indexOf(file)).includes('-m')) return;
      return script(place(file), 'code', family === 'deno' || family === 'bun' ? 'node' : family);
    }
    if (name === 'pytest' || name === 'py.test') return this.conftest(dir, script);
    if (/^pip[0-9.]*$/.test(name)) return this.pipInstall(args, place, script);
    if (name === 'nox') return script(place('noxfile.py'), 'code', 'python');
    if (name === 'make' || name === 'gmake') {
      const values = new Map(optionPairs(args, ['-f', '--file', '--makefile', '-C', '--directory']));
      const where =
        values.has('-C') || values.has('--directory')
          ? place(values.get('-C') ?? values.get('--directory') ?? '')
          : dir;
      const given = values.get('-f') ?? values.get('--file') ?? values.get('--makefile');
      const candidates = given !== undefined ? [given] : ['GNUmakefile', 'makefile', 'Makefile'];
      for (const candidate of candidates) {
        const file = place(candidate, where);
        if (file === null || given === '-') return;
        const text = this.readOnce(file);
        if (text === undefined) continue;
        for (const payload of recipesOf(text, `runs file ${path.posix.basename(file)} recipe`))
          this.channel(payload, frame);
        return;
      }
      return;
    }
    if (name === 'npm' || name === 'pnpm' || name === 'yarn' || name === 'bun') {
      const run = packageScriptsRun(name, args);
      if (run === undefined) return;
      const values = new Map(optionPairs(args, ['--prefix', '-C', '--cwd', '--dir']));
      const where = values.size > 0 ? place([...values.values()][0] ?? '') : dir;
      const file = place('package.json', where);
      if (file === null) return;
      const text = this.readOnce(file);
      if (text === undefined) return;
      const scripts = packageScripts(text);
      const next = where === dir ? frame : { ...frame, cwd: where };
      for (const key of run) {
        const body = scripts.get(key);
        if (body !== undefined && body.trim() !== '')
          this.channel({ via: `runs package.json scripts.${key}`, script: body }, next);
      }
    }
  }

  /** pytest runs conftest.py files (the rootdir's, and its tests/ or test/ directory's) as Python. */
  private conftest(dir: string | null, script: (file: string | null, kind: 'code', language: string) => void): void {
    if (dir === null) return;
    for (const file of ['conftest.py', 'tests/conftest.py', 'test/conftest.py'])
      script(path.posix.join(dir, file), 'code', 'python');
  }

  /** `pip install .` (or `-e .`, `./dir`): the directory's setup.py runs. */
  private pipInstall(
    args: string[],
    place: (p: string) => string | null,
    script: (file: string | null, kind: 'code', language: string) => void,
  ): void {
    if (args[0] !== 'install') return;
    for (const arg of args.slice(1))
      if (/^(\.|\.\.|\.?\.?\/\S*)$/.test(arg)) script(place(`${arg.replace(/\/+$/, '')}/setup.py`), 'code', 'python');
  }

  /**
   * A file's text, read once per assessment, within reasonable bounds: never under the system's
   * own trees (/proc, /dev, /etc, /usr …). A file that cannot be read is noted in `unread`.
   */
  private readOnce(file: string): string | undefined {
    if (this.readFile === undefined || this.filesRead.has(file) || NOT_READ_FOR_RUN.test(file)) return undefined;
    this.filesRead.add(file);
    const read = this.readFile(file);
    if (read === null) return undefined;
    if ('unreadable' in read) {
      this.out.unread.push(read.unreadable);
      return undefined;
    }
    // Reading the file gets a budget of its own (a 64 KiB script is judged, not cut short).
    if (this.budget.extend()) this.maxCommands += MAX_COMMANDS;
    return read.text;
  }

  /**
   * Programs that run a command given in their operands, beyond the plain wrappers: `capsh --`
   * (bash with the rest), the dynamic loader (`ld.so /bin/sh`), `ip netns exec NAME cmd`, and a
   * command run inside a container (`docker exec CTR cmd`, `kubectl exec POD -- cmd`: its directory
   * is not this machine's). True when the command was read here.
   */
  private runsOperands(
    name: string,
    args: string[],
    frame: Frame,
    deeper: (via: string, extra?: Partial<Frame>) => Frame,
  ): boolean {
    let rest: string[] | undefined;
    let via = name;
    let extra: Partial<Frame> = {};
    if (name === 'capsh') {
      const dd = args.indexOf('--');
      if (dd >= 0) rest = ['bash', ...args.slice(dd + 1)];
      via = 'capsh --';
    } else if (LOADER.test(name)) {
      const { index } = skipOptions(args, ['--library-path', '--preload', '--audit', '--argv0', '--inhibit-rpath']);
      rest = args.slice(index);
    } else if (name === 'ip') {
      const at = args.findIndex((a, i) => a === 'exec' && /^(netns|vrf|ne|net|netn)$/.test(args[i - 1] ?? ''));
      if (at > 0) rest = args.slice(at + 2);
      via = 'ip netns exec';
    } else if ((name === 'docker' || name === 'podman' || name === 'nerdctl') && args[0] === 'exec') {
      const { index } = skipOptions(args.slice(1), [
        '-e',
        '--env',
        '--env-file',
        '-u',
        '--user',
        '-w',
        '--workdir',
        '--detach-keys',
      ]);
      rest = args.slice(1 + index + 1);
      via = `${name} exec`;
      extra = { cwd: null };
    } else if ((name === 'kubectl' || name === 'oc') && args.includes('exec') && args.includes('--')) {
      rest = args.slice(args.indexOf('--') + 1);
      via = `${name} exec`;
      extra = { cwd: null };
    }
    if (rest === undefined) return false;
    this.emit([name, ...args.slice(0, args.length - rest.length)], frame);
    if (rest.length > 0) this.argv(rest, deeper(via, extra));
    return true;
  }

  /**
   * A shell named by its path among a program's arguments — as a word (`aa-exec /bin/sh`,
   * `valgrind /bin/sh`) or inside an option value (`--up '/bin/sh -c sh'`, `-wrapper /bin/sh,-s`,
   * `--checkpoint-action=exec=/bin/sh`) — is a shell the program starts, unless the program only
   * treats it as data (SHELL_PATH_AS_DATA: it lists, copies, checksums or configures the file).
   * GTFOBins' shell function for most programs has this shape.
   */
  private shellPathArguments(name: string, args: string[], frame: Frame): void {
    for (const arg of args) {
      const m = SHELL_PATH.exec(arg);
      if (!m) continue;
      const from = (m.index ?? 0) + m[0].indexOf(m[1] ?? '');
      let script = arg.slice(from);
      if (!/\s/.test(script)) script = script.replace(/,/g, ' ');
      this.channel({ via: `${name} runs ${m[1]}`, script }, frame);
      return;
    }
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
      if (
        arg === '-' ||
        arg === '-i' ||
        arg === '--ignore-environment' ||
        arg === '-0' ||
        arg === '-v' ||
        arg === '--null' ||
        arg === '--debug'
      ) {
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
        const value =
          arg === '-S' || arg === '--split-string' ? (queue[i + 1] ?? '') : arg.replace(/^(-S|--split-string=)/, '');
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
        const payload = gitSettingPayload(arg === '-c' ? (args[i + 1] ?? '') : arg.slice(2));
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
          if (payload)
            this.channel({ via: payload.via.replace(/^git /, 'git --config-env '), script: payload.script }, frame);
        }
        i += arg === '--config-env' ? 2 : 1;
      } else if (
        arg === '-c' ||
        arg === '--git-dir' ||
        arg === '--work-tree' ||
        arg === '--namespace' ||
        arg === '--exec-path' ||
        arg === '--super-prefix' ||
        arg === '--list-cmds'
      ) {
        if (arg === '--work-tree' || arg === '--git-dir')
          env[arg === '--git-dir' ? 'GIT_DIR' : 'GIT_WORK_TREE'] = args[i + 1] ?? '';
        i += 2;
      } else {
        const eq = arg.indexOf('=');
        if (eq > 0 && (arg.startsWith('--work-tree') || arg.startsWith('--git-dir')))
          env[arg.startsWith('--git-dir') ? 'GIT_DIR' : 'GIT_WORK_TREE'] = arg.slice(eq + 1);
        i += 1;
      }
    }
    const via = cwd !== frame.cwd ? [...frame.via, 'git -C'] : frame.via;
    // `git config [--global] core.pager 'cmd'`: a setting git runs in a shell, stored for every later
    // git command — judged like `-c core.pager=cmd`.
    const rest = args.slice(i);
    if (rest[0] === 'config') {
      const words = rest
        .slice(1)
        .filter((w) => !/^--(global|local|system|worktree|add|replace-all|type=\S+|bool|path|int)$/.test(w));
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
    const valueOptions = [
      '-I',
      '-J',
      '-L',
      '-l',
      '-n',
      '-P',
      '-s',
      '-d',
      '-E',
      '-e',
      '-a',
      '--arg-file',
      '--delimiter',
      '--max-args',
      '--max-procs',
      '--max-lines',
      '--max-chars',
      '--eof',
      '--process-slot-var',
      '--replace',
      '-R',
      '-S',
    ];
    // `-i` and `--replace` take an optional attached value only.
    const { index, values } = skipOptions(
      args,
      valueOptions.filter((o) => o !== '--replace'),
    );
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
    const valueOptions = [
      '-j',
      '--jobs',
      '-S',
      '--sshlogin',
      '--results',
      '--res',
      '-a',
      '--arg-file',
      '-d',
      '--delimiter',
      '-N',
      '--max-args',
      '-n',
      '--joblog',
      '--tmpdir',
      '--timeout',
      '--delay',
      '--colsep',
      '-C',
      '--workdir',
      '--wd',
      '-E',
      '--memfree',
      '--load',
      '--retries',
      '--tag-string',
      '--basefile',
      '--return',
      '--transfer-file',
    ];
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
    const combos = combinations(
      lists.filter((l) => l.length > 0),
      32,
    );
    if (combos.length === 0) {
      this.argv(
        template.map((w) => w.replace(/\{[0-9]*[./#%]*\}/g, RUNTIME_VALUE)),
        next,
      );
      return;
    }
    for (const combo of combos) {
      let used = false;
      const argv = template.map((w) =>
        w.replace(/\{([0-9]*)[./#%]*\}/g, (_m, n: string) => {
          used = true;
          return n ? (combo[Number(n) - 1] ?? '') : combo.join(' ');
        }),
      );
      this.argv(used ? argv : [...argv, ...combo], next);
    }
  }

  private find(args: string[], frame: Frame, deeper: (via: string, extra?: Partial<Frame>) => Frame): void {
    const kept: string[] = [];
    // `{}` is a file found under the first search root: keep the root so `find / -exec rm {}` is judged by `/`.
    const root = args.find((a) => !/^[-(!)]/.test(a)) ?? '.';
    const match = `${root.replace(/\/+$/, '')}/${FIND_MATCH}`;
    let i = 0;
    while (i < args.length) {
      const arg = args[i] ?? '';
      if (arg === '-exec' || arg === '-execdir' || arg === '-ok' || arg === '-okdir') {
        const end = args.findIndex((w, k) => k > i && (w === ';' || w === '+'));
        const stop = end < 0 ? args.length : end;
        const template = args.slice(i + 1, stop).map((w) => w.split('{}').join(match));
        if (template.length > 0) this.argv(template, deeper(`find ${arg}`));
        // `-exec rm {} +` deletes what find matches, as `-delete` would: the find-delete rules judge
        // which matches (no filter over the project root is everything in it).
        // (A relative root with no directory to place it stays a delete of run-time paths.)
        const placed = frame.cwd !== null || /^[/~]/.test(root);
        if (placed && /^(rm|unlink|shred|srm|rmdir|trash|trash-put)$/.test(programName(template[0] ?? '')))
          kept.push('-delete');
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
    const { index } = skipOptions(args, [
      '-p',
      '-i',
      '-l',
      '-o',
      '-F',
      '-J',
      '-L',
      '-R',
      '-D',
      '-b',
      '-c',
      '-E',
      '-e',
      '-m',
      '-O',
      '-Q',
      '-S',
      '-W',
      '-w',
      '-B',
      '-I',
    ]);
    const remote = args.slice(index + 1);
    this.emit(['ssh', ...args.slice(0, index + 1)], frame);
    if (remote.length > 0) this.script(remote.join(' '), deeper('ssh host', { cwd: null }));
  }

  private su(args: string[], frame: Frame, deeper: (via: string, extra?: Partial<Frame>) => Frame): void {
    this.emit(['su', ...args], frame);
    const c = args.findIndex((w) => w === '-c' || w === '--command');
    const script = c >= 0 ? args[c + 1] : undefined;
    if (script) this.script(script, deeper('su -c'));
  }

  private shell(
    name: string,
    args: string[],
    frame: Frame,
    deeper: (via: string, extra?: Partial<Frame>) => Frame,
  ): void {
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
      i +=
        arg === '-o' || arg === '+o' || arg === '-O' || arg === '+O' || arg === '--rcfile' || arg === '--init-file'
          ? 2
          : 1;
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
    this.out.code.push({
      language,
      code,
      via: [...frame.via, via],
      paths: pathsInCode(code),
      hosts,
      cwd: frame.cwd,
      env: frame.env,
    });
    for (const script of extractShellFromCode(code))
      this.script(script, { ...frame, via: [...frame.via, via], depth: frame.depth + 1 });
  }

  private emit(argv: string[], frame: Frame): void {
    if (this.out.commands.length >= this.maxCommands) {
      this.budget.stop('commands', `more than ${this.maxCommands} commands: the rest were not read`);
      return;
    }
    if (frame.inputFrom.includes(UPSTREAM_OVERFLOW))
      this.budget.stop(
        'upstream',
        `a pipeline of more than ${READ_LIMITS.upstream} distinct programs: what ` +
          `flows into its later stages was not all read`,
      );
    const written = this.trackDownloads(argv, frame);
    // `dd of=FILE` writes FILE.
    if (argv[0] === 'dd')
      for (const arg of argv) if (arg.startsWith('of=') && arg.length > 3) written.push(arg.slice(3));
    // `dd if=FILE` reads FILE, as `dd < FILE` would.
    const read =
      argv[0] === 'dd'
        ? argv.filter((a) => a.startsWith('if=') && a.length > 3).map((a) => ({ op: '<', target: a.slice(3) }))
        : [];
    // `git log --output=/etc/passwd`, `pytest --log-file F`: an option naming a file the program writes.
    if (!DOWNLOADERS.has(argv[0] ?? '')) written.push(...outputOptionFiles(argv));
    this.out.commands.push({
      argv,
      cwd: frame.cwd,
      env: frame.env,
      via: frame.via,
      // A downloader's output file (`curl -o F`, `wget -O F`, `aria2c -d D -o F`) is written like `> F`.
      redirects:
        written.length > 0 || read.length > 0
          ? [...frame.redirects, ...read, ...written.map((target) => ({ op: '>', target }))]
          : frame.redirects,
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
    if (name === 'git' && argv[1] === 'clone') this.trackClone(argv.slice(2), frame);
    else if (this.cloned.length > 0) this.runsCloned(argv, frame);
    // `curl URL | tar xz`, `wget URL && unzip x.zip`: the files extracted there came from the network.
    if (
      /^(tar|gtar|bsdtar|unzip|7z|7za)$/.test(name) &&
      (frame.inputFrom.some((p) => DOWNLOADERS.has(p)) ||
        argv.slice(1).some((a) => this.downloaded.has(a.slice(a.lastIndexOf('/') + 1))))
    ) {
      const at = argv.findIndex((a) => a === '-C' || a === '--directory' || a === '-d');
      const dir = at > 0 ? argv[at + 1] : argv.find((a) => a.startsWith('--directory='))?.slice(12);
      const target =
        dir === undefined
          ? frame.cwd
          : path.posix.isAbsolute(dir)
            ? dir
            : frame.cwd !== null
              ? path.posix.resolve(frame.cwd, dir)
              : dir;
      if (target !== null) this.cloned.push(target);
    }
    if (DOWNLOADERS.has(name)) {
      const options = argv
        .flatMap((arg, i) =>
          DOWNLOAD_OUTPUT_OPTIONS.has(arg) || /^-[a-zA-Z]+[oO]$/.test(arg)
            ? [argv[i + 1] ?? '']
            : /^--output(-document)?=/.test(arg)
              ? [arg.slice(arg.indexOf('=') + 1)]
              : /^-[oO]./.test(arg)
                ? [arg.slice(2)]
                : [],
        )
        .filter((o) => o !== '' && o !== '-');
      // aria2c writes into `-d DIR` (named by `-o`, or by the URL), wget into `-P DIR`.
      const dirOption = name === 'aria2c' ? ['-d', '--dir'] : name === 'wget' ? ['-P', '--directory-prefix'] : [];
      const dir = argv
        .flatMap((arg, i) =>
          dirOption.includes(arg)
            ? [argv[i + 1] ?? '']
            : dirOption[1] !== undefined && arg.startsWith(`${dirOption[1]}=`)
              ? [arg.slice(dirOption[1].length + 1)]
              : dirOption[0] !== undefined && arg.startsWith(dirOption[0]) && arg.length > 2 && !arg.startsWith('--')
                ? [arg.slice(2)]
                : [],
        )
        .at(-1);
      const written = dir
        ? options.length > 0
          ? options.map((o) => `${dir.replace(/\/+$/, '')}/${o}`)
          : [`${dir.replace(/\/+$/, '')}/download`]
        : options;
      const outputs = [
        ...written,
        ...frame.redirects.filter((r) => /^\d*>>?\|?$|^&>>?$/.test(r.op)).map((r) => r.target),
      ];
      for (const output of outputs)
        if (output && output !== '-') this.downloaded.set(output.slice(output.lastIndexOf('/') + 1), name);
      return written;
    }
    if (this.downloaded.size === 0) return [];
    const runner = SHELLS.has(name) || interpreterFamily(name) !== undefined || name === 'source' || name === '.';
    const operands = runner
      ? argv
          .slice(1)
          .filter((a) => !a.startsWith('-'))
          .slice(0, 1)
      : [name];
    for (const operand of operands) {
      const downloader = this.downloaded.get(operand.slice(operand.lastIndexOf('/') + 1));
      if (downloader === undefined) continue;
      const program = runner ? name : 'sh';
      this.out.commands.push({
        argv: [program],
        cwd: frame.cwd,
        env: frame.env,
        via: [...frame.via, `runs downloaded ${operand}`],
        redirects: [],
        inputFrom: [downloader],
        argsFromStdin: false,
      });
    }
    return [];
  }

  /** `git clone URL [DIR]`: DIR (or the URL's last segment) holds code fetched from the network. */
  private trackClone(args: string[], frame: Frame): void {
    const valued = new Set([
      '--depth',
      '-b',
      '--branch',
      '-o',
      '--origin',
      '-c',
      '--config',
      '--template',
      '--reference',
      '--separate-git-dir',
      '-j',
      '--jobs',
      '--filter',
      '-u',
      '--upload-pack',
      '--shallow-since',
      '--shallow-exclude',
      '--server-option',
    ]);
    const operands: string[] = [];
    for (let i = 0; i < args.length; i += 1) {
      const arg = args[i] ?? '';
      if (valued.has(arg)) i += 1;
      else if (!arg.startsWith('-')) operands.push(arg);
    }
    const [url, dir] = operands;
    if (url === undefined) return;
    const name =
      dir ??
      url
        .replace(/\/+$/, '')
        .replace(/\.git$/, '')
        .split(/[/:]/)
        .pop() ??
      '';
    if (name === '' || /[$`]/.test(name)) return;
    const expanded = name.startsWith('~/') ? path.posix.join(this.home, name.slice(2)) : name;
    this.cloned.push(
      path.posix.isAbsolute(expanded)
        ? path.posix.normalize(expanded)
        : frame.cwd !== null
          ? path.posix.resolve(frame.cwd, expanded)
          : expanded,
    );
  }

  /**
   * `git clone URL && cd repo && ./install.sh` (or `make`, `npm install`, `pip install .`, `bash
   * repo/setup.sh`): code from a repository cloned in the same command line runs, as a download
   * piped into a shell would. The runner is recorded a second time, taking input from `git-clone`.
   */
  private runsCloned(argv: string[], frame: Frame): void {
    const name = argv[0] ?? '';
    const inClone = (p: string | null): boolean =>
      p !== null && this.cloned.some((d) => p === d || p.startsWith(`${d}/`));
    const place = (p: string): string =>
      path.posix.isAbsolute(p)
        ? path.posix.normalize(p)
        : frame.cwd !== null
          ? path.posix.resolve(frame.cwd, p)
          : path.posix.normalize(p);
    const runner = SHELLS.has(name) || interpreterFamily(name) !== undefined || name === 'source' || name === '.';
    const operand = runner ? argv.slice(1).find((a) => !a.startsWith('-')) : undefined;
    const runsFile = operand !== undefined && inClone(place(operand));
    const builds =
      inClone(frame.cwd) &&
      (CLONE_RUNNERS.test(argv.join(' ')) ||
        (!runner &&
          /\.(sh|bash|py|pl|rb|js|mjs|ts|ps1)$|^(install|setup|configure|bootstrap|build|run|init|deploy)$/.test(
            name,
          )));
    if (!runsFile && !builds) return;
    this.out.commands.push({
      argv: [runner ? name : 'sh'],
      cwd: frame.cwd,
      env: frame.env,
      via: [...frame.via, `runs fetched ${operand ?? name}`],
      redirects: [],
      inputFrom: ['git-clone'],
      argsFromStdin: false,
    });
  }

  private factor(text: string): void {
    if (!this.out.factors.includes(text)) this.out.factors.push(text);
  }
}

/** Commands that run a project's own code (its build, install or test scripts) in the directory they run in. */
const CLONE_RUNNERS = new RegExp(
  String.raw`^(make|gmake|cmake|ninja|just|task|npm (i|` +
    String.raw`install|ci|run|run-script|test|start|exec)|` +
    String.raw`yarn|pnpm (i|install|run|test|start)|bun (i|` +
    String.raw`install|run|test)|pip[0-9.]* install( .*)? (\.|` +
    String.raw`-e \.|\.\/?\S*)( |$)|python[0-9.]* (setup\.py|` +
    String.raw`-m pip install)|poetry (install|run)|uv (sync|` +
    String.raw`run|pip install)|cargo (run|build|test|install)|` +
    String.raw`go (run|generate|test|build|install)|bundle (install|` +
    String.raw`exec)|rake|gradlew?|mvnw?|ant|composer (install|` +
    String.raw`run)|pytest|tox|nox|deno (run|task)|docker (compose|` +
    String.raw`build)|docker-compose)( |$)`,
);

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

/** Interpreter families whose file operand is a script they run (an editor's or package tool's is not). */
const SCRIPT_RUNNERS = new Set([
  'python',
  'node',
  'perl',
  'ruby',
  'php',
  'lua',
  'deno',
  'bun',
  'r',
  'rscript',
  'julia',
  'pwsh',
  'powershell',
  'osascript',
  'tclsh',
  'groovy',
  'elixir',
  'guile',
  'racket',
]);

/** Where files run by a command are never read from: the system's own trees and pseudo-filesystems. */
const NOT_READ_FOR_RUN = /^\/(proc|sys|dev|run|etc|usr|bin|sbin|lib\w*|boot|var\/(lib|log|run|spool|cache))(\/|$)/;

/** Per interpreter family, its options that take a value (so a script operand is found after them). */
const INTERPRETERS_VALUE_OPTIONS: Record<string, string[]> = Object.fromEntries(
  Object.entries(INTERPRETERS).map(([family, spec]) => [family, spec.valueOptions]),
);

/** The values of the named options (`-f X`, `--file=X`, `-CX`). */
function optionPairs(args: string[], names: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    for (const name of names) {
      if (arg === name) pairs.push([name, args[i + 1] ?? '']);
      else if (name.startsWith('--') && arg.startsWith(`${name}=`)) pairs.push([name, arg.slice(name.length + 1)]);
      else if (!name.startsWith('--') && arg.startsWith(name) && arg.length > name.length && !arg.startsWith('--'))
        pairs.push([name, arg.slice(name.length)]);
    }
  }
  return pairs;
}

/** Built-in subcommands of the package managers, which name no script of package.json. */
const PACKAGE_MANAGER_COMMANDS = new Set([
  'add',
  'remove',
  'rm',
  'upgrade',
  'up',
  'update',
  'why',
  'info',
  'init',
  'create',
  'global',
  'cache',
  'config',
  'set',
  'get',
  'list',
  'ls',
  'outdated',
  'audit',
  'link',
  'unlink',
  'pack',
  'publish',
  'login',
  'logout',
  'version',
  'versions',
  'help',
  'bin',
  'dlx',
  'exec',
  'x',
  'import',
  'licenses',
  'node',
  'owner',
  'patch',
  'plugin',
  'policies',
  'prune',
  'rebuild',
  'root',
  'search',
  'store',
  'tag',
  'team',
  'unplug',
  'workspace',
  'workspaces',
  'dedupe',
  'fetch',
  'env',
  'doctor',
  'setup',
  'server',
  'patch-commit',
  'why',
  'explain',
  'view',
  'show',
  'pkg',
  'ci',
  'i',
  'install',
  'run',
  'run-script',
  'test',
  't',
  'tst',
  'start',
  'stop',
  'restart',
  'uninstall',
  'un',
  'isntall',
  'in',
  'build',
  'upgrade-interactive',
  'generate-lock-entry',
  'check',
  'autoclean',
  'licenses',
  'import',
  'completion',
  'pm',
  'x',
  'link',
  'outdated',
  'agent',
]);

/** The scripts of package.json a package-manager command runs, in order; undefined when it runs none. */
function packageScriptsRun(name: string, args: string[]): string[] | undefined {
  const words = args.filter((a) => !a.startsWith('-'));
  const [verb, target] = words;
  const lifecycle = (script: string) => [`pre${script}`, script, `post${script}`];
  if (verb === undefined) return name === 'yarn' || name === 'bun' ? INSTALL_SCRIPTS : undefined;
  if (['install', 'i', 'in', 'ci', 'isntall'].includes(verb)) return words.length === 1 ? INSTALL_SCRIPTS : undefined;
  if (['test', 't', 'tst'].includes(verb)) return name === 'bun' ? undefined : lifecycle('test');
  if (['start', 'stop', 'restart'].includes(verb)) return lifecycle(verb);
  if (['run', 'run-script', 'rum', 'urn'].includes(verb))
    return target === undefined || /\.[cm]?[jt]sx?$/.test(target) ? undefined : lifecycle(target);
  if (
    (name === 'yarn' || name === 'pnpm' || name === 'bun') &&
    !PACKAGE_MANAGER_COMMANDS.has(verb) &&
    !/\.[cm]?[jt]sx?$/.test(verb)
  )
    return lifecycle(verb);
  return undefined;
}

/** A shell's options that take a value (`bash -o pipefail`, `--rcfile FILE`). */
const SHELL_VALUE_OPTIONS = new Set(['-o', '+o', '-O', '+O', '--rcfile', '--init-file']);

/**
 * Whether a shell run with these arguments reads its commands from stdin: not with `-c` (the
 * commands are its text); with `-s` (the operands are arguments: `curl … | bash -s -- --yes`);
 * otherwise when no script file is named, or it is `-`.
 */
export function shellReadsStdin(args: string[]): boolean {
  let fromStdin = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '--') return fromStdin || args[i + 1] === undefined || args[i + 1] === '-';
    if (SHELL_VALUE_OPTIONS.has(arg)) i += 1;
    else if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg)) return false;
    else if (/^-[a-zA-Z]*s[a-zA-Z]*$/.test(arg)) fromStdin = true;
    else if (arg === '-' || !(arg.startsWith('-') || arg.startsWith('+'))) return fromStdin || arg === '-';
  }
  return true;
}
