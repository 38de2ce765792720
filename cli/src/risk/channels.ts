/**
 * Command-execution channels: programs that run a shell command given to them as an option value,
 * a config setting, an environment variable or a line of their own language. Each finder reads one
 * program's arguments and returns the payloads it would run, with a label naming the channel
 * (`awk system()`, `git core.pager`, `ssh ProxyCommand` …). The normalizer parses every payload as
 * shell, under that label in `via`, so a payload is judged like any command, and the evidence
 * says which channel carried it. A payload of `''` stands for an interactive shell the program
 * opens (`vim -c ':shell'`).
 */
export interface Payload {
  via: string;
  script: string;
}

type Finder = (args: string[]) => Payload[];

/** A double- or single-quoted string literal, captured without its quotes. */
const QUOTED = String.raw`"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'`;
const unescape = (text: string) => text.replace(/\\(["'\\])/g, '$1').replace(/\\n/g, '\n');

/** awk's program: `system("…")`, `"…" | getline`, `print … | "…"`. */
const AWK_SYSTEM = new RegExp(String.raw`\bsystem\s*\(\s*(?:${QUOTED})`, 'g');
const AWK_GETLINE = new RegExp(String.raw`(?:${QUOTED})\s*\|\s*getline`, 'g');
const AWK_PRINT_PIPE = new RegExp(String.raw`\b(?:print|printf)\b[^|;}]*\|\s*(?:${QUOTED})`, 'g');

function awk(args: string[]): Payload[] {
  // The program is the first operand, after options (-F sep, -v var=val, -f file: no program).
  const valueOptions = new Set([
    '-F',
    '-v',
    '-f',
    '--field-separator',
    '--assign',
    '--file',
    '-i',
    '--include',
    '-l',
    '--load',
    '-E',
    '--exec',
  ]);
  let program: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      program = args[i + 1];
      break;
    }
    if (valueOptions.has(arg)) {
      if (arg === '-f' || arg === '--file' || arg === '-E' || arg === '--exec') return [];
      i += 1;
      continue;
    }
    if (/^-[Fv]./.test(arg) || /^--\w[\w-]*=/.test(arg)) continue;
    if (arg.startsWith('-') && arg !== '-') continue;
    program = arg;
    break;
  }
  if (program === undefined) return [];
  const found: Payload[] = [];
  for (const [re, via] of [
    [AWK_SYSTEM, 'awk system()'],
    [AWK_GETLINE, 'awk "cmd" | getline'],
    [AWK_PRINT_PIPE, 'awk print | "cmd"'],
  ] as const) {
    for (const m of program.matchAll(re)) found.push({ via, script: unescape(m[1] ?? m[2] ?? '') });
  }
  // A system() whose command is built at run time still runs a shell.
  if (found.length === 0 && /\bsystem\s*\(/.test(program)) found.push({ via: 'awk system()', script: '' });
  return found;
}

/** An editor's or pager's own command line: `:!cmd`, `:shell`, `:call system('…')`, `:py os.system(…)`. */
function editorCommand(command: string, via: string): Payload[] {
  // `:set shell=/bin/sh|:shell`: `|` separates commands (but belongs to a `:!` command's shell text).
  const bar = command.indexOf('|');
  if (bar > 0 && !/^\s*:*\s*!/.test(command))
    return [...editorCommand(command.slice(0, bar), via), ...editorCommand(command.slice(bar + 1), via)];
  // Ex modifiers before the command itself: `:silent !cmd`, `:sil! exe '!cmd'`, `:noautocmd`, `:keepalt`, `:verbose`.
  const text = command
    .trim()
    .replace(/^:+\s*/, '')
    .replace(
      /^(?:(?:sil(?:ent)?!?|unsil(?:ent)?|noa(?:utocmd)?|keepa(?:lt)?|keepj(?:umps)?|verb(?:ose)?|uns(?:ilent)?)\s+)+/,
      '',
    )
    .replace(/^exe(?:c|cu|cut|cute)?\s+(['"])(.*)\1\s*$/s, '$2')
    .replace(/^:+\s*/, '');
  if (text.startsWith('!')) return [{ via: `${via} :!`, script: text.slice(1) }];
  if (/^(sh|she|shel|shell|terminal|term)\b/.test(text)) return [{ via: `${via} :shell`, script: '' }];
  const found: Payload[] = [];
  for (const m of text.matchAll(
    new RegExp(String.raw`\b(?:system|systemlist|jobstart|termopen)\s*\(\s*(?:${QUOTED})`, 'g'),
  ))
    found.push({ via: `${via} system()`, script: unescape(m[1] ?? m[2] ?? '') });
  const py = /^(?:py|python|py3|python3|pyx|perl|ruby|lua|pe|rub)\s*(.*)$/s.exec(text);
  if (py && /\bos\.(system|popen|exec\w*)|subprocess|pty\.spawn|\bsystem\s*\(|\bexec\b|os\.execute/.test(py[1] ?? '')) {
    for (const m of (py[1] ?? '').matchAll(
      new RegExp(String.raw`\b(?:system|popen|execute|spawn|call|run|exec\w*)\s*\(\s*(?:\[\s*)?(?:${QUOTED})`, 'g'),
    ))
      found.push({ via: `${via} :${text.split(/\s/)[0]}`, script: unescape(m[1] ?? m[2] ?? '') });
    if (found.length === 0) found.push({ via: `${via} :${text.split(/\s/)[0]}`, script: '' });
  }
  return found;
}

function vim(args: string[]): Payload[] {
  const found: Payload[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if ((arg === '-c' || arg === '--cmd' || arg === '-S') && args[i + 1] !== undefined) {
      if (arg !== '-S') found.push(...editorCommand(args[i + 1] ?? '', `vim ${arg}`));
      i += 1;
    } else if (arg.startsWith('+') && arg.length > 1) {
      found.push(...editorCommand(arg.slice(1), 'vim +'));
    }
  }
  return found;
}

/** less/more: `+cmd` runs a pager command at start (`+!sh`). */
function pager(args: string[]): Payload[] {
  const found: Payload[] = [];
  for (const arg of args) {
    if (/^\+\+?!/.test(arg)) found.push({ via: 'less +!', script: arg.replace(/^\+\+?!/, '') });
    else if (/^--?(lesskey-src|lesskey-content)/.test(arg)) found.push({ via: 'less --lesskey', script: '' });
  }
  return found;
}

/** man: `-P pager`, `--pager=…`, `-H browser`, `--html=…` are shell commands. */
function man(args: string[]): Payload[] {
  const found: Payload[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const option = /^(-P|--pager|-H|--html)(=?)(.*)$/.exec(arg);
    if (!option) continue;
    const value = option[3] !== '' ? option[3] : option[2] === '=' ? '' : args[(i += 1)];
    if (value) found.push({ via: `man ${option[1]}`, script: value });
  }
  return found;
}

/** `--opt=value`, `--opt value`, `-o value`, `-ovalue`: every value given to one of `names`. */
function optionValues(args: string[], names: string[]): Array<[string, string]> {
  const values: Array<[string, string]> = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg === '--') break;
    for (const name of names) {
      if (arg === name) values.push([name, args[i + 1] ?? '']);
      // A cluster of flags ending in the option's letter (`script -qc CMD`).
      else if (
        !name.startsWith('--') &&
        name.length === 2 &&
        /^-[a-zA-Z]+$/.test(arg) &&
        arg.length > 2 &&
        arg.endsWith(name.slice(1))
      )
        values.push([name, args[i + 1] ?? '']);
      else if (name.startsWith('--') && arg.startsWith(`${name}=`)) values.push([name, arg.slice(name.length + 1)]);
      else if (!name.startsWith('--') && name.length === 2 && arg.startsWith(name) && arg.length > 2)
        values.push([name, arg.slice(2)]);
    }
  }
  return values;
}

function tar(args: string[]): Payload[] {
  const found: Payload[] = [];
  for (const [name, value] of optionValues(args, [
    '--checkpoint-action',
    '--to-command',
    '--use-compress-program',
    '-I',
    '--info-script',
    '--new-volume-script',
    '-F',
    '--rsh-command',
  ])) {
    if (name === '--checkpoint-action') {
      const exec = /^exec=(.*)$/s.exec(value);
      if (exec) found.push({ via: 'tar --checkpoint-action=exec', script: exec[1] ?? '' });
    } else if (value) found.push({ via: `tar ${name}`, script: value });
  }
  return found;
}

function zip(args: string[]): Payload[] {
  return optionValues(args, ['-TT', '--unzip-command']).map(([name, value]) => ({ via: `zip ${name}`, script: value }));
}

/** rsync -e / --rsh, and --rsync-path (run on the remote side, so also a shell command). */
function rsync(args: string[]): Payload[] {
  return optionValues(args, ['-e', '--rsh', '--rsync-path'])
    .filter(([, value]) => value !== '')
    .map(([name, value]) => ({ via: `rsync ${name}`, script: value }));
}

/** ssh options that name a command, by their lower-cased key; any other such option is `RemoteCommand`. */
const SSH_COMMAND_OPTIONS: Record<string, string> = {
  proxycommand: 'ProxyCommand',
  localcommand: 'LocalCommand',
  knownhostscommand: 'KnownHostsCommand',
};

/** ssh/scp/sftp `-o ProxyCommand=…` / `LocalCommand`, scp/sftp `-S program`, ssh `-F config` is left alone. */
function sshOptions(program: string): Finder {
  return (args) => {
    const found: Payload[] = [];
    for (const [, value] of optionValues(args, ['-o'])) {
      const option =
        /^\s*(ProxyCommand|LocalCommand|KnownHostsCommand|RemoteCommand|PermitLocalCommand)\s*(?:=|\s)\s*(.*)$/is.exec(
          value,
        );
      if (!option || /^PermitLocalCommand$/i.test(option[1] ?? '')) continue;
      const key = (option[1] ?? '').toLowerCase();
      // RemoteCommand runs on the other host; the rest run here.
      if (option[2] && option[2].toLowerCase() !== 'none')
        found.push({
          via: `${program} ${SSH_COMMAND_OPTIONS[key] ?? 'RemoteCommand'}`,
          script: option[2],
        });
    }
    if (program !== 'ssh')
      for (const [, value] of optionValues(args, ['-S']))
        if (value) found.push({ via: `${program} -S`, script: value });
    return found;
  };
}

/** `git -c key=value` settings whose value git runs with a shell. */
const GIT_COMMAND_SETTINGS = new RegExp(
  String.raw`^(core\.(pager|sshcommand|editor|fsmonitor|` +
    String.raw`askpass|hookspath_)|sequence\.editor|diff\.external|` +
    String.raw`diff\.[^.]+\.(textconv|command)|merge\.[^.]+\.driver|` +
    String.raw`filter\.[^.]+\.(clean|smudge|process)|pager\.[^.=]+|` +
    String.raw`gpg\.(program|[^.]+\.program)|interactive\.difffilter|` +
    String.raw`credential(\.[^=]+)?\.helper|core\.gitproxy|` +
    String.raw`uploadpack\.packobjectshook|web\.browser|` +
    String.raw`browser\.[^.]+\.cmd|man\.[^.]+\.cmd|sendemail\.(smtpserver|` +
    String.raw`tocmd|cccmd))$`,
  'i',
);

/** The payload of one git setting, or undefined when the setting runs nothing. */
export function gitSettingPayload(setting: string): Payload | undefined {
  const eq = setting.indexOf('=');
  if (eq <= 0) return undefined;
  const key = setting.slice(0, eq);
  const value = setting.slice(eq + 1);
  if (/^alias\./i.test(key)) return value.startsWith('!') ? { via: 'git alias', script: value.slice(1) } : undefined;
  if (!GIT_COMMAND_SETTINGS.test(key) || value === '' || /^(true|false|cat|less|more)$/i.test(value)) return undefined;
  // A credential helper runs in a shell only when it starts with `!`; otherwise it names git-credential-<value>.
  if (/^credential/i.test(key))
    return value.startsWith('!') ? { via: `git ${key}`, script: value.slice(1) } : undefined;
  return {
    via: `git ${key.toLowerCase().replace(/^core\.sshcommand$/, 'core.sshCommand')}`,
    script: value.replace(/^!/, ''),
  };
}

/** `git clone 'ext::sh -c …'`: the ext transport runs its URL as a command. */
function gitUrls(args: string[]): Payload[] {
  return args.filter((a) => /^ext::/.test(a)).map((a) => ({ via: 'git ext::', script: extCommand(a.slice(5)) }));
}

/**
 * An ext:: URL's command: words split at spaces; `% ` is a space inside a word, `%%` a percent, `%s`/`%S` the service
 * name.
 */
function extCommand(url: string): string {
  const words = url
    .split(/(?<!%) /)
    .map((word) =>
      word.replace(/%(.)/g, (_m, c: string) =>
        c === ' ' ? ' ' : c === '%' ? '%' : c === 's' || c === 'S' ? 'git-upload-pack' : c === 'G' ? '' : c,
      ),
    );
  return words.map((w) => (/^[\w@%+=:,./~-]+$/.test(w) ? w : `'${w.replace(/'/g, "'\\''")}'`)).join(' ');
}

/**
 * `script -c cmd`, `runuser -c`, `sg group -c`, `expect -c 'spawn …'`, `gdb -ex '!cmd'`, `tmux new 'cmd'`, `apt-get -o
 * …::Pre-Invoke::=cmd`.
 */
function script(args: string[]): Payload[] {
  const commands = optionValues(args, ['-c', '--command']).map(([, value]) => ({ via: 'script -c', script: value }));
  // Without -c, script starts an interactive shell ($SHELL) and records it.
  return commands.length > 0 ? commands : [{ via: 'script (shell)', script: '' }];
}
function runuser(args: string[]): Payload[] {
  return optionValues(args, ['-c', '--command']).map(([, value]) => ({ via: 'runuser -c', script: value }));
}
function sg(args: string[]): Payload[] {
  const c = optionValues(args, ['-c']).map(([, value]) => ({ via: 'sg -c', script: value }));
  if (c.length > 0) return c;
  const rest = args.filter((a) => !a.startsWith('-')).slice(1);
  return rest.length > 0 ? [{ via: 'sg', script: rest.join(' ') }] : [];
}
function expect(args: string[]): Payload[] {
  const found: Payload[] = [];
  for (const [, value] of optionValues(args, ['-c'])) {
    for (const m of value.matchAll(/\bspawn\s+([^;\n]+)/g)) found.push({ via: 'expect spawn', script: m[1] ?? '' });
    for (const m of value.matchAll(/\bexec\s+([^;\n]+)/g)) found.push({ via: 'expect exec', script: m[1] ?? '' });
  }
  return found;
}
function gdb(args: string[]): Payload[] {
  const found: Payload[] = [];
  for (const [, value] of optionValues(args, ['-ex', '--ex', '-iex', '--eval-command'])) {
    const text = value.trim();
    const bang = /^(?:!|shell\s+|pipe\s+.*\|\s*)(.*)$/s.exec(text);
    if (bang) found.push({ via: 'gdb -ex shell', script: bang[1] ?? '' });
    else if (/^python3?\b/.test(text)) {
      for (const m of text.matchAll(
        new RegExp(String.raw`\b(?:system|popen|spawn|call|run)\s*\(\s*(?:\[\s*)?(?:${QUOTED})`, 'g'),
      ))
        found.push({ via: 'gdb -ex python', script: unescape(m[1] ?? m[2] ?? '') });
    }
  }
  return found;
}
function tmux(args: string[]): Payload[] {
  const i = args.findIndex((a) =>
    /^(new|new-session|new-window|neww|split-window|splitw|run-shell|run|respawn-pane|display-popup|popup)$/.test(a),
  );
  if (i < 0) return [];
  const rest = args.slice(i + 1);
  const values = new Set(['-s', '-n', '-c', '-t', '-x', '-y', '-e', '-F', '-f', '-T']);
  let k = 0;
  while (k < rest.length && (rest[k] ?? '').startsWith('-')) k += values.has(rest[k] ?? '') ? 2 : 1;
  const command = rest.slice(k);
  return command.length > 0 ? [{ via: `tmux ${args[i]}`, script: command.join(' ') }] : [];
}
function apt(args: string[]): Payload[] {
  return optionValues(args, ['-o', '--option'])
    .map(([, value]) =>
      new RegExp(
        String.raw`^(?:APT::Update::(?:Pre|Post)-Invoke(?:-Success)?|` +
          String.raw`DPkg::(?:Pre|Post)-Invoke|DPkg::Pre-Install-Pkgs)(?:::)?=(.*)$`,
        'is',
      ).exec(value),
    )
    .filter((m): m is RegExpExecArray => m !== null && (m[1] ?? '') !== '')
    .map((m) => ({ via: 'apt -o Pre-Invoke', script: m[1] ?? '' }));
}

/** Database clients: `\! cmd` (mysql, psql) and `system cmd` (mysql) in `-e`/`-c`/`--command`. */
function sqlClient(program: string): Finder {
  return (args) =>
    optionValues(args, ['-e', '--execute', '-c', '--command'])
      .flatMap(([, value]) => value.split(/;|\n/))
      .map((statement) => /^\s*(?:\\!|system\b)\s*(.*)$/is.exec(statement))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ via: `${program} \\!`, script: m[1] ?? '' }));
}

/** `trap 'cmd' EXIT INT …`: the shell runs cmd when a listed signal (or exit) comes; `''` ignores, `-` resets. */
function trap(args: string[]): Payload[] {
  const rest = args[0] === '--' ? args.slice(1) : args;
  const action = rest[0];
  if (action === undefined || rest.length < 2 || action === '' || action === '-' || /^-[lp]$/.test(action)) return [];
  return [{ via: 'trap', script: action }];
}

/** `alias ls='rm -rf ~'`: the value runs wherever the alias is used (a shell rc file, a later line). */
function alias(args: string[]): Payload[] {
  return args
    .filter((arg) => /^[^=\s-][^=\s]*=/.test(arg))
    .map((arg) => ({ via: 'alias', script: arg.slice(arg.indexOf('=') + 1) }))
    .filter((payload) => payload.script.trim() !== '');
}

/** `aria2c --on-download-complete=CMD` (and the other event hooks): aria2 runs the program when the event comes. */
function aria2c(args: string[]): Payload[] {
  const hooks = [
    '--on-download-complete',
    '--on-download-start',
    '--on-download-error',
    '--on-download-stop',
    '--on-download-pause',
    '--on-bt-download-complete',
  ];
  return optionValues(args, hooks).map(([name, value]) => ({ via: `aria2c ${name}`, script: value }));
}

/**
 * Options whose value a program runs — as shell text, or as a program with its arguments (which
 * the shell reads the same way): `openvpn --up CMD`, `split --filter=CMD`, `start-stop-daemon -x
 * PATH`, `gcc -wrapper PROG,ARGS`. GTFOBins' shell and command functions for these programs go
 * through them. A value's leading `!` (mail's `--exec='!cmd'`) and a `,`-joined argument list
 * (gcc's `-wrapper sh,-s`) are read as the shell would see the command.
 */
export const RUN_OPTIONS: Record<string, string[]> = {
  openvpn: [
    '--up',
    '--down',
    '--route-up',
    '--route-pre-down',
    '--ipchange',
    '--client-connect',
    '--client-disconnect',
    '--learn-address',
    '--auth-user-pass-verify',
    '--tls-verify',
    '--iproute',
  ],
  split: ['--filter'],
  gsplit: ['--filter'],
  'start-stop-daemon': ['-x', '--exec', '-a', '--startas'],
  gcc: ['-wrapper'],
  'g++': ['-wrapper'],
  cc: ['-wrapper'],
  mail: ['--exec', '-E'],
  mailx: ['--exec', '-E'],
  tcpdump: ['-z'],
  sqlmap: ['--os-cmd'],
  ansible: ['-a', '--args'],
  flatpak: ['--command'],
  wget: ['--use-askpass'],
  pdftex: ['--shell-escape-commands'],
};

function runOptions(program: string): Finder {
  const names = RUN_OPTIONS[program] ?? [];
  return (args) =>
    optionValues(args, names)
      .filter(([, value]) => value.trim() !== '')
      .map(([name, value]) => ({
        via: `${program} ${name}`,
        script: value
          .replace(/^\s*!/, '')
          .replace(/^([^\s,]+),(\S+)/, (_m, p: string, rest: string) => `${p} ${rest.split(',').join(' ')}`),
      }));
}

/** sqlite3's dot commands `.shell CMD` / `.system CMD`, in its arguments or its -cmd options. */
function sqlite(args: string[]): Payload[] {
  const found: Payload[] = [];
  for (const arg of args)
    for (const m of arg.matchAll(/(?:^|\n|;)\s*\.(?:shell|system)\s+([^\n]*)/g))
      found.push({ via: 'sqlite3 .shell', script: m[1] ?? '' });
  return found;
}

/**
 * sed's `e command` (runs command) and the `e` flag of `s///e` (runs the replacement), in -e values or the script
 * operand.
 */
function sed(args: string[]): Payload[] {
  const scripts = optionValues(args, ['-e', '--expression']).map(([, value]) => value);
  if (scripts.length === 0) {
    const first = args.find((a) => !a.startsWith('-'));
    if (first !== undefined) scripts.push(first);
  }
  const found: Payload[] = [];
  for (const text of scripts) {
    for (const part of text.split(/\n|;/)) {
      const e = /^\s*(?:\d+|\$|\/[^/]*\/)?(?:,(?:\d+|\$|\/[^/]*\/))?\s*e\s+(.+)$/.exec(part);
      if (e) found.push({ via: 'sed e', script: e[1] ?? '' });
      const s = /^\s*(?:\d+|\$|\/[^/]*\/)?\s*s(.)(?:(?!\1).)*\1((?:(?!\1).)*)\1[gpiIm0-9]*e[gpiIm0-9]*\s*$/.exec(part);
      if (s && (s[2] ?? '') !== '') found.push({ via: 'sed s///e', script: s[2] ?? '' });
    }
  }
  return found;
}

/** make's `--eval=TEXT`: makefile text, whose recipes make runs. */
function make(args: string[]): Payload[] {
  return optionValues(args, ['--eval', '-E']).flatMap(([, value]) => recipesOf(value, 'make --eval recipe'));
}

/** dc's `!cmd` runs a shell command (`dc -e '!/bin/sh'`). */
function dc(args: string[]): Payload[] {
  const found: Payload[] = [];
  for (const [, value] of optionValues(args, ['-e', '--expression']))
    for (const m of value.matchAll(/!([^\n]*)/g)) found.push({ via: 'dc !', script: m[1] ?? '' });
  return found;
}

/** lftp's `-c`/`-e` command list: `!cmd` and `shell cmd` run a local shell command. */
function lftp(args: string[]): Payload[] {
  return optionValues(args, ['-c', '-e'])
    .flatMap(([, value]) => value.split(/;|\n/))
    .map((statement) => /^\s*(?:!|shell\b)\s*(.*)$/s.exec(statement))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ via: 'lftp !', script: m[1] ?? '' }));
}

