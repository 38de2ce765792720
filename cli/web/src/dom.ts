/**
 * Building the page without innerHTML: every recorded command, path and reason is text set with
 * textContent, so a call that recorded `<script>` shows it and never runs it.
 */
export type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
  return element;
}

/** A link to a page route with query parameters (empty ones left out), so every view is a stable URL. */
export function href(path: string, params: Record<string, string | number | undefined> = {}): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== '') query.set(name, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

export const number = (n: number): string => n.toLocaleString('en-US');

/** `2026-11-20T10:04:05.123Z` → `2026-11-20 10:04:05` (UTC, as recorded). */
export const time = (iso: string): string => iso.replace('T', ' ').replace(/(\.\d+)?Z$/, '');

export function badge(kind: 'level' | 'action', value: string): HTMLElement {
  return h('span', { class: `badge ${kind}-${value}` }, value);
}

export function table(headers: string[], rows: Child[][], attributes: Attributes = {}): HTMLTableElement {
  return h(
    'table',
    attributes,
    h('thead', {}, h('tr', {}, ...headers.map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell) => h('td', {}, cell))))),
  );
}
