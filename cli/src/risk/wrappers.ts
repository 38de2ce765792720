/**
 * Commands that run another command given in their arguments, with the options that take a
 * value (so `sudo -u root rm …` finds `rm`, not `root`). `skip` counts positional operands that
 * come before the wrapped command (`timeout 5 cmd`, `chroot DIR cmd`).
 */
export interface WrapperSpec {
  valueOptions: string[];
  skip?: number;
  /** Option whose value is a directory the wrapped command runs in. */
  chdirOptions?: string[];
}

export const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: {
    valueOptions: [
      '-u',
      '--user',
      '-g',
      '--group',
      '-h',
      '--host',
      '-p',
      '--prompt',
      '-r',
      '--role',
      '-t',
      '--type',
      '-U',
      '--other-user',
      '-C',
      '--close-from',
      '-T',
      '--command-timeout',
      '-R',
      '--chroot',
    ],
    chdirOptions: ['-D', '--chdir'],
  },
  doas: { valueOptions: ['-u', '-C'] },
  run0: {
    valueOptions: [
      '-u',
      '--user',
      '-g',
      '--group',
      '--description',
      '--slice',
      '-p',
      '--property',
      '--nice',
      '--setenv',
    ],
    chdirOptions: ['-D', '--chdir'],
  },
  pkexec: { valueOptions: ['--user'] },
  nice: { valueOptions: ['-n', '--adjustment'] },
  nohup: { valueOptions: [] },
  setsid: { valueOptions: [] },
  unbuffer: { valueOptions: [] },
  caffeinate: { valueOptions: ['-t', '-w'] },
  command: { valueOptions: [] },
  builtin: { valueOptions: [] },
  exec: { valueOptions: ['-a'] },
  time: { valueOptions: ['-f', '--format', '-o', '--output'] },
  stdbuf: { valueOptions: ['-i', '--input', '-o', '--output', '-e', '--error'] },
  ionice: { valueOptions: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  chrt: { valueOptions: [], skip: 1 },
  taskset: { valueOptions: [], skip: 1 },
  timeout: { valueOptions: ['-s', '--signal', '-k', '--kill-after'], skip: 1 },
  chroot: { valueOptions: ['--userspec', '--groups'], skip: 1 },
  flock: { valueOptions: ['-w', '--timeout', '-E', '--conflict-exit-code'], skip: 1 },
  firejail: { valueOptions: [] },
  proxychains: { valueOptions: ['-f'] },
  proxychains4: { valueOptions: ['-f'] },
  torsocks: { valueOptions: [] },
  strace: { valueOptions: ['-o', '-e', '-p', '-s', '-u', '-E', '-P', '-a', '-b', '-I', '-S', '-X'] },
  ltrace: { valueOptions: ['-o', '-e', '-p', '-s', '-u', '-n', '-a', '-A', '-D', '-F', '-l', '-w'] },
  valgrind: { valueOptions: [] },
  watch: { valueOptions: ['-n', '--interval', '-d', '--differences', '-q', '--equexit'] },
  xvfb_run: { valueOptions: ['-n', '-s', '-f', '-e', '-p'] },
  dotenv: { valueOptions: ['-e', '-v', '-c'] },
  npx: { valueOptions: ['-p', '--package', '-c', '--call'] },
  unshare: {
    valueOptions: [
      '--mount-proc',
      '--propagation',
      '--setgroups',
      '-S',
      '--setuid',
      '-G',
      '--setgid',
      '-R',
      '--root',
      '-w',
      '--wd',
      '--map-user',
      '--map-group',
    ],
  },
  rlwrap: { valueOptions: ['-a', '-f', '-H', '-l', '-p', '-P', '-S', '-w', '-z'] },
  fakeroot: { valueOptions: ['-l', '--lib', '--faked', '-s', '-i'] },
  'ssh-agent': { valueOptions: ['-a', '-E', '-P', '-t'] },
  'systemd-run': {
    valueOptions: [
      '-u',
      '--unit',
      '-p',
      '--property',
      '--description',
      '--slice',
      '-E',
      '--setenv',
      '-M',
      '--machine',
      '--on-calendar',
      '--on-active',
      '--on-boot',
      '--uid',
      '--gid',
      '--nice',
      '-H',
      '--host',
      '--working-directory',
    ],
  },
  pnpx: { valueOptions: [] },
  bunx: { valueOptions: [] },
  // Programs that run the program named by their operands (GTFOBins' "shell" and "command"
  // functions for them): they are read as wrappers, so what they run is judged.
  'aa-exec': { valueOptions: ['-p', '--profile', '-n', '--namespace'] },
  cpulimit: { valueOptions: ['-l', '--limit', '-p', '--pid', '-e', '--exe', '-m', '--monitor-forks'] },
  logsave: { valueOptions: [], skip: 1 },
  setarch: { valueOptions: ['-B', '--32bit'], skip: 1 },
  linux32: { valueOptions: [] },
  linux64: { valueOptions: [] },
  sshpass: { valueOptions: ['-p', '-f', '-d', '-P'] },
  perf: { valueOptions: ['-e', '--event', '-o', '--output', '-p', '--pid', '-r', '--repeat', '-x'], skip: 1 },
  chronic: { valueOptions: [] },
  catchsegv: { valueOptions: [] },
  faketime: { valueOptions: ['-m', '-f'], skip: 1 },
  prlimit: { valueOptions: ['-p', '--pid'] },
  runcon: { valueOptions: ['-u', '-r', '-t', '-l'] },
  setpriv: {
    valueOptions: [
      '--reuid',
      '--regid',
      '--groups',
      '--inh-caps',
      '--ambient-caps',
      '--bounding-set',
      '--securebits',
      '--selinux-label',
      '--apparmor-profile',
    ],
  },
  numactl: {
    valueOptions: [
      '-C',
      '--physcpubind',
      '-N',
      '--cpunodebind',
      '-m',
      '--membind',
      '-i',
      '--interleave',
      '-p',
      '--preferred',
    ],
  },
  cgexec: { valueOptions: ['-g'] },
  eatmydata: { valueOptions: [] },
  nocache: { valueOptions: [] },
  trickle: { valueOptions: ['-d', '-u', '-w', '-t', '-l', '-n'] },
  tsocks: { valueOptions: [] },
  pexec: { valueOptions: [] },
  softlimit: { valueOptions: ['-m', '-a', '-d', '-s', '-l', '-f', '-o', '-p', '-c', '-r', '-t'] },
  chpst: { valueOptions: ['-u', '-U', '-e', '-/', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c'] },
  daemonize: { valueOptions: ['-a', '-c', '-e', '-E', '-o', '-p', '-l', '-u'] },
  'dbus-launch': { valueOptions: ['--config-file'] },
  'dbus-run-session': { valueOptions: ['--config-file', '--dbus-daemon'] },
  nsenter: { valueOptions: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-r', '--root', '-w', '--wd', '-Z'] },
  bwrap: {
    valueOptions: [
      '--bind',
      '--ro-bind',
      '--dev-bind',
      '--chdir',
      '--setenv',
      '--unsetenv',
      '--uid',
      '--gid',
      '--hostname',
      '--proc',
      '--dev',
      '--tmpfs',
      '--dir',
      '--symlink',
      '--file',
      '--seccomp',
      '--cap-add',
      '--cap-drop',
    ],
  },
  proot: { valueOptions: ['-r', '--rootfs', '-b', '--bind', '-w', '--cwd', '-q', '--qemu'] },
  capsh: { valueOptions: [] },
  'run-one': { valueOptions: [] },
  gtimeout: { valueOptions: ['-s', '--signal', '-k', '--kill-after'], skip: 1 },
  gnice: { valueOptions: ['-n', '--adjustment'] },
  screen: { valueOptions: ['-S', '-c', '-e', '-h', '-p', '-t', '-T', '-s', '-Logfile', '-X'] },
};

/**
 * Names of the dynamic loader (`/lib64/ld-linux-x86-64.so.2 /bin/sh`): it runs the program it is given.
 */
export const LOADER = /^ld(-linux[\w.-]*)?\.so(\.\d+)?$|^ld-musl[\w.-]*\.so[\w.]*$/;

export const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'fish',
  'csh',
  'tcsh',
  'busybox-sh',
  'rbash',
]);

/** Interpreters and the options that take inline code. */
/** `endOptions`: after these (python's `-m module`) the rest belongs to the program being run. */
export const INTERPRETERS: Record<string, { codeOptions: string[]; valueOptions: string[]; endOptions?: string[] }> = {
  python: { codeOptions: ['-c'], valueOptions: ['-W', '-X', '-Q'], endOptions: ['-m'] },
  node: {
    codeOptions: ['-e', '--eval', '-p', '--print'],
    valueOptions: ['-r', '--require', '--import', '--loader', '--input-type', '--env-file'],
  },
  deno: { codeOptions: ['eval'], valueOptions: [] },
  bun: { codeOptions: ['-e', '--eval', '-p', '--print'], valueOptions: [] },
  perl: { codeOptions: ['-e', '-E'], valueOptions: ['-I', '-M', '-m', '-x', '-i'] },
  ruby: { codeOptions: ['-e'], valueOptions: ['-I', '-r', '-C', '-E', '-F'] },
  php: { codeOptions: ['-r'], valueOptions: ['-c', '-d', '-f', '-z'] },
  lua: { codeOptions: ['-e'], valueOptions: ['-l'] },
  osascript: { codeOptions: ['-e'], valueOptions: ['-l'] },
  pwsh: { codeOptions: ['-c', '-command', '-Command'], valueOptions: [] },
  powershell: { codeOptions: ['-c', '-command', '-Command'], valueOptions: [] },
  // Programs that take code in their own language as an option (GTFOBins' shell functions for
  // them go through these): their code is judged like any interpreter one-liner.
  r: { codeOptions: ['-e'], valueOptions: ['-f', '--file', '--args'] },
  rscript: { codeOptions: ['-e'], valueOptions: [] },
  julia: {
    codeOptions: ['-e', '--eval', '-E', '--print'],
    valueOptions: ['-L', '--load', '-J', '--sysimage', '-t', '--threads', '-p', '--procs'],
  },
  octave: { codeOptions: ['--eval'], valueOptions: ['-p', '--path'] },
  'octave-cli': { codeOptions: ['--eval'], valueOptions: ['-p', '--path'] },
  emacs: {
    codeOptions: ['--eval', '-eval', '--execute', '-execute'],
    valueOptions: [
      '-l',
      '--load',
      '-f',
      '--funcall',
      '-L',
      '--directory',
      '-t',
      '--terminal',
      '-d',
      '--display',
      '--chdir',
    ],
  },
  slsh: { codeOptions: ['-e'], valueOptions: [] },
  jrunscript: { codeOptions: ['-e'], valueOptions: ['-cp', '-classpath', '-l', '-f'] },
  jjs: { codeOptions: [], valueOptions: ['-cp', '-classpath'] },
  groovy: { codeOptions: ['-e'], valueOptions: ['-cp', '-classpath'] },
  scala: { codeOptions: ['-e'], valueOptions: ['-cp', '-classpath'] },
  elixir: { codeOptions: ['-e', '--eval'], valueOptions: ['-r', '-pa', '-pz'] },
  erl: { codeOptions: ['-eval'], valueOptions: ['-pa', '-pz', '-s', '-run', '-sname', '-name', '-setcookie'] },
  guile: { codeOptions: ['-c'], valueOptions: ['-l', '-L', '-e', '-x'] },
  racket: { codeOptions: ['-e', '--eval'], valueOptions: ['-l', '--lib', '-t', '--require', '-f', '--load'] },
  sbcl: { codeOptions: ['--eval'], valueOptions: ['--load', '--script', '--core'] },
  clisp: { codeOptions: ['-x'], valueOptions: ['-i', '-M', '-L'] },
  tclsh: { codeOptions: [], valueOptions: ['-encoding'] },
  wish: { codeOptions: [], valueOptions: ['-encoding', '-display', '-name'] },
  gimp: { codeOptions: ['-b', '--batch'], valueOptions: ['--batch-interpreter'] },
  rpm: {
    codeOptions: ['--eval', '-E'],
    valueOptions: ['--define', '-D', '--root', '--dbpath', '--macros', '--rcfile'],
  },
  rake: {
    codeOptions: ['-e', '--execute', '-p', '--execute-print', '-E', '--execute-continue'],
    valueOptions: ['-f', '--rakefile', '-C', '--directory', '-I', '--libdir', '-r', '--require'],
  },
  crystal: { codeOptions: ['eval'], valueOptions: [] },
  irb: { codeOptions: [], valueOptions: ['-r', '-I'] },
  pry: { codeOptions: ['-e', '--exec'], valueOptions: ['-r', '-I'] },
  ghci: { codeOptions: ['-e'], valueOptions: [] },
};

/** Interpreters whose program names may carry a version (`python3.11`, `pypy3`, `perl5.36`), by family. */
const VERSIONED_INTERPRETER = /^(python|pypy|perl|ruby|php|lua)[0-9.]*$/;

/** `python3.11` → `python`, `nodejs` → `node`: the interpreter family of a program name. */
export function interpreterFamily(name: string): string | undefined {
  const versioned = VERSIONED_INTERPRETER.exec(name);
  if (versioned) return versioned[1] === 'pypy' ? 'python' : versioned[1];
  if (name === 'nodejs') return 'node';
  return Object.hasOwn(INTERPRETERS, name) ? name : undefined;
}

/** The inline code of an interpreter command line (`-c CODE`, `-e CODE`, `-pe CODE`, `-eCODE`), if it has any. */
export function inlineCodeOf(family: string, args: string[]): { option: string; code: string } | undefined {
  const spec = INTERPRETERS[family];
  if (!spec) return undefined;
  const letters = spec.codeOptions.filter((o) => /^-[a-zA-Z]$/.test(o)).map((o) => o.slice(1));
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const next = args[i + 1];
    if (arg === '--' || spec.endOptions?.includes(arg)) return undefined;
    if (spec.codeOptions.includes(arg)) return next === undefined ? undefined : { option: arg, code: next };
    if (!arg.startsWith('-')) {
      // A script file: what follows are its own arguments (deno's and crystal's `eval` come after options).
      if (family === 'deno' || family === 'crystal') continue;
      return undefined;
    }
    if (spec.valueOptions.includes(arg)) {
      i += 1;
      continue;
    }
    const cluster = /^-[a-zA-Z]+$/.test(arg);
    if (cluster && letters.includes(arg.slice(-1))) return next === undefined ? undefined : { option: arg, code: next };
    const attached = letters.find((l) => arg.startsWith(`-${l}`));
    if (attached !== undefined && !cluster && arg.length > 2) return { option: `-${attached}`, code: arg.slice(2) };
  }
  return undefined;
}

