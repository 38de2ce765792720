import { createHash } from 'node:crypto';

/** A definition as the diff compares it. */
export interface DiffDefinition {
  path: string;
  name: string;
  qualified_name: string;
  kind: string;
  start_line: number;
  end_line: number;
  signature: string | null;
  /** Hash of the definition's text with its own name blanked, so a pure rename keeps the hash. */
  shape_hash: string;
  /** Hash of the definition's text. */
  body_hash: string;
}

export interface DefinitionChange {
  change: 'added' | 'removed' | 'modified' | 'renamed' | 'signature_changed';
  path: string;
  name: string;
  qualified_name: string;
  kind: string;
  line: number;
  old_path?: string;
  old_name?: string;
  old_signature?: string | null;
  signature?: string | null;
}

/** The two hashes of a definition's source text. */
export function hashDefinition(text: string, name: string): { body_hash: string; shape_hash: string } {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const shape = name ? text.replace(new RegExp(`(?<![\\w$])${escaped}(?![\\w$])`, 'g'), '\u0000') : text;
  const h = (s: string) => createHash('sha1').update(s).digest('hex').slice(0, 16);
  return { body_hash: h(text), shape_hash: h(shape) };
}

const key = (d: DiffDefinition) => `${d.kind}:${d.qualified_name}`;

/**
 * Compares definitions of a base and a target version. Same kind and qualified name (in the same
 * file or its renamed path): signature change beats body change. Left-overs pair up as renames
 * when their text is the same apart from the name; the rest are added or removed.
 */
export function compareDefinitions(
  before: DiffDefinition[],
  after: DiffDefinition[],
  renamedFiles: Map<string, string>,
): DefinitionChange[] {
  const changes: DefinitionChange[] = [];
  const fileOf = (d: DiffDefinition) => renamedFiles.get(d.path) ?? d.path;
  const afterByKey = new Map<string, DiffDefinition[]>();
  for (const d of after) afterByKey.set(`${d.path}|${key(d)}`, [...(afterByKey.get(`${d.path}|${key(d)}`) ?? []), d]);
  const removed: DiffDefinition[] = [];
  const matched = new Set<DiffDefinition>();
  for (const old of before) {
    const candidates = afterByKey.get(`${fileOf(old)}|${key(old)}`);
    const next = candidates?.shift();
    if (!next) {
      removed.push(old);
      continue;
    }
    matched.add(next);
    const base = {
      path: next.path,
      name: next.name,
      qualified_name: next.qualified_name,
      kind: next.kind,
      line: next.start_line,
      ...(old.path !== next.path ? { old_path: old.path } : {}),
    };
    if ((old.signature ?? '') !== (next.signature ?? ''))
      changes.push({ change: 'signature_changed', ...base, old_signature: old.signature, signature: next.signature });
    else if (old.body_hash !== next.body_hash) changes.push({ change: 'modified', ...base });
  }
  const added = after.filter((d) => !matched.has(d));
  const addedByShape = new Map<string, DiffDefinition[]>();
  for (const d of added)
    addedByShape.set(`${d.kind}:${d.shape_hash}`, [...(addedByShape.get(`${d.kind}:${d.shape_hash}`) ?? []), d]);
  const renamedTo = new Set<DiffDefinition>();
  for (const old of removed) {
    const next = addedByShape
      .get(`${old.kind}:${old.shape_hash}`)
      ?.find((d) => !renamedTo.has(d) && d.name !== old.name);
    if (next) {
      renamedTo.add(next);
      changes.push({
        change: 'renamed',
        path: next.path,
        name: next.name,
        qualified_name: next.qualified_name,
        kind: next.kind,
        line: next.start_line,
        old_name: old.name,
        ...(old.path !== next.path ? { old_path: old.path } : {}),
      });
    } else {
      changes.push({
        change: 'removed',
        path: old.path,
        name: old.name,
        qualified_name: old.qualified_name,
        kind: old.kind,
        line: old.start_line,
      });
    }
  }
  for (const d of added)
    if (!renamedTo.has(d))
      changes.push({
        change: 'added',
        path: d.path,
        name: d.name,
        qualified_name: d.qualified_name,
        kind: d.kind,
        line: d.start_line,
      });
  return changes.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.change.localeCompare(b.change));
}
