import { createRequire } from 'node:module';
import { sharedTreeSitter } from '@agentgov/core/tree-sitter-runtime';
import type Parser from 'tree-sitter';
import { shellTree, type ShellNode, type ShellTreeOptions } from './shell-tree.js';
import { READ_LIMITS, type ReadBudget } from './budget.js';

/**
 * Shell text → simple commands, with tree-sitter-bash doing the parsing. A simple command keeps
 * its words (quotes removed, expansions left as written), its `VAR=x` prefix, its redirections,
 * any heredoc/herestring fed to it, and the names of the commands whose output flows into it
 * (earlier pipeline stages, process and command substitutions among its arguments).
 */
export interface Redirect {
  op: string;
  target: string;
}

export interface RawCommand {
  words: string[];
  assignments: Record<string, string>;
  redirects: Redirect[];
  /** Text fed on stdin by a heredoc or herestring. */
  stdinText?: string;
  /** Names of commands whose output feeds this one. */
  inputFrom: string[];
  start: number;
}

export interface ShellParse {
  commands: RawCommand[];
  /** Bare assignments (`FOO=1` with no command) in effect for later commands. */
  assignments: Record<string, string>;
  hasError: boolean;
  /** Set when the text only parsed after closing an unterminated quote or substitution. */
  repairedWith?: string;
  /** Function names defined by the text. */
  functions: string[];
}

type SyntaxNode = ShellNode;

/**
 * What the Collector reads beyond named nodes: redirect operators, the parts of a concatenated word, and these fields.
 */
export const SHELL_TREE_OPTIONS: ShellTreeOptions = {
  keepAnonymousUnder: new Set(['file_redirect', 'herestring_redirect', 'concatenation']),
  fieldsUnder: new Set([
    'function_definition',
    'variable_assignment',
    'redirected_statement',
    'file_redirect',
    'herestring_redirect',
  ]),
};

const require = createRequire(import.meta.url);
let parser: Parser | undefined;

function shellParser(): Parser {
  if (!parser) {
    // The thread's one runtime: a second copy's trees break the first's (core/src/parsing).
    const ParserCtor = sharedTreeSitter(() => require('tree-sitter') as typeof Parser);
    const bash = require('tree-sitter-bash') as Parser.Language;
    parser = new ParserCtor();
    parser.setLanguage(bash);
  }
  return parser;
}

let warm = false;

/**
 * Loads the parser and runs it once, so that no assessment's time budget pays for the start-up.
 * An engine that is not warmed at construction (the gate's lean path: most calls never need the
 * parser) warms it on first use, outside the budget (see `parse`).
 */
export function warmShellParser(): void {
  if (warm) return;
  warm = true;
  parseWithTreeSitter('true "$x" | cat');
}

/**
 * The root of the parse. The binding's default input buffer is 32K UTF-16 units, allocated and
 * zeroed per parse; a buffer the size of the text reads it in the same single chunk for less.
 */
function parse(text: string, budget?: ReadBudget): Parser.SyntaxNode | null {
  const options: Parser.Options = { bufferSize: Math.min(text.length + 1, 32 * 1024) };
  if (!warm) {
    if (budget) budget.excluding(warmShellParser);
    else warmShellParser();
  }
  if (budget !== undefined) options.progressCallback = budget.halt;
  const tree = shellParser().parse(text, undefined, options) as Parser.Tree | undefined | null;
  if (tree) return tree.rootNode;
  // Halted by the budget's deadline: no tree, and the parser must forget the halted parse, or
  // the next call would resume it instead of starting on its own text.
  shellParser().reset();
  return null;
}

/**
 * What is read of a text whose parse ran out of time: its first 1 KiB, cut before its last separator (a newline, `;`,
 * `|`, `&`).
 */
const HEAD_ON_HALT = 1024;

const REPAIRS = ["'", '"', '`', ')', '"\'', '\'"', '))', '`)'];