/** puppet apply -e: an `exec { 'cmd': }` resource runs cmd. */
function puppet(args: string[]): Payload[] {
  const found: Payload[] = [];
  for (const [, value] of optionValues(args, ['-e', '--execute'])) {
    for (const m of value.matchAll(new RegExp(String.raw`\bexec\s*\{\s*(?:${QUOTED})`, 'g')))
      found.push({ via: 'puppet exec', script: unescape(m[1] ?? m[2] ?? '') });
  }
  return found;
}

/** nmap's old `--interactive` mode has `!sh`: an interactive shell. */
function nmap(args: string[]): Payload[] {
  return args.includes('--interactive') ? [{ via: 'nmap --interactive', script: '' }] : [];
}

/** Maven's exec plugin: `-Dexec.executable=PROG -Dexec.args=ARGS` runs PROG with ARGS. */
function mvn(args: string[]): Payload[] {
  const value = (key: string) =>
    args.map((a) => new RegExp(`^-D${key}=(.*)$`, 's').exec(a)?.[1]).find((v) => v !== undefined);
  const executable = value('exec\\.executable');
  if (executable === undefined || executable === '') return [];
  return [{ via: 'mvn exec:exec', script: `${executable} ${value('exec\\.args') ?? ''}`.trim() }];
}

