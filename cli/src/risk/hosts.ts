import { createRequire } from 'node:module';

/** node:net's isIP, loaded on first use: node:net costs the gate ~5 ms a call, and most calls are not fetches. */
let netIsIP: ((input: string) => number) | undefined;
function isIP(input: string): number {
  netIsIP ??= (createRequire(import.meta.url)('node:net') as typeof import('node:net')).isIP;
  return netIsIP(input);
}

/**
 * Where a URL (or a bare host) points, as classes rules can name with `url_hosts`. The host is
 * read through the WHATWG URL parser, so every spelling of an address is the same address
 * (`http://2852039166/`, `http://0xa9.0xfe.0xa9.0xfe/` and `http://169.254.169.254/` alike).
 */
export const HOST_CLASSES = {
  metadata:
    'A cloud metadata endpoint: 169.254.169.254, 169.254.170.2 (ECS), fd00:ec2::254, ' +
    '100.100.100.200 (Alibaba), 192.0.0.192 (Oracle Classic), metadata.google.internal, ' +
    'metadata.goog, instance-data, metadata.tencentyun.com, metadata.platformequinix.com; ' +
    'also a wildcard-DNS name that spells one (169.254.169.254.nip.io, a9fea9fe.sslip.io).',
  link_local: 'A link-local address: 169.254.0.0/16, fe80::/10.',
  loopback_admin:
    'An admin API on this machine: a loopback address on an admin port (Docker ' +
    '2375/2376, kubelet 10250/10255, etcd 2379/2380, Kubernetes API 6443, kubectl ' +
    'proxy 8001, Consul 8500, Nomad 4646, Vault 8200) or the Docker socket.',
} as const;

/**
 * Metadata endpoints by name: GCP (`metadata.google.internal`, `metadata.goog`, `metadata`), AWS
 * (`instance-data`), Tencent Cloud, Equinix Metal, Oracle Cloud Classic (192.0.0.192), and the
 * addresses of the others (AWS, Azure, DigitalOcean, Hetzner, OpenStack: 169.254.169.254; ECS
 * task metadata 169.254.170.2; Alibaba 100.100.100.200; AWS IPv6 fd00:ec2::254).
 */
const METADATA_HOSTS = new Set([
  '169.254.169.254',
  '169.254.170.2',
  '[fd00:ec2::254]',
  '100.100.100.200',
  '192.0.0.192',
  'metadata.google.internal',
  'metadata.goog',
  'metadata',
  'metadata.azure.com',
  'metadata.internal',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
  'metadata.packet.net',
]);
const ADMIN_PORTS = new Set(['2375', '2376', '10250', '10255', '2379', '2380', '6443', '8001', '8500', '4646', '8200']);
const DOCKER_SOCKET = /(^|\/)(docker|containerd|podman)\.sock$/;
/**
 * Public DNS names that resolve to the address written in them (`169.254.169.254.nip.io`,
 * `169-254-169-254.sslip.io`, `a9fea9fe.nip.io`, `fd00-ec2--254.sslip.io`), and names that
 * always resolve to loopback (`localtest.me`, `lvh.me`): judged as that address.
 */
const WILDCARD_DNS = new RegExp(
  String.raw`(?:^|\.)(nip\.io|sslip\.io|xip\.io|nip\.direct|` +
    String.raw`traefik\.me|backname\.io|localtest\.me|lvh\.me|` +
    String.raw`vcap\.me|localhost\.direct)$`,
);
const LOOPBACK_NAMES = /(^|\.)(localtest\.me|lvh\.me|vcap\.me|localhost\.direct)$/;

/** The address a wildcard-DNS name stands for, as a URL host (IPv6 in brackets); null when it is not one. */
function embeddedAddress(host: string): string | null {
  const match = WILDCARD_DNS.exec(host);
  if (!match) return null;
  if (LOOPBACK_NAMES.test(host)) return '127.0.0.1';
  const labels = host.slice(0, match.index);
  const dotted = /(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})$/.exec(labels);
  if (dotted) {
    const address = dotted.slice(1, 5).join('.');
    if (isIP(address) === 4) return address;
  }
  const hex = /(?:^|[.-])([0-9a-f]{8})$/.exec(labels);
  if (hex) {
    const n = parseInt(hex[1] ?? '0', 16);
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  }
  // sslip.io's IPv6 form: the address with `-` for `:` as the last label.
  const last = labels.slice(labels.lastIndexOf('.') + 1).replace(/-/g, ':');
  return isIP(last) === 6 ? `[${canonicalIPv6(last)}]` : null;
}

/** An IPv6 address in the WHATWG URL parser's (compressed, lower-case) form. */
function canonicalIPv6(address: string): string {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
}

/**
 * The host classes of one argument (a URL, `host:port`, a bare host or the Docker socket path); empty for anything
 * else.
 */
export function hostClasses(arg: string): string[] {
  if (DOCKER_SOCKET.test(arg)) return ['loopback_admin'];
  const url = parseUrl(arg);
  if (url === null) return [];
  // An IPv4-mapped IPv6 address (`[::ffff:a9fe:a9fe]`) is the IPv4 address.
  const mapped = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/i.exec(url.hostname);
  const named = mapped
    ? [
        parseInt(mapped[1] ?? '0', 16) >> 8,
        parseInt(mapped[1] ?? '0', 16) & 255,
        parseInt(mapped[2] ?? '0', 16) >> 8,
        parseInt(mapped[2] ?? '0', 16) & 255,
      ].join('.')
    : url.hostname.toLowerCase().replace(/\.$/, '');
  const host = embeddedAddress(named) ?? named;
  const classes: string[] = [];
  if (METADATA_HOSTS.has(host)) classes.push('metadata');
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  if ((isIP(bare) === 4 && bare.startsWith('169.254.')) || (isIP(bare) === 6 && /^fe[89ab][0-9a-f]:/.test(bare)))
    classes.push('link_local');
  const loopback =
    bare === 'localhost' ||
    bare.endsWith('.localhost') ||
    bare === '::1' ||
    (isIP(bare) === 4 && bare.startsWith('127.')) ||
    bare === '0.0.0.0';
  if (loopback && ADMIN_PORTS.has(url.port)) classes.push('loopback_admin');
  return classes;
}

/** A URL, or a host with an optional port and path that reads as one (`169.254.169.254/latest`); null otherwise. */
function parseUrl(arg: string): URL | null {
  if (arg.length > 2048 || /\s/.test(arg)) return null;
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(arg)
    ? arg
    : /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d+)?(\/|$)/i.test(arg) && /[.:[]/.test(arg)
      ? `http://${arg}`
      : null;
  if (text === null) return null;
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