/** Parses shell text; an unterminated quote is closed and noted rather than losing the command. */
export function parseShell(text: string, budget?: ReadBudget): ShellParse {
  return plainWords(text, budget) ?? parseWithTreeSitter(text, budget);
}

/**
 * Plain commands: words of letters, digits and `_ . / , + -` (later words also `: @ % =`, or `~` alone or before a
 * `/`),
 * separated by single spaces, the first starting with a letter, digit, `_`, `.` or `/` — nothing
 * quoted, escaped, expanded, redirected or reserved — optionally several joined by ` | `, ` && `,
 * ` || ` or `; `. Tree-sitter parses such a text as exactly these simple commands (a ` | ` run as a
 * pipeline, whose later stages take input from the earlier ones), so it is answered without the
 * parser, which costs more than everything else for `git status` or `curl -s URL | sh`. The
 * alphabet is what tree-sitter reads that way everywhere: it reads `a@b`, `a%b`, `a=b`, `a+:b` as
 * a first word differently, a bare `==` word, and the words after a first word `-`; and it reads
 * a pipeline of three or more stages followed by `&&`/`||` oddly, so those go to the parser too.
 * shell-parse.test checks the answer against tree-sitter's over every risk bench command it
 * applies to, every short word over the alphabet, and generated commands and lists.
 */
const PLAIN_WORDS = /^[A-Za-z0-9_./][A-Za-z0-9_./,+-]*(?: (?:[A-Za-z0-9_./,:@%+=-]+|~(?:\/[A-Za-z0-9_./,:@%+=-]*)?))*$/;
/** What joins plain commands into a list or pipeline (the only spacing accepted around each). */
const JOINER = / (\|\||&&|\|) |; /g;
/** First words the grammar reads as something other than a command name (and a few more, to be safe). */
const NOT_A_COMMAND_NAME = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'case',
  'esac',
  'for',
  'select',
  'while',
  'until',
  'do',
  'done',
  'in',
  'function',
  'time',
  'coproc',
  'declare',
  'typeset',
  'export',
  'readonly',
  'local',
  'unset',
  'unsetenv',
]);

export function plainWords(text: string, budget?: ReadBudget): ShellParse | null {
  if (text.includes('==')) return null;
  const commands: RawCommand[] = [];
  let upstream: string[] = [];
  let start = 0;
  JOINER.lastIndex = 0;
  for (;;) {
    const joiner = JOINER.exec(text);
    const end = joiner ? joiner.index : text.length;
    const segment = text.slice(start, end);
    if (!PLAIN_WORDS.test(segment)) return null;
    const words = segment.split(' ');
    if (NOT_A_COMMAND_NAME.has(words[0] as string)) return null;
    if (budget !== undefined && commands.length >= READ_LIMITS.commands) {
      budget.stop('commands', `more than ${READ_LIMITS.commands} commands: the rest were not read`);
      break;
    }
    const command: RawCommand = { words, assignments: {}, redirects: [], inputFrom: upstream, start };
    const previous = commands.at(-1);
    if (previous !== undefined && upstream.length > 0) feed(previous, command);
    commands.push(command);
    if (!joiner) break;
    // tree-sitter-bash files `a | b | c && d` as `a | (b | c && d)`: such texts go to the parser.
    if (upstream.length >= 2 && (joiner[1] === '&&' || joiner[1] === '||')) return null;
    // Within a pipeline every stage takes input from the stages before it; a list resets that.
    upstream = joiner[1] === '|' ? withName(upstream, commandName(command)) : [];
    start = end + joiner[0].length;
  }
  return { commands, assignments: {}, hasError: false, functions: [] };
}