/** Program name → its channel finder. */
export const CHANNELS: Record<string, Finder> = {
  awk,
  gawk: awk,
  mawk: awk,
  nawk: awk,
  vim,
  vi: vim,
  nvim: vim,
  view: vim,
  vimdiff: vim,
  rvim: vim,
  rview: vim,
  gvim: vim,
  gview: vim,
  evim: vim,
  vimx: vim,
  ex: vim,
  less: pager,
  more: pager,
  man,
  tar,
  gtar: tar,
  bsdtar: tar,
  zip,
  rsync,
  ssh: sshOptions('ssh'),
  scp: sshOptions('scp'),
  sftp: sshOptions('sftp'),
  script,
  runuser,
  sg,
  expect,
  gdb,
  tmux,
  'apt-get': apt,
  apt,
  mysql: sqlClient('mysql'),
  mariadb: sqlClient('mariadb'),
  psql: sqlClient('psql'),
  trap,
  alias,
  aria2c,
  sqlite3: sqlite,
  sed,
  gsed: sed,
  make,
  gmake: make,
  dc,
  lftp,
  puppet,
  nmap,
  mvn,
  mvnw: mvn,
  ...Object.fromEntries(
    Object.entries(RUN_OPTIONS)
      .filter(([, names]) => names.length > 0)
      .map(([program]) => [program, runOptions(program)]),
  ),
};

