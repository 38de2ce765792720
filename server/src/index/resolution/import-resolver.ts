import type { ExtractedImport, LanguagePack, PackModules } from '@agentgov/core';
import { repoTextReader } from '../../paths/repo-text.js';
import type { ImportEdge } from '../types.js';
import { EcmascriptModuleResolver } from './ecmascript-modules.js';
import { PythonModuleResolver } from './python-modules.js';

/** Resolves every import of every language against one snapshot of the repository's files. */
export class ImportResolver {
  readonly #ecmascript: EcmascriptModuleResolver;
  readonly #python: PythonModuleResolver;
  readonly #packs = new Map<LanguagePack, PackModules | null>();
  readonly #root: string;
  readonly #files: ReadonlySet<string>;

  constructor(root: string, files: ReadonlySet<string>, configFiles: readonly string[]) {
    this.#root = root;
    this.#files = files;
    this.#ecmascript = new EcmascriptModuleResolver(root, files, configFiles);
    this.#python = new PythonModuleResolver(files);
  }

  /** The pack's own resolver, built on first use for this snapshot; null when the pack has none. */
  #packModules(pack: LanguagePack): PackModules | null {
    if (!this.#packs.has(pack)) {
      const root = this.#root;
      const readText = repoTextReader(root);
      this.#packs.set(pack, pack.modules ? pack.modules({ root, files: this.#files, readText }) : null);
    }
    return this.#packs.get(pack) ?? null;
  }

  /** The files `path` sees without an import (its pack's `packageScope`); empty for other packs. */
  packageScope(path: string, pack: LanguagePack | undefined): string[] {
    if (pack?.moduleSystem !== 'pack') return [];
    return this.#packModules(pack)?.packageScope?.(path) ?? [];
  }

  /**
   * One edge per import statement; a Python `from pkg import mod` whose name is a submodule
   * gets its own namespace edge to that module, so the file graph sees it.
   */
  resolve(path: string, pack: LanguagePack | undefined, imports: readonly ExtractedImport[]): ImportEdge[] {
    const moduleSystem = pack?.moduleSystem ?? 'ecmascript';
    const edges: ImportEdge[] = [];
    // A pack's package import is stored as one edge per file it reaches; re-resolving those stored edges (the
    // file set changed) must read them as the one import they are, or each sync multiplies them by the package size.
    const seen = new Set<string>();
    for (const entry of imports) {
      if (moduleSystem === 'pack') {
        const key = JSON.stringify([entry.kind, entry.specifier, entry.line, entry.star, entry.bindings]);
        if (seen.has(key)) continue;
        seen.add(key);
      }
      const edge = (to: string | null, specifier: string, bindings: ExtractedImport['bindings']): ImportEdge => ({
        from_path: path,
        specifier,
        kind: entry.kind,
        to_path: to === path ? null : to,
        names: bindings.map((binding) => binding.imported),
        bindings,
        star: entry.star,
        line: entry.line,
      });
      if (moduleSystem === 'ecmascript') {
        edges.push(edge(this.#ecmascript.resolve(path, entry.specifier), entry.specifier, entry.bindings));
        continue;
      }
      if (moduleSystem === 'pack') {
        // One edge per file the import names: a package import reaches every file of the package.
        const targets = pack ? (this.#packModules(pack)?.resolve(path, entry.specifier) ?? []) : [];
        // An implicit import (a Java same-package type) that names no file is nothing, not an external import.
        if (targets.length === 0 && !entry.implicit) edges.push(edge(null, entry.specifier, entry.bindings));
        for (const target of targets) edges.push(edge(target, entry.specifier, entry.bindings));
        continue;
      }
      const target = this.#python.resolve(path, entry.specifier);
      const plain: ExtractedImport['bindings'] = [];
      const submodules: ImportEdge[] = [];
      for (const binding of entry.bindings) {
        const submodule = target && binding.imported !== '*' ? this.#python.submodule(target, binding.imported) : null;
        if (submodule) {
          const separator = entry.specifier.endsWith('.') ? '' : '.';
          submodules.push({
            ...edge(submodule, `${entry.specifier}${separator}${binding.imported}`, [
              { imported: '*', local: binding.local },
            ]),
            star: false,
          });
        } else plain.push(binding);
      }
      if (plain.length > 0 || entry.star || submodules.length === 0) edges.push(edge(target, entry.specifier, plain));
      edges.push(...submodules);
    }
    return edges;
  }
}