/** The tree-sitter parse of any shell text. */
export function parseWithTreeSitter(text: string, budget?: ReadBudget, repair = true): ShellParse {
  let source = text;
  let root = parse(source, budget);
  if (root === null) {
    budget?.expired();
    // The parse was halted: its start is still read, so a dangerous first part is seen. A head
    // this short parses in a few milliseconds whatever its shape, so it runs without the clock.
    if (text.length <= HEAD_ON_HALT) return { commands: [], assignments: {}, hasError: false, functions: [] };
    const head = text.slice(0, HEAD_ON_HALT);
    const cut = Math.max(head.lastIndexOf('\n'), head.lastIndexOf(';'), head.lastIndexOf('|'), head.lastIndexOf('&'));
    return parseWithTreeSitter(cut > 0 ? head.slice(0, cut) : head, undefined, false);
  }
  const hadError = root.hasError;
  let repairedWith: string | undefined;
  if (hadError && repair) {
    for (const suffix of REPAIRS) {
      const candidate = parse(text + suffix, budget);
      if (candidate === null) break;
      if (!candidate.hasError) {
        source = text + suffix;
        root = candidate;
        repairedWith = suffix;
        break;
      }
    }
  }
  const collector = new Collector();
  collector.visit(shellTree(root, source, SHELL_TREE_OPTIONS, budget));
  // Nested commands are collected before the command around them; most texts have none.
  const commands = collector.commands;
  if (commands.some((cmd, i) => i > 0 && (commands[i - 1] as RawCommand).start > cmd.start))
    commands.sort((a, b) => a.start - b.start);
  const result: ShellParse = {
    commands,
    assignments: collector.bareAssignments,
    hasError: hadError,
    functions: collector.functions,
  };
  if (repairedWith !== undefined) result.repairedWith = repairedWith;
  return result;
}

/**
 * What a subtree without commands yields (shared: the Collector never adds to a list a visit returned, bar its own
 * copies).
 */
const NONE: RawCommand[] = Object.freeze([]) as unknown as RawCommand[];

class Collector {
  readonly commands: RawCommand[] = [];
  /** A heredoc's command → the pipeline after its start (`cat <<EOF | sh`), joined once the command is known. */
  private readonly pipedFrom = new Map<RawCommand, RawCommand[]>();
  readonly bareAssignments: Record<string, string> = {};
  readonly functions: string[] = [];

  /** Visits a subtree and returns the commands found in it. */
  visit(node: SyntaxNode): RawCommand[] {
    switch (node.type) {
      case 'command':
        return this.command(node, []);
      case 'redirected_statement':
        return this.redirected(node);
      case 'pipeline':
        return this.pipeline(node);
      case 'variable_assignment':
        return this.bareAssignment(node);
      case 'function_definition': {
        const name = node.childForFieldName('name');
        if (name) this.functions.push(name.text);
        return this.children(node);
      }
      default:
        return this.children(node);
    }
  }

  private children(node: SyntaxNode): RawCommand[] {
    const kids = node.namedChildren;
    if (kids.length === 1) return this.visit(kids[0] as SyntaxNode);
    let found = NONE;
    for (const child of kids) {
      const inner = this.visit(child);
      if (inner.length === 0) continue;
      if (found === NONE) found = [...inner];
      else found.push(...inner);
    }
    return found;
  }

  private bareAssignment(node: SyntaxNode): RawCommand[] {
    const name = node.childForFieldName('name')?.text;
    const value = node.childForFieldName('value');
    if (name) this.bareAssignments[name] = value ? wordText(value) : '';
    return value ? this.visit(value) : [];
  }

