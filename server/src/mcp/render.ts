/**
 * The generic readable rendering of a structured result: indented `key: value` lines, lists as
 * `- item`, scalars inline. Tools with a better layout provide their own `render`.
 */
export function renderValue(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return `${indent}null`;
  if (typeof value !== 'object') return `${indent}${scalar(value)}`;
  const lines: string[] = [];
  if (Array.isArray(value)) {
    if (value.length === 0) return `${indent}[]`;
    for (const item of value) {
      if (isScalar(item)) lines.push(`${indent}- ${scalar(item)}`);
      else lines.push(`${indent}-\n${renderValue(item, `${indent}  `)}`);
    }
    return lines.join('\n');
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return `${indent}{}`;
  for (const [key, item] of entries) {
    if (isScalar(item) || (Array.isArray(item) && item.length === 0))
      lines.push(`${indent}${key}: ${Array.isArray(item) ? '[]' : scalar(item)}`);
    else if (Array.isArray(item) && item.every(isScalar) && item.join(', ').length <= 100)
      lines.push(`${indent}${key}: ${item.map(scalar).join(', ')}`);
    else lines.push(`${indent}${key}:\n${renderValue(item, `${indent}  `)}`);
  }
  return lines.join('\n');
}

function isScalar(value: unknown): boolean {
  return value === null || value === undefined || typeof value !== 'object';
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value.includes('\n') ? JSON.stringify(value) : value;
  return String(value);
}