/**
 * Walks leading options of a wrapper-like command and returns where its operands start, plus
 * the values of the options it saw. Clusters (`-qf`) and `--opt=value` are understood; `--` ends.
 */
export function skipOptions(
  args: string[],
  valueOptions: string[],
): { index: number; values: Array<[string, string]> } {
  const values: Array<[string, string]> = [];
  let i = 0;
  while (i < args.length) {
    const arg = args[i] ?? '';
    if (arg === '--') return { index: i + 1, values };
    if (!arg.startsWith('-') || arg === '-') break;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      if (eq > 0) {
        values.push([arg.slice(0, eq), arg.slice(eq + 1)]);
      } else if (valueOptions.includes(arg)) {
        values.push([arg, args[i + 1] ?? '']);
        i += 1;
      } else {
        values.push([arg, '']);
      }
      i += 1;
      continue;
    }
    let consumedNext = false;
    for (let k = 1; k < arg.length; k += 1) {
      const flag = `-${arg[k]}`;
      if (valueOptions.includes(flag)) {
        const rest = arg.slice(k + 1);
        if (rest) values.push([flag, rest]);
        else {
          values.push([flag, args[i + 1] ?? '']);
          consumedNext = true;
        }
        break;
      }
      values.push([flag, '']);
    }
    i += consumedNext ? 2 : 1;
  }
  return { index: i, values };
}
