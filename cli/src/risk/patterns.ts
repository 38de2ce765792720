/**
 * Lists of regular expressions asked one question, "does any of them match": joined into as few
 * matchers as give the same answer.
 *
 * Expressions with needles (needles.ts: strings every match must contain) become one `Prefiltered`
 * matcher that runs an expression only when the text holds one of its needles: most texts hold
 * none, and an expression never run is never compiled (V8 compiles a regular expression on its
 * first run and again on its second; a gate call without `watch` pays that on every one it runs).
 * The others are joined into one alternation per flag set, so a run touches one compiled matcher
 * instead of one per pattern. A pattern with a backreference or a named group stays on its own
 * (joining would renumber or duplicate its groups), as does a global or sticky one (their
 * lastIndex is state).
 */

/** What the rule matchers ask of a compiled pattern. */
export interface TextTester {
  test(text: string): boolean;
}

/** An expression with needles, not compiled until a text holds one of them. */
export class NeedledPattern implements TextTester {
  #re: RegExp | undefined;

  /**
   * `needles` as needles.ts gives them: lower-case when `flags` ignore case; never empty. `compiled`: the expression
   * when the caller has already built it (V8 still compiles it only on its first run).
   */
  constructor(
    readonly source: string,
    readonly flags: string,
    readonly needles: readonly string[],
    compiled?: RegExp,
  ) {
    this.#re = compiled;
  }

  get ignoreCase(): boolean {
    return this.flags.includes('i');
  }

  /** Whether the text, lower-cased when the expression ignores case, holds a needle. */
  mayMatch(haystack: string): boolean {
    return this.needles.some((needle) => haystack.includes(needle));
  }

  test(text: string): boolean {
    return this.mayMatch(this.ignoreCase ? text.toLowerCase() : text) && this.run(text);
  }

  run(text: string): boolean {
    return (this.#re ??= new RegExp(this.source, this.flags)).test(text);
  }
}

/** Expressions run only on texts holding one of their needles. */
class Prefiltered implements TextTester {
  constructor(readonly members: readonly NeedledPattern[]) {}

  test(text: string): boolean {
    let lower: string | undefined;
    for (const member of this.members) {
      const haystack = member.ignoreCase ? (lower ??= text.toLowerCase()) : text;
      if (member.mayMatch(haystack) && member.run(text)) return true;
    }
    return false;
  }
}

export function joinPatterns(patterns: readonly TextTester[]): TextTester[] {
  const filtered: NeedledPattern[] = [];
  const plain: RegExp[] = [];
  const other: TextTester[] = [];
  for (const pattern of patterns) {
    if (pattern instanceof Prefiltered) filtered.push(...pattern.members);
    else if (pattern instanceof NeedledPattern) filtered.push(pattern);
    else if (pattern instanceof RegExp) plain.push(pattern);
    else other.push(pattern);
  }
  const prefiltered = filtered.length > 0 ? [new Prefiltered(filtered)] : [];
  return [...prefiltered, ...joinRegExps(plain), ...other];
}

function joinRegExps(patterns: RegExp[]): RegExp[] {
  if (patterns.length < 2) return patterns;
  const alone: RegExp[] = [];
  const byFlags = new Map<string, RegExp[]>();
  for (const re of patterns) {
    if (re.global || re.sticky || /\\[1-9k]|\(\?<(?![=!])/.test(re.source)) alone.push(re);
    else {
      const group = byFlags.get(re.flags);
      if (group) group.push(re);
      else byFlags.set(re.flags, [re]);
    }
  }
  const joined: RegExp[] = [];
  for (const [flags, group] of byFlags) {
    if (group.length === 1) {
      joined.push(group[0] as RegExp);
      continue;
    }
    try {
      joined.push(new RegExp(group.map((re) => `(?:${re.source})`).join('|'), flags));
    } catch {
      joined.push(...group);
    }
  }
  return [...joined, ...alone];
}

/** Whether any of the patterns matches the text. */
export function anyMatches(patterns: readonly TextTester[], text: string): boolean {
  for (const re of patterns) if (re.test(text)) return true;
  return false;
}
