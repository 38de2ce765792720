// The few vitest hooks the coverage setup file calls. The plugin does not depend on vitest: the
// setup file runs inside the project's own vitest, which provides the module.
declare module 'vitest' {
  type Hook<T> = (context: T) => unknown;
  export function beforeAll(fn: Hook<never>): void;
  export function afterAll(fn: Hook<never>): void;
  export function beforeEach(fn: Hook<never>): void;
  export function afterEach(fn: Hook<never>): void;
  export const expect: { getState(): { testPath?: string } };
}
