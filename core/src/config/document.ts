import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, visit, type Document } from 'yaml';

export type KeyPath = (string | number)[];

export interface ConfigIssue {
  severity: 'error' | 'warning';
  /** Dotted key path, e.g. `server.index.max_file_bytes` or `plugins[1].options.path`. */
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out || '(root)';
}

/** Parses a JSON pointer (ajv's instancePath) into a key path. */
export function pointerToKeyPath(pointer: string): KeyPath {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.file ? `${issue.file}${issue.line ? `:${issue.line}:${issue.column ?? 1}` : ''} ` : '';
  return `${where}${issue.severity === 'warning' ? 'warning' : 'error'} at ${issue.path}: ${issue.message}`;
}

/**
 * Bounds on a config file, checked before anything walks its value: a config is a few dozen keys,
 * so these leave room while making a hostile file (a 100k-key project config, a YAML alias bomb)
 * a positioned error instead of minutes of work or an internal error.
 */
export const CONFIG_LIMITS = { bytes: 64 * 1024, nodes: 5_000, depth: 32, aliases: 64 } as const;

/** A parsed YAML config file that can say where any key path sits (line:column). */
export class ConfigDocument {
  readonly doc: Document;
  readonly #lines = new LineCounter();

  readonly #tooLarge: boolean;

  constructor(
    readonly text: string,
    readonly file: string,
  ) {
    this.#tooLarge = Buffer.byteLength(text) > CONFIG_LIMITS.bytes;
    this.doc = parseDocument(this.#tooLarge ? '' : text, {
      lineCounter: this.#lines,
      prettyErrors: true,
      uniqueKeys: true,
    });
  }

  /** YAML syntax errors and exceeded bounds (size, nodes, depth, aliases), with positions. */
  syntaxIssues(): ConfigIssue[] {
    if (this.#tooLarge)
      return [
        {
          severity: 'error',
          path: '(yaml)',
          message:
            `the file is ${Buffer.byteLength(this.text)} bytes; a config file may have ` +
            `at most ${CONFIG_LIMITS.bytes}`,
          file: this.file,
          line: 1,
          column: 1,
        },
      ];
    if (!this.doc.errors.length) {
      const bound = this.#boundIssue();
      if (bound) return [bound];
    }
    return this.doc.errors.map((error) => {
      const pos = error.linePos?.[0];
      return {
        severity: 'error',
        path: '(yaml)',
        message: error.message.split('\n')[0] ?? error.message,
        file: this.file,
        line: pos?.line,
        column: pos?.col,
      };
    });
  }

  /** The first bound the document exceeds, located at the node that exceeded it. */
  #boundIssue(): ConfigIssue | undefined {
    let nodes = 0;
    let aliases = 0;
    const at = (node: unknown, message: string): ConfigIssue => {
      const offset = (node as { range?: [number, number, number] } | undefined)?.range?.[0] ?? 0;
      const pos = this.#lines.linePos(offset);
      return { severity: 'error', path: '(yaml)', message, file: this.file, line: pos.line, column: pos.col };
    };
    const walk = (node: unknown, depth: number): ConfigIssue | undefined => {
      nodes += 1;
      if (nodes > CONFIG_LIMITS.nodes)
        return at(node, `more than ${CONFIG_LIMITS.nodes} keys and values; a config file may have at most that many`);
      if (depth > CONFIG_LIMITS.depth) return at(node, `nested deeper than ${CONFIG_LIMITS.depth} levels`);
      if (isAlias(node)) {
        aliases += 1;
        if (aliases > CONFIG_LIMITS.aliases)
          return at(node, `more than ${CONFIG_LIMITS.aliases} YAML aliases (*name); refused as a possible alias bomb`);
        return undefined;
      }
      if (isMap(node)) {
        for (const pair of node.items) {
          const problem = walk(pair.key, depth + 1) ?? walk(pair.value, depth + 1);
          if (problem) return problem;
        }
      } else if (isSeq(node)) {
        for (const item of node.items) {
          const problem = walk(item, depth + 1);
          if (problem) return problem;
        }
      }
      return undefined;
    };
    return walk(this.doc.contents, 0);
  }

  /** Where the first alias (`*name`) is, for an error about aliases. */
  firstAliasPosition(): { line: number; column: number } {
    let offset = 0;
    visit(this.doc, {
      Alias: (_key, node) => {
        offset = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    const pos = this.#lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  }

  value(): unknown {
    // Aliases were bounded in syntaxIssues; yaml's own alias-expansion limit is the second line.
    return this.doc.toJS({ maxAliasCount: 1000 }) ?? {};
  }

  /** Position of the value at `path`; `keyOf` gives the position of the key itself (for unknown keys). */
  position(path: KeyPath, keyOf = false): { line: number; column: number } | undefined {
    let offset: number | undefined;
    if (keyOf && path.length > 0) {
      const parent = path.length === 1 ? this.doc.contents : this.doc.getIn(path.slice(0, -1), true);
      if (isMap(parent)) {
        const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === path[path.length - 1]);
        if (pair && isScalar(pair.key)) offset = pair.key.range?.[0];
      }
    }
    if (offset === undefined) {
      const node = path.length === 0 ? this.doc.contents : this.doc.getIn(path, true);
      offset = (node as { range?: [number, number, number] } | undefined)?.range?.[0];
    }
    if (offset === undefined) return undefined;
    const pos = this.#lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  }

  issue(severity: ConfigIssue['severity'], path: KeyPath, message: string, keyOf = false): ConfigIssue {
    const pos = this.position(path, keyOf);
    return { severity, path: formatKeyPath(path), message, file: this.file, line: pos?.line, column: pos?.column };
  }
}
