import { isIP } from 'node:net';

/**
 * Where a URL (or a bare host) points, as classes rules can name with `url_hosts`. The host is
 * read through the WHATWG URL parser, so every spelling of an address is the same address
 * (`http://2852039166/`, `http://0xa9.0xfe.0xa9.0xfe/` and `http://169.254.169.254/` alike).
 */
export const HOST_CLASSES = {
  metadata: 'A cloud metadata endpoint: 169.254.169.254, 169.254.170.2 (ECS), fd00:ec2::254, metadata.google.internal, metadata.azure.com, 100.100.100.200 (Alibaba).',
  link_local: 'A link-local address: 169.254.0.0/16, fe80::/10.',
  loopback_admin: 'An admin API on this machine: a loopback address on an admin port (Docker 2375/2376, kubelet 10250/10255, etcd 2379/2380, Kubernetes API 6443, kubectl proxy 8001, Consul 8500, Nomad 4646, Vault 8200) or the Docker socket.',
} as const;

const METADATA_HOSTS = new Set(['169.254.169.254', '169.254.170.2', '[fd00:ec2::254]', '100.100.100.200', 'metadata.google.internal', 'metadata', 'metadata.azure.com', 'metadata.internal', 'instance-data', 'instance-data.ec2.internal']);
const ADMIN_PORTS = new Set(['2375', '2376', '10250', '10255', '2379', '2380', '6443', '8001', '8500', '4646', '8200']);
const DOCKER_SOCKET = /(^|\/)(docker|containerd|podman)\.sock$/;

/** The host classes of one argument (a URL, `host:port`, a bare host or the Docker socket path); empty for anything else. */
export function hostClasses(arg: string): string[] {
  if (DOCKER_SOCKET.test(arg)) return ['loopback_admin'];
  const url = parseUrl(arg);
  if (url === null) return [];
  // An IPv4-mapped IPv6 address (`[::ffff:a9fe:a9fe]`) is the IPv4 address.
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/i.exec(url.hostname);
  const host = mapped ? [parseInt(mapped[1] ?? '0', 16) >> 8, parseInt(mapped[1] ?? '0', 16) & 255, parseInt(mapped[2] ?? '0', 16) >> 8, parseInt(mapped[2] ?? '0', 16) & 255].join('.') : url.hostname.toLowerCase().replace(/\.$/, '');
  const classes: string[] = [];
  if (METADATA_HOSTS.has(host)) classes.push('metadata');
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if ((isIP(bare) === 4 && bare.startsWith('169.254.')) || (isIP(bare) === 6 && /^fe[89ab][0-9a-f]:/.test(bare))) classes.push('link_local');
  const loopback = bare === 'localhost' || bare.endsWith('.localhost') || bare === '::1' || (isIP(bare) === 4 && bare.startsWith('127.')) || bare === '0.0.0.0';
  if (loopback && ADMIN_PORTS.has(url.port)) classes.push('loopback_admin');
  return classes;
}

/** A URL, or a host with an optional port and path that reads as one (`169.254.169.254/latest`); null otherwise. */
function parseUrl(arg: string): URL | null {
  if (arg.length > 2048 || /\s/.test(arg)) return null;
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(arg) ? arg : /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d+)?(\/|$)/i.test(arg) && /[.:[]/.test(arg) ? `http://${arg}` : null;
  if (text === null) return null;
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
