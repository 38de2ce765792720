import type { Gate, GateFeatures } from './gate.js';

/** The `hint` texts of recon, one per gate, in one place. */
export const RECON_HINTS = {
  OK: (top: string | undefined) =>
    `Read the full snippets first${top ? ` (starting with ${top})` : ''}; before ` +
    `changing a symbol's name or signature, run recon_impact on it.`,
  UNSAT: (missing: string[], parts: Record<string, string[]> = {}) =>
    missing.length > 0
      ? `Not in this repository: ${missing.map((m) => `'${m}'${partsOf(m, parts)}`).join(', ')}. Check ` +
        `the names (recon_scout gives an overview) or describe the behaviour in plain ` +
        `words.`
      : 'Nothing in this repository matches the task. Check the names (recon_scout ' +
        'gives an overview) or describe the behaviour in plain words.',
  BROAD: (spread: number) =>
    `The task matches weakly across ${spread} directories. Name a symbol, file ` +
    `or subsystem (seeds, pins), or split the task into narrower ones.`,
  AMBIG: (term: string, subsystems: string[]) =>
    `'${term}' matches in ${subsystems.length} subsystems: ` +
    `${subsystems.join(', ')}. Say which one (name it in the task, or pass a ` +
    `file of it in pins).`,
} as const;

export function reconHint(gate: Gate, features: GateFeatures, topName: string | undefined): string {
  switch (gate) {
    case 'OK':
      return RECON_HINTS.OK(topName);
    case 'UNSAT':
      // Names written in the task first, then the task's distinctive words this repository lacks (off-topic).
      return RECON_HINTS.UNSAT(missingNames(features), features.mentions_missing_parts);
    case 'BROAD':
      return RECON_HINTS.BROAD(features.spread);
    case 'AMBIG':
      return RECON_HINTS.AMBIG(features.ambiguous_term ?? '?', features.subsystems);
  }
}

/** What the task names that this repository lacks: its identifiers and paths, then its other distinctive words. */
function missingNames(features: GateFeatures): string[] {
  const named = new Set(features.mentions_missing.flatMap((m) => [m.toLowerCase(), ...m.toLowerCase().split('.')]));
  const words = features.words_missing.filter((word) => !named.has(word));
  return [...features.mentions_missing, ...words].slice(0, MAX_NAMED);
}

/** Names listed in an UNSAT hint at most. */
const MAX_NAMED = 8;

/** What of a qualified mention is missing: ` (no 'app')` for `app.run` when the repository has `run`. */
function partsOf(mention: string, parts: Record<string, string[]>): string {
  // An own key only: a mention may be written `__proto__`.
  if (!Object.hasOwn(parts, mention)) return '';
  const absent = parts[mention] ?? [];
  const whole = mention.split('.').filter(Boolean);
  if (absent.length === 0) return ' (its parts occur, but not written together)';
  if (absent.length === whole.length) return '';
  return ` (no ${absent.map((p) => `'${p}'`).join(', ')})`;
}
