import { AgentgovError } from '../errors/agentgov-error.js';

export interface RegisteredProvider<T> {
  provider: T;
  /** Name of the plugin that registered it. */
  plugin: string;
}

/**
 * Named providers added by plugins during a registration hook (retrievers, sinks, ...).
 * Names are unique per registry: a second provider with the same name is an error, never a silent override.
 */
export class ProviderRegistry<T extends { name: string }> {
  readonly #entries = new Map<string, RegisteredProvider<T>>();
  #currentPlugin = '(host)';

  constructor(readonly kind: string) {}

  /** Set by the host while a plugin's registration tap runs, so providers are attributed. */
  withPlugin<R>(plugin: string, fn: () => R): R {
    const previous = this.#currentPlugin;
    this.#currentPlugin = plugin;
    try {
      return fn();
    } finally {
      this.#currentPlugin = previous;
    }
  }

  add(provider: T): void {
    const existing = this.#entries.get(provider.name);
    if (existing) {
      throw new AgentgovError(
        'E_PLUGIN_CONFLICT',
        `${this.kind} '${provider.name}' is registered twice (by ${existing.plugin} and by ${this.#currentPlugin})`,
        {
          kind: this.kind,
          name: provider.name,
          plugin: this.#currentPlugin,
          plugins: [existing.plugin, this.#currentPlugin],
        },
      );
    }
    this.#entries.set(provider.name, { provider, plugin: this.#currentPlugin });
  }

  get(name: string): T | undefined {
    return this.#entries.get(name)?.provider;
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  values(): T[] {
    return [...this.#entries.values()].map((entry) => entry.provider);
  }

  entries(): RegisteredProvider<T>[] {
    return [...this.#entries.values()];
  }

  get size(): number {
    return this.#entries.size;
  }
}
