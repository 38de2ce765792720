import { LineCounter, isMap, isScalar, parseDocument, type Document } from 'yaml';

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

/** A parsed YAML config file that can say where any key path sits (line:column). */
export class ConfigDocument {
  readonly doc: Document;
  readonly #lines = new LineCounter();

  constructor(
    readonly text: string,
    readonly file: string,
  ) {
    this.doc = parseDocument(text, { lineCounter: this.#lines, prettyErrors: true, uniqueKeys: true });
  }

  /** YAML syntax errors, with positions. */
  syntaxIssues(): ConfigIssue[] {
    return this.doc.errors.map((error) => {
      const pos = error.linePos?.[0];
      return { severity: 'error', path: '(yaml)', message: error.message.split('\n')[0] ?? error.message, file: this.file, line: pos?.line, column: pos?.col };
    });
  }

  value(): unknown {
    return this.doc.toJS() ?? {};
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
