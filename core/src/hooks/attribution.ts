import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tap } from 'tapable';
import { AgentgovError } from '../errors/agentgov-error.js';
import type { AgentgovHooks, HookName } from './hooks.js';
import { ProviderRegistry } from './registry.js';

export interface TapRecord {
  plugin: string;
  hook: HookName;
  /** The name the tap was registered under (normally the plugin's name). */
  tap: string;
  type: string;
  stage: number;
}

type AnyFn = (...args: unknown[]) => unknown;
type TapInfo = Tap & { fn: AnyFn; type: string };

/**
 * Records which plugin tapped which hook, and wraps every tap so that an error thrown inside it
 * names the plugin and the hook. Providers added to a registry during a registration tap are
 * attributed to the tapping plugin. Install it on a host's hooks before any plugin is applied.
 */
export class TapAttribution {
  readonly taps: TapRecord[] = [];
  /** The plugin being applied; kept across the awaits of an async `apply`, and per `apply` when two overlap. */
  readonly #current = new AsyncLocalStorage<string>();

  constructor(hooks: AgentgovHooks) {
    for (const hookName of Object.keys(hooks) as HookName[]) {
      const hook = hooks[hookName] as unknown as { intercept(i: { register: (t: TapInfo) => TapInfo }): void };
      hook.intercept({ register: (tapInfo) => this.#register(hookName, tapInfo) });
    }
  }

  /** Runs `fn` (a plugin's `apply`, sync or async) with every tap it makes attributed to `plugin`. */
  applying<R>(plugin: string, fn: () => R): R {
    return this.#current.run(plugin, fn);
  }

  /** Hooks tapped by a plugin, in first-tap order, without duplicates. */
  hooksOf(plugin: string): HookName[] {
    return [...new Set(this.taps.filter((t) => t.plugin === plugin).map((t) => t.hook))];
  }

  #register(hook: HookName, tapInfo: TapInfo): TapInfo {
    const plugin = this.#current.getStore() ?? tapInfo.name;
    this.taps.push({ plugin, hook, tap: tapInfo.name, type: tapInfo.type, stage: tapInfo.stage ?? 0 });
    return { ...tapInfo, fn: wrapTap(plugin, hook, tapInfo) };
  }
}

function pluginFailure(plugin: string, hook: HookName, error: unknown): AgentgovError {
  // Errors are values: a plugin's own coded error passes through unchanged.
  if (error instanceof AgentgovError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AgentgovError(
    'E_PLUGIN_FAILED',
    `plugin '${plugin}' failed in hook '${hook}': ${message}`,
    { plugin, hook },
    { cause: error },
  );
}

function wrapTap(plugin: string, hook: HookName, tapInfo: TapInfo): AnyFn {
  const fn = tapInfo.fn;
  switch (tapInfo.type) {
    case 'promise':
      return async (...args: unknown[]) => {
        try {
          return await fn(...args);
        } catch (error) {
          throw pluginFailure(plugin, hook, error);
        }
      };
    case 'async':
      return (...args: unknown[]) => {
        const callback = args.pop() as (err?: unknown, result?: unknown) => void;
        try {
          fn(...args, (err?: unknown, result?: unknown) =>
            callback(err ? pluginFailure(plugin, hook, err) : err, result),
          );
        } catch (error) {
          callback(pluginFailure(plugin, hook, error));
        }
      };
    default:
      return (...args: unknown[]) => {
        try {
          const [first] = args;
          if (first instanceof ProviderRegistry) return first.withPlugin(plugin, () => fn(...args));
          return fn(...args);
        } catch (error) {
          throw pluginFailure(plugin, hook, error);
        }
      };
  }
}
