/** The dashboard page: one route per stable URL, each rendered from the JSON API under /api. */
import { ApiError } from './api.js';
import { h } from './dom.js';
import { renderCall } from './views/call.js';
import { renderOverview } from './views/overview.js';
import { renderSession } from './views/session.js';
import { renderSessions } from './views/sessions.js';

async function route(root: HTMLElement): Promise<void> {
  const params = new URLSearchParams(location.search);
  const parts = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0) return renderOverview(root, params);
  if (parts[0] === 'sessions' && parts.length === 1) return renderSessions(root, params);
  if (parts[0] === 'sessions' && parts.length === 3) return renderSession(root, parts[1]!, parts[2]!, params);
  if (parts[0] === 'calls' && parts.length === 2) return renderCall(root, parts[1]!);
  root.append(h('p', { class: 'error' }, `no page at ${location.pathname}`));
}

const root = document.getElementById('app')!;
document.querySelectorAll<HTMLAnchorElement>('nav.top a').forEach((a) => {
  if (a.pathname === location.pathname || (a.pathname === '/sessions' && location.pathname.startsWith('/sessions')))
    a.classList.add('current');
});
route(root)
  .catch((error: unknown) => {
    const message = error instanceof ApiError ? `${error.code}: ${error.message}` : String(error);
    root.append(h('p', { class: 'error', role: 'alert', 'data-testid': 'error' }, message));
  })
  .finally(() => document.body.setAttribute('data-ready', 'true'));
