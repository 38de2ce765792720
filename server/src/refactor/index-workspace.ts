import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RefactorWorkspace } from '@agentgov/core';
import type { RepositoryIndex } from '../index/repository-index.js';

/**
 * The repository as refactor engines see it: the index's files and facts, and file texts read
 * from disk, cached while the file's size and mtime hold (the script version a language service
 * keys its incremental work on).
 */
export class IndexWorkspace implements RefactorWorkspace {
  readonly #texts = new Map<string, { version: string; text: string | undefined }>();

  constructor(readonly index: RepositoryIndex) {}

  get root(): string {
    return this.index.root;
  }

  /** The index's files, listed once per index epoch. */
  files(): Array<{ path: string; language: string }> {
    const epoch = this.index.epoch();
    if (this.#files?.epoch !== epoch)
      this.#files = { epoch, list: this.index.files().map((file) => ({ path: file.path, language: file.language })) };
    return this.#files.list;
  }

  /** The language pack name of an indexed file. */
  languageOf(path: string): string | undefined {
    const epoch = this.index.epoch();
    if (this.#languages?.epoch !== epoch)
      this.#languages = { epoch, byPath: new Map(this.files().map((f) => [f.path, f.language])) };
    return this.#languages.byPath.get(path);
  }

  #files: { epoch: number; list: Array<{ path: string; language: string }> } | undefined;
  #languages: { epoch: number; byPath: Map<string, string> } | undefined;

  version(path: string): string {
    try {
      const stats = statSync(join(this.root, path));
      return `${stats.mtimeMs}:${stats.size}`;
    } catch {
      return 'missing';
    }
  }

  read(path: string): string | undefined {
    const version = this.version(path);
    const cached = this.#texts.get(path);
    if (cached?.version === version) return cached.text;
    let text: string | undefined;
    try {
      text = version === 'missing' ? undefined : readFileSync(join(this.root, path), 'utf8');
    } catch {
      text = undefined;
    }
    this.#texts.set(path, { version, text });
    return text;
  }

  definitions(filter: { path?: string; name?: string; qualifiedName?: string }) {
    return this.index.definitions(filter);
  }

  references(filter: { toDefUid?: string; name?: string; path?: string }) {
    return this.index.references(filter);
  }

  imports(path: string) {
    return this.index.imports(path);
  }

  importers(path: string) {
    return this.index.importers(path);
  }
}