  private command(node: SyntaxNode, redirects: Redirect[]): RawCommand[] {
    const cmd: RawCommand = {
      words: [],
      assignments: {},
      redirects: [...redirects],
      inputFrom: [],
      start: node.startIndex,
    };
    const nested: RawCommand[] = [];
    for (const child of node.namedChildren) {
      if (child.type === 'variable_assignment') {
        const name = child.childForFieldName('name')?.text;
        const value = child.childForFieldName('value');
        if (name) cmd.assignments[name] = value ? wordText(value) : '';
        if (value) nested.push(...this.visit(value));
      } else if (
        child.type === 'file_redirect' ||
        child.type === 'herestring_redirect' ||
        child.type === 'heredoc_redirect'
      ) {
        nested.push(...this.redirect(child, cmd));
      } else if (child.type === 'command_name') {
        const inner = this.children(child);
        nested.push(...inner);
        cmd.words.push(wordText(child.namedChildren[0] ?? child));
      } else {
        const inner = this.visit(child);
        if (inner.length > 0) {
          nested.push(...inner);
          cmd.inputFrom.push(...inner.map(commandName));
        }
        cmd.words.push(wordText(child));
      }
    }
    this.joinPipe(cmd, cmd);
    this.commands.push(cmd);
    return [cmd, ...nested];
  }

  private redirected(node: SyntaxNode): RawCommand[] {
    const body = node.childForFieldName('body');
    const pseudo: RawCommand = { words: [], assignments: {}, redirects: [], inputFrom: [], start: node.startIndex };
    const nested: RawCommand[] = [];
    for (const child of node.namedChildren) {
      if (child === body) continue;
      nested.push(...this.redirect(child, pseudo));
    }
    let found: RawCommand[];
    if (body && body.type === 'command') {
      found = this.command(body, pseudo.redirects);
      const target = found[0];
      if (target) {
        target.words.push(...pseudo.words);
        target.inputFrom.push(...pseudo.inputFrom);
        if (pseudo.stdinText !== undefined) target.stdinText = pseudo.stdinText;
        this.joinPipe(pseudo, target);
      }
    } else {
      found = body ? this.visit(body) : [];
      // A redirect on a compound statement applies to every command inside it.
      for (const cmd of found) {
        cmd.redirects.push(...pseudo.redirects);
        cmd.inputFrom.push(...pseudo.inputFrom);
      }
      if (found.length === 0 && pseudo.redirects.length > 0) {
        this.commands.push(pseudo);
        found = [pseudo];
      }
    }
    return [...found, ...nested];
  }

  private redirect(node: SyntaxNode, cmd: RawCommand): RawCommand[] {
    if (node.type === 'heredoc_redirect') {
      const body = node.namedChildren.find((c) => c.type === 'heredoc_body');
      cmd.stdinText = body ? body.text : '';
      const inner = body ? [...this.children(body)] : [];
      // `cat <<EOF | sh`: the grammar files what follows the heredoc's start on its line (the rest
      // of a pipeline or list) under the redirect. A pipeline there reads the command's output.
      for (const rest of node.namedChildren) {
        if (rest.type === 'heredoc_body' || rest.type === 'heredoc_start' || rest.type === 'heredoc_end') continue;
        const after = this.visit(rest);
        if (rest.type === 'pipeline' && after.length > 0) this.pipedFrom.set(cmd, after);
        inner.push(...after);
      }
      return inner;
    }
    const destinations = node.childrenForFieldName('destination');
    const destination = destinations[0] ?? node.namedChildren.filter((c) => c.type !== 'file_descriptor').at(-1);
    const op =
      node.children
        .filter((c) => !c.isNamed)
        .map((c) => c.text)
        .join('') || '>';
    if (!destination) return [];
    const visited = this.visit(destination);
    cmd.inputFrom.push(...visited.map(commandName));
    // `rm -rf 2>/dev/null /`: the grammar files words after a redirect under the redirect;
    // they are arguments of the command.
    const inner = destinations.length > 1 ? [...visited] : visited;
    for (const extra of destinations.slice(1)) {
      inner.push(...this.visit(extra));
      cmd.words.push(wordText(extra));
    }
    if (node.type === 'herestring_redirect') {
      cmd.stdinText = wordText(destination);
    } else {
      cmd.redirects.push({ op, target: wordText(destination) });
    }
    return inner;
  }

