import { AgentgovError, type LanguagePack } from '@agentgov/core';
import { extractFile } from '../index/extract-file.js';
import type { RepositoryIndex } from '../index/repository-index.js';
import { changedFiles, type FileChange } from './git-versions.js';
import { compareDefinitions, hashDefinition, type DefinitionChange, type DiffDefinition } from './compare.js';

export interface SemanticDiffResult {
  base: string;
  target: string;
  changes: DefinitionChange[];
  counts: Record<DefinitionChange['change'], number>;
  files_compared: number;
  /** Changed files no language pack parses; counted, never silently dropped. */
  skipped: { path: string; reason: string }[];
  scope_id?: string;
}

const EPOCH_REF = /^epoch:(\d+)$/;

/** Definitions of one version of a file, with the hashes the comparison needs; null when unparsable. */
function definitionsOf(path: string, text: string, languages: readonly LanguagePack[]): DiffDefinition[] | null {
  const facts = extractFile(path, text, languages);
  if (!facts) return null;
  const lines = text.split('\n');
  return facts.definitions.map((d) => {
    const body = lines.slice(d.start_line - 1, d.end_line).join('\n');
    return {
      path,
      name: d.name,
      qualified_name: d.qualified_name,
      kind: d.kind,
      start_line: d.start_line,
      end_line: d.end_line,
      signature: d.signature,
      body_hash: d.body_hash,
      shape_hash: hashDefinition(body, d.name).shape_hash,
    };
  });
}

function counts(changes: DefinitionChange[]): SemanticDiffResult['counts'] {
  const out = { added: 0, removed: 0, modified: 0, renamed: 0, signature_changed: 0 };
  for (const c of changes) out[c.change] += 1;
  return out;
}

/** Definitions changed between two git refs (target null = the working tree), parsed from both versions. */
export async function diffRefs(
  root: string,
  base: string,
  target: string | null,
  paths: string[],
  languages: readonly LanguagePack[],
): Promise<SemanticDiffResult> {
  const files: FileChange[] = await changedFiles(root, base, target, paths);
  const before: DiffDefinition[] = [];
  const after: DiffDefinition[] = [];
  const renamedFiles = new Map<string, string>();
  const skipped: SemanticDiffResult['skipped'] = [];
  let compared = 0;
  for (const file of files) {
    if (file.oldPath && file.newPath && file.oldPath !== file.newPath) renamedFiles.set(file.oldPath, file.newPath);
    const oldDefs = file.oldPath && file.oldText !== null ? definitionsOf(file.oldPath, file.oldText, languages) : [];
    const newDefs = file.newPath && file.newText !== null ? definitionsOf(file.newPath, file.newText, languages) : [];
    if (oldDefs === null || newDefs === null) {
      skipped.push({ path: (file.newPath ?? file.oldPath) as string, reason: 'no language pack parses this file' });
      continue;
    }
    compared += 1;
    before.push(...oldDefs);
    after.push(...newDefs);
  }
  const changes = compareDefinitions(before, after, renamedFiles);
  return {
    base,
    target: target ?? 'working tree',
    changes,
    counts: counts(changes),
    files_compared: compared,
    skipped,
  };
}

/**
 * Definitions changed since index epoch N, from the definition history the index keeps per
 * epoch (added, removed, modified by body hash). The target is the index's current state.
 */
export function diffEpoch(index: RepositoryIndex, base: string, paths: string[]): SemanticDiffResult {
  const epoch = Number(EPOCH_REF.exec(base)?.[1]);
  if (!Number.isSafeInteger(epoch) || epoch < 0 || epoch > index.epoch()) {
    const remediation =
      `The index is at epoch ${index.epoch()}: pass base "epoch:N" with N from ` +
      `0 to ${index.epoch()}, or a git ref (a commit, branch or tag).`;
    throw new AgentgovError(
      'E_NOT_FOUND',
      `unknown index epoch '${base}' (the index is at epoch ${index.epoch()})`,
      { base, current_epoch: index.epoch() },
      { remediation },
    );
  }
  const inScope = (path: string) =>
    paths.length === 0 || paths.some((p) => path === p || path.startsWith(`${p.replace(/\/$/, '')}/`));
  const changes: DefinitionChange[] = index
    .definitionsChangedSince(epoch)
    .filter((c) => inScope(c.path))
    .map((c) => {
      const current = c.change === 'removed' ? undefined : index.definition(c.def_uid);
      const name = current?.name ?? c.qualified_name.split('.').pop() ?? c.qualified_name;
      return {
        change: c.change,
        path: c.path,
        name,
        qualified_name: c.qualified_name,
        kind: c.kind,
        line: current?.start_line ?? 0,
      };
    })
    .sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  return {
    base,
    target: `epoch:${index.epoch()}`,
    changes,
    counts: counts(changes),
    files_compared: new Set(changes.map((c) => c.path)).size,
    skipped: [],
  };
}

export function isEpochRef(ref: string): boolean {
  return EPOCH_REF.test(ref);
}