export function channelPayloads(program: string, args: string[]): Payload[] {
  const finder = Object.hasOwn(CHANNELS, program) ? CHANNELS[program] : undefined;
  const found = finder ? finder(args) : [];
  if (program === 'git') {
    found.push(...gitUrls(args));
    // `git -p help config`: the help page is paged, and the pager's `!` runs a shell.
    if (args.some((a) => a === '-p' || a === '--paginate') && args.includes('help'))
      found.push({ via: 'git -p help (pager)', script: '' });
  }
  return found;
}

/** Environment variables whose value a program runs as a shell command, and the programs that read them. */
export const COMMAND_VARIABLES: Record<string, string> = {
  PAGER: 'pager',
  MANPAGER: 'man pager',
  GIT_PAGER: 'git pager',
  GIT_EDITOR: 'git editor',
  GIT_SEQUENCE_EDITOR: 'git editor',
  GIT_SSH_COMMAND: 'git ssh',
  GIT_SSH: 'git ssh',
  GIT_ASKPASS: 'git askpass',
  SSH_ASKPASS: 'ssh askpass',
  GIT_EXTERNAL_DIFF: 'git diff',
  EDITOR: 'editor',
  VISUAL: 'editor',
  SYSTEMD_PAGER: 'systemd pager',
  LESSOPEN: 'less preprocessor',
  LESSCLOSE: 'less preprocessor',
  PROMPT_COMMAND: 'bash prompt',
  BASH_ENV: 'bash startup file',
  RSYNC_RSH: 'rsync -e',
  RUSTC_WRAPPER: 'cargo rustc wrapper',
  CARGO_BUILD_RUSTC_WRAPPER: 'cargo rustc wrapper',
  RUSTC: 'cargo compiler',
  CC: 'compiler',
  CXX: 'compiler',
  GIT_PROXY_COMMAND: 'git proxy',
  SUDO_ASKPASS: 'sudo askpass',
  BROWSER: 'browser',
  FCEDIT: 'fc editor',
  DIFFPROG: 'diff program',
};

/** The payload of `NAME=value` when NAME is a command variable (`LESSOPEN='|cmd %s'` drops its pipe). */
export function variablePayload(name: string, value: string): Payload | undefined {
  const label = Object.hasOwn(COMMAND_VARIABLES, name) ? COMMAND_VARIABLES[name] : undefined;
  if (
    label === undefined ||
    value === '' ||
    /^(cat|less|more|vi|vim|nano|true|emacs|code --wait|gcc|g\+\+|clang|clang\+\+|cc|c\+\+|sccache|ccache|rustc)$/.test(
      value.trim(),
    )
  )
    return undefined;
  if (name === 'BASH_ENV') return undefined;
  return { via: `$${name} (${label})`, script: name.startsWith('LESS') ? value.replace(/^\|+-?/, '') : value };
}

/** The shell commands of a makefile's recipes: tab-indented lines, and what follows `target: prerequisites ;`. */
export function recipesOf(text: string, via: string): Payload[] {
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