  /** `cat <<EOF | sh`: the pipeline filed under the heredoc reads `producer`'s output. */
  private joinPipe(holder: RawCommand, producer: RawCommand): void {
    const after = this.pipedFrom.get(holder);
    if (after === undefined || after[0] === undefined) return;
    this.pipedFrom.delete(holder);
    feed(producer, after[0]);
    for (const later of after) later.inputFrom.push(commandName(producer));
  }

  private pipeline(node: SyntaxNode): RawCommand[] {
    const found: RawCommand[] = [];
    let upstream: string[] = [];
    let previous: RawCommand | undefined;
    for (const stage of node.namedChildren) {
      const inStage = this.visit(stage);
      // The stage's own command comes first: its text input is what the stage before printed.
      const own = inStage[0];
      if (previous !== undefined && own !== undefined) feed(previous, own);
      previous = own;
      for (const cmd of inStage) cmd.inputFrom.push(...upstream);
      for (const cmd of inStage) upstream = withName(upstream, commandName(cmd));
      found.push(...inStage);
    }
    return found;
  }
}

/**
 * The distinct programs upstream of a pipeline stage, plus `name`: a new list only when `name`
 * is new, so a long pipeline costs its length times its distinct programs, not its length squared.
 * Past READ_LIMITS.upstream distinct programs the list stops growing (the parse says so).
 */
function withName(upstream: string[], name: string): string[] {
  if (upstream.includes(name)) return upstream;
  if (upstream.length >= READ_LIMITS.upstream) {
    if (upstream.at(-1) !== UPSTREAM_OVERFLOW) return [...upstream, UPSTREAM_OVERFLOW];
    return upstream;
  }
  return [...upstream, name];
}

/** Stands for the programs of a pipeline past its first READ_LIMITS.upstream distinct ones. */
export const UPSTREAM_OVERFLOW = '…';

/**
 * `echo "rm -rf ~" | bash`: text a pipeline stage prints literally (echo, printf, a heredoc or
 * herestring through cat) becomes the next stage's stdin text, which the normalizer reads as code
 * when that stage is a shell or an interpreter. Output of anything else is unknown, and left so.
 */
function feed(producer: RawCommand, consumer: RawCommand): void {
  if (
    consumer.stdinText !== undefined ||
    producer.redirects.some((r) => /^\d*>|^&>/.test(r.op) && !/^&?[12]$/.test(r.target))
  )
    return;
  const text = printedText(producer);
  if (text !== undefined) consumer.stdinText = text;
}

/** The text a command prints literally (echo, printf, cat or tee of a heredoc/herestring), or undefined. */
export function printedText(cmd: RawCommand): string | undefined {
  const name = commandName(cmd);
  const args = cmd.words.slice(1);
  if (name === 'echo') {
    let i = 0;
    let escapes = false;
    while (i < args.length && /^-[neE]+$/.test(args[i] ?? '')) {
      escapes = /e[^E]*$/.test(args[i] ?? '');
      i += 1;
    }
    const text = args.slice(i).join(' ');
    return escapes ? decodeEscapes(text) : text;
  }
  if (name === 'printf') {
    const rest = args[0] === '--' ? args.slice(1) : args;
    if (rest.length === 0 || rest[0]?.startsWith('-')) return undefined;
    const values = rest.slice(1);
    let used = 0;
    // `%b` expands escapes in its value too (`printf %b '\x72\x6d'`).
    const printed = decodeEscapes(rest[0] ?? '').replace(/%[-0-9.]*([sbdq%])/g, (_m, kind: string) =>
      kind === '%' ? '%' : kind === 'b' ? decodeEscapes(values[used++] ?? '') : (values[used++] ?? ''),
    );
    return [printed, ...values.slice(used)].join(' ');
  }
  if ((name === 'cat' && args.every((a) => a === '-')) || (name === 'tee' && cmd.stdinText !== undefined))
    return cmd.stdinText;
  // A decoder fed a literal prints what it decodes: `echo cm0gLXJmIH4= | base64 -d | sh` runs `rm -rf ~`.
  if (cmd.stdinText !== undefined) return decodedText(name, args, cmd.stdinText);
  return undefined;
}

