import picocolors from 'picocolors';

/** picocolors' colour functions (`red`, `green`, `bold` …), each the identity when colour is off. */
export type Colours = ReturnType<typeof picocolors.createColors>;

/**
 * Whether to colour output to `stream`, by the conventions picocolors follows for stdout, applied
 * to the stream actually written: `NO_COLOR` (set and not empty, https://no-color.org) turns colour
 * off; else `FORCE_COLOR` (anything but `0` or `false`) turns it on, even into a pipe; else only a
 * terminal that is not `TERM=dumb` gets colour.
 */
export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env['NO_COLOR']) return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

/** The colour functions for output to `stream` ({@link colourEnabled} decides whether they colour). */
export function terminalColours(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Colours {
  return coloursFor(colourEnabled(stream, env));
}

const ON: Colours = picocolors.createColors(true);
const OFF: Colours = picocolors.createColors(false);

/** Colour functions that colour, or (false) the identity functions: for a decision already taken. */
export function coloursFor(enabled: boolean): Colours {
  return enabled ? ON : OFF;
}
