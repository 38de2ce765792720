import { randomBytes } from 'node:crypto';
import { AgentgovError, type LanguagePack, type PluginHost, type RefactorEngine } from '@agentgov/core';
import type { RepositoryIndex } from '../index/repository-index.js';
import { IndexWorkspace } from './index-workspace.js';
import type { RefactorPreview } from './refactor-preview.js';

const MINUTE = 60_000;

/**
 * The refactor state of one server (one repository): the engines the language packs bring, the
 * workspace they read, and the pending previews. Previews expire after `idleMinutes` without use.
 */
export class RefactorService {
  readonly workspace: IndexWorkspace;
  readonly #previews = new Map<string, RefactorPreview>();
  readonly #packs: readonly LanguagePack[];

  constructor(
    index: RepositoryIndex,
    host: PluginHost,
    readonly idleMinutes: number,
  ) {
    this.workspace = new IndexWorkspace(index);
    this.#packs = host.registries.languages.values();
  }

  /** Every distinct engine, in pack registration order. */
  engines(): RefactorEngine[] {
    return [...new Set(this.#packs.flatMap((pack) => (pack.refactor ? [pack.refactor] : [])))];
  }

  /** The engine of an indexed file's language, or undefined when its pack brings none. */
  engineOf(path: string): RefactorEngine | undefined {
    const language = this.workspace.languageOf(path);
    const pack = language
      ? this.#packs.find((p) => p.name === language)
      : this.#packs.find((p) => p.extensions.some((ext) => path.endsWith(ext)));
    return pack?.refactor;
  }

  /** The language of a path, by its pack's extensions. */
  languageOf(path: string): string | undefined {
    return this.#packs.find((p) => p.extensions.some((ext) => path.endsWith(ext)))?.name;
  }

  add(preview: Omit<RefactorPreview, 'id' | 'lastUsed'>): RefactorPreview {
    this.#expire();
    const stored: RefactorPreview = { ...preview, id: `rf_${randomBytes(6).toString('hex')}`, lastUsed: Date.now() };
    this.#previews.set(stored.id, stored);
    return stored;
  }

  /**
   * A pending preview (its idle clock restarts), or E_PREVIEW_NOT_FOUND when unknown, applied, cancelled or expired.
   */
  get(id: string): RefactorPreview {
    this.#expire();
    const preview = this.#previews.get(id);
    if (!preview)
      throw new AgentgovError(
        'E_PREVIEW_NOT_FOUND',
        `no pending refactor preview '${id}' (unknown, already applied or cancelled, ` +
          `or expired after ${this.idleMinutes} minutes idle)`,
        { refactor_id: id },
      );
    preview.lastUsed = Date.now();
    return preview;
  }

  delete(id: string): void {
    this.#previews.delete(id);
  }

  get pending(): number {
    this.#expire();
    return this.#previews.size;
  }

  #expire(): void {
    const cutoff = Date.now() - this.idleMinutes * MINUTE;
    for (const [id, preview] of this.#previews) if (preview.lastUsed < cutoff) this.#previews.delete(id);
  }
}

const services = new WeakMap<RepositoryIndex, RefactorService>();

/** The server's refactor service: one per repository index, made on first use. */
export function refactorServiceOf(index: RepositoryIndex, host: PluginHost, idleMinutes: number): RefactorService {
  let service = services.get(index);
  if (!service) {
    service = new RefactorService(index, host, idleMinutes);
    services.set(index, service);
  }
  return service;
}