/** What `base64 -d`, `base32 -d`, `xxd -r -p` or `rev` print for a literal input; undefined for anything else. */
export function decodedText(name: string, args: string[], input: string): string | undefined {
  const flags = args.filter((a) => a.startsWith('-'));
  const decodes = flags.some((f) => /^-[a-zA-Z]*[dD][a-zA-Z]*$|^--decode$/.test(f));
  if ((name === 'base64' || name === 'gbase64') && decodes) {
    const text = input.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return undefined;
    return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8');
  }
  if (name === 'base32' && decodes) return base32Decode(input.replace(/\s+/g, '').toUpperCase());
  if (
    name === 'xxd' &&
    flags.some((f) => /^-[a-z]*r/.test(f)) &&
    flags.some((f) => /^-[a-z]*p/.test(f) || f === '-ps' || f === '-plain')
  ) {
    const hex = input.replace(/\s+/g, '');
    return /^([0-9a-fA-F]{2})*$/.test(hex) ? Buffer.from(hex, 'hex').toString('utf8') : undefined;
  }
  if (name === 'rev' && args.length === 0)
    return input
      .split('\n')
      .map((line) => [...line].reverse().join(''))
      .join('\n');
  return undefined;
}

function base32Decode(text: string): string | undefined {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const body = text.replace(/=+$/, '');
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const c of body) {
    const index = alphabet.indexOf(c);
    if (index < 0) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/**
 * Backslash escapes as bash's `$'…'`, `printf` and `echo -e` expand them: `\n`, `\t`, …, octal
 * `\NNN` (and echo's `\0NNN`), hex `\xHH`, Unicode `\uHHHH`/`\UHHHHHHHH`, control `\cX`; an
 * unknown escape stays as written. (`$'\x72\x6d' -rf ~` is `rm -rf ~`.)
 */
export function decodeEscapes(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(
    /\\(?:([abeEfnrtv\\'"?])|0?([0-7]{1,3})|x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})|c(.))/g,
    (whole, simple?: string, octal?: string, hex?: string, u4?: string, u8?: string, control?: string) => {
      if (simple !== undefined) return SIMPLE_ESCAPES[simple] ?? whole;
      const code =
        octal !== undefined
          ? parseInt(octal, 8)
          : hex !== undefined
            ? parseInt(hex, 16)
            : u4 !== undefined
              ? parseInt(u4, 16)
              : u8 !== undefined
                ? parseInt(u8, 16)
                : control !== undefined
                  ? control.toUpperCase().charCodeAt(0) ^ 0x40
                  : NaN;
      return Number.isNaN(code) || code > 0x10ffff ? whole : String.fromCodePoint(code);
    },
  );
}

export function commandName(cmd: RawCommand): string {
  const first = cmd.words[0] ?? '';
  return first.slice(first.lastIndexOf('/') + 1).toLowerCase();
}

/** The text of a word as the shell would see it before expansion: quotes removed, escapes applied. */
export function wordText(node: SyntaxNode): string {
  switch (node.type) {
    case 'word':
      return unescapeBare(node.text);
    case 'raw_string':
      return node.text.slice(1, node.text.endsWith("'") && node.text.length > 1 ? -1 : undefined);
    case 'string':
      return unescapeDouble(node.text.slice(1, node.text.endsWith('"') && node.text.length > 1 ? -1 : undefined));
    case 'ansi_c_string':
      return decodeEscapes(node.text.slice(2, node.text.endsWith("'") ? -1 : undefined));
    case 'concatenation':
      return node.children.map(wordText).join('');
    default:
      return node.text;
  }
}

function unescapeBare(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\\n/g, '').replace(/\\(.)/g, '$1');
}

function unescapeDouble(text: string): string {
  return text.replace(/\\\n/g, '').replace(/\\([\\"$`])/g, '$1');
}
