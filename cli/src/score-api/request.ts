import { isAbsolute } from 'node:path';
import { ScoreHttpError } from './response.js';

/** A Score request: the tool call to assess. */
export interface ScoreRequest {
  tool_name: string;
  arguments: Record<string, unknown>;
  session_id: string;
  /** The agent's working directory (absolute), used like the hook's `cwd`; the server's when absent. */
  cwd?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const kindOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Parses and checks a request body; every problem is a 400 naming the field. */
export function parseScoreRequest(body: string): ScoreRequest {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new ScoreHttpError(400, 'invalid_json', `the request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(value))
    throw new ScoreHttpError(400, 'invalid_body', `the request body must be a JSON object, got ${kindOf(value)}`);
  const expect = (field: string, ok: (v: unknown) => boolean, type: string) => {
    if (!(field in value)) throw new ScoreHttpError(400, 'missing_field', `field '${field}' is required (${type})`);
    if (!ok(value[field]))
      throw new ScoreHttpError(400, 'invalid_field', `field '${field}' must be ${type}, got ${kindOf(value[field])}`);
  };
  expect('tool_name', (v) => typeof v === 'string' && v !== '', 'a non-empty string');
  expect('arguments', isObject, 'an object');
  expect('session_id', (v) => typeof v === 'string', 'a string');
  const request: ScoreRequest = {
    tool_name: value['tool_name'] as string,
    arguments: value['arguments'] as Record<string, unknown>,
    session_id: value['session_id'] as string,
  };
  if ('cwd' in value && value['cwd'] !== undefined) {
    expect('cwd', (v) => typeof v === 'string' && isAbsolute(v) && !v.includes('\0'), 'an absolute path (a string)');
    request.cwd = value['cwd'] as string;
  }
  return request;
}
