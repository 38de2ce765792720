/**
 * Needles: for a rule's regular expression, a few strings of which every match must contain at least one (`^(pip|uv)
 * install` → `pip install`, `uv install`). A text holding none of them cannot match, so the matcher skips the
 * expression without running it (patterns.ts): V8 compiles an expression on its first run and again on its second, and
 * a gate call without `watch` pays for that on every expression it runs (bench/gate).
 *
 * Computed where the rules are read and validated (rules.ts, with regexpp's parser), kept in the gate cache beside the
 * specs; the gate's lean path only looks them up. An expression whose matches need no literal (`\w+\.conf$`), that
 * regexpp cannot parse, or whose case folding could reach beyond ASCII (the `u` or `v` flag with `i`) has none and is
 * always run.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { ruleRegexSources } from './rule-compile.js';
import type { RuleFileSpec } from './rule-schema.js';

/** A set of needles: any one of them in the text, or the expression cannot match. */
type NeedleSet = string[];

/** More alternatives than this and the set costs more to check than the expression to run. */
const MAX_NEEDLES = 64;

const parser = new RegExpParser({ ecmaVersion: 2024 });

/**
 * The needles of a rule expression as rules write it (a leading `(?i)` makes it case-insensitive; the needles are then
 * lower-case ASCII, to be looked for in the lower-cased text), or undefined when it has none.
 */
export function ruleRegexNeedles(source: string): string[] | undefined {
  const insensitive = source.startsWith('(?i)');
  return regexNeedles(insensitive ? source.slice(4) : source, insensitive ? 'i' : '');
}

/** The needles of `new RegExp(source, flags)`, or undefined when it has none. */
export function regexNeedles(source: string, flags: string): string[] | undefined {
  const unicode = flags.includes('u') || flags.includes('v');
  if (unicode && flags.includes('i')) return undefined;
  let pattern: AST.Pattern;
  try {
    pattern = parser.parsePattern(source, 0, source.length, {
      unicode: flags.includes('u'),
      unicodeSets: flags.includes('v'),
    });
  } catch {
    return undefined;
  }
  const set = ofAlternatives(pattern.alternatives, flags.includes('i'));
  return set && set.length > 0 && set.every((needle) => needle !== '') ? [...new Set(set)] : undefined;
}

/** Every regular expression of the rule files' specs (as written) with its needles, where it has any. */
export function needleTable(specs: readonly RuleFileSpec[]): Map<string, string[]> {
  const table = new Map<string, string[]>();
  for (const source of ruleRegexSources(specs)) {
    const needles = ruleRegexNeedles(source);
    if (needles) table.set(source, needles);
  }
  return table;
}

function ofAlternatives(alternatives: readonly AST.Alternative[], insensitive: boolean): NeedleSet | undefined {
  const union: string[] = [];
  for (const alternative of alternatives) {
    const set = ofSequence(alternative.elements, insensitive);
    if (!set) return undefined;
    union.push(...set);
    if (union.length > MAX_NEEDLES) return undefined;
  }
  return union;
}

/**
 * A sequence must contain each of its required parts, so any one part's needles serve: runs of literal characters
 * (joined across zero-width assertions) and required groups are the candidates, and the most selective is kept.
 */
function ofSequence(elements: readonly AST.Element[], insensitive: boolean): NeedleSet | undefined {
  const candidates: NeedleSet[] = [];
  let run = '';
  const close = (): void => {
    if (run !== '') candidates.push([run]);
    run = '';
  };
  for (const element of elements) {
    if (element.type === 'Assertion') continue; // zero-width: the characters either side are adjacent in a match
    const char = literalChar(element, insensitive);
    if (char !== undefined) {
      run += char;
      continue;
    }
    if (element.type === 'Quantifier' && element.min >= 1) {
      const repeated = literalChar(element.element, insensitive);
      if (repeated !== undefined) {
        run += repeated;
        close();
        continue;
      }
      close();
      const inner = ofElement(element.element, insensitive);
      if (inner) candidates.push(inner);
      continue;
    }
    close();
    const inner = ofElement(element, insensitive);
    if (inner) candidates.push(inner);
  }
  close();
  let best: NeedleSet | undefined;
  for (const candidate of candidates) if (!best || better(candidate, best)) best = candidate;
  return best;
}

function ofElement(element: AST.Element, insensitive: boolean): NeedleSet | undefined {
  if (element.type === 'CapturingGroup') return ofAlternatives(element.alternatives, insensitive);
  if (element.type === 'Group') {
    // A group that changes its own flags (`(?i:…)`) is read by rules this module does not know: no needles.
    if ((element as { modifiers?: unknown }).modifiers) return undefined;
    return ofAlternatives(element.alternatives, insensitive);
  }
  return undefined;
}

/** The character an element always matches, as the needle holds it; undefined when it is not one character. */
function literalChar(element: AST.Element | AST.QuantifiableElement, insensitive: boolean): string | undefined {
  let value: number | undefined;
  if (element.type === 'Character') value = element.value;
  else if (
    element.type === 'CharacterClass' &&
    !element.negate &&
    element.elements.length === 1 &&
    element.elements[0]?.type === 'Character'
  )
    value = element.elements[0].value;
  if (value === undefined) return undefined;
  // Case-insensitive matching outside ASCII folds in ways `toLowerCase` does not mirror: such a character ends a run.
  if (insensitive && value > 0x7f) return undefined;
  const char = String.fromCodePoint(value);
  return insensitive ? char.toLowerCase() : char;
}

/** The more selective set: its shortest needle longer, then fewer needles. */
function better(a: NeedleSet, b: NeedleSet): boolean {
  const shortest = (set: NeedleSet): number => Math.min(...set.map((needle) => needle.length));
  const [la, lb] = [shortest(a), shortest(b)];
  return la !== lb ? la > lb : a.length < b.length;
}
